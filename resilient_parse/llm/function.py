"""A plain function as an LLM: anything callable with chat messages that returns text (or awaits to text), or a
`Completion`, an SDK's response object or a LangChain message — each read by its provider's reader."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from typing import Any

from resilient_parse.errors import ConfigurationError
from resilient_parse.llm.anthropic import completion_from_anthropic
from resilient_parse.llm.base import (
    completion_of,
    copy_messages,
    malformed,
    need_sync,
    openai_followup,
    read_reply,
    usage_of,
)
from resilient_parse.llm.openai import completion_from_openai
from resilient_parse.llm.tool_defs import ToolSpec, openai_tools
from resilient_parse.llm.types import Completion, Messages
from resilient_parse.tools.replies import get, responses_reply


def to_completion(result: Any) -> Completion:
    """What a plain function returned, as a `Completion`: text, a `Completion`, an SDK response object, or a
    LangChain message."""
    if isinstance(result, Completion):
        return result
    if isinstance(result, str):
        return Completion(text=result)
    if isinstance(result, bytes | bytearray):
        try:
            return Completion(text=bytes(result).decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise malformed("the answer is not valid UTF-8", str(exc)) from None
    message = getattr(sys.modules.get("langchain_core.messages.base"), "BaseMessage", None)
    if isinstance(message, type) and isinstance(result, message):  # a LangChain chat model's answer
        from resilient_parse.llm.langchain import completion_from_message  # the langchain extra, when used

        return completion_from_message(result)
    if get(result, "choices") is not None:
        return completion_from_openai(result)
    if get(result, "content") is not None and get(result, "stop_reason", "") != "":
        return completion_from_anthropic(result)
    if get(result, "object") == "response" and get(result, "output") is not None:  # the Responses API's
        return completion_of(
            read_reply(responses_reply, result, None), usage_of(result, "input_tokens", "output_tokens")
        )
    # None, a dict of the answer's fields, any other object: a bug in the caller's function, not a model's slip
    raise ConfigurationError(
        f"the llm returned {type(result).__name__}, not text: a plain function returns the model's text (a str), "
        "a Completion, or the SDK's response object"
    )


def _check_takes_messages(fn: Callable[..., Any], name: str) -> None:
    """A function that cannot be called with the messages alone is a mistake in the call to `correct`, said at
    once as a `ConfigurationError`, never a TypeError from inside the loop (a signature Python cannot read passes)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind([])
    except TypeError:
        raise ConfigurationError(
            f"llm {name!r} must take the chat messages as its one positional argument; its signature is {signature}"
        ) from None


class FunctionAdapter:
    """Any callable taking chat messages and returning text (or a `Completion`), sync or async. Re-asks after tool
    calls come in the OpenAI chat shape (an assistant turn with `tool_calls`, a `tool` message per call), the
    shape plain chat-message functions most often speak.

    `tools=` (Pydantic argument models or tool dicts, as the SDK adapters take) declares the tools the function's
    own request sends — the adapter sends nothing itself. With them, a call to another of those tools is a wrong
    tool, never a typo of the target's; without them, nothing says which tools exist, so only a slip that cannot
    make another word is repaired as a typo (`correction.tool_calls`)."""

    kind = "function"

    def __init__(
        self, fn: Callable[[Messages], Any], name: str | None = None, *, tools: Sequence[ToolSpec] | None = None
    ) -> None:
        if not callable(fn):
            raise ConfigurationError(f"llm must be callable, got {type(fn).__name__}")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", None) or type(fn).__name__
        _check_takes_messages(fn, self.name)
        self.tools = openai_tools(tools) if tools is not None else None

    def __repr__(self) -> str:
        return f"FunctionAdapter({self.name!r})"

    def followup(self, completion: Completion, shown: str | None, feedback: str) -> Messages:
        return openai_followup(completion, shown, feedback)

    def complete(self, messages: Messages) -> Completion:
        result = self.fn(copy_messages(messages))
        need_sync(result, f"llm {self.name!r}")
        return to_completion(result)

    async def acomplete(self, messages: Messages) -> Completion:
        result = self.fn(copy_messages(messages))
        if inspect.isawaitable(result):
            result = await result
        return to_completion(result)
