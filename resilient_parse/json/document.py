"""The reader: one pass over a candidate's text that writes strict JSON text and records every repair it makes.

Linear by construction: an explicit stack (no recursion), each character is looked at by one token match or one
C-speed search that moves forward, and a complete, already valid nested value is read by the json module's C
scanner in one call (after it fails once at an offset, it is not tried again before that offset, so nothing is
scanned twice). Python works per token, never per character.

Every `Repair` carries its JSON Pointer (tracked on the stack during the pass) and its offset in the candidate
text the reader was given — the one reference point for offsets everywhere in the reader.

Lossless repairs are always made. A lossy repair (a guess about quotes, a bare word read as a string, …) is made
only when its kind is in `lossy`, the set the policy allows; otherwise the reader stops with a `ReadFailure`
naming the place. Where two readings are plausible the failure says so (kind "ambiguous"). When the text ends
with containers still open, the reader does not decide how to close them: it returns the state as a `Cut` for
the schema-aware rules of `read_truncation`."""

from __future__ import annotations

import json

from resilient_parse.json.containers import (
    after_the_end,
    close_container,
    comment,
    copy_runs,
    flat_object,
    open_container,
)
from resilient_parse.json.frames import Cut, Reading, path_of
from resilient_parse.json.runs import FLAT_OBJECT, ITEM_RUN, LOOSE_ITEM_RUN, LOOSE_MEMBER_RUN, MEMBER_RUN
from resilient_parse.json.state import (
    Reader,
    add,
    allowed,
    begin_value,
    emit_key,
    end_value,
    expecting_key,
    fail,
    set_cut,
)
from resilient_parse.json.strings import (
    cut_quoted,
    doubled_or_triple,
    emit_string,
    one_string_with_inner_quotes,
    string_value_follow,
    unclosed_string,
)
from resilient_parse.json.tokens import (
    _AFTER_VALUE,
    _BACKTICK_CLOSE,
    _DIGIT_START,
    _DOUBLED_SQ,
    _EMPTY_FOLLOWS,
    _ENDS_A_NUMBER,
    _FULLWIDTH,
    _INVISIBLE,
    _KEY_ESCAPE,
    _LOOSE_STRING,
    _NUMBER,
    _RUN_STARTS,
    _STRING,
    _WORD_START,
    _WS,
    COLON,
    COMMA_OR_END,
    DONE,
    KEY,
    KEY_OR_END,
    VALUE,
    VALUE_OR_END,
    _odd_backslashes_before_end,
    _quoted,
    _read_single_quoted,
    _runs_on,
    _too_deep,
    fix_string,
    valid_value_end,
)
from resilient_parse.json.words import elided, in_range, loose_number, word


def read(text: str, *, lossy: frozenset[str] = frozenset(), max_depth: int = 400) -> Reading:
    """Read `text` into strict JSON text in one pass. Raises `ReadFailure` where it cannot read within the
    lossless repairs and the lossy kinds in `lossy`. A text that ends with containers open gives a `Reading`
    with a `Cut` for `read_truncation` to judge."""
    r = Reader(text, lossy, max_depth)
    n, out, repairs, stack, opened = r.n, r.out, r.repairs, r.stack, r.opened
    pos = 0
    decode_floor = 0  # the C scanner is not tried again before the offset where it last failed
    decode_skip = decode_wait = 0  # how many containers to read by tokens before trying the C scanner again
    flat_skip = flat_wait = 0  # likewise, how many objects to read by tokens before trying FLAT_OBJECT again
    # text before the last failure may still hold complete valid values (a document cut at its very end fails at
    # the end, its lists inside are whole): they may be tried again, within one more reading of the text in all
    rescan_budget = n

    while pos < n:
        c = text[pos]
        if c in " \t\r\n":
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                break
            c = text[pos]
        if c in _RUN_STARTS:
            runs = (
                (MEMBER_RUN, LOOSE_MEMBER_RUN)
                if r.state in (KEY, KEY_OR_END)
                else (ITEM_RUN, LOOSE_ITEM_RUN)
                if r.state == VALUE_OR_END or (r.state == VALUE and stack and not stack[-1].is_object)
                else None
            )
            if runs is not None:
                end = copy_runs(r, pos, *runs)
                if end is not None:
                    pos = end
                    continue
        c = text[pos]
        at = pos
        if c in " \t\r\n":
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            continue
        if c == '"':
            if r.state == DONE:
                raise fail(r, "unexpected text after the end of the JSON value", at, "trailing_text")
            if (
                text.startswith('""', pos)
                and r.state != COMMA_OR_END
                and pos + 2 < n
                and text[pos + 2] not in _EMPTY_FOLLOWS
            ):
                read_as = doubled_or_triple(r, at)
                if read_as >= 0:
                    pos = read_as
                    continue
            m = _STRING.match(text, pos)
            if m is not None:
                pos = m.end()
                tok = m.group()
                if not stack and r.state == VALUE and pos < n and text[pos] in '"]}':
                    whole = one_string_with_inner_quotes(r, at, pos)
                    if whole >= 0:
                        pos = whole
                        continue
                if pos >= n or text[pos] in _AFTER_VALUE or expecting_key(r):
                    pos = emit_string(r, tok, at, pos, (), tok)
                else:
                    pos = string_value_follow(r, at, pos, tok, [], tok)
                continue
            tok = _LOOSE_STRING.match(text, pos).group()  # type: ignore[union-attr]
            if len(tok) < 2 or tok[-1] != '"' or (tok.endswith('\\"') and _odd_backslashes_before_end(tok)):
                pos = unclosed_string(r, at)
                continue
            pos = at + len(tok)
            fixed, kinds = fix_string(tok)
            if pos >= n or text[pos] in _AFTER_VALUE or expecting_key(r):
                pos = emit_string(r, fixed, at, pos, kinds, tok)
            else:
                pos = string_value_follow(r, at, pos, fixed, kinds, tok)
            continue
        if r.state == DONE:
            pos = after_the_end(r, at, c)
            continue
        if c in _FULLWIDTH:
            add(r, "fullwidth_punctuation", c, _FULLWIDTH[c], at)
            c = _FULLWIDTH[c]
        if c == "{" or c == "[":
            begin_value(r, at)
            if decode_wait:
                decode_wait -= 1
            elif (at >= decode_floor or rescan_budget > 0) and text[at] == c:
                end, failed_at = valid_value_end(text, at)
                if at < decode_floor:
                    rescan_budget -= (end if end >= 0 else failed_at) - at
                if end < 0:
                    decode_floor = max(failed_at, decode_floor, at + 1)
                    if failed_at < n:
                        # siblings are usually written alike: after a failure, try the C scanner ever less often
                        # (a failure at the very end is a cut: what it holds may well be whole)
                        decode_skip = min(max(1, decode_skip * 2), 64)
                        decode_wait = decode_skip
                else:
                    decode_skip = 0
                    if _too_deep(text, at, end, max_depth - len(stack)):
                        decode_floor = n
                        open_container(r, at, "}" if c == "{" else "]")
                        pos += 1
                        continue
                    out.append(text[at:end])
                    pos = end
                    r.root_raw = not stack
                    end_value(r, end)
                    continue
            if c == "{" and len(stack) < max_depth and text[at] == "{":
                if flat_wait:
                    flat_wait -= 1
                else:
                    flat = FLAT_OBJECT.match(text, at)
                    # the root only when nothing follows it (what may follow a root is read with its frame)
                    if flat is not None and (stack or not text[flat.end() :].strip(" \t\r\n")):
                        flat_skip = 0
                        pos = flat_object(r, flat)
                        continue
                    # siblings are written alike: after a failure, try the match ever less often
                    flat_skip = min(max(1, flat_skip * 2), 64)
                    flat_wait = flat_skip
            open_container(r, at, "}" if c == "{" else "]")
            pos += 1
            continue
        if c == "}" or c == "]" or c == ")":
            if not stack:
                raise fail(r, f"unexpected '{c}'", at)
            top = stack[-1]
            if top.closer != c and len(stack) == 1 and c != ")" and not opened[c] and "stray_closer" in lossy:
                follows = _WS.match(text, at + 1)
                nxt = follows.end() if follows else at + 1
                if nxt < n and text[nxt] == ",":
                    # `[{"a": 1}}, {"b": 2}]`: a '}' with no object open closes nothing; as the root list's ']'
                    # it would leave the items after it outside the answer (deeper, as an inner list's ']', it
                    # is the other plausible reading, so the mismatched-bracket rule below stands)
                    add(r, "stray_closer", c, "", at, path=top.prefix)
                    pos += 1
                    continue
            if top.closer != c:
                if c == ")" or top.closer == ")" or "mismatched_bracket" not in lossy:
                    raise fail(r, f"unexpected '{c}' inside an open {'object' if top.is_object else 'list'}", at)
                add(r, "mismatched_bracket", c, top.closer, at, path=top.prefix)
            close_container(r, at)
            pos += 1
            continue
        if c == ",":
            if r.state != COMMA_OR_END:
                if r.state == VALUE and stack and stack[-1].is_object:
                    raise fail(r, "a key has no value", at, "missing_value")
                raise fail(r, "unexpected ','", at)
            top = stack[-1]
            top.last_comma = top.member_start = len(out)
            top.last_comma_at = at
            out.append(",")
            if top.is_object:
                top.key = None
                top.open_run = ""
            r.state = KEY if top.is_object else VALUE
            pos += 1
            continue
        if c == ":":
            if r.state != COLON:
                raise fail(r, "unexpected ':'", at)
            out.append(":")
            r.state = VALUE
            pos += 1
            continue
        if c in _DIGIT_START:
            if expecting_key(r):
                if text.startswith("..", pos):
                    pos = loose_number(r, at)  # `{"a": 2, ...}`: members elided (raises)
                    continue
                m = _NUMBER.match(text, pos)
                colon = _WS.match(text, m.end()) if m is not None else None
                after = (colon.end() if colon else m.end()) if m is not None else n
                if m is None or after >= n or text[after] != ":":
                    raise fail(r, "a number cannot be an object key", at)
                # `{2: "b"}`: a JavaScript (or Python) number key, which JSON writes as a string
                emit_key(r, json.dumps(m.group()), at, ("bare_key", m.group()))
                pos = m.end()
                continue
            m = _NUMBER.match(text, pos)
            if m is not None:
                end = m.end()
                if end < n and text[end] not in _ENDS_A_NUMBER and _runs_on(text, end):
                    pos = loose_number(r, at)
                    continue
                begin_value(r, at, number=True)
                if end >= n and stack:
                    pos = set_cut(r, "value", path_of(stack), at, "the output ends inside a number")
                    continue
                out.append(in_range(r, m.group(), at))
                pos = end
                end_value(r, pos, number=True)
                continue
            pos = loose_number(r, at)
            continue
        if c in _WORD_START or (expecting_key(r) and (c.isalpha() or _KEY_ESCAPE.match(text, at) is not None)):
            pos = word(r, at)
            continue
        if c == "(":
            begin_value(r, at)
            add(r, "python_tuple", "(", "[", at)
            open_container(r, at, ")")
            pos += 1
            continue
        if c == "/" or c == "#":
            pos = comment(r, at)
            continue
        if c == "'":
            if r.doubled_keys and text.startswith("''", at):
                doubled_sq = _DOUBLED_SQ.match(text, at)
                if doubled_sq is not None:
                    allowed(r, "doubled_quotes", "a string in doubled quotes is not JSON", at)
                    pos = emit_string(
                        r, _quoted(doubled_sq.group(1)), at, doubled_sq.end(), ("doubled_quotes",), doubled_sq.group()
                    )
                    continue
            got = _read_single_quoted(text, at)
            if got is None:
                pos = cut_quoted(r, at, "a single-quoted string never closes")
                continue
            fixed, end = got
            pos = emit_string(r, fixed, at, end, ("single_quotes",), text[at:end])
            continue
        if c == "\u2018":
            # ‘…’ read like '…': the ’ of "it’s" is an apostrophe, not the closing quote
            got = _read_single_quoted(text, at, "\u2019")
            if got is None:
                pos = cut_quoted(r, at, "a curly-quoted string never closes")
                continue
            fixed, end = got
            pos = emit_string(r, fixed, at, end, ("fullwidth_punctuation",), text[at:end])
            continue
        if c == "\u201c" or c == "\uff02":
            close = text.find("\u201d" if c == "\u201c" else c, pos + 1)
            if close < 0:
                pos = cut_quoted(r, at, "a quoted string never closes")
                continue
            body = text[at + 1 : close]
            fixed = json.dumps(body, ensure_ascii=False) if c == "\u201c" else _quoted(body)
            pos = emit_string(r, fixed, at, close + 1, ("fullwidth_punctuation",), text[at : close + 1])
            continue
        if c == "`" and not text.startswith("``", at):
            # `a`, `a´: a JavaScript string in backticks (one with `${…}` in it is a template, not a string)
            closing = _BACKTICK_CLOSE.search(text, at + 1)
            if closing is None:
                pos = cut_quoted(r, at, "a string in backticks never closes")
                continue
            body = text[at + 1 : closing.start()]
            if "${" in body:
                raise fail(r, "a JavaScript template string with `${…}` in it is not a string value", at)
            pos = emit_string(r, _quoted(body), at, closing.end(), ("single_quotes",), text[at : closing.end()])
            continue
        if c == "\u2026":
            raise elided(r, at, c)
        if c in _INVISIBLE:
            add(r, "invisible_character", c, "", at)
            pos += 1
            continue
        if c == "\\" and text.startswith('\\"', at):
            # `\"hello"`: JSON copied out of a JSON string, but not every quote or escape reads as one level of
            # escaping (those that do are unescaped before the reader sees them)
            raise fail(
                r,
                "a backslash-escaped quote outside any string: escaped JSON whose escapes do not all read as one "
                "level (unescape it, or drop the backslash?) — two readings",
                at,
                "ambiguous",
            )
        raise fail(r, f"unexpected character {c!r}", at)

    if r.cut is not None:
        return Reading(out, repairs, stack, r.cut)
    if r.state == DONE:
        return Reading(out, repairs, stack)
    if not stack:
        raise fail(r, "no JSON value found", n, "empty")
    top = stack[-1]
    if r.state in (COLON, VALUE) and top.is_object:
        return Reading(out, repairs, stack, Cut("value", path_of(stack), n, "the output ends before this key's value"))
    if r.state in (KEY, VALUE):
        return Reading(
            out,
            repairs,
            stack,
            Cut("member", top.prefix, n, "the output ends after a ',': the next member was cut off"),
        )
    lists = [f for f in stack if not f.is_object]
    where = lists[-1].prefix if lists else top.prefix
    kind = "open" if r.state in (KEY_OR_END, VALUE_OR_END) else "complete"
    return Reading(out, repairs, stack, Cut(kind, where, n, "the output ends before its closing bracket"))
