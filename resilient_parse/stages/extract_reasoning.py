"""Reasoning blocks in a model's answer (`<think>`…, harmony's analysis channel): set apart from the answer."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from resilient_parse.context import ANSWER, REASONING, REASONING_CUT
from resilient_parse.stages.extract_spans import scan_spans

REASONING_TAGS = (
    "think",
    "thinking",
    "reasoning",
    "reflection",
    "scratchpad",
    "analysis",
    "thought",
    "thoughts",
)
_REASONING_OPEN = re.compile(r"<(" + "|".join(REASONING_TAGS) + r")\b[^>\n]{0,200}>", re.IGNORECASE)
_REASONING_CLOSE = re.compile(r"</(" + "|".join(REASONING_TAGS) + r")\s*>", re.IGNORECASE)
# gpt-oss (harmony) writes its reasoning as a message on the analysis channel, ended by `<|end|>` (or cut short by
# the next message's header)
_ANALYSIS_OPEN = re.compile(r"<\|channel\|>[ \t]*+analysis[ \t]*+<\|message\|>")
_ANALYSIS_CLOSE = re.compile(r"<\|end\|>|<\|start\|>|<\|channel\|>")
_QUOTES = frozenset("`\"'\u2018\u2019\u201c\u201d")


@dataclass(frozen=True)
class Region:
    """A stretch of the text: the answer, or a reasoning block whose candidates rank below the answer's; `cut`
    marks a reasoning block the output stopped in (it never closed, so no answer followed it). `body_start` and
    `body_end` bound what is written inside the block's tags (the whole stretch for the answer), so a plugin that
    reads formats of its own inside a block does not read the tags."""

    start: int
    end: int
    body_start: int
    body_end: int
    reasoning: bool
    cut: bool = False

    @property
    def kind(self) -> str:
        """ANSWER, REASONING (a closed block) or REASONING_CUT (a block the output stopped in)."""
        return REASONING_CUT if self.cut else REASONING if self.reasoning else ANSWER


def opens_reasoning_block(text: str, tag_start: int, tag_end: int) -> bool:
    """Whether an opening reasoning tag starts a block: at the start of a line (or right after another tag), or
    with the reasoning written straight after it (`<think>Maybe`, `<think>` + line break). A tag mentioned in a
    sentence ("I skip the <thinking> step") or quoted (`` `<think>` ``) is text. The look-back stops at the line
    or the previous tag, so it reads each character once."""
    if is_quoted_tag(text, tag_start, tag_end):
        return False
    i = tag_start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] in "\n>":
        return True
    return tag_end < len(text) and text[tag_end] not in " \t"


def is_quoted_tag(text: str, tag_start: int, tag_end: int) -> bool:
    """Whether the tag at text[tag_start:tag_end] is quoted (a quote or backtick right before or after it): text,
    not a tag."""
    return (tag_start > 0 and text[tag_start - 1] in _QUOTES) or (tag_end < len(text) and text[tag_end] in _QUOTES)


def split_reasoning(text: str) -> list[Region]:
    """Split text into answer and reasoning regions, in order, covering it whole. A tag written inside a JSON value
    (`{"note": "</think>"}`) is text, not a tag: tags inside closed `{…}`/`[…]` spans are ignored; so is an opening
    tag that does not start a block (`opens_reasoning_block`) and a quoted closing tag (`is_quoted_tag`)."""
    n = len(text)
    if "<" not in text:
        return [Region(0, n, 0, n, False)]
    opens = [m for m in _REASONING_OPEN.finditer(text) if opens_reasoning_block(text, m.start(), m.end())]
    closes = [m for m in _REASONING_CLOSE.finditer(text) if not is_quoted_tag(text, m.start(), m.end())]
    if "<|channel|>" in text:
        _add_analysis_messages(text, opens, closes)
    if not opens and not closes:
        return [Region(0, n, 0, n, False)]
    spans = [s for s in scan_spans(text) if s.closed]
    if spans:
        starts = [s.start for s in spans]

        def in_json(at: int) -> bool:
            i = bisect_right(starts, at) - 1
            return i >= 0 and spans[i].end > at

        opens = [m for m in opens if not in_json(m.start())]
        closes = [m for m in closes if not in_json(m.start())]
    regions: list[Region] = []
    pos = 0
    if closes and (not opens or closes[0].start() < opens[0].start()):
        # the opening tag is missing: everything before the first closing tag is reasoning
        regions.append(Region(0, closes[0].end(), 0, closes[0].start(), True))
        pos = closes[0].end()
    oi = ci = 0
    while True:
        while oi < len(opens) and opens[oi].start() < pos:
            oi += 1
        if oi >= len(opens):
            break
        opened = opens[oi]
        if opened.start() > pos:
            regions.append(Region(pos, opened.start(), pos, opened.start(), False))
        while ci < len(closes) and closes[ci].start() < opened.end():
            ci += 1
        if ci >= len(closes):
            regions.append(Region(opened.start(), n, opened.end(), n, True, cut=True))
            pos = n
            break
        regions.append(Region(opened.start(), closes[ci].end(), opened.end(), closes[ci].start(), True))
        pos = closes[ci].end()
    if pos < n:
        regions.append(Region(pos, n, pos, n, False))
    return regions


def _add_analysis_messages(text: str, opens: list[re.Match[str]], closes: list[re.Match[str]]) -> None:
    """Add each harmony analysis message's opening and the token that ends it to the tags, in order (a token
    that ends no analysis message is no tag). Each end is searched for once: later openings before it share it."""
    ends: list[re.Match[str]] = []
    end: re.Match[str] | None = None
    found = False
    for m in _ANALYSIS_OPEN.finditer(text):
        opens.append(m)
        if not found or (end is not None and end.start() < m.end()):
            end, found = _ANALYSIS_CLOSE.search(text, m.end()), True
        if end is not None and (not ends or ends[-1] is not end):
            ends.append(end)
    if found:
        opens.sort(key=lambda m: m.start())
    if ends:
        closes.extend(ends)
        closes.sort(key=lambda m: m.start())
