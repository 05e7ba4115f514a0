"""Strings that miss the field's regex pattern only by case or surrounding spaces (`"s2"` for `^S\\d+$`).

This runs in the parser's error-driven second pass, after Pydantic reported the mismatch, and repairs only when
exactly one respelling matches.
"""

from __future__ import annotations

import re

from resilient_parse.context import CallContext, Coercion
from resilient_parse.schema import FieldView
from resilient_parse.stages.coerce._common import _changed, _unique

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
