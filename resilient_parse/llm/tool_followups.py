"""Answering a tool call: the messages a re-ask appends after the caller's own, in each API's shape — OpenAI's
assistant `tool_calls` followed by one `tool` message per call, Anthropic's `tool_use` blocks followed by one user
turn of `tool_result` blocks — so a bad call is answered the way the API expects, never with two user turns in a
row; and the feedback's closing line for an answer given as calls."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from resilient_parse.tools.calls import ToolCall


def _answer_ids(calls: Sequence[ToolCall]) -> list[str]:
    """The id each call of one turn is answered under, unique within the turn: the provider's id the first time it
    appears, else `call_<index>` (with a suffix when that is taken). Ids `call_1` and None at index 1 would
    otherwise both be `call_1`, and the API refuses the re-ask (or pairs the results wrongly)."""
    taken: set[str] = set()
    kept: list[bool] = []
    for call in calls:
        keep = bool(call.id) and call.id not in taken
        if keep and call.id:
            taken.add(call.id)
        kept.append(keep)
    suffix: dict[str, int] = {}
    ids: list[str] = []
    for call, keep in zip(calls, kept, strict=True):
        if keep and call.id:
            ids.append(call.id)
            continue
        base = f"call_{call.index}"
        made = base if base not in taken else ""
        while not made:
            suffix[base] = suffix.get(base, 0) + 1
            made = f"{base}_{suffix[base]}" if f"{base}_{suffix[base]}" not in taken else ""
        taken.add(made)
        ids.append(made)
    return ids


def _replies(calls: Sequence[ToolCall], feedback: str) -> list[tuple[str, ToolCall, str]]:
    """Each call's answer id and what its result says: the first holds the feedback (whose paths name the calls),
    the others point to it, so a parallel turn does not repeat the same feedback per call."""
    ids = _answer_ids(calls)
    see = f"See the result of call {ids[0]}: it lists the problems with this turn's tool calls."
    return [(ids[i], call, feedback if i == 0 else see) for i, call in enumerate(calls)]


_TEXT_INSTRUCTION = "Reply with the complete corrected "
_CALL_AGAIN = "Call the tool again with the complete corrected arguments."
_CALL_ALL_AGAIN = (
    "Paths start with the call's position (/0 is your first call). Make all the tool calls again, each with its "
    "complete corrected arguments."
)


def for_tool_calls(feedback: str, *, many: bool) -> str:
    """The built-in feedback ends by asking for a JSON reply; an answer given as tool calls is asked to call the
    tool again instead (a plugin's own closing paragraph is left as it wrote it)."""
    head, _, last = feedback.rpartition("\n\n")
    if not head or not last.startswith(_TEXT_INSTRUCTION):
        return feedback
    return f"{head}\n\n{_CALL_ALL_AGAIN if many else _CALL_AGAIN}"


def text_followup(shown: str | None, feedback: str) -> list[dict[str, Any]]:
    """The plain re-ask: the previous answer as the assistant's turn (when there was one), the feedback as the
    user's."""
    extra: list[dict[str, Any]] = []
    if shown:
        extra.append({"role": "assistant", "content": shown})
    extra.append({"role": "user", "content": feedback})
    return extra


def _openai_call(call_id: str, call: ToolCall) -> dict[str, Any]:
    """A call as the assistant message replays it: a function call, or a custom tool's call with its input."""
    if call.kind == "custom":
        return {"id": call_id, "type": "custom", "custom": {"name": call.name, "input": call.arguments}}
    return {"id": call_id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}


def openai_tool_followup(calls: Sequence[ToolCall], feedback: str, text: str = "") -> list[dict[str, Any]]:
    """OpenAI's shape: the assistant message with its `tool_calls` as made, then one `tool` message per call."""
    if not calls:
        return text_followup(text, feedback)
    replies = _replies(calls, feedback)
    assistant: dict[str, Any] = {
        "role": "assistant",
        "content": text or None,
        "tool_calls": [_openai_call(i, c) for i, c, _ in replies],
    }
    tool_messages = [{"role": "tool", "tool_call_id": i, "content": said} for i, _, said in replies]
    return [assistant, *tool_messages]


def _input_of(call: ToolCall) -> dict[str, Any] | None:
    """A call's arguments as the object Anthropic's `tool_use.input` must be; None when they are no object."""
    try:
        value = json.loads(call.arguments)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def anthropic_tool_followup(calls: Sequence[ToolCall], feedback: str, text: str = "") -> list[dict[str, Any]]:
    """Anthropic's shape: the assistant's `tool_use` blocks as made, then one user turn of `tool_result` blocks
    (`is_error: true`). An input that is no JSON object cannot be shown as `tool_use.input` (which must be one):
    the block gets `{}` and its result says, as text, what the model sent — no object is made up for it."""
    if not calls:
        return text_followup(text, feedback)
    replies = _replies(calls, feedback)
    inputs = [_input_of(c) for c in calls]
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    blocks += [
        {"type": "tool_use", "id": i, "name": c.name, "input": {} if obj is None else obj}
        for (i, c, _), obj in zip(replies, inputs, strict=True)
    ]
    results = [
        {
            "type": "tool_result",
            "tool_use_id": i,
            "content": said
            if obj is not None
            else f"The input of this call is not a JSON object; you sent:\n{c.arguments}\n\n{said}",
            "is_error": True,
        }
        for (i, c, said), obj in zip(replies, inputs, strict=True)
    ]
    return [{"role": "assistant", "content": blocks}, {"role": "user", "content": results}]


__all__ = ["anthropic_tool_followup", "for_tool_calls", "openai_tool_followup", "text_followup"]
