"""JSON inside a string: a tool call's `arguments` sent as text, an object encoded twice, a fenced block.

The dispatcher decodes such a string before anything else looks at the value, and `shapes` decodes what a wrapper
holds, so the reading lives here, apart from both. Text that is not JSON as written (a Python dict's repr) goes
through the syntax stage's tokenizer, which fixes only what needs no guess.
"""

from __future__ import annotations

import json
import re
from typing import Any

from resilient_parse.stages.syntax import SyntaxFailure, repair_syntax

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
