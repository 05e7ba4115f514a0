"""LiteLLM's `completion` / `acompletion`: any provider LiteLLM routes to, its replies read as OpenAI's.
LiteLLM is imported on first use, unless the caller passes its own functions (a `litellm.Router`'s methods)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from resilient_parse.llm.base import (
    SDKAdapter,
    check_tool_params,
    copy_messages,
    import_sdk,
    is_unreadable_body,
    malformed,
    sent_choice,
)
from resilient_parse.llm.openai import completion_from_openai
from resilient_parse.llm.tool_defs import ToolSpec, openai_tool_choice, openai_tools
from resilient_parse.llm.types import Completion, Messages


class LiteLLMAdapter(SDKAdapter):
    """LiteLLM's `completion` / `acompletion` (any provider LiteLLM routes to); responses are OpenAI-shaped.

    `completion` and `acompletion` default to LiteLLM's own functions, imported on first use; pass your own (e.g. a
    `litellm.Router`'s methods) to route differently. `tools=` and `tool_choice=` are sent in OpenAI's format,
    which LiteLLM translates for the provider.
    """

    kind = "litellm"

    def __init__(
        self,
        model: str,
        *,
        completion: Callable[..., Any] | None = None,
        acompletion: Callable[..., Awaitable[Any]] | None = None,
        json_mode: bool = False,
        tools: Sequence[ToolSpec] | None = None,
        tool_choice: Any = None,
        **params: Any,
    ):
        check_tool_params(tools, tool_choice, params)
        self.model = model
        self._completion = completion
        self._acompletion = acompletion
        self.json_mode = json_mode
        self.tools = openai_tools(tools) if tools is not None else None
        self.tool_choice = sent_choice(tool_choice, openai_tool_choice, self.tools, params)
        self.params = params
        self.name = f"litellm:{model}"

    def _kwargs(self, messages: Messages) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, **self.params}
        if self.json_mode:
            kwargs.setdefault("response_format", {"type": "json_object"})
        return self._with_tools(kwargs)

    def _request(self, messages: Messages) -> tuple[Callable[..., Any], dict[str, Any]]:
        fn = self._completion or import_sdk("litellm", "litellm").completion
        return fn, self._kwargs(messages)

    async def acomplete(self, messages: Messages) -> Completion:
        fn = self._acompletion or import_sdk("litellm", "litellm").acompletion
        try:
            response = await fn(**self._kwargs(copy_messages(messages)))
        except Exception as exc:
            if is_unreadable_body(exc):
                raise malformed("the response body is not valid", f"{type(exc).__name__}: {exc}") from exc
            raise
        return self._read(response)

    def _read(self, response: Any) -> Completion:
        return completion_from_openai(response)
