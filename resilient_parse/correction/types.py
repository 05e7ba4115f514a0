"""The data the correction loop produces: what one LLM call returned, what one attempt cost, and the final result.

Everything here is frozen and JSON-serialisable through `to_dict()`, because attempts go into logs, metrics and
the `attempts` of the error the loop finally raises. The raw text of an answer is never stored — only its
SHA-256 and length — so telemetry can be shipped without leaking model output.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from resilient_parse.correction.tool_calls import ToolCall
from resilient_parse.errors import ConfigurationError, ErrorDetail, ParseError
from resilient_parse.repairs import Repair
from resilient_parse.safe_text import utf8_safe

T = TypeVar("T")

Role = Literal["initial", "correction", "fallback", "default"]
Outcome = Literal["valid", "repaired", "corrected", "fallback", "default"]


@dataclass(frozen=True)
class Usage:
    """Tokens one call consumed. `estimated` is true when the adapter reported nothing and we counted ~4 chars per
    token, so budgets still work with plain functions."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    def __post_init__(self) -> None:
        for name in ("prompt_tokens", "completion_tokens"):
            count = getattr(self, name)
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ConfigurationError(f"Usage.{name} must be an int >= 0, not {count!r}")

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
            "estimated": self.estimated,
        }


@dataclass(frozen=True)
class Completion:
    """What an adapter got back from one call: the text, the tool calls, and whatever the provider said about it.

    `tool_calls` are the calls the model made (OpenAI `tool_calls`, Anthropic `tool_use` blocks), in order; a
    reply made only of tool calls has `text == ""` and is a proper answer, not a malformed one.

    `refusal` is set when the provider flagged the answer as a refusal (OpenAI's `message.refusal`, Anthropic's
    `stop_reason == "refusal"`, a content filter); the loop then stops asking that model.

    Checked when built: a `text` that is not a `str` (None, bytes) is a bug in the code that built it, reported
    there as a `ConfigurationError` rather than as a confusing failure rounds later.
    """

    text: str
    model: str | None = None
    usage: Usage | None = None
    refusal: str | None = None
    finish_reason: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.tool_calls, list):
            object.__setattr__(self, "tool_calls", tuple(self.tool_calls))
        if not isinstance(self.tool_calls, tuple) or not all(isinstance(c, ToolCall) for c in self.tool_calls):
            raise ConfigurationError("Completion.tool_calls must be a tuple of ToolCall")
        if not isinstance(self.text, str):
            hint = " (decode the bytes first)" if isinstance(self.text, bytes | bytearray) else ""
            raise ConfigurationError(f"Completion.text must be a str, not {type(self.text).__name__}{hint}")
        for name in ("model", "refusal", "finish_reason"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ConfigurationError(f"Completion.{name} must be a str or None, not {type(value).__name__}")
        if self.usage is not None and not isinstance(self.usage, Usage):
            raise ConfigurationError(f"Completion.usage must be a Usage or None, not {type(self.usage).__name__}")


class MalformedResponseError(ParseError):
    """The provider answered, but its response could not be read (a broken body, no choices, no text).

    The loop records it as a failed attempt and asks again (it counts against `max_corrections`): a garbled
    response is a transport hiccup, not a reason to give up on the model.
    """

    kind = "malformed_response"

    def __init__(self, message: str, errors: Any = (), *, usage: Usage | None = None, **rest: Any) -> None:
        super().__init__(message, errors, **rest)
        self.usage = usage  # what the provider said the call cost, read before the body was found unreadable


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Attempt:
    """One call to a model (or the `on_exhausted` default) and what came of it.

    `errors` are the problems left after local repair (empty when the attempt produced the object); `repairs`
    are the local repairs made to this answer; `usage` is what the adapter reported (or estimated: a request that
    failed in the SDK still counts its prompt); `tool_calls` how many tool calls the reply made.
    """

    index: int
    role: Role
    model: str
    adapter: str
    text_sha256: str | None = None
    text_length: int = 0
    ok: bool = False
    error_kind: str | None = None
    errors: tuple[ErrorDetail, ...] = ()
    repairs: tuple[Repair, ...] = ()
    usage: Usage | None = None
    latency_s: float = 0.0
    finish_reason: str | None = None
    note: str = ""
    tool_calls: int = 0

    @property
    def tokens(self) -> int:
        return self.usage.total_tokens if self.usage else 0

    def error_signature(self) -> frozenset[tuple[str, str]]:
        """What was wrong, independent of wording and order: two attempts with the same signature made no progress."""
        return frozenset((d.path, d.kind) for d in self.errors)

    def to_dict(self) -> dict[str, Any]:
        summary = {
            "index": self.index,
            "role": self.role,
            "model": self.model,
            "adapter": self.adapter,
            "text_sha256": self.text_sha256,
            "text_length": self.text_length,
            "ok": self.ok,
            "error_kind": self.error_kind,
            "errors": [d.to_dict() for d in self.errors],
            "repairs": [r.to_dict() for r in self.repairs],
            "usage": self.usage.to_dict() if self.usage else None,
            "latency_s": round(self.latency_s, 6),
            "finish_reason": self.finish_reason,
            "note": self.note,
            "tool_calls": self.tool_calls,
        }
        return utf8_safe(summary)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class CorrectionResult(Generic[T]):
    """The object the loop produced, and how it got there.

    - `attempts`: every call made, in order (the primary model, its corrections, fallbacks, the default).
    - `corrections_used`: extra model calls after the first one (what `max_corrections` bounds), fallbacks included.
    - `outcome`: "valid" (first answer valid as given), "repaired" (local repair fixed the first answer),
      "corrected" (the model fixed it after feedback), "fallback" (a fallback model produced it), "default"
      (`on_exhausted` supplied it).
    - `repair_success`: local repair alone saved a round trip (outcome "repaired").
    """

    value: T
    attempts: tuple[Attempt, ...]
    outcome: Outcome
    repairs: tuple[Repair, ...] = ()
    candidate: str | None = None
    usage: Usage = field(default_factory=Usage)

    @property
    def corrections_used(self) -> int:
        return sum(1 for a in self.attempts if a.role in ("correction", "fallback"))

    @property
    def calls(self) -> int:
        return sum(1 for a in self.attempts if a.role != "default")

    @property
    def repair_success(self) -> bool:
        return self.outcome == "repaired"

    @property
    def tokens(self) -> int:
        return self.usage.total_tokens

    def to_dict(self) -> dict[str, Any]:
        summary = {
            "outcome": self.outcome,
            "corrections_used": self.corrections_used,
            "calls": self.calls,
            "repair_success": self.repair_success,
            "usage": self.usage.to_dict(),
            "repairs": [r.to_dict() for r in self.repairs],
            "attempts": [a.to_dict() for a in self.attempts],
        }
        return utf8_safe(summary)  # type: ignore[no-any-return]


def _count(value: Any) -> int | None:
    """A token count as the provider reported it; None for anything but a non-negative int (a negative count,
    a string, a bool is no report at all)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def usage_from_counts(prompt_tokens: Any, completion_tokens: Any) -> Usage | None:
    """Two token counts as a provider reported them: a `Usage`, or None (unreported) unless both are counts."""
    prompt_count, completion_count = _count(prompt_tokens), _count(completion_tokens)
    if prompt_count is None or completion_count is None:
        return None
    return Usage(prompt_count, completion_count)
