"""A LangChain chat model as an LLM adapter for `correct()` (optional extra: langchain-core).

    plan = correct(ChatModelAdapter(chat_model), messages, Plan)

Our OpenAI-shaped chat messages become LangChain messages (tool re-asks included), and the model's `AIMessage`
becomes a `Completion` read by the one reply reader (`tools.replies`). `as_adapter` builds one for a chat model.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

try:
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from resilient_parse.errors import ConfigurationError

    raise ConfigurationError("ChatModelAdapter needs langchain-core: pip install 'resilient-parse[langchain]'") from exc

from resilient_parse.errors import ConfigurationError, ErrorDetail, ParseError
from resilient_parse.llm.tool_defs import (
    ToolSpec,
    check_tool_choice,
    openai_tool_choice,
    openai_tools,
    tool_name,
)
from resilient_parse.llm.tool_followups import openai_tool_followup, text_followup
from resilient_parse.llm.types import Completion, MalformedResponseError, Messages, usage_from_counts
from resilient_parse.tools.replies import langchain_calls, langchain_finish_reason, langchain_refusal


def _content(message: Mapping[str, Any], position: int) -> str | list[Any]:
    """A message's content as LangChain takes it: text, or a list of content blocks (text or dicts); None is no
    text. Anything else is the caller's mistake, said as a `ConfigurationError` (never LangChain's own error)."""
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(block, str | dict) for block in content):
        return content
    raise ConfigurationError(
        f"message {position} has content of type {type(content).__name__}: a LangChain chat model takes text or a "
        "list of content blocks (text or dicts)"
    )


def _ai_message(message: Mapping[str, Any], position: int = 0) -> AIMessage:
    """An OpenAI-shaped assistant message (the re-ask's, with `tool_calls` whose arguments may be broken JSON) as
    an `AIMessage`: arguments that decode to an object become `tool_calls`, the rest `invalid_tool_calls` (kept as
    written, so the model sees what it sent). `tool_calls` not in OpenAI's shape (not a list, a call that is not
    an object, a `function` with no name) is a `ConfigurationError`."""
    good: list[dict[str, Any]] = []
    bad: list[dict[str, Any]] = []
    items = message.get("tool_calls")
    if items is not None and not isinstance(items, list | tuple):
        raise ConfigurationError(
            f"message {position} has tool_calls of type {type(items).__name__}: a list of calls is needed"
        )
    for item in items or ():
        function = item.get("function") if isinstance(item, Mapping) else None
        name = function.get("name") if isinstance(function, Mapping) else None
        if not isinstance(function, Mapping) or not isinstance(name, str) or not name:
            raise ConfigurationError(
                f"message {position} has a tool call not in OpenAI's shape ({_short(item)}): each call is "
                "{'id': ..., 'type': 'function', 'function': {'name': <text>, 'arguments': <JSON text>}}"
            )
        arguments, call_id = function.get("arguments", ""), item.get("id")
        call_id = call_id if isinstance(call_id, str) else None if call_id is None else _text(call_id)
        try:
            args = json.loads(arguments) if isinstance(arguments, str | bytes | bytearray) else arguments
        except (ValueError, RecursionError):
            args = None
        if isinstance(args, dict):
            good.append({"name": name, "args": args, "id": call_id, "type": "tool_call"})
        else:
            written = "None" if arguments is None else _text(arguments)
            bad.append({"name": name, "args": written, "id": call_id, "error": "not a JSON object"})
    return AIMessage(content=_content(message, position), tool_calls=good, invalid_tool_calls=bad)


def _text(value: Any) -> str:
    """A value as text for a message (`str()` of an odd value may itself fail: then its type's name)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return str(value)
    except Exception:  # an object whose __str__ raises
        return f"<{type(value).__name__}>"


def _repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:  # an object whose __repr__ raises
        return f"<{type(value).__name__}>"


def _short(value: Any) -> str:
    text = _text(value)
    return text if len(text) <= 60 else text[:59] + "…"


def to_langchain_messages(messages: Sequence[Mapping[str, Any]]) -> list[BaseMessage]:
    """Our chat messages (OpenAI-shaped dicts, tool re-asks included) as LangChain messages; a message LangChain
    cannot take (an odd role, content or tool_calls) is a `ConfigurationError` naming it."""
    out: list[BaseMessage] = []
    for position, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise ConfigurationError(f"message {position} is a {type(message).__name__}, not a message dict")
        role = message.get("role")
        try:
            if role in ("system", "developer"):
                out.append(SystemMessage(content=_content(message, position)))
            elif role == "user":
                out.append(HumanMessage(content=_content(message, position)))
            elif role == "assistant":
                out.append(_ai_message(message, position))
            elif role == "tool":
                call_id = _text(message.get("tool_call_id") or "")
                out.append(ToolMessage(content=_content(message, position), tool_call_id=call_id))
            else:
                raise ConfigurationError(
                    f"message {position} has role {_repr(role)}: a LangChain chat model cannot take it"
                )
        except ValidationError as exc:  # a shape LangChain's own message models refuse
            raise ConfigurationError(
                f"message {position} ({_repr(role)}) is not a message a LangChain chat model takes: "
                f"{exc.errors()[0].get('msg', 'invalid') if exc.errors() else 'invalid'}"
            ) from None
    return out


def completion_from_message(message: Any, model: str | None = None) -> Completion:
    """What a chat model's `invoke` returned, as a `Completion`: the text, the tool calls, the usage from
    `usage_metadata` (None when absent: the loop then estimates it, marked as estimated), the finish reason, and the
    provider's refusal signal (`refusal` in `additional_kwargs`, `stop_reason: "refusal"`)."""
    if not isinstance(message, BaseMessage):
        raise MalformedResponseError(
            f"the chat model returned {type(message).__name__}, not a message",
            [ErrorDetail(path="", kind="malformed_response", message=f"got {type(message).__name__}")],
        )
    meta = getattr(message, "usage_metadata", None)
    usage = usage_from_counts(meta.get("input_tokens"), meta.get("output_tokens")) if meta else None
    name = message.response_metadata.get("model_name") or message.response_metadata.get("model") or model
    try:
        calls = langchain_calls(message)
    except ParseError as exc:
        raise MalformedResponseError(exc.message, exc.details, usage=usage) from exc
    return Completion(
        text=message.text,
        model=name if isinstance(name, str) else None,
        usage=usage,
        refusal=langchain_refusal(message),
        finish_reason=langchain_finish_reason(message),
        tool_calls=calls,
    )


def _choice(choice: Any) -> Any:
    """`tool_choice=` as LangChain's `bind_tools` takes it: a model becomes its tool name."""
    return tool_name(choice) if isinstance(choice, type) and issubclass(choice, BaseModel) else choice


def _bind_tools(chat_model: Any, tools: list[dict[str, Any]], options: Mapping[str, Any]) -> Any:
    """`chat_model.bind_tools(...)`, or a `ConfigurationError` for a model that cannot bind tools (LangChain's
    fakes and some providers leave `bind_tools` unimplemented)."""
    bind = getattr(chat_model, "bind_tools", None)
    if not callable(bind):
        raise ConfigurationError(f"the chat model {type(chat_model).__name__} cannot bind tools (no bind_tools)")
    try:
        return bind(tools, **options)
    except NotImplementedError:
        raise ConfigurationError(
            f"the chat model {type(chat_model).__name__} cannot bind tools (its bind_tools is not implemented); "
            "pass a model that supports tool calling, or leave tools= out and read a text answer"
        ) from None


def _bound_tools(runnable: Any) -> list[dict[str, Any]] | None:
    """The tool definitions a `RunnableBinding` (what `bind_tools` returns) sends, as the provider's dicts; None
    when nothing binds any. Bindings nest (`bind_tools(...).bind(...)`): the innermost tools are the ones sent
    unless an outer binding replaces them."""
    for _ in range(16):  # bindings of bindings, never a cycle followed forever
        kwargs = getattr(runnable, "kwargs", None)
        tools = kwargs.get("tools") if isinstance(kwargs, Mapping) else None
        if isinstance(tools, Sequence) and not isinstance(tools, str | bytes):
            specs = [t for t in tools if isinstance(t, Mapping) or (isinstance(t, type) and issubclass(t, BaseModel))]
            return openai_tools(specs) or None
        inner = getattr(runnable, "bound", None)
        if inner is None or inner is runnable:
            return None
        runnable = inner
    return None


class ChatModelAdapter:
    """A LangChain chat model (or any runnable that takes messages and returns an `AIMessage`, such as
    `chat_model.bind_tools([...])`) as an LLM adapter for `correct()`.

    `tools=` (Pydantic argument models or tool dicts) and `tool_choice=` are bound with the model's own
    `bind_tools`. A re-ask after tool calls answers each call with a `ToolMessage` (OpenAI's shape, which every
    LangChain chat model translates for its provider); provider errors are left as they are.
    """

    kind = "langchain"

    def __init__(self, chat_model: Any, *, tools: Sequence[ToolSpec] | None = None, tool_choice: Any = None) -> None:
        if not (hasattr(chat_model, "invoke") and hasattr(chat_model, "ainvoke")):
            raise ConfigurationError(f"a LangChain chat model has invoke/ainvoke; got {type(chat_model).__name__}")
        if tool_choice is not None and tools is None:
            raise ConfigurationError("tool_choice= needs tools= to choose from")
        self.chat_model = chat_model
        self.tools = openai_tools(tools) if tools is not None else None  # what is sent (the loop estimates with it)
        if self.tools is not None and tool_choice is not None:
            check_tool_choice(openai_tool_choice(tool_choice), self.tools)
        if self.tools is not None:
            options = {} if tool_choice is None else {"tool_choice": _choice(tool_choice)}
            self.runnable = _bind_tools(chat_model, self.tools, options)
        else:
            self.runnable = chat_model
            self.tools = _bound_tools(chat_model)  # `model.bind_tools([...])`: its tools are sent, so they count
        bound = getattr(chat_model, "bound", chat_model)  # a RunnableBinding wraps the model
        model = getattr(bound, "model_name", None) or getattr(bound, "model", None)
        self.model = model if isinstance(model, str) else type(bound).__name__
        self.name = f"langchain:{self.model}"

    def __repr__(self) -> str:
        return f"ChatModelAdapter({self.model!r})"

    def followup(self, completion: Completion, shown: str | None, feedback: str) -> Messages:
        """A `tool` message per call when the model made calls, else the answer and the feedback as turns."""
        if completion.tool_calls:
            return openai_tool_followup(completion.tool_calls, feedback, completion.text)
        return text_followup(shown, feedback)

    def complete(self, messages: Messages) -> Completion:
        return completion_from_message(self.runnable.invoke(to_langchain_messages(messages)), self.model)

    async def acomplete(self, messages: Messages) -> Completion:
        return completion_from_message(await self.runnable.ainvoke(to_langchain_messages(messages)), self.model)
