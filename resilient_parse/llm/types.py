"""What one LLM call returns, shared by every provider adapter and the correction loop above them: the chat
messages sent, the `Completion` read back, its token `Usage`, and `MalformedResponseError` for a reply that
could not be read. They live below the loop so an adapter never has to import it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from resilient_parse.errors import ConfigurationError, ParseError
from resilient_parse.tools.calls import ToolCall

Message = dict[str, Any]
Messages = list[Message]


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
