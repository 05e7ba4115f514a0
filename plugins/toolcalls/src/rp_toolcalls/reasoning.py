"""Where a model's reasoning is in its output, so that a tool call written there is judged as a draft.

The rule is the core's (resilient_parse's extraction stage), so a call and the JSON around it are judged alike:
the same tags (`<think>`, `<thinking>`, `<reasoning>` …); a tag opens a block only where a block can start (at the
start of a line or right after another tag, or with the reasoning written straight after it — a `<thinking>`
mentioned in a sentence or quoted is text); a tag inside a closed JSON value (`{"note": "a <think>b"}`) is text; a
closing tag with no opening before it closes a block that began with the text; a block that never closes was cut
off (no answer followed it). The core does not export its splitter to plugins, hence this twin.

Linear: an opening tag's attributes are read for at most `_MAX_ATTRIBUTES` characters, and every tag is found by
one forward search.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from rp_toolcalls.spans import closed_spans

REASONING_TAGS = ("think", "thinking", "reasoning", "reflection", "scratchpad", "analysis", "thought", "thoughts")
ANSWER, REASONING, REASONING_CUT = "answer", "reasoning", "reasoning_cut"
_MAX_ATTRIBUTES = 200
_TAGS = "|".join(REASONING_TAGS)
_OPEN = re.compile(r"<(?:" + _TAGS + r")\b[^>\n]{0," + str(_MAX_ATTRIBUTES) + r"}>", re.IGNORECASE)
_CLOSE = re.compile(r"</(?:" + _TAGS + r")[ \t\r\n]*>", re.IGNORECASE)
_QUOTES = frozenset("`\"'\u2018\u2019\u201c\u201d")
_NON_SPACE = re.compile(r"\S")


@dataclass(frozen=True)
class Region:
    """A stretch of the text: `kind` is "answer", "reasoning" (a closed block) or "reasoning_cut" (cut off);
    `body_start`/`body_end` bound what is written inside the block's tags (the whole stretch for the answer)."""

    start: int
    end: int
    kind: str
    body_start: int
    body_end: int


def _is_quoted(text: str, start: int, end: int) -> bool:
    return (start > 0 and text[start - 1] in _QUOTES) or (end < len(text) and text[end] in _QUOTES)


def _opens_block(text: str, start: int, end: int) -> bool:
    """At a line start (or after another tag), or with the reasoning written straight after it; never quoted.
    The look-back stops at the first character that is not a space or tab, so each is read at most twice."""
    if _is_quoted(text, start, end):
        return False
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] in "\n>":
        return True
    return end < len(text) and text[end] not in " \t"


def split_regions(text: str) -> list[Region]:
    """The text cut into answer and reasoning regions, in order, covering it whole."""
    n = len(text)
    if "<" not in text:
        return [Region(0, n, ANSWER, 0, n)]
    opens = [m for m in _OPEN.finditer(text) if _opens_block(text, m.start(), m.end())]
    closes = [m for m in _CLOSE.finditer(text) if not _is_quoted(text, m.start(), m.end())]
    if opens or closes:
        spans = closed_spans(text)
        starts = [s for s, _ in spans]

        def in_json(at: int) -> bool:
            i = bisect_right(starts, at) - 1
            return i >= 0 and spans[i][1] > at

        opens = [m for m in opens if not in_json(m.start())]
        closes = [m for m in closes if not in_json(m.start())]
    regions: list[Region] = []
    pos = oi = ci = 0
    if closes and (not opens or closes[0].start() < opens[0].start()):
        regions.append(Region(0, closes[0].end(), REASONING, 0, closes[0].start()))  # the opening tag was lost
        pos = closes[0].end()
    while True:
        while oi < len(opens) and opens[oi].start() < pos:
            oi += 1
        if oi == len(opens):
            break
        opened = opens[oi]
        if opened.start() > pos:
            regions.append(Region(pos, opened.start(), ANSWER, pos, opened.start()))
        while ci < len(closes) and closes[ci].start() < opened.end():
            ci += 1
        if ci == len(closes):
            regions.append(Region(opened.start(), n, REASONING_CUT, opened.end(), n))
            return regions
        regions.append(Region(opened.start(), closes[ci].end(), REASONING, opened.end(), closes[ci].start()))
        pos = closes[ci].end()
    if pos < n or not regions:
        regions.append(Region(pos, n, ANSWER, pos, n))
    return regions


def has_visible_text(text: str, regions: list[Region]) -> bool:
    """Whether anything at all is written outside reasoning blocks."""
    return any(r.kind == ANSWER and _NON_SPACE.search(text, r.start, r.end) is not None for r in regions)
