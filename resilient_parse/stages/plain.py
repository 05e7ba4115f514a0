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

This module reads an answer and a string; the rest lives next to it, one concept each: `plain_reading` (the target,
mentions, the candidate or error), `plain_prose` (the answer zone, sentences, labels, cues), `plain_mentions` (one
value: gathering and judging mentions), `plain_numbers`, `plain_choices` and `plain_lists`.
"""

from __future__ import annotations

import threading
import weakref

from resilient_parse.context import CallContext
from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, ParseError, RefusalError
from resilient_parse.stages.plain_lists import _read_list
from resilient_parse.stages.plain_mentions import _read_one
from resilient_parse.stages.plain_numbers import _number_words as _number_words  # re-exported: the tests read it
from resilient_parse.stages.plain_prose import _EXCLUDING, _answer_zone, _holds_json, _leading_label, _Prose, _strip
from resilient_parse.stages.plain_reading import Reading, _offer, _Refused, plain_target

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
