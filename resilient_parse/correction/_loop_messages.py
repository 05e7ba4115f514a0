"""What the correction loop sends the model besides its feedback: the schema instruction, its answer echoed back."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from resilient_parse.correction.types import Completion
from resilient_parse.errors import ConfigurationError
from resilient_parse.feedback import excerpt, schema_shape
from resilient_parse.llm.base import LLMAdapter
from resilient_parse.llm.types import Messages
from resilient_parse.safe_text import escape_surrogates
from resilient_parse.tools.replies import CUT_OFF

if TYPE_CHECKING:
    pass

_CUT_OFF = CUT_OFF  # the stop reasons of a cut-off reply: one list for every reader (`tools.replies`)
_CUT_OFF_NOTE = "Your previous answer was cut off by the output length limit; keep the corrected answer compact."
MAX_ECHO_CHARS = 20_000
"""At most this much of the model's previous answer is sent back to it (a 50 MB answer is not echoed whole)."""
MAX_ECHO_NAME = 64  # OpenAI refuses a longer tool name; a longer one is no name worth sending back
MAX_ECHO_ID = 64  # provider call ids are a few dozen characters


_INSTRUCTION = "Answer with one JSON value (no prose, no code fence) that matches this JSON Schema:\n"


def schema_instruction(target: Any) -> str:
    """The compact format instruction `instructions="schema"` adds: the target's JSON Schema as the model may see it
    (`$ref`s inlined, no titles, defaults or examples), minified."""
    try:
        schema = TypeAdapter(target).json_schema()
    except Exception as exc:  # a target Pydantic cannot describe as a schema
        raise ConfigurationError(f"instructions='schema' needs a target with a JSON Schema: {exc}") from exc
    return _INSTRUCTION + json.dumps(schema_shape(schema), ensure_ascii=False, separators=(",", ":"))


def _with_instruction(messages: Messages, instruction: str) -> Messages:
    """`instruction` appended to the first system message (a new one first when there is none)."""
    for position, message in enumerate(messages):
        if message.get("role") == "system" and isinstance(message.get("content"), str):
            messages[position] = {**message, "content": f"{message['content']}\n\n{instruction}"}
            return messages
    return [{"role": "system", "content": instruction}, *messages]


def _echoed(completion: Completion) -> Completion:
    """The reply as a re-ask shows it to the model: its text and its calls (names, ids, arguments) together at most
    `MAX_ECHO_CHARS` (the text path's cap), every call kept so each can be answered; what is cut says so. A name is
    cut to `MAX_ECHO_NAME` (OpenAI's limit for a tool name) and an id to `MAX_ECHO_ID`: a hallucinated megabyte of
    name is not sent back."""
    left = MAX_ECHO_CHARS
    text = escape_surrogates(excerpt(completion.text, left))
    left = max(0, left - len(completion.text))
    calls = []
    for call in completion.tool_calls:
        name = escape_surrogates(call.name[:MAX_ECHO_NAME])
        call_id = escape_surrogates(call.id[:MAX_ECHO_ID]) if call.id else call.id
        left = max(0, left - len(name) - len(call_id or ""))
        shown = escape_surrogates(excerpt(call.arguments, left))
        left = max(0, left - len(call.arguments))
        if (name, call_id, shown) == (call.name, call.id, call.arguments):
            calls.append(call)
        else:
            calls.append(replace(call, name=name, id=call_id, arguments=shown))
    return replace(completion, text=text, tool_calls=tuple(calls))


def _tools_of(adapter: LLMAdapter) -> list[dict[str, Any]] | None:
    tools = getattr(adapter, "tools", None)
    return tools if isinstance(tools, list) and tools else None
