"""What the core's stages need to know of tool calls, handed down to them in the call context.

The stages sit below the tools layer (`.importlinter`) and cannot import it, yet their coercions meet tool words: a
model wrapping its answer in `{"arguments": …}`, or a provider's response envelope (OpenAI chat, Anthropic
messages) whose message carries the answer. The tools layer owns both; the parser puts `STAGE_VOCABULARY` in each
call context (`CallContext.tools`), and the stages ask it there. Light on purpose: the parser imports it.
"""

from __future__ import annotations

from typing import Any

from resilient_parse.context import ToolVocabulary
from resilient_parse.tools.names import ARGUMENT_WRAPPER_KEYS


def envelope_content(value: dict[str, Any]) -> list[tuple[str, Any]]:
    """What an API response envelope carries, as (where, value) readings: OpenAI chat (`choices[0].message.content`,
    or for a tool call both the function's `arguments` — the target itself when function calling is used for
    structured output — and the function object `{name, arguments}` — when the target is the call) or an
    Anthropic message (`content[…]` text or tool_use `input`). Empty for anything else."""
    choices = value.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message") or choices[0].get("delta") or {}
        if isinstance(message, dict):
            calls = message.get("tool_calls")
            if isinstance(calls, list) and len(calls) == 1 and isinstance(calls[0], dict):
                function = calls[0].get("function")
                if isinstance(function, dict) and "arguments" in function:
                    where = "choices/0/message/tool_calls/0/function"
                    return [(where + "/arguments", function["arguments"]), (where, function)]
            if message.get("content") is not None:
                return [("choices/0/message/content", message["content"])]
        return []
    content = value.get("content")
    if value.get("type") == "message" and isinstance(content, list) and len(content) == 1:
        block = content[0]
        if isinstance(block, dict) and block.get("type") == "text":
            return [("content/0/text", block.get("text"))]
        if isinstance(block, dict) and block.get("type") == "tool_use":
            return [("content/0/input", block.get("input"))]
    return []


STAGE_VOCABULARY = ToolVocabulary(wrapper_keys=ARGUMENT_WRAPPER_KEYS, envelope_content=envelope_content)
"""The tools layer's words and readers, as every call context of a parser carries them."""
