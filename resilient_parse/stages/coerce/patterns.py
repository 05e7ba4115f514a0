"""Strings that miss the field's regex pattern only by case or surrounding spaces (`"s2"` for `^S\\d+$`).

This runs in the parser's error-driven second pass, after Pydantic reported the mismatch, and repairs only when
exactly one respelling matches. The pattern is checked by Pydantic's own engine (Rust's regex, linear time), never
by Python's backtracking `re`: a developer's pattern that is exponential under `re` (`^([a-z0-9]+-?)+$`) must
not become a way for model text to stall the parser. A field whose pattern Pydantic itself runs under `re`
(`regex_engine="python-re"`, a compiled `re.Pattern`) has no `FieldView.linear_pattern` and is left alone.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic_core import SchemaError, SchemaValidator, core_schema

from resilient_parse.context import CallContext, Coercion
from resilient_parse.schema import FieldView
from resilient_parse.stages.coerce._common import _changed, _unique

PATTERN_CASE_KIND = "pattern_case"
"""Repair kind for a string whose case or surrounding spaces were changed to match the field's pattern."""


@lru_cache(maxsize=512)
def pattern_checker(pattern: str) -> SchemaValidator | None:
    """Pydantic-core's validator for `pattern` (its Rust engine, search semantics as for `Field(pattern=...)`).

    Cached by the pattern, a schema-side string (never model text); None when the Rust engine cannot read it."""
    try:
        return SchemaValidator(core_schema.str_schema(pattern=pattern, regex_engine="rust-regex"))
    except SchemaError:
        return None


def pattern_case(value: str, fld: FieldView | None, path: str, ctx: CallContext) -> Coercion | None:
    """`"s2"` for a `^S\\d+$` field → `"S2"`: only when exactly one of the string's upper-case, lower-case or
    stripped spellings matches the field's pattern (Pydantic reported the mismatch; this runs in its second
    pass)."""
    checker = pattern_checker(fld.linear_pattern) if fld is not None and fld.linear_pattern is not None else None
    if checker is None or checker.isinstance_python(value):
        return None
    spellings = _unique(s for s in (value.strip(), value.strip().upper(), value.strip().lower()) if s != value)
    matching = [s for s in spellings if checker.isinstance_python(s)]
    if len(matching) != 1:
        return None
    return _changed(value, matching[0], PATTERN_CASE_KIND, path, ctx, confidence=0.85, note="matches the pattern")
