"""The grammar of strings: whole and broken ones, doubled and triple quotes, inner quotes, concatenation and
strings the text ended inside."""

from __future__ import annotations

import json

from resilient_parse.json.frames import path_of
from resilient_parse.json.state import (
    Reader,
    add,
    after_the_value,
    allowed,
    begin_value,
    emit_key,
    emit_value,
    expecting_key,
    fail,
    set_cut,
    touches_a_quote,
    with_escapes,
)
from resilient_parse.json.tokens import (
    AFTER_VALUE,
    BACKTICK_CLOSE,
    COMMA_OR_END,
    CONCAT,
    DIGIT_START,
    DONE,
    DOUBLED,
    DOUBLED_SQ,
    EMPTY_FOLLOWS,
    INNER_QUOTE_BEFORE,
    INVISIBLE,
    KEY,
    KEY_AFTER_QUOTE,
    LITERAL_WORDS,
    LOOSE_STRING,
    STRING,
    TRIPLE_BODY,
    VALUE,
    after_spaces,
    as_json_string,
    fix_string,
    odd_backslashes_before_end,
    one_string_before_closers,
    read_single_quoted,
    word_at,
)


def emit_string(r: Reader, fixed: str, at: int, end: int, kinds: tuple[str, ...] | list[str], original: str) -> int:
    """A string token just read, as a key or a value; returns where reading goes on."""
    if expecting_key(r):
        emit_key(r, fixed, at)
        for kind in with_escapes(r, kinds, original, at):
            add(r, kind, original, fixed, at)
        return end
    emit_value(r, fixed, at, end, kinds, original)
    return concatenated(r, end)


def concatenated(r: Reader, end: int) -> int:
    """`'hello' + 'world'`: JavaScript string concatenation, read as the one string it makes."""
    while True:
        plus = CONCAT.match(r.text, end)
        if plus is None:
            return end
        at = plus.end()
        if r.text[at] == "'":
            got = read_single_quoted(r.text, at)
            if got is None:
                return end
            more, after = got
        else:
            m = STRING.match(r.text, at)
            if m is None:
                return end
            more, after = m.group(), m.end()
        joined = json.dumps(json.loads(r.out[-1]) + json.loads(more), ensure_ascii=False)
        add(r, "string_concatenation", r.text[end:after], joined, end)
        r.out[-1] = joined
        end = after


def string_value_follow(r: Reader, at: int, end: int, fixed: str, kinds: list[str], original: str) -> int:
    """A string value followed by something other than structure: concatenation, a missing quote before the
    next key (`"Bob, "age": 30`), or quotes inside the string left unescaped (`"a 24" screen"`)."""
    j = after_spaces(r.text, end)
    nxt = r.text[j] if j < r.n else ""
    in_list = bool(r.stack) and not r.stack[-1].is_object
    if (
        not nxt
        or nxt in AFTER_VALUE
        or nxt in "\"'{[+\u201c\u2018"
        or nxt in INVISIBLE
        or (nxt == ")" and in_list and r.stack[-1].closer == ")")
        or (in_list and j > end and (nxt in DIGIT_START or word_at(r.text, j) in LITERAL_WORDS))
    ):
        return emit_string(r, fixed, at, end, kinds, original)
    key = KEY_AFTER_QUOTE.match(r.text, end)
    body = r.text[at + 1 : end - 1]
    if key is not None and j == end:
        comma = body.rfind(",")
        if comma < 0 or body[comma + 1 :].strip():
            raise fail(
                r,
                "a quoted word followed by ':' right after a string: a key missing its quote, or a quote "
                "inside the string? Two readings",
                end,
                "ambiguous",
            )
        allowed(r, "missing_quote", "a string is missing its closing quote before the next key", at)
        value = as_json_string(body[:comma].rstrip())
        emit_value(r, value, at, end, ["missing_quote"], r.text[at:end])
        top = r.stack[-1]
        top.last_comma = top.member_start = len(r.out)
        top.last_comma_at = at + 1 + comma
        top.key = None
        r.out.append(",")
        r.state = KEY
        emit_key(r, json.dumps(key.group(1)), end, ("missing_quote", key.group(1) + '"'))
        return key.end(1) + 1
    # quotes inside the string: the string ends at the next quote followed by structure
    if not body.strip():
        raise fail(r, "text after an empty string: an unescaped quote, or a stray one?", end)
    if "\n" in body or not (body[-1].isalnum() or body[-1] in INNER_QUOTE_BEFORE) or (in_list and j > end):
        # `["value1" value2", …]`, `["hello,"world"]`: a quote inside the string, or a missing quote and comma
        raise fail(
            r, "text after a closing quote: a quote inside the string, or a new value? Two readings", end, "ambiguous"
        )
    allowed(r, "inner_quote", "text after a closing quote: an unescaped quote inside the string?", end)
    k = end
    while True:
        q = r.text.find('"', k)
        if q < 0:
            raise fail(r, "a quote inside a string, and no later quote closes it", end)
        after = after_spaces(r.text, q + 1)
        if after >= r.n or r.text[after] in ",}]\n\r":
            break
        if r.text[after] == ":":
            raise fail(
                r, "a quote inside a string, then a quoted key: where the string ends is unclear", q, "ambiguous"
            )
        k = q + 1
    value = as_json_string(r.text[at + 1 : q])
    emit_value(r, value, at, q + 1, [*kinds, "inner_quote"], r.text[at : q + 1])
    return q + 1


def one_string_with_inner_quotes(r: Reader, at: int, end: int) -> int:
    """A text that is one string whose quotes inside were left unescaped (`"the set {a, b"} more"`,
    `"The TV is 72""`): the first closing quote is followed by a bracket no value can have after it, or by the
    text's last quote, and the text ends with a quote on the same line. Then the string runs to that last
    quote (lossy); where reading goes on, or -1 when the text is not such a string."""
    last = len(r.text.rstrip()) - 1
    if last <= end - 1 or r.text[last] != '"' or r.text.find("\n", at, last) >= 0:
        return -1
    if r.text[end] == '"' and last != end:
        return -1  # `"a""b"`: two strings missing their comma, or quotes inside one
    allowed(r, "inner_quote", "a quote inside the string, then text: an unescaped quote?", end)
    emit_value(r, as_json_string(r.text[at + 1 : last]), at, last + 1, ["inner_quote"], r.text[at : last + 1])
    return last + 1


def unclosed_string(r: Reader, at: int) -> int:
    """A double-quoted string that never closes: a missing closing quote right before the closers the open
    containers need (`{"a": "b}`), or a cut."""
    closers = "".join(f.closer for f in reversed(r.stack))
    tail = r.text[at + 1 :].rstrip()
    line_end = tail.find("\n")
    if line_end >= 0 and "".join(tail[line_end:].split()) == closers:
        tail = tail[:line_end].rstrip() + closers  # `["abc\n]\n`: the closers on lines of their own
    if (
        closers
        and "missing_quote" in r.lossy
        and tail.endswith(closers)
        and "\n" not in tail
        and len(tail) > len(closers)
    ):
        body = tail[: -len(closers)]
        close_at = at + 1 + len(body)
        if not one_string_before_closers(body, r.stack[-1].is_object and not expecting_key(r)):
            return cut_quoted(r, at, "the output ends inside a string (or a quote is missing: where is unclear)")
        if expecting_key(r):
            key, colon, value = body.partition(":")
            if not colon or not key.strip():
                return cut_quoted(r, at, "the output ends inside a key")
            emit_key(r, json.dumps(key), at, ("missing_quote", r.text[at:close_at]))
            r.out.append(":")
            r.state = VALUE
            emit_value(r, json.dumps(value.strip()), at, close_at, [], value)
            return close_at
        # the space before the closers is the text's layout, as it is after any value (`["abc  ]`)
        emit_value(r, as_json_string(body.rstrip()), at, close_at, ["missing_quote"], r.text[at:close_at])
        return close_at
    return cut_quoted(r, at, "the output ends inside a string")


def cut_quoted(r: Reader, at: int, message: str) -> int:
    """A quoted string the text ended inside: a cut key or value for `read_truncation` to judge."""
    if r.state == COMMA_OR_END and touches_a_quote(r, at):
        # `{"name": "x""}`: the quote is the string's own, unescaped, not a cut member missing its comma
        raise fail(r, "a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes")
    if expecting_key(r):
        return set_cut(r, "member", r.stack[-1].prefix if r.stack else "", at, message, r.text[at + 1 :])
    begin_value(r, at)
    return set_cut(r, "value", path_of(r.stack), at, message)


def doubled_or_triple(r: Reader, at: int) -> int:
    """A Python triple-quoted string or a string in doubled quotes (`""text""`): where reading goes on, or
    -1 when the text is neither (an empty string followed by more)."""
    if r.text.startswith('"""', at):
        triple = TRIPLE_BODY.match(r.text, at)
        if triple is not None and any(ch.isalnum() for ch in triple.group(1)):
            allowed(r, "triple_quotes", "a triple-quoted string is not JSON", at)
            return emit_string(r, as_json_string(triple.group(1)), at, triple.end(), ("triple_quotes",), triple.group())
        return -1
    doubled = DOUBLED.match(r.text, at)
    if doubled is None:
        return -1
    if expecting_key(r):
        r.doubled_keys = True
    elif not r.doubled_keys:
        # `""quoted""` as a value alone: the string "quoted" in doubled quotes, or '"quoted"' with its quotes
        # unescaped — only keys written the same way (`{""answer"": ""5""}`) say which
        raise fail(r, '""x"" is "x" in doubled quotes or \'"x"\' with unescaped quotes: two readings', at, "ambiguous")
    allowed(r, "doubled_quotes", 'a string in doubled quotes (""x"") is not JSON', at)
    return emit_string(r, as_json_string(doubled.group(1)), at, doubled.end(), ("doubled_quotes",), doubled.group())


def double_quoted(r: Reader, at: int, c: str) -> int:
    """A string in double quotes: whole and valid, doubled or triple, with inner quotes, or broken."""
    text, n = r.text, r.n
    if r.state == DONE:
        raise after_the_value(r, at)
    if text.startswith('""', at) and r.state != COMMA_OR_END and at + 2 < n and text[at + 2] not in EMPTY_FOLLOWS:
        read_as = doubled_or_triple(r, at)
        if read_as >= 0:
            return read_as
    m = STRING.match(text, at)
    if m is not None:
        end = m.end()
        tok = m.group()
        if not r.stack and r.state == VALUE and end < n and text[end] in '"]}':
            whole = one_string_with_inner_quotes(r, at, end)
            if whole >= 0:
                return whole
        if end >= n or text[end] in AFTER_VALUE or expecting_key(r):
            return emit_string(r, tok, at, end, (), tok)
        return string_value_follow(r, at, end, tok, [], tok)
    tok = LOOSE_STRING.match(text, at).group()  # type: ignore[union-attr]
    if len(tok) < 2 or tok[-1] != '"' or (tok.endswith('\\"') and odd_backslashes_before_end(tok)):
        return unclosed_string(r, at)
    end = at + len(tok)
    fixed, kinds = fix_string(tok)
    if end >= n or text[end] in AFTER_VALUE or expecting_key(r):
        return emit_string(r, fixed, at, end, kinds, tok)
    return string_value_follow(r, at, end, fixed, kinds, tok)


def single_quoted(r: Reader, at: int, c: str) -> int:
    """A string in single quotes (or in doubled single quotes, where keys came in doubled quotes)."""
    text = r.text
    if r.doubled_keys and text.startswith("''", at):
        doubled_sq = DOUBLED_SQ.match(text, at)
        if doubled_sq is not None:
            allowed(r, "doubled_quotes", "a string in doubled quotes is not JSON", at)
            fixed = as_json_string(doubled_sq.group(1))
            return emit_string(r, fixed, at, doubled_sq.end(), ("doubled_quotes",), doubled_sq.group())
    got = read_single_quoted(text, at)
    if got is None:
        return cut_quoted(r, at, "a single-quoted string never closes")
    fixed, end = got
    return emit_string(r, fixed, at, end, ("single_quotes",), text[at:end])


def curly_single_quoted(r: Reader, at: int, c: str) -> int:
    """‘…’ read like '…': the ’ of "it’s" is an apostrophe, not the closing quote."""
    got = read_single_quoted(r.text, at, "\u2019")
    if got is None:
        return cut_quoted(r, at, "a curly-quoted string never closes")
    fixed, end = got
    return emit_string(r, fixed, at, end, ("fullwidth_punctuation",), r.text[at:end])


def curly_double_quoted(r: Reader, at: int, c: str) -> int:
    """“…” (taken raw) or ＂…＂."""
    text = r.text
    close = text.find("\u201d" if c == "\u201c" else c, at + 1)
    if close < 0:
        return cut_quoted(r, at, "a quoted string never closes")
    body = text[at + 1 : close]
    fixed = json.dumps(body, ensure_ascii=False) if c == "\u201c" else as_json_string(body)
    return emit_string(r, fixed, at, close + 1, ("fullwidth_punctuation",), text[at : close + 1])


def backtick_quoted(r: Reader, at: int, c: str) -> int:
    """`a`, `a´: a JavaScript string in backticks (one with `${…}` in it is a template, not a string)."""
    text = r.text
    if text.startswith("``", at):
        raise fail(r, f"unexpected character {c!r}", at)
    closing = BACKTICK_CLOSE.search(text, at + 1)
    if closing is None:
        return cut_quoted(r, at, "a string in backticks never closes")
    body = text[at + 1 : closing.start()]
    if "${" in body:
        raise fail(r, "a JavaScript template string with `${…}` in it is not a string value", at)
    return emit_string(r, as_json_string(body), at, closing.end(), ("single_quotes",), text[at : closing.end()])
