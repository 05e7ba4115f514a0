"""Text the library renders (errors, feedback, reports) always encodes as UTF-8 and stays short.

The lowest layer: errors, repairs and the feedback writer all render model text through these.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["escape_surrogates", "json_safe", "shorten", "utf8_safe"]

_MAX_GOT_CHARS = 200
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_surrogates(text: str) -> str:
    """`text` with every lone surrogate (a `\\ud800` escape the model wrote) spelled as that escape, so whatever we
    render always encodes as UTF-8. Inside a JSON string literal the escape reads back as the same value."""
    return text if text.isascii() else _LONE_SURROGATE.sub(_escape, text)


def utf8_safe(value: Any) -> Any:
    """A fresh copy of a rendered structure (dicts, lists, tuples, strings) with `escape_surrogates` applied to every
    string, keys included. Meant for the small dicts `to_dict()` builds, never for a model's whole tree."""
    if isinstance(value, str):
        return escape_surrogates(value)
    if isinstance(value, dict):
        return {utf8_safe(k): utf8_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [utf8_safe(v) for v in value]
    return value


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def json_safe(value: Any, *, limit: int = _MAX_GOT_CHARS) -> Any:
    """A fresh, UTF-8-safe copy of `value` if it is small and JSON-serialisable, else a short printable stand-in.
    Too deep to encode counts as not serialisable: rendering an error must never fail."""
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except RecursionError:
            text = f"<{type(value).__name__}>"
        return escape_surrogates(shorten(text, limit))
    if len(encoded) <= limit:
        return utf8_safe(value)
    return escape_surrogates(shorten(encoded, limit))
