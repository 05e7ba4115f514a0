"""Streamed tool calls: partial argument objects per call while an OpenAI-style stream is still arriving, then
the parsed calls.

    response = client.chat.completions.create(model=..., messages=..., tools=openai_tools([GetWeather]), stream=True)
    for update in stream_tool_calls(parser, response, GetWeather):
        ...  # update.partial while the arguments arrive; update.value on the last update

A chunk's `choices[i].delta.tool_calls` carries pieces of one or more calls, each tagged with its `index`; the
pieces of a call's `function.arguments` are fed to its own streaming state (`resilient_parse.streaming`, the
same machinery as text streams: linear in the characters received however they are cut), so each call shows
its partial argument object on its own. The call's tool name picks the argument model (a union's member, or the one
model): a name that names no tool of the target exactly shows no partials — the final read settles it (a typo
repaired and recorded in lenient, refused in strict; another tool refused). The last update holds what
`correction.tool_calls.read_reply_calls` makes of the complete calls and the text streamed beside them: the very
reading a non-streamed reply gets (text that refuses, takes the call back or asks back refuses the calls).
A stream with no tool calls is read as a text answer (`Parser.parse_result`).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from resilient_parse.context import SemanticValidator
from resilient_parse.correction.openai_stream import ChunkParts, ChunkReader, aclose_stream, close_stream
from resilient_parse.correction.tool_calls import ToolCall, read_reply_calls, tool_target
from resilient_parse.errors import ConfigurationError, ErrorDetail, InputTooLargeError
from resilient_parse.llm.tool_defs import ToolSpec, openai_tools, sent_tool_names
from resilient_parse.streaming import _Stream
from resilient_parse.tools.replies import says_cut

if TYPE_CHECKING:
    from resilient_parse.parser import Parser, ParseResult

T = TypeVar("T")


@dataclass(frozen=True)
class ToolStreamUpdate(Generic[T]):
    """One step of a streamed tool-call reply.

    - Partial updates (`is_final=False`): `index`, `name` and `id` say which call moved on; `partial` is its
      argument object so far (an instance of `streaming.partial_type(model)`, every field optional).
    - The final update (`is_final=True`, exactly once, last): `value` is the target object read from the complete
      calls, `result` the `ParseResult` behind it (repairs with JSON pointer paths), `calls` the calls as received.
    - `finish_reason` is the stream's once it said one (a `"length"` means the arguments were cut off).
    """

    partial: Any = None
    index: int | None = None
    name: str | None = None
    id: str | None = None
    is_final: bool = False
    value: T | None = None
    result: ParseResult[T] | None = None
    calls: tuple[ToolCall, ...] = ()
    text: str = ""
    finish_reason: str | None = None
    usage: Any = None


class _Call:
    """One call being received: its id and name so far, and the streaming state its arguments are fed to (None
    until an argument model is known, or when none can be: then the pieces are kept as they are)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.id: str | None = None
        self.name_pieces: list[str] = []
        self.state: _Stream | None = None
        self.pieces: list[str] = []
        self.undecided = True
        self.shown_name: str | None = None  # the name as it stood when the arguments began: what updates carry

    @property
    def name(self) -> str:
        if len(self.name_pieces) > 1:
            self.name_pieces = ["".join(self.name_pieces)]
        return self.name_pieces[0] if self.name_pieces else ""

    def arguments(self) -> str:
        if self.state is not None:
            return self.state.text()
        if len(self.pieces) > 1:
            self.pieces = ["".join(self.pieces)]
        return self.pieces[0] if self.pieces else ""

    def to_tool_call(self) -> ToolCall:
        return ToolCall(name=self.name, arguments=self.arguments(), id=self.id, index=self.index)


class _ToolStream:
    """The state of one streamed reply, fed chunk by chunk; shared by the sync and async drivers."""

    def __init__(
        self,
        parser: Parser,
        target: Any,
        *,
        choice: int = 0,
        partial_strings: bool = False,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
        reparse_budget: float | None = 2.0,
        tools: Sequence[ToolSpec] | None = None,
    ) -> None:
        self.parser = parser
        self.target = target
        self.plan = parser.plan(target)  # a target the parser cannot use fails now, before the stream is read
        self.aliases = aliases
        self.validators = tuple(validators)
        self.sent_names: Collection[str] = sent_tool_names(openai_tools(tools)) if tools is not None else ()
        self.options: dict[str, Any] = {
            "partial_strings": partial_strings,
            "aliases": aliases,
            "reparse_budget": reparse_budget,
        }
        takes = tool_target(target)
        if takes is None:
            raise ConfigurationError(
                f"{target!r} is not an argument model, a union of them, or a list of either: stream a text answer "
                "with Parser.stream instead"
            )
        self.models = takes.models
        self.reader = ChunkReader(choice)
        self.calls: list[_Call] = []  # in the order they began
        self.current: dict[int, _Call] = {}  # the call each index is receiving now
        self.text_pieces: list[str] = []
        self.received = 0
        self.limit = parser.policy.max_input_chars
        self.finish_reason: str | None = None

    def _count(self, piece: str) -> None:
        self.received += len(piece)
        if self.received > self.limit:
            raise InputTooLargeError(
                f"the stream passed {self.limit:,} characters (Policy.max_input_chars)",
                [ErrorDetail(path="", kind="input_too_large", message=f"{self.received} > {self.limit} characters")],
            )

    def _model_for(self, call: _Call) -> Any:
        """The argument model whose partials the call shows: the one its name names exactly, for a single model
        as for a union — a call of another tool (or a misspelt one) must not pass for the target while it
        streams; the final read refuses it, or repairs and records the name."""
        return self.models.get(call.shown_name or "")

    def feed(self, chunk: Any) -> list[ToolStreamUpdate[Any]]:
        parts: ChunkParts = self.reader.read(chunk)
        if parts.finish_reason is not None:
            self.finish_reason = parts.finish_reason
        if parts.text:
            self._count(parts.text)
            self.text_pieces.append(parts.text)
        updates: list[ToolStreamUpdate[Any]] = []
        for delta in parts.tool_calls:
            call = self.current.get(delta.index)
            if call is None or (delta.id and call.id is not None and delta.id != call.id):
                # a new id at an index that holds another call is another call (some providers reuse index 0
                # for every call): spliced into the first, its arguments would make one object of two
                call = self.current[delta.index] = _Call(delta.index)
                self.calls.append(call)
            if delta.id and call.id is None:
                call.id = delta.id
            if delta.name:
                self._count(delta.name)
                call.name_pieces.append(delta.name)
            if not delta.arguments:
                continue
            self._count(delta.arguments)
            if call.undecided:
                call.undecided = False
                call.shown_name = call.name or None  # joined once: later name pieces wait for the final read
                model = self._model_for(call)
                if model is not None:
                    call.state = _Stream(self.parser, model, **self.options)
            if call.state is None:
                call.pieces.append(delta.arguments)
                continue
            update = call.state.feed(delta.arguments)
            if update is not None:
                updates.append(
                    ToolStreamUpdate(
                        partial=update.partial,
                        index=call.index,
                        name=call.shown_name,
                        id=call.id,
                        finish_reason=self.finish_reason,
                    )
                )
        return updates

    def finish(self) -> ToolStreamUpdate[Any]:
        self.reader.done()
        text = "".join(self.text_pieces)
        calls = tuple(
            c.to_tool_call() for c in sorted(self.calls, key=lambda c: c.index)
        )  # stable: by index, then start
        if calls:
            result = read_reply_calls(  # as a whole reply's: a refusal beside the calls refuses them
                calls,
                text,
                self.target,
                self.parser,
                aliases=self.aliases,
                validators=self.validators,
                truncated=says_cut(self.finish_reason),  # as a non-streamed reply: cut-off arguments are refused
                sent_names=self.sent_names,
            )
        else:
            result = self.parser.parse_result(text, self.target, aliases=self.aliases, validators=self.validators)
        return ToolStreamUpdate(
            is_final=True,
            value=result.value,
            result=result,
            calls=calls,
            text=text,
            finish_reason=self.finish_reason,
            usage=self.reader.usage,
        )


@overload
def stream_tool_calls(
    parser: Parser, chunks: Iterable[Any], target: type[T], **options: Any
) -> Iterator[ToolStreamUpdate[T]]: ...
@overload
def stream_tool_calls(
    parser: Parser, chunks: Iterable[Any], target: Any, **options: Any
) -> Iterator[ToolStreamUpdate[Any]]: ...
def stream_tool_calls(
    parser: Parser, chunks: Iterable[Any], target: Any, **options: Any
) -> Iterator[ToolStreamUpdate[Any]]:
    """Yield a `ToolStreamUpdate` each time a call's arguments show something new, then a final one with the
    target object read from the complete calls. `chunks` is a `stream=True` chat completion (the OpenAI SDK's,
    LiteLLM's, or dicts shaped like its chunks); it is closed if iteration stops early.

    Options: `choice` (which choice to follow when `n` > 1), `partial_strings`, `aliases`, `validators` and
    `reparse_budget` as in `streaming.stream`; `tools`, the tools the request sent (models or the dicts as sent),
    so a call to one of them that is not the target's is a wrong tool, never a typo of the target's (as
    `read_tool_calls(sent_names=...)`). A `ParseError` from the final read is raised after the partials.
    """
    return _run(_ToolStream(parser, target, **options), chunks)


def _run(state: _ToolStream, chunks: Iterable[Any]) -> Iterator[ToolStreamUpdate[Any]]:
    finished = False
    try:
        for chunk in chunks:
            yield from state.feed(chunk)
        finished = True
    finally:
        if not finished:
            close_stream(chunks)
    yield state.finish()


@overload
def astream_tool_calls(
    parser: Parser, chunks: AsyncIterable[Any], target: type[T], **options: Any
) -> AsyncIterator[ToolStreamUpdate[T]]: ...
@overload
def astream_tool_calls(
    parser: Parser, chunks: AsyncIterable[Any], target: Any, **options: Any
) -> AsyncIterator[ToolStreamUpdate[Any]]: ...
def astream_tool_calls(
    parser: Parser, chunks: AsyncIterable[Any], target: Any, **options: Any
) -> AsyncIterator[ToolStreamUpdate[Any]]:
    """The async twin of `stream_tool_calls`, for `AsyncOpenAI` streams; it yields the same updates."""
    return _arun(_ToolStream(parser, target, **options), chunks)


async def _arun(state: _ToolStream, chunks: AsyncIterable[Any]) -> AsyncIterator[ToolStreamUpdate[Any]]:
    finished = False
    try:
        async for chunk in chunks:
            for update in state.feed(chunk):
                yield update
        finished = True
    finally:
        if not finished:
            await aclose_stream(chunks)
    yield state.finish()


__all__ = ["ToolStreamUpdate", "astream_tool_calls", "stream_tool_calls"]
