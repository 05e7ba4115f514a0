"""The reader's state (`Reader`) and the grammar's common steps: a value begins and ends, a key is written,
a repair is recorded, a lossy repair is allowed or refused."""

from __future__ import annotations

from resilient_parse.json.failure import ReadFailure
from resilient_parse.json.frames import Cut, Frame, path_of
from resilient_parse.json.tokens import (
    COLON,
    COMMA_OR_END,
    DONE,
    ESCAPE_KINDS,
    KEY,
    KEY_OR_END,
    LITERAL_WORDS,
    QUOTES,
    VALUE,
    VALUE_OR_END,
    WORD_START,
    escape_kinds,
    unopened_closer,
    word_at,
)
from resilient_parse.repairs import Repair


class Reader:
    """The reader's state in one pass: the output so far, the repairs, the open containers, and what the grammar
    functions need to know of the last value. One per `read`; the grammar functions take it as `r`."""

    __slots__ = (
        "cut",
        "decode_floor",
        "decode_skip",
        "decode_wait",
        "doubled_keys",
        "flat_skip",
        "flat_wait",
        "last_root",
        "lossy",
        "max_depth",
        "n",
        "opened",
        "out",
        "prev_end",
        "prev_number",
        "repairs",
        "rescan_budget",
        "root_close",
        "root_close_at",
        "root_raw",
        "stack",
        "state",
        "text",
    )

    def __init__(self, text: str, lossy: frozenset[str], max_depth: int) -> None:
        self.text = text
        self.n = len(text)
        self.lossy = lossy
        self.max_depth = max_depth
        self.out: list[str] = []
        self.repairs: list[Repair] = []
        self.stack: list[Frame] = []
        self.state = VALUE
        self.prev_number = False  # whether the last value was a number
        self.prev_end = 0  # where the last value ended in the text
        self.last_root: Frame | None = None  # the root object once closed (for a '}' that came too early)
        self.root_close = -1  # index in `out` of the root's closer, and its offset in the text
        self.root_close_at = -1
        self.root_raw = False  # whether the root container was read whole by the C scanner
        self.doubled_keys = False  # whether a key was written in doubled quotes (`{""answer"": …}`)
        self.cut: Cut | None = None
        self.opened = {"}": 0, "]": 0, ")": 0}  # how many containers of each kind are open, by closer
        self.decode_floor = 0  # the C scanner is not tried again before the offset where it last failed
        self.decode_skip = self.decode_wait = 0  # how many containers to read by tokens before trying it again
        self.flat_skip = self.flat_wait = 0  # likewise, how many objects to read by tokens before FLAT_OBJECT again
        # text before the last failure may still hold complete valid values (a document cut at its very end fails
        # at the end, its lists inside are whole): they may be tried again, within one more reading of the text
        self.rescan_budget = self.n


def fail(r: Reader, message: str, at: int, kind: str = "syntax", truncated: bool = False) -> ReadFailure:
    """The reader's refusal at `at`, with the JSON Pointer of where it stood."""
    return ReadFailure(message, at, path_of(r.stack), kind, truncated)


def add(r: Reader, kind: str, before: object, after: object, at: int, path: str | None = None) -> None:
    """Record a repair at `at`, at the current pointer unless `path` names another."""
    r.repairs.append(Repair.make(kind, path_of(r.stack) if path is None else path, before, after, offset=at))


def allowed(r: Reader, kind: str, message: str, at: int) -> None:
    """Refuse here unless the policy allows this lossy kind: a guess is made only when the caller allows it."""
    if kind not in r.lossy:
        raise fail(r, message, at)


def expecting_key(r: Reader) -> bool:
    """Whether a key would come next (after `{` or `,` in an object, or a value ended inside one)."""
    return r.state in (KEY, KEY_OR_END) or (r.state == COMMA_OR_END and bool(r.stack) and r.stack[-1].is_object)


def touches_a_quote(r: Reader, at: int) -> bool:
    """Whether a value starts right where the last one ended, with a quote on one side."""
    # a value right after the previous one with nothing between, where one side is a quote: the quotes of
    # `[""", """]` are unescaped quotes inside one string, not two strings missing their comma
    return at == r.prev_end and at > 0 and (r.text[at - 1] in QUOTES or r.text[at] in QUOTES)


def set_cut(r: Reader, kind: str, path: str, at: int, message: str, partial_key: str | None = None) -> int:
    """The text ended inside a value or member: note where, for `read_truncation` to judge; reading stops."""
    r.cut = Cut(kind, path, at, message, partial_key)
    return r.n


def begin_value(r: Reader, at: int, number: bool = False) -> None:
    """A value begins: the comma or colon it lacks is added (recorded) where that has one reading, else a failure."""
    if r.state == COMMA_OR_END:
        top = r.stack[-1]
        if top.is_object:
            raise fail(r, "expected ',' or '}' after a value", at)
        top.index += 1
        if number and r.prev_number and "\n" not in r.text[r.prev_end : at]:
            raise fail(r, "two numbers with only a space between them: one number or two? Two readings", at)
        if touches_a_quote(r, at):
            raise fail(r, "a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes")
        top.member_start = len(r.out)
        r.out.append(",")
        add(r, "missing_comma", None, ",", at)
    elif r.state == COLON:
        # `{"a" 2}`: a key, then its value with nothing but space between them
        if r.text[at] in WORD_START and word_at(r.text, at) not in LITERAL_WORDS:
            raise fail(r, "expected ':' after the key", at)
        r.out.append(":")
        add(r, "missing_colon", None, ":", at)
    elif r.state == VALUE_OR_END or (r.state == VALUE and r.stack and not r.stack[-1].is_object):
        r.stack[-1].index += 1
    elif r.state == DONE:
        raise after_the_value(r, at)
    elif r.state in (KEY, KEY_OR_END):
        raise fail(r, "expected a key", at)


def after_the_value(r: Reader, at: int) -> ReadFailure:
    """The failure for text after the top-level value. Prose after it is `trailing_text` (several values side by
    side, or an answer with words after it, a stray ',' included); but text that closes a bracket it never opened
    is the rest of a larger document the value is a piece of: a broken value, not one answer."""
    closer = unopened_closer(r.text, at)
    if closer >= 0:
        said = f"the text after the value closes a '{r.text[closer]}' it never opened (offset {closer})"
        return fail(r, f"{said}: the value is a piece of a larger JSON document", at)
    return fail(r, "unexpected text after the end of the JSON value", at, "trailing_text")


def end_value(r: Reader, end_at: int, number: bool = False) -> None:
    """A value has ended at `end_at`: a comma or the end comes next."""
    r.state = COMMA_OR_END if r.stack else DONE
    r.prev_number = number
    r.prev_end = end_at


def emit_key(r: Reader, raw: str, at: int, repair: tuple[str, object] | None = None) -> None:
    """Write a key (its JSON text), with the comma it lacks and the repair that made it, if any."""
    top = r.stack[-1]
    if r.state == COMMA_OR_END:
        if repair is not None and "\n" not in r.text[r.prev_end : at]:
            # a bare word right after a value on the same line is the rest of that value, not a key
            raise fail(r, "expected ',' or '}' after a value", at)
        if touches_a_quote(r, at):
            raise fail(r, "a quote right after a value: an unescaped quote, not a missing comma", at, "adjacent_quotes")
        top.member_start = len(r.out)
        top.key = raw
        r.out.append(",")
        add(r, "missing_comma", None, ",", at)
    else:
        top.key = raw
    top.keys.append(raw)
    top.open_run = ""
    if repair is not None:
        add(r, repair[0], repair[1], raw, at)
    r.out.append(raw)
    r.state = COLON


def with_escapes(r: Reader, kinds: tuple[str, ...] | list[str], original: str, at: int) -> tuple[str, ...] | list[str]:
    """The kinds, with what the string's escapes took when its JSON text was built from its body; an escape
    other languages read as a character (`\\x41`, `\\0`) has two readings, so keeping it as text is a guess."""
    if not kinds and original[:1] == '"':
        return kinds  # a whole JSON string, or one `fix_string` read: its escapes are already accounted for
    if not any(kind in ESCAPE_KINDS for kind in kinds) and original[:1] != "\u201c":  # (“…” is taken raw)
        kinds = [*kinds, *escape_kinds(original)]
    if "ambiguous_escape" in kinds:
        allowed(r, "ambiguous_escape", "an escape JSON lacks that other languages read as a character", at)
    if "line_continuation" in kinds:
        allowed(r, "line_continuation", "a backslash before a line break: a continued line, or a backslash?", at)
    return kinds


def emit_value(r: Reader, fixed: str, at: int, end: int, kinds: tuple[str, ...] | list[str], original: str) -> None:
    """Write a scalar value read from `original` as `fixed`, recording each repair kind it took."""
    begin_value(r, at)
    for kind in with_escapes(r, kinds, original, at):
        add(r, kind, original, fixed, at)
    r.out.append(fixed)
    end_value(r, end)
