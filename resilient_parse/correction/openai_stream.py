"""Text chunks from the OpenAI SDK's streamed chat completions, for `Parser.stream` / `Parser.astream`.

    response = client.chat.completions.create(model=..., messages=..., stream=True)
    for update in parser.stream(openai_text_chunks(response), Plan):
        ...

Each `chat.completion.chunk` carries `choices[i].delta.content` (a piece of the answer); chunks without content
(the role header, a usage-only chunk, a finish chunk) are skipped. A refusal streamed in `delta.refusal` raises
`ModelRefusedError` once the stream ends, so the caller learns why there is no answer. The SDK is never imported
here: anything shaped like its chunks works, objects or plain dicts (OpenAI-compatible servers, LiteLLM).
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncGenerator, AsyncIterable, Generator, Iterable, Mapping
from typing import Any

from resilient_parse.errors import ErrorDetail, ModelRefusedError


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    try:
        return getattr(obj, name, None)
    except Exception:  # an SDK object built without validation may raise on a missing field
        return None


class _Reader:
    """What one stream has said so far: the refusal text, if any, from the chosen choice."""

    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.refusal: list[str] = []

    def text(self, chunk: Any) -> str:
        for item in _get(chunk, "choices") or ():
            index = _get(item, "index")
            if (index if isinstance(index, int) else 0) != self.choice:
                continue
            delta = _get(item, "delta")
            if delta is None:
                continue
            refusal = _get(delta, "refusal")
            if isinstance(refusal, str) and refusal:
                self.refusal.append(refusal)
            content = _get(delta, "content")
            if isinstance(content, str):
                return content
        return ""

    def done(self) -> None:
        if self.refusal:
            text = "".join(self.refusal)
            raise ModelRefusedError(
                f"the model refused: {text[:200]}",
                [ErrorDetail(path="", kind="model_refused", message="the provider flagged a refusal", got=text)],
            )


def openai_text_chunks(response: Iterable[Any], *, choice: int = 0) -> Generator[str, None, None]:
    """The answer's text pieces from a `stream=True` chat completion (choice `choice` when `n` > 1). The response
    is closed when iteration stops early, so an abandoned stream does not hold its connection."""
    reader = _Reader(choice)
    finished = False
    try:
        for chunk in response:
            piece = reader.text(chunk)
            if piece:
                yield piece
        finished = True
    finally:
        if not finished:
            close = getattr(response, "close", None)
            if callable(close):
                close()
    reader.done()


async def aopenai_text_chunks(response: AsyncIterable[Any], *, choice: int = 0) -> AsyncGenerator[str, None]:
    """The async twin of `openai_text_chunks`, for `AsyncOpenAI` streams (use with `Parser.astream`)."""
    reader = _Reader(choice)
    finished = False
    try:
        async for chunk in response:
            piece = reader.text(chunk)
            if piece:
                yield piece
        finished = True
    finally:
        if not finished:
            close = getattr(response, "close", None)
            if callable(close):
                result = close()
                if inspect.isawaitable(result):
                    await result
    reader.done()


__all__ = ["aopenai_text_chunks", "openai_text_chunks"]
