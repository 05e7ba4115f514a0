"""What the correction loop's calls cost: token estimates, the deadline, and what a call that raised had cost."""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from resilient_parse.correction.types import Attempt, Usage
from resilient_parse.errors import ConfigurationError
from resilient_parse.llm.base import is_quota_error

if TYPE_CHECKING:
    pass

Deadline = float | _dt.timedelta | _dt.datetime
_CHARS_PER_TOKEN = 4


def estimate_tokens(
    messages: Sequence[Mapping[str, Any]], text: str, *, tools: Sequence[Mapping[str, Any]] | None = None
) -> Usage:
    """~4 characters per token (+4 per message): used only when an adapter reports no usage. Counts the messages'
    content and tool calls, and the tool definitions sent with them."""
    prompt = sum(_length(m.get("content", "")) + _length(m.get("tool_calls", "")) for m in messages)
    if tools:
        try:
            prompt += len(json.dumps(tools, default=str))
        except Exception:  # a caller's tool dict holding an object that cannot say what it is: not counted
            prompt += _length(tools)
    return Usage(
        prompt_tokens=math.ceil(prompt / _CHARS_PER_TOKEN) + 4 * len(messages),
        completion_tokens=math.ceil(len(text) / _CHARS_PER_TOKEN),
        estimated=True,
    )


def _length(value: Any) -> int:
    """How long a message part is as text; 0 for a caller's object that cannot be written as text (its `__str__`
    or `__repr__` raises): an estimate must never raise in place of the call it estimates."""
    if isinstance(value, str):
        return len(value)
    try:
        return len(str(value))
    except Exception:
        return 0


def _deadline_at(deadline: Deadline | None, clock: Callable[[], float]) -> float | None:
    """The deadline as a reading of `clock`: seconds from now, a timedelta, or an aware/naive UTC datetime."""
    if deadline is None:
        return None
    now = clock()
    if isinstance(deadline, _dt.datetime):
        wall = deadline if deadline.tzinfo else deadline.replace(tzinfo=_dt.timezone.utc)
        return now + (wall - _dt.datetime.now(_dt.timezone.utc)).total_seconds()
    if isinstance(deadline, _dt.timedelta):
        return now + deadline.total_seconds()
    if isinstance(deadline, int | float) and not isinstance(deadline, bool):
        return now + float(deadline)
    raise ConfigurationError(f"deadline must be seconds, a timedelta or a datetime, not {type(deadline).__name__}")


def _is_quota_error(exc: Exception) -> bool:
    """`is_quota_error`, for an exception that may fail to say what it is (a `__str__` or property that raises)."""
    try:
        return is_quota_error(exc)
    except Exception:
        return False


def _with_attempts(exc: Exception, attempts: tuple[Attempt, ...], totals: Mapping[str, Any]) -> Exception:
    """The SDK's own error (a caller's `except openai.RateLimitError` keeps working), with every attempt made so far
    as `.attempts` and a note saying what the call had cost."""
    with contextlib.suppress(Exception):  # an exception type that takes no attributes: the note still says it
        exc.attempts = attempts  # type: ignore[attr-defined]
    note = (
        f"resilient_parse: raised during attempt {len(attempts) - 1} of correct(); "
        f"{totals['calls']} calls, {totals['tokens']} tokens{' (estimated)' if totals['estimated'] else ''} so far "
        "(see .attempts)"
    )
    add_note = getattr(exc, "add_note", None)  # Python 3.11+
    if callable(add_note):
        add_note(note)
    return exc
