"""Extraction stage: find the pieces of a model's answer that may hold the JSON, with the facts selection needs.

Reasoning blocks (`<think>`…, also one whose opening tag was lost) are set apart; a tag opens a block only where a
block can start (a `<thinking>` mentioned in a sentence is text). Markdown fences (``` and ~~~, any length, info
string or none, unclosed at the end) and balanced `{…}`/`[…]` spans — found by one linear scan that respects
strings, so braces in prose and fences inside JSON strings do not derail it — become candidates; so do a Python
tuple in a fence, and an answer ending in a closing fence marker it never opened (without the marker). Every
candidate is returned (no cap: a dropped candidate may be the designated answer), each with its facts: whether it
is inside reasoning (and whether that block was cut off), what the words right before it call it (`label`), and
whether the visible prose refuses the task (a refusal of any language of the lexicon, `text/lexicon`), and whether
it holds prose in a script no lexicon table reads (then the answer is only assumed: a lossy `unread_prose`).
Besides the English clause rules below, every label takes what the text says after and around the candidate, and
before it in other languages (`text/cues.py`). Answer selection (`stages/select.py`) judges by those facts. A plugin
that finds candidates of its own (tool calls in vendor formats) gets the same facts for them from `candidate_facts`,
computed by the same labeller, floors and refusal search, so its candidates and the core's are judged alike.

This module makes and judges the candidates; what it reads them from lives next to it: `extract_reasoning`
(reasoning blocks), `extract_spans` (the balanced-span scanner) and `extract_fences` (markdown fences).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace

from resilient_parse.context import ANSWER, REASONING, REASONING_CUT, Candidate
from resilient_parse.errors import ErrorDetail, UnrecoverableSyntaxError
from resilient_parse.json.tokens import unopened_closer
from resilient_parse.repairs import Repair
from resilient_parse.stages.extract_fences import Fence, find_fences
from resilient_parse.stages.extract_reasoning import (
    REASONING_TAGS,
    Region,
    is_quoted_tag,
    opens_reasoning_block,
    split_reasoning,
)
from resilient_parse.stages.extract_spans import _CLOSERS, _OPENERS, _STRING_END, Span, opens_json, scan_spans
from resilient_parse.text.clauses import announces_list, label_words, list_glue, words_before
from resilient_parse.text.cues import Markup, ProseCues, label_for
from resilient_parse.text.lexicon import lexicon

_NON_SPACE = re.compile(r"\S")

TIER_REASONING = -10
TIER_REASONING_CUT = 2 * TIER_REASONING
SOURCE_PREFERENCE = {"whole": 0, "fence": 1, "span": 2, "truncated_span": 3}
_LISTED_LABELS = frozenset({"example", "alternative", "rejected"})
LABEL_TIER = {"designated": 1, "example": -1, "rejected": -1, "alternative": 0, "": 0}


_REFUSAL = frozenset({"refusal"})


def _refusal_in(prose: ProseCues, region: Region) -> int:
    """Where the prose of a visible region (its cues lie outside its JSON values and whatever else a reader took)
    first refuses the task, or -1."""
    cue = prose.first(_REFUSAL, region.start, region.end)
    return cue.start if cue is not None else -1


def _unread_in(text: str, region: Region, covered: list[tuple[int, int]]) -> int:
    """Where the prose of a visible region (outside the stretches in `covered`) first holds a word no lexicon
    table can read (a script none covers), or -1."""
    pos = region.start
    for start, end in covered:
        if start >= region.end:
            break
        if start > pos:
            at = lexicon().unread(text, pos, start)
            if at >= 0:
                return at
        pos = max(pos, end)
    return lexicon().unread(text, pos, region.end) if pos < region.end else -1


def _json_stretches(spans: list[Span], text: str | None = None) -> list[tuple[int, int]]:
    """The spans whose words are JSON, not prose (a span inside an unclosed opener is within that opener's); given
    the `text`, only those that start the way JSON does ("[see below]", "[example]" are prose)."""
    return [(s.start, s.end) for s in spans if s.inside < 0 and (text is None or opens_json(text, s.start))]


def _has_visible_text(text: str, regions: list[Region]) -> bool:
    return any(_NON_SPACE.search(text, r.start, r.end) is not None for r in regions if not r.reasoning)


def _floor(ends: list[int], region: Region, at: int) -> int:
    """Where the words that may label a candidate at `at` begin: after the last closed span before it (`ends`,
    sorted), within its region."""
    i = bisect_right(ends, at)
    return max(region.start, ends[i - 1]) if i else region.start


class _Labeller:
    """Labels candidates in text order: what the words before each one call it (`label_before`), and what
    carries from one to the next — after an example hand-over words designate, and list glue ("{…} or {…}")
    extends an example's, alternative's or rejection's label to the candidate listed with it."""

    def __init__(self, text: str, prose: ProseCues) -> None:
        self._text = text
        self._prose = prose
        self._example_end = -1  # where the last candidate labelled an example ends
        self._previous = ""
        self._previous_end = -1
        self._announced = False  # the words that gave the previous candidate its label announced a list
        # the words before a start and what they call it, by (start, floor, after an example): a fence body and
        # the span inside it start at the same place, and their words are read once
        self._read: dict[tuple[int, int, bool], tuple[str, bool, str]] = {}
        # what the text says around its candidates: markup (tags, comments, strike-through) and fence info strings
        self._markup = Markup.scan(text)
        self._bound: dict[tuple[str, int, int, int, int | None, bool], str] = {}
        fences = find_fences(text) if "```" in text or "~~~" in text else []
        self._fences = [(f.body_start, f.body_end, f.info) for f in fences if f.info]
        self._fence_starts = [f[0] for f in self._fences]

    def _fence_info(self, start: int, end: int) -> str:
        """The info string of the fence whose body holds text[start:end] ("" when none, or no info string)."""
        i = bisect_right(self._fence_starts, start) - 1
        if i >= 0 and self._fences[i][1] >= end:
            return self._fences[i][2]
        return ""

    def label(self, start: int, end: int, floor: int, ceiling: int | None = None) -> str:
        """The label of the candidate at text[start:end]; `floor` is where the words that may label it begin,
        `ceiling` where the next candidate starts (None: none follows)."""
        text = self._text
        after_example = 0 <= self._example_end <= start
        key = (start, floor, after_example)
        known = self._read.get(key)
        if known is None:
            words, whole = words_before(text, start, floor)
            known = self._read[key] = (words, whole, label_words(words, key[2]))
        words, whole, label = known
        listed = (
            self._previous in _LISTED_LABELS
            and 0 < floor == self._previous_end
            and list_glue(words, whole, self._announced)
        )
        if listed:
            # "For example: {…} or {…}": the second one is listed with the first (the glue's own "or" offers
            # nothing of its own)
            label = self._previous
        if label in ("", "designated") and text.startswith("?", end):
            label = "alternative"  # "Maybe {…}?", "Should I call {…}?": a question offers it, it does not answer
        # a fence body and the value inside it end at the same word: what is bound to them is read once
        last = end
        while last > start and text[last - 1] in " \t\r\n":
            last -= 1
        bound = (label, start, last, floor, ceiling, after_example)
        known_label = self._bound.get(bound)
        if known_label is None:
            known_label = self._bound[bound] = label_for(
                label,
                text,
                (start, last, floor),
                self._markup,
                self._fence_info(start, end),
                len(text) if ceiling is None else ceiling,
                ceiling is not None,
                after_example,
                self._prose,
            )
        label = known_label
        if not listed:
            self._announced = announces_list(words)
        self._previous, self._previous_end = label, end
        if label == "example":
            self._example_end = max(self._example_end, end)
        return label


@dataclass(frozen=True)
class CandidateFacts:
    """The facts answer selection judges a candidate by, as the core gives them to its own candidates: what the
    words before it call it (`label`: "designated", "example", "alternative", "rejected" or ""), the region it
    stands in, where the visible prose first refuses the task (-1: nowhere) and whether anything is written
    outside reasoning at all."""

    label: str
    region: Region
    refusal_at: int
    visible_text: bool


def candidate_facts(
    text: str, spans: Sequence[tuple[int, int]], taken: Sequence[tuple[int, int]] = ()
) -> list[CandidateFacts]:
    """The facts of each candidate a plugin found at `spans` ((start, end) offsets in `text`), in the order given,
    by the rules the core's own candidates are judged by: each is labelled by the words between the previous
    candidate or JSON value and its start, in text order (so "For example: <tool_call>{…}</tool_call> or …"
    labels both calls examples). The refusal is searched in the visible prose outside the core's JSON values, the
    spans and `taken` — the other stretches the plugin read as its own syntax (an `Action Input: I can't help
    with that` is a tool's input, not a refusal). One pass over the text for all the spans."""
    regions = split_reasoning(text)
    visible_text = _has_visible_text(text, regions)
    covered = sorted([*spans, *taken])
    bounds = [(bisect_left(covered, (r.start, -1)), bisect_left(covered, (r.end, -1))) for r in regions]
    json_spans = [scan_spans(text, r.start, r.end) for r in regions]
    prose = ProseCues(text, [*covered, *(s for found in json_spans for s in _json_stretches(found, text))])
    refusals = (_refusal_in(prose, region) for region in regions if not region.reasoning)
    refusal_at = next((at for at in refusals if at >= 0), -1)  # the first visible region that refuses, as the core
    facts: list[CandidateFacts | None] = [None] * len(spans)
    labeller = _Labeller(text, prose)
    own = sorted(range(len(spans)), key=lambda k: spans[k][0])
    own_starts = [spans[k][0] for k in own]
    k = 0
    for index, region in enumerate(regions):
        lo, hi = bounds[index]
        ends = sorted([*(s.end for s in json_spans[index] if s.closed), *(e for _, e in covered[lo:hi])])
        while k < len(own) and (index + 1 == len(regions) or spans[own[k]][0] < regions[index + 1].start):
            start, end = spans[own[k]]
            label = labeller.label(start, end, _floor(ends, region, start), _next_start(own_starts, end))
            facts[own[k]] = CandidateFacts(label, region, refusal_at, visible_text)
            k += 1
    return [f for f in facts if f is not None]


def extract_candidates(text: str, max_candidates: int | None = None) -> list[Candidate]:
    """Every candidate in the text, best-first, with the facts answer selection judges by. No cap: a candidate
    dropped here could be the one the text designates (`max_candidates` is accepted for the hook's call and
    ignored; the number of candidates *tried* is bounded in `stages/select.py`)."""
    regions = split_reasoning(text)
    lone = _lone_value(text, regions)
    if lone is not None:
        return [lone]
    return _all_candidates(text, regions)


_CLOSER_OF = {"{": "}", "[": "]"}


def _lone_value(text: str, regions: list[Region]) -> Candidate | None:
    """The one candidate of a text that is a single bracketed value with nothing else around it (no prose, fence
    or reasoning block; its brackets balance into one span), exactly as `_all_candidates` finds it; None for any
    other text. Most outputs that need a repair are this, and the full extraction costs more than reading them."""
    body = text.strip()
    if len(body) < 2 or _CLOSER_OF.get(body[0]) != body[-1] or "```" in text or "~~~" in text:
        return None
    if len(regions) != 1 or regions[0].reasoning:
        return None
    start = len(text) - len(text.lstrip())
    end = start + len(body)
    spans = scan_spans(text, 0, len(text))
    if len(spans) != 1 or spans[0] != Span(start, end, True):
        return None
    return Candidate(body, start, end, "whole")


_Piece = tuple[int, int, str, str, int, bool]
"""A piece of text that may be a candidate: (start, end, source, region kind, floor for designating words,
demoted)."""


# a key and its colon, where the visible answer starts: the text starts inside an object
_MEMBER_FIRST = re.compile(r'[ \t\r\n]*+"(?:[^"\\\n]++|\\.)*+"[ \t]*+:')


def _refuse_a_missing_opener(text: str, regions: list[Region]) -> None:
    """A visible answer that starts with a key and its colon and later closes a '}' it never opened is an object
    whose '{' is not in the text (an assistant turn prefilled with `{`): its values are members of that object, not
    answers. Raises `UnrecoverableSyntaxError` saying so."""
    for region in regions:
        if region.reasoning or _MEMBER_FIRST.match(text, region.start, region.end) is None:
            continue
        closer = unopened_closer(text, region.start, region.end)  # within the region: each is scanned once
        if closer >= 0:
            message = (
                f"the output starts inside an object (a key before any '{{') and closes a '{text[closer]}' it never "
                "opened: its opening bracket is not in the text (a prefilled '{'? pass it with the text)"
            )
            detail = ErrorDetail(path="", kind="syntax", message=message, offset=closer)
            raise UnrecoverableSyntaxError(f"{message} (offset {closer})", [detail])


def _all_candidates(text: str, regions: list[Region]) -> list[Candidate]:
    """Every candidate of the text, best-first: the pieces of each region (fence bodies, the region as a whole,
    balanced spans), each labelled in text order and given its tier and repairs, one candidate per distinct text."""
    _refuse_a_missing_opener(text, regions)
    has_reasoning = any(r.reasoning for r in regions)
    visible_text = _has_visible_text(text, regions)
    refusal_at = unread_at = -1
    raw: list[_Piece] = []
    found = [scan_spans(text, region.start, region.end) for region in regions]
    prose = ProseCues(text, [s for spans in found for s in _json_stretches(spans, text)])
    for region, spans in zip(regions, found):
        if not region.reasoning and refusal_at < 0:
            refusal_at = _refusal_in(prose, region)
        if not region.reasoning and unread_at < 0:
            unread_at = _unread_in(text, region, _json_stretches(spans))
        _add_region_pieces(text, region, spans, raw)

    answer = "".join(text[r.start : r.end] for r in regions if not r.reasoning).strip()
    seen: dict[str, Candidate] = {}
    stripped_all = text.strip()
    labeller = _Labeller(text, prose)
    raw.sort(key=lambda r: r[0])
    # where the pieces that can be candidates start (an empty fence body is none): the words before the next one
    # speak of it, not of the one before
    raw_starts = [r[0] for r in raw if _NON_SPACE.search(text, r[0], r[1]) is not None]
    for order, (start, end, source, kind, floor_at, demoted) in enumerate(raw):
        piece = text[start:end]
        body = _candidate_body(piece, source)
        if body is None:
            continue
        label = labeller.label(start, end, floor_at, _next_start(raw_starts, end))
        base = TIER_REASONING_CUT if kind == REASONING_CUT else TIER_REASONING if kind == REASONING else 0
        tier = base + LABEL_TIER[label] - (1 if demoted else 0)
        repairs: list[Repair] = []
        if source in ("fence", "open_fence"):
            repairs.append(Repair.make("extract_fence", "", None, None, offset=start))
            source = "fence"
        elif body.strip() != stripped_all and bool(answer) and piece.strip() != answer:
            repairs.append(Repair.make("extract_prose", "", None, None, offset=start))
        _add_reading_repairs(repairs, start, kind, unread_at, has_reasoning)
        cand = Candidate(body, start, end, source, tier, order, tuple(repairs), label, kind, refusal_at, visible_text)
        prev = seen.get(body)
        if prev is None or _better(cand, prev):
            seen[body] = cand
    return sorted(seen.values(), key=lambda c: (-c.tier, SOURCE_PREFERENCE.get(c.source, 9), -len(c.text)))


def _add_region_pieces(text: str, region: Region, spans: list[Span], raw: list[_Piece]) -> None:
    """Add to `raw` the pieces of one region that may be candidates: its fence bodies, the region as a whole when
    it is one value, and its spans, except those inside a piece that is a candidate only as a whole."""
    closed = [s for s in spans if s.closed and s.inside < 0]
    ends = sorted(s.end for s in spans if s.closed)
    # a fence body or an answer that is one JSON string literal (JSON encoded as a string, which the later
    # stages may decode) is a candidate as a whole; the braces inside it are not spans of their own
    literals = _add_fence_pieces(text, region, closed, ends, raw)
    marker_cut = _add_whole_piece(text, region, raw, literals)
    literals.sort()
    literal_starts = [a for a, _ in literals]
    for span in spans:
        i = bisect_right(literal_starts, span.start) - 1
        if i >= 0 and span.start < literals[i][1]:
            continue
        if marker_cut is not None and span.start == marker_cut[0] and span.end > marker_cut[1]:
            continue  # the same answer with the fence marker in it
        # a span inside an unclosed opener that starts real JSON is part of a cut-off answer, not an answer
        demoted = span.inside >= 0 and opens_json(text, span.inside)
        source = "span" if span.closed else "truncated_span"
        raw.append((span.start, span.end, source, region.kind, _floor(ends, region, span.start), demoted))


def _add_fence_pieces(
    text: str, region: Region, closed: list[Span], ends: list[int], raw: list[_Piece]
) -> list[tuple[int, int]]:
    """Add to `raw` the body of each fence in the region that is not written inside a JSON value (`closed`, the
    region's closed spans in order); returns the bodies that are one string literal."""
    starts = [s.start for s in closed]
    literals: list[tuple[int, int]] = []
    for fence in find_fences(text[region.start : region.end]):
        marker = region.start + fence.marker_start
        i = bisect_right(starts, marker) - 1
        if i >= 0 and closed[i].start < marker < closed[i].end:
            continue  # a fence written inside a JSON string or value is not a fence
        body_start, body_end = region.start + fence.body_start, region.start + fence.body_end
        source = "fence" if fence.closed else "open_fence"
        raw.append((body_start, body_end, source, region.kind, _floor(ends, region, body_start), False))
        if _is_string_literal(text[body_start:body_end].strip()):
            literals.append((body_start, body_end))
    return literals


def _add_whole_piece(
    text: str, region: Region, raw: list[_Piece], literals: list[tuple[int, int]]
) -> tuple[int, int] | None:
    """Add to `raw` a visible region that is one value (or one string literal, then also to `literals`) as a
    whole; returns the answer before a closing fence marker it never opened, when that is what it is."""
    chunk = text[region.start : region.end]
    body = chunk.strip()
    if region.reasoning or not (body[:1] in _OPENERS or _is_string_literal(body)):
        return None
    marker_cut: tuple[int, int] | None = None
    lead = len(chunk) - len(chunk.lstrip())
    before_ticks = body.rstrip("`")
    if len(body) - len(before_ticks) >= 3 and "```" not in before_ticks:
        # `{"key": "value"}```: a fence whose opening marker was left out; what is before its closing
        # marker is the candidate (the whole, backticks and all, is not JSON)
        end = region.start + lead + len(before_ticks.rstrip())
        raw.append((region.start + lead, end, "open_fence", region.kind, region.start, False))
        marker_cut = (region.start + lead, end)
    else:
        whole_end = region.start + lead + len(body)
        if body[:1] in _OPENERS and body[-1:] not in _CLOSERS:
            whole_end = region.end  # open-ended: it keeps its trailing white space, as a cut-off span does
        raw.append((region.start + lead, whole_end, "whole", region.kind, region.start, False))
    if body[:1] == '"':
        literals.append((region.start + lead, region.start + lead + len(body)))
    return marker_cut


def _candidate_body(piece: str, source: str) -> str | None:
    """The text a piece offers as a candidate (a cut-off piece keeps its trailing whitespace: "30\n" shows the
    number was complete), or None when it cannot be one (too short, not a value, a broken string literal)."""
    if source != "span" and piece.lstrip()[:1] == '"':
        body = piece.strip()
        return body if _is_string_literal(body) else None
    open_ended = source in ("truncated_span", "open_fence") or (
        source == "whole" and piece.rstrip()[-1:] not in _CLOSERS
    )
    body = piece.lstrip() if open_ended else piece.strip()
    tuple_in_fence = source in ("fence", "open_fence") and body[:1] == "("  # a Python tuple given as the JSON
    if len(body.rstrip()) < 2 or (body[0] not in _OPENERS and not tuple_in_fence):
        return None
    return body


def _add_reading_repairs(repairs: list[Repair], start: int, kind: str, unread_at: int, has_reasoning: bool) -> None:
    """Add the repairs that say how far the candidate at `start` was read rather than assumed: prose no table
    reads, a draft taken from reasoning, reasoning skipped."""
    if unread_at >= 0:
        # prose no table reads may refuse, retract or call this an example: the answer is assumed, not read
        repairs.append(Repair.make("unread_prose", "", None, None, offset=unread_at))
    if kind != ANSWER:
        # choosing a draft from the model's reasoning is a judgement, never lossless
        repairs.append(replace(Repair.make("reasoning_candidate", "", None, None, offset=start), lossless=False))
    elif has_reasoning:
        repairs.append(Repair.make("skip_reasoning", "", None, None, offset=start))


def _next_start(starts: list[int], end: int) -> int | None:
    """Where the first candidate that starts at or after `end` starts (`starts` sorted), or None."""
    i = bisect_left(starts, end)
    return starts[i] if i < len(starts) else None


def _is_string_literal(body: str) -> bool:
    """Whether `body` is exactly one double-quoted JSON string with something inside."""
    return len(body) > 2 and body[0] == '"' and _STRING_END.fullmatch(body, 1) is not None


def _better(new: Candidate, old: Candidate) -> bool:
    return (new.tier, -SOURCE_PREFERENCE.get(new.source, 9)) > (
        old.tier,
        -SOURCE_PREFERENCE.get(old.source, 9),
    )


# the extraction stage's whole surface, the parts that live in extract_reasoning, extract_spans and extract_fences
# included: every public name of the stage is importable from here, as before the split
__all__ = [
    "ANSWER",
    "LABEL_TIER",
    "REASONING",
    "REASONING_CUT",
    "REASONING_TAGS",
    "SOURCE_PREFERENCE",
    "TIER_REASONING",
    "TIER_REASONING_CUT",
    "CandidateFacts",
    "Fence",
    "Region",
    "Span",
    "candidate_facts",
    "extract_candidates",
    "find_fences",
    "is_quoted_tag",
    "opens_json",
    "opens_reasoning_block",
    "scan_spans",
    "split_reasoning",
]
