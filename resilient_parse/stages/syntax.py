"""Syntax stage: read a candidate into JSON — the fast path, our own tokenizer repairs, then json-repair.

The tokenizer fixes only what it can fix without guessing (commas, comments, Python literals, bare keys,
single-quoted strings read as tokens, raw control characters, full-width punctuation, invisible characters). It
writes repaired JSON text and records each repair with its JSON Pointer. Truncated output is closed only when no
value was cut mid-way; a string, number or list that was cut is an error naming its path. Everything else it
cannot read goes to json-repair, which guesses — so only policies that allow lossy repairs reach it.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass

import json_repair

from resilient_parse.context import CallContext, LoadResult
from resilient_parse.errors import ErrorDetail, TruncatedOutputError, UnrecoverableSyntaxError
from resilient_parse.repairs import Repair, escape_token

_TOKEN = re.compile(
    r"""
    (?P<ws>[\ \t\r\n]+)
   |(?P<str>"[^"\\]*(?:\\.[^"\\]*)*"?)
   |(?P<punct>[{}\[\]:,])
   |(?P<num>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![\w.]))
   |(?P<word>-?[A-Za-z_$][\w$]*)
   |(?P<loosenum>[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?![\w.]))
   |(?P<comment>//[^\n]*|\#[^\n]*|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|/\*.*)
   |(?P<squote>')
   |(?P<csquote>\u2018)
   |(?P<curly>\u201c[^\u201d]*\u201d?)
   |(?P<fwquote>\uff02[^\uff02]*\uff02?)
   |(?P<ellipsis>\.{2,}|\u2026)
   |(?P<fullwidth>[\uff5b\uff5d\uff3b\uff3d\uff1a\uff0c\u3001])
   |(?P<invisible>[\u00a0\u3000\ufeff\u200b\u2028\u2029]+)
   |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_FULLWIDTH = {
    "\uff5b": "{",
    "\uff5d": "}",
    "\uff3b": "[",
    "\uff3d": "]",
    "\uff1a": ":",
    "\uff0c": ",",
    "\u3001": ",",
}
_CONTROL = re.compile(r"[\x00-\x1f]")
# a valid escape is consumed as a unit, so the `\U` of `"C:\\Users"` is never taken for a bad escape
_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])|\\')
_CONTROL_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_JSON_LITERALS = frozenset({"true", "false", "null", "NaN", "Infinity", "-Infinity"})
_SQ_CLOSERS = frozenset(",:}]\n")
_QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019\uff02")
# the start of a number that the text ends in before it could be read (a sign, a dot, an exponent without digits)
_CUT_NUMBER = re.compile(r"[-+]?[0-9]*\.?[0-9]*(?:[eE][-+]?)?[ \t\r\n]*")
_SQ_SIMPLE = re.compile(r"'([^'\"\\\x00-\x1f]*)'(?=[ \t\r]*(?:[,:}\]\n]|$))")

# failures json-repair must not paper over: it would drop elided items, read `undefined` as a string, or split
# `"He said ""hi"""` into keys and values at random
_FINAL_FAILURES = frozenset({"too_deep", "trailing_text", "elided", "js_literal", "adjacent_quotes"})

JSON_REPAIR_MAX_CHARS = 20_000
"""Candidates longer than this are never handed to json-repair (its worst case grows with the square of the size)."""

# parser states
_VALUE = 0  # a value must come (top level, after ':' or after ',' in an array)
_VALUE_OR_END = 1  # just after '['
_KEY = 2  # a key must come (after ',' in an object)
_KEY_OR_END = 3  # just after '{'
_COLON = 4
_COMMA_OR_END = 5  # a value has just ended
_DONE = 6  # the top-level value has ended


class SyntaxFailure(Exception):
    """Internal: the tokenizer could not read the text without guessing."""

    def __init__(self, message: str, offset: int, path: str, kind: str = "syntax", truncated: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.path = path
        self.kind = kind
        self.truncated = truncated


@dataclass(eq=False)
class _Frame:
    is_object: bool
    key: str | None = None  # raw JSON text of the current key (decoded lazily for paths)
    index: int = -1
    opened_at: int = 0
    last_comma: int = -1  # position in `out` of the comma just written, for trailing-comma removal
    last_comma_at: int = -1  # its offset in the input text
    prefix: str = ""  # the JSON Pointer of this container, fixed when it opens
    part_of: str | None = None  # the raw key `part` was decoded from
    part: str = ""  # the current key as a pointer segment


def _decode_key(raw: str) -> str:
    if "\\" not in raw:
        return raw[1:-1]
    try:
        value = json.loads(raw)
    except ValueError:
        return raw.strip('"')
    return value if isinstance(value, str) else raw


def _segment(frame: _Frame) -> str | None:
    """The pointer segment of the frame's current element, or None when it has none yet."""
    if not frame.is_object:
        return str(frame.index) if frame.index >= 0 else None
    if frame.key is None:
        return None
    if frame.part_of is not frame.key:
        frame.part = escape_token(_decode_key(frame.key))
        frame.part_of = frame.key
    return frame.part


def _path(stack: list[_Frame]) -> str:
    """The JSON Pointer of the current position: the innermost container's, plus its current element."""
    if not stack:
        return ""
    top = stack[-1]
    segment = _segment(top)
    return top.prefix if segment is None else f"{top.prefix}/{segment}"


def _fix_string(token: str) -> tuple[str, list[str]]:
    """Escape raw control characters and invalid escapes inside a double-quoted string token."""
    kinds: list[str] = []
    if _CONTROL.search(token):
        token = _CONTROL.sub(lambda m: _CONTROL_ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), token)
        kinds.append("control_character")
    if "\\" in token:
        fixed = _fix_escapes(token)
        if fixed != token:
            token = fixed
            kinds.append("invalid_escape")
    return token, kinds


def _fix_escapes(token: str) -> str:
    """Keep an invalid backslash escape as literal text (`\\q` → backslash + q); `\\'` is an apostrophe."""

    def sub(m: re.Match[str]) -> str:
        if len(m.group()) > 1:
            return m.group()
        return "" if token.startswith("'", m.end()) else "\\\\"

    return _ESCAPE.sub(sub, token)


def _read_single_quoted(text: str, start: int, close: str = "'") -> tuple[str, int] | None:
    """Read a single-quoted string as a token: the closing quote is the first unescaped `close` (`'`, or `’` after
    `‘`) that is followed by structure (`,` `:` `}` `]`, a newline, or the end). Apostrophes inside stay
    apostrophes. Returns the JSON string and the end offset, or None when no such closing quote exists."""
    if close == "'":
        simple = _SQ_SIMPLE.match(text, start)
        if simple is not None:  # no quote, backslash or control character inside: nothing to translate
            return '"' + simple.group(1) + '"', simple.end()
    n = len(text)
    i = start + 1
    while True:
        j = text.find(close, i)
        if j < 0:
            return None
        backslashes = 0
        k = j - 1
        while k > start and text[k] == "\\":
            backslashes += 1
            k -= 1
        if backslashes % 2 == 0:
            m = j + 1
            while m < n and text[m] in " \t\r":
                m += 1
            if m >= n or text[m] in _SQ_CLOSERS:
                body = text[start + 1 : j]
                return _single_to_json(body), j + 1
        i = j + 1


def _single_to_json(body: str) -> str:
    if "\\" not in body and '"' not in body:
        fixed, _ = _fix_string('"' + body + '"')
        return fixed
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch == "\\" and i + 1 < n:
            nxt = body[i + 1]
            out.append("'" if nxt == "'" else "\\" + nxt)
            i += 2
            continue
        if ch == '"':
            out.append('\\"')
        else:
            out.append(ch)
        i += 1
    fixed, _ = _fix_string('"' + "".join(out) + '"')
    return fixed


def _normalise_number(token: str) -> str:
    sign = ""
    if token[0] in "+-":
        sign = "-" if token[0] == "-" else ""
        token = token[1:]
    mantissa, _, exponent = token.replace("E", "e").partition("e")
    if mantissa.startswith("."):
        mantissa = "0" + mantissa
    if mantissa.endswith("."):
        mantissa = mantissa + "0"
    whole = mantissa.split(".")[0]
    if len(whole) > 1 and whole.startswith("0"):
        raise ValueError("leading zeros")
    return sign + mantissa + (("e" + exponent) if exponent else "")


def repair_syntax(
    text: str, *, allow_close: bool, max_depth: int, allow_undefined: bool = False
) -> tuple[str, list[Repair]]:
    """Rewrite `text` as strict JSON text, fixing only what needs no guess. Raises `SyntaxFailure` otherwise.

    `allow_close`: whether output truncated at a clean boundary (only objects left open, every value complete,
    no ',' promising more) may be closed — a lossy repair. A cut inside a string, number, or list, or right after
    a ',', is always a failure. `allow_undefined`: whether JavaScript's `undefined` may be read as null (lossy:
    "absent" and "null" differ). Items elided with `...`/`…` are always a failure: what was left out is unknown.
    """
    out: list[str] = []
    repairs: list[Repair] = []
    stack: list[_Frame] = []
    state = _VALUE
    pos = 0
    n = len(text)
    match = _TOKEN.match
    prev_number = False  # whether the last value was a number
    prev_end = 0  # where the last value ended in the text

    def fail(message: str, at: int, kind: str = "syntax", truncated: bool = False) -> SyntaxFailure:
        return SyntaxFailure(message, at, _path(stack), kind, truncated)

    def cut_string(at: int, message: str = "the output ends inside a string") -> SyntaxFailure:
        if not expecting_key():
            begin_value(at)  # so the path names the string's own list index
        return fail(message, at, "truncated", truncated=True)

    def add(kind: str, before: object, after: object, at: int) -> None:
        repairs.append(Repair.make(kind, _path(stack), before, after, offset=at))

    def begin_value(at: int, number: bool = False) -> None:
        nonlocal state
        if state == _COMMA_OR_END:
            top = stack[-1]
            if top.is_object:
                raise fail("expected ',' or '}' after a value", at)
            top.index += 1
            if number and prev_number and "\n" not in text[prev_end:at]:
                raise fail("two numbers with only a space between them: one number or two?", at)
            if touches_a_quote(at):
                raise fail(
                    "a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes"
                )
            out.append(",")
            add("missing_comma", None, ",", at)
        elif state in (_VALUE_OR_END, _VALUE) and stack and not stack[-1].is_object:
            stack[-1].index += 1
        elif state == _DONE:
            raise fail("unexpected text after the end of the JSON value", at, "trailing_text")
        elif state in (_KEY, _KEY_OR_END, _COLON):
            raise fail("expected a key" if state != _COLON else "expected ':' after the key", at)

    def end_value(end_at: int, number: bool = False) -> None:
        nonlocal state, prev_number, prev_end
        state = _COMMA_OR_END if stack else _DONE
        prev_number = number
        prev_end = end_at

    def emit_key(raw: str, at: int, repair: tuple[str, object] | None = None) -> None:
        nonlocal state
        if state == _COMMA_OR_END and repair is not None and "\n" not in text[prev_end:at]:
            # a comma forgotten before a key is clear, but a bare word right after a string on the same line is
            # the rest of that string (`"He said "hi" to me"`), not a key
            raise fail("expected ',' or '}' after a value", at)
        if state == _COMMA_OR_END and touches_a_quote(at):
            raise fail("a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes")
        stack[-1].key = raw
        if state == _COMMA_OR_END:
            out.append(",")
            add("missing_comma", None, ",", at)
        if repair is not None:
            add(repair[0], repair[1], raw, at)
        out.append(raw)
        state = _COLON

    def touches_a_quote(at: int) -> bool:
        # a value right after the previous one with nothing between, where one side is a quote: the quotes of
        # `[""", """]` are unescaped quotes inside one string, not two strings missing their comma
        return at == prev_end and at > 0 and (text[at - 1] in _QUOTES or text[at] in _QUOTES)

    def expecting_key() -> bool:
        return state in (_KEY, _KEY_OR_END) or (state == _COMMA_OR_END and bool(stack) and stack[-1].is_object)

    while pos < n:
        m = match(text, pos)
        if m is None:  # pragma: no cover - the pattern matches any character
            raise fail("unreadable character", pos)
        group = m.lastgroup
        tok = m.group()
        at = pos
        pos = m.end()
        if group == "ws":
            out.append(tok)
            continue
        if group == "invisible":
            add("invisible_character", tok, "", at)
            out.append(" ")
            continue
        if group == "comment":
            add("comment", tok, "", at)
            out.append(" ")
            continue
        if state == _DONE:
            raise fail("unexpected text after the end of the JSON value", at, "trailing_text")
        if group == "ellipsis":
            where = stack[-1].prefix if stack and (not stack[-1].is_object or expecting_key()) else _path(stack)
            raise SyntaxFailure(
                f"the output elides items with {tok!r}: what was left out is unknown", at, where, "elided"
            )
        if group == "fullwidth":
            add("fullwidth_punctuation", tok, _FULLWIDTH[tok], at)
            tok = _FULLWIDTH[tok]
            group = "punct"
        if group in ("str", "squote", "csquote", "curly", "fwquote"):
            kinds: list[str] = []
            if group == "str":
                if len(tok) < 2 or tok[-1] != '"' or (tok.endswith('\\"') and _odd_backslashes_before_end(tok)):
                    raise cut_string(at)
                fixed, kinds = _fix_string(tok)
                original = tok
            elif group == "squote":
                read = _read_single_quoted(text, at)
                if read is None:
                    raise cut_string(at, "a single-quoted string never closes")
                fixed, pos = read
                original = text[at:pos]
                kinds = ["single_quotes"]
            elif group == "csquote":
                # ‘…’ read like '…': the ’ of "it’s" is an apostrophe, not the closing quote
                read = _read_single_quoted(text, at, "\u2019")
                if read is None:
                    raise cut_string(at, "a curly-quoted string never closes")
                fixed, pos = read
                original = text[at:pos]
                kinds = ["fullwidth_punctuation"]
            elif group == "fwquote":
                if len(tok) < 2 or not tok.endswith("\uff02"):
                    raise cut_string(at, "a full-width-quoted string never closes")
                fixed = _single_to_json(tok[1:-1])
                original = tok
                kinds = ["fullwidth_punctuation"]
            else:
                if not tok.endswith("\u201d"):
                    raise cut_string(at, "a curly-quoted string never closes")
                fixed = json.dumps(tok[1:-1], ensure_ascii=False)
                original = tok
                kinds = ["fullwidth_punctuation"]
            if expecting_key():
                emit_key(fixed, at)
                for kind in kinds:
                    add(kind, original, fixed, at)
                continue
            begin_value(at)
            for kind in kinds:
                add(kind, original, fixed, at)
            out.append(fixed)
            end_value(pos)
            continue
        if group == "punct":
            if tok in "{[":
                begin_value(at)
                if len(stack) >= max_depth:
                    raise fail(f"nesting deeper than {max_depth} levels", at, "too_deep")
                stack.append(_Frame(is_object=tok == "{", opened_at=at, prefix=_path(stack)))
                out.append(tok)
                state = _KEY_OR_END if tok == "{" else _VALUE_OR_END
                continue
            if tok in "}]":
                if not stack or stack[-1].is_object != (tok == "}"):
                    raise fail(f"unexpected '{tok}'", at)
                top = stack[-1]
                if state == _COLON or (state == _VALUE and top.is_object):
                    raise fail("a key has no value", at)
                if state in (_KEY, _VALUE):
                    out[top.last_comma] = ""
                    stack.pop()
                    repairs.append(Repair.make("trailing_comma", _path(stack), ",", "", offset=top.last_comma_at))
                else:
                    stack.pop()
                out.append(tok)
                end_value(pos)
                continue
            if tok == ":":
                if state != _COLON:
                    raise fail("unexpected ':'", at)
                out.append(tok)
                state = _VALUE
                continue
            # comma
            if state != _COMMA_OR_END:
                raise fail("unexpected ','", at)
            top = stack[-1]
            top.last_comma = len(out)
            top.last_comma_at = at
            out.append(tok)
            if top.is_object:
                top.key = None
            state = _KEY if top.is_object else _VALUE
            continue
        if group == "num":
            if expecting_key():
                raise fail("a number cannot be an object key", at)
            begin_value(at, number=True)
            if pos >= n and stack:
                raise fail("the output ends inside a number", at, "truncated", truncated=True)
            out.append(tok)
            end_value(pos, number=True)
            continue
        if group == "loosenum":
            if expecting_key():
                raise fail("a number cannot be an object key", at)
            try:
                fixed = _normalise_number(tok)
            except ValueError:
                raise fail(f"number {tok!r} has leading zeros; its meaning is unclear", at) from None
            begin_value(at, number=True)
            if pos >= n and stack:
                raise fail("the output ends inside a number", at, "truncated", truncated=True)
            add("number_format", tok, fixed, at)
            out.append(fixed)
            end_value(pos, number=True)
            continue
        if group == "word":
            if expecting_key():
                if tok.startswith("-"):
                    raise fail(f"unexpected {tok!r}", at)
                emit_key(f'"{tok}"', at, ("bare_key", tok))
                continue
            if pos >= n and stack and tok not in _JSON_LITERALS and tok not in _PY_LITERALS and tok != "undefined":
                begin_value(at)
                raise fail("the output ends inside a literal", at, "truncated", truncated=True)
            kind = "python_literal"
            if tok in _JSON_LITERALS:
                fixed = tok
            elif tok in _PY_LITERALS:
                fixed = _PY_LITERALS[tok]
            elif tok == "undefined":
                if not allow_undefined:
                    begin_value(at)
                    raise fail(
                        "JavaScript's undefined is not JSON; reading it as null would be a guess", at, "js_literal"
                    )
                fixed, kind = "null", "js_literal"
            else:
                raise fail(f"unquoted text {tok!r} where a value should be", at)
            begin_value(at)
            if fixed != tok:
                add(kind, tok, fixed, at)
            out.append(fixed)
            end_value(pos)
            continue
        if stack and not expecting_key() and _CUT_NUMBER.fullmatch(text, at) is not None:
            # `[-`, `[1e+`, `[-.` at the very end: a number was cut before its digits, not a stray character
            begin_value(at)
            raise fail("the output ends inside a number", at, "truncated", truncated=True)
        raise fail(f"unexpected character {tok!r}", at)

    if state == _DONE:
        return "".join(out), repairs
    if not stack:
        raise fail("no JSON value found", n, "empty")
    # the text ended with containers still open
    open_lists = [f for f in stack if not f.is_object]
    if state in (_COLON, _VALUE) and stack[-1].is_object:
        raise fail("the output ends before this key's value", n, "truncated", truncated=True)
    if open_lists:
        raise SyntaxFailure(
            "the output ends inside a list before its ']'; how many items were meant is unknown",
            n,
            open_lists[-1].prefix,
            "truncated",
            truncated=True,
        )
    if state == _KEY:
        # the ',' promised another member: closing here would silently drop it (and let a default stand in)
        raise SyntaxFailure(
            "the output ends after a ',' — the next member was cut off", n, stack[-1].prefix, "truncated", True
        )
    if not allow_close:
        raise SyntaxFailure("the output ends before its closing '}'", n, stack[-1].prefix, "truncated", True)
    closers = "}" * len(stack)
    repairs.append(Repair.make("close_truncated", "", None, closers, offset=n))
    out.append(closers)
    return "".join(out), repairs


def _odd_backslashes_before_end(token: str) -> bool:
    count = 0
    i = len(token) - 2
    while i >= 0 and token[i] == "\\":
        count += 1
        i -= 1
    return count % 2 == 1


def load_json(text: str, ctx: CallContext) -> LoadResult:
    """The built-in loader: json.loads, then the tokenizer, then (lenient) json-repair."""
    try:
        return LoadResult(tree=json.loads(text), json_text=text)
    except RecursionError:
        depth = _bracket_depth(text)
        message = f"nesting {depth} levels deep, over the limit of {ctx.policy.max_depth} (Policy.max_depth)"
        raise _as_error(SyntaxFailure(message, 0, "", "too_deep")) from None
    except ValueError:
        pass
    policy = ctx.policy
    try:
        fixed, repairs = repair_syntax(
            text,
            allow_close=policy.allows("close_truncated"),
            max_depth=policy.max_depth,
            allow_undefined=policy.allows("js_literal"),
        )
    except SyntaxFailure as failure:
        if failure.truncated or failure.kind in _FINAL_FAILURES or not policy.allows("json_repair"):
            raise _as_error(failure) from None
        depth = _bracket_depth(text)
        if depth > policy.max_depth:
            # json-repair's guesses on deep nesting cost quadratic time, and the answer would be refused anyway
            message = f"nesting {depth} levels deep, over the limit of {policy.max_depth} (Policy.max_depth)"
            raise _as_error(SyntaxFailure(message, failure.offset, "", "too_deep")) from None
        if len(text) > JSON_REPAIR_MAX_CHARS:
            # json-repair's guessing is quadratic on some inputs ("key: value, " repeated): past this size the
            # honest, bounded answer is the tokenizer's own error
            failure.message += f" (the candidate is over {JSON_REPAIR_MAX_CHARS:,} characters, too long to guess at)"
            raise _as_error(failure) from None
        if _json_repair_work(text) > JSON_REPAIR_MAX_WORK:
            failure.message += " (the text has too many unquoted members for json-repair to guess at in bounded time)"
            raise _as_error(failure) from None
        goes_on = _cut_from_a_longer_answer(text, ctx.text)
        if goes_on is not None:
            # `[{"b": ""k]` cut out of `[{"b": ""k]"}]` at a bracket inside a broken string: closing the piece
            # would make an answer of a part of one
            failure.message += (
                f"; the text goes on after this candidate with {goes_on!r}, so it is a piece of a longer answer and "
                "json-repair is not asked to close it"
            )
            raise _as_error(failure) from None
        return _json_repair(text, failure)
    try:
        tree = json.loads(fixed)
    except (ValueError, RecursionError) as exc:  # pragma: no cover - the tokenizer writes valid JSON
        raise UnrecoverableSyntaxError(f"repaired text is still not JSON: {exc}") from None
    return LoadResult(tree=tree, json_text=fixed, repairs=tuple(repairs))


def _as_error(failure: SyntaxFailure) -> UnrecoverableSyntaxError:
    cls = TruncatedOutputError if failure.truncated else UnrecoverableSyntaxError
    where = f" at {failure.path}" if failure.path else ""
    detail = ErrorDetail(path=failure.path, kind=failure.kind, message=failure.message, offset=failure.offset)
    return cls(f"{failure.message}{where} (offset {failure.offset})", [detail])


def _json_repair(text: str, failure: SyntaxFailure) -> LoadResult:
    for elided in _ELISION.finditer(text):
        if elided["dots"] is not None:
            # the tokenizer stopped before reaching it; json-repair would drop the '...' and keep the rest
            at = elided.start("dots")
            raise _as_error(SyntaxFailure(f"the output elides items with {elided['dots']!r}", at, "", "elided"))
    try:
        tree = json_repair.loads(text, skip_json_loads=True)
    except (RecursionError, ValueError, IndexError, TypeError, AttributeError):
        raise _as_error(failure) from None
    if tree == "" or tree is None or not isinstance(tree, (dict, list)):
        raise _as_error(failure)
    try:
        fixed = json.dumps(tree, ensure_ascii=False)
    except (ValueError, RecursionError):
        raise _as_error(failure) from None
    swallowed = _swallowed_structure(tree)
    if swallowed is not None:
        # `"loc": "R"hx"}}` read as the string R"hx"} and an invented '}': the text's structure became data
        failure.message += (
            f"; json-repair's reading turns a closing bracket into text ({swallowed!r}), so it is not used"
        )
        raise _as_error(failure)
    invented = _invented_string(text, tree)
    if invented is not None:
        # `"t": "\u001f["` read as '\x1f["': the closing quote the text wrote became part of the value
        failure.message += (
            f"; json-repair's reading has a string the text does not hold ({invented!r}), so it is not used"
        )
        raise _as_error(failure)
    invented_structure = _invented_structure(text, fixed)
    if invented_structure is not None:
        # `["He said "hi" there"]` read as three items: json-repair wrote separators the text never wrote
        failure.message += (
            f"; json-repair's reading adds {invented_structure} the text does not have, so it is not used"
        )
        raise _as_error(failure)
    lost = _lost_content(text, fixed)
    if lost:
        # json-repair dropped text it could not place (`"Short", sweet and "fun"`): its object is not the answer
        failure.message += f"; json-repair's reading would drop part of the text ({_describe(lost)}), so it is not used"
        raise _as_error(failure)
    repair = Repair.make(
        "json_repair",
        failure.path,
        text if len(text) <= 200 else text[:199] + "…",
        fixed if len(fixed) <= 200 else fixed[:199] + "…",
        confidence=0.6,
        offset=failure.offset,
        note=f"json-repair rewrote the text; our tokenizer stopped at: {failure.message}",
    )
    return LoadResult(tree=tree, json_text=fixed, repairs=(repair,))


# -- guards around json-repair ------------------------------------------------------------------------------------

JSON_REPAIR_MAX_WORK = 2_000_000
"""A bound on the characters json-repair would scan for the bare members of a candidate (about 0.1 s)."""

# json-repair's quadratic shape: at each `, key: word` inside an unquoted value it scans ahead to the next quote
# or '}' to decide whether the comma ends the value — many such members before a far delimiter cost n² steps
_BARE_MEMBER = re.compile(r",[ \t\r\n]*[A-Za-z_][\w-]*[ \t\r\n]*:[ \t\r\n]*(?!(?:true|false|null)\b)[A-Za-z_]")
_REPAIR_STOP = re.compile("[\"'\u201c\u201d}]")


_OUTPUT_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


def _invented_structure(text: str, fixed: str) -> str | None:
    """A description of the separators json-repair's output has more of than the whole text has (anywhere, even
    inside strings: a generous bound), or None. Splitting one value into several, or inventing a key, shows here."""
    structure = _OUTPUT_STRINGS.sub("", fixed)
    for sign, names in ((",", "commas"), (":", "colons")):
        wide = "\uff0c\u3001" if sign == "," else "\uff1a"
        written = sum(text.count(c) for c in sign + wide)
        if structure.count(sign) > written:
            return f"{structure.count(sign) - written} {names}"
    return None


def _json_repair_work(text: str) -> int:
    """An estimate of the characters json-repair scans ahead for bare members: for each, the distance to the next
    quote or '}'. Linear: one pass for the stops, one for the members."""
    stops = [m.start() for m in _REPAIR_STOP.finditer(text)]
    work = 0
    for member in _BARE_MEMBER.finditer(text):
        i = bisect_left(stops, member.end())
        work += (stops[i] if i < len(stops) else len(text)) - member.end()
    return work


# a '...' or '…' standing where items would be (`[{…}, ...]`, `"steps": [ ... ]`), outside double-quoted strings
_ELISION = re.compile(r'"(?:[^"\\\n]|\\.)*"|(?<=[\[{,:])[ \t\r\n]*(?P<dots>\.{2,}|\u2026)[ \t\r\n]*(?=[\]},])')
_BRACKETS_OUTSIDE_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|[^\[\]{}"]+')
# what is not content: comments, literal words (True/None/undefined… are rewritten, not lost), numbers (compared
# by value below); strings are matched first so `#` or `//` inside them stays content
_NOT_CONTENT = re.compile(
    r"""(?P<str>"(?:[^"\\\n]|\\.)*")
   |(?://[^\n]*|\#[^\n]*|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|/\*.*)
   |(?<![\w$.])(?:true|false|null|none|undefined|nan|infinity)(?![\w$])
   |(?P<num>(?<![\w$.])[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?![\w$.]))
    """,
    re.VERBOSE | re.DOTALL | re.IGNORECASE,
)
_QUOTE_THEN_CLOSER = re.compile(r'"\s*[}\]]')
_ESCAPE_PAIR = re.compile(r"\\.", re.DOTALL)
_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _bracket_depth(text: str) -> int:
    """The deepest bracket nesting outside double-quoted strings (a quote that never closes is ignored)."""
    depth = deepest = 0
    for ch in _BRACKETS_OUTSIDE_STRINGS.sub("", text):
        if ch == "{" or ch == "[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "}" or ch == "]":
            depth = max(depth - 1, 0)
    return deepest


def _content(text: str) -> Counter[str]:
    """The letters and digits a reader would call the content of JSON-like text: comments and literal words left
    out, numbers by value (7.40 and 7.4 are one number), `\\u00e9` as é, letter case ignored."""
    numbers: list[str] = []

    def keep(m: re.Match[str]) -> str:
        if m.group("str") is not None:
            return m.group()
        if m.group("num") is not None:
            numbers.append(_number_key(m.group()))
        return " "

    rest = _NOT_CONTENT.sub(keep, _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text))
    counts = Counter(ch for ch in rest.casefold() if ch.isalnum())
    # quotes by number, whatever their kind ('a' may come back as "a"): a quote json-repair drops was text
    quotes = sum(rest.count(q) for q in _QUOTES)
    if quotes:
        counts["quotes"] = quotes
    # a minus sign not read as part of a number (`[- 5]`): json-repair dropping it turns -5 into 5
    minus = rest.count("-")
    if minus:
        counts["minus"] = minus
    counts.update(f"#{n}" for n in numbers)
    # an escape that stands for a control character (`\\f`) must not come back as a backslash and a letter
    counts.update(m.group() for m in _ESCAPE_PAIR.finditer(rest) if m.group()[1] in "bfnrt")
    return counts


def _number_key(token: str) -> str:
    try:
        value = float(token)
    except ValueError:  # pragma: no cover - the pattern only matches numbers
        return token
    return repr(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


def _describe(lost: Counter[str]) -> str:
    numbers = [key[1:] for key in lost if key.startswith("#")]
    escapes = [key for key in lost if key.startswith("\\")]
    letters = "".join(sorted(ch for ch in lost.elements() if len(ch) == 1))
    parts = [f"letters {letters[:30]!r}"] if letters else []
    parts += [f"numbers {', '.join(numbers[:5])}"] if numbers else []
    parts += [f"escapes {' '.join(escapes)}"] if escapes else []
    parts += [f"{lost['quotes']} quote(s)"] if lost["quotes"] else []
    parts += [f"{lost['minus']} minus sign(s)"] if lost["minus"] else []
    return "; ".join(parts)


def _swallowed_structure(tree: object) -> str | None:
    """A string of json-repair's tree in which an inner quote is followed by a closing bracket (`R"hx"}`): the
    quote closed the string and the bracket was structure. Honest inner quotes (`say "hi" to`) are followed by
    text. Walks the tree without recursion."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and '"' in node and _QUOTE_THEN_CLOSER.search(node):
            return node if len(node) <= 60 else node[:59] + "…"
    return None


# how the text goes on right after a candidate that is only the front of the answer: a closing bracket, perhaps
# after a quote (`"}]` after `[{"b": ""k]`) — not a quote alone, which may be prose quoting the JSON
_GOES_ON = re.compile("[ \t\r\n]*((?:[\"'\u201c\u201d\uff02][ \t\r\n]*)?[}\\]\uff5d\uff3d][^\n]{0,8})")
_MAX_PLACES = 8


def _cut_from_a_longer_answer(candidate: str, whole: str) -> str | None:
    """What follows the candidate in the whole text when that is a closing bracket (perhaps after a quote): the
    scanner ended the candidate at a bracket the text had not closed yet (one inside a broken string), so the
    candidate is the front of a longer answer, not an answer. None for the whole text, or one followed by prose."""
    if not whole or not candidate or len(candidate) >= len(whole):
        return None
    at = whole.find(candidate)
    for _ in range(_MAX_PLACES):
        if at < 0:
            return None
        follows = _GOES_ON.match(whole, at + len(candidate))
        if follows is not None:
            return follows.group(1)
        at = whole.find(candidate, at + 1)
    return None


_ESCAPE_IN_TEXT = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_DECODED_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "'": "'", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_STRUCTURE_AFTER = frozenset(",:}]\uff0c\uff1a\uff5d\uff3d")
_STRUCTURE_BEFORE = frozenset(",:{[\uff0c\uff1a\uff5b\uff3b")
_MAX_TRIES = 32


def _decode_escapes(text: str) -> str:
    """The text with its backslash escapes read as JSON reads them (`\\u00e9` as é, `\\"` as a quote); an escape
    JSON does not know stays as written. Each `\\uXXXX` is read alone, as json-repair reads it."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        return _DECODED_ESCAPES.get(code, m.group())

    return _ESCAPE_IN_TEXT.sub(one, text)


def _strings_in_order(tree: object) -> list[str]:
    """The keys and string values of a tree, in document order (without recursion)."""
    found: list[str] = []
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            for key, value in reversed(node.items()):
                stack.append(value)
                stack.append(key)
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return found


def _invented_string(text: str, tree: object) -> str | None:
    """A key or string value of json-repair's tree that the text does not hold: not written anywhere (raw, or with
    its escapes read), or only where a quote at its edge is the string's own delimiter (`"\\u001f["` read as
    '\\x1f["'). Honest readings hold text that is there: an inner quote (`"say "hi" now"`), a closing quote
    added after `"Bob, ` (the value is `Bob`), a bare word. Strings are looked for in order from where the last
    one was found, so the search is linear for the usual tree."""
    readings = [text]
    if "\\" in text:
        readings.append(_decode_escapes(text))
    cursors = [0] * len(readings)
    for value in _strings_in_order(tree):
        if not value:
            continue
        for i, reading in enumerate(readings):
            at = _written_at(reading, value, cursors[i])
            if at < 0 and cursors[i]:
                at = _written_at(reading, value, 0)
            if at >= 0:
                cursors[i] = at + len(value)
                break
        else:
            return value if len(value) <= 60 else value[:59] + "…"
    return None


def _written_at(reading: str, value: str, start: int) -> int:
    """Where `value` is written in `reading` from `start` on, with no quote at its edge standing for the string's
    delimiter (a quote at its end followed by `,` `}` `]` `:`, or at its start after `{` `[` `,` `:`); -1 if
    nowhere (after a bounded number of tries)."""
    first_quote = value[0] in _QUOTES
    last_quote = value[-1] in _QUOTES
    at = reading.find(value, start)
    for _ in range(_MAX_TRIES):
        if at < 0 or not (first_quote or last_quote):
            return at
        ok = True
        if last_quote:
            after = at + len(value)
            while after < len(reading) and reading[after] in " \t\r\n":
                after += 1
            ok = after < len(reading) and reading[after] not in _STRUCTURE_AFTER
        if ok and first_quote:
            before = at - 1
            while before >= 0 and reading[before] in " \t\r\n":
                before -= 1
            ok = before >= 0 and reading[before] not in _STRUCTURE_BEFORE
        if ok:
            return at
        at = reading.find(value, at + 1)
    return -1


def _lost_content(text: str, repaired: str) -> Counter[str]:
    """What json-repair's output lost of the input: letters and digits (by count) and numbers (by value) the
    input has and the output does not. Anything it added (closing quotes, nulls) does not count."""
    return _content(text) - _content(repaired)
