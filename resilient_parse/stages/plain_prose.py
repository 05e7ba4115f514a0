"""The prose around a plain answer's values: where the answer is, its sentences, labels, cues and language."""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from resilient_parse.stages.extract_fences import find_fences
from resilient_parse.stages.extract_reasoning import split_reasoning
from resilient_parse.stages.extract_spans import opens_json, scan_spans
from resilient_parse.text.lexicon import Cue, lexicon

# -- how the categories judge a value --------------------------------------------------------------------------------

_DESIGNATING = frozenset({"designation", "lead_in"})
_EXCLUDING = {
    "example": "example_in_plain_answer",
    "counter_example": "negated_plain_answer",
    "rejected": "negated_plain_answer",
    "quoted_input": "quoted_input_in_plain_answer",
}
"""A value labelled by one of these is not the answer, and the error kind that says so."""
_SENTENCE_JUDGES = frozenset({"negation", "question", "bound", "operation", "reference", *_EXCLUDING})
_LIST_PROSE_REFUSES = frozenset({"negation", "hedge", "question", "retraction", *_EXCLUDING})
"""Cues in a list's label or in the prose around its items that make the list not the answer."""

_LABEL_DECORATION = " \t\r*_`#>-\"'\u201c\u201d\u2018\u2019()[]:\uff1a=\u3010\u3011\u300c\u300d"
_MAX_LABEL_CHARS = 60
"""How far before its separator a label may start ("Example output:", "Do NOT output:", "Incorrect answer:")."""
_APOLOGY_REACH = 8  # an apology this close to the start opens the answer ("**Sorry**, …"), as `stages/select.py`
_LONGEST_CUE = 120
"""Longer than any table phrase: how far back a cue that holds a word may start."""
_MAX_LABEL_LINE = 80
"""The longest line read as a label standing alone ("**Examples**" above the values)."""

_UNSPACED_LETTERS = (
    "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
)
_UNSPACED = re.compile(f"[{_UNSPACED_LETTERS}]")
"""Letters of scripts written without spaces: a number or a member may touch them ("答案是42个", "不是positive")."""
# a word: a run of letters and digits of spaced scripts, or one letter of an unspaced one
_WORD = re.compile(f"[^\\W_{_UNSPACED_LETTERS}]+(?:['\u2019][^\\W_{_UNSPACED_LETTERS}]+)?|[{_UNSPACED_LETTERS}]")
_BREAK = re.compile("[.!?;\n\u3002\uff01\uff1f\uff1b]")
_SEPARATOR = re.compile("[:\uff1a]")
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")
_ANSWER_END = "\"')]*_`\u201d\u2019"


# -- where the answer is ---------------------------------------------------------------------------------------------


def _answer_zone(text: str) -> tuple[int, int] | None:
    """The visible answer: the one non-empty stretch outside reasoning blocks, or the body of its one fence."""
    visible = [r for r in split_reasoning(text) if not r.reasoning and text[r.start : r.end].strip()]
    if len(visible) != 1:
        return None
    start, end = _strip(text, visible[0].start, visible[0].end)
    fences = find_fences(text[start:end])
    if len(fences) > 1:
        return None
    if fences:
        start, end = _strip(text, start + fences[0].body_start, start + fences[0].body_end)
    return (start, end) if start < end else None


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _holds_json(text: str, start: int, end: int) -> bool:
    """Whether the answer holds a JSON value the other extractors read (an object, an array, a whole string)."""
    body = text[start:end]
    if len(body) > 1 and body[0] == '"' and body[-1] == '"':
        return True
    return any(opens_json(text, s.start) for s in scan_spans(text, start, end))


def _refusal(start: int, cues: Sequence[Cue]) -> tuple[int, bool]:
    """Where the visible answer refuses the task (its first refusal cue), or -1; and whether it opens with an
    apology ("I'm sorry, …", "抱歉"), which refuses when it gives no answer."""
    refusal_at = next((c.start for c in cues if c.category == "refusal"), -1)
    opening = itertools.takewhile(lambda c: c.start - start <= _APOLOGY_REACH, cues)
    apology = any(c.category == "apology" for c in opening)
    return refusal_at, apology


# -- the prose around the values: cues, sentences, labels, language --------------------------------------------------


@dataclass(frozen=True)
class _Label:
    """A short stretch ending in a separator ("Example output:", "Answer:", "例如：") or standing alone on its line
    ("**Examples**"), what its cues make it, and the stretch it labels."""

    start: int
    content_start: int
    content_end: int
    categories: frozenset[str]

    @property
    def excluding(self) -> str | None:
        return next((c for c in _EXCLUDING if c in self.categories), None)

    @property
    def designating(self) -> bool:
        return bool(self.categories & _DESIGNATING) and self.excluding is None


@dataclass(frozen=True)
class _Prose:
    """The visible answer's prose, read once: its cues, where its sentences end,
    its labels and the stretches they exclude, where it refuses, and its decimal mark."""

    text: str
    cues: tuple[Cue, ...]  # by start
    cue_starts: tuple[int, ...]
    breaks: tuple[int, ...]  # where sentences end: the index of the ".", "?", "\n", "。" …
    labels: tuple[_Label, ...]  # by start
    scopes: tuple[tuple[int, int, str], ...]  # (start, end, category): stretches an excluding label names, by start
    scope_reach: tuple[tuple[int, str], ...]  # per scope: the furthest end so far and its category
    refusal_at: int
    apology: bool  # the answer opens with an apology: with no answer in it, a refusal
    decimal_mark: str | None  # "." or ",", or None when the text's language is not known

    @classmethod
    def read(cls, text: str, start: int, end: int) -> _Prose:
        cues = lexicon().find(text, start, end)
        mark = _decimal_mark(cues)
        cue_starts = [c.start for c in cues]
        breaks = _sentence_breaks(text, start, end, cues)
        labels = _labels(text, start, end, cues, cue_starts, breaks)
        scopes = sorted(
            (lb.content_start, lb.content_end, excluding)
            for lb in labels
            if (excluding := lb.excluding) is not None and lb.content_start < lb.content_end
        )
        reach: list[tuple[int, str]] = []
        for _, s_end, category in scopes:
            reach.append((s_end, category) if not reach or s_end > reach[-1][0] else reach[-1])
        refusal_at, apology = _refusal(start, cues)
        return cls(
            text,
            tuple(cues),
            tuple(cue_starts),
            tuple(breaks),
            tuple(labels),
            tuple(scopes),
            tuple(reach),
            refusal_at,
            apology,
            mark,
        )

    def cues_in(self, start: int, end: int) -> Sequence[Cue]:
        """The cues that lie wholly in text[start:end]."""
        i = bisect.bisect_left(self.cue_starts, start)
        j = bisect.bisect_left(self.cue_starts, end)
        return [c for c in self.cues[i:j] if c.end <= end]

    def covers(self, start: int, end: int) -> bool:
        """Whether a cue holds the word text[start:end] (a minus word in "al menos", "au moins"; white space after
        it does not count)."""
        while end > start and self.text[end - 1] in " \t\u00a0":
            end -= 1
        i = bisect.bisect_right(self.cue_starts, start)
        first = bisect.bisect_left(self.cue_starts, start - _LONGEST_CUE)
        return any(c.end >= end for c in self.cues[first:i])

    def sentence(self, pos: int) -> int:
        """The index of the sentence `pos` is in."""
        return bisect.bisect_left(self.breaks, pos)

    def asks(self, index: int, end: int) -> bool:
        """Whether sentence `index` ends in a question mark before `end`."""
        return index < len(self.breaks) and self.breaks[index] < end and self.text[self.breaks[index]] in "?\uff1f"

    def scope_of(self, pos: int) -> str | None:
        """The category of the excluding label whose stretch holds `pos`, if any."""
        i = bisect.bisect_right(self.scopes, (pos, 1 << 62, "")) - 1
        if i < 0:
            return None
        reach, category = self.scope_reach[i]
        return category if reach > pos else None


def _decimal_mark(cues: Sequence[Cue]) -> str | None:
    """The decimal mark of the text's language: the one mark every cue whose tables agree on one votes for, or
    None (no cue, or cues of languages that write decimals differently)."""
    marks = _table_marks()
    by_span: dict[tuple[int, int], set[str]] = {}
    for c in cues:
        mark = marks.get(c.language)
        if mark is not None:
            by_span.setdefault((c.start, c.end), set()).add(mark)
    votes = {next(iter(m)) for m in by_span.values() if len(m) == 1}
    return votes.pop() if len(votes) == 1 else None


@functools.cache
def _table_marks() -> dict[str, str]:
    return {t.language: t.decimal_mark for t in lexicon().tables if t.phrases and t.language != "marks"}


def _sentence_breaks(text: str, start: int, end: int, cues: Sequence[Cue]) -> list[int]:
    """Where the sentences of text[start:end] end, in one pass: a "." ends one only before white space (or the end)
    and outside a cue ("e.g.", "approx."), so neither "3.5" nor "e.g. 42" is cut."""
    breaks: list[int] = []
    i, reach = 0, -1  # the cues starting at or before a position, and the furthest end among them
    for m in _BREAK.finditer(text, start, end):
        pos = m.start()
        if text[pos] == ".":
            after = text[pos + 1] if pos + 1 < end else ""
            if after and not after.isspace() and after not in _ANSWER_END:
                continue
            while i < len(cues) and cues[i].start <= pos:
                reach = max(reach, cues[i].end)
                i += 1
            if reach > pos:
                continue
        breaks.append(pos)
    return breaks


def _labels(
    text: str, start: int, end: int, cues: Sequence[Cue], cue_starts: Sequence[int], breaks: Sequence[int]
) -> list[_Label]:
    """The labels of text[start:end]: a stretch of at most `_MAX_LABEL_CHARS` within its sentence that ends in a
    separator ("Do NOT output:", "例如："), and a short line of cues alone ("**Examples**"). What a label names runs
    to the end of its line, or over the next lines to a blank one when nothing follows it on its own line, and
    stops at the next label that designates the answer ("Question: … Answer: yes")."""
    newlines = [b for b in breaks if text[b] == "\n"]
    paragraphs = [m.start() for m in _BLANK_LINE.finditer(text, start, end)]

    def line_end(pos: int) -> int:
        i = bisect.bisect_left(newlines, pos)
        return newlines[i] if i < len(newlines) else end

    def paragraph_end(pos: int) -> int:
        i = bisect.bisect_left(paragraphs, pos)
        return paragraphs[i] if i < len(paragraphs) else end

    def named(after: int) -> tuple[int, int]:
        """What a label ending at `after` names: the rest of its line, else the lines after it to a blank one."""
        stop = line_end(after)
        pos = after
        while pos < stop and text[pos] in _LABEL_DECORATION and text[pos] not in ":\uff1a":
            pos += 1  # up to the next separator at most: each stretch is skipped once
        if pos < stop:
            return pos, stop
        return min(stop + 1, end), paragraph_end(stop)

    found: list[_Label] = []
    previous = start
    for m in _SEPARATOR.finditer(text, start, end):
        sep = m.start()
        if sep > start and text[sep - 1].isdigit() and sep + 1 < end and text[sep + 1].isdigit():
            continue  # a time or a ratio ("12:30")
        if text.startswith("//", sep + 1):
            continue  # a URL
        b = bisect.bisect_left(breaks, sep) - 1
        first = max(previous, breaks[b] + 1 if b >= 0 else start, sep - _MAX_LABEL_CHARS)
        previous = sep + 1
        i = bisect.bisect_left(cue_starts, first)
        j = bisect.bisect_left(cue_starts, sep)
        categories = frozenset(c.category for c in cues[i:j] if c.end <= sep + 1)  # a cue may hold its colon
        content_start, content_end = named(sep + 1)
        while first < sep and text[first] in _LABEL_DECORATION:
            first += 1
        found.append(_Label(first, content_start, content_end, categories))
    lines_seen: set[int] = set()
    for c in cues:
        if c.category not in _EXCLUDING:
            continue
        b = bisect.bisect_left(newlines, c.start) - 1
        first = newlines[b] + 1 if b >= 0 else start
        last = line_end(c.start)
        if first in lines_seen or last - first > _MAX_LABEL_LINE:
            continue
        lines_seen.add(first)
        if _only_cues(text, first, last, cues, cue_starts):
            i = bisect.bisect_left(cue_starts, first)
            j = bisect.bisect_left(cue_starts, last)
            categories = frozenset(x.category for x in cues[i:j] if x.end <= last)
            found.append(_Label(first, min(last + 1, end), paragraph_end(last), categories))
    found.sort(key=lambda lb: lb.start)
    designations = [lb.start for lb in found if lb.designating]
    cut: list[_Label] = []
    for lb in found:
        if lb.excluding is not None:
            k = bisect.bisect_right(designations, lb.content_start - 1)
            if k < len(designations) and designations[k] < lb.content_end:
                lb = _Label(lb.start, lb.content_start, designations[k], lb.categories)
        cut.append(lb)
    return cut


def _only_cues(text: str, start: int, end: int, cues: Sequence[Cue], cue_starts: Sequence[int]) -> bool:
    """Whether text[start:end] (one short line) is cues and decoration only."""
    pos = start
    i = bisect.bisect_left(cue_starts, start)
    while pos < end:
        if text[pos] in _LABEL_DECORATION or text[pos] in ".,;!":
            pos += 1
            continue
        while i < len(cues) and cues[i].start < pos:
            i += 1
        if i < len(cues) and cues[i].start == pos and cues[i].end <= end:
            pos = cues[i].end
            continue
        return False
    return True


def _leading_label(prose: _Prose, start: int) -> _Label | None:
    """The label the answer starts with ("Answer:", "**Tags:**", "Examples:"), if any."""
    first = start
    while first - start < 8 and first < len(prose.text) and prose.text[first] in _LABEL_DECORATION:
        first += 1
    return next((lb for lb in prose.labels if lb.start in (start, first)), None)
