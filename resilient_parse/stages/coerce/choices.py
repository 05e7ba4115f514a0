"""Enum and Literal values: match what the model wrote to one allowed value, or refuse and name the allowed ones.

A value is matched by case, separators or a member name (`enum_value`), then by a unique prefix or a small typo
(`enum_fuzzy`). It is refused when matching would be a guess: a hedge between members ("neutral or positive"), a
prefix or typo that fits several, or a close spelling that means the opposite (`unapproved` for `approved`).
Discriminated unions match their tag with the same rules (see `shapes`).
"""

from __future__ import annotations

import bisect
import enum
import re
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.schema import ChoiceView
from resilient_parse.stages.coerce._common import _changed, _refuse, _same
from resilient_parse.text.lexicon import lexicon

MIN_PREFIX = 3
# what a value's words are split at to see whether it names several allowed values ("positive or negative",
# "positiv / negativ", "positive 或 negative"): white space and the marks that list, in one possessive run
_PARTS = re.compile(r"[\s/|,;\u3001\uff0c\uff1b]++")
# the lexicon's cues that make a value no plain pick: "maybe positive", "quizás", "也许", "not positive"
_HEDGING = frozenset({"hedge", "question", "alternative", "negation"})
_ASKED = ("?", "\uff1f")
_CHOICE_NOISE = re.compile(r"[\s_\-.:;!?'\"`()\[\]]+")
_TIE = 1e-9


def _norm_choice(text: str) -> str:
    return _CHOICE_NOISE.sub("", text.casefold())


@dataclass(frozen=True)
class _ChoiceIndex:
    """What matching needs about one enum/Literal, computed once per view: its values' and member names'
    normalised spellings (in declaration order, values first), a sorted copy for prefix search, and the message
    that names the allowed values."""

    spellings: tuple[str, ...]
    owners: tuple[Any, ...]  # the allowed value each spelling names
    by_spelling: dict[str, tuple[Any, ...]]  # spelling -> the distinct values it names
    ordered: tuple[tuple[str, Any], ...]  # (spelling, value), sorted by spelling
    per_value: int  # the most spellings naming one value
    allowed: str
    asks: bool = False  # an allowed value itself ends with a question mark ("ready?")

    @classmethod
    def build(cls, view: ChoiceView) -> _ChoiceIndex:
        pairs = [(_norm_choice(str(v.value if isinstance(v, enum.Enum) else v)), v) for v in view.values]
        if view.enum_cls is not None:
            pairs += [(_norm_choice(m.name), m.value) for m in view.enum_cls]
        kept: list[tuple[str, Any]] = []
        by_spelling: dict[str, list[Any]] = {}
        for s, v in pairs:
            # a value that normalises to nothing matches nothing; a name spelt like its value (`RED = "red"`) is
            # the same spelling of the same value, scored once
            named = by_spelling.setdefault(s, []) if s else None
            if named is not None and not any(_same(v, w) for w in named):
                named.append(v)
                kept.append((s, v))
        pairs = kept
        try:
            per_value = max(Counter((type(v), v) for _, v in pairs).values(), default=0)
        except TypeError:  # an unhashable enum value: compare one by one
            per_value = max((sum(1 for _, w in pairs if _same(v, w)) for _, v in pairs), default=0)
        return cls(
            spellings=tuple(s for s, _ in pairs),
            owners=tuple(v for _, v in pairs),
            by_spelling={s: tuple(vs) for s, vs in by_spelling.items() if vs},
            ordered=tuple(sorted(pairs, key=lambda pair: pair[0])),
            per_value=per_value,
            allowed=", ".join(repr(v.value if isinstance(v, enum.Enum) else v) for v in view.values),
            asks=any(str(v.value if isinstance(v, enum.Enum) else v).rstrip().endswith(_ASKED) for v in view.values),
        )

    def prefixed(self, target: str) -> list[Any]:
        """The distinct values a spelling starting with `target` names — at most two: two already mean
        ambiguous. Sorted spellings put every match in one run, so this costs a binary search."""
        found: list[Any] = []
        i = bisect.bisect_left(self.ordered, target, key=lambda pair: pair[0])
        while i < len(self.ordered) and self.ordered[i][0].startswith(target):
            value = self.ordered[i][1]
            if not any(_same(value, f) for f in found):
                found.append(value)
                if len(found) > 1:
                    break
            i += 1
        return found


_INDEXES: weakref.WeakKeyDictionary[ChoiceView, _ChoiceIndex] = weakref.WeakKeyDictionary()
"""One index per schema view, dropped with the view (views are schema-side: model text is never a key)."""


def _index(view: ChoiceView) -> _ChoiceIndex:
    index = _INDEXES.get(view)
    if index is None:
        index = _INDEXES[view] = _ChoiceIndex.build(view)
    return index


def match_choice(value: Any, view: ChoiceView, path: str, ctx: CallContext) -> Coercion | None:
    """Match a value to an enum/Literal: by case and separators or a member name (`enum_value`), then by a unique
    prefix or a small typo (`enum_fuzzy`). Hedged, ambiguous or negated values are refused, naming the allowed
    values."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    exact = view.exact_values
    if (type(value), value) in exact if exact is not None else any(_same(value, v) for v in view.values):
        return None
    policy = ctx.policy
    index = _index(view)
    target = _norm_choice(str(value))
    if not target:
        return None

    text = str(value)
    if isinstance(value, str) and text.rstrip().endswith(_ASKED) and not index.asks:
        return _choice_error(value, index, path, "hedged_choice", "is asked, not given")
    spelt = index.by_spelling.get(target, ())
    if len(spelt) == 1:
        return _changed(value, spelt[0], "enum_value", path, ctx, confidence=1.0)
    if len(spelt) > 1:
        return _choice_error(value, index, path, "ambiguous_choice", "matches several allowed values")
    if isinstance(value, str) and not lexicon().categories(text).isdisjoint(_HEDGING):
        return _choice_error(value, index, path, "hedged_choice", "is hedged, negated or one option of several")
    named = [p for p in _PARTS.split(text) if p and _norm_choice(p) in index.by_spelling]
    if len(named) > 1:
        return _choice_error(value, index, path, "hedged_choice", "is hedged between several values")
    if not policy.allows("enum_fuzzy") or len(target) < MIN_PREFIX:
        return None
    prefixed = index.prefixed(target)
    if len(prefixed) == 1:
        return _changed(value, prefixed[0], "enum_fuzzy", path, ctx, confidence=0.9, note="unique prefix")
    if len(prefixed) > 1:
        return _choice_error(value, index, path, "ambiguous_choice", "is a prefix of several allowed values")
    return _closest_choice(value, target, index, path, ctx)


def _closest_choice(value: Any, target: str, index: _ChoiceIndex, path: str, ctx: CallContext) -> Coercion | None:
    """The allowed value within a small typo of `target`, by a margin over the runner-up value.

    rapidfuzz scores every spelling in one C call. Only spellings that could matter are asked for: the best ones
    (enough to be sure one names another value than the best), and none below `threshold - margin`, which could
    neither be the answer nor come within the margin of one."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    policy = ctx.policy
    cutoff = max(0.0, policy.fuzzy_value_threshold - policy.fuzzy_margin - _TIE)
    ranked = _ranked(
        process.extract(
            target, index.spellings, scorer=OSA.normalized_similarity, limit=index.per_value + 1, score_cutoff=cutoff
        )
    )
    if not ranked:
        return None
    best = ranked[0][0]
    if len(ranked) > 1 and ranked[1][0] == best:
        # a tie at the top: the first spelling in declaration order wins, as every tie did before
        ranked = (
            _ranked(
                process.extract(
                    target, index.spellings, scorer=OSA.normalized_similarity, limit=None, score_cutoff=best
                )
            )
            + ranked
        )
    _, first = ranked[0]
    spelling, allowed = index.spellings[first], index.owners[first]
    runner = next((score for score, i in ranked[1:] if not _same(index.owners[i], allowed)), 0.0)
    if best < policy.fuzzy_value_threshold:
        return None
    if best - runner < policy.fuzzy_margin:
        return _choice_error(value, index, path, "ambiguous_choice", "is equally close to several allowed values")
    if lexicon().negates(target, spelling):
        return _choice_error(value, index, path, "negated_choice", f"looks like the opposite of {allowed!r}")
    return _changed(value, allowed, "enum_fuzzy", path, ctx, confidence=best, note=f"similarity {best:.2f}")


def _ranked(found: list[tuple[str, float, int]]) -> list[tuple[float, int]]:
    """(score, spelling index) best first; equal scores in declaration order."""
    return sorted(((score, i) for _, score, i in found), key=lambda item: (-item[0], item[1]))


def _choice_error(value: Any, index: _ChoiceIndex, path: str, kind: str, why: str) -> Coercion:
    return _refuse(path, kind, f"{value!r} {why}; allowed: {index.allowed}", value)
