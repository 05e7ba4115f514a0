"""What the reader keeps of the document: its open containers (`Frame`), where a cut text ended (`Cut`) and
the result (`Reading`), with the JSON Pointer of the current position."""

from __future__ import annotations

from dataclasses import dataclass, field

from resilient_parse.json.runs import RUN_KEY
from resilient_parse.json.tokens import decode_key
from resilient_parse.repairs import Repair, escape_token


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
