"""The reader's tokens: the patterns that match a piece of text in one C-speed step, and the pure helpers that
look at a piece of text without changing the reader's state."""

from __future__ import annotations

import json
import re
from itertools import accumulate

# a whole valid JSON string, matched in one C-speed step
STRING = re.compile(r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"')
# any double-quoted string, closed or not (an unclosed one runs to the end): linear, never rescans
LOOSE_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+")
LOOSE_NUMBER = re.compile(r"[+-]?+(?:[0-9]++\.?+[0-9]*+|\.[0-9]++)(?:[eE][+-]?+[0-9]++)?+")
UNDERSCORED = re.compile(r"-?[0-9]++(?:_[0-9]++)++(?:\.[0-9]++(?:_[0-9]++)*+)?+")
HEX = re.compile(r"[-+]?0[xX][0-9a-fA-F]++")
WORD = re.compile(r"[A-Za-z_$][\w$]*+")
# a bare key as JSON5 writes it: letters of any script, `$`, `_`, digits after the first, `\uXXXX` escapes
KEY_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}")
KEY_WORD = re.compile(r"(?:[^\W\d]|\$|\\u[0-9a-fA-F]{4})(?:[\w$]|\\u[0-9a-fA-F]{4})*+")
WS = re.compile(r"[ \t\r\n]++")
LINE_END = re.compile(r"[\r\n\u2028\u2029]")
_SPACES = re.compile(r"[ \t]*+")
BARE_VALUE = re.compile(r"[^,:{}\[\]\"'\n#]*+")
_CONTROL = re.compile(r"[\x00-\x1f]")
# a valid escape is consumed as a unit, so the `\U` of `"C:\\Users"` is never taken for a bad escape
_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt]|\r\n|[\r\n\u2028\u2029])|\\')
_LINE_BREAKS = frozenset("\r\n\u2028\u2029")
# after a backslash, what other languages read as one character (a hex or octal byte, a short or long \u, a named
# character; `\users` or `\utils` is no escape anywhere): kept as text, such an escape has two readings (`\a` or
# `\v` as a bell or a vertical tab is not plausible in a model's JSON: `C:\Users\ana` is a path)
_READ_ELSEWHERE = re.compile(r"x[0-9a-fA-F]{2}|U[0-9a-fA-F]{8}|N\{|u[0-9a-fA-F]|[0-7]")
ESCAPE_KINDS = ("line_continuation", "escaped_apostrophe", "invalid_escape", "ambiguous_escape")
_CONTROL_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_SQ_SIMPLE = re.compile(r"'([^'\"\\\x00-\x1f]*+)'")
DOUBLED = re.compile(r'""([^"\\\n]++)""')
DOUBLED_SQ = re.compile(r"''([^'\\\n]++)''")
TRIPLE_BODY = re.compile(r'"""((?:[^"\\]++|\\.|"(?!""))*+)"""', re.DOTALL)
CONCAT = re.compile(r"[ \t\r\n]*+\+[ \t\r\n]*+(?=[\"'])")
KEY_AFTER_QUOTE = re.compile(r'([A-Za-z_$][\w$]*+)"[ \t]*+:')
BACKTICK_CLOSE = re.compile("[`\u00b4]")
ENDS_A_NUMBER = frozenset(",]} \t\r\n")  # what usually follows a number: no second look
DIGIT_WORD = re.compile(r"(?:[0-9A-Za-z_.:+\-]|/(?![/*]))++")  # a '/' that starts no comment (`1/3`)
BROKEN_EXPONENT = re.compile(r"[0-9]++(?:\.[0-9]*+)?+[eE][+-]?+")
AFTER_DIGIT_WORD = frozenset(",}]) \t\r\n")
CUT_NUMBER = re.compile(r"[-+]?[0-9]*\.?[0-9]*(?:[eE][-+]?)?[ \t\r\n]*")
MONGO = re.compile(
    r"""(?:ObjectId|ISODate|NumberLong|NumberInt|NumberDecimal|UUID|Timestamp|BinData)\([ \t]*+"""
    r"""("(?:[^"\\\n]++|\\.)*+"|'[^'\\\n]*+'|-?[0-9]++(?:\.[0-9]++)?+)[ \t]*+\)"""
)
PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
JSON_LITERALS = frozenset({"true", "false", "null", "NaN", "Infinity", "-Infinity"})
FULLWIDTH = {"\uff5b": "{", "\uff5d": "}", "\uff3b": "[", "\uff3d": "]", "\uff1a": ":", "\uff0c": ",", "\u3001": ","}
# white space JSON lacks (JSON5 has it all): form feed, vertical tab, BOM, Unicode spaces and line separators
INVISIBLE = frozenset(
    "\x0b\x0c\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u202f\u205f\u3000\ufeff\u200b\u2028\u2029"
)
QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019\uff02")
_SQ_CLOSERS = frozenset(",:}]\n")
AFTER_VALUE = frozenset(",}]:\n\r/#\uff0c\uff5d\uff3d")  # what may follow a value without a second look
WORD_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
DIGIT_START = frozenset("0123456789-+.")
LITERAL_WORDS = frozenset({"true", "false", "null", "True", "False", "None"})
INNER_QUOTE_BEFORE = frozenset(" .!?'%)(=")  # what an inner quote may follow besides a letter or digit
# what a stretch of members or items can start with (after white space): a string, a word, a number
RUN_STARTS = frozenset("\"'-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
EMPTY_FOLLOWS = frozenset(",:}] \t\r\n)\uff0c\uff1a\uff5d\uff3d")  # what follows an empty string ""
_DECODER = json.JSONDecoder()

# parser states
VALUE = 0  # a value must come (top level, after ':' or after ',' in a list)
VALUE_OR_END = 1  # just after '[' or '('
KEY = 2  # a key must come (after ',' in an object)
KEY_OR_END = 3  # just after '{'
COLON = 4
COMMA_OR_END = 5  # a value has just ended
DONE = 6  # the top-level value has ended


def decode_key(raw: str) -> str:
    """A key's value from its raw JSON text."""
    if "\\" not in raw:
        return raw[1:-1]
    try:
        value = json.loads(raw)
    except ValueError:
        return raw.strip('"')
    return value if isinstance(value, str) else raw


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
    return fixed, [k for k in ESCAPE_KINDS if k in took]


def escape_kinds(original: str) -> list[str]:
    """What the backslashes of a string as written take to read, for the strings whose JSON text is built from
    their body (single quotes, backticks, a missing quote …): continuations and escapes kept as text."""
    if "\\" not in original:
        return []
    return [k for k in _fix_escapes(original)[1] if k != "escaped_apostrophe"]


def as_json_string(body: str) -> str:
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


def comment_at(text: str, at: int) -> bool:
    """Whether a comment (`//`, `/*`, `#`) starts at `at`: structure after a value, like a comma or a closer. A lone
    `/` the text ends with is one too, its first character (a stream not done writing it, or a text cut there)."""
    return text.startswith(("//", "/*", "#"), at) or (at == len(text) - 1 and text[at] == "/")


def _ends_structure(text: str, at: int) -> bool:
    """Whether what stands at `at` (after a candidate closing quote and its spaces) is structure: the end, a closer,
    a comma, a line break, a comment (so a prefix `'' /` is an empty string, not one that runs on over the `/`)."""
    return at >= len(text) or text[at] in _SQ_CLOSERS or comment_at(text, at)


def read_single_quoted(text: str, start: int, close: str = "'") -> tuple[str, int] | None:
    """Read a single-quoted string as a token: the closing quote is the first unescaped `close` (`'`, or `’` after
    `‘`) followed by structure (`,` `:` `}` `]`, a newline, a comment, or the end). Apostrophes inside stay apostrophes.
    Returns the JSON string and the end offset, or None when no such closing quote exists. Each search moves
    forward, so the whole read is linear."""
    if close == "'":
        simple = _SQ_SIMPLE.match(text, start)
        if simple is not None:
            m = after_spaces(text, simple.end())
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
            m = after_spaces(text, j + 1)
            if _ends_structure(text, m) or text[m] in ")\r+":
                return as_json_string(text[start + 1 : j]), j + 1
        i = j + 1


def one_string_before_closers(body: str, object_value: bool) -> bool:
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
    return not any(WORD.fullmatch(part.strip()) for part in body[comma + 1 :].split(","))


def runs_on(text: str, end: int) -> bool:
    """Whether the number that ends at `end` (< len(text)) runs on into a word: a letter, a digit, `.`, `_`, or
    `-`, `:` or `/` and a digit (`10-20`, `12:30`, `1/3`). One character test in the usual case."""
    c = text[end]
    return c.isalnum() or c in "._" or (c in "-:/" and end + 1 < len(text) and text[end + 1].isdigit())


def word_char_at(text: str, i: int) -> bool:
    """Whether a word goes on at `i` (`+InfinityX` is no number)."""
    return i < len(text) and (text[i].isalnum() or text[i] in "_$")


def word_at(text: str, i: int) -> str:
    """The identifier-like word at `i` ("" when there is none)."""
    m = WORD.match(text, i)
    return m.group() if m is not None else ""


def after_spaces(text: str, i: int) -> int:
    """The offset after the spaces and tabs at `i`."""
    m = _SPACES.match(text, i)
    return m.end() if m is not None else i


def normalise_number(token: str) -> str:
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


def odd_backslashes_before_end(token: str) -> bool:
    count = 0
    i = len(token) - 2
    while i >= 0 and token[i] == "\\":
        count += 1
        i -= 1
    return count % 2 == 1


_DEPTH_STEP = {"{": 1, "[": 1, "}": -1, "]": -1}
_NOT_BRACKETS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[^\[\]{}"]++')


def too_deep(text: str, start: int, end: int, room: int) -> bool:
    """Whether the valid JSON value at text[start:end] nests deeper than `room` (a count first; the depth itself,
    in C, only when there are more brackets than room)."""
    value = text[start:end]
    if value.count("{") + value.count("[") <= room:
        return False
    return max(accumulate(map(_DEPTH_STEP.__getitem__, _NOT_BRACKETS.sub("", value)))) > room


def unopened_closer(text: str, start: int, end: int | None = None) -> int:
    """Where text[start:end] first closes a bracket it never opened (strings skipped), or -1: text after a value
    that does so is the rest of a larger document, not prose. One pass, made once where reading stops."""
    depth = 0
    for m in _BRACKET_OR_STRING.finditer(text, start, len(text) if end is None else end):
        bracket = m.group()
        if bracket in "{[":
            depth += 1
        elif bracket in "}]":
            if depth == 0:
                return m.start()
            depth -= 1
    return -1


_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]')
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
