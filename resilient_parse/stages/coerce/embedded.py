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

_FENCE_INFO = re.compile(r"[\w-]*")  # the language tag after the opening fence: ```json


def _fenced_body(text: str) -> str | None:
    r"""What a markdown code fence holds when the fence is the whole (stripped) text: ```json ... ```.

    Read by splitting at the first line break rather than with one regex: `[\w-]*\s*\n(.*?)` lets the spaces
    and line breaks after the tag be split between two quantifiers, and a value made of line breaks backtracked
    quadratically."""
    if not text.startswith("```"):
        return None
    head, newline, rest = text[3:].partition("\n")
    if not newline or not rest.endswith("```") or _FENCE_INFO.fullmatch(head.rstrip()) is None:
        return None
    return rest[:-3]


def decode_json_string(value: str, max_depth: int = 400) -> Any:
    """The JSON value a string holds (an object or array, possibly itself encoded once more), or None.

    Text that is not JSON as written (`"{'query': 'x'}"`, a Python dict's repr) is read by the syntax stage's own
    tokenizer, which fixes only what needs no guess (quotes read as tokens, Python literals, trailing commas); a
    string it cannot read that way stays a string."""
    text = value.strip()
    fenced = _fenced_body(text)
    if fenced is not None:
        text = fenced.strip()
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
