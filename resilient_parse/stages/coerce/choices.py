"""Enum and Literal values: match what the model wrote to one allowed value, or refuse and name the allowed ones.

A value is matched by case, separators or a member name (`enum_value`), then by a unique prefix or a small typo
(`enum_fuzzy`). It is refused when matching would be a guess: a hedge between members ("neutral or positive"), a
prefix or typo that fits several, or a close spelling that means the opposite (`unapproved` for `approved`).
Discriminated unions match their tag with the same rules (see `shapes`).
"""

from __future__ import annotations

import enum
import re
from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.schema import ChoiceView
from resilient_parse.stages.coerce._common import _changed, _refuse, _same, _unique, edit_similarity

MIN_PREFIX = 3
_HEDGE = re.compile(r"\s*(?:\bor\b|\band\b|/|\||,|;|\bvs\.?\b|\bmaybe\b|\bperhaps\b)\s*", re.IGNORECASE)
_CHOICE_NOISE = re.compile(r"[\s_\-.:;!?'\"`()\[\]]+")
_NEGATING_PREFIXES = ("un", "in", "im", "ir", "il", "non", "dis", "not", "no", "de", "anti", "mis")


def _norm_choice(text: str) -> str:
    return _CHOICE_NOISE.sub("", text.casefold())


def _negation_of(a: str, b: str) -> bool:
    """`unapproved` vs `approved`, `incomplete` vs `complete`: close in spelling, opposite in meaning."""
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    if not longer.endswith(shorter):
        return False
    return longer[: len(longer) - len(shorter)] in _NEGATING_PREFIXES


def match_choice(value: Any, view: ChoiceView, path: str, ctx: CallContext) -> Coercion | None:
    """Match a value to an enum/Literal: by case and separators or a member name (`enum_value`), then by a unique
    prefix or a small typo (`enum_fuzzy`). Hedged, ambiguous or negated values are refused, naming the allowed
    values."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    if any(_same(value, v) for v in view.values):
        return None
    policy = ctx.policy
    text = str(value)
    spellings: list[tuple[str, Any]] = [
        (_norm_choice(str(v.value if isinstance(v, enum.Enum) else v)), v) for v in view.values
    ]
    if view.enum_cls is not None:
        spellings += [(_norm_choice(m.name), m.value) for m in view.enum_cls]
    target = _norm_choice(text)
    if not target:
        return None

    exact = _unique(v for s, v in spellings if s == target)
    if len(exact) == 1:
        return _changed(value, exact[0], "enum_value", path, ctx, confidence=1.0)
    if len(exact) > 1:
        return _choice_error(value, view, path, "ambiguous_choice", "matches several allowed values")
    parts = [p for p in _HEDGE.split(text) if p and p.strip()]
    if len(parts) > 1:
        hits = _unique(v for p in parts for s, v in spellings if s and s == _norm_choice(p))
        if hits:
            return _choice_error(value, view, path, "hedged_choice", "is hedged between several values")
    if not policy.allows("enum_fuzzy"):
        return None
    if len(target) >= MIN_PREFIX:
        prefixed = _unique(v for s, v in spellings if s.startswith(target))
        if len(prefixed) == 1:
            return _changed(value, prefixed[0], "enum_fuzzy", path, ctx, confidence=0.9, note="unique prefix")
        if len(prefixed) > 1:
            return _choice_error(value, view, path, "ambiguous_choice", "is a prefix of several allowed values")
    if len(target) < MIN_PREFIX:
        return None
    best_by_value: list[tuple[float, str, Any]] = []
    for s, v in spellings:
        if s:
            best_by_value.append((edit_similarity(target, s), s, v))
    best_by_value.sort(key=lambda item: item[0], reverse=True)
    if not best_by_value:
        return None
    best, spelling, allowed = best_by_value[0]
    runner = next((sc for sc, _, v in best_by_value[1:] if not _same(v, allowed)), 0.0)
    if best < policy.fuzzy_value_threshold:
        return None
    if best - runner < policy.fuzzy_margin:
        return _choice_error(value, view, path, "ambiguous_choice", "is equally close to several allowed values")
    if _negation_of(target, spelling):
        return _choice_error(value, view, path, "negated_choice", f"looks like the opposite of {allowed!r}")
    return _changed(value, allowed, "enum_fuzzy", path, ctx, confidence=best, note=f"similarity {best:.2f}")


def _choice_error(value: Any, view: ChoiceView, path: str, kind: str, why: str) -> Coercion:
    allowed = ", ".join(repr(v.value if isinstance(v, enum.Enum) else v) for v in view.values)
    return _refuse(path, kind, f"{value!r} {why}; allowed: {allowed}", value)
