"""Value coercion stage: turn a value that does not fit its field into one that does — or refuse honestly.

The walker asks about values that do not fit their type; the parser's error-driven second pass also asks about
values that fit by type but that Pydantic rejected (a date format, a constrained number), so every function here
returns None rather than a no-op when the value is already as good as it gets. Every coercion is a lossy repair
(lenient policies only; the policy is asked per kind), recorded with its JSON path, the value before and the value
after. A coercion is refused — an error naming the allowed values or the reason — when it would be a guess: a
hedged enum ("neutral or positive"), a prefix that fits two values, "06/07/2024", "1,234" for a float, a unit that
is not the field's unit, a percentage for a field whose scale is unknown, a string that reads as several items
("eco, bathroom") where a list is expected.
"""

from __future__ import annotations

import datetime as _dt
import enum
import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import TypeAdapter, ValidationError
from rapidfuzz.distance import OSA

from resilient_parse.conform import field_of, fits, tag_key, tag_values
from resilient_parse.context import CallContext, Coercion
from resilient_parse.errors import ErrorDetail
from resilient_parse.hookspecs import hookimpl
from resilient_parse.repairs import Repair, pointer
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
    normalise_key,
)
from resilient_parse.stages.syntax import SyntaxFailure, repair_syntax

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
        "final",
        "tool_input",
        "arguments",
        "args",
        "input",
    }
)
"""Keys models wrap their answer in. A wrapper is unwrapped only when it is not a field of the schema at that
level and what it holds fits the expected type."""

MIN_PREFIX = 3
_HEDGE = re.compile(r"\s*(?:\bor\b|\band\b|/|\||,|;|\bvs\.?\b|\bmaybe\b|\bperhaps\b)\s*", re.IGNORECASE)
_CHOICE_NOISE = re.compile(r"[\s_\-.:;!?'\"`()\[\]]+")
_NEGATING_PREFIXES = ("un", "in", "im", "ir", "il", "non", "dis", "not", "no", "de", "anti", "mis")


def _norm_choice(text: str) -> str:
    return _CHOICE_NOISE.sub("", text.casefold())


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type (True is not 1, "1" is not 1)."""
    return type(a) is type(b) and a == b


def _unique(values: Any) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if not any(_same(v, o) for o in out):
            out.append(v)
    return out


def _changed(before: Any, after: Any, kind: str, path: str, ctx: CallContext, **extra: Any) -> Coercion | None:
    """A coercion recording `kind`, or None when the policy refuses the kind or nothing would change."""
    if _same(before, after) or not ctx.policy.allows(kind):
        return None
    return Coercion(after, (Repair.make(kind, path, before, after, **extra),))


def _refuse(path: str, kind: str, message: str, got: Any) -> Coercion:
    return Coercion(error=ErrorDetail(path=path, kind=kind, message=message, got=got))


# -- enums and Literals -----------------------------------------------------------------------------------------


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
            best_by_value.append((OSA.normalized_similarity(target, s), s, v))
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
# a currency symbol or code may come before the number ("$12", "EUR 1,250.00") or after it ("1.250,00 €")
_NUMBER_WITH_UNIT = re.compile(
    r"^(?:(?P<cur>[$€£¥])|(?P<code>[A-Za-z]{3})\s)?\s*(?P<num>[+-]?[\d.,\u00a0\u202f' ]*\d)\s*(?P<pct>%)?"
    r"\s*(?P<cur_after>[$€£¥])?\s*(?P<unit>[A-Za-z]+)?\.?$"
)
_DOT_THOUSAND = re.compile(r"^[+-]?\d{1,3}\.\d{3}$")
_EN_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_EU_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+,\d+$|^[+-]?\d{1,3}(?:\.\d{3}){2,}$")
_SPACE_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:[\u00a0\u202f' ]\d{3})+(?:[.,]\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")
_PLAIN_FLOAT = re.compile(r"^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$")
_PLAIN_INT = re.compile(r"^\s*[+-]?\d+(?:\.0*)?\s*$|^\s*[+-]?\d+\.\d*[1-9]\d*\s*$")
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


def _as_python_number(number: Decimal, want_int: bool, raw: str) -> tuple[int | float | None, str | None]:
    if want_int:
        if number != number.to_integral_value():
            return None, f"{raw!r} is not a whole number"
        return int(number), None
    return float(number), None


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
            number = number / 100
            notes.append("percent for a 0..1 field")
        elif name_tokens & _PERCENT_WORDS:
            notes.append("percent for a percent field")
        else:
            message = f"{value!r} is a percentage, and the field does not say whether it is 0..1 or 0..100"
            return _refuse(path, "ambiguous_number", message, value)
    result, problem = _as_python_number(number, want_int, raw)
    if problem:
        return _refuse(path, "ambiguous_number", problem, value)
    if result is None:
        return None
    note = ", ".join(notes) or "digits with separators"
    return _changed(value, result, "number_from_string", path, ctx, confidence=0.9, note=note)


# -- dates ----------------------------------------------------------------------------------------------------------

_DATE_ADAPTERS: dict[type, TypeAdapter[Any]] = {
    _dt.date: TypeAdapter(_dt.date),
    _dt.datetime: TypeAdapter(_dt.datetime),
}
_MONTHS = {
    m: i
    for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)
}
_NUMERIC_DATE = re.compile(r"^(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})$")
_WORDY_DATE = re.compile(
    r"^(?:[A-Za-z]+,?\s+)?"  # an optional weekday: "Friday, June 7, 2024"
    r"(?:(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]{3,9})\.?,?\s+(\d{4})"
    r"|([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))$"
)


def date_from_string(value: str, view: ScalarView, path: str, ctx: CallContext) -> Coercion | None:
    """`"June 7, 2024"`, `"7 June 2024"`, `"2024/06/07"`, `"13/07/2024"` → `"2024-06-07"`-style ISO dates.

    A numeric date whose first two parts could both be the month (`"06/07/2024"`) is refused, as is a two-digit
    year: the order is a convention of the writer, not something the text says."""
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
                return _refuse(path, "ambiguous_date", f"{value!r} could be day/month or month/day", value)
            parsed = _safe_date(int(c), second, first) if first > 12 else _safe_date(int(c), first, second)
        else:
            return _refuse(path, "ambiguous_date", f"{value!r} does not say which part is the year", value)
    else:
        w = _WORDY_DATE.match(text)
        if w:
            day, month, year = (w.group(1), w.group(2), w.group(3)) if w.group(1) else w.group(5, 4, 6)
            mon = _MONTHS.get(month[:3].lower())
            if mon is not None and _month_word(month):
                parsed = _safe_date(int(year), mon, int(day))
    if parsed is None:
        return None
    iso = parsed.isoformat()
    return _changed(value, iso, "date_from_string", path, ctx, confidence=0.9)


_MONTH_NAMES = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


def _month_word(word: str) -> bool:
    word = word.lower().rstrip(".")
    return any(f.startswith(word) for f in _MONTH_NAMES) or word == "sept"


def _safe_date(y: int, m: int, d: int) -> _dt.date | None:
    try:
        return _dt.date(y, m, d)
    except ValueError:
        return None


# -- shapes: wrappers, lists, double encoding ----------------------------------------------------------------------

_FENCED = re.compile(r"^\s*```[\w-]*\s*\n(.*?)\n?```\s*$", re.DOTALL)


def decode_json_string(value: str, max_depth: int = 400) -> Any:
    """The JSON value a string holds (an object or array, possibly itself encoded once more), or None.

    Text that is not JSON as written (`"{'query': 'x'}"`, a Python dict's repr) is read by the syntax stage's own
    tokenizer, which fixes only what needs no guess (quotes read as tokens, Python literals, trailing commas); a
    string it cannot read that way stays a string."""
    text = value.strip()
    fenced = _FENCED.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text or text[0] not in '{["':
        return None
    try:
        decoded = json.loads(text)
    except RecursionError:
        return None
    except ValueError:
        decoded = _read_with_tokenizer(text, max_depth)
    if isinstance(decoded, str):
        return decode_json_string(decoded, max_depth)
    return decoded if isinstance(decoded, dict | list) else None


def _read_with_tokenizer(text: str, max_depth: int) -> Any:
    if text[0] == '"':
        return None  # a quoted string that is not JSON is not an encoded object
    try:
        fixed, _ = repair_syntax(text, allow_close=False, max_depth=max_depth)
        return json.loads(fixed)
    except (SyntaxFailure, ValueError, RecursionError):
        return None


def _inner_fits(inner: Any, expected: TypeView) -> bool:
    """Whether a wrapped value is what the schema wants here: an object with at least one of the model's keys
    (exactly or in another spelling), or a list for a list."""
    if isinstance(expected, ModelView):
        return isinstance(inner, dict) and _known_keys(inner, expected) > 0
    if isinstance(expected, ListView | TupleView):
        return isinstance(inner, list)
    return False


def _known_keys(obj: dict[str, Any], model: ModelView) -> int:
    return sum(1 for k in obj if k in model.key_to_field or normalise_key(k) in model.spellings)


def _envelope_content(value: dict[str, Any]) -> list[tuple[str, Any]]:
    """What an API response envelope carries: OpenAI chat (`choices[0].message.content`, or for a tool call both
    the function's `arguments` — the target itself when function calling is used for structured output — and the
    function object `{name, arguments}` — when the target is the call), OpenAI responses
    (`output[…].content[…].text`) or Anthropic messages (`content[…]` text or tool_use `input`)."""
    choices = value.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message") or choices[0].get("delta") or {}
        if isinstance(message, dict):
            calls = message.get("tool_calls")
            if isinstance(calls, list) and len(calls) == 1 and isinstance(calls[0], dict):
                function = calls[0].get("function")
                if isinstance(function, dict) and "arguments" in function:
                    where = "choices/0/message/tool_calls/0/function"
                    return [(where + "/arguments", function["arguments"]), (where, function)]
            if message.get("content") is not None:
                return [("choices/0/message/content", message["content"])]
        return []
    content = value.get("content")
    if value.get("type") == "message" and isinstance(content, list) and len(content) == 1:
        block = content[0]
        if isinstance(block, dict) and block.get("type") == "text":
            return [("content/0/text", block.get("text"))]
        if isinstance(block, dict) and block.get("type") == "tool_use":
            return [("content/0/input", block.get("input"))]
    return []


def unwrap(value: dict[str, Any], expected: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    """{"result": {...}} → {...}; {"status": "ok", "data": [...]} → [...]; an OpenAI or Anthropic response
    envelope → the JSON its message carries. Only when no key is a field of the expected model and the inner
    value fits. Of an envelope's two readings (a tool call's arguments, or the call) the one that names more of
    the model's fields wins; a tie is no answer."""
    if not ctx.policy.allows("unwrap_wrapper") or not value:
        return None
    if isinstance(expected, ModelView) and (
        _known_keys(value, expected) > 0 or any(field_of(key, expected, ctx) is not None for key in value)
    ):
        # the "wrapper" is (partly) the object itself: a key names a field, directly or through an alias table
        # (`{"assignee": {...}}` with `assignee` → `owner` is the field owner, not a wrapper around the model)
        return None
    candidates = _envelope_content(value)
    envelope = bool(candidates)
    if not candidates:
        if len(value) == 1:
            candidates = list(value.items())
        else:
            candidates = [(k, v) for k, v in value.items() if normalise_key(k) in WRAPPER_KEYS]
    fitting: list[tuple[str, Any]] = []
    for wrapper, inner in candidates:
        if isinstance(inner, str):
            decoded = decode_json_string(inner, ctx.policy.max_depth)
            inner = decoded if decoded is not None else inner
        if _inner_fits(inner, expected) and _plausible_wrapper(wrapper, inner, expected, len(value)):
            fitting.append((wrapper, inner))
    if envelope and len(fitting) > 1 and isinstance(expected, ModelView):
        scores = [_known_keys(inner, expected) for _, inner in fitting]
        best = max(scores)
        fitting = [f for f, score in zip(fitting, scores) if score == best]
    if len(fitting) != 1:
        return None
    wrapper, inner = fitting[0]
    note = f"took the value out of {wrapper!r}"
    return _changed(value, inner, "unwrap_wrapper", path, ctx, confidence=0.9, note=note)


def _plausible_wrapper(wrapper: str, inner: Any, expected: TypeView, siblings: int) -> bool:
    if "/" in wrapper:
        return True  # an API envelope
    norm = normalise_key(wrapper)
    if norm in WRAPPER_KEYS:
        return True
    if siblings != 1:
        return False
    if isinstance(expected, ModelView):
        # {"Weather": {...}} for the model Weather, or a single key around an object with every required field
        return norm == normalise_key(expected.name) or (isinstance(inner, dict) and _covers_required(inner, expected))
    return True  # {"steps": [...]} where the list itself is expected


def _covers_required(obj: dict[str, Any], model: ModelView) -> bool:
    required = [f for f in model.fields.values() if f.required]
    return bool(required) and all(any(k in obj for k in f.input_keys) for f in required)


_LIST_SEPARATOR = re.compile(r"[,;\n]|\s(?:and|&)\s", re.IGNORECASE)
_WORDS_SLASH_WORDS = re.compile(r"^[^\W\d_][^\W\d_ ]*(?:\s*/\s*[^\W\d_][^\W\d_ ]*)+$")


def _looks_like_several(text: str) -> bool:
    """Whether a string reads as several items written out (`"eco, bathroom"`, `"salt and pepper"`,
    `"red/blue"`) — not a path or URL with slashes in it."""
    return _LIST_SEPARATOR.search(text) is not None or _WORDS_SLASH_WORDS.match(text.strip()) is not None


def _scalar_to_list(value: Any, expected: ListView, path: str, ctx: CallContext) -> Coercion | None:
    """A single value where a list is expected becomes a one-item list — unless it is a string that reads as
    several items: splitting it would guess at the items, and wrapping it would make one item of several, so that
    is refused."""
    if value is None or isinstance(value, list):
        return None
    scalar_item = isinstance(expected.item, UnionView | ChoiceView | ScalarView) and not isinstance(value, dict)
    if not (fits(value, expected.item) or scalar_item):
        return None
    if isinstance(value, str) and _looks_like_several(value) and ctx.policy.allows("scalar_to_list"):
        message = f"{value!r} may be one item or several written out (a list is expected); refusing to guess"
        return _refuse(path, "ambiguous_list", message, value)
    return _changed(value, [value], "scalar_to_list", path, ctx, confidence=0.9)


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
        result, problem = _as_python_number(number, view.py_type is int, raw)
        if problem or result is None:
            continue
        note = f"{written!r} agrees with the object's {unit_key!r}"
        repairs.append(Repair.make("number_from_string", here, value, result, confidence=0.9, note=note))
        fixed = dict(obj) if fixed is None else fixed
        fixed[key] = result
    return Coercion(fixed, tuple(repairs)) if fixed is not None else None


_AMOUNT = re.compile(
    r"^(?:(?P<before>[$€£¥]|[A-Za-z]{3}\s))?\s*(?P<num>[+-]?[\d.,\u00a0\u202f' ]*\d)\s*(?P<after>[$€£¥]|[A-Za-z]+)?\.?$"
)


def _amount_and_unit(value: str) -> tuple[str, str, bool] | None:
    """The digits of an amount and the one unit or currency written with it (`2 cups`, `12.99 EUR`, `€5`), and
    whether that is a currency."""
    m = _AMOUNT.match(value.strip())
    if m is None or (m.group("before") and m.group("after")):
        return None
    written = (m.group("before") or m.group("after") or "").strip()
    if not written:
        return None
    is_currency = written in _CURRENCY or written.casefold() in _CURRENCY_CODES
    if m.group("before") and not is_currency:
        return None
    return m.group("num").strip(), written, is_currency


PATTERN_CASE_KIND = "pattern_case"
"""Repair kind for a string whose case or surrounding spaces were changed to match the field's pattern."""


def _pattern(fld: FieldView | None) -> re.Pattern[str] | None:
    for meta in fld.metadata if fld is not None else ():
        pattern = getattr(meta, "pattern", None)
        if isinstance(pattern, str):
            try:
                return re.compile(pattern)
            except re.error:  # Pydantic's Rust engine reads patterns Python's cannot
                return None
    return None


def pattern_case(value: str, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    """`"s2"` for a `^S\\d+$` field → `"S2"`: only when exactly one of the string's upper-case, lower-case or
    stripped spellings matches the field's pattern (Pydantic reported the mismatch; this runs in its second
    pass)."""
    pattern = _pattern(fld)
    if pattern is None or pattern.search(value):
        return None
    spellings = _unique(s for s in (value.strip(), value.strip().upper(), value.strip().lower()) if s != value)
    matching = [s for s in spellings if pattern.search(s)]
    if len(matching) != 1:
        return None
    return _changed(value, matching[0], PATTERN_CASE_KIND, path, ctx, confidence=0.85, note="matches the pattern")


def _coerce_scalar(value: Any, view: ScalarView, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    t = view.py_type
    if t is str and isinstance(value, str):
        return pattern_case(value, fld, path, ctx)
    if t in (int, float, Decimal) and isinstance(value, str):
        return number_from_string(value, view, fld, path, ctx)
    if t is str and isinstance(value, int | float) and not isinstance(value, bool):
        return _changed(value, str(value), "number_to_string", path, ctx)
    if t in (_dt.date, _dt.datetime) and isinstance(value, str):
        return date_from_string(value, view, path, ctx)
    return None


def _coerce_union(value: Any, view: UnionView, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    """A discriminated union by its tag; a plain union by the one member a coercion makes the value fit. Several
    members offering different values is not a choice to make here: Pydantic decides (or refuses)."""
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


def _fix_discriminator(value: dict[str, Any], view: UnionView, path: str, ctx: CallContext) -> Coercion | None:
    """A discriminated union whose tag is written in another case or misspelled: `"Search"` or `"serach"` for
    `"search"`. The tag is matched like an enum value (and refused like one)."""
    key = tag_key(value, view)
    tags = tag_values(view)
    if not tags:
        return None
    if key is None:
        return _fix_tag_key(value, view, tuple(tags), path, ctx)
    tag = value[key]
    if any(_same(tag, t) for t in tags):
        return None
    matched = match_choice(tag, ChoiceView(values=tuple(tags)), path + pointer([key]), ctx)
    if matched is None or matched.error is not None:
        return matched
    fixed = dict(value)
    fixed[key] = matched.value
    return Coercion(fixed, matched.repairs)


def _fix_tag_key(
    value: dict[str, Any], view: UnionView, tags: tuple[Any, ...], path: str, ctx: CallContext
) -> Coercion | None:
    """A discriminated union whose tag key is misspelled (`{"tpye": "finish"}` for the discriminator `type`).

    Two facts together make it a repair rather than a guess: the key is one edit (or one swap) from the
    discriminator, and its value is one of the tags as written (or in another case). The rename is recorded as a
    fuzzy key repair. A key that some member declares, or several keys that qualify, are left alone."""
    disc = view.discriminator
    if disc is None or not ctx.policy.allows("key_fuzzy"):
        return None
    models = [o for o in view.options if isinstance(o, ModelView)]
    declared = {k for o in models for k in o.key_to_field}
    written = next((o.fields[disc].primary_key for o in models if disc in o.fields), disc)
    target = normalise_key(disc)
    found: list[tuple[str, Any]] = []
    for key, tag in value.items():
        norm = normalise_key(key)
        if key in declared or len(norm) < MIN_PREFIX or OSA.distance(norm, target) != 1:
            continue
        if any(_same(tag, t) for t in tags):
            found.append((key, tag))
            continue
        matched = match_choice(tag, ChoiceView(values=tags), path, ctx)
        if matched is not None and matched.error is None and all(r.kind == "enum_value" for r in matched.repairs):
            found.append((key, matched.value))
    if len(found) != 1:
        return None
    key, tag = found[0]
    renamed = {(written if k == key else k): (tag if k == key else v) for k, v in value.items()}
    similarity = OSA.normalized_similarity(normalise_key(key), target)
    note = f"the discriminator of the union, one edit away, holding the tag {tag!r}"
    repairs = [Repair.make("key_fuzzy", path + pointer([key]), key, written, confidence=similarity, note=note)]
    if not _same(value[key], tag):
        repairs.append(Repair.make("enum_value", path + pointer([written]), value[key], tag, confidence=1.0))
    if not all(ctx.policy.allows(r.kind) for r in repairs):
        return None
    return Coercion(renamed, tuple(repairs))


class CoerceStage:
    """Built-in plugin for `rp_coerce_value`."""

    @hookimpl(trylast=True)
    def rp_coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        return coerce(value, expected, field, path, ctx)
