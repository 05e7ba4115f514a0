"""Text chunks from the OpenAI SDK's streamed chat completions, for `Parser.stream` / `Parser.astream`.

    response = client.chat.completions.create(model=..., messages=..., stream=True)
    for update in parser.stream(openai_text_chunks(response), Plan):
        ...

Each `chat.completion.chunk` carries `choices[i].delta.content` (a piece of the answer); chunks without content
(the role header, a usage-only chunk, a finish chunk) are skipped. A refusal streamed in `delta.refusal` raises
`ModelRefusedError` once the stream ends, so the caller learns why there is no answer. The SDK is never imported
here: anything shaped like its chunks works, objects or plain dicts (OpenAI-compatible servers, LiteLLM).

`ChunkReader` reads the rest of a chunk too (the pieces of streamed tool calls, the finish reason, the usage):
`resilient_parse.tool_streaming` builds on it.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncGenerator, AsyncIterable, Generator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from resilient_parse.errors import ErrorDetail, ModelRefusedError


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    try:
        return getattr(obj, name, None)
    except Exception:  # an SDK object built without validation may raise on a missing field
        return None


@dataclass(frozen=True)
class ToolCallDelta:
    """One piece of a streamed tool call as a chunk carries it (`choices[i].delta.tool_calls[j]`): the call's
    `index` says which call it continues; `id` and `name` usually come once, `arguments` in many pieces."""

    index: int
    id: str | None = None
    name: str = ""
    arguments: str = ""


@dataclass(frozen=True)
class ChunkParts:
    """What one chunk says for the chosen choice: a text piece, tool-call pieces, and the finish reason if it ends."""

    text: str = ""
    tool_calls: tuple[ToolCallDelta, ...] = ()
    finish_reason: str | None = None


_NOTHING = ChunkParts()


def _items(value: Any) -> Iterable[Any]:
    """The items of a field that should hold a list (`choices`, `tool_calls`), or none when it holds anything else
    (a number, a bool, a string, an object: a broken or hostile server's chunk is skipped, not a TypeError)."""
    if not isinstance(value, Iterable) or isinstance(value, str | bytes | bytearray | Mapping):
        return ()
    return value


def _tool_deltas(items: Any) -> tuple[ToolCallDelta, ...]:
    out: list[ToolCallDelta] = []
    for position, item in enumerate(_items(items)):
        index = _get(item, "index")
        function = _get(item, "function")
        name = _get(function, "name") if function is not None else None
        arguments = _get(function, "arguments") if function is not None else None
        call_id = _get(item, "id")
        out.append(
            ToolCallDelta(
                index=index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else position,
                id=call_id if isinstance(call_id, str) and call_id else None,
                name=name if isinstance(name, str) else "",
                arguments=arguments if isinstance(arguments, str) else "",
            )
        )
    return tuple(out)


class ChunkReader:
    """Reads one stream's chunks for the chosen choice, remembering what only the whole stream tells: the refusal
    text, if any, and the usage of a usage-only chunk (`stream_options={"include_usage": True}`)."""

    def __init__(self, choice: int = 0) -> None:
        self.choice = choice
        self.refusal: list[str] = []
        self.usage: Any = None

    def read(self, chunk: Any) -> ChunkParts:
        usage = _get(chunk, "usage")
        if usage is not None:
            self.usage = usage
        for item in _items(_get(chunk, "choices")):
            index = _get(item, "index")
            if (index if isinstance(index, int) else 0) != self.choice:
                continue
            finish = _get(item, "finish_reason")
            delta = _get(item, "delta")
            if delta is None:
                return ChunkParts(finish_reason=finish if isinstance(finish, str) else None)
            refusal = _get(delta, "refusal")
            if isinstance(refusal, str) and refusal:
                self.refusal.append(refusal)
            content = _get(delta, "content")
            return ChunkParts(
                text=content if isinstance(content, str) else "",
                tool_calls=_tool_deltas(_get(delta, "tool_calls")),
                finish_reason=finish if isinstance(finish, str) else None,
            )
        return _NOTHING

    def text(self, chunk: Any) -> str:
        return self.read(chunk).text

    def done(self) -> None:
        """Raise `ModelRefusedError` when the stream carried a refusal (called once it has ended)."""
        if self.refusal:
            text = "".join(self.refusal)
            raise ModelRefusedError(
                f"the model refused: {text[:200]}",
                [ErrorDetail(path="", kind="model_refused", message="the provider flagged a refusal", got=text)],
            )


def close_stream(response: Any) -> None:
    """Close a stream left before its end (an SDK stream holds its HTTP connection until closed)."""
    close = getattr(response, "close", None)
    if callable(close):
        close()


async def aclose_stream(response: Any) -> None:
    """The async twin of `close_stream`: an async SDK stream's `close()` is awaited."""
    close = getattr(response, "close", None)
    if callable(close):
        result = close()
        if inspect.isawaitable(result):
            await result


def openai_text_chunks(response: Iterable[Any], *, choice: int = 0) -> Generator[str, None, None]:
    """The answer's text pieces from a `stream=True` chat completion (choice `choice` when `n` > 1). The response
    is closed when iteration stops early, so an abandoned stream does not hold its connection."""
    reader = ChunkReader(choice)
    finished = False
    try:
        for chunk in response:
            piece = reader.text(chunk)
            if piece:
                yield piece
        finished = True
    finally:
        if not finished:
            close_stream(response)
    reader.done()


async def aopenai_text_chunks(response: AsyncIterable[Any], *, choice: int = 0) -> AsyncGenerator[str, None]:
    """The async twin of `openai_text_chunks`, for `AsyncOpenAI` streams (use with `Parser.astream`)."""
    reader = ChunkReader(choice)
    finished = False
    try:
        async for chunk in response:
            piece = reader.text(chunk)
            if piece:
                yield piece
        finished = True
    finally:
        if not finished:
            await aclose_stream(response)
    reader.done()


__all__ = [
    "ChunkParts",
    "ChunkReader",
    "ToolCallDelta",
    "aclose_stream",
    "aopenai_text_chunks",
    "close_stream",
    "openai_text_chunks",
]
