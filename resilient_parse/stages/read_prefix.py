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

Each call reads the text at most twice (once more up to where the reader stopped), so it is linear in the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from resilient_parse.stages.read import Frame, ReadFailure, Reading, decode_key, fix_string, read

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
class Prefix:
    """What a prefix holds so far.

    - `tree`: the root container with what is complete in it (None when nothing is: a bare value, or a stop
      before the root could be read);
    - `failure`: where the reader stopped short of the end (a syntax it may not repair, or one only more text can
      settle, such as a comment still open), or None when it read all of the text;
    - `chars_read`: how many characters the reads covered (what the caller's budget counts).
    """

    tree: Any
    failure: ReadFailure | None
    chars_read: int


def read_prefix(text: str, *, lossy: frozenset[str], max_depth: int, keep_string: KeepString | None = None) -> Prefix:
    """The tree so far of `text`, a prefix of a JSON answer, read with the lossless repairs and the lossy kinds in
    `lossy`. `keep_string(path)` says whether a string still being written at `path` (keys as written, list
    indices) is shown as far as it goes; without it, such a string is left out."""
    chars = len(text)
    try:
        reading = read(text, lossy=lossy, max_depth=max_depth)
    except ReadFailure as failure:
        head = text[: failure.offset]
        chars += len(head)
        tree = _tree_before(head, failure, lossy, max_depth)
        return Prefix(tree, failure, chars)
    guessed = _guessed_closing_quote(reading, text)
    if guessed is not None:
        # `{"a": "b}`: a string that never closes, read as closed right before the closers — in a prefix, the
        # closers are more likely part of the string still being written
        head = text[:guessed]
        chars += len(head)
        try:
            reading = read(head, lossy=lossy, max_depth=max_depth)
        except ReadFailure as failure:
            return Prefix(None, failure, chars)
        return Prefix(_settled(reading, head, None), None, chars)
    return Prefix(_settled(reading, text, keep_string), None, chars)


def _tree_before(head: str, failure: ReadFailure, lossy: frozenset[str], max_depth: int) -> Any:
    """The tree of the text before the place the reader stopped at."""
    if not head:
        return None
    try:
        reading = read(head, lossy=lossy, max_depth=max_depth)
    except ReadFailure:
        return None
    last = head[-1]
    adjacent = last not in _SEPARATED and last not in _CLOSED_CONTAINER
    return _settled(reading, head, None, drop_last=adjacent)


def _guessed_closing_quote(reading: Reading, text: str) -> int | None:
    """Where a string starts that the reader closed with a guessed quote although no quote follows it in the text
    (it runs to the end), or None."""
    for repair in reversed(reading.repairs):
        if repair.kind == "missing_quote":  # only the last one can run to the end: one search, not one per repair
            at = repair.offset
            return at if at is not None and text.find('"', at + 1) < 0 else None
    return None


def _settled(reading: Reading, text: str, keep_string: KeepString | None, drop_last: bool = False) -> Any:
    """The reading's tree with the innermost unfinished member dropped and the open containers closed."""
    out = reading.out
    cut = reading.cut
    stack = reading.stack
    if cut is None:
        return _loaded("".join(out))
    if not stack:
        return None  # a bare value cut at the top level: no container to show
    top = stack[-1]
    shown = _shown_string(stack, cut.offset, text, keep_string) if cut.state == "value" else None
    if shown is not None:
        out.append(shown)
    elif cut.state in ("value", "member") or (cut.state == "complete" and (drop_last or _may_change(reading, text))):
        del out[top.member_start :]
    out.append("".join("}" if f.is_object else "]" for f in reversed(stack)))
    return _loaded("".join(out))


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


def _shown_string(stack: list[Frame], at: int, text: str, keep_string: KeepString | None) -> str | None:
    """JSON text for the string being written at `at` when the caller shows it as far as it goes, else None."""
    if keep_string is None or at >= len(text) or text[at] not in _OPENING_QUOTES:
        return None
    path = _open_path(stack)
    if path is None or not keep_string(path):
        return None
    return _partial_string(text[at:])


def _open_path(stack: list[Frame]) -> list[PathPart] | None:
    """The keys (as written) and indices of the open containers' current elements; None when one has no key."""
    path: list[PathPart] = []
    for frame in stack:
        if frame.is_object:
            if frame.key is None:
                return None
            path.append(decode_key(frame.key))
        else:
            path.append(frame.index)
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


__all__ = ["KeepString", "Prefix", "read_prefix"]
