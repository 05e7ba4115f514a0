"""Extraction stage: find the pieces of a model's answer that may hold the JSON.

Reasoning blocks (`<think>`…, also one whose opening tag was lost) are set apart: candidates inside them rank
below the answer after them. Markdown fences (``` and ~~~, any length, info string or none, unclosed at the end)
and balanced `{…}`/`[…]` spans — found by one linear scan that respects strings, so braces in prose and fences
inside JSON strings do not derail it — become candidates. Words just before a candidate ("final answer",
"corrected", "for example") raise or lower its tier, which is how the text designates one of several answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from resilient_parse.context import CallContext, Candidate
from resilient_parse.hookspecs import hookimpl
from resilient_parse.repairs import Repair

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
_FENCE_LINE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\n]*)$", re.MULTILINE)
_SPAN_CHARS = re.compile(r'[{}\[\]"]')
_STRING_END = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_DESIGNATE_UP = re.compile(
    r"\b(final|corrected|correction|updated|revised|fixed|actual|actually|real)\b", re.IGNORECASE
)
_DESIGNATE_DOWN = re.compile(
    r"\b(for example|example|e\.g|for instance|sample|template|wrong|incorrect|invalid|draft|previous|old)\b",
    re.IGNORECASE,
)
_CONTEXT_CHARS = 120

TIER_REASONING = -10
SOURCE_PREFERENCE = {"whole": 0, "fence": 1, "span": 2, "truncated_span": 3}


@dataclass(frozen=True)
class Region:
    start: int
    end: int
    reasoning: bool


def split_reasoning(text: str) -> list[Region]:
    """Split text into answer and reasoning regions, in order."""
    if "<" not in text:
        return [Region(0, len(text), False)]
    regions: list[Region] = []
    pos = 0
    first_open = _REASONING_OPEN.search(text)
    first_close = _REASONING_CLOSE.search(text)
    if first_close and (first_open is None or first_close.start() < first_open.start()):
        # the opening tag is missing: everything before the first closing tag is reasoning
        regions.append(Region(0, first_close.end(), True))
        pos = first_close.end()
    while True:
        opened = _REASONING_OPEN.search(text, pos)
        if opened is None:
            break
        if opened.start() > pos:
            regions.append(Region(pos, opened.start(), False))
        closed = _REASONING_CLOSE.search(text, opened.end())
        if closed is None:
            regions.append(Region(opened.start(), len(text), True))
            pos = len(text)
            break
        regions.append(Region(opened.start(), closed.end(), True))
        pos = closed.end()
    if pos < len(text):
        regions.append(Region(pos, len(text), False))
    return regions


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    closed: bool


def scan_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Maximal balanced `{…}`/`[…]` spans in text[start:end], in one linear pass that skips JSON strings.

    A closer that does not match the innermost opener closes the nearest matching one (the ones inside it were
    left open); a closer with no opener is ignored. Spans that are only nested inside openers that never close
    still count as maximal, and the outermost unclosed opener yields a truncated span to the end.
    """
    end = len(text) if end is None else end
    stack: list[tuple[str, int, list[Span]]] = []  # (opener, position, closed direct children)
    top_level: list[Span] = []
    pos = start
    search = _SPAN_CHARS.search
    while True:
        m = search(text, pos, end)
        if m is None:
            break
        ch = m.group()
        at = m.start()
        pos = at + 1
        if ch == '"':
            if stack:
                s = _STRING_END.match(text, pos, end)
                pos = s.end() if s else end
            continue
        if ch in "{[":
            stack.append((ch, at, []))
            continue
        want = "{" if ch == "}" else "["
        depth = len(stack) - 1
        while depth >= 0 and stack[depth][0] != want:
            depth -= 1
        if depth < 0:
            continue
        opener = stack[depth]
        del stack[depth:]
        span = Span(opener[1], at + 1, True)
        (stack[-1][2] if stack else top_level).append(span)
    if stack:
        # children of openers that never closed are maximal spans too
        for _, _, children in stack:
            top_level.extend(children)
        top_level.append(Span(stack[0][1], end, False))
        top_level.sort(key=lambda s: s.start)
    return top_level


@dataclass(frozen=True)
class Fence:
    body_start: int
    body_end: int
    marker_start: int
    closed: bool
    info: str


def find_fences(text: str) -> list[Fence]:
    """Markdown code fences: an opener line of 3+ backticks or tildes, closed by a line of the same character
    at least as long; an opener that never closes runs to the end of the text."""
    fences: list[Fence] = []
    lines = list(_FENCE_LINE.finditer(text))
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


def _tier(text: str, start: int, floor: int, reasoning: bool) -> int:
    window = text[max(floor, start - _CONTEXT_CHARS) : start]
    tier = TIER_REASONING if reasoning else 0
    last_up = max((m.end() for m in _DESIGNATE_UP.finditer(window)), default=-1)
    last_down = max((m.end() for m in _DESIGNATE_DOWN.finditer(window)), default=-1)
    if last_up > last_down:
        tier += 1
    elif last_down > last_up:
        tier -= 1
    return tier


def extract_candidates(text: str, max_candidates: int) -> list[Candidate]:
    """All candidates in the text, best-first."""
    regions = split_reasoning(text)
    has_reasoning = any(r.reasoning for r in regions)
    raw: list[tuple[int, int, str, bool]] = []  # (start, end, source, reasoning)
    for region in regions:
        spans = scan_spans(text, region.start, region.end)
        inside = [(s.start, s.end) for s in spans if s.closed]
        for fence in find_fences(text[region.start : region.end]):
            marker = region.start + fence.marker_start
            if any(a < marker < b for a, b in inside):
                continue  # a fence written inside a JSON string or value is not a fence
            raw.append((region.start + fence.body_start, region.start + fence.body_end, "fence", region.reasoning))
        for span in spans:
            raw.append((span.start, span.end, "span" if span.closed else "truncated_span", region.reasoning))
        body = text[region.start : region.end].strip()
        if body[:1] in ("{", "[") and not region.reasoning:
            lead = len(text[region.start : region.end]) - len(text[region.start : region.end].lstrip())
            raw.append((region.start + lead, region.start + lead + len(body), "whole", False))

    seen: dict[str, Candidate] = {}
    stripped_all = text.strip()
    for order, (start, end, source, reasoning) in enumerate(sorted(raw, key=lambda r: r[0])):
        piece = text[start:end]
        body = piece.strip()
        if len(body) < 2 or body[0] not in "{[":
            continue
        region_floor = next((r.start for r in regions if r.start <= start < r.end), 0)
        tier = _tier(text, start, region_floor, reasoning)
        repairs: list[Repair] = []
        if source == "fence":
            repairs.append(Repair.make("extract_fence", "", None, None, offset=start))
        if body != stripped_all and source != "fence" and _has_prose_around(text, start, end, regions):
            repairs.append(Repair.make("extract_prose", "", None, None, offset=start))
        if reasoning:
            repairs.append(Repair.make("reasoning_candidate", "", None, None, offset=start))
        elif has_reasoning:
            repairs.append(Repair.make("skip_reasoning", "", None, None, offset=start))
        cand = Candidate(body, start, end, source, tier, order, tuple(repairs))
        prev = seen.get(body)
        if prev is None or _better(cand, prev):
            seen[body] = cand
    ranked = sorted(seen.values(), key=lambda c: (-c.tier, SOURCE_PREFERENCE.get(c.source, 9), -len(c.text)))
    if len(ranked) > max_candidates:
        ranked = ranked[:max_candidates]
    return ranked


def _has_prose_around(text: str, start: int, end: int, regions: list[Region]) -> bool:
    answer = "".join(text[r.start : r.end] for r in regions if not r.reasoning)
    return bool(answer.strip()) and text[start:end].strip() != answer.strip()


def _better(new: Candidate, old: Candidate) -> bool:
    return (new.tier, -SOURCE_PREFERENCE.get(new.source, 9)) > (
        old.tier,
        -SOURCE_PREFERENCE.get(old.source, 9),
    )


class ExtractStage:
    """Built-in plugin for `rp_extract_candidates`."""

    @hookimpl(trylast=True)
    def rp_extract_candidates(self, text: str, ctx: CallContext) -> list[Candidate]:
        return extract_candidates(text, ctx.policy.max_candidates)
