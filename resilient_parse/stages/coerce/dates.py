"""Dates written for people (`"June 7, 2024"`, `"7th of June 2024"`, `"2024/06/07"`), rewritten as ISO dates.

Only a date the text pins down is read: a numeric date whose first two parts could each be the month
(`"06/07/2024"`) or whose year is two digits is refused, since the order is the writer's convention, not
something the text says. A string Pydantic already reads is left alone.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

from pydantic import TypeAdapter, ValidationError

from resilient_parse.context import CallContext, Coercion
from resilient_parse.schema import ScalarView
from resilient_parse.stages.coerce._common import _changed, _refuse

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
