"""Reading a prefix: the tree so far of an answer the model is still writing, by the reader's rules.

Streaming shows partial objects while the text arrives. Where pydantic-core's partial parser stops (it reads
strict JSON only), the reader (`read.py`) goes on through the repairs the policy allows. Its `Reading` of a prefix
ends with a `Cut` holding the open stack; here the cut is settled the way a partial needs — not the schema-aware
way a final answer does (`read_truncation`): the unfinished member of the innermost container is dropped, the open
containers are closed, and what has been read so far is returned as a tree.

What counts as unfinished, so that a partial does not show a value the rest of the text could still change:
- a key, and its member until the value is complete; a string still open (unless `keep_string` shows it as far as
  it goes); a number or a literal with nothing after it (`12` may become `125`, `None` may become `Nonesuch`);
- a single-quoted string whose closing quote is the last character (it may be an apostrophe: `'it` + `'s'`);
- a value read with a repair that what follows may contradict: a ':' or ',' put in, a guess about where a string
  ends (`_REREAD_LATER`);
- when the reader stops at a syntax it may not repair, the value right before that place if nothing separates
  them (`"a 24" screen` stops after `"a 24"`).
Otherwise a double-quoted string, or a container that has closed, is complete.

Each call reads the text at most twice (once more up to where the reader stopped), so it is linear in the text;
and a read of a longer prefix of the same text may start where the last one left off (`Resume`: after the last
',' of the innermost open container that has one, with JSON that reopens the containers around it read first),
so a growing answer is not read by the reader from its start every time (the JSON written for it so far is loaded
whole, at C speed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from resilient_parse.json.document import read
from resilient_parse.json.failure import ReadFailure
from resilient_parse.json.frames import Frame, Reading
from resilient_parse.json.tokens import decode_key, fix_string
from resilient_parse.repairs import Repair

PathPart = str | int
KeepString = Callable[[list[PathPart]], bool]

_OPENING_QUOTES = frozenset("\"'\u2018\u201c\uff02")
_STILL_GROWING = re.compile(r"[\w.'\u2019]")  # a last character after which a value may go on
_SEPARATED = frozenset(" \t\r\n,:{[(")  # a stop right after these is not inside the value before it
_CLOSED_CONTAINER = frozenset("}])")
# repairs whose reading what follows may contradict: a ':' or ',' put in (`COMMENT "title"` is a key and its value
# until a ':' makes `COMMENT` a stray word), a guess about where a string ends (`"t, "done"` holds an inner quote
# until a ':' makes `done` the next key)
_REREAD_LATER = frozenset({"missing_colon", "missing_comma", "inner_quote", "missing_quote"})
_PARTIAL_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{0,3}\Z")
_SQ_ESCAPE_OR_QUOTE = re.compile(r'\\(.)|"', re.DOTALL)


@dataclass(frozen=True)
class Resume:
    """Where a later read of the same growing text may start instead of at its beginning: right after a ',' of the
    innermost container open there (`at`, an offset in the text). `json_text` is the JSON written for the text
    before it (that ',' included); `opened` is JSON that opens the containers open there, each at its current key,
    and is read in place of that text, so the reader stands where it stood; `index_shift` says, per open container,
    how far its list indices run ahead of those the reader counts from there."""

    at: int
    json_text: str
    opened: str
    index_shift: tuple[int, ...]


@dataclass(frozen=True)
class Prefix:
    """What a prefix holds so far.

    - `tree`: the root container with what is complete in it (None when nothing is: a bare value, or a stop
      before the root could be read);
    - `failure`: where the reader stopped short of the end (a syntax it may not repair, or one only more text can
      settle, such as a comment still open), or None when it read all of the text;
    - `chars_read`: how many characters the reads covered (what the caller's budget counts);
    - `resume`: where the next read of the text, once longer, may start (hand it back to `read_prefix`).
    """

    tree: Any
    failure: ReadFailure | None
    chars_read: int
    resume: Resume | None = None


class _Diverged(Exception):
    """A read resumed from a `Resume` did not write the JSON that opens its containers: read from the start."""


class _Body:
    """The text the reader reads: the whole text, or the `Resume`'s opening JSON and the text from its offset."""

    def __init__(self, text: str, resume: Resume | None) -> None:
        if resume is not None and resume.at > len(text):
            resume = None
        self.resume = resume
        self.shift = len(resume.opened) if resume is not None else 0  # where the text from `resume.at` starts
        self.text = resume.opened + text[resume.at :] if resume is not None else text

    def offset_in_text(self, offset: int) -> int:
        return offset - self.shift + (self.resume.at if self.resume is not None else 0)

    def index(self, frame: Frame, depth: int) -> int:
        """The list index of the frame's current item in the whole text (a list the opening JSON reopened counts
        on from where it was; one opened in the text read counts from 0)."""
        shifts = self.resume.index_shift if self.resume is not None else ()
        reopened = depth < len(shifts) and frame.opened_at < self.shift
        return frame.index + (shifts[depth] if reopened else 0)

    def whole(self, json_text: str) -> str:
        """JSON for the whole text from JSON for the body."""
        if self.resume is None:
            return json_text
        if not json_text.startswith(self.resume.opened):
            raise _Diverged
        rest = json_text[len(self.resume.opened) :]
        before = self.resume.json_text
        if rest.lstrip()[:1] in ("]", "}"):
            before = before[:-1]  # the ',' it ends with turned out to be a trailing one
        return before + rest

    def tree(self, json_text: str | None) -> Any:
        return None if json_text is None else _loaded(self.whole(json_text))

    def failure(self, failure: ReadFailure) -> ReadFailure:
        offset = self.offset_in_text(failure.offset)
        return ReadFailure(failure.message, offset, failure.path, failure.kind, failure.truncated)


def read_prefix(
    text: str,
    *,
    lossy: frozenset[str],
    max_depth: int,
    keep_string: KeepString | None = None,
    resume: Resume | None = None,
    refused: frozenset[str] = frozenset(),
) -> Prefix:
    """The tree so far of `text`, a prefix of a JSON answer, read with the lossless repairs and the lossy kinds in
    `lossy`. `keep_string(path)` says whether a string still being written at `path` (keys as written, list
    indices) is shown as far as it goes; without it, such a string is left out. `resume`, from the `Prefix` of a
    shorter prefix of the same text, lets the read start where that one left off. A repair of a kind in `refused`
    (one the policy forbids, though the reader makes it) stops the read there, as the final parse refuses it."""
    try:
        return _read(_Body(text, resume), lossy, max_depth, keep_string, refused)
    except _Diverged:
        return _read(_Body(text, None), lossy, max_depth, keep_string, refused)


def _read(
    body: _Body, lossy: frozenset[str], max_depth: int, keep_string: KeepString | None, refused: frozenset[str]
) -> Prefix:
    text = body.text
    try:
        reading = read(text, lossy=lossy, max_depth=max_depth)
    except ReadFailure as failure:
        return _stopped(body, failure, lossy, max_depth)
    first = min((r for r in reading.repairs if r.kind in refused and r.offset is not None), default=None, key=_at)
    if first is not None:
        message = f"a {first.kind} repair the policy does not allow"
        return _stopped(body, ReadFailure(message, _at(first), first.path, "repair_not_allowed"), lossy, max_depth)
    chars = len(text)
    guessed = _guessed_closing_quote(reading, text)
    if guessed is not None:
        # `{"a": "b}`: a string that never closes, read as closed right before the closers — in a prefix, the
        # closers are more likely part of the string still being written
        head = text[:guessed]
        chars += len(head)
        try:
            reading = read(head, lossy=lossy, max_depth=max_depth)
        except ReadFailure as failure:
            return Prefix(None, body.failure(failure), chars, body.resume)
        return Prefix(body.tree(_settled(reading, head, None, body)), None, chars, body.resume)
    later = _resume_point(reading, body) or body.resume  # before `_settled` changes the reading
    return Prefix(body.tree(_settled(reading, text, keep_string, body)), None, chars, later)


def _at(repair: Repair) -> int:
    return repair.offset or 0


def _stopped(body: _Body, failure: ReadFailure, lossy: frozenset[str], max_depth: int) -> Prefix:
    """The tree of what precedes the place the reader stopped at (or a repair the policy refuses)."""
    head = body.text[: failure.offset]
    chars = len(body.text) + len(head)
    return Prefix(body.tree(_json_before(head, lossy, max_depth, body)), body.failure(failure), chars, body.resume)


def _json_before(head: str, lossy: frozenset[str], max_depth: int, body: _Body) -> str | None:
    """JSON for the text before the place the reader stopped at."""
    if not head:
        return None
    try:
        reading = read(head, lossy=lossy, max_depth=max_depth)
    except ReadFailure:
        return None
    last = head[-1]
    adjacent = last not in _SEPARATED and last not in _CLOSED_CONTAINER
    return _settled(reading, head, None, body, drop_last=adjacent)


def _resume_point(reading: Reading, body: _Body) -> Resume | None:
    """Where a later read may start: after the last ',' of the innermost open container that has one in the text
    read — unless the containers open there cannot be reopened by JSON alone (a Python tuple, an object whose '}'
    came too early) or that ',' is one the reader put in a string it split (`"Bob, "age": 30`)."""
    stack = reading.stack
    if reading.cut is None or not stack:
        return None
    depth = len(stack) - 1
    while depth >= 0 and (stack[depth].last_comma < 0 or stack[depth].last_comma_at < body.shift):
        depth -= 1
    if depth < 0:
        return None
    open_there = stack[: depth + 1]
    here = open_there[-1]
    if any(f.closer == ")" or f.reopened or (f.is_object and f.key is None and f is not here) for f in open_there):
        return None
    if _inside_a_guess(reading, here.last_comma_at):
        return None
    written = body.whole("".join(reading.out[: here.last_comma + 1]))
    opened = "".join("{" + (f.key or "") + ":" if f.is_object else "[" for f in open_there[:-1])
    opened += "{" if here.is_object else "["
    # the list index of the item after that ',': it has begun (its index is counted) unless the text ends there
    after = 1 if here is stack[-1] and reading.cut.state == "member" else 0
    shifts = tuple(
        0 if f.is_object else body.index(f, i) + (after if f is here else 0) for i, f in enumerate(open_there)
    )
    return Resume(body.offset_in_text(here.last_comma_at) + 1, written, opened, shifts)


def _inside_a_guess(reading: Reading, at: int) -> bool:
    """Whether the ',' at `at` lies inside text a guessed quote split (the reader wrote a ',' for it)."""
    for repair in reversed(reading.repairs):
        if repair.offset is None or repair.offset > at:
            continue
        return repair.kind == "missing_quote" and at < repair.offset + len(str(repair.before))
    return False


def _guessed_closing_quote(reading: Reading, text: str) -> int | None:
    """Where a string starts that the reader closed with a guessed quote although no quote follows it in the text
    (it runs to the end), or None."""
    for repair in reversed(reading.repairs):
        if repair.kind == "missing_quote":  # only the last one can run to the end: one search, not one per repair
            at = repair.offset
            return at if at is not None and text.find('"', at + 1) < 0 else None
    return None


def _settled(
    reading: Reading, text: str, keep_string: KeepString | None, body: _Body, drop_last: bool = False
) -> str | None:
    """JSON for the reading with the innermost unfinished member dropped and the open containers closed."""
    out = reading.out
    cut = reading.cut
    stack = reading.stack
    if cut is None:
        return "".join(out)
    if not stack:
        return None  # a bare value cut at the top level: no container to show
    top = stack[-1]
    shown = _shown_string(stack, cut.offset, text, keep_string, body) if cut.state == "value" else None
    if shown is not None:
        out.append(shown)
    elif cut.state in ("value", "member") or (cut.state == "complete" and (drop_last or _may_change(reading, text))):
        del out[top.member_start :]
    out.append("".join("}" if f.is_object else "]" for f in reversed(stack)))
    return "".join(out)


def _may_change(reading: Reading, text: str) -> bool:
    """Whether the complete value the prefix ends with may still be read otherwise: it runs to the very end (a
    number, a literal or a single-quoted string may go on), or its member was read with a repair that what follows
    may contradict (`_REREAD_LATER`)."""
    if _STILL_GROWING.match(text[-1]) is not None:
        return True
    top = reading.stack[-1]
    last = reading.repairs[-1] if reading.repairs else None
    return (
        last is not None
        and last.kind in _REREAD_LATER
        and last.offset is not None
        and last.offset > max(top.opened_at, top.last_comma_at)
        and text.rstrip()[-1] not in _CLOSED_CONTAINER
    )


def _shown_string(stack: list[Frame], at: int, text: str, keep_string: KeepString | None, body: _Body) -> str | None:
    """JSON text for the string being written at `at` when the caller shows it as far as it goes, else None."""
    if keep_string is None or at >= len(text) or text[at] not in _OPENING_QUOTES:
        return None
    path = _open_path(stack, body)
    if path is None or not keep_string(path):
        return None
    return _partial_string(text[at:])


def _open_path(stack: list[Frame], body: _Body) -> list[PathPart] | None:
    """The keys (as written) and indices of the open containers' current elements; None when one has no key."""
    path: list[PathPart] = []
    for depth, frame in enumerate(stack):
        if frame.is_object:
            if frame.key is None:
                return None
            path.append(decode_key(frame.key))
        else:
            path.append(body.index(frame, depth))
    return path


def _loaded(json_text: str) -> Any:
    try:
        tree = json.loads(json_text)
    except (ValueError, RecursionError):  # the reader writes valid JSON: this is a safeguard, not a path
        return None
    return tree if isinstance(tree, dict | list) else None


def _partial_string(token: str) -> str | None:
    """JSON text for a string still being written (`token` runs from its opening quote to the end of the text),
    as far as it goes: an escape cut in half, or the first half of a surrogate pair, is left out. None when it does
    not read as a string."""
    quote, body = token[0], token[1:]
    trailing = len(body) - len(body.rstrip("\\"))
    if trailing % 2:
        body = body[:-1]
    body = _PARTIAL_ESCAPE.sub("", body)
    if quote != '"':
        body = _SQ_ESCAPE_OR_QUOTE.sub(_requoted, body)
    fixed, _ = fix_string('"' + body + '"')
    try:
        value = json.loads(fixed)
    except ValueError:
        return None
    if not isinstance(value, str):
        return None
    if value and "\ud800" <= value[-1] <= "\udbff":
        return json.dumps(value[:-1])  # the first half of a surrogate pair: the second may follow
    return fixed


def _requoted(m: re.Match[str]) -> str:
    """A single-quoted body's escapes and quotes as a double-quoted one's: `\\'` is an apostrophe, `"` escaped."""
    escaped = m.group(1)
    if escaped is None:
        return '\\"'
    return "'" if escaped == "'" else m.group()


__all__ = ["KeepString", "Prefix", "Resume", "read_prefix"]
