"""The OpenAI chat completions API: its adapter, and the reader of an OpenAI-shaped reply (the SDK's object,
LiteLLM's, or the JSON as a dict) that the LiteLLM adapter and plain functions share. The SDK is imported only when
the adapter has to build its own client."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from resilient_parse.llm.base import (
    SDKAdapter,
    check_tool_params,
    completion_of,
    import_sdk,
    malformed,
    read_reply,
    sent_choice,
    usage_of,
)
from resilient_parse.llm.tool_defs import ToolSpec, openai_tool_choice, openai_tools
from resilient_parse.llm.types import Completion, Messages
from resilient_parse.tools.replies import Reply, get, one_reply, openai_chat_replies


def completion_from_openai(response: Any) -> Completion:
    """Read an OpenAI-shaped chat completion (the SDK's object, LiteLLM's, or the JSON as a dict): its first choice,
    as `tools.replies` reads it."""
    usage = usage_of(response, "prompt_tokens", "completion_tokens")
    reply: Reply = read_reply(lambda r: one_reply(openai_chat_replies(r)), response, usage)
    if reply.text is None and not reply.refusal and not reply.calls:
        content = get(get(get(response, "choices")[0], "message"), "content")
        raise malformed("the chat completion has no text", f"message content is {type(content).__name__}", usage=usage)
    return completion_of(reply, usage)


class OpenAIAdapter(SDKAdapter):
    """The OpenAI SDK's chat completions (`OpenAI` or `AsyncOpenAI` client; any OpenAI-compatible server).

    `json_mode=True` sends `response_format={"type": "json_object"}`; `tools=` (Pydantic argument models or tool
    dicts) and `tool_choice=` ("auto", "required", a model or tool name) are sent as OpenAI function tools; other
    keyword arguments (temperature, max_tokens, seed …) are passed to `chat.completions.create` unchanged. Usage
    comes from `response.usage`.
    """

    kind = "openai"

    def __init__(
        self,
        client: Any = None,
        model: str = "gpt-4o-mini",
        *,
        json_mode: bool = False,
        tools: Sequence[ToolSpec] | None = None,
        tool_choice: Any = None,
        **params: Any,
    ):
        check_tool_params(tools, tool_choice, params)
        if client is None:
            client = import_sdk("openai", "openai").OpenAI()
        self.client = client
        self.model = model
        self.json_mode = json_mode
        self.tools = openai_tools(tools) if tools is not None else None
        self.tool_choice = sent_choice(tool_choice, openai_tool_choice, self.tools, params)
        self.params = params
        self.name = f"openai:{model}"

    def _request(self, messages: Messages) -> tuple[Callable[..., Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, **self.params}
        if self.json_mode:
            kwargs.setdefault("response_format", {"type": "json_object"})
        return self.client.chat.completions.create, self._with_tools(kwargs)

    def _read(self, response: Any) -> Completion:
        return completion_from_openai(response)
