"""The values a plain answer mentions: every mention gathered, then judged by the prose around it."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from resilient_parse.context import CallContext
from resilient_parse.errors import ParseError
from resilient_parse.schema import ChoiceView
from resilient_parse.stages.plain_choices import _members, _negating_prefix
from resilient_parse.stages.plain_numbers import _arithmetic, _numbers, _qualifier
from resilient_parse.stages.plain_prose import _EXCLUDING, _LABEL_DECORATION, _SENTENCE_JUDGES, _UNSPACED, _WORD, _Prose
from resilient_parse.stages.plain_reading import Reading, _ambiguous, _Mention, _offer, _same_value, _Target, _value_key
from resilient_parse.text.lexicon import Cue, lexicon

_LISTED = 6

# JSON's and Python's own names; the words for yes and no in each language are the lexicon's
_BOOL_LITERALS = {"true": True, "false": False}
_YES_NO = frozenset({"yes", "no"})
_LOSSLESS_BOOLS = frozenset({"true", "false", "True", "False"})
_SHORT_VERDICT = 24
"""The longest sentence after a value that judges it without saying what it judges ("Wrong!", "不对。")."""


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
    found, error = _all_mentions(text, prose, start, end, target, path)
    if error is not None or not found:
        return [], error
    cues = _free_cues(prose.cues_in(start, end), found)
    judged = _judge(prose, cues)
    if target.kind == "bool":
        judged.agree_with_no(prose, found)
    found, error = _without_excluded(text, prose, start, end, found, judged, path)
    if error is None:
        error = _judged_against(text, prose, start, end, cues, found, judged, path)
    if error is None:
        error = _several_values(found, path)
    if error is None:
        error = _not_plainly_given(text, prose, start, end, found, judged, path)
    return ([], error) if error is not None else (found, None)


def _all_mentions(
    text: str, prose: _Prose, start: int, end: int, target: _Target, path: str
) -> tuple[list[_Mention], ParseError | None]:
    """Every mention of a value of the target's kind in text[start:end], before any is judged (an error when
    numbers are computed with); a null word counts for a target that takes None."""
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
    return found, None


def _without_excluded(
    text: str, prose: _Prose, start: int, end: int, found: list[_Mention], judged: _Judged, path: str
) -> tuple[list[_Mention], ParseError | None]:
    """The mentions left once those an example, a counter-example, a rejection or the user's input names are
    dropped (such a value is never the answer); an error when none is left or a dropped value is named again."""
    kept: list[_Mention] = []
    dropped: list[tuple[_Mention, str]] = []
    for m in found:
        category = prose.scope_of(m.start) or judged.excluded_by(prose.sentence(m.start))
        if category is None:
            kept.append(m)
        else:
            dropped.append((m, category))
    if not dropped:
        return found, None
    m, category = dropped[0]
    excluded = {_value_key(d.value) for d, _ in dropped}
    again = next((k for k in kept if _value_key(k.value) in excluded), None)
    if not kept or again is not None:
        what = category.replace("_", " ")
        message = f"{m.raw!r} is named by {what} ({_around(text, start, end, m)!r}), not given as the answer"
        return [], _ambiguous(message, path, _EXCLUDING[category], m)
    return kept, None


def _judged_against(
    text: str,
    prose: _Prose,
    start: int,
    end: int,
    cues: Sequence[Cue],
    found: list[_Mention],
    judged: _Judged,
    path: str,
) -> ParseError | None:
    """Why the prose takes the answer back, judges it wrong afterwards, negates it or hedges it, or None."""
    retraction = next((c for c in cues if c.category == "retraction" and c.start > found[0].start), None)
    if retraction is not None:
        taken = text[retraction.start : retraction.end]
        message = f"the answer takes itself back ({taken!r} after {found[0].raw!r}); refusing to guess"
        return _ambiguous(message, path, "retracted_plain_answer", found[0])
    verdict = _later_verdict(text, prose, start, end, cues, found, judged)
    if verdict is not None:
        message = f"the answer is judged after it ({verdict!r} after {found[0].raw!r}); refusing to guess"
        return _ambiguous(message, path, "negated_plain_answer", found[0])
    for m in found:
        if _negating_prefix(text, prose, m, start) or judged.negates(prose.sentence(m.start)):
            message = f"{m.raw!r} is negated ({_around(text, start, end, m)!r}); refusing to guess"
            return _ambiguous(message, path, "negated_plain_answer", m)
    hedge = next((c for c in cues if c.category == "hedge"), None)
    if hedge is not None:
        message = f"the answer is hedged ({text[hedge.start : hedge.end]!r})"
        return _ambiguous(message, path, "hedged_plain_answer", found[0])
    return None


def _several_values(found: list[_Mention], path: str) -> ParseError | None:
    """An error when the mentions name more than one value (the text does not say which), else None."""
    distinct: list[_Mention] = []
    for m in found:
        if not any(_same_value(m.value, d.value) for d in distinct):
            distinct.append(m)
            if len(distinct) > _LISTED:
                break  # enough to say it is ambiguous; comparing every value with every other would be quadratic
    if len(distinct) <= 1:
        return None
    listed = ", ".join(repr(d.raw) for d in distinct[:_LISTED])
    count = f"{len(distinct)}" if len(distinct) <= _LISTED else f"more than {_LISTED}"
    message = f"{count} different values are mentioned ({listed}); the text does not say which"
    named = [d.raw for d in distinct[:_LISTED]]
    return _ambiguous(message, path, "ambiguous_plain_answer", distinct[0], named)


def _not_plainly_given(
    text: str, prose: _Prose, start: int, end: int, found: list[_Mention], judged: _Judged, path: str
) -> ParseError | None:
    """Why a mention is not simply given as the answer — asked, computed with, a bound or a shade, of doubtful
    sign — or None."""
    for m in found:
        sentence = prose.sentence(m.start)
        asked = judged.questions.get(sentence, end)
        if asked < m.start or prose.asks(sentence, end):
            message = f"{m.raw!r} is asked, not answered ({_around(text, start, end, m)!r}); refusing to guess"
            return _ambiguous(message, path, "question_plain_answer", m)
    for m in found:
        categories = judged.categories(prose.sentence(m.start))
        if m.number and "operation" in categories:
            message = f"{_around(text, start, end, m)!r} computes with {m.raw!r}; refusing to compute it"
            return _ambiguous(message, path, "arithmetic_plain_answer", m)
        shade = _qualifier(text, start, end, m)
        if shade is None and "bound" in categories:
            shade = _around(text, start, end, m)
        if shade is not None:
            return _ambiguous(f"the answer is a bound or a shade ({shade!r})", path, "hedged_plain_answer", m)
        if m.sign_doubt:
            message = f"{_around(text, start, end, m)!r} may or may not make {m.raw!r} negative; refusing to guess"
            return _ambiguous(message, path, "ambiguous_number", m)
    return None


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


@functools.cache
def _null_word() -> re.Pattern[str]:
    """Each table's words for no value, as whole words in any script ("无" alone, never inside "无法"); a space
    in one ("해당 없음") matches a run of spaces."""
    words = lexicon().words("null")
    spelled = sorted(words.spaced | words.unspaced, key=lambda w: (-len(w), w))
    alternatives = "|".join(re.escape(w).replace("\\ ", "[ \t]++") for w in spelled)
    return re.compile(f"(?<![\\w/])(?:{alternatives})(?![\\w/])", re.IGNORECASE)


def _nulls(text: str, start: int, end: int) -> list[_Mention]:
    """ "None", "null", "N/A", "ninguno", "无" for an Optional target: the answer that there is no value (a value
    beside it is a second answer)."""
    return [_Mention(None, m.group(), m.start(), m.end(), False, None) for m in _null_word().finditer(text, start, end)]


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
