"""The one-call streaming entry, `stream(chunks, Target)`: `parse`'s twin for text that is still arriving.

It sits above the streaming layer and the correction loop: `correct_with=(llm, messages)` sends a final answer
that does not parse through the loop, the streamed text counting as the model's first reply (the re-asks are not
streamed, only their result). `parser=` streams with a parser of your own, as `Parser.stream` does.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

from typing_extensions import TypeForm

from resilient_parse import streaming
from resilient_parse.api import default_parser
from resilient_parse.errors import ConfigurationError
from resilient_parse.parser import Parser, ParseResult
from resilient_parse.policy import Policy
from resilient_parse.streaming import StreamUpdate

if TYPE_CHECKING:
    from resilient_parse.correction.types import Completion, CorrectionResult

T = TypeVar("T")
CorrectWith = tuple[Any, Sequence[Mapping[str, Any]]]


@overload
def stream(
    chunks: Iterable[str | bytes],
    target: type[T],
    *,
    mode: str | Policy | None = None,
    parser: Parser | None = None,
    correct_with: CorrectWith | None = None,
    correct_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> Iterator[StreamUpdate[T]]: ...
@overload
def stream(
    chunks: Iterable[str | bytes],
    target: TypeForm[T],
    *,
    mode: str | Policy | None = None,
    parser: Parser | None = None,
    correct_with: CorrectWith | None = None,
    correct_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> Iterator[StreamUpdate[T]]: ...
def stream(
    chunks: Iterable[str | bytes],
    target: Any,
    *,
    mode: str | Policy | None = None,
    parser: Parser | None = None,
    correct_with: CorrectWith | None = None,
    correct_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> Iterator[StreamUpdate[Any]]:
    """Yield partial objects while the model writes, then the final validated one (the options are those of
    `resilient_parse.streaming.stream`); with `correct_with`, a final answer that does not parse is corrected."""
    use = _parser(mode, parser)
    if correct_with is None:
        _no_options_without_loop(correct_options)
        return streaming.stream(use, chunks, target, **options)
    llm, messages = _pair(correct_with)
    state = streaming.open_stream(use, target, **options)
    return _corrected(state, streaming.as_chunks(chunks), llm, messages, dict(correct_options or {}))


def _corrected(
    state: Any, chunks: Iterable[str | bytes], llm: Any, messages: Sequence[Mapping[str, Any]], extra: dict[str, Any]
) -> Iterator[StreamUpdate[Any]]:
    from resilient_parse.correction.loop import correct_result  # the loop loads when a stream may need it

    yield from streaming.partials(state, chunks)
    replay, options = _replayed(state, llm, extra)
    yield _final(state, correct_result(replay, messages, state.target, **options))


@overload
def astream(
    chunks: AsyncIterable[str | bytes],
    target: type[T],
    *,
    mode: str | Policy | None = None,
    parser: Parser | None = None,
    correct_with: CorrectWith | None = None,
    correct_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> AsyncIterator[StreamUpdate[T]]: ...
@overload
def astream(
    chunks: AsyncIterable[str | bytes],
    target: TypeForm[T],
    *,
    mode: str | Policy | None = None,
    parser: Parser | None = None,
    correct_with: CorrectWith | None = None,
    correct_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> AsyncIterator[StreamUpdate[T]]: ...
def astream(
    chunks: AsyncIterable[str | bytes],
    target: Any,
    *,
    mode: str | Policy | None = None,
    parser: Parser | None = None,
    correct_with: CorrectWith | None = None,
    correct_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> AsyncIterator[StreamUpdate[Any]]:
    """The async twin of `stream`, over an async iterable of text chunks (an async model for `correct_with`)."""
    use = _parser(mode, parser)
    if correct_with is None:
        _no_options_without_loop(correct_options)
        return streaming.astream(use, chunks, target, **options)
    llm, messages = _pair(correct_with)
    state = streaming.open_stream(use, target, **options)
    if not hasattr(chunks, "__aiter__"):
        raise ConfigurationError(f"astream needs an async iterable of chunks, got {type(chunks).__name__}")
    return _acorrected(state, chunks, llm, messages, dict(correct_options or {}))


async def _acorrected(
    state: Any,
    chunks: AsyncIterable[str | bytes],
    llm: Any,
    messages: Sequence[Mapping[str, Any]],
    extra: dict[str, Any],
) -> AsyncIterator[StreamUpdate[Any]]:
    from resilient_parse.correction.loop import acorrect_result

    async for update in streaming.apartials(state, chunks):
        yield update
    replay, options = _replayed(state, llm, extra)
    yield _final(state, await acorrect_result(replay, messages, state.target, **options))


def _parser(mode: str | Policy | None, parser: Parser | None) -> Parser:
    """`parse`'s shared parser for the mode (lenient unless said), or the caller's own; not both, since the
    parser's own mode would silently win."""
    if parser is None:
        return default_parser("lenient" if mode is None else mode)
    if mode is not None:
        raise ConfigurationError("give mode= or parser=, not both: a Parser carries its own mode")
    return parser


def _no_options_without_loop(correct_options: Mapping[str, Any] | None) -> None:
    if correct_options:
        raise ConfigurationError("correct_options= needs correct_with=(llm, messages): without it nothing is corrected")


def _pair(correct_with: Any) -> CorrectWith:
    if not isinstance(correct_with, tuple) or len(correct_with) != 2:
        raise ConfigurationError("correct_with must be a (llm, messages) pair")
    return correct_with


def _replayed(state: Any, llm: Any, extra: dict[str, Any]) -> tuple[_Replay, dict[str, Any]]:
    """The loop's first reply is the answer already streamed, so it is parsed like any answer and the model is
    asked again only when it does not parse."""
    from resilient_parse.llm.choose import as_adapter

    options: dict[str, Any] = {"parser": state.parser, "aliases": state.aliases, "validators": state.validators}
    options.update(extra)
    return _Replay(state.whole_text(), as_adapter(llm)), options


def _final(state: Any, outcome: CorrectionResult[Any]) -> StreamUpdate[Any]:
    result = ParseResult(
        value=outcome.value,
        repairs=tuple(outcome.repairs),
        candidate=outcome.candidate,
        mode=state.parser.policy.name,
    )
    return StreamUpdate(
        partial=state.final_partial(outcome.value),
        is_final=True,
        value=outcome.value,
        result=result,
        correction=outcome,
        received=state.received,
    )


class _Replay:
    """An LLM adapter whose first reply is the answer already streamed; later calls go to the real model."""

    def __init__(self, text: str, llm: Any) -> None:
        self.first: str | None = text
        self.llm = llm
        self.name = getattr(llm, "name", "llm")

    def complete(self, messages: Any) -> Any:
        if self.first is not None:
            return self._replayed()
        return self.llm.complete(messages)

    async def acomplete(self, messages: Any) -> Any:
        if self.first is not None:
            return self._replayed()
        return await self.llm.acomplete(messages)

    def _replayed(self) -> Completion:
        from resilient_parse.correction.types import Completion

        text, self.first = self.first, None
        return Completion(text=text or "", model=self.name)
