"""The grammar of bare words and numbers: literals of other languages, loose and out-of-range numbers, a word
that is a string without its quotes."""

from __future__ import annotations

import json
import math

from resilient_parse.json.failure import ReadFailure
from resilient_parse.json.frames import path_of
from resilient_parse.json.state import (
    Reader,
    add,
    allowed,
    begin_value,
    emit_key,
    emit_value,
    end_value,
    expecting_key,
    fail,
    set_cut,
)
from resilient_parse.json.tokens import (
    AFTER_DIGIT_WORD,
    BARE_VALUE,
    BROKEN_EXPONENT,
    CUT_NUMBER,
    DIGIT_START,
    DIGIT_WORD,
    ENDS_A_NUMBER,
    HEX,
    JSON_LITERALS,
    KEY_WORD,
    LITERAL_WORDS,
    LOOSE_NUMBER,
    MONGO,
    NUMBER,
    PY_LITERALS,
    STRING,
    UNDERSCORED,
    WORD,
    WS,
    as_json_string,
    fix_string,
    normalise_number,
    runs_on,
    word_at,
    word_char_at,
)


def elided(r: Reader, at: int, tok: str) -> ReadFailure:
    """The failure for `...` or `…` where items were left out: what they were is unknown, so no reading guesses."""
    where = r.stack[-1].prefix if r.stack and (not r.stack[-1].is_object or expecting_key(r)) else path_of(r.stack)
    return ReadFailure(f"the output elides items with {tok!r}: what was left out is unknown", at, where, "elided")


def loose_number(r: Reader, at: int) -> int:
    """A number JSON does not write (hex, underscores, a leading `+` or `.`, `-Infinity`) or a word that starts
    with a digit."""
    if r.text.startswith("..", at):
        end = at
        while end < r.n and r.text[end] == ".":
            end += 1
        raise elided(r, at, r.text[at:end])
    if r.text.startswith("-Infinity", at):
        return word(r, at + 1, r.text[at + 1], negative=True)
    if r.text.startswith("+Infinity", at) and not word_char_at(r.text, at + 9):
        add(r, "number_format", "+Infinity", "Infinity", at)  # JSON5's explicit sign: the same number
        return word(r, at + 1, r.text[at + 1])
    for pattern, kind in ((HEX, "hex_number"), (UNDERSCORED, "number_underscores"), (LOOSE_NUMBER, "")):
        m = pattern.match(r.text, at)
        if m is None:
            continue
        end = m.end()
        if end < r.n and r.text[end] not in ENDS_A_NUMBER and runs_on(r.text, end):
            continue
        tok = m.group()
        if kind == "hex_number":
            fixed = str(int(tok, 16))
        else:
            try:
                fixed = normalise_number(tok.replace("_", ""))
            except ValueError:
                raise fail(
                    r, f"number {tok!r} has leading zeros; its meaning is unclear", at, "leading_zeros"
                ) from None
            kind = kind or "number_format"
        begin_value(r, at, number=True)
        if end >= r.n and r.stack:
            return set_cut(r, "value", path_of(r.stack), at, "the output ends inside a number")
        if fixed != tok:
            add(r, kind, tok, fixed, at)
        r.out.append(in_range(r, fixed, at))
        end_value(r, end, number=True)
        return end
    if not expecting_key(r) and CUT_NUMBER.fullmatch(r.text, at) is not None:
        # `[-`, `[1e+`, `[-.`, `2e` at the very end: a number was cut before its digits, not a stray character
        begin_value(r, at)
        return set_cut(r, "value", path_of(r.stack), at, "the output ends inside a number")
    if r.text[at].isdigit():
        return digit_word(r, at)
    raise fail(r, f"unexpected character {r.text[at]!r}", at)


def in_range(r: Reader, token: str, at: int) -> str:
    """The number token, unless it is past a float's range (`1e999999` would read as infinity)."""
    floating = "e" in token or "E" in token or ("." in token and len(token) > 308)  # an integer is exact
    if floating and math.isinf(float(token)):
        raise fail(
            r,
            f"the number {token[:40]!r} is out of a float's range: read as a float it would be infinity",
            at,
            "number_out_of_range",
        )
    return token


def digit_word(r: Reader, at: int) -> int:
    """A word that starts with a digit but is no number (`1.1.1`, `57eeeeb1-450b`, `2024-10-18T18:35Z`,
    `10-20`, `2notanumber`): in lenient, the string it spells (a bare string, lossy); a number cut before its
    exponent's digits (`2e`, `1.5E+`) is no word, and neither is anything run into other text."""
    m = DIGIT_WORD.match(r.text, at)
    end = m.end()  # type: ignore[union-attr]
    tok = r.text[at:end]
    if (
        "bare_string" not in r.lossy
        or BROKEN_EXPONENT.fullmatch(tok) is not None
        or (end < r.n and r.text[end] not in AFTER_DIGIT_WORD)
    ):
        raise fail(
            r,
            "a number run into letters, dots or signs (`2e+`, `1.2.3`, `1/3`): not a number JSON can read",
            at,
            "bad_number",
        )
    begin_value(r, at, number=True)
    if end >= r.n and r.stack:
        return set_cut(r, "value", path_of(r.stack), at, "the output ends inside an unquoted value")
    fixed = json.dumps(tok)
    add(r, "bare_string", tok, fixed, at)
    r.out.append(fixed)
    end_value(r, end)
    return end


def word(r: Reader, at: int, c: str, negative: bool = False) -> int:
    """A word: a key without quotes, a literal of JSON or another language, a Mongo-shell wrapper or a string
    without its quotes."""
    m = (KEY_WORD if expecting_key(r) and not negative else WORD).match(r.text, at)
    tok = m.group()  # type: ignore[union-attr]
    end = m.end()  # type: ignore[union-attr]
    start = at - 1 if negative else at
    if negative:
        tok = "-" + tok
    if expecting_key(r):
        return _word_as_key(r, at, tok, end)
    if end >= r.n and r.stack and tok not in JSON_LITERALS and tok not in PY_LITERALS and tok != "undefined":
        begin_value(r, start)
        return set_cut(r, "value", path_of(r.stack), start, "the output ends inside a literal")
    if tok in JSON_LITERALS:
        emit_value(r, tok, start, end, (), tok)
        return end
    if tok in PY_LITERALS:
        emit_value(r, PY_LITERALS[tok], start, end, ("python_literal",), tok)
        return end
    if tok.lower() in ("true", "false", "null", "none") and not negative:
        # `TRUE`, `Null`: a literal in another case — or a string without quotes
        allowed(r, "literal_case", f"{tok!r} is not a JSON literal", at)
        fixed = "null" if tok.lower() == "none" else tok.lower()
        emit_value(r, fixed, start, end, ("literal_case",), tok)
        return end
    if tok == "undefined":
        if "js_literal" not in r.lossy:
            begin_value(r, start)
            raise fail(r, "JavaScript's undefined is not JSON; reading it as null would be a guess", at, "js_literal")
        emit_value(r, "null", start, end, ("js_literal",), tok)
        return end
    if end < r.n and r.text[end] == "(":
        wrapped = MONGO.match(r.text, at)
        if wrapped is None:
            raise fail(r, f"a function call {tok}(…) where a value should be", at)
        allowed(r, "mongo_wrapper", f"a Mongo-shell wrapper {tok}(…) is not JSON", at)
        inner = wrapped.group(1)
        if inner[0] == '"':
            fixed = fix_string(inner)[0]
        elif inner[0] == "'":
            fixed = as_json_string(inner[1:-1])
        else:
            fixed = inner
        emit_value(r, fixed, at, wrapped.end(), ("mongo_wrapper",), wrapped.group())
        return wrapped.end()
    return _bare_string(r, at, tok)


def _word_as_key(r: Reader, at: int, tok: str, end: int) -> int:
    """A bare word where a key goes: a key without quotes (or missing its opening one), a stray word between
    members, or a key the text ended inside."""
    j = WS.match(r.text, end)
    nxt_at = j.end() if j is not None else end
    nxt = r.text[nxt_at] if nxt_at < r.n else ""
    if nxt == ":" or nxt == "\uff1a":
        emit_key(r, f'"{tok}"', at, ("bare_key", tok))
        return end
    if nxt == '"' and nxt_at == end:
        colon = WS.match(r.text, end + 1)
        if (colon.end() if colon else end + 1) < r.n and r.text[colon.end() if colon else end + 1] == ":":
            # `{a":"foo"}`: a key missing its opening quote
            allowed(r, "missing_quote", f"the key {tok!r} is missing its opening quote", at)
            emit_key(r, f'"{tok}"', at, ("missing_quote", r.text[at : end + 1]))
            return end + 1
        raise fail(r, f"unquoted text {tok!r} followed by a quote where a key should be", at)
    if nxt == '"':
        quoted = STRING.match(r.text, nxt_at)
        colon = WS.match(r.text, quoted.end()) if quoted is not None else None
        after = (colon.end() if colon else quoted.end()) if quoted is not None else r.n
        if quoted is not None and after < r.n and r.text[after] == ":":
            # `true, COMMENT "value_2": …`: a stray word between members
            allowed(r, "junk_text", f"unquoted text {tok!r} between members", at)
            add(r, "junk_text", tok, "", at, path=r.stack[-1].prefix)
            return nxt_at
    if not nxt:
        return set_cut(r, "member", r.stack[-1].prefix, at, "the output ends inside a key", tok)
    if nxt in "\"'{[\u201c\u2018" or nxt in DIGIT_START or word_at(r.text, nxt_at) in LITERAL_WORDS:
        # `{a 'b'}`: a bare key, then its value: only the colon is missing
        emit_key(r, f'"{tok}"', at, ("bare_key", tok))
        return end
    r.stack[-1].key = f'"{tok}"'
    raise fail(r, f"unquoted text {tok!r} where a key should be, with no ':' after it", nxt_at)


def _bare_string(r: Reader, at: int, tok: str) -> int:
    """A bare word where a value should be: a string without its quotes, up to the structure after it."""
    allowed(r, "bare_string", f"unquoted text {tok!r} where a value should be", at)
    bare = BARE_VALUE.match(r.text, at)
    raw = bare.group()  # type: ignore[union-attr]
    for marker in ("//", "/*"):
        cut_at = raw.find(marker)
        if cut_at >= 0:
            raw = raw[:cut_at]
    end = at + len(raw)
    raw = raw.rstrip(" \t\r")
    stripped_end = at + len(raw)
    if end >= r.n and r.stack:
        begin_value(r, at)
        return set_cut(r, "value", path_of(r.stack), at, "the output ends inside an unquoted value")
    kinds = ["bare_string"]
    stop = stripped_end
    if end < r.n and r.text[end] == '"' and stripped_end == end:
        kinds = ["missing_quote"]  # `abcdef"`: the opening quote is missing
        stop = end + 1
    emit_value(r, json.dumps(raw, ensure_ascii=False), at, stop, kinds, r.text[at:stop])
    return stop


def number(r: Reader, at: int, c: str) -> int:
    """A token that starts like a number: a JSON number, a number key, or a loose number for `loose_number`."""
    text, n = r.text, r.n
    if expecting_key(r):
        if text.startswith("..", at):
            return loose_number(r, at)  # `{"a": 2, ...}`: members elided (raises)
        m = NUMBER.match(text, at)
        colon = WS.match(text, m.end()) if m is not None else None
        after = (colon.end() if colon else m.end()) if m is not None else n
        if m is None or after >= n or text[after] != ":":
            raise fail(r, "a number cannot be an object key", at)
        # `{2: "b"}`: a JavaScript (or Python) number key, which JSON writes as a string
        emit_key(r, json.dumps(m.group()), at, ("bare_key", m.group()))
        return m.end()
    m = NUMBER.match(text, at)
    if m is None:
        return loose_number(r, at)
    end = m.end()
    if end < n and text[end] not in ENDS_A_NUMBER and runs_on(text, end):
        return loose_number(r, at)
    begin_value(r, at, number=True)
    if end >= n and r.stack:
        return set_cut(r, "value", path_of(r.stack), at, "the output ends inside a number")
    r.out.append(in_range(r, m.group(), at))
    end_value(r, end, number=True)
    return end
