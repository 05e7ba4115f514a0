"""The Anthropic Messages API: its adapter (system messages joined, turns of one role merged, `tool_use` answered
with `tool_result` blocks) and the reader of its reply. The SDK is imported only when the adapter has to build its
own client."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from resilient_parse.llm.base import (
    SDKAdapter,
    check_tool_params,
    completion_of,
    import_sdk,
    read_reply,
    sent_choice,
    usage_of,
)
from resilient_parse.llm.tool_defs import ToolSpec, anthropic_tool_choice, anthropic_tools
from resilient_parse.llm.tool_followups import anthropic_tool_followup, text_followup
from resilient_parse.llm.types import Completion, Messages
from resilient_parse.tools.replies import anthropic_reply


def completion_from_anthropic(response: Any) -> Completion:
    """Read an Anthropic Messages API response (the SDK's object or the JSON as a dict), as `tools.replies` reads
    it: text blocks joined, `tool_use` blocks as `ToolCall`s (their `input` is already decoded: kept as its JSON
    text)."""
    usage = usage_of(response, "input_tokens", "output_tokens")
    return completion_of(read_reply(anthropic_reply, response, usage), usage)


def _blocks(content: Any) -> list[Any]:
    return list(content) if isinstance(content, list) else [{"type": "text", "text": str(content)}]


def _merge_turns(messages: Messages) -> Messages:
    """Consecutive messages of one role as one turn (their content as blocks): Anthropic wants the roles to
    alternate, and a re-ask after an empty answer would otherwise send two user turns in a row."""
    merged: Messages = []
    for message in messages:
        if merged and merged[-1].get("role") == message.get("role"):
            last = merged[-1]
            merged[-1] = {**last, "content": [*_blocks(last["content"]), *_blocks(message.get("content"))]}
        else:
            merged.append(message)
    return merged


class AnthropicAdapter(SDKAdapter):
    """The Anthropic SDK's Messages API (`Anthropic` or `AsyncAnthropic` client).

    System messages are joined into the `system` parameter, and consecutive turns of one role are merged, as the
    API wants. `tools=` (Pydantic argument models or tool dicts) and `tool_choice=` are sent in Anthropic's format;
    a re-ask answers `tool_use` blocks with `tool_result` blocks. Usage comes from `response.usage.input_tokens` /
    `output_tokens`; `stop_reason == "refusal"` is reported as a refusal.
    """

    kind = "anthropic"

    def __init__(
        self,
        client: Any = None,
        model: str = "claude-3-5-haiku-latest",
        *,
        max_tokens: int = 1024,
        tools: Sequence[ToolSpec] | None = None,
        tool_choice: Any = None,
        **params: Any,
    ):
        check_tool_params(tools, tool_choice, params)
        if client is None:
            client = import_sdk("anthropic", "anthropic").Anthropic()
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.tools = anthropic_tools(tools) if tools is not None else None
        self.tool_choice = sent_choice(tool_choice, anthropic_tool_choice, self.tools, params)
        self.params = params
        self.name = f"anthropic:{model}"

    def followup(self, completion: Completion, shown: str | None, feedback: str) -> Messages:
        """`tool_use` blocks answered by one user turn of `tool_result` blocks; a text answer as the assistant's
        turn and the feedback as the user's."""
        if completion.tool_calls:
            return anthropic_tool_followup(completion.tool_calls, feedback, completion.text)
        return text_followup(shown, feedback)

    def _request(self, messages: Messages) -> tuple[Callable[..., Any], dict[str, Any]]:
        system = "\n\n".join(str(m["content"]) for m in messages if m.get("role") == "system")
        chat = _merge_turns([m for m in messages if m.get("role") != "system"])
        kwargs: dict[str, Any] = {"model": self.model, "max_tokens": self.max_tokens, "messages": chat, **self.params}
        if system:
            kwargs["system"] = system
        return self.client.messages.create, self._with_tools(kwargs)

    def _read(self, response: Any) -> Completion:
        return completion_from_anthropic(response)
