"""Numbers written as text: thousands separators, decimal commas, units, currencies and percentages.

`"1,234"`, `"$12.50"`, `"45 minutes"` and `"45%"` are read when something says what they mean — the field's type,
the unit its name declares (`delay_minutes`, `weight_kg`), its bounds (`le=1` for a ratio), or a sibling field of
the same object that states the unit (`{"quantity": "2 cups", "unit": "cups"}`). They are refused when reading
them would be a guess: "1,234" for a float, "1.250 €", a unit the field is not in, a percentage for a field whose
scale is unknown, an amount whose object states another unit.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.repairs import Repair, pointer
from resilient_parse.schema import FieldView, ModelView, ScalarView, normalise_key
from resilient_parse.stages.coerce._common import _changed, _refuse

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
_AMBIGUOUS_UNITS = {"m": ("minutes", "meters")}
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
_CURRENCY_CODES = frozenset(_CURRENCY.values())
_NAME_IS_UNIT = frozenset(
    {
        "milliseconds",
        "seconds",
        "secs",
        "minutes",
        "mins",
        "hours",
        "hrs",
        "days",
        "weeks",
        "grams",
        "kilograms",
        "kg",
        "pounds",
        "lbs",
        "km",
        "kilometers",
        "kilometres",
        "miles",
        "meters",
        "metres",
        "bytes",
        "cents",
    }
)
"""One-word field names that are themselves a unit (`days: int` reads "3 days"). Short or two-faced words
(`min` is also "minimum", `m`, `s`) are not in it."""
# A currency symbol or code may come before the number ("$12", "EUR 1,250.00") or after it ("1.250,00 €"), a
# percent sign or a unit word after it. Linear by construction: the number starts with a digit or a point and
# ends with a digit, and every run of spaces sits between two parts that cannot start with a space, so no two
# quantifiers ever compete for the same space.
_SEPARATED_DIGITS = "[\\d.,'\u00a0\u202f ]"
_NUMBER_WITH_UNIT = re.compile(
    r"^(?:(?P<cur>[$€£¥])\s*|(?P<code>[A-Za-z]{3})\s+)?"
    rf"(?P<num>[+-]?(?:[\d.]{_SEPARATED_DIGITS}*)?\d)\s*"
    r"(?:(?P<pct>%)\s*)?(?:(?P<cur_after>[$€£¥])\s*)?(?P<unit>[A-Za-z]+)?\.?$"
)
_DOT_THOUSAND = re.compile(r"^[+-]?\d{1,3}\.\d{3}$")
_EN_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_EU_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+,\d+$|^[+-]?\d{1,3}(?:\.\d{3}){2,}$")
_SPACE_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:[\u00a0\u202f' ]\d{3})+(?:[.,]\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_PLAIN_FLOAT = re.compile(r"^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$")
_PLAIN_INT = re.compile(r"^\s*[+-]?\d+(?:\.\d*)?\s*$")  # "12", "12.0" (Pydantic reads) or "12.5" (it refuses)
_DOLLAR_STYLE_CODES = frozenset({"usd", "gbp", "jpy"})  # currencies written with a thousands comma, decimal point
_RATIO_WORDS = frozenset({"ratio", "fraction", "probability", "share", "rate", "confidence", "likelihood"})
_PERCENT_WORDS = frozenset({"percent", "percentage", "pct"})


def _field_unit(fld: FieldView | None) -> str | None:
    """The unit a field's name declares by its last word (`delay_minutes`, `weight_kg`, `timeout_ms`) or by being
    one (`days`), if any."""
    if fld is None:
        return None
    tokens = normalise_key(fld.name).split("_")
    if len(tokens) < 2:
        return UNIT_WORDS.get(tokens[0]) if tokens[0] in _NAME_IS_UNIT else None
    last = tokens[-1]
    if last in _FIELD_UNIT_SUFFIX:
        return _FIELD_UNIT_SUFFIX[last]
    return UNIT_WORDS.get(last) if len(last) > 1 else None


def _unit_matches(unit: str, expected: str | None) -> bool:
    if expected is None:
        return False
    return expected in _AMBIGUOUS_UNITS.get(unit, (UNIT_WORDS.get(unit),))


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


def _plain_number(raw: str, comma_is_thousands: bool) -> tuple[Decimal | None, str | None]:
    """Read digits with separators. Returns (number, None), or (None, why it is ambiguous), or (None, None).

    "1,234" is a thousands separator for an int field (or after a dollar sign) and ambiguous otherwise."""
    if _EN_THOUSANDS.match(raw):
        if not comma_is_thousands and "." not in raw and raw.count(",") == 1:
            return None, f"{raw!r} could be a thousands separator or a decimal comma"
        cleaned = raw.replace(",", "")
    elif _EU_THOUSANDS.match(raw):
        cleaned = raw.replace(".", "").replace(",", ".")
    elif _SPACE_THOUSANDS.match(raw):
        cleaned = re.sub(r"[\u00a0\u202f' ]", "", raw).replace(",", ".")
    elif _DECIMAL_COMMA.match(raw):
        cleaned = raw.replace(",", ".")
    else:
        cleaned = raw
    try:
        return Decimal(cleaned), None
    except InvalidOperation:
        return None, None


MAX_INT_DIGITS = 4300
"""The longest whole number read (Python's own default limit for converting between int and str)."""


class _Unreadable(Exception):
    """A number read exactly from the text that still cannot honestly become the field's value."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _as_python_number(number: Decimal, py_type: type) -> int | float | str:
    """The value for an int, float or Decimal field, read exactly from `number` or refused (`_Unreadable`).

    An int is whole and at most `MAX_INT_DIGITS` long; a float is finite and does not underflow to zero; a Decimal
    keeps every digit, written as the string Pydantic reads back exactly (the tree goes through JSON)."""
    if py_type is int:
        if number != number.to_integral_value():
            raise _Unreadable("ambiguous_number", "it is not a whole number")
        if number.adjusted() >= MAX_INT_DIGITS:
            raise _Unreadable("number_too_long", f"it has more than {MAX_INT_DIGITS} digits")
        return int(number)
    if py_type is Decimal:
        return format(number, "f")
    if number.adjusted() > _FLOAT_EXPONENT_RANGE or (number and number.adjusted() < -_FLOAT_EXPONENT_RANGE):
        raise _Unreadable("number_out_of_range", "it is out of a float's range")
    result = float(number)
    if not math.isfinite(result) or (result == 0 and number != 0):
        raise _Unreadable("number_out_of_range", "it is out of a float's range")
    return result


_FLOAT_EXPONENT_RANGE = 330  # beyond 1e±330 a float is inf or zero: refused before converting


def _percent(number: Decimal) -> Decimal:
    """`number` / 100, exactly (Decimal division rounds to the context's 28 digits)."""
    sign, digits, exponent = number.as_tuple()
    return Decimal((sign, digits, exponent - 2)) if isinstance(exponent, int) else number


def _currency_and_unit(m: re.Match[str]) -> tuple[str | None, str] | None:
    """The currency (as a lower-case code) and the unit word a number is written with: a symbol before or after
    it (`$12`, `1.250,00 €`) or a code before it (`EUR 1,250.00`). A code after it (`12.99 EUR`) stays a unit, read
    only for a field whose name declares it (`price_eur`): this stage cannot see a sibling `currency` field it
    might contradict. None when a word is not a unit or currency, or two currencies are given."""
    symbols = [m.group("cur"), m.group("cur_after")]
    currencies = [_CURRENCY[s] for s in symbols if s]
    code = (m.group("code") or "").lower()
    if code:
        if code not in _CURRENCY_CODES:
            return None
        currencies.append(code)
    unit = (m.group("unit") or "").lower()
    if unit and unit not in UNIT_WORDS and unit not in _AMBIGUOUS_UNITS:
        return None
    if len(currencies) > 1 or (currencies and unit):
        return None
    return (currencies[0] if currencies else None), unit


def number_from_string(
    value: str, view: ScalarView, fld: FieldView | None, path: str, ctx: CallContext
) -> Coercion | None:
    """`"1,234"` → 1234 for an int, `"$12.50"` → 12.5, `"45 minutes"` → 45 for `*_minutes`, `"45%"` → 0.45 for a
    0..1 field, `"3,5"` → 3.5. Refuses a thousands-or-decimal comma for a float, a unit that is not the field's
    and a percentage for a field whose scale is unknown."""
    if not ctx.policy.allows("number_from_string"):
        return None
    want_int = view.py_type is int
    if (_PLAIN_INT if want_int else _PLAIN_FLOAT).match(value):
        # Pydantic reads it, or (a fraction for an int) refuses it rightly; if it still failed, a constraint did
        return None
    m = _NUMBER_WITH_UNIT.match(value.strip())
    if m is None:
        return None
    read = _currency_and_unit(m)
    if read is None:
        return None
    currency, unit = read
    raw = m.group("num").strip()
    if currency is not None and currency not in _DOLLAR_STYLE_CODES and _DOT_THOUSAND.match(raw):
        # "1.250 €": a euro amount written with a thousands dot, or one and a quarter euros
        return _refuse(path, "ambiguous_number", f"{raw!r} could be a thousands separator or a decimal point", value)
    number, problem = _plain_number(raw, want_int or currency in _DOLLAR_STYLE_CODES)
    if problem:
        return _refuse(path, "ambiguous_number", problem, value)
    if number is None:
        return None
    expected_unit = _field_unit(fld)
    notes: list[str] = []
    if unit:
        if not _unit_matches(unit, expected_unit):
            canonical = UNIT_WORDS.get(unit, unit)
            where = f"the field is in {expected_unit}" if expected_unit else "the field's unit is not known"
            return _refuse(path, "unit_mismatch", f"{value!r} is in {canonical}, but {where}", value)
        notes.append(f"unit matches the field ({expected_unit})")
    if currency is not None:
        if expected_unit is not None and expected_unit != currency:
            message = f"{value!r} is in {currency}, but the field is in {expected_unit}"
            return _refuse(path, "unit_mismatch", message, value)
        notes.append("currency")
    if m.group("pct"):
        name_tokens = set(normalise_key(fld.name).split("_")) if fld else set()
        if _bounded_to_one(fld) or name_tokens & _RATIO_WORDS:
            number = _percent(number)
            notes.append("percent for a 0..1 field")
        elif name_tokens & _PERCENT_WORDS:
            notes.append("percent for a percent field")
        else:
            message = f"{value!r} is a percentage, and the field does not say whether it is 0..1 or 0..100"
            return _refuse(path, "ambiguous_number", message, value)
    try:
        result = _as_python_number(number, view.py_type)
    except _Unreadable as why:
        return _refuse(path, why.kind, f"{_short(raw)} cannot be read for this field: {why.message}", value)
    note = ", ".join(notes) or "digits with separators"
    return _changed(value, result, "number_from_string", path, ctx, confidence=0.9, note=note)


def _short(raw: str, limit: int = 40) -> str:
    return repr(raw) if len(raw) <= limit else repr(raw[: limit - 1] + "…")


_UNIT_FIELD_WORDS = frozenset({"unit", "units", "uom", "currency"})


def _unit_fields(model: ModelView) -> list[FieldView]:
    """Fields that state the unit or currency of the object's amounts (`unit`, `currency`, `price_currency`)."""
    return [f for f in model.fields.values() if normalise_key(f.name).split("_")[-1] in _UNIT_FIELD_WORDS]


def _same_unit(written: str, stated: str) -> bool:
    """`cups` and `cup`, `kg` and `kilograms`, `EUR` and `€`: the same unit or currency, in any case."""
    a, b = written.strip().casefold(), stated.strip().casefold()
    a, b = _CURRENCY.get(a, UNIT_WORDS.get(a, a)), _CURRENCY.get(b, UNIT_WORDS.get(b, b))
    return a == b or a.rstrip("s") == b.rstrip("s")


def read_against_siblings(obj: dict[str, Any], model: ModelView, path: str, ctx: CallContext) -> Coercion | None:
    """Amounts written with a unit or currency, read against the field of the same object that states it.

    `{"quantity": "2 cups", "unit": "cups"}` → 2.0 (the unit is not lost: the object says it), and
    `{"price": "12.99 EUR", "currency": "USD"}` is refused: the object contradicts itself. A number field whose
    own name declares a unit is left to the field-level reading; so is an amount whose object states no unit."""
    units = _unit_fields(model)
    if not units or not ctx.policy.allows("number_from_string"):
        return None
    stated: list[tuple[str, str, bool]] = []  # (key, stated value, whether it is a currency field)
    for fv in units:
        key = next((k for k in fv.input_keys if k in obj and k not in fv.path_keys), None)
        if key is not None and isinstance(obj[key], str) and obj[key].strip():
            stated.append((key, obj[key], normalise_key(fv.name).endswith("currency")))
    if not stated:
        return None
    fixed: dict[str, Any] | None = None
    repairs: list[Repair] = []
    for key, value in obj.items():
        amount = model.field_for_key(key)
        if amount is None or not isinstance(value, str) or amount in units or _field_unit(amount) is not None:
            continue
        view = amount.type
        if not (isinstance(view, ScalarView) and view.py_type in (int, float, Decimal)):
            continue
        read = _amount_and_unit(value)
        if read is None:
            continue
        raw, written, is_currency = read
        here = path + pointer([key])
        about = [(k, v) for k, v, currency in stated if currency == is_currency]
        if len(about) != 1:
            continue
        unit_key, unit_value = about[0]
        if not _same_unit(written, unit_value):
            message = f"{value!r} is in {written}, but the object's {unit_key!r} says {unit_value!r}"
            return _refuse(here, "unit_mismatch", message, value)
        code = _CURRENCY.get(written, written.casefold())
        if is_currency and code not in _DOLLAR_STYLE_CODES and _DOT_THOUSAND.match(raw):
            message = f"{raw!r} could be a thousands separator or a decimal point"
            return _refuse(here, "ambiguous_number", message, value)
        number, problem = _plain_number(raw, view.py_type is int or code in _DOLLAR_STYLE_CODES)
        if problem:
            return _refuse(here, "ambiguous_number", problem, value)
        if number is None:
            continue
        try:
            result = _as_python_number(number, view.py_type)
        except _Unreadable:
            continue  # left to the field-level reading, which says why
        note = f"{written!r} agrees with the object's {unit_key!r}"
        repairs.append(Repair.make("number_from_string", here, value, result, confidence=0.9, note=note))
        fixed = dict(obj) if fixed is None else fixed
        fixed[key] = result
    return Coercion(fixed, tuple(repairs)) if fixed is not None else None


def _amount_and_unit(value: str) -> tuple[str, str, bool] | None:
    """The digits of an amount and the one unit or currency written with it (`2 cups`, `12.99 EUR`, `€5`), and
    whether that is a currency."""
    m = _NUMBER_WITH_UNIT.match(value.strip())
    if m is None or m.group("pct"):
        return None
    before = [w for w in (m.group("cur"), m.group("code")) if w]
    after = [w for w in (m.group("cur_after"), m.group("unit")) if w]
    if len(before) + len(after) != 1:
        return None
    written = (before or after)[0]
    is_currency = written in _CURRENCY or written.casefold() in _CURRENCY_CODES
    if before and not is_currency:
        return None
    return m.group("num").strip(), written, is_currency
