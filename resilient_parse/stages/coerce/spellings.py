"""A number where a string is expected becomes the string the text wrote (`{"version": 1.10}` → "1.10").

The JSON reader turns `1.10` into the float 1.1 and `1e5` into 100000.0, so `str()` of the value is not what the
model wrote. The spelling is looked up in the text instead: every run of number characters in it is read once,
into a table from the number a run denotes to the ways the text spells that number. A number spelt one way
becomes that string; one spelt several ways (`1.1` here, `1.10` there) is refused as ambiguous; one the text does
not spell at all gets nothing (Pydantic's own error stands) — except a whole number when no text is known, whose
JSON spelling is unique. The table is built the first time a call needs it and dropped with the call's context.
"""

from __future__ import annotations

import re
import weakref
from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.stages.coerce._common import _changed, _refuse

NUMBER_TO_STRING_KIND = "number_to_string"
MAX_SPELLING = 4300
"""The longest run read as a number (Python's own limit for whole numbers written as text)."""

_RUN = re.compile(r"[\w.+-]+")  # a maximal run: no backtracking, each character scanned once
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WHOLE = re.compile(r"[+-]?[0-9]+")

NumberKey = tuple[type, Any]
Spellings = dict[NumberKey, set[str]]
_TABLES: dict[int, tuple[weakref.ref[CallContext], Spellings]] = {}


def _key(number: int | float) -> NumberKey:
    """How a number is looked up: whole numbers by their canonical digits (exact at any size), floats by value."""
    return (int, str(number)) if isinstance(number, int) else (float, number)


def _spelled(run: str) -> NumberKey | None:
    if len(run) > MAX_SPELLING or _NUMBER.fullmatch(run) is None:
        return None
    if _WHOLE.fullmatch(run):
        digits = run.lstrip("+-").lstrip("0") or "0"
        return (int, "-" + digits if run.startswith("-") and digits != "0" else digits)
    return (float, float(run))


def spellings_in(text: str) -> Spellings:
    """Every number the text spells, each with the spellings it is written in (one pass over the text)."""
    table: Spellings = {}
    for match in _RUN.finditer(text):
        key = _spelled(match.group())
        if key is not None:
            table.setdefault(key, set()).add(match.group())
    return table


def _table(ctx: CallContext) -> Spellings:
    """The call's table, built on first use and kept only as long as the call's context lives."""
    entry = _TABLES.get(id(ctx))
    if entry is not None and entry[0]() is ctx:
        return entry[1]
    table = spellings_in(ctx.text)
    key = id(ctx)
    try:
        ref = weakref.ref(ctx, lambda _: _TABLES.pop(key, None))
    except TypeError:  # a context that cannot be referenced weakly: no memo, the table is built per value
        return table
    _TABLES[key] = (ref, table)
    return table


def number_as_written(value: int | float, path: str, ctx: CallContext) -> Coercion | None:
    """`1.10` for a str field → "1.10", `1e5` → "1e5", `12345` → "12345": the text's own spelling, or a refusal
    when the text spells the number in several ways, or nothing when it does not spell it."""
    if not ctx.policy.allows(NUMBER_TO_STRING_KIND):
        return None
    if not ctx.text:
        return _changed(value, str(value), NUMBER_TO_STRING_KIND, path, ctx) if isinstance(value, int) else None
    try:
        found = _table(ctx).get(_key(value), set())
    except ValueError:  # a whole number too long to write out: the text cannot have spelt it as JSON either
        return None
    if len(found) > 1:
        ways = " and ".join(repr(s) for s in sorted(found)[:3])
        message = f"{value!r} is a number where a string is expected, and the text writes it as {ways}"
        return _refuse(path, "ambiguous_number", message, value)
    if not found:
        return None
    return _changed(value, next(iter(found)), NUMBER_TO_STRING_KIND, path, ctx)
