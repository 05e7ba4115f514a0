"""Value coercion stage: turn a value that does not fit its field into one that does — or refuse honestly.

The walker asks about values that do not fit their type; the parser's error-driven second pass also asks about
values that fit by type but that Pydantic rejected (a date format, a constrained number), so every function here
returns None rather than a no-op when the value is already as good as it gets. Every coercion is a lossy repair
(lenient policies only; the policy is asked per kind), recorded with its JSON path, the value before and the value
after. A coercion is refused — an error naming the allowed values or the reason — when it would be a guess: a
hedged enum ("neutral or positive"), a prefix that fits two values, "06/07/2024", "1,234" for a float, a unit that
is not the field's unit, a percentage for a field whose scale is unknown, a string that reads as several items
("eco, bathroom") where a list is expected.

This package's `coerce` picks the coercion by the expected type; the built-in `CoerceStage` (stages/__init__.py)
offers it as the `rp_coerce_value` hook. The coercions live one concern to a module: `numbers` (separators, units,
currencies, amounts read against a sibling unit field), `dates`, `choices` (enums and Literals), `shapes` (wrappers,
scalar to list, discriminated-union tags), `embedded` (JSON inside a string), `patterns` (a regex missed by
case) and `spellings` (a number where a string is expected, as the text wrote it); `_common` holds what they
share.
"""

from __future__ import annotations

import datetime as _dt
from decimal import Decimal
from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.fit import fits
from resilient_parse.schema import (
    AnyView,
    ChoiceView,
    DictView,
    FieldView,
    ListView,
    ModelView,
    ScalarView,
    TupleView,
    TypeView,
    UnionView,
)
from resilient_parse.stages.coerce._common import _changed
from resilient_parse.stages.coerce.choices import match_choice
from resilient_parse.stages.coerce.dates import date_from_string
from resilient_parse.stages.coerce.embedded import decode_json_string
from resilient_parse.stages.coerce.numbers import number_from_string, read_against_siblings
from resilient_parse.stages.coerce.patterns import pattern_case
from resilient_parse.stages.coerce.shapes import _fix_discriminator, _scalar_to_list, unwrap
from resilient_parse.stages.coerce.spellings import number_as_written

__all__ = ["coerce"]


def coerce(value: Any, expected: TypeView, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    """The built-in coercion for one value (see the module docstring). None when there is nothing to offer."""
    policy = ctx.policy
    if not policy.allow_lossy and not policy.extra_allowed_kinds:
        return None  # every coercion kind is lossy; such a policy allows none of them
    if isinstance(expected, AnyView):
        return None
    if isinstance(expected, ModelView | ListView | DictView | TupleView) and isinstance(value, str):
        decoded = decode_json_string(value, policy.max_depth)
        if decoded is not None:
            return _changed(value, decoded, "decode_json_string", path, ctx, confidence=0.95)
    if isinstance(expected, ModelView) and isinstance(value, dict):
        return unwrap(value, expected, path, ctx) or read_against_siblings(value, expected, path, ctx)
    if isinstance(expected, ListView | TupleView):
        if isinstance(value, dict):
            unwrapped = unwrap(value, expected, path, ctx)
            if unwrapped is not None:
                return unwrapped
        return _scalar_to_list(value, expected, path, ctx) if isinstance(expected, ListView) else None
    if isinstance(value, list) and isinstance(expected, ModelView | ScalarView | ChoiceView | DictView):
        if len(value) == 1:
            return _changed(value, value[0], "unwrap_list", path, ctx, confidence=0.85)
        return None
    if isinstance(expected, ChoiceView):
        return match_choice(value, expected, path, ctx)
    if isinstance(expected, ScalarView):
        return _coerce_scalar(value, expected, fld, path, ctx)
    if isinstance(expected, UnionView):
        return _coerce_union(value, expected, fld, path, ctx)
    return None


def _coerce_scalar(value: Any, view: ScalarView, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    t = view.py_type
    if t is str and isinstance(value, str):
        return pattern_case(value, fld, path, ctx)
    if t in (int, float, Decimal) and isinstance(value, str):
        return number_from_string(value, view, fld, path, ctx)
    if t is str and isinstance(value, int | float) and not isinstance(value, bool):
        return number_as_written(value, path, ctx)
    if t in (_dt.date, _dt.datetime) and isinstance(value, str):
        return date_from_string(value, view, path, ctx)
    return None


def _coerce_union(value: Any, view: UnionView, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    """A discriminated union by its tag; a plain union by the one member a coercion makes the value fit. Several
    members offering different values is not a choice to make here: Pydantic decides (or refuses).

    It sits with the dispatcher because it calls `coerce` for every member; `shapes` only repairs the tag."""
    if view.discriminator and isinstance(value, dict):
        fixed = _fix_discriminator(value, view, path, ctx)
        if fixed is not None:
            return fixed
    if value is None:
        return None
    offers: list[tuple[Coercion, TypeView]] = []
    refusals: list[Coercion] = []
    for option in view.options:
        got = coerce(value, option, fld, path, ctx)
        if got is None:
            continue
        if got.error is not None:
            refusals.append(got)
        elif fits(got.value, option):
            offers.append((got, option))
    if len(offers) > 1:
        # best fit: a member whose coerced value fits all the way down beats one that only fits on the surface
        # (`"1,234"` for `int | list[int]` is 1234, not ["1,234"])
        offers = [(o, option) for o, option in offers if _fits_deep(o.value, option)] or offers
    if offers and all(o.value == offers[0][0].value for o, _ in offers):
        return offers[0][0]
    if not offers and refusals:
        return refusals[0]
    return None


def _fits_deep(value: Any, view: TypeView) -> bool:
    if isinstance(view, ListView):
        return isinstance(value, list) and all(fits(item, view.item) for item in value)
    return fits(value, view)
