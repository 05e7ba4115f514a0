"""Plain-text answers for scalar and choice targets: a judge's "**True**", a classifier's "The sentiment is
positive.", a scorer's "12,111", a router's "ONE", a list written as bullets or one comma-separated line.

Offered only when the target is a `bool`, a number, a `str`, an enum or Literal (or an `Optional`/`list[...]` of
one) and the visible answer holds no JSON: the reading becomes a `Candidate` whose text is the JSON it stands for
(`true`, `"12,111"`, `"positive"`, `["a", "b"]`), so selection (a refusal still wins), the reader, coercion and
Pydantic treat it like any other candidate.

A plain answer is read by one small grammar, the same in every language: [designation or lead-in] value [benign
tail]. The prose around the value is judged by the lexicon (`resilient_parse.text.lexicon`, one table per
language), scanned once over the visible answer. What makes a
reading a guess, and so an `AmbiguousMatchError` naming what was mentioned instead of a value:

- two different values (members, numbers, a bool and its opposite, a value and "N/A");
- a negation or a bound anywhere in the value's sentence, before or after it ("I don't think it is positive",
  "Positive would be incorrect", "4 at most", "5 below zero"), and a hedge anywhere in the answer ("True, but I'm
  not sure"); a question phrase before the value or a "?" ending its sentence ("Is the answer 5?", "¿Es 42?");
  a symbol that bounds a number ("<42", "42+", "~42", "±5", "3.14...") or a word glued to a member
  ("non-negative", "positive-ish"). A negation after a "no" agrees with it ("No, it isn't.");
- a value in a sentence or under a label that names an example, a counter-example, a rejected option or the
  user's own input ("For example: 42", "e.g. positive", "42 is wrong", "Do NOT output: 1, 2, 3", "例如：42",
  "Por ejemplo: 42", "**Examples**" above it). A label names the rest of its line, or the lines after it up to a
  blank one when it ends its line, and stops at a label that designates the answer. Such a value is never the
  answer; a different value outside every such sentence and label still is (an example line, a blank line,
  then "Answer: negative"); the same value again is a contradiction;
- a retraction after the value ("TRUE. Actually, scratch that."); arithmetic ("1/5", "10 minus 2", "half of 10",
  "double 4", "10的一半");
- a list whose label, intro or sign-off judges it ("Examples: 1, 2, 3", "Rejected: 1, 2"), or that says "or"
  ("1, 2, or 3": a choice); a string answer with a label naming an example, or taken back.

A refusal anywhere in the visible answer (a refusal cue), or an apology that opens an answer with no value, is a
`RefusalError`, whatever the words around it say.

Numbers are read whole: the run of digits and separators, a sign (ASCII '-', the minus sign U+2212, the hyphens
U+2010/U+2011, the full-width and small minus, an en dash right before the digits, or a MINUS word of the lexicon:
"minus 5", "menos 5", "负5"; other dashes right before digits are refused, never dropped), and the lexicon's
SCALES after it ("4 million", "3 dozen", "3万"), multiplied exactly (refused for an int target when the product
is not whole). A minus word inside a longer phrase ("al menos 42", "au moins 42") is no sign. Which separator is
the decimal one is the language's: the language of the cues the answer's text holds (their tables'
DECIMAL_MARK), when all of them agree. "1.000" is a thousand in German text and 1.000 in English; with no language
known a dot before exactly three digits is refused (`ambiguous_number`), and commas keep their English reading:
digits in thousands groups ("12,111") go to coercion (`number_from_string`), which reads or refuses them for the
field; any other comma or a second dot ("0,5", "1.234,56" in English, "12,34", "1.2.3") is refused here. In a
language with a decimal comma, a comma before exactly three digits ("1,000") is refused too: it is how English
groups thousands. Digits grouped by a no-break or thin space ("1 000") are one number in any language.

Value vocabulary is not judgement and stays here until the lexicon has tables for it: the bool words (English
true/false/yes/no), "none"/"null"/"n/a" for an Optional target, the unit words of `coerce/numbers.py`, the
negating prefixes glued to a member ("non-", "un-"), and the list conjunctions ("and", "&", "or").

A lone exact value (`positive`, `True`) is a lossless `plain_value`; every other reading is lossy (`plain_answer`,
`plain_text`, `plain_list`) and strict mode refuses it with an error that says so. Linear: the lexicon's one pass
over the answer, one pass for sentence ends and labels, bounded patterns for word and number tokens, members by a
window of at most `_MAX_MEMBER_WORDS` tokens per position, and each mention looks its sentence up by bisection.
"""

from __future__ import annotations

import bisect
import enum
import functools
import itertools
import json
import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation, localcontext
from typing import Any

from resilient_parse.context import CallContext, Candidate
from resilient_parse.errors import (
    AmbiguousMatchError,
    ErrorDetail,
    ParseError,
    RefusalError,
    UnrecoverableSyntaxError,
)
from resilient_parse.repairs import Repair
from resilient_parse.schema import ChoiceView, ListView, ScalarView, TypeView, UnionView
from resilient_parse.stages.coerce.numbers import UNIT_WORDS
from resilient_parse.stages.extract import find_fences, opens_json, scan_spans, split_reasoning
from resilient_parse.text.lexicon import Cue, expand, lexicon

SOURCE = "plain"
_MAX_MEMBER_WORDS = 16
_LISTED = 6
_NUMERIC_TYPES = (int, float, Decimal)

# -- value vocabulary: what a value is spelled as (not judgement; the lexicon has no table of these yet) -------------

# JSON's and Python's own names; the words for yes and no in each language are the lexicon's
_BOOL_LITERALS = {"true": True, "false": False}
_YES_NO = frozenset({"yes", "no"})
_LOSSLESS_BOOLS = frozenset({"true", "false", "True", "False"})
_NULL_WORD = re.compile(r"(?<![\w/])(?:none|null|n/a)(?![\w/])", re.IGNORECASE)
# English morphology, not words: a prefix glued to a member by a hyphen that makes it its opposite ("un-true"); a
# glued word the lexicon calls a negation ("non-negative", "not-positive") does too
_NEGATING_PREFIXES = frozenset({"un", "in", "im", "dis", "anti"})

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

_COMPARATOR_SIGNS = "<>\u2264\u2265~\u2248\u2272\u2273\u2260!\u00b1\u2213\u223c"
_OPERATOR = frozenset({"/", "*", "\u00d7", "+", "^", "=", "x", "\u00f7", ":", "\u2212"})
_SPACED_OPERATOR = frozenset({" - ", " \u2013 ", " \u2212 "})  # "10 - 2"; "2024-01-02" is a date, not a sum
_DECORATION = " \t\r\n*_`\"'\u201c\u201d\u2018\u2019.!,;:()[]"
_LABEL_DECORATION = " \t\r*_`#>-\"'\u201c\u201d\u2018\u2019()[]:\uff1a=\u3010\u3011\u300c\u300d"
_MAX_LABEL_CHARS = 60
"""How far before its separator a label may start ("Example output:", "Do NOT output:", "Incorrect answer:")."""
_APOLOGY_REACH = 8  # an apology this close to the start opens the answer ("**Sorry**, …"), as `stages/select.py`
_LONGEST_CUE = 120
"""Longer than any table phrase: how far back a cue that holds a word may start."""
_SHORT_VERDICT = 24
"""The longest sentence after a value that judges it without saying what it judges ("Wrong!", "不对。")."""
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

# numbers: the whole run of digits and the separators between them ("0,5", "1.234,56"), and an exponent ("1e+22":
# its digits are never a number of their own), so no reading stops at one
_DIGIT_RUN = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+|[\u00a0\u202f\u2009]\d{3}(?!\d))*(?:[eE][+-]?\d+)?")
_SPACE_GROUPS = re.compile(r"[1-9]\d{0,2}(?:[\u00a0\u202f\u2009]\d{3})+(?:[.,]\d+)?")
"""Thousands grouped by a no-break or thin space ("1 000", "12 500,5"): one number in any language, whose one
other separator is its decimal mark."""
_GROUPED = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")
_DOT_GROUPED = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")
_DOT_GROUPED_DECIMAL = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+,\d+")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?")
_UNIT_AFTER = re.compile(r"[ \t]?(%|[A-Za-z]+)")
_SIGNS = {
    "-": -1,
    "\u2212": -1,  # minus sign
    "\u2010": -1,  # hyphen
    "\u2011": -1,  # non-breaking hyphen
    "\u2013": -1,  # en dash, right before the digits
    "\uff0d": -1,  # full-width hyphen-minus
    "\ufe63": -1,  # small hyphen-minus
    "+": 1,
    "\uff0b": 1,
    "\ufe62": 1,
}
_UNSURE_SIGNS = "\u2012\u2014\u2015\ufe58\u207b\u208b\u02d7\u2796"
"""Dashes and minus-like marks right before digits that may or may not make them negative: refused."""
_CURRENCY_SIGNS = "$\u20ac\u00a3\u00a5"
_MAX_SCALE_WORDS = 4
_MAX_EXACT_DIGITS = 4_000
"""Longer numbers stay text (Python's int conversion stops at 4,300 digits); coercion then refuses them."""


@dataclass(frozen=True)
class Reading:
    """What the plain text gives for the target: candidates, or the error that explains why there is none
    (None when the text is not a plain answer at all, e.g. it holds JSON)."""

    candidates: tuple[Candidate, ...] = ()
    error: ParseError | None = None


@dataclass(frozen=True)
class _Target:
    kind: str  # "bool", "number", "str", "choice"
    view: TypeView
    nullable: bool = False


@dataclass(frozen=True)
class _Mention:
    value: Any  # what it means (numbers as Decimal, so 12,111 and 12111 are one value)
    raw: str
    start: int
    end: int
    exact: bool = False  # the JSON value's own spelling (no case change, no name)
    written: Any = None  # what the candidate writes: the JSON value, or a number's text for coercion ("12,111")
    signed: bool = False  # a number whose sign is written before it ("-5", "minus 5")
    number: bool = False  # digits (a number, or a choice's numeric member)
    sign_doubt: bool = False  # a minus word before it is part of a longer phrase: its sign is not known


class _Refused(Exception):
    """A mention that cannot honestly be read (an unclear separator, a sign the choices do not have)."""

    def __init__(self, error: ParseError) -> None:
        super().__init__(str(error))
        self.error = error


def _scalar_target(view: TypeView) -> _Target | None:
    nullable = False
    if isinstance(view, UnionView):
        if len(view.options) != 1:
            return None
        nullable, view = view.nullable, view.options[0]
    if isinstance(view, ChoiceView):
        return _Target("choice", view, nullable) if _choice_values(view) else None
    if isinstance(view, ScalarView) and view.py_type in _NUMERIC_TYPES and view.py_type is not bool:
        return _Target("number", view, nullable)
    if isinstance(view, ScalarView):
        if view.py_type is bool:
            return _Target("bool", view, nullable)
        if view.py_type is str:
            return _Target("str", view, nullable)
    return None


def _choice_values(view: ChoiceView) -> list[Any]:
    values = [v.value if isinstance(v, enum.Enum) else v for v in view.values]
    return [v for v in values if isinstance(v, str | int) and not isinstance(v, bool)]


def plain_target(view: TypeView) -> tuple[_Target, bool] | None:
    """The scalar/choice target a plain answer may be read for, and whether a list of it is wanted."""
    if isinstance(view, ListView):
        item = _scalar_target(view.item)
        return (item, True) if item is not None and not item.nullable else None
    found = _scalar_target(view)
    return (found, False) if found is not None else None


_LAST = threading.local()
"""The last reading that gave no candidate, per thread, for `explain` in the same parse: the explanation hook
gets the same text and context right after extraction, and reading twice would double the cost. Keyed by a weak
reference to the call's context (which holds the text), so it keeps neither alive."""


def read_plain(text: str, ctx: CallContext) -> Reading:
    """The plain reading of `text` for `ctx.schema` (see the module docstring)."""
    reading = _read(text, ctx)
    if not reading.candidates and text is ctx.text:
        _LAST.entry = (weakref.ref(ctx), reading)
    return reading


def explain(text: str, ctx: CallContext) -> ParseError | None:
    """Why a plain answer gave no candidate (ambiguous, hedged, negated, arithmetic, not allowed), or None."""
    entry = getattr(_LAST, "entry", None)
    _LAST.entry = None
    if entry is not None and entry[0]() is ctx and text is ctx.text:
        reading: Reading = entry[1]
    else:
        reading = _read(text, ctx)
    return None if reading.candidates else reading.error


def _read(text: str, ctx: CallContext) -> Reading:
    planned = plain_target(ctx.schema)
    if planned is None:
        return Reading()
    target, as_list = planned
    zone = _answer_zone(text)
    if zone is None:
        return Reading()
    start, end = zone
    if _holds_json(text, start, end):
        return Reading()
    prose = _Prose.read(text, start, end)
    refusal_at = prose.refusal_at
    try:
        if as_list:
            reading = _read_list(text, prose, start, end, target, ctx)
        elif target.kind == "str":
            reading = _read_str(text, prose, start, end, ctx)
        else:
            # every mention in the visible answer counts, a labelled line's too: "it mentions positive and negative
            # … Final answer: neutral" names three members, and picking the labelled one would be a judgement
            reading = _read_one(text, prose, start, end, target, ctx)
    except _Refused as refused:
        reading = Reading(error=refused.error)
    if (refusal_at >= 0 or prose.apology) and not reading.candidates:
        # a refusal outranks any verdict on the words around it
        message = "the model refused to answer"
        got = text[start:end][:120]
        detail = ErrorDetail(path="", kind="refusal", message="the output is a refusal, not an answer", got=got)
        return Reading(error=RefusalError(message, [detail]))
    return reading


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


# -- one value ---------------------------------------------------------------------------------------------------


def _read_one(text: str, prose: _Prose, start: int, end: int, target: _Target, ctx: CallContext) -> Reading:
    """One value from text[start:end]; lossless only when it is the whole visible answer, as written."""
    mentions, error = _mentions(text, prose, start, end, target, "")
    if error is not None:
        return Reading(error=error)
    if not mentions:
        return Reading()
    first = mentions[0]
    lone = first.exact and (first.start, first.end) == (start, end)
    kind = "plain_value" if lone else "plain_answer"
    return _offer(first.written, text, first.start, first.end, kind, ctx, prose.refusal_at)


def _mentions(
    text: str, prose: _Prose, start: int, end: int, target: _Target, path: str
) -> tuple[list[_Mention], ParseError | None]:
    """Every mention of a value of the target in text[start:end] that the text gives as the answer; an error when
    they say different things, or when the prose around them says the value is not simply the answer."""
    if target.kind == "number":
        found = _numbers(text, prose, start, end, target, path)
        error = _arithmetic(text, found, path)
        if error is not None:
            return [], error
    elif target.kind == "bool":
        found = _bools(text, start, end)
    else:
        assert isinstance(target.view, ChoiceView)
        found = _members(text, prose, start, end, target.view, path)
    if target.nullable:
        found = _merge(found, _nulls(text, start, end))
    if not found:
        return [], None
    cues = _free_cues(prose.cues_in(start, end), found)
    judged = _judge(prose, cues)
    if target.kind == "bool":
        judged.agree_with_no(prose, found)

    # a value an example, a counter-example, a rejection or the user's input names is never the answer
    kept: list[_Mention] = []
    dropped: list[tuple[_Mention, str]] = []
    for m in found:
        category = prose.scope_of(m.start) or judged.excluded_by(prose.sentence(m.start))
        if category is None:
            kept.append(m)
        else:
            dropped.append((m, category))
    if dropped:
        m, category = dropped[0]
        excluded = {_value_key(d.value) for d, _ in dropped}
        again = next((k for k in kept if _value_key(k.value) in excluded), None)
        if not kept or again is not None:
            what = category.replace("_", " ")
            message = f"{m.raw!r} is named by {what} ({_around(text, start, end, m)!r}), not given as the answer"
            return [], _ambiguous(message, path, _EXCLUDING[category], m)
        found = kept

    retraction = next((c for c in cues if c.category == "retraction" and c.start > found[0].start), None)
    if retraction is not None:
        taken = text[retraction.start : retraction.end]
        message = f"the answer takes itself back ({taken!r} after {found[0].raw!r}); refusing to guess"
        return [], _ambiguous(message, path, "retracted_plain_answer", found[0])

    verdict = _later_verdict(text, prose, start, end, cues, found, judged)
    if verdict is not None:
        message = f"the answer is judged after it ({verdict!r} after {found[0].raw!r}); refusing to guess"
        return [], _ambiguous(message, path, "negated_plain_answer", found[0])

    for m in found:
        if _negating_prefix(text, prose, m, start) or judged.negates(prose.sentence(m.start)):
            message = f"{m.raw!r} is negated ({_around(text, start, end, m)!r}); refusing to guess"
            return [], _ambiguous(message, path, "negated_plain_answer", m)

    hedge = next((c for c in cues if c.category == "hedge"), None)
    if hedge is not None:
        message = f"the answer is hedged ({text[hedge.start : hedge.end]!r})"
        return [], _ambiguous(message, path, "hedged_plain_answer", found[0])

    distinct: list[_Mention] = []
    for m in found:
        if not any(_same_value(m.value, d.value) for d in distinct):
            distinct.append(m)
            if len(distinct) > _LISTED:
                break  # enough to say it is ambiguous; comparing every value with every other would be quadratic
    if len(distinct) > 1:
        listed = ", ".join(repr(d.raw) for d in distinct[:_LISTED])
        count = f"{len(distinct)}" if len(distinct) <= _LISTED else f"more than {_LISTED}"
        message = f"{count} different values are mentioned ({listed}); the text does not say which"
        named = [d.raw for d in distinct[:_LISTED]]
        return [], _ambiguous(message, path, "ambiguous_plain_answer", distinct[0], named)

    for m in found:
        sentence = prose.sentence(m.start)
        asked = judged.questions.get(sentence, end)
        if asked < m.start or prose.asks(sentence, end):
            message = f"{m.raw!r} is asked, not answered ({_around(text, start, end, m)!r}); refusing to guess"
            return [], _ambiguous(message, path, "question_plain_answer", m)
    for m in found:
        categories = judged.categories(prose.sentence(m.start))
        if m.number and "operation" in categories:
            message = f"{_around(text, start, end, m)!r} computes with {m.raw!r}; refusing to compute it"
            return [], _ambiguous(message, path, "arithmetic_plain_answer", m)
        shade = _qualifier(text, start, end, m)
        if shade is None and "bound" in categories:
            shade = _around(text, start, end, m)
        if shade is not None:
            return [], _ambiguous(f"the answer is a bound or a shade ({shade!r})", path, "hedged_plain_answer", m)
        if m.sign_doubt:
            message = f"{_around(text, start, end, m)!r} may or may not make {m.raw!r} negative; refusing to guess"
            return [], _ambiguous(message, path, "ambiguous_number", m)
    return found, None


def _later_verdict(
    text: str, prose: _Prose, start: int, end: int, cues: Sequence[Cue], found: Sequence[_Mention], judged: _Judged
) -> str | None:
    """A sentence after the value, naming none, that judges what came before it wrong: a short one ("Wrong!",
    "不对。", "C'est faux.") or one that opens on what came before ("That is incorrect.", "これは間違いです。")."""
    named = {prose.sentence(m.start) for m in found}
    first = prose.sentence(found[0].start)
    seen: set[int] = set()
    for c in cues:
        if c.category != "rejected":
            continue
        sentence = prose.sentence(c.start)
        if sentence <= first or sentence in named or sentence in seen:
            continue
        seen.add(sentence)
        s_start = max(start, prose.breaks[sentence - 1] + 1)
        s_end = min(end, prose.breaks[sentence]) if sentence < len(prose.breaks) else end
        lead = s_start
        while lead < s_end and text[lead] in _LABEL_DECORATION:
            lead += 1
        said = text[lead:s_end].strip()
        if judged.references.get(sentence) == lead or (len(said) <= _SHORT_VERDICT and len(said.split()) <= 3):
            return said
    return None


def _around(text: str, start: int, end: int, m: _Mention, width: int = 24) -> str:
    return text[max(start, m.start - width) : min(end, m.end + width)].strip()


def _free_cues(cues: Sequence[Cue], mentions: Sequence[_Mention]) -> list[Cue]:
    """The cues that are not part of a mention (a member spelled "nearly", the bool "no", "None")."""
    starts = [m.start for m in mentions]
    free = []
    for c in cues:
        j = bisect.bisect_left(starts, c.end) - 1
        if j < 0 or mentions[j].end <= c.start:
            free.append(c)
    return free


@dataclass
class _Judged:
    """The judging cues of each sentence of a stretch, gathered in one pass over its cues."""

    by_sentence: dict[int, set[str]]
    quoting: dict[int, bool]  # sentences whose quoted-input cue introduces the user's words in a sentence
    negations: dict[int, list[int]]  # where each sentence's negations start
    agreeing: set[int]  # sentences whose negations agree with the bool they hold ("No, it isn't.")
    questions: dict[int, int]  # where each sentence's first question cue starts ("Is the answer …", "Should I …")
    references: dict[int, int]  # where each sentence's first cue about what came before starts ("That …", "これは")

    def categories(self, sentence: int) -> set[str]:
        return self.by_sentence.get(sentence, set())

    def excluded_by(self, sentence: int) -> str | None:
        found = self.by_sentence.get(sentence)
        if not found:
            return None
        for category in _EXCLUDING:
            if category in found and (category != "quoted_input" or self.quoting.get(sentence)):
                return category
        return None

    def negates(self, sentence: int) -> bool:
        return sentence in self.negations and sentence not in self.agreeing

    def agree_with_no(self, prose: _Prose, found: Sequence[_Mention]) -> None:
        """ "No, it isn't.": in a sentence whose bools are all no, a negation after the first one agrees with it."""
        first: dict[int, _Mention] = {}
        all_no: dict[int, bool] = {}
        for m in found:
            sentence = prose.sentence(m.start)
            first.setdefault(sentence, m)
            all_no[sentence] = all_no.get(sentence, True) and m.value is False
        for sentence, no in all_no.items():
            if no and sentence in self.negations and min(self.negations[sentence]) > first[sentence].start:
                self.agreeing.add(sentence)


def _judge(prose: _Prose, cues: Sequence[Cue]) -> _Judged:
    by_sentence: dict[int, set[str]] = {}
    quoting: dict[int, bool] = {}
    negations: dict[int, list[int]] = {}
    questions: dict[int, int] = {}
    references: dict[int, int] = {}
    text = prose.text
    # a word both a negation and a counter-example ("don't") negates: "No, I don't think so." agrees with its no
    negating = {(c.start, c.end) for c in cues if c.category == "negation"}
    for c in cues:
        if c.category not in _SENTENCE_JUDGES:
            continue
        if c.category in _EXCLUDING and (c.start, c.end) in negating:
            continue
        sentence = prose.sentence(c.start)
        by_sentence.setdefault(sentence, set()).add(c.category)
        if c.category == "negation":
            negations.setdefault(sentence, []).append(c.start)
        elif c.category == "question":
            questions.setdefault(sentence, c.start)
        elif c.category == "reference":
            references.setdefault(sentence, c.start)
        elif c.category == "quoted_input":
            # a one-word cue ("input", "prompt") quotes only as a label; "the user said" quotes in a sentence too
            phrase = text[c.start : c.end]
            if any(ch.isspace() for ch in phrase) or _UNSPACED.match(phrase):
                quoting[sentence] = True
    return _Judged(by_sentence, quoting, negations, set(), questions, references)


def _value_key(value: Any) -> tuple[Any, Any]:
    """A key equal for two values exactly when `_same_value` says they are the same."""
    return ("number", value) if isinstance(value, Decimal) else (type(value), value)


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, Decimal) and isinstance(b, Decimal):
        return a == b
    return type(a) is type(b) and a == b


def _bools(text: str, start: int, end: int) -> list[_Mention]:
    found: list[_Mention] = []
    for m in _WORD.finditer(text, start, end):
        word = m.group()
        value = _BOOL_LITERALS.get(word.lower())
        if value is not None:
            found.append(_Mention(value, word, m.start(), m.end(), word in _LOSSLESS_BOOLS, value))
    seen: set[int] = set()
    for cue in lexicon().find(text, start, end):
        if cue.category in _YES_NO and cue.start not in seen:
            seen.add(cue.start)
            value = cue.category == "yes"
            found.append(_Mention(value, text[cue.start : cue.end], cue.start, cue.end, False, value))
    return sorted(found, key=lambda mention: mention.start)


def _nulls(text: str, start: int, end: int) -> list[_Mention]:
    """ "None", "null", "N/A" for an Optional target: the answer that there is no value (a value beside it is a
    second answer)."""
    return [_Mention(None, m.group(), m.start(), m.end(), False, None) for m in _NULL_WORD.finditer(text, start, end)]


def _merge(found: list[_Mention], more: list[_Mention]) -> list[_Mention]:
    """`found` and the mentions of `more` that overlap none of them, in text order (both are in text order)."""
    if not more:
        return found
    merged: list[_Mention] = []
    i = 0
    for m in more:
        while i < len(found) and found[i].start < m.start:
            merged.append(found[i])
            i += 1
        if (merged and merged[-1].end > m.start) or (i < len(found) and found[i].start < m.end):
            continue
        merged.append(m)
    merged.extend(found[i:])
    return merged


# -- numbers -----------------------------------------------------------------------------------------------------


def _glued(ch: str) -> bool:
    """Whether a character joins a number to a word ("v2", "4km"): a letter, digit or underscore of a spaced
    script (a number may touch Chinese, Japanese or Korean letters: "答案是42个")."""
    return (ch.isalnum() or ch == "_") and _UNSPACED.match(ch) is None


@dataclass(frozen=True)
class _NumberWords:
    """The lexicon's MINUS and SCALES words, as two bounded patterns."""

    scale: re.Pattern[str] | None  # a scale word at a position ("million", "dozen", "万")
    factors: dict[str, int]
    minus: re.Pattern[str] | None  # a minus word right before a position ("minus ", "menos ", "负")

    def scale_at(self, text: str, pos: int, end: int) -> tuple[int, int] | None:
        """Where the scale word at `pos` ends and its factor, if one starts there."""
        m = self.scale.match(text, pos, end) if self.scale is not None else None
        if m is None:
            return None
        factor = self.factors.get(" ".join(m.group().lower().split()))
        return (m.end(), factor) if factor else None

    def minus_before(self, text: str, pos: int, start: int) -> int | None:
        """Where the minus word that ends right before `pos` (spaces between allowed) starts, if there is one."""
        m = self.minus.search(text, max(start, pos - 40), pos) if self.minus is not None else None
        return m.start() if m is not None else None


def _alternatives(words: set[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=lambda w: (-len(w), w)))


@functools.cache
def _number_words() -> _NumberWords:
    factors: dict[str, int] = {}
    spaced_scales: set[str] = set()
    unspaced_scales: set[str] = set()
    spaced_minus: set[str] = set()
    unspaced_minus: set[str] = set()
    for table in lexicon().tables:
        for word, factor in table.scales.items():
            for key in expand(word):
                factors[key] = factor
                (spaced_scales if table.spaced else unspaced_scales).add(key)
        for word in table.minus:
            (spaced_minus if table.spaced else unspaced_minus).add(" ".join(word.lower().split()))
    scale_parts = []
    if spaced_scales:
        scale_parts.append(f"(?:{_alternatives(spaced_scales)})(?![^\\W_])")
    if unspaced_scales:
        scale_parts.append(f"(?:{_alternatives(unspaced_scales)})")
    minus_parts = []
    if spaced_minus:
        minus_parts.append(f"(?<![^\\W_])(?:{_alternatives(spaced_minus)})[ \\t\\u00a0]+")
    if unspaced_minus:
        minus_parts.append(f"(?:{_alternatives(unspaced_minus)})[ \\t\\u00a0]*")
    scale = re.compile("|".join(scale_parts), re.IGNORECASE) if scale_parts else None
    minus = re.compile("(?:" + "|".join(minus_parts) + r")\Z", re.IGNORECASE) if minus_parts else None
    return _NumberWords(scale, factors, minus)


def _numbers(text: str, prose: _Prose, start: int, end: int, target: _Target, path: str) -> list[_Mention]:
    """The numbers in text[start:end], each read whole — sign, digits, scale words, unit — or refused
    (`_Refused`) when its separators or its sign give no one reading. A plain number, or digits in English
    thousands groups, goes to coercion as written (`number_from_string` reads or refuses it for the field);
    what needed the text's language, a sign other than '-', a minus word or a scale is written as its value."""
    words = _number_words()
    py_type = target.view.py_type if isinstance(target.view, ScalarView) else float
    found: list[_Mention] = []
    for m in _DIGIT_RUN.finditer(text, start, end):
        s, e = m.span()
        if s > start and _glued(text[s - 1]):
            continue  # "v2", "A1"
        digits = m.group()
        pos, factor = e, 1
        for _ in range(_MAX_SCALE_WORDS):
            at = pos
            while at < end and at - pos < 3 and text[at] in " \t\u00a0":
                at += 1
            scaled = words.scale_at(text, at, end)
            if scaled is None:
                break
            pos, factor = scaled[0], factor * scaled[1]
        if pos == e and e < end and _glued(text[e]):
            continue  # "4km", "3rd": a word, not a number
        first, sign_char, currency, doubt = s, "", "", False
        if first > start and text[first - 1] in _SIGNS and _free_before(text, first - 1, start):
            first, sign_char = first - 1, text[first - 1]
        if first > start and text[first - 1] in _CURRENCY_SIGNS:
            first, currency = first - 1, text[first - 1]
            if not sign_char and first > start and text[first - 1] in _SIGNS and _free_before(text, first - 1, start):
                first, sign_char = first - 1, text[first - 1]
        if (
            not sign_char
            and first > start
            and text[first - 1] in _UNSURE_SIGNS
            and _free_before(text, first - 1, start)
        ):
            raw = text[first - 1 : pos]
            message = f"{raw!r} starts with a dash that may or may not be a minus; refusing to guess its sign"
            raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, first - 1, pos)))
        minus_word = words.minus_before(text, first, start)
        raw_end = pos
        unit = _UNIT_AFTER.match(text, pos, end)
        if unit is not None and (unit.group(1) == "%" or unit.group(1).lower() in UNIT_WORDS):
            raw_end = unit.end()
        if minus_word is not None and prose.covers(minus_word, first):
            minus_word, doubt = None, True  # "al menos 42", "au moins 42": part of a phrase, not a sign
        if minus_word is not None:
            if sign_char:
                raw = text[minus_word:raw_end]
                message = f"{raw!r} has two signs; refusing to guess which it means"
                raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, minus_word, raw_end)))
            first = minus_word
        raw = text[first:raw_end]
        value, how = _read_digits(digits, prose.decimal_mark)
        if value is None:
            message = f"{raw!r} {how}; refusing to guess"
            raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, first, raw_end)))
        negative = _SIGNS.get(sign_char, 1) < 0 or minus_word is not None
        if negative:
            value = value.copy_negate()
        if factor != 1:
            with localcontext() as exact:
                exact.prec = len(digits) + 40
                value = value * factor
        simple = how != "normalised" and factor == 1 and minus_word is None and sign_char in ("", "-", "+")
        simple = simple and not (sign_char and currency)  # "-$5": coercion reads the sign after the symbol
        if simple or len(digits) > _MAX_EXACT_DIGITS:
            exact_json = _JSON_NUMBER.fullmatch(raw) is not None and len(digits) <= _MAX_EXACT_DIGITS
            written: Any = (int(raw) if "." not in raw else float(raw)) if exact_json else raw
        else:
            exact_json = False
            if raw_end > pos or currency:  # a unit, a percent sign or a currency: coercion reads it for the field
                written = f"{currency}{format(value, 'f')}{text[pos:raw_end]}"
            else:
                written = _json_number(value, py_type, raw, first, raw_end, path)
        mention = _Mention(value, raw, first, raw_end, exact_json, written, bool(sign_char or minus_word), True, doubt)
        found.append(mention)
    return found


def _free_before(text: str, at: int, start: int) -> bool:
    """Whether the sign at `at` stands free, not between two parts of a word or a date ("2024-01", "A-1")."""
    return at == start or not _glued(text[at - 1])


def _read_digits(digits: str, mark: str | None) -> tuple[Decimal | None, str]:
    """The number a run of digits and separators writes, with "." or "," as its decimal mark (None: not known),
    and how it was read: "plain" (as JSON writes it), "grouped" (English thousands groups), "normalised" (needed
    the language); or None and why it cannot be read."""
    try:
        return _digits_value(digits, mark)
    except InvalidOperation:
        return None, "is not a number Python reads"


def _digits_value(digits: str, mark: str | None) -> tuple[Decimal | None, str]:
    if any(space in digits for space in "\u00a0\u202f\u2009"):
        if _SPACE_GROUPS.fullmatch(digits) is None:
            return None, "groups its digits in no way a language writes"
        return Decimal(re.sub("[\u00a0\u202f\u2009]", "", digits).replace(",", ".")), "normalised"
    dots, commas = digits.count("."), digits.count(",")
    if not dots and not commas:
        return Decimal(digits), "plain"
    if mark == ",":
        if commas and dots:
            if _DOT_GROUPED_DECIMAL.fullmatch(digits) is None:
                return None, "mixes separators in no way its language writes"
            return Decimal(digits.replace(".", "").replace(",", ".")), "normalised"
        if commas:
            if commas > 1:
                return None, "could be a list or a grouping"
            if _GROUPED.fullmatch(digits) is not None:
                return None, "could be a decimal comma or a thousands comma as English writes it"
            return Decimal(digits.replace(",", ".")), "normalised"
        if _DOT_GROUPED.fullmatch(digits) is not None:
            return Decimal(digits.replace(".", "")), "normalised"
        if dots > 1:
            return None, "could be a version, a list or a grouping"
        return Decimal(digits), "plain"
    if commas:
        if _GROUPED.fullmatch(digits) is None:
            return None, "could be a decimal comma, a list or a grouping"
        return Decimal(digits.replace(",", "")), "grouped"
    if dots > 1:
        return None, "could be a version, a list or a grouping"
    if mark is None and _DOT_GROUPED.fullmatch(digits) is not None:
        return None, "could be a thousands separator or a decimal point, and the text's language does not say"
    return Decimal(digits), "plain"


def _json_number(value: Decimal, py_type: type, raw: str, start: int, end: int, path: str) -> Any:
    """The JSON value a number read exactly becomes for the target: refused for an int when it is not whole."""
    whole = value == value.to_integral_value()
    if py_type is int and not whole:
        message = f"{raw!r} is {format(value, 'f')}, not a whole number; refusing to round it"
        raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, start, end)))
    if whole:
        return int(value)
    return format(value, "f") if py_type is Decimal else float(value)


def _arithmetic(text: str, found: list[_Mention], path: str) -> ParseError | None:
    """'1/5', '3 * 4', '10 - 2 = 8', '10 minus 2': an expression is not its value."""
    for left, right in itertools.pairwise(found):
        raw_gap = text[left.end : right.start]
        gap = raw_gap.strip()
        if gap in _OPERATOR or raw_gap in _SPACED_OPERATOR or (not gap and right.signed):
            expression = text[left.start : right.end]
            message = f"{expression!r} is an expression, not a number; refusing to compute it"
            return _ambiguous(message, path, "arithmetic_plain_answer", left, [left.raw, right.raw])
    return None


def _qualifier(text: str, start: int, end: int, m: _Mention) -> str | None:
    """What makes a mention a bound or a shade rather than the value, written as symbols: a comparator around a
    number ("<42", ">= 42", "42+", "~42", "3.14..."), or a word glued to a word mention ("positive-ish",
    "semi-positive"). Bounds in words are the lexicon's (`bound`)."""
    if m.raw[:1].isalpha() or m.raw[-1:].isalpha():
        if m.start - 1 > start and text[m.start - 1] == "-" and text[m.start - 2].isalnum():
            return text[max(start, m.start - 12) : m.end]
        if m.end + 1 < end and text[m.end] == "-" and text[m.end + 1].isalnum():
            return text[m.start : min(end, m.end + 12)]
        return None
    before = m.start
    while before > start and text[before - 1] in " \t":
        before -= 1
    if before > start and text[before - 1] == "=":
        before -= 1
    if before > start and text[before - 1] in _COMPARATOR_SIGNS:
        return text[before - 1 : m.end]
    if m.end < end and text[m.end] in "+\uff0b":
        return text[m.start : m.end + 1]
    if text.startswith("...", m.end, end) or text.startswith("\u2026", m.end, end):
        return text[m.start : min(end, m.end + 3)]
    return None


# -- choices -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Spellings:
    by_key: dict[str, tuple[Any, ...]]  # joined, case-folded words -> the JSON values it names
    exact: dict[str, Any]  # the values' own spellings
    longest: int
    prefixes: frozenset[str]  # the joined words a spelling starts with, so a run stops at the first word that fits none
    numeric: bool  # some member is spelled with digits only ("4", "-1"): a number's sign and scale matter


_SPELLINGS: weakref.WeakKeyDictionary[ChoiceView, _Spellings] = weakref.WeakKeyDictionary()
"""One table per schema view, dropped with the view (views are schema-side: model text is never a key)."""


def _spellings(view: ChoiceView) -> _Spellings:
    found = _SPELLINGS.get(view)
    if found is None:
        found = _SPELLINGS[view] = _build_spellings(view)
    return found


def _build_spellings(view: ChoiceView) -> _Spellings:
    by_key: dict[str, list[Any]] = {}
    exact: dict[str, Any] = {}
    longest = 1

    def own(key: str, value: Any) -> None:
        owners = by_key.setdefault(key, [])
        if not any(_same_value(value, o) for o in owners):
            owners.append(value)

    def add(spelling: str, value: Any) -> None:
        nonlocal longest
        words = _WORD.findall(spelling)
        if not words:
            return
        longest = max(longest, len(words))
        own("".join(words).casefold(), value)

    for value in _choice_values(view):
        if isinstance(value, int):
            own(str(value), value)  # "-1" and "1" are two members
        else:
            add(value, value)
        exact[str(value)] = value
    if view.enum_cls is not None:
        for name, member in view.enum_cls.__members__.items():  # names and aliases
            if isinstance(member.value, str | int) and not isinstance(member.value, bool):
                add(name, member.value)
    prefixes = frozenset(key[:n] for key in by_key for n in range(1, len(key) + 1))
    numeric = any(key.lstrip("-").isdigit() for key in by_key)
    return _Spellings(
        {k: tuple(v) for k, v in by_key.items()}, exact, min(longest, _MAX_MEMBER_WORDS), prefixes, numeric
    )


def _members(text: str, prose: _Prose, start: int, end: int, view: ChoiceView, path: str) -> list[_Mention]:
    """Mentions of the choice's values, names or aliases: the longest run of at most `longest` words whose joined,
    case-folded spelling names a member, at each word (in another case or style: `In Progress`, `IN_PROGRESS`).
    A number keeps its sign ("-1" is not 1) and refuses a scale after it ("4 thousand" is not 4)."""
    spellings = _spellings(view)
    numbers = _number_words()
    words = list(_WORD.finditer(text, start, end))
    folded = [w.group().casefold() for w in words]
    found: list[_Mention] = []
    i = 0
    while i < len(words):
        if spellings.numeric and folded[i].isdigit():
            mention = _numeric_member(text, prose, start, end, words[i], spellings, numbers, path)
            if mention is not None:
                found.append(mention)
                i += 1
                continue
        hit: tuple[int, tuple[Any, ...]] | None = None
        key = ""
        for j in range(i, min(len(words), i + spellings.longest)):
            key += folded[j]
            if key not in spellings.prefixes:
                break
            owners = spellings.by_key.get(key)
            if owners is not None:
                hit = (j, owners)
        if hit is None:
            i += 1
            continue
        j, owners = hit
        m_start, m_end = words[i].start(), words[j].end()
        raw = text[m_start:m_end]
        if len(owners) > 1:
            found.extend(_Mention(o, raw, m_start, m_end, False, o) for o in owners)
        else:
            found.append(_Mention(owners[0], raw, m_start, m_end, raw in spellings.exact, owners[0]))
        i = j + 1
    return found


def _numeric_member(
    text: str,
    prose: _Prose,
    start: int,
    end: int,
    word: re.Match[str],
    spellings: _Spellings,
    numbers: _NumberWords,
    path: str,
) -> _Mention | None:
    """A number written for a choice: its member with the sign it is written with, or refused (`_Refused`) when
    the choices have no such member or a scale word multiplies it."""
    w_start, w_end = word.span()
    first = w_start
    if first > start and text[first - 1] in _UNSURE_SIGNS and _free_before(text, first - 1, start):
        raw = text[first - 1 : w_end]
        message = f"{raw!r} starts with a dash that may or may not be a minus; refusing to guess its sign"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, first - 1, w_end)))
    if first > start and text[first - 1] in _SIGNS and _free_before(text, first - 1, start):
        first -= 1
    minus_word = numbers.minus_before(text, first, start)
    negative = _SIGNS.get(text[first], 1) < 0 if first < w_start else False
    if minus_word is not None and prose.covers(minus_word, first):
        raw = text[minus_word:w_end]
        message = f"{raw!r} may or may not be negative; refusing to guess its sign"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, minus_word, w_end)))
    if minus_word is not None:
        first, negative = minus_word, True
    at = w_end
    while at < end and at - w_end < 3 and text[at] in " \t\u00a0":
        at += 1
    scaled = numbers.scale_at(text, at, end)
    raw = text[first : scaled[0] if scaled is not None else w_end]
    if scaled is not None:
        message = f"{raw!r} is not one of the choices' numbers; refusing to drop its scale"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, first, scaled[0])))
    if not negative:
        return None  # the digits as written: the word reading finds them
    owners = spellings.by_key.get("-" + word.group())
    if owners is None:
        message = f"{raw!r} is negative and no choice is; refusing to drop its sign"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, first, w_end)))
    return _Mention(owners[0], raw, first, w_end, raw in spellings.exact, owners[0], True, True)


def _negating_prefix(text: str, prose: _Prose, m: _Mention, floor: int) -> bool:
    """Whether a word mention is glued to a negating prefix ("non-negative", "un-true"): the opposite meaning."""
    hyphen = m.start - 1
    if hyphen <= floor or text[hyphen] != "-" or not m.raw[:1].isalpha():
        return False
    i = hyphen
    while i > floor and hyphen - i < 5 and text[i - 1].isalpha():
        i -= 1
    if i > floor and text[i - 1].isalnum():
        return False  # a longer word
    if text[i:hyphen].lower() in _NEGATING_PREFIXES:
        return True
    return any(c.start == i and c.end == hyphen and c.category == "negation" for c in prose.cues_in(i, hyphen))


# -- a string --------------------------------------------------------------------------------------------------


def _leading_label(prose: _Prose, start: int) -> _Label | None:
    """The label the answer starts with ("Answer:", "**Tags:**", "Examples:"), if any."""
    first = start
    while first - start < 8 and first < len(prose.text) and prose.text[first] in _LABEL_DECORATION:
        first += 1
    return next((lb for lb in prose.labels if lb.start in (start, first)), None)


def _read_str(text: str, prose: _Prose, start: int, end: int, ctx: CallContext) -> Reading:
    """The answer text, without a leading label that designates it ("Answer: …"): a string target takes the text
    as written. A label in it that names an example, a rejected option or the user's input ("Example: …") makes
    which part is the string a guess; a retraction takes it back."""
    label = _leading_label(prose, start)
    if label is not None and label.designating:
        start, end = _strip(text, label.content_start, end)
    if start >= end:
        return Reading()
    for lb in prose.labels:
        category = lb.excluding
        if lb.start >= start and category is not None:
            shown = text[lb.start : lb.content_end].strip()
            message = f"the answer holds {category.replace('_', ' ')} ({shown[:60]!r}): which part is the string is a "
            message += "guess; refusing"
            kind = "example_in_plain_answer" if category == "example" else _EXCLUDING[category]
            detail = ErrorDetail(path="", kind=kind, message=message, offset=lb.start)
            return Reading(error=AmbiguousMatchError(message, [detail]))
    taken = next((c for c in prose.cues_in(start, end) if c.category == "retraction"), None)
    if taken is not None:
        message = f"the answer takes itself back ({text[taken.start : taken.end]!r}); refusing to guess"
        detail = ErrorDetail(path="", kind="retracted_plain_answer", message=message, offset=taken.start)
        return Reading(error=AmbiguousMatchError(message, [detail]))
    return _offer(text[start:end], text, start, end, "plain_text", ctx, prose.refusal_at)


# -- a list ------------------------------------------------------------------------------------------------------

_BULLET = re.compile(r"^[ \t]{0,8}(?:[-*\u2022+]|\d{1,3}[.)])[ \t]+(\S[^\n]*)$", re.MULTILINE)
_BULLETS_END = re.compile(r"[ \t\r]*\n[ \t\r]*\n")
# list grammar, English only for now (the lexicon has no category for conjunctions): "a, b and c", "1, 2, or 3"
_LIST_SPLIT = re.compile(r"[,;\uff0c\uff1b\u3001]|(?<![ \t])[ \t]+(?:and|&)[ \t]+", re.IGNORECASE)
_CHOICE_WORD = "or"
_MAX_ITEM_WORDS = 3
_PROSE_KIND = {
    "negation": "negated_plain_answer",
    "hedge": "hedged_plain_answer",
    "question": "question_plain_answer",
    "retraction": "retracted_plain_answer",
    **_EXCLUDING,
}


def _read_list(text: str, prose: _Prose, start: int, end: int, target: _Target, ctx: CallContext) -> Reading:
    """A bullet list (an intro line before it allowed) or one comma-separated line, each item read alone. The
    prose around the items — a label, an intro, a sign-off — may hand the list over, never judge it."""
    bullets = _bullets(text, start, end)
    zone_start, zone_end = start, end
    items = bullets[0] if bullets is not None else None
    labelled = items is not None
    if bullets is not None:
        outside = bullets[1]
        if target.kind != "str":
            for p_start, p_end in outside:
                mentioned, error = _mentions(text, prose, p_start, p_end, target, "")
                if mentioned or error is not None:
                    return Reading()  # the prose around the list names values too: which are the answer?
    else:
        label = _last_designation(text, prose, start) or _leading_label(prose, start)
        if label is not None:
            start, end = _strip(text, label.content_start, label.content_end)
            labelled = True
        if start >= end or "\n" in text[start:end]:
            return Reading()
        outside = [(zone_start, start), (end, zone_end)]
        items = _split_line(text, start, end)
    if not items:
        return Reading()
    judged = _judge_prose(text, prose, outside)
    if judged is not None:
        return Reading(error=judged)
    choice = _choice_item(text, items)
    if choice is not None:
        message = f"the list offers a choice ({text[choice[0] : choice[1]].strip()!r}), not items; refusing to pick"
        detail = ErrorDetail(path="", kind="ambiguous_plain_answer", message=message, offset=choice[0])
        return Reading(error=AmbiguousMatchError(message, [detail]))
    values: list[Any] = []
    for index, (i_start, i_end) in enumerate(items):
        i_start, i_end = _undecorate(text, i_start, i_end)
        if i_start >= i_end:
            return Reading()
        if target.kind == "str":
            words = len(text[i_start:i_end].split())
            if words > _MAX_ITEM_WORDS or (words > 1 and not labelled):
                return Reading()  # "I like it, but not much" is a sentence; "Tags: machine learning, rust" a list
            judged = _judge_prose(text, prose, [(i_start, i_end)], frozenset({"retraction", *_EXCLUDING}))
            if judged is not None:
                return Reading(error=judged)
            values.append(text[i_start:i_end])
            continue
        mentions, error = _mentions(text, prose, i_start, i_end, target, f"/{index}")
        if error is not None:
            return Reading(error=error)
        if not mentions:
            return Reading()
        values.append(mentions[0].written)
    asked = next((b for b in prose.breaks if zone_start <= b < zone_end and text[b] in "?\uff1f"), None)
    if asked is not None:
        message = f"the list is asked, not given ({text[max(zone_start, asked - 40) : asked + 1]!r}); refusing"
        detail = ErrorDetail(path="", kind="question_plain_answer", message=message, offset=asked)
        return Reading(error=AmbiguousMatchError(message, [detail]))
    return _offer(values, text, start, end, "plain_list", ctx, prose.refusal_at)


def _judge_prose(
    text: str, prose: _Prose, stretches: list[tuple[int, int]], refusing: frozenset[str] = _LIST_PROSE_REFUSES
) -> ParseError | None:
    """The error for the first cue in `stretches` that judges the list (an example label, a negation, a hedge,
    a question, a retraction), or None."""
    for s_start, s_end in stretches:
        for c in prose.cues_in(s_start, s_end):
            if c.category in refusing:
                said = text[c.start : c.end]
                message = f"the list is introduced or judged by {c.category.replace('_', ' ')} ({said!r}); refusing"
                detail = ErrorDetail(path="", kind=_PROSE_KIND[c.category], message=message, got=said, offset=c.start)
                return AmbiguousMatchError(message, [detail])
    return None


def _last_designation(text: str, prose: _Prose, start: int) -> _Label | None:
    """The last label that designates the answer at the start of its line ("Answer: a, b")."""
    for lb in reversed(prose.labels):
        if lb.designating and (lb.start == start or _line_start(text, lb.start)):
            return lb
    return None


def _line_start(text: str, pos: int) -> bool:
    """Whether only decoration stands between the line's start and `pos` (at most a few characters)."""
    i = pos
    while i > 0 and pos - i < 8 and text[i - 1] in _LABEL_DECORATION and text[i - 1] != "\n":
        i -= 1
    return i == 0 or text[i - 1] == "\n"


def _choice_item(text: str, items: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The item that says "or" ("1, 2, or 3"; "- billing or sales"), which makes the list a choice, if any."""
    for i_start, i_end in items:
        if _CHOICE_WORD in text[i_start:i_end].lower().split():
            return i_start, i_end
    return None


def _bullets(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """The items of a bullet list, when the answer is one block of them — lines before it may introduce it and
    a paragraph after a blank line may sign off — and the stretches of prose around it."""
    found = list(_BULLET.finditer(text, start, end))
    if not found:
        return None
    if any(text[a.end() : b.start()].strip() for a, b in itertools.pairwise(found)):
        return None  # prose between the bullets
    tail = text[found[-1].end() : end]
    if tail.strip() and _BULLETS_END.match(tail) is None:
        return None  # prose right after the last bullet, no paragraph break
    prose = [(start, found[0].start()), (found[-1].end(), end)]
    return [(m.start(1), m.end(1)) for m in found], prose


def _split_line(text: str, start: int, end: int) -> list[tuple[int, int]]:
    items: list[tuple[int, int]] = []
    pos = start
    for m in _LIST_SPLIT.finditer(text, start, end):
        items.append((pos, m.start()))
        pos = m.end()
    items.append((pos, end))
    return items


def _undecorate(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _DECORATION:
        start += 1
    while end > start and text[end - 1] in _DECORATION:
        end -= 1
    return start, end


# -- candidates and errors -----------------------------------------------------------------------------------------


def _offer(value: Any, text: str, start: int, end: int, kind: str, ctx: CallContext, refusal_at: int) -> Reading:
    """One candidate writing `value` as JSON, or the error saying the policy does not allow this reading."""
    before = text[start:end]
    repair = Repair.make(kind, "", before, value, offset=start)
    if not ctx.policy.allows(kind, repair.lossless):
        if refusal_at >= 0:
            return Reading()  # refused by the model before the policy had a say: the refusal explains it
        message = f"reading the plain-text answer {before[:60]!r} is a lossy repair ({kind}) the policy refuses"
        return Reading(
            error=UnrecoverableSyntaxError(
                message, [ErrorDetail(path="", kind="repair_not_allowed", message=message, offset=start)]
            )
        )
    body = json.dumps(value, ensure_ascii=False)
    return Reading((Candidate(body, start, end, SOURCE, 0, 1 << 20, (repair,), refusal_at=refusal_at),))


def _ambiguous(message: str, path: str, kind: str, at: _Mention, named: list[str] | None = None) -> ParseError:
    got = named if named is not None else at.raw
    return AmbiguousMatchError(message, [ErrorDetail(path=path, kind=kind, message=message, got=got, offset=at.start)])
