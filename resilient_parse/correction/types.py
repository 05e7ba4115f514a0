"""The data the correction loop produces: what one attempt cost, and the final result. What one LLM call returned
(`Completion`, `Usage`, `MalformedResponseError`) lives in `llm.types`, below the adapters, and is re-exported here.

Everything here is frozen and JSON-serialisable through `to_dict()`, because attempts go into logs, metrics and
the `attempts` of the error the loop finally raises. The raw text of an answer is never stored — only its
SHA-256 and length — so telemetry can be shipped without leaking model output.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from resilient_parse.errors import ErrorDetail
from resilient_parse.llm.types import Completion, MalformedResponseError, Usage, usage_from_counts
from resilient_parse.repairs import Repair
from resilient_parse.safe_text import utf8_safe

T = TypeVar("T")

Role = Literal["initial", "correction", "fallback", "default"]
Outcome = Literal["valid", "repaired", "corrected", "fallback", "default"]

__all__ = [
    "Attempt",
    "Completion",
    "CorrectionResult",
    "MalformedResponseError",
    "Outcome",
    "Role",
    "Usage",
    "text_digest",
    "usage_from_counts",
]


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
