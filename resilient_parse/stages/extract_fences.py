"""Markdown code fences in a model's answer: where each body is, found from the marker lines alone."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE_LINE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\n]*)$", re.MULTILINE)
_FENCE_AT = re.compile(r"[ \t]{0,3}(?:`{3}|~{3})")
_FENCE_AFTER_NEWLINE = re.compile(r"\n(?=[ \t]{0,3}(?:`{3}|~{3}))")


@dataclass(frozen=True)
class Fence:
    """A markdown code fence: where its body is, where its opening marker is, and its info string ("json")."""

    body_start: int
    body_end: int
    marker_start: int
    closed: bool
    info: str


def find_fences(text: str) -> list[Fence]:
    """Markdown code fences: an opener line of 3+ backticks or tildes, closed by a line of the same character
    at least as long; an opener that never closes runs to the end of the text."""
    fences: list[Fence] = []
    lines = _fence_lines(text)
    i = 0
    while i < len(lines):
        opener = lines[i]
        marker = opener.group(1)
        info = opener.group(2).strip()
        if marker[0] == "`" and "`" in info:
            i += 1
            continue
        body_start = min(opener.end() + 1, len(text))
        j = i + 1
        while j < len(lines):
            cand = lines[j]
            cm = cand.group(1)
            if cm[0] == marker[0] and len(cm) >= len(marker) and not cand.group(2).strip():
                break
            j += 1
        if j < len(lines):
            fences.append(Fence(body_start, lines[j].start(), opener.start(), True, info))
            i = j + 1
        else:
            fences.append(Fence(body_start, len(text), opener.start(), False, info))
            break
    return fences


def _fence_lines(text: str) -> list[re.Match[str]]:
    """The lines that are fence markers, found from line starts followed by ``` or ~~~ (the search for a line
    break runs in C) rather than by trying the line pattern at every offset of a long answer."""
    found: list[re.Match[str]] = []
    starts = [0] if _FENCE_AT.match(text) else []
    starts.extend(m.end() for m in _FENCE_AFTER_NEWLINE.finditer(text))
    for line in starts:
        m = _FENCE_LINE.match(text, line)
        if m is not None:
            found.append(m)
    return found
