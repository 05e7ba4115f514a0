"""LangChain drop-ins (optional extra: langchain-core): an output parser for chains, and an adapter so `correct()`
can call a LangChain chat model.

    chain = prompt | chat_model | ResilientOutputParser(target=Plan)
    chain.invoke(...)          # a Plan
    chain.stream(...)          # partial Plans (`streaming.partial_type(Plan)`) as the text arrives, then the Plan
    chain = prompt | chat_model.bind_tools([GetWeather]) | ResilientOutputParser(target=GetWeather)

    plan = correct(ChatModelAdapter(chat_model), messages, Plan)

The parser reads an `AIMessage`'s tool calls when the target is an argument model (or a union, or `list[...]`):
`tool_calls` (arguments LangChain decoded) and `invalid_tool_calls` (the raw argument text LangChain could not
decode — exactly what local repair is for) both go through `tool_calls.read_reply_calls`; prose beside the calls is
fine, but text that answers the target differently is an `AmbiguousMatchError` (the message says two things), and a
message that refuses beside its calls — text that refuses, takes the call back or asks back, or the provider's own
refusal signal (OpenAI's `refusal`, kept in `additional_kwargs`; Anthropic's `stop_reason: "refusal"`) — is a
`RefusalError` (raised as `LangChainRefusalError`, both it and our `LangChainParseError`).
Otherwise it reads the text. Streaming feeds the text pieces to `Parser.stream` as they arrive (linear in the text
however it is cut); streamed tool calls are read once the message is complete (no partials for them here:
`tool_streaming` streams partial arguments from an OpenAI stream).

On failure it raises `LangChainParseError`, which is both our `ParseError` (errors with JSON Pointers, repairs) and
LangChain's `OutputParserException` with `send_to_llm=True` and the feedback message as `observation`, so
LangChain's own retry and fixing parsers work unchanged.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

try:
    from langchain_core.exceptions import OutputParserException
    from langchain_core.messages import (
        AIMessage,
        BaseMessage,
        BaseMessageChunk,
        HumanMessage,
        SystemMessage,
        ToolMessage,
    )
    from langchain_core.output_parsers import BaseTransformOutputParser
    from langchain_core.outputs import ChatGeneration, Generation
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from resilient_parse.errors import ConfigurationError

    raise ConfigurationError(
        "ResilientOutputParser needs langchain-core: pip install 'resilient-parse[langchain]'"
    ) from exc

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from resilient_parse.api import default_parser
from resilient_parse.correction.adapters import usage_from_counts
from resilient_parse.correction.tool_calls import ToolCall, read_reply_calls, tool_target
from resilient_parse.correction.tool_defs import (
    ToolSpec,
    check_tool_choice,
    openai_tool_choice,
    openai_tools,
    sent_tool_names,
    tool_name,
)
from resilient_parse.correction.tool_followups import openai_tool_followup, text_followup
from resilient_parse.correction.types import Completion, MalformedResponseError
from resilient_parse.errors import (
    ConfigurationError,
    ErrorDetail,
    InputTooLargeError,
    ParseError,
    RefusalError,
)
from resilient_parse.feedback import schema_shape
from resilient_parse.parser import Parser
from resilient_parse.tools.replies import (
    langchain_calls,
    langchain_finish_reason,
    langchain_refusal,
    langchain_refusal_pieces,
    langchain_refused_by_stop,
    refusal_signal,
)

T = TypeVar("T")
Messages = list[dict[str, Any]]


class LangChainParseError(ParseError, OutputParserException):
    """A `ParseError` that LangChain recognises as an output-parsing failure it may send back to the model."""

    def __init__(self, error: ParseError, llm_output: str, observation: str) -> None:
        ParseError.__init__(
            self,
            error.message,
            error.details,
            candidate=error.candidate,
            repairs=error.repairs,
            attempts=error.attempts,
        )
        self.kind = error.kind
        self.observation = observation
        self.llm_output = llm_output
        self.send_to_llm = True


class LangChainRefusalError(LangChainParseError, RefusalError):
    """A `LangChainParseError` for a message that refuses: also our `RefusalError`."""


# -- reading LangChain messages: the one reply reader (`tools.replies`) -----------------------------------------

message_tool_calls = langchain_calls
_finish_reason = langchain_finish_reason
_refusal_pieces = langchain_refusal_pieces
_refused_by_stop = langchain_refused_by_stop
_refusal_signal = langchain_refusal
_signal = refusal_signal


def _truncated(reason: str | None) -> bool:
    return reason in ("length", "max_tokens")


class _Collected:
    """What a streamed message has said: its text pieces go on to `Parser.stream` as they arrive; tool-call
    pieces are kept per call until the message is complete."""

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []
        self.text: list[str] = []
        self.pieces: dict[Any, tuple[list[str], list[str], list[str | None]]] = {}
        self.current: dict[int, Any] = {}  # an index reused by a later call: the key its pieces go under now
        self.call_ids: dict[Any, str] = {}  # the id each call's pieces came with
        self.finish_reason: str | None = None
        self.unreadable: ParseError | None = None  # a whole message's calls that could not be read
        self.refusal: list[str] = []  # the refusal text the provider flagged, piece by piece
        self.stopped_refusing = False  # the provider stopped the message as a refusal

    def texts(self, chunks: Iterable[str | BaseMessage]) -> Iterator[str]:
        for chunk in chunks:
            piece = self.take(chunk)
            if piece:
                yield piece

    async def atexts(self, chunks: AsyncIterator[str | BaseMessage]) -> AsyncIterator[str]:
        async for chunk in chunks:
            piece = self.take(chunk)
            if piece:
                yield piece

    def take(self, chunk: str | BaseMessage) -> str:
        if isinstance(chunk, str):
            self.text.append(chunk)
            return chunk
        self.finish_reason = _finish_reason(chunk) or self.finish_reason
        self.refusal.extend(_refusal_pieces(chunk))
        self.stopped_refusing = self.stopped_refusing or _refused_by_stop(chunk)
        if isinstance(chunk, BaseMessageChunk):
            for part in getattr(chunk, "tool_call_chunks", None) or ():
                index = part.get("index")
                key = self._key(index, part.get("id"))
                names, args, ids = self.pieces.setdefault(key, ([], [], []))
                names.append(part.get("name") or "")
                args.append(part.get("args") or "")
                ids.append(part.get("id"))
        else:
            try:
                self.calls.extend(message_tool_calls(chunk))
            except ParseError as exc:
                self.unreadable = self.unreadable or exc
        self.text.append(chunk.text)
        return chunk.text

    def _key(self, index: Any, call_id: Any) -> Any:
        """Which call a tool-call chunk continues: the one at its index — unless it brings a new id, which starts
        another call (some providers reuse index 0 for every call; spliced, two objects would read as one)."""
        if not isinstance(index, int):
            return object()
        key = self.current.get(index, index)
        if isinstance(call_id, str) and call_id:
            known = self.call_ids.setdefault(key, call_id)
            if known != call_id:
                key = self.current[index] = (index, len(self.pieces))
                self.call_ids[key] = call_id
        return key

    def tool_calls(self) -> tuple[ToolCall, ...]:
        calls = list(self.calls)
        for names, args, ids in self.pieces.values():
            call_id = next((i for i in ids if i), None)
            calls.append(ToolCall("".join(names), "".join(args), id=call_id, index=len(calls)))
        return tuple(calls)

    def refusal_signal(self) -> str | None:
        return _signal(self.refusal, self.stopped_refusing)


# -- the output parser --------------------------------------------------------------------------------------------


class ResilientOutputParser(BaseTransformOutputParser[T]):
    """Parse a model's answer (its text, or its tool calls for an argument-model target) into `target` with local
    repair; `mode`, `aliases` or a ready `parser` configure it. `ResilientOutputParser(target=Plan)` is a parser
    of `Plan` for type checkers and for LangChain (`OutputType`, `output_schema`). `tools=` names the tools bound
    to the model (`bind_tools`'s models or dicts) when there are more than the target's: a call to another of them
    is a wrong tool, never repaired as a typo of the target's."""

    target: Any
    mode: str = "lenient"
    aliases: Mapping[str, str] | None = None
    parser: Parser | None = None
    tools: Sequence[Any] | None = None

    model_config = ConfigDict(arbitrary_types_allowed=True)
    _sent_names: frozenset[str] = PrivateAttr(default=frozenset())

    def model_post_init(self, context: Any, /) -> None:
        super().model_post_init(context)
        if self.tools is not None:
            self._sent_names = frozenset(sent_tool_names(openai_tools(self.tools)))

    if TYPE_CHECKING:

        @overload
        def __init__(
            self: ResilientOutputParser[T],
            *,
            target: type[T],
            mode: str = ...,
            aliases: Mapping[str, str] | None = ...,
            parser: Parser | None = ...,
            tools: Sequence[ToolSpec] | None = ...,
        ) -> None: ...
        @overload
        def __init__(
            self: ResilientOutputParser[Any],
            *,
            target: Any,
            mode: str = ...,
            aliases: Mapping[str, str] | None = ...,
            parser: Parser | None = ...,
            tools: Sequence[ToolSpec] | None = ...,
        ) -> None: ...
        def __init__(self, **data: Any) -> None: ...

    @property
    def OutputType(self) -> type[T]:
        return cast("type[T]", self.target)

    def _use(self) -> Parser:
        return self.parser if self.parser is not None else default_parser(self.mode)

    def _reads_calls(self, calls: Sequence[ToolCall]) -> bool:
        return bool(calls) and tool_target(self.target) is not None

    def _fail(self, parser: Parser, error: ParseError, llm_output: str) -> LangChainParseError:
        cls = LangChainRefusalError if isinstance(error, RefusalError) else LangChainParseError
        return cls(error, llm_output, parser.feedback(error, self.target))

    def _from_calls(
        self, calls: Sequence[ToolCall], finish_reason: str | None, text: str, refusal: str | None = None
    ) -> T:
        """The target read from the calls (`read_reply_calls`): a message that refuses beside them (its text, or the
        provider's `refusal` signal) is a refusal; the text beside them must give the same answer, if any: a message
        saying two things does not say which it means."""
        parser = self._use()
        said = json.dumps([{"name": c.name, "arguments": c.arguments} for c in calls], ensure_ascii=False)
        try:
            result = read_reply_calls(
                calls,
                text,
                self.target,
                parser,
                refusal=refusal,
                aliases=self.aliases,
                truncated=_truncated(finish_reason),
                sent_names=self._sent_names,
            )
        except ParseError as exc:
            raise self._fail(parser, exc, said) from exc
        return cast(T, result.value)

    def parse(self, text: str) -> T:
        parser = self._use()
        try:
            return cast(T, parser.parse_result(text, self.target, aliases=self.aliases).value)
        except ParseError as exc:
            raise self._fail(parser, exc, text) from exc

    def parse_result(self, result: list[Generation], *, partial: bool = False) -> T:
        """The first generation's tool calls (for an argument-model target) or text, parsed into the target.
        `partial` is not used: partial objects come from streaming (`transform`)."""
        generation = result[0]
        if isinstance(generation, ChatGeneration) and tool_target(self.target) is not None:
            try:
                calls = message_tool_calls(generation.message)
            except ParseError as exc:
                raise self._fail(self._use(), exc, generation.text) from exc
            if calls:
                message = generation.message
                return self._from_calls(calls, _finish_reason(message), generation.text, _refusal_signal(message))
        return self.parse(generation.text)

    def _transform(self, input: Iterator[str | BaseMessage]) -> Iterator[Any]:
        parser = self._use()
        collected = _Collected()
        final: Any = None
        failure: ParseError | None = None
        try:
            for update in parser.stream(collected.texts(input), self.target, aliases=self.aliases):
                if update.is_final:
                    final = update.value
                else:
                    yield update.partial
        except InputTooLargeError:
            raise
        except ParseError as exc:  # decided below: the tool calls, when there are any, are the answer
            failure = exc
        yield self._settle(parser, collected, final, failure)

    async def _atransform(self, input: AsyncIterator[str | BaseMessage]) -> AsyncIterator[Any]:
        parser = self._use()
        collected = _Collected()
        final: Any = None
        failure: ParseError | None = None
        try:
            async for update in parser.astream(collected.atexts(input), self.target, aliases=self.aliases):
                if update.is_final:
                    final = update.value
                else:
                    yield update.partial
        except InputTooLargeError:
            raise
        except ParseError as exc:
            failure = exc
        yield self._settle(parser, collected, final, failure)

    def _settle(self, parser: Parser, collected: _Collected, final: Any, failure: ParseError | None) -> Any:
        if collected.unreadable is not None and tool_target(self.target) is not None:
            raise self._fail(parser, collected.unreadable, "".join(collected.text))
        calls = collected.tool_calls()
        if self._reads_calls(calls):
            return self._from_calls(calls, collected.finish_reason, "".join(collected.text), collected.refusal_signal())
        if failure is not None:
            raise self._fail(parser, failure, "".join(collected.text))
        return final

    def get_format_instructions(self) -> str:
        schema = schema_shape(self._use().plan(self.target).adapter.json_schema())  # no defaults, examples, extras
        return "Answer with a single JSON value that matches this JSON Schema, and nothing else:\n" + json.dumps(
            schema, ensure_ascii=False
        )

    @property
    def _type(self) -> str:
        return "resilient_parse"


# -- the chat-model adapter ---------------------------------------------------------------------------------------


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
        calls = message_tool_calls(message)
    except ParseError as exc:
        raise MalformedResponseError(exc.message, exc.details, usage=usage) from exc
    return Completion(
        text=message.text,
        model=name if isinstance(name, str) else None,
        usage=usage,
        refusal=_refusal_signal(message),
        finish_reason=_finish_reason(message),
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


__all__ = [
    "ChatModelAdapter",
    "LangChainParseError",
    "LangChainRefusalError",
    "ResilientOutputParser",
    "completion_from_message",
    "message_tool_calls",
    "to_langchain_messages",
]
