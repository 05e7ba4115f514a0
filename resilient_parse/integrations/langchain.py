"""LangChain drop-ins (optional extra: langchain-core): an output parser for chains; the adapter that lets
`correct()` call a LangChain chat model lives in `llm.langchain` and is re-exported here.

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
    from langchain_core.messages import BaseMessage, BaseMessageChunk
    from langchain_core.output_parsers import BaseTransformOutputParser
    from langchain_core.outputs import ChatGeneration, Generation
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from resilient_parse.errors import ConfigurationError

    raise ConfigurationError(
        "ResilientOutputParser needs langchain-core: pip install 'resilient-parse[langchain]'"
    ) from exc

from pydantic import ConfigDict, PrivateAttr

from resilient_parse.api import default_parser
from resilient_parse.correction.tool_calls import ToolCall, read_reply_calls, tool_target
from resilient_parse.errors import (
    ConfigurationError,
    InputTooLargeError,
    ParseError,
    RefusalError,
)
from resilient_parse.feedback import schema_shape
from resilient_parse.llm.langchain import ChatModelAdapter, completion_from_message, to_langchain_messages
from resilient_parse.llm.tool_defs import (
    ToolSpec,
    openai_tools,
    sent_tool_names,
)
from resilient_parse.parser import Parser
from resilient_parse.tools.replies import (
    langchain_calls,
    langchain_finish_reason,
    langchain_refusal,
    langchain_refusal_pieces,
    langchain_refused_by_stop,
    refusal_signal,
    says_cut,
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
    return says_cut(reason)


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


__all__ = [
    "ChatModelAdapter",
    "LangChainParseError",
    "LangChainRefusalError",
    "ResilientOutputParser",
    "completion_from_message",
    "message_tool_calls",
    "to_langchain_messages",
]
