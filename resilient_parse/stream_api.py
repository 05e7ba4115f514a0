"""The one-call streaming entry, `stream(chunks, Target)`: `parse`'s twin for text that is still arriving.

It sits above the streaming layer and uses `parse`'s shared parser per mode; `Parser.stream` does the same with
a parser of your own.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, TypeVar, overload

from resilient_parse import streaming
from resilient_parse.api import default_parser
from resilient_parse.policy import Policy
from resilient_parse.streaming import StreamUpdate

T = TypeVar("T")


@overload
def stream(
    chunks: Iterable[str | bytes], target: type[T], *, mode: str | Policy = "lenient", **options: Any
) -> Iterator[StreamUpdate[T]]: ...
@overload
def stream(
    chunks: Iterable[str | bytes], target: Any, *, mode: str | Policy = "lenient", **options: Any
) -> Iterator[StreamUpdate[Any]]: ...
def stream(
    chunks: Iterable[str | bytes], target: Any, *, mode: str | Policy = "lenient", **options: Any
) -> Iterator[StreamUpdate[Any]]:
    """Yield partial objects while the model writes, then the final validated one (see `resilient_parse.streaming`
    for the options)."""
    return streaming.stream(default_parser(mode), chunks, target, **options)


@overload
def astream(
    chunks: AsyncIterable[str | bytes], target: type[T], *, mode: str | Policy = "lenient", **options: Any
) -> AsyncIterator[StreamUpdate[T]]: ...
@overload
def astream(
    chunks: AsyncIterable[str | bytes], target: Any, *, mode: str | Policy = "lenient", **options: Any
) -> AsyncIterator[StreamUpdate[Any]]: ...
def astream(
    chunks: AsyncIterable[str | bytes], target: Any, *, mode: str | Policy = "lenient", **options: Any
) -> AsyncIterator[StreamUpdate[Any]]:
    """The async twin of `stream`, over an async iterable of text chunks."""
    return streaming.astream(default_parser(mode), chunks, target, **options)
