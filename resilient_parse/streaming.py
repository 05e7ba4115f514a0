"""Streaming: partial objects while the model is still writing, then the final object (work in progress)."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from resilient_parse.parser import Parser


def stream(parser: Parser, chunks: Iterable[str], target: Any, **options: Any) -> Iterator[Any]:
    raise NotImplementedError("streaming is being built (issue 8)")


def astream(parser: Parser, chunks: AsyncIterable[str], target: Any, **options: Any) -> AsyncIterator[Any]:
    raise NotImplementedError("streaming is being built (issue 8)")
