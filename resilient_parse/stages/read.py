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
the schema-aware rules of `read_truncation`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from itertools import accumulate

from resilient_parse.repairs import Repair, escape_token
from resilient_parse.stages.read_failure import ReadFailure
from resilient_parse.stages.read_runs import (
    FLAT_OBJECT,
    ITEM_RUN,
    LOOSE_ITEM_RUN,
    LOOSE_MEMBER_RUN,
    MEMBER_RUN,
    RUN_ITEM,
    RUN_KEY,
    rewrite_loose,
)

# a whole valid JSON string, matched in one C-speed step
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"')
# any double-quoted string, closed or not (an unclosed one runs to the end): linear, never rescans
_LOOSE_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+")
_LOOSE_NUMBER = re.compile(r"[+-]?+(?:[0-9]++\.?+[0-9]*+|\.[0-9]++)(?:[eE][+-]?+[0-9]++)?+")
_UNDERSCORED = re.compile(r"-?[0-9]++(?:_[0-9]++)++(?:\.[0-9]++(?:_[0-9]++)*+)?+")
_HEX = re.compile(r"[-+]?0[xX][0-9a-fA-F]++")
_WORD = re.compile(r"[A-Za-z_$][\w$]*+")
# a bare key as JSON5 writes it: letters of any script, `$`, `_`, digits after the first, `\uXXXX` escapes
_KEY_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}")
_KEY_WORD = re.compile(r"(?:[^\W\d]|\$|\\u[0-9a-fA-F]{4})(?:[\w$]|\\u[0-9a-fA-F]{4})*+")
_WS = re.compile(r"[ \t\r\n]++")
_LINE_END = re.compile(r"[\r\n\u2028\u2029]")
_SPACES = re.compile(r"[ \t]*+")
_BARE_VALUE = re.compile(r"[^,:{}\[\]\"'\n#]*+")
_CONTROL = re.compile(r"[\x00-\x1f]")
# a valid escape is consumed as a unit, so the `\U` of `"C:\\Users"` is never taken for a bad escape
_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt]|\r\n|[\r\n\u2028\u2029])|\\')
_LINE_BREAKS = frozenset("\r\n\u2028\u2029")
# after a backslash, what other languages read as one character (a hex or octal byte, a short or long \u, a named
# character; `\users` or `\utils` is no escape anywhere): kept as text, such an escape has two readings (`\a` or
# `\v` as a bell or a vertical tab is not plausible in a model's JSON: `C:\Users\ana` is a path)
_READ_ELSEWHERE = re.compile(r"x[0-9a-fA-F]{2}|U[0-9a-fA-F]{8}|N\{|u[0-9a-fA-F]|[0-7]")
_ESCAPE_KINDS = ("line_continuation", "escaped_apostrophe", "invalid_escape", "ambiguous_escape")
_CONTROL_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_SQ_SIMPLE = re.compile(r"'([^'\"\\\x00-\x1f]*+)'")
_DOUBLED = re.compile(r'""([^"\\\n]++)""')
_DOUBLED_SQ = re.compile(r"''([^'\\\n]++)''")
_TRIPLE_BODY = re.compile(r'"""((?:[^"\\]++|\\.|"(?!""))*+)"""', re.DOTALL)
_CONCAT = re.compile(r"[ \t\r\n]*+\+[ \t\r\n]*+(?=[\"'])")
_KEY_AFTER_QUOTE = re.compile(r'([A-Za-z_$][\w$]*+)"[ \t]*+:')
_BACKTICK_CLOSE = re.compile("[`\u00b4]")
_ENDS_A_NUMBER = frozenset(",]} \t\r\n")  # what usually follows a number: no second look
_DIGIT_WORD = re.compile(r"(?:[0-9A-Za-z_.:+\-]|/(?![/*]))++")  # a '/' that starts no comment (`1/3`)
_BROKEN_EXPONENT = re.compile(r"[0-9]++(?:\.[0-9]*+)?+[eE][+-]?+")
_AFTER_DIGIT_WORD = frozenset(",}]) \t\r\n")
_CUT_NUMBER = re.compile(r"[-+]?[0-9]*\.?[0-9]*(?:[eE][-+]?)?[ \t\r\n]*")
_MONGO = re.compile(
    r"""(?:ObjectId|ISODate|NumberLong|NumberInt|NumberDecimal|UUID|Timestamp|BinData)\([ \t]*+"""
    r"""("(?:[^"\\\n]++|\\.)*+"|'[^'\\\n]*+'|-?[0-9]++(?:\.[0-9]++)?+)[ \t]*+\)"""
)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_JSON_LITERALS = frozenset({"true", "false", "null", "NaN", "Infinity", "-Infinity"})
_FULLWIDTH = {"\uff5b": "{", "\uff5d": "}", "\uff3b": "[", "\uff3d": "]", "\uff1a": ":", "\uff0c": ",", "\u3001": ","}
# white space JSON lacks (JSON5 has it all): form feed, vertical tab, BOM, Unicode spaces and line separators
_INVISIBLE = frozenset(
    "\x0b\x0c\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u202f\u205f\u3000\ufeff\u200b\u2028\u2029"
)
_QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019\uff02")
_SQ_CLOSERS = frozenset(",:}]\n")
_AFTER_VALUE = frozenset(",}]:\n\r/#\uff0c\uff5d\uff3d")  # what may follow a value without a second look
_WORD_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
_DIGIT_START = frozenset("0123456789-+.")
_LITERAL_WORDS = frozenset({"true", "false", "null", "True", "False", "None"})
_INNER_QUOTE_BEFORE = frozenset(" .!?'%)(=")  # what an inner quote may follow besides a letter or digit
# what a stretch of members or items can start with (after white space): a string, a word, a number
_RUN_STARTS = frozenset("\"'-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
_EMPTY_FOLLOWS = frozenset(",:}] \t\r\n)\uff0c\uff1a\uff5d\uff3d")  # what follows an empty string ""
_DECODER = json.JSONDecoder()

# parser states
_VALUE = 0  # a value must come (top level, after ':' or after ',' in a list)
_VALUE_OR_END = 1  # just after '[' or '('
_KEY = 2  # a key must come (after ',' in an object)
_KEY_OR_END = 3  # just after '{'
_COLON = 4
_COMMA_OR_END = 5  # a value has just ended
_DONE = 6  # the top-level value has ended


@dataclass(eq=False, slots=True)
class Frame:
    """One open container: its closer, its JSON Pointer, and where its current member started in the output."""

    closer: str  # "}", "]" or ")" (a Python tuple, written as a list)
    prefix: str  # the JSON Pointer of this container, fixed when it opens
    opened_at: int
    key: str | None = None  # raw JSON text of the current key
    index: int = -1
    keys: list[str] = field(default_factory=list)  # raw JSON text of the keys read one by one
    runs: list[str] = field(default_factory=list)  # stretches of valid members copied whole (their keys unread)
    open_run: str = ""  # a stretch that ended with a member and no ',': its last key is the current one
    last_comma: int = -1  # index in the output of the comma just written, for trailing-comma removal
    last_comma_at: int = -1  # its offset in the text
    member_start: int = 0  # index in the output where the current member (its comma, key and value) starts
    out_at: int = 0  # index in the output of the container's opener
    reopened: bool = False  # an object whose '}' came before members that follow (`{"a": 1}, "b": 2}`)
    part_of: str | None = None
    part: str = ""

    @property
    def is_object(self) -> bool:
        return self.closer == "}"

    def all_keys(self) -> list[str]:
        """The raw keys written so far, those inside stretches copied whole included (read only on a cut)."""
        return [*(k for run in self.runs for k in RUN_KEY.findall(run)), *self.keys]


@dataclass(frozen=True)
class Cut:
    """Where the text ended with containers open. `state` is one of: "value" (inside a string, number or literal,
    or right after a key), "comma" (after a ',' promising more), "open" (right after an opener), "complete" (after
    a complete value). `path` is the pointer of what was cut."""

    state: str
    path: str
    offset: int
    message: str
    partial_key: str | None = None  # the start of a key the text ended inside ("ema" of `{"ema`)


@dataclass
class Reading:
    """The reader's output: JSON text pieces, the repairs, and — when the text ended with containers open — the
    open frames and the cut (the pieces then lack their closers; `read_truncation` decides)."""

    out: list[str]
    repairs: list[Repair]
    stack: list[Frame]
    cut: Cut | None = None

    @property
    def json_text(self) -> str:
        return "".join(self.out)


def decode_key(raw: str) -> str:
    """A key's value from its raw JSON text."""
    if "\\" not in raw:
        return raw[1:-1]
    try:
        value = json.loads(raw)
    except ValueError:
        return raw.strip('"')
    return value if isinstance(value, str) else raw


def _segment(frame: Frame) -> str | None:
    """The pointer segment of the frame's current element, or None when it has none yet."""
    if not frame.is_object:
        return str(frame.index) if frame.index >= 0 else None
    if frame.key is None:
        if not frame.open_run:
            return None
        frame.key = RUN_KEY.findall(frame.open_run)[-1]
    if frame.part_of is not frame.key:
        frame.part = escape_token(decode_key(frame.key))
        frame.part_of = frame.key
    return frame.part


def path_of(stack: list[Frame]) -> str:
    """The JSON Pointer of the current position: the innermost container's, plus its current element."""
    if not stack:
        return ""
    top = stack[-1]
    segment = _segment(top)
    return top.prefix if segment is None else f"{top.prefix}/{segment}"


def fix_string(token: str) -> tuple[str, list[str]]:
    """Escape raw control characters and invalid escapes inside a double-quoted string token; a backslash right
    before a line break is a line continuation (JSON5, JavaScript and Python alike: both go)."""
    kinds: list[str] = []
    if "\\" in token:
        # escapes first: a backslash before a raw line break continues the line; any other invalid escape is kept
        # as a backslash, never glued to the `\\n` a raw line break becomes (which would read as the letter n)
        token, kinds = _fix_escapes(token)
    if _CONTROL.search(token) is not None:
        token = _CONTROL.sub(lambda m: _CONTROL_ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), token)
        kinds.insert(0, "control_character")
    return token, kinds


def _fix_escapes(token: str) -> tuple[str, list[str]]:
    """The token with each line continuation removed, `\\'` read as an apostrophe and each other escape JSON lacks
    kept as literal text (`\\d` → backslash + d, as a regex or a Windows path means it), and the kinds of what it
    took: `ambiguous_escape` too when such an escape is one other languages read as a character
    (`_READ_ELSEWHERE`: `\\x41`, `\\0`, a short `\\u12`)."""
    took: set[str] = set()

    def sub(m: re.Match[str]) -> str:
        if len(m.group()) == 1:
            if token.startswith("'", m.end()):
                took.add("escaped_apostrophe")
                return ""
            took.add("invalid_escape")
            if _READ_ELSEWHERE.match(token, m.end()) is not None:
                took.add("ambiguous_escape")
            return "\\\\"
        if m.group()[1] in _LINE_BREAKS:
            if token.startswith(token[0], m.end()) and m.end() == len(token) - 1:
                took.add("invalid_escape")  # `"C:\temp\⏎"`: a path's last backslash, then the string ends
                return "\\\\" + m.group()[1:]
            took.add("line_continuation")
            return ""
        return m.group()

    fixed = _ESCAPE.sub(sub, token)
    return fixed, [k for k in _ESCAPE_KINDS if k in took]


def escape_kinds(original: str) -> list[str]:
    """What the backslashes of a string as written take to read, for the strings whose JSON text is built from
    their body (single quotes, backticks, a missing quote …): continuations and escapes kept as text."""
    if "\\" not in original:
        return []
    return [k for k in _fix_escapes(original)[1] if k != "escaped_apostrophe"]


def _quoted(body: str) -> str:
    """JSON string text for a raw body (quotes escaped, controls escaped, backslashes kept as written)."""
    out: list[str] = []
    i = 0
    n = len(body)
    if "\\" not in body and '"' not in body:
        return fix_string('"' + body + '"')[0]
    while i < n:
        ch = body[i]
        if ch == "\\" and i + 1 < n:
            nxt = body[i + 1]
            out.append("'" if nxt == "'" else "\\" + nxt)
            i += 2
            continue
        out.append('\\"' if ch == '"' else "\\\\" if ch == "\\" else ch)  # a lone backslash at the end stays one
        i += 1
    return fix_string('"' + "".join(out) + '"')[0]


def _comment_at(text: str, at: int) -> bool:
    """Whether a comment (`//`, `/*`, `#`) starts at `at`: structure after a value, like a comma or a closer. A lone
    `/` the text ends with is one too, its first character (a stream not done writing it, or a text cut there)."""
    return text.startswith(("//", "/*", "#"), at) or (at == len(text) - 1 and text[at] == "/")


def _ends_structure(text: str, at: int) -> bool:
    """Whether what stands at `at` (after a candidate closing quote and its spaces) is structure: the end, a closer,
    a comma, a line break, a comment (so a prefix `'' /` is an empty string, not one that runs on over the `/`)."""
    return at >= len(text) or text[at] in _SQ_CLOSERS or _comment_at(text, at)


def _read_single_quoted(text: str, start: int, close: str = "'") -> tuple[str, int] | None:
    """Read a single-quoted string as a token: the closing quote is the first unescaped `close` (`'`, or `’` after
    `‘`) followed by structure (`,` `:` `}` `]`, a newline, a comment, or the end). Apostrophes inside stay apostrophes.
    Returns the JSON string and the end offset, or None when no such closing quote exists. Each search moves
    forward, so the whole read is linear."""
    if close == "'":
        simple = _SQ_SIMPLE.match(text, start)
        if simple is not None:
            m = _after_spaces(text, simple.end())
            if _ends_structure(text, m) or text[m] in ")'\"":
                return '"' + simple.group(1) + '"', simple.end()
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
            m = _after_spaces(text, j + 1)
            if _ends_structure(text, m) or text[m] in ")\r+":
                return _quoted(text[start + 1 : j]), j + 1
        i = j + 1


def _one_string_before_closers(body: str, object_value: bool) -> bool:
    """Whether `body`, what an unclosed string holds before the closers the text ends with, can only be one string
    (its closing quote missing right before them). Not when it is empty or holds `+` (a concatenation cut), nor
    when a ',' in it may end the string: in a list or a key always (`["hello, world]`); in an object's value when a
    key may follow it (`{"a": "b, c: d}`, `{"a": "x, y}`) or nothing does (`{"a": "b,}`). Words that cannot be a
    key are the value's (`{"a": "sic tamet, quick brown fox. }`)."""
    if "+" in body or not body.strip():
        return False
    comma = body.find(",")
    if comma < 0:
        return True
    if not object_value or ":" in body[comma:] or body.rstrip()[-1] == ",":
        return False
    return not any(_WORD.fullmatch(part.strip()) for part in body[comma + 1 :].split(","))


def _runs_on(text: str, end: int) -> bool:
    """Whether the number that ends at `end` (< len(text)) runs on into a word: a letter, a digit, `.`, `_`, or
    `-`, `:` or `/` and a digit (`10-20`, `12:30`, `1/3`). One character test in the usual case."""
    c = text[end]
    return c.isalnum() or c in "._" or (c in "-:/" and end + 1 < len(text) and text[end + 1].isdigit())


def _word_char_at(text: str, i: int) -> bool:
    """Whether a word goes on at `i` (`+InfinityX` is no number)."""
    return i < len(text) and (text[i].isalnum() or text[i] in "_$")


def _word_at(text: str, i: int) -> str:
    """The identifier-like word at `i` ("" when there is none)."""
    m = _WORD.match(text, i)
    return m.group() if m is not None else ""


def _after_spaces(text: str, i: int) -> int:
    """The offset after the spaces and tabs at `i`."""
    m = _SPACES.match(text, i)
    return m.end() if m is not None else i


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


def _odd_backslashes_before_end(token: str) -> bool:
    count = 0
    i = len(token) - 2
    while i >= 0 and token[i] == "\\":
        count += 1
        i -= 1
    return count % 2 == 1


_DEPTH_STEP = {"{": 1, "[": 1, "}": -1, "]": -1}
_NOT_BRACKETS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[^\[\]{}"]++')


def _too_deep(text: str, start: int, end: int, room: int) -> bool:
    """Whether the valid JSON value at text[start:end] nests deeper than `room` (a count first; the depth itself,
    in C, only when there are more brackets than room)."""
    value = text[start:end]
    if value.count("{") + value.count("[") <= room:
        return False
    return max(accumulate(map(_DEPTH_STEP.__getitem__, _NOT_BRACKETS.sub("", value)))) > room


_FIRST_WINDOW = 512
_NEAR_THE_EDGE = 64


def valid_value_end(text: str, at: int) -> tuple[int, int]:
    """Where the valid JSON value at `at` ends (read by the json module's C scanner), or (-1, where it stops being
    valid). The scanner is given a window of the text that grows eightfold only while the value runs past it, so
    a value that fails early costs little: the scanner's error reports its line by counting from the start of
    what it was given, which over the whole text would cost the length of the text at every failure."""
    n = len(text)
    window = _FIRST_WINDOW
    while True:
        stop = min(n, at + window)
        chunk = text[at:stop]
        try:
            _, end = _DECODER.raw_decode(chunk)
        except json.JSONDecodeError as exc:
            cut_by_window = stop < n and (
                exc.pos >= len(chunk) - _NEAR_THE_EDGE or exc.msg.startswith("Unterminated string")
            )
            if not cut_by_window:
                return -1, at + exc.pos
            window *= 8
            continue
        except RecursionError:
            return -1, n
        return at + end, -1


def read(text: str, *, lossy: frozenset[str] = frozenset(), max_depth: int = 400) -> Reading:
    """Read `text` into strict JSON text in one pass. Raises `ReadFailure` where it cannot read within the
    lossless repairs and the lossy kinds in `lossy`. A text that ends with containers open gives a `Reading`
    with a `Cut` for `read_truncation` to judge."""
    out: list[str] = []
    repairs: list[Repair] = []
    stack: list[Frame] = []
    state = _VALUE
    pos = 0
    n = len(text)
    prev_number = False  # whether the last value was a number
    prev_end = 0  # where the last value ended in the text
    decode_floor = 0  # the C scanner is not tried again before the offset where it last failed
    decode_skip = decode_wait = 0  # how many containers to read by tokens before trying the C scanner again
    flat_skip = flat_wait = 0  # likewise, how many objects to read by tokens before trying FLAT_OBJECT again
    # text before the last failure may still hold complete valid values (a document cut at its very end fails at
    # the end, its lists inside are whole): they may be tried again, within one more reading of the text in all
    rescan_budget = n
    last_root: Frame | None = None  # the root object once closed (for a '}' that came too early)
    root_close = -1  # index in `out` of the root's closer, and its offset in the text
    root_close_at = -1
    root_raw = False  # whether the root container was read whole by the C scanner
    doubled_keys = False  # whether a key was written in doubled quotes (`{""answer"": …}`)
    cut: Cut | None = None
    opened = {"}": 0, "]": 0, ")": 0}  # how many containers of each kind are open, by closer

    def fail(message: str, at: int, kind: str = "syntax", truncated: bool = False) -> ReadFailure:
        return ReadFailure(message, at, path_of(stack), kind, truncated)

    def add(kind: str, before: object, after: object, at: int, path: str | None = None) -> None:
        repairs.append(Repair.make(kind, path_of(stack) if path is None else path, before, after, offset=at))

    def allowed(kind: str, message: str, at: int) -> None:
        if kind not in lossy:
            raise fail(message, at)

    def expecting_key() -> bool:
        return state in (_KEY, _KEY_OR_END) or (state == _COMMA_OR_END and bool(stack) and stack[-1].is_object)

    def touches_a_quote(at: int) -> bool:
        # a value right after the previous one with nothing between, where one side is a quote: the quotes of
        # `[""", """]` are unescaped quotes inside one string, not two strings missing their comma
        return at == prev_end and at > 0 and (text[at - 1] in _QUOTES or text[at] in _QUOTES)

    def set_cut(kind: str, path: str, at: int, message: str, partial_key: str | None = None) -> int:
        nonlocal cut
        cut = Cut(kind, path, at, message, partial_key)
        return n

    def begin_value(at: int, number: bool = False) -> None:
        nonlocal state
        if state == _COMMA_OR_END:
            top = stack[-1]
            if top.is_object:
                raise fail("expected ',' or '}' after a value", at)
            top.index += 1
            if number and prev_number and "\n" not in text[prev_end:at]:
                raise fail("two numbers with only a space between them: one number or two? Two readings", at)
            if touches_a_quote(at):
                raise fail(
                    "a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes"
                )
            top.member_start = len(out)
            out.append(",")
            add("missing_comma", None, ",", at)
        elif state == _COLON:
            # `{"a" 2}`: a key, then its value with nothing but space between them
            if text[at] in _WORD_START and _word_at(text, at) not in _LITERAL_WORDS:
                raise fail("expected ':' after the key", at)
            out.append(":")
            add("missing_colon", None, ":", at)
        elif state == _VALUE_OR_END or (state == _VALUE and stack and not stack[-1].is_object):
            stack[-1].index += 1
        elif state == _DONE:
            raise fail("unexpected text after the end of the JSON value", at, "trailing_text")
        elif state in (_KEY, _KEY_OR_END):
            raise fail("expected a key", at)

    def end_value(end_at: int, number: bool = False) -> None:
        nonlocal state, prev_number, prev_end
        state = _COMMA_OR_END if stack else _DONE
        prev_number = number
        prev_end = end_at

    def emit_key(raw: str, at: int, repair: tuple[str, object] | None = None) -> None:
        nonlocal state
        top = stack[-1]
        if state == _COMMA_OR_END:
            if repair is not None and "\n" not in text[prev_end:at]:
                # a bare word right after a value on the same line is the rest of that value, not a key
                raise fail("expected ',' or '}' after a value", at)
            if touches_a_quote(at):
                raise fail(
                    "a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes"
                )
            top.member_start = len(out)
            top.key = raw
            out.append(",")
            add("missing_comma", None, ",", at)
        else:
            top.key = raw
        top.keys.append(raw)
        top.open_run = ""
        if repair is not None:
            add(repair[0], repair[1], raw, at)
        out.append(raw)
        state = _COLON

    def with_escapes(kinds: tuple[str, ...] | list[str], original: str, at: int) -> tuple[str, ...] | list[str]:
        """The kinds, with what the string's escapes took when its JSON text was built from its body; an escape
        other languages read as a character (`\\x41`, `\\0`) has two readings, so keeping it as text is a guess."""
        if not kinds and original[:1] == '"':
            return kinds  # a whole JSON string, or one `fix_string` read: its escapes are already accounted for
        if not any(kind in _ESCAPE_KINDS for kind in kinds) and original[:1] != "\u201c":  # (“…” is taken raw)
            kinds = [*kinds, *escape_kinds(original)]
        if "ambiguous_escape" in kinds:
            allowed("ambiguous_escape", "an escape JSON lacks that other languages read as a character", at)
        if "line_continuation" in kinds:
            allowed("line_continuation", "a backslash before a line break: a continued line, or a backslash?", at)
        return kinds

    def emit_value(fixed: str, at: int, end: int, kinds: tuple[str, ...] | list[str], original: str) -> None:
        begin_value(at)
        for kind in with_escapes(kinds, original, at):
            add(kind, original, fixed, at)
        out.append(fixed)
        end_value(end)

    def emit_string(fixed: str, at: int, end: int, kinds: tuple[str, ...] | list[str], original: str) -> int:
        """A string token just read, as a key or a value; returns where reading goes on."""
        if expecting_key():
            emit_key(fixed, at)
            for kind in with_escapes(kinds, original, at):
                add(kind, original, fixed, at)
            return end
        emit_value(fixed, at, end, kinds, original)
        return concatenated(end)

    def concatenated(end: int) -> int:
        """`'hello' + 'world'`: JavaScript string concatenation, read as the one string it makes."""
        while True:
            plus = _CONCAT.match(text, end)
            if plus is None:
                return end
            at = plus.end()
            if text[at] == "'":
                got = _read_single_quoted(text, at)
                if got is None:
                    return end
                more, after = got
            else:
                m = _STRING.match(text, at)
                if m is None:
                    return end
                more, after = m.group(), m.end()
            joined = json.dumps(json.loads(out[-1]) + json.loads(more), ensure_ascii=False)
            add("string_concatenation", text[end:after], joined, end)
            out[-1] = joined
            end = after

    def string_value_follow(at: int, end: int, fixed: str, kinds: list[str], original: str) -> int:
        """A string value followed by something other than structure: concatenation, a missing quote before the
        next key (`"Bob, "age": 30`), or quotes inside the string left unescaped (`"a 24" screen"`)."""
        nonlocal state
        j = _after_spaces(text, end)
        nxt = text[j] if j < n else ""
        in_list = bool(stack) and not stack[-1].is_object
        if (
            not nxt
            or nxt in _AFTER_VALUE
            or nxt in "\"'{[+\u201c\u2018"
            or nxt in _INVISIBLE
            or (nxt == ")" and in_list and stack[-1].closer == ")")
            or (in_list and j > end and (nxt in _DIGIT_START or _word_at(text, j) in _LITERAL_WORDS))
        ):
            return emit_string(fixed, at, end, kinds, original)
        key = _KEY_AFTER_QUOTE.match(text, end)
        body = text[at + 1 : end - 1]
        if key is not None and j == end:
            comma = body.rfind(",")
            if comma < 0 or body[comma + 1 :].strip():
                raise fail(
                    "a quoted word followed by ':' right after a string: a key missing its quote, or a quote "
                    "inside the string? Two readings",
                    end,
                    "ambiguous",
                )
            allowed("missing_quote", "a string is missing its closing quote before the next key", at)
            value = _quoted(body[:comma].rstrip())
            emit_value(value, at, end, ["missing_quote"], text[at:end])
            top = stack[-1]
            top.last_comma = top.member_start = len(out)
            top.last_comma_at = at + 1 + comma
            top.key = None
            out.append(",")
            state = _KEY
            emit_key(json.dumps(key.group(1)), end, ("missing_quote", key.group(1) + '"'))
            return key.end(1) + 1
        # quotes inside the string: the string ends at the next quote followed by structure
        if not body.strip():
            raise fail("text after an empty string: an unescaped quote, or a stray one?", end)
        if "\n" in body or not (body[-1].isalnum() or body[-1] in _INNER_QUOTE_BEFORE) or (in_list and j > end):
            # `["value1" value2", …]`, `["hello,"world"]`: a quote inside the string, or a missing quote and comma
            raise fail(
                "text after a closing quote: a quote inside the string, or a new value? Two readings", end, "ambiguous"
            )
        allowed("inner_quote", "text after a closing quote: an unescaped quote inside the string?", end)
        k = end
        while True:
            q = text.find('"', k)
            if q < 0:
                raise fail("a quote inside a string, and no later quote closes it", end)
            after = _after_spaces(text, q + 1)
            if after >= n or text[after] in ",}]\n\r":
                break
            if text[after] == ":":
                raise fail(
                    "a quote inside a string, then a quoted key: where the string ends is unclear", q, "ambiguous"
                )
            k = q + 1
        value = _quoted(text[at + 1 : q])
        emit_value(value, at, q + 1, [*kinds, "inner_quote"], text[at : q + 1])
        return q + 1

    def one_string_with_inner_quotes(at: int, end: int) -> int:
        """A text that is one string whose quotes inside were left unescaped (`"the set {a, b"} more"`,
        `"The TV is 72""`): the first closing quote is followed by a bracket no value can have after it, or by the
        text's last quote, and the text ends with a quote on the same line. Then the string runs to that last
        quote (lossy); where reading goes on, or -1 when the text is not such a string."""
        last = len(text.rstrip()) - 1
        if last <= end - 1 or text[last] != '"' or text.find("\n", at, last) >= 0:
            return -1
        if text[end] == '"' and last != end:
            return -1  # `"a""b"`: two strings missing their comma, or quotes inside one
        allowed("inner_quote", "a quote inside the string, then text: an unescaped quote?", end)
        emit_value(_quoted(text[at + 1 : last]), at, last + 1, ["inner_quote"], text[at : last + 1])
        return last + 1

    def unclosed_string(at: int) -> int:
        """A double-quoted string that never closes: a missing closing quote right before the closers the open
        containers need (`{"a": "b}`), or a cut."""
        nonlocal state
        closers = "".join(f.closer for f in reversed(stack))
        tail = text[at + 1 :].rstrip()
        line_end = tail.find("\n")
        if line_end >= 0 and "".join(tail[line_end:].split()) == closers:
            tail = tail[:line_end].rstrip() + closers  # `["abc\n]\n`: the closers on lines of their own
        if (
            closers
            and "missing_quote" in lossy
            and tail.endswith(closers)
            and "\n" not in tail
            and len(tail) > len(closers)
        ):
            body = tail[: -len(closers)]
            close_at = at + 1 + len(body)
            if not _one_string_before_closers(body, stack[-1].is_object and not expecting_key()):
                return cut_quoted(at, "the output ends inside a string (or a quote is missing: where is unclear)")
            if expecting_key():
                key, colon, value = body.partition(":")
                if not colon or not key.strip():
                    return cut_quoted(at, "the output ends inside a key")
                emit_key(json.dumps(key), at, ("missing_quote", text[at:close_at]))
                out.append(":")
                state = _VALUE
                emit_value(json.dumps(value.strip()), at, close_at, [], value)
                return close_at
            # the space before the closers is the text's layout, as it is after any value (`["abc  ]`)
            emit_value(_quoted(body.rstrip()), at, close_at, ["missing_quote"], text[at:close_at])
            return close_at
        return cut_quoted(at, "the output ends inside a string")

    def cut_quoted(at: int, message: str) -> int:
        if state == _COMMA_OR_END and touches_a_quote(at):
            # `{"name": "x""}`: the quote is the string's own, unescaped, not a cut member missing its comma
            raise fail("a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes")
        if expecting_key():
            return set_cut("member", stack[-1].prefix if stack else "", at, message, text[at + 1 :])
        begin_value(at)
        return set_cut("value", path_of(stack), at, message)

    def comment(at: int) -> int:
        if text.startswith("/*", at):
            close = text.find("*/", at + 2)
            end = n if close < 0 else close + 2
        elif text.startswith("//", at) or text[at] == "#" or (stack and _comment_at(text, at)):
            # (inside containers, a lone '/' that ends the text is the first character of a comment cut off)
            line_end = _LINE_END.search(text, at)  # a line ends at LF, CR (old Mac files), or U+2028/U+2029
            close = -1 if line_end is None else line_end.start()
            end = n if close < 0 else close
        else:
            raise fail("unexpected '/': a regular expression or a division is not JSON", at, "stray_slash")
        if end >= n and stack and (close < 0):
            raise fail(
                "a comment runs to the end of the text with containers still open: their closers may be in it",
                at,
                "comment_at_end",
            )
        add("comment", text[at:end], "", at)
        return end

    def elided(at: int, tok: str) -> ReadFailure:
        where = stack[-1].prefix if stack and (not stack[-1].is_object or expecting_key()) else path_of(stack)
        return ReadFailure(f"the output elides items with {tok!r}: what was left out is unknown", at, where, "elided")

    def loose_number(at: int) -> int:
        if text.startswith("..", at):
            end = at
            while end < n and text[end] == ".":
                end += 1
            raise elided(at, text[at:end])
        if text.startswith("-Infinity", at):
            return word(at + 1, negative=True)
        if text.startswith("+Infinity", at) and not _word_char_at(text, at + 9):
            add("number_format", "+Infinity", "Infinity", at)  # JSON5's explicit sign: the same number
            return word(at + 1)
        for pattern, kind in ((_HEX, "hex_number"), (_UNDERSCORED, "number_underscores"), (_LOOSE_NUMBER, "")):
            m = pattern.match(text, at)
            if m is None:
                continue
            end = m.end()
            if end < n and text[end] not in _ENDS_A_NUMBER and _runs_on(text, end):
                continue
            tok = m.group()
            if kind == "hex_number":
                fixed = str(int(tok, 16))
            else:
                try:
                    fixed = _normalise_number(tok.replace("_", ""))
                except ValueError:
                    raise fail(
                        f"number {tok!r} has leading zeros; its meaning is unclear", at, "leading_zeros"
                    ) from None
                kind = kind or "number_format"
            begin_value(at, number=True)
            if end >= n and stack:
                return set_cut("value", path_of(stack), at, "the output ends inside a number")
            if fixed != tok:
                add(kind, tok, fixed, at)
            out.append(in_range(fixed, at))
            end_value(end, number=True)
            return end
        if not expecting_key() and _CUT_NUMBER.fullmatch(text, at) is not None:
            # `[-`, `[1e+`, `[-.`, `2e` at the very end: a number was cut before its digits, not a stray character
            begin_value(at)
            return set_cut("value", path_of(stack), at, "the output ends inside a number")
        if text[at].isdigit():
            return digit_word(at)
        raise fail(f"unexpected character {text[at]!r}", at)

    def in_range(token: str, at: int) -> str:
        """The number token, unless it is past a float's range (`1e999999` would read as infinity)."""
        floating = "e" in token or "E" in token or ("." in token and len(token) > 308)  # an integer is exact
        if floating and math.isinf(float(token)):
            raise fail(
                f"the number {token[:40]!r} is out of a float's range: read as a float it would be infinity",
                at,
                "number_out_of_range",
            )
        return token

    def digit_word(at: int) -> int:
        """A word that starts with a digit but is no number (`1.1.1`, `57eeeeb1-450b`, `2024-10-18T18:35Z`,
        `10-20`, `2notanumber`): in lenient, the string it spells (a bare string, lossy); a number cut before its
        exponent's digits (`2e`, `1.5E+`) is no word, and neither is anything run into other text."""
        m = _DIGIT_WORD.match(text, at)
        end = m.end()  # type: ignore[union-attr]
        tok = text[at:end]
        if (
            "bare_string" not in lossy
            or _BROKEN_EXPONENT.fullmatch(tok) is not None
            or (end < n and text[end] not in _AFTER_DIGIT_WORD)
        ):
            raise fail(
                "a number run into letters, dots or signs (`2e+`, `1.2.3`, `1/3`): not a number JSON can read",
                at,
                "bad_number",
            )
        begin_value(at, number=True)
        if end >= n and stack:
            return set_cut("value", path_of(stack), at, "the output ends inside an unquoted value")
        fixed = json.dumps(tok)
        add("bare_string", tok, fixed, at)
        out.append(fixed)
        end_value(end)
        return end

    def word(at: int, negative: bool = False) -> int:
        m = (_KEY_WORD if expecting_key() and not negative else _WORD).match(text, at)
        tok = m.group()  # type: ignore[union-attr]
        end = m.end()  # type: ignore[union-attr]
        start = at - 1 if negative else at
        if negative:
            tok = "-" + tok
        if expecting_key():
            j = _WS.match(text, end)
            nxt_at = j.end() if j is not None else end
            nxt = text[nxt_at] if nxt_at < n else ""
            if nxt == ":" or nxt == "\uff1a":
                emit_key(f'"{tok}"', at, ("bare_key", tok))
                return end
            if nxt == '"' and nxt_at == end:
                colon = _WS.match(text, end + 1)
                if (colon.end() if colon else end + 1) < n and text[colon.end() if colon else end + 1] == ":":
                    # `{a":"foo"}`: a key missing its opening quote
                    allowed("missing_quote", f"the key {tok!r} is missing its opening quote", at)
                    emit_key(f'"{tok}"', at, ("missing_quote", text[at : end + 1]))
                    return end + 1
                raise fail(f"unquoted text {tok!r} followed by a quote where a key should be", at)
            if nxt == '"':
                quoted = _STRING.match(text, nxt_at)
                colon = _WS.match(text, quoted.end()) if quoted is not None else None
                after = (colon.end() if colon else quoted.end()) if quoted is not None else n
                if quoted is not None and after < n and text[after] == ":":
                    # `true, COMMENT "value_2": …`: a stray word between members
                    allowed("junk_text", f"unquoted text {tok!r} between members", at)
                    add("junk_text", tok, "", at, path=stack[-1].prefix)
                    return nxt_at
            if not nxt:
                return set_cut("member", stack[-1].prefix, at, "the output ends inside a key", tok)
            if nxt in "\"'{[\u201c\u2018" or nxt in _DIGIT_START or _word_at(text, nxt_at) in _LITERAL_WORDS:
                # `{a 'b'}`: a bare key, then its value: only the colon is missing
                emit_key(f'"{tok}"', at, ("bare_key", tok))
                return end
            stack[-1].key = f'"{tok}"'
            raise fail(f"unquoted text {tok!r} where a key should be, with no ':' after it", nxt_at)
        if end >= n and stack and tok not in _JSON_LITERALS and tok not in _PY_LITERALS and tok != "undefined":
            begin_value(start)
            return set_cut("value", path_of(stack), start, "the output ends inside a literal")
        if tok in _JSON_LITERALS:
            emit_value(tok, start, end, (), tok)
            return end
        if tok in _PY_LITERALS:
            emit_value(_PY_LITERALS[tok], start, end, ("python_literal",), tok)
            return end
        if tok.lower() in ("true", "false", "null", "none") and not negative:
            # `TRUE`, `Null`: a literal in another case — or a string without quotes
            allowed("literal_case", f"{tok!r} is not a JSON literal", at)
            fixed = "null" if tok.lower() == "none" else tok.lower()
            emit_value(fixed, start, end, ("literal_case",), tok)
            return end
        if tok == "undefined":
            if "js_literal" not in lossy:
                begin_value(start)
                raise fail("JavaScript's undefined is not JSON; reading it as null would be a guess", at, "js_literal")
            emit_value("null", start, end, ("js_literal",), tok)
            return end
        if end < n and text[end] == "(":
            wrapped = _MONGO.match(text, at)
            if wrapped is None:
                raise fail(f"a function call {tok}(…) where a value should be", at)
            allowed("mongo_wrapper", f"a Mongo-shell wrapper {tok}(…) is not JSON", at)
            inner = wrapped.group(1)
            if inner[0] == '"':
                fixed = fix_string(inner)[0]
            elif inner[0] == "'":
                fixed = _quoted(inner[1:-1])
            else:
                fixed = inner
            emit_value(fixed, at, wrapped.end(), ("mongo_wrapper",), wrapped.group())
            return wrapped.end()
        # a bare word where a value should be: a string without its quotes, up to the structure after it
        allowed("bare_string", f"unquoted text {tok!r} where a value should be", at)
        bare = _BARE_VALUE.match(text, at)
        raw = bare.group()  # type: ignore[union-attr]
        for marker in ("//", "/*"):
            cut_at = raw.find(marker)
            if cut_at >= 0:
                raw = raw[:cut_at]
        end = at + len(raw)
        raw = raw.rstrip(" \t\r")
        stripped_end = at + len(raw)
        if end >= n and stack:
            begin_value(at)
            return set_cut("value", path_of(stack), at, "the output ends inside an unquoted value")
        kinds = ["bare_string"]
        stop = stripped_end
        if end < n and text[end] == '"' and stripped_end == end:
            kinds = ["missing_quote"]  # `abcdef"`: the opening quote is missing
            stop = end + 1
        emit_value(json.dumps(raw, ensure_ascii=False), at, stop, kinds, text[at:stop])
        return stop

    def doubled_or_triple(at: int) -> int:
        """A Python triple-quoted string or a string in doubled quotes (`""text""`): where reading goes on, or
        -1 when the text is neither (an empty string followed by more)."""
        if text.startswith('"""', at):
            triple = _TRIPLE_BODY.match(text, at)
            if triple is not None and any(ch.isalnum() for ch in triple.group(1)):
                allowed("triple_quotes", "a triple-quoted string is not JSON", at)
                return emit_string(_quoted(triple.group(1)), at, triple.end(), ("triple_quotes",), triple.group())
            return -1
        nonlocal doubled_keys
        doubled = _DOUBLED.match(text, at)
        if doubled is None:
            return -1
        if expecting_key():
            doubled_keys = True
        elif not doubled_keys:
            # `""quoted""` as a value alone: the string "quoted" in doubled quotes, or '"quoted"' with its quotes
            # unescaped — only keys written the same way (`{""answer"": ""5""}`) say which
            raise fail('""x"" is "x" in doubled quotes or \'"x"\' with unescaped quotes: two readings', at, "ambiguous")
        allowed("doubled_quotes", 'a string in doubled quotes (""x"") is not JSON', at)
        return emit_string(_quoted(doubled.group(1)), at, doubled.end(), ("doubled_quotes",), doubled.group())

    def open_container(at: int, closer: str) -> None:
        nonlocal state
        if len(stack) >= max_depth:
            raise fail(f"nesting deeper than {max_depth} levels (Policy.max_depth)", at, "too_deep")
        frame = Frame(closer=closer, prefix=path_of(stack), opened_at=at, member_start=len(out) + 1, out_at=len(out))
        stack.append(frame)
        opened[closer] += 1
        out.append("{" if closer == "}" else "[")
        state = _KEY_OR_END if closer == "}" else _VALUE_OR_END

    def close_container(at: int) -> None:
        nonlocal last_root, root_close, root_close_at
        top = stack[-1]
        if state == _COLON or (state == _VALUE and top.is_object):
            raise fail("a key has no value", at, "missing_value")
        if state in (_KEY, _VALUE):
            out[top.last_comma] = ""
            stack.pop()
            repairs.append(Repair.make("trailing_comma", path_of(stack), ",", "", offset=top.last_comma_at))
        else:
            stack.pop()
        opened[top.closer] -= 1
        if top.closer == ")" and top.index == 0 and top.last_comma < 0 and state == _COMMA_OR_END:
            # `(1)`: parentheses around one value, not a tuple (that needs a comma: `(1,)`)
            out[top.out_at] = ""
            end_value(at + 1)
            return
        if not stack:
            last_root, root_close, root_close_at = top, len(out), at
        out.append("}" if top.is_object else "]")
        end_value(at + 1)

    def copy_runs(at: int, valid: re.Pattern[str], loose: re.Pattern[str]) -> int | None:
        """Copy the stretch of valid members or items at `at`, else the loose one; None when neither starts here."""
        run = valid.match(text, at)
        if run is not None and run.end() > at:
            return copy_run(run)
        run = loose.match(text, at)
        if run is not None and run.end() > at:
            return copy_run(run, loose=True)
        return None

    def copy_run(run: re.Match[str], loose: bool = False) -> int:
        """A stretch of members or items (`read_runs`): copied whole when valid, rewritten with its repairs
        recorded when loose. When it ends with a ',', that comma stays its own piece so a '}' or ']' right after
        it can drop it as a trailing comma."""
        nonlocal state, prev_number, prev_end
        top = stack[-1]
        body = run.group()
        if loose:
            body, made, top.index = rewrite_loose(body, run.start(), top.prefix, top.is_object, top.index)
            repairs.extend(made)
        elif not top.is_object:
            top.index += len(RUN_ITEM.findall(body))
        if top.is_object:
            top.runs.append(body)
            top.key = None
        prev_number, prev_end = False, run.end()
        if body[-1] == ",":
            out.append(body[:-1])
            top.last_comma = top.member_start = len(out)
            top.last_comma_at = run.end() - 1
            out.append(",")
            state = _KEY if top.is_object else _VALUE
            return run.end()
        out.append(body)
        top.open_run = body if top.is_object else ""
        prev_number = body[-1].isdigit()
        state = _COMMA_OR_END
        return run.end()

    def flat_object(flat: re.Match[str]) -> int:
        """An object that is one loose stretch between its braces (`read_runs.FLAT_OBJECT`): rewritten and
        recorded in one go, as reading it container by container would, its trailing comma dropped."""
        path = path_of(stack)
        body, made, _ = rewrite_loose(flat.group(1), flat.start(1), path, True, -1)
        repairs.extend(made)
        if body.endswith(","):
            body = body[:-1]
            repairs.append(Repair.make("trailing_comma", path, ",", "", offset=flat.end(1) - 1))
        out.append("{" + body + "}")
        end_value(flat.end())
        return flat.end()

    def after_the_end(at: int, c: str) -> int:
        """Text after the top-level value: a comment, an invisible character, or a '}' that came too early."""
        nonlocal last_root, state, root_close, root_close_at
        if c in "/#":
            return comment(at)
        if c in _INVISIBLE:
            add("invisible_character", c, "", at)
            return at + 1
        if c in "}]" and "stray_closer" in lossy:
            add("stray_closer", c, "", at)
            return at + 1
        if c == "," and last_root is None and root_raw and out[-1].endswith("}") and "stray_closer" in lossy:
            last_root = Frame(closer="}", prefix="", opened_at=0)
            root_close_at = prev_end - 1
            body = out[-1][:-1].rstrip()
            out[-1] = body
            out.append("}")
            root_close = len(out) - 1
            if body == "{":
                out[root_close] = ""
                last_root.reopened = True
                stack.append(last_root)
                opened["}"] += 1
                add("stray_closer", "}", "", root_close_at, path="")
                state = _KEY_OR_END
                return at + 1
        if c == "," and last_root is not None and last_root.is_object and "stray_closer" in lossy:
            follows = _WS.match(text, at + 1)
            nxt = follows.end() if follows else at + 1
            if nxt < n and (text[nxt] == '"' or text[nxt] in _WORD_START):
                # `{"a": 1}, "b": 2}`: the '}' came before members that follow it
                out[root_close] = ""
                frame = last_root
                frame.reopened, frame.key = True, None
                frame.last_comma = frame.member_start = len(out)
                frame.last_comma_at = at
                stack.append(frame)
                opened["}"] += 1
                last_root = None
                add("stray_closer", "}", "", root_close_at, path="")
                out.append(",")
                state = _KEY
                return at + 1
        if c == "," and (root_raw or (last_root is not None and last_root.is_object)) and out[-1].endswith("}"):
            follows = _WS.match(text, at + 1)
            nxt = follows.end() if follows else at + 1
            if nxt < n and (text[nxt] == '"' or text[nxt] in _WORD_START):
                # strict: `{"a": 1}, "b": 2}` is one object closed too early, not an object with prose after it
                raise fail("members follow the object's '}': it was closed too early (a lossy repair)", at)
        raise fail("unexpected text after the end of the JSON value", at, "trailing_text")

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
                if state in (_KEY, _KEY_OR_END)
                else (ITEM_RUN, LOOSE_ITEM_RUN)
                if state == _VALUE_OR_END or (state == _VALUE and stack and not stack[-1].is_object)
                else None
            )
            if runs is not None:
                end = copy_runs(pos, *runs)
                if end is not None:
                    pos = end
                    continue
        c = text[pos]
        at = pos
        if c in " \t\r\n":
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            continue
        if c == '"':
            if state == _DONE:
                raise fail("unexpected text after the end of the JSON value", at, "trailing_text")
            if (
                text.startswith('""', pos)
                and state != _COMMA_OR_END
                and pos + 2 < n
                and text[pos + 2] not in _EMPTY_FOLLOWS
            ):
                read_as = doubled_or_triple(at)
                if read_as >= 0:
                    pos = read_as
                    continue
            m = _STRING.match(text, pos)
            if m is not None:
                pos = m.end()
                tok = m.group()
                if not stack and state == _VALUE and pos < n and text[pos] in '"]}':
                    whole = one_string_with_inner_quotes(at, pos)
                    if whole >= 0:
                        pos = whole
                        continue
                if pos >= n or text[pos] in _AFTER_VALUE or expecting_key():
                    pos = emit_string(tok, at, pos, (), tok)
                else:
                    pos = string_value_follow(at, pos, tok, [], tok)
                continue
            tok = _LOOSE_STRING.match(text, pos).group()  # type: ignore[union-attr]
            if len(tok) < 2 or tok[-1] != '"' or (tok.endswith('\\"') and _odd_backslashes_before_end(tok)):
                pos = unclosed_string(at)
                continue
            pos = at + len(tok)
            fixed, kinds = fix_string(tok)
            if pos >= n or text[pos] in _AFTER_VALUE or expecting_key():
                pos = emit_string(fixed, at, pos, kinds, tok)
            else:
                pos = string_value_follow(at, pos, fixed, kinds, tok)
            continue
        if state == _DONE:
            pos = after_the_end(at, c)
            continue
        if c in _FULLWIDTH:
            add("fullwidth_punctuation", c, _FULLWIDTH[c], at)
            c = _FULLWIDTH[c]
        if c == "{" or c == "[":
            begin_value(at)
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
                        open_container(at, "}" if c == "{" else "]")
                        pos += 1
                        continue
                    out.append(text[at:end])
                    pos = end
                    root_raw = not stack
                    end_value(end)
                    continue
            if c == "{" and len(stack) < max_depth and text[at] == "{":
                if flat_wait:
                    flat_wait -= 1
                else:
                    flat = FLAT_OBJECT.match(text, at)
                    # the root only when nothing follows it (what may follow a root is read with its frame)
                    if flat is not None and (stack or not text[flat.end() :].strip(" \t\r\n")):
                        flat_skip = 0
                        pos = flat_object(flat)
                        continue
                    # siblings are written alike: after a failure, try the match ever less often
                    flat_skip = min(max(1, flat_skip * 2), 64)
                    flat_wait = flat_skip
            open_container(at, "}" if c == "{" else "]")
            pos += 1
            continue
        if c == "}" or c == "]" or c == ")":
            if not stack:
                raise fail(f"unexpected '{c}'", at)
            top = stack[-1]
            if top.closer != c and len(stack) == 1 and c != ")" and not opened[c] and "stray_closer" in lossy:
                follows = _WS.match(text, at + 1)
                nxt = follows.end() if follows else at + 1
                if nxt < n and text[nxt] == ",":
                    # `[{"a": 1}}, {"b": 2}]`: a '}' with no object open closes nothing; as the root list's ']'
                    # it would leave the items after it outside the answer (deeper, as an inner list's ']', it
                    # is the other plausible reading, so the mismatched-bracket rule below stands)
                    add("stray_closer", c, "", at, path=top.prefix)
                    pos += 1
                    continue
            if top.closer != c:
                if c == ")" or top.closer == ")" or "mismatched_bracket" not in lossy:
                    raise fail(f"unexpected '{c}' inside an open {'object' if top.is_object else 'list'}", at)
                add("mismatched_bracket", c, top.closer, at, path=top.prefix)
            close_container(at)
            pos += 1
            continue
        if c == ",":
            if state != _COMMA_OR_END:
                if state == _VALUE and stack and stack[-1].is_object:
                    raise fail("a key has no value", at, "missing_value")
                raise fail("unexpected ','", at)
            top = stack[-1]
            top.last_comma = top.member_start = len(out)
            top.last_comma_at = at
            out.append(",")
            if top.is_object:
                top.key = None
                top.open_run = ""
            state = _KEY if top.is_object else _VALUE
            pos += 1
            continue
        if c == ":":
            if state != _COLON:
                raise fail("unexpected ':'", at)
            out.append(":")
            state = _VALUE
            pos += 1
            continue
        if c in _DIGIT_START:
            if expecting_key():
                if text.startswith("..", pos):
                    pos = loose_number(at)  # `{"a": 2, ...}`: members elided (raises)
                    continue
                m = _NUMBER.match(text, pos)
                colon = _WS.match(text, m.end()) if m is not None else None
                after = (colon.end() if colon else m.end()) if m is not None else n
                if m is None or after >= n or text[after] != ":":
                    raise fail("a number cannot be an object key", at)
                # `{2: "b"}`: a JavaScript (or Python) number key, which JSON writes as a string
                emit_key(json.dumps(m.group()), at, ("bare_key", m.group()))
                pos = m.end()
                continue
            m = _NUMBER.match(text, pos)
            if m is not None:
                end = m.end()
                if end < n and text[end] not in _ENDS_A_NUMBER and _runs_on(text, end):
                    pos = loose_number(at)
                    continue
                begin_value(at, number=True)
                if end >= n and stack:
                    pos = set_cut("value", path_of(stack), at, "the output ends inside a number")
                    continue
                out.append(in_range(m.group(), at))
                pos = end
                end_value(pos, number=True)
                continue
            pos = loose_number(at)
            continue
        if c in _WORD_START or (expecting_key() and (c.isalpha() or _KEY_ESCAPE.match(text, at) is not None)):
            pos = word(at)
            continue
        if c == "(":
            begin_value(at)
            add("python_tuple", "(", "[", at)
            open_container(at, ")")
            pos += 1
            continue
        if c == "/" or c == "#":
            pos = comment(at)
            continue
        if c == "'":
            if doubled_keys and text.startswith("''", at):
                doubled_sq = _DOUBLED_SQ.match(text, at)
                if doubled_sq is not None:
                    allowed("doubled_quotes", "a string in doubled quotes is not JSON", at)
                    pos = emit_string(
                        _quoted(doubled_sq.group(1)), at, doubled_sq.end(), ("doubled_quotes",), doubled_sq.group()
                    )
                    continue
            got = _read_single_quoted(text, at)
            if got is None:
                pos = cut_quoted(at, "a single-quoted string never closes")
                continue
            fixed, end = got
            pos = emit_string(fixed, at, end, ("single_quotes",), text[at:end])
            continue
        if c == "\u2018":
            # ‘…’ read like '…': the ’ of "it’s" is an apostrophe, not the closing quote
            got = _read_single_quoted(text, at, "\u2019")
            if got is None:
                pos = cut_quoted(at, "a curly-quoted string never closes")
                continue
            fixed, end = got
            pos = emit_string(fixed, at, end, ("fullwidth_punctuation",), text[at:end])
            continue
        if c == "\u201c" or c == "\uff02":
            close = text.find("\u201d" if c == "\u201c" else c, pos + 1)
            if close < 0:
                pos = cut_quoted(at, "a quoted string never closes")
                continue
            body = text[at + 1 : close]
            fixed = json.dumps(body, ensure_ascii=False) if c == "\u201c" else _quoted(body)
            pos = emit_string(fixed, at, close + 1, ("fullwidth_punctuation",), text[at : close + 1])
            continue
        if c == "`" and not text.startswith("``", at):
            # `a`, `a´: a JavaScript string in backticks (one with `${…}` in it is a template, not a string)
            closing = _BACKTICK_CLOSE.search(text, at + 1)
            if closing is None:
                pos = cut_quoted(at, "a string in backticks never closes")
                continue
            body = text[at + 1 : closing.start()]
            if "${" in body:
                raise fail("a JavaScript template string with `${…}` in it is not a string value", at)
            pos = emit_string(_quoted(body), at, closing.end(), ("single_quotes",), text[at : closing.end()])
            continue
        if c == "\u2026":
            raise elided(at, c)
        if c in _INVISIBLE:
            add("invisible_character", c, "", at)
            pos += 1
            continue
        if c == "\\" and text.startswith('\\"', at):
            # `\"hello"`: JSON copied out of a JSON string, but not every quote or escape reads as one level of
            # escaping (those that do are unescaped before the reader sees them)
            raise fail(
                "a backslash-escaped quote outside any string: escaped JSON whose escapes do not all read as one "
                "level (unescape it, or drop the backslash?) — two readings",
                at,
                "ambiguous",
            )
        raise fail(f"unexpected character {c!r}", at)

    if cut is not None:
        return Reading(out, repairs, stack, cut)
    if state == _DONE:
        return Reading(out, repairs, stack)
    if not stack:
        raise fail("no JSON value found", n, "empty")
    top = stack[-1]
    if state in (_COLON, _VALUE) and top.is_object:
        return Reading(out, repairs, stack, Cut("value", path_of(stack), n, "the output ends before this key's value"))
    if state in (_KEY, _VALUE):
        return Reading(
            out,
            repairs,
            stack,
            Cut("member", top.prefix, n, "the output ends after a ',': the next member was cut off"),
        )
    lists = [f for f in stack if not f.is_object]
    where = lists[-1].prefix if lists else top.prefix
    kind = "open" if state in (_KEY_OR_END, _VALUE_OR_END) else "complete"
    return Reading(out, repairs, stack, Cut(kind, where, n, "the output ends before its closing bracket"))
