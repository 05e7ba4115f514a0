"""Value coercion stage: turn a value that does not fit its field into one that does — or refuse honestly.

Only values that Pydantic's lax mode would reject reach this stage. Every coercion is a lossy repair (lenient
policies only) and is refused when it would be a guess: a hedged enum ("neutral or positive"), an abbreviation
that fits two values, "06/07/2024", "1,234" for a float, a unit that is not the field's unit.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from decimal import Decimal
from typing import Any

from pydantic import TypeAdapter, ValidationError
from rapidfuzz.distance import Levenshtein

from resilient_parse.context import CallContext, Coercion
from resilient_parse.errors import ErrorDetail
from resilient_parse.hookspecs import hookimpl
from resilient_parse.repairs import Repair
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
from resilient_parse.stages.align import normalise_key

WRAPPER_KEYS = frozenset(
    {
        "result",
        "results",
        "data",
        "output",
        "response",
        "answer",
        "json",
        "object",
        "value",
        "payload",
        "content",
        "item",
        "items",
        "record",
        "records",
        "entries",
        "list",
        "body",
        "message",
        "return",
        "final_answer",
    }
)
MIN_PREFIX = 3
_HEDGE = re.compile(r"\s*(?:\bor\b|\band\b|/|\||,|;|\bvs\.?\b)\s*", re.IGNORECASE)
_CHOICE_NOISE = re.compile(r"[\s_\-.:;!?'\"`()\[\]]+")


def _norm_choice(text: str) -> str:
    return _CHOICE_NOISE.sub("", text.casefold())


# -- enums and Literals -----------------------------------------------------------------------------------------


def match_choice(value: Any, view: ChoiceView, path: str, ctx: CallContext) -> Coercion | None:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    policy = ctx.policy
    text = str(value)
    spellings: list[tuple[str, Any]] = [(_norm_choice(str(v)), v) for v in view.values]
    if view.enum_cls is not None:
        spellings += [(_norm_choice(m.name), m.value) for m in view.enum_cls]
    target = _norm_choice(text)
    if not target:
        return None

    def found(allowed: Any, kind: str, confidence: float) -> Coercion | None:
        if not policy.allows(kind):
            return None
        return Coercion(allowed, (Repair.make(kind, path, value, allowed, confidence=confidence),))

    exact = _unique(v for s, v in spellings if s == target)
    if len(exact) == 1:
        return found(exact[0], "enum_value", 1.0)
    if len(exact) > 1:
        return _choice_error(value, view, path, "ambiguous_choice", "matches several allowed values")
    parts = [p for p in _HEDGE.split(text) if p.strip()]
    if len(parts) > 1:
        hits = _unique(v for p in parts for s, v in spellings if s == _norm_choice(p))
        if len(hits) > 1:
            return _choice_error(value, view, path, "hedged_choice", "names more than one allowed value")
    if len(target) >= MIN_PREFIX:
        prefixed = _unique(v for s, v in spellings if s.startswith(target))
        if len(prefixed) == 1:
            return found(prefixed[0], "enum_fuzzy", 0.9)
        if len(prefixed) > 1:
            return _choice_error(value, view, path, "ambiguous_choice", "is a prefix of several allowed values")
    scored = sorted(
        ((Levenshtein.normalized_similarity(target, s), v) for s, v in spellings if s),
        reverse=True,
        key=lambda p: p[0],
    )
    if scored:
        best, allowed = scored[0]
        runner = next((sc for sc, v in scored[1:] if v != allowed), 0.0)
        if best >= policy.fuzzy_value_threshold and best - runner >= policy.fuzzy_margin and len(target) >= MIN_PREFIX:
            return found(allowed, "enum_fuzzy", best)
        if best >= policy.fuzzy_value_threshold and best - runner < policy.fuzzy_margin:
            return _choice_error(value, view, path, "ambiguous_choice", "is equally close to several allowed values")
    return None


def _unique(values: Any) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def _choice_error(value: Any, view: ChoiceView, path: str, kind: str, why: str) -> Coercion:
    allowed = ", ".join(repr(v) for v in view.values)
    return Coercion(error=ErrorDetail(path=path, kind=kind, message=f"{value!r} {why}; allowed: {allowed}", got=value))


# -- numbers ------------------------------------------------------------------------------------------------------

UNIT_WORDS = {
    "ms": "milliseconds",
    "msec": "milliseconds",
    "millisecond": "milliseconds",
    "milliseconds": "milliseconds",
    "s": "seconds",
    "sec": "seconds",
    "secs": "seconds",
    "second": "seconds",
    "seconds": "seconds",
    "m": "minutes",
    "min": "minutes",
    "mins": "minutes",
    "minute": "minutes",
    "minutes": "minutes",
    "h": "hours",
    "hr": "hours",
    "hrs": "hours",
    "hour": "hours",
    "hours": "hours",
    "d": "days",
    "day": "days",
    "days": "days",
    "wk": "weeks",
    "week": "weeks",
    "weeks": "weeks",
    "kg": "kg",
    "kgs": "kg",
    "kilogram": "kg",
    "kilograms": "kg",
    "g": "g",
    "gram": "g",
    "grams": "g",
    "lb": "lb",
    "lbs": "lb",
    "pound": "lb",
    "pounds": "lb",
    "km": "km",
    "kilometer": "km",
    "kilometers": "km",
    "kilometre": "km",
    "kilometres": "km",
    "mi": "miles",
    "mile": "miles",
    "miles": "miles",
    "cm": "cm",
    "mm": "mm",
    "meter": "meters",
    "meters": "meters",
    "metre": "meters",
    "metres": "meters",
    "kb": "kb",
    "mb": "mb",
    "gb": "gb",
    "tb": "tb",
    "byte": "bytes",
    "bytes": "bytes",
    "usd": "usd",
    "eur": "eur",
    "gbp": "gbp",
    "jpy": "jpy",
    "cents": "cents",
}
_FIELD_UNIT_SUFFIX = {
    "ms": "milliseconds",
    "sec": "seconds",
    "secs": "seconds",
    "min": "minutes",
    "mins": "minutes",
    "hrs": "hours",
    "m": "meters",
}
_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy"}
_NUMBER_WITH_UNIT = re.compile(
    r"^(?P<cur>[$€£¥])?\s*(?P<num>[+-]?[\d.,\u00a0\u202f' ]*\d)\s*(?P<pct>%)?\s*(?P<unit>[A-Za-z]+)?\.?$"
)
_EN_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_EU_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$|^[+-]?\d{1,3}(?:\.\d{3})*,\d+$")
_SPACE_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:[\u00a0\u202f' ]\d{3})+(?:[.,]\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")


def _field_unit(fld: FieldView | None) -> str | None:
    if fld is None:
        return None
    tokens = normalise_key(fld.name).split("_")
    last = tokens[-1] if tokens else ""
    if last in _FIELD_UNIT_SUFFIX:
        return _FIELD_UNIT_SUFFIX[last]
    if last in UNIT_WORDS and len(last) > 1:
        return UNIT_WORDS[last]
    if "in" in tokens[:-1] or len(tokens) > 1:
        return UNIT_WORDS.get(last) if len(last) > 1 else None
    return None


def _bounded_to_one(fld: FieldView | None) -> bool:
    """Whether the field's declared bounds (le/lt) keep it within 0..1, so "45%" means 0.45."""
    if fld is None:
        return False
    for meta in fld.metadata:
        le = getattr(meta, "le", None)
        lt = getattr(meta, "lt", None)
        if (le is not None and le <= 1) or (lt is not None and lt <= 1):
            return True
    return False


def _plain_number(num: str, want_int: bool) -> tuple[float | int | None, str | None]:
    """Read digits with separators. Returns (number, None) or (None, reason it is ambiguous/unreadable)."""
    raw = num.strip()
    if _EN_THOUSANDS.match(raw):
        cleaned = raw.replace(",", "")
        if not want_int and "." not in raw and len(raw.split(",")) == 2:
            return None, f"{raw!r} could be a thousands separator or a decimal comma"
    elif _EU_THOUSANDS.match(raw) and ("," in raw or raw.count(".") > 1):
        cleaned = raw.replace(".", "").replace(",", ".")
    elif _SPACE_THOUSANDS.match(raw):
        cleaned = re.sub(r"[\u00a0\u202f' ]", "", raw).replace(",", ".")
    elif _DECIMAL_COMMA.match(raw):
        frac = raw.split(",")[1]
        if len(frac) == 3:
            if want_int:
                return int(raw.replace(",", "")), None
            return None, f"{raw!r} could be a thousands separator or a decimal comma"
        cleaned = raw.replace(",", ".")
    else:
        cleaned = raw
    try:
        value = float(cleaned)
    except ValueError:
        return None, None
    if want_int:
        if not value.is_integer():
            return None, f"{raw!r} is not a whole number"
        try:
            return int(Decimal(cleaned)), None
        except ArithmeticError:
            return int(value), None
    return (int(value) if value.is_integer() and "." not in cleaned and "e" not in cleaned.lower() else value), None


def number_from_string(
    value: str, view: ScalarView, fld: FieldView | None, path: str, ctx: CallContext
) -> Coercion | None:
    if not ctx.policy.allows("number_from_string"):
        return None
    m = _NUMBER_WITH_UNIT.match(value.strip())
    if m is None:
        return None
    want_int = view.py_type is int
    number, problem = _plain_number(m.group("num"), want_int)
    if problem:
        return Coercion(error=ErrorDetail(path=path, kind="ambiguous_number", message=problem, got=value))
    if number is None:
        return None
    unit = (m.group("unit") or "").lower()
    currency = m.group("cur")
    note = "digits with separators"
    if unit:
        canonical = UNIT_WORDS.get(unit)
        expected_unit = _field_unit(fld)
        if canonical is None:
            return None
        if expected_unit is None or canonical != expected_unit:
            where = f"field is in {expected_unit}" if expected_unit else "field's unit is not known"
            return Coercion(
                error=ErrorDetail(
                    path=path,
                    kind="unit_mismatch",
                    message=f"{value!r} is in {canonical}, but the {where}",
                    got=value,
                )
            )
        note = f"unit {canonical} matches the field"
    if currency:
        expected_unit = _field_unit(fld)
        if expected_unit is not None and expected_unit != _CURRENCY[currency]:
            return Coercion(
                error=ErrorDetail(
                    path=path,
                    kind="unit_mismatch",
                    message=f"{value!r} is in {_CURRENCY[currency]}, field is in {expected_unit}",
                    got=value,
                )
            )
        note = "currency symbol"
    if m.group("pct"):
        name_tokens = normalise_key(fld.name).split("_") if fld else []
        if _bounded_to_one(fld) or any(t in ("ratio", "fraction", "probability", "share") for t in name_tokens):
            number = number / 100
            note = "percent for a 0..1 field"
        elif any(t in ("percent", "percentage", "pct") for t in name_tokens):
            note = "percent for a percent field"
        else:
            return Coercion(
                error=ErrorDetail(
                    path=path,
                    kind="ambiguous_number",
                    message=f"{value!r} is a percentage; is the field 0..1 or 0..100?",
                    got=value,
                )
            )
        if want_int and isinstance(number, float):
            if not number.is_integer():
                return None
            number = int(number)
    return Coercion(number, (Repair.make("number_from_string", path, value, number, confidence=0.9, note=note),))


# -- dates ----------------------------------------------------------------------------------------------------------

_DATE_ADAPTERS: dict[type, TypeAdapter[Any]] = {
    _dt.date: TypeAdapter(_dt.date),
    _dt.datetime: TypeAdapter(_dt.datetime),
}
_MONTHS = {
    m.lower(): i
    for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)
}
_NUMERIC_DATE = re.compile(r"^(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})$")
_WORDY_DATE = re.compile(
    r"^(?:(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})|([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))$"
)


def date_from_string(value: str, view: ScalarView, path: str, ctx: CallContext) -> Coercion | None:
    if not ctx.policy.allows("date_from_string"):
        return None
    adapter = _DATE_ADAPTERS.get(view.py_type)
    if adapter is None:
        return None
    try:
        adapter.validate_python(value)
        return None  # Pydantic reads it already
    except ValidationError:
        pass
    text = value.strip()
    parsed: _dt.date | None = None
    m = _NUMERIC_DATE.match(text)
    if m:
        a, b, c = m.groups()
        if len(a) == 4:
            parsed = _safe_date(int(a), int(b), int(c))
        elif len(c) == 4:
            first, second = int(a), int(b)
            if first <= 12 and second <= 12 and first != second:
                return Coercion(
                    error=ErrorDetail(
                        path=path,
                        kind="ambiguous_date",
                        message=f"{value!r} could be day/month or month/day",
                        got=value,
                    )
                )
            if first > 12:
                parsed = _safe_date(int(c), second, first)
            else:
                parsed = _safe_date(int(c), first, second)
    else:
        w = _WORDY_DATE.match(text)
        if w:
            day, month, year = (
                (w.group(1), w.group(2), w.group(3)) if w.group(1) else (w.group(5), w.group(4), w.group(6))
            )
            mon = _MONTHS.get(month[:3].lower())
            if mon is not None and day is not None and year is not None:
                parsed = _safe_date(int(year), mon, int(day))
    if parsed is None:
        return None
    iso = parsed.isoformat()
    return Coercion(iso, (Repair.make("date_from_string", path, value, iso, confidence=0.9),))


def _safe_date(y: int, m: int, d: int) -> _dt.date | None:
    try:
        return _dt.date(y, m, d)
    except ValueError:
        return None


# -- shapes: wrappers, lists, double encoding ----------------------------------------------------------------------


def _decode_json_string(value: str) -> Any:
    text = value.strip()
    if not text or text[0] not in "{[":
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _known_keys(obj: dict[str, Any], model: ModelView) -> int:
    names = {normalise_key(k) for f in model.fields.values() for k in (f.name, *f.input_keys)}
    return sum(1 for k in obj if k in model.key_to_field or normalise_key(k) in names)


def unwrap(value: dict[str, Any], expected: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    """{"result": {...}} → {...}; an OpenAI chat envelope → its message content; {"items": [...]} → [...]."""
    if not ctx.policy.allows("unwrap_wrapper"):
        return None
    inner: Any = None
    wrapper = ""
    choices = value.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message") or {}
        inner = message.get("content") if isinstance(message, dict) else None
        wrapper = "choices[0].message.content"
    elif len(value) == 1:
        wrapper, inner = next(iter(value.items()))
        if isinstance(expected, ModelView):
            names = {normalise_key(k) for f in expected.fields.values() for k in (f.name, *f.input_keys)}
            if normalise_key(wrapper) in names:
                return None  # the "wrapper" is a field of the schema
            plausible = normalise_key(wrapper) in WRAPPER_KEYS or normalise_key(wrapper) == normalise_key(expected.name)
            if not plausible and not (isinstance(inner, dict) and _covers_required(inner, expected)):
                return None
    if isinstance(inner, str):
        decoded = _decode_json_string(inner)
        inner = decoded if decoded is not None else inner
    if isinstance(expected, ModelView):
        if not isinstance(inner, dict) or _known_keys(inner, expected) == 0:
            return None
    elif isinstance(expected, ListView | TupleView):
        if not isinstance(inner, list):
            return None
    else:
        return None
    return Coercion(inner, (Repair.make("unwrap_wrapper", path, wrapper, "(unwrapped)", confidence=0.9),))


def _covers_required(obj: dict[str, Any], model: ModelView) -> bool:
    required = [f for f in model.fields.values() if f.required]
    return bool(required) and all(any(k in obj for k in f.input_keys) for f in required)


def _item_fits(value: Any, item: TypeView) -> bool:
    from resilient_parse.conform import fits

    return fits(value, item)


def coerce(value: Any, expected: TypeView, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    policy = ctx.policy
    if not policy.allow_lossy and not policy.extra_allowed_kinds:
        return None
    if isinstance(expected, ModelView | ListView | DictView | TupleView) and isinstance(value, str):
        decoded = _decode_json_string(value)
        if decoded is not None and policy.allows("decode_json_string"):
            return Coercion(decoded, (Repair.make("decode_json_string", path, value, decoded, confidence=0.95),))
        return None
    if isinstance(expected, ModelView) and isinstance(value, dict):
        return unwrap(value, expected, path, ctx)
    if isinstance(expected, ListView):
        if isinstance(value, dict):
            unwrapped = unwrap(value, expected, path, ctx)
            if unwrapped is not None:
                return unwrapped
        item_ok = _item_fits(value, expected.item) or isinstance(expected.item, UnionView | ChoiceView | ScalarView)
        if value is not None and not isinstance(value, list) and policy.allows("scalar_to_list") and item_ok:
            return Coercion([value], (Repair.make("scalar_to_list", path, value, [value], confidence=0.9),))
        return None
    if isinstance(value, list) and len(value) == 1 and isinstance(expected, ModelView | ScalarView | ChoiceView):
        if policy.allows("unwrap_list"):
            return Coercion(value[0], (Repair.make("unwrap_list", path, value, value[0], confidence=0.85),))
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
    if t in (int, float, Decimal) and isinstance(value, str):
        return number_from_string(value, view, fld, path, ctx)
    if t is str and isinstance(value, int | float) and not isinstance(value, bool):
        if ctx.policy.allows("number_to_string"):
            text = str(value)
            return Coercion(text, (Repair.make("number_to_string", path, value, text),))
        return None
    if t in (_dt.date, _dt.datetime) and isinstance(value, str):
        return date_from_string(value, view, path, ctx)
    return None


def _coerce_union(value: Any, view: UnionView, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    if view.discriminator and isinstance(value, dict):
        return _fix_discriminator(value, view, path, ctx)
    results: list[Coercion] = []
    for option in view.options:
        if isinstance(option, AnyView):
            continue
        got = coerce(value, option, fld, path, ctx)
        if got is not None and got.error is None:
            results.append(got)
    distinct = _unique(r.value for r in results)
    if len(distinct) == 1:
        return results[0]
    return None


def _fix_discriminator(value: dict[str, Any], view: UnionView, path: str, ctx: CallContext) -> Coercion | None:
    disc = view.discriminator or ""
    tags: list[Any] = []
    for option in view.options:
        if isinstance(option, ModelView) and disc in option.fields:
            ftype = option.fields[disc].type
            if isinstance(ftype, ChoiceView):
                tags.extend(ftype.values)
    key = disc if disc in value else next((k for k in value if normalise_key(k) == normalise_key(disc)), None)
    if key is None or not tags:
        return None
    tag = value[key]
    if tag in tags:
        return None
    matched = match_choice(tag, ChoiceView(values=tuple(tags)), f"{path}/{disc}", ctx)
    if matched is None or matched.error is not None:
        return matched
    fixed = dict(value)
    fixed[key] = matched.value
    return Coercion(fixed, matched.repairs)


class CoerceStage:
    """Built-in plugin for `rp_coerce_value`."""

    @hookimpl(trylast=True)
    def rp_coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        return coerce(value, expected, field, path, ctx)
