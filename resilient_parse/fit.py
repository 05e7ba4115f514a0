"""Does a JSON value fit a schema view, and which field or union member does it name?

The questions the conform walker, the coercers and the tool envelopes ask before they change anything: `fits`
says a value needs no coercion; `tag_key`/`tag_values`/`tagged_option` read a discriminated union's tag;
`spelling_of`/`field_of`/`fit_score` say which field a key names (exactly, by an alias table, in another spelling).
"""

from __future__ import annotations

import datetime as _dt
import enum
import re
from typing import Any

from resilient_parse.context import CallContext
from resilient_parse.schema import (
    AnyView,
    ChoiceView,
    DictView,
    ListView,
    ModelView,
    NoneView,
    ScalarView,
    TupleView,
    TypeView,
    UnionView,
    normalise_key,
)


def fits(value: Any, view: TypeView) -> bool:
    """A cheap test of whether Pydantic's lax JSON validation could accept `value` for `view` as it is.

    False means "worth asking the coercion hook"; True means "leave it to Pydantic" (which may still refuse — the
    parser's error-driven second pass then offers the value to the hook once more).
    """
    if isinstance(view, AnyView):
        return True
    if isinstance(view, ModelView | DictView):
        return isinstance(value, dict)
    if isinstance(view, ListView):
        return isinstance(value, list)
    if isinstance(view, TupleView):
        return isinstance(value, list) and len(value) == len(view.items)
    if isinstance(view, NoneView):
        return value is None
    if isinstance(view, UnionView):
        return (value is None and view.nullable) or any(fits(value, o) for o in view.options)
    if isinstance(view, ChoiceView):
        return _in_choices(value, view)
    if isinstance(view, ScalarView):
        return _scalar_fits(value, view.py_type)
    return True


def _in_choices(value: Any, view: ChoiceView) -> bool:
    """Whether Pydantic's lax JSON mode reads `value` as one of the allowed values: the value itself (same type),
    a number equal to an allowed number (1.0 for 1), or for an enum of ints the int written as a string ("3")."""
    exact = view.exact_values
    if exact is None:
        return any(_same_choice(value, allowed, view) for allowed in view.values)
    try:
        if (type(value), value) in exact:
            return True
    except TypeError:  # a list or dict is no allowed value
        return False
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return value in view.numeric_values
    return view.enum_cls is not None and isinstance(value, str) and value.strip() in view.int_spellings


def _same_choice(value: Any, allowed: Any, view: ChoiceView) -> bool:
    """`_in_choices` for one allowed value (for choices with unhashable values, which the sets cannot hold)."""
    if value == allowed and type(value) is type(allowed):
        return True
    if isinstance(allowed, bool) or isinstance(value, bool):
        return False
    if view.enum_cls is not None and isinstance(allowed, int) and isinstance(value, str):
        return value.strip() == str(allowed)  # Pydantic's lax mode reads "3" for an int enum
    return isinstance(allowed, int | float) and isinstance(value, int | float) and value == allowed


def _scalar_fits(value: Any, py_type: type) -> bool:
    if value is None or isinstance(value, dict | list):
        return False
    if py_type is str:
        return isinstance(value, str)
    if py_type is bool:
        return (
            isinstance(value, bool)
            or (isinstance(value, str) and value.strip().lower() in _BOOL_WORDS)
            or (isinstance(value, int) and value in (0, 1))
        )
    if py_type is int:
        if isinstance(value, bool):
            return False
        if isinstance(value, int):
            return True
        if isinstance(value, float):
            return value.is_integer()
        if isinstance(value, str):
            try:
                int(value.strip())
            except ValueError:
                return False
            return True
        return False
    if py_type is float or py_type.__name__ == "Decimal":
        if isinstance(value, bool):
            return False
        if isinstance(value, int | float):
            return True
        if isinstance(value, str):
            try:
                float(value.strip())
            except ValueError:
                return False
            return True
        return False
    if py_type in (_dt.date, _dt.datetime):
        if isinstance(value, str):
            return _ISO_DATE.match(value) is not None
        return isinstance(value, int | float) and not isinstance(value, bool)
    return True  # UUIDs, bytes, times …: Pydantic decides; coercion is error-driven for these


_ISO_DATE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}(?:$|[Tt ]\d)")


_BOOL_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", "t", "f", "y", "n"})


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values: `true` is not `1`, `1` is `1.0`, objects compare by keys and values."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


def tag_key(value: dict[str, Any], view: UnionView) -> str | None:
    """The key holding a discriminated union's tag: the discriminator, a declared key of it, or one of those
    written in another case or style (`Type` for `type`)."""
    disc = view.discriminator
    if disc is None:
        return None
    keys = {disc}
    for option in view.options:
        if isinstance(option, ModelView) and disc in option.fields:
            keys.update(option.fields[disc].input_keys)
    for key in keys:
        if key in value:
            return key
    wanted = {normalise_key(k) for k in keys}
    return next((k for k in value if normalise_key(k) in wanted), None)


def tag_values(view: UnionView) -> dict[Any, ModelView]:
    """Each allowed tag value of a discriminated union → the member it selects."""
    out: dict[Any, ModelView] = {}
    disc = view.discriminator
    for option in view.options:
        if isinstance(option, ModelView) and disc in option.fields:
            ftype = option.fields[disc].type
            if isinstance(ftype, ChoiceView):
                for allowed in ftype.values:
                    out.setdefault(allowed, option)
    return out


def tagged_option(value: dict[str, Any], view: UnionView) -> ModelView | None:
    key = tag_key(value, view)
    if key is None:
        return None
    tag = value[key]
    for allowed, option in tag_values(view).items():
        if tag == allowed and type(tag) is type(allowed):
            return option
        if isinstance(allowed, enum.Enum) and tag == allowed.value:
            return option
    return None


def spelling_of(key: str, ctx: CallContext) -> str:
    """`normalise_key(key)`, worked out once per key and call (the stages ask about the same keys several times);
    kept in the call's own memo, never in a cache that would outlive the call."""
    memo: dict[str, str] | None = ctx.memo.get("spelling_of")
    if memo is None:
        memo = ctx.memo["spelling_of"] = {}
    norm = memo.get(key)
    if norm is None:
        norm = memo[key] = normalise_key(key)
    return norm


def field_of(key: str, model: ModelView, ctx: CallContext) -> str | None:
    """The field a key names in a model as evidence for choosing a union member: exactly, through an alias table
    whose target is a field here, or in another spelling. Worked out once per key, model and call."""
    name = model.key_to_field.get(key)
    if name is not None:
        return name
    memo: dict[tuple[ModelView, str], str | None] | None = ctx.memo.get("field_of")
    if memo is None:
        memo = ctx.memo["field_of"] = {}
    at = (model, key)
    if at not in memo:
        memo[at] = _field_named(key, model, ctx)
    return memo[at]


def _field_named(key: str, model: ModelView, ctx: CallContext) -> str | None:
    """`field_of` for a key that is no declared key of the model."""
    for entry in ctx.aliases_for(key):
        target = entry.field if entry.field in model.fields else model.key_to_field.get(entry.field)
        if target is not None:
            return target
    own = model.own_aliases.get(key)
    if own is not None and (own in model.fields or own in model.key_to_field):
        return own if own in model.fields else model.key_to_field[own]
    names = model.spellings.get(spelling_of(key, ctx), ())
    return names[0] if len(names) == 1 else None


def fit_score(obj: dict[str, Any], model: ModelView, ctx: CallContext) -> tuple[int, int]:
    """How well an object's keys match a model: keys it names (exactly, by an alias table, or by spelling), minus
    strangers when the model forbids extras; then fewer missing required fields."""
    named = {field_of(k, model, ctx) for k in obj} - {None}
    known = sum(1 for k in obj if field_of(k, model, ctx) is not None)
    missing = sum(1 for f in model.fields.values() if f.required and f.name not in named)
    return (known - (len(obj) - known) if model.extra == "forbid" else known, -missing)
