"""What an agent gets back from a tool call: a result envelope `{status, data, observation, error}` whose error
says what to do next.

- `input_invalid`: the model's call was wrong (unknown tool, arguments that do not fit); `feedback` tells the
  model how to fix it — re-ask.
- `tool_failed`: the call was fine but the tool could not do it (an exception, a timeout, bad output) — try
  another tool or tell the user.
- `quota_exhausted`: a rate limit or budget ran out — stop the loop now (`result.stop` is true).

No traceback or exception text from inside a tool reaches the model: a tool that wants the model to read a
message raises `ToolFailed(message)` or `ToolInputInvalid(message)`; anything else becomes a generic message
naming only the exception type, and the exception itself stays on the result (`result.exception`) for logs.

`ParsedCall` (a call read, matched and validated: what `calls` produces and `execute` consumes) lives here too,
so that reading and running share it without importing each other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from resilient_parse import Repair
from resilient_parse.plugin_api import RawCall

ErrorKind = Literal["input_invalid", "tool_failed", "quota_exhausted"]
INPUT_INVALID: ErrorKind = "input_invalid"
TOOL_FAILED: ErrorKind = "tool_failed"
QUOTA_EXHAUSTED: ErrorKind = "quota_exhausted"


class ToolFailed(Exception):
    """Raise from a tool: it could not do the job; `message` is safe to show the model."""

    def __init__(self, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable


class ToolInputInvalid(Exception):
    """Raise from a tool: the arguments were well-formed but wrong (a date in the past, an unknown id);
    `message` is shown to the model so it can fix the call."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ToolQuotaExhausted(Exception):
    """Raise from a tool: a quota or rate limit is exhausted; the agent loop should stop."""

    def __init__(self, message: str = "the tool's quota is exhausted") -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ToolError:
    """A typed failure. `code` refines `kind` (unknown_tool, invalid_arguments, no_tool_name, timeout,
    exception, bad_output, not_executable, quota); `feedback` is the message for the model when it can fix it;
    `errors` are the structured problems (JSON paths into the arguments)."""

    kind: ErrorKind
    code: str
    message: str
    feedback: str | None = None
    retryable: bool = False
    errors: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "code": self.code, "message": self.message}
        if self.feedback:
            out["feedback"] = self.feedback
        if self.errors:
            out["errors"] = list(self.errors)
        out["retryable"] = self.retryable
        return out


@dataclass(frozen=True)
class ParsedCall:
    """One call, matched and validated — or with the typed error that says why it cannot run."""

    index: int
    raw: RawCall
    tool: str | None
    arguments: BaseModel | None = None
    repairs: tuple[Repair, ...] = ()
    error: ToolError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.tool is not None and self.arguments is not None

    @property
    def id(self) -> str | None:
        return self.raw.id

    @property
    def format(self) -> str:
        return self.raw.format


@dataclass(frozen=True)
class ToolResult:
    """The envelope for one call. `observation` is the text to put in front of the model next."""

    status: Literal["ok", "error"]
    tool: str | None
    call_id: str | None = None
    data: Any = None
    observation: str = ""
    error: ToolError | None = None
    repairs: tuple[Repair, ...] = ()
    elapsed: float = 0.0
    exception: BaseException | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def stop(self) -> bool:
        """True when the agent loop must stop now (quota exhausted)."""
        return self.error is not None and self.error.kind == QUOTA_EXHAUSTED

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable: for logs, APIs and tool-result messages. Never includes the exception."""
        return {
            "status": self.status,
            "tool": self.tool,
            "call_id": self.call_id,
            "data": _jsonable(self.data),
            "observation": self.observation,
            "error": self.error.to_dict() if self.error is not None else None,
            "repairs": [r.to_dict() for r in self.repairs],
        }


def _jsonable(data: Any) -> Any:
    if isinstance(data, BaseModel):
        return data.model_dump(mode="json")
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return repr(data)
    return data


def observation_text(data: Any, limit: int) -> str:
    """The tool's output as text for the model, cut at `limit` characters."""
    if isinstance(data, str):
        text = data
    else:
        try:
            text = json.dumps(_jsonable(data), ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(data)
    return text if len(text) <= limit else text[: limit - 1] + "…"
