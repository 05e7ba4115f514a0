"""What the parser's fast path needs to know about a text `json.loads` reads, without loading the reader.

A number past a float's range (`1e999999`) is valid JSON that json.loads and Pydantic read as infinity, a value
the text never wrote: the fast path and the syntax stage refuse it alike, by the checks here. `NOT_JSON` is the
note the parser leaves the syntax stage when it already knows a text is not JSON.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from resilient_parse.errors import UnrecoverableSyntaxError
from resilient_parse.json.failure import ReadFailure, as_error

__all__ = ["NOT_JSON", "OutOfRange", "decode", "has_big_exponent", "out_of_range", "refuse_out_of_range"]

NOT_JSON = "syntax.not_json"
"""The `CallContext.memo` key under which the parser notes a text it found certainly not JSON (Pydantic's
`json_invalid`, of a kind json.loads refuses too), so `load_json` goes straight to the reader."""

# an exponent of three digits or more (`1e999999`): how a number a text writes lies past a float's range (but for
# a float written with over 308 digits, which only the reader's token check sees). Two patterns with a literal
# first character, which the regex engine searches for quickly (a character class first is four times slower).
_BIG_EXPONENTS = (re.compile(r"e\+?0*+[1-9][0-9]{2}"), re.compile(r"E\+?0*+[1-9][0-9]{2}"))


def has_big_exponent(text: str) -> bool:
    """Whether the text writes an exponent of three digits or more anywhere (in a string too: a cheap, generous
    test). Public so the parser's fast path can send such a text the slow way, where `load_json` refuses a number
    past a float's range."""
    return any(p.search(text) is not None for p in _BIG_EXPONENTS)


class OutOfRange(ValueError):
    """A number the text writes that is past a float's range (it would read as infinity)."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _finite(token: str) -> float:
    value = float(token)
    if math.isinf(value):
        raise OutOfRange(token)
    return value


def decode(text: str) -> Any:
    """json.loads, refusing a number out of a float's range (`1e999999`) instead of reading it as infinity (a
    value the text never wrote). Raises `ValueError` as json.loads does, `OutOfRange` for such a number. Only a
    text that decodes and has a big exponent is decoded a second time, each float checked."""
    value = json.loads(text)
    if has_big_exponent(text):
        json.loads(text, parse_float=_finite)
    return value


def out_of_range(exc: OutOfRange, text: str) -> UnrecoverableSyntaxError:
    at = text.find(exc.token)
    message = f"the number {exc.token[:40]!r} is out of a float's range: read as a float it would be infinity"
    return as_error(ReadFailure(message, max(at, 0), "", "number_out_of_range"))


def refuse_out_of_range(text: str) -> None:
    """Raise `UnrecoverableSyntaxError` (number_out_of_range) when valid JSON text writes a number past a float's
    range (`1e999999`, which float() and Pydantic make infinity), as `load_json` does. For the parser's fast path:
    a cheap, generous test first (`has_big_exponent`, behind a test for the letter), then the exact one — a second
    C-speed parse with each float checked — only for the texts that write such an exponent somewhere."""
    if ("e" not in text and "E" not in text) or not has_big_exponent(text):
        return
    try:
        json.loads(text, parse_float=_finite)
    except OutOfRange as exc:
        raise out_of_range(exc, text) from None
    except (ValueError, RecursionError):
        return
