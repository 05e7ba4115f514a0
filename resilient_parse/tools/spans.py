"""Where the JSON values in a text are: top-level `{…}`/`[…]` spans found by one forward pass that respects strings,
jumping from one bracket or quote to the next (a regex per structural character, never per character)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

_OPENER = re.compile(r"[{\[]")
_STRUCTURE = re.compile(r'[{}\[\]"]')
_STRING_REST = re.compile(r'(?:[^"\\]++|\\.)*+"', re.DOTALL)


def _span_end(text: str, start: int, end: int, strings: list[tuple[int, int]] | None = None) -> tuple[int, bool]:
    """Where the span opened at `start` ends, and whether it closed (an unclosed one runs to `end`); `strings`, if
    given, gets the stretch of each string in it, quotes included."""
    depth, pos = 0, start
    while (m := _STRUCTURE.search(text, pos, end)) is not None:
        c, pos = m.group(), m.end()
        if c == '"':
            rest = _STRING_REST.match(text, pos, end)
            if rest is None:
                return end, False
            if strings is not None:
                strings.append((pos - 1, rest.end()))
            pos = rest.end()
        elif c in "{[":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos, True
    return end, False


def json_spans(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Top-level `{…}` / `[…]` spans between `start` and `end`, in order; an unclosed span runs to `end`."""
    end = len(text) if end is None else end
    pos = start
    while (opener := _OPENER.search(text, pos, end)) is not None:
        pos, _ = _span_end(text, opener.start(), end)
        yield opener.start(), pos


def strings_in_values(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The stretches of the strings inside the valid JSON values between `start` and `end`, in order: what a
    value's strings write (`"<tool_call>"`, `"[TOOL_CALLS]"`) is data, never markup. The values are the outermost
    `{…}`/`[…]` that close (one left open around them, `see [1 … {"a": "<|end|>"}`, does not hide them); one that
    does not read as JSON holds none: a stray quote in broken JSON would otherwise hide the markup after it. One
    pass, with a stack of the openers still open."""
    closed: list[tuple[int, int, int, int]] = []  # (start, end, first string, after its last string)
    strings: list[tuple[int, int]] = []
    stack: list[tuple[int, int]] = []  # (opener, how many strings stood before it)
    pos = start
    while (m := _STRUCTURE.search(text, pos, end)) is not None:
        c, pos = m.group(), m.end()
        if c == '"':
            if not stack:
                continue  # a quote in prose: no string of a value
            rest = _STRING_REST.match(text, pos, end)
            if rest is None:
                break
            strings.append((pos - 1, rest.end()))
            pos = rest.end()
        elif c in "{[":
            stack.append((m.start(), len(strings)))
        elif stack:
            opener, first = stack.pop()
            while closed and closed[-1][0] > opener:
                closed.pop()  # (a value inside this one: this one is the outer)
            closed.append((opener, pos, first, len(strings)))
    found: list[tuple[int, int]] = []
    for opener, close, first, last in closed:
        if last > first and _reads(text[opener:close]):
            found.extend(strings[first:last])
    return found


def _reads(value: str) -> bool:
    try:
        json.loads(value)
    except (ValueError, RecursionError):
        return False
    return True


def nesting_depth(text: str) -> int:
    """The deepest `{`/`[` nesting in `text`, outside strings."""
    depth = deepest = 0
    pos = 0
    while (m := _STRUCTURE.search(text, pos)) is not None:
        c, pos = m.group(), m.end()
        if c == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                break
            pos = rest.end()
        elif c in "{[":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest
