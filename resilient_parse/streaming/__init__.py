"""Streaming: partial objects while the model is still writing, then the final validated object when it stops.

`stream(parser, chunks, target)` (and the async twin `astream`) reads text chunks and yields `StreamUpdate`s: one
each time a new part of the answer is complete enough to show, holding a *partial view* of the target (a model
generated from it in which every field may be missing), and a last one with `is_final=True` holding the object the
full pipeline made from the complete text (`Parser.parse_result`). The layer sits below the parser; the
top-level `resilient_parse.stream` adds `correct_with`, which sends a final answer that does not parse through
the correction loop.

How a partial is made: the JSON's start is found past prose, fences and reasoning blocks (a tag counts as the
extraction stage says: an opening one must start a block, a quoted one is text), by that stage's rules applied as
the text arrives (`_Locator`: the scanner's state is kept between chunks, so each character is looked at a bounded
number of times however the text is cut); the text from there is read by pydantic-core's partial JSON parser
(`from_json(..., allow_partial=True)`, `"trailing-strings"` when the caller wants strings as far as they go), and
where that stops at a syntax strict JSON does not have (a trailing comma, single quotes, a Python literal, a
comment, a bare key), by the batch path's reader with the repairs the policy allows (`stages/read_prefix.py`: the
unfinished member is dropped, the open containers are closed). pydantic-core's partial modes read a syntax error
after a value (`{"a": 1 "b": 2`) as the end of the text, so a read that brings nothing new is checked by a whole
read, whose error says whether the text is JSON so far; once it has stopped at a syntax error, it is not asked
again for that answer. A number still being written is left out; keys are aligned and values coerced by the same
`Conformer` and plugin hooks as the batch path (a streamed `Action` key shows up as `action`); the result is
validated against the partial model, and whatever does not validate yet is left out rather than failing the update.

When every key is a field's and every value fits, the partial is validated straight from the text in Rust (the
streaming twin of the batch fast path); only otherwise is a Python tree built and walked, and list items already
walked on an earlier read are not walked again.

Cost: finding the start costs one pass over the text in all; reads cover the text from the start only (the text
before it is never joined or copied again), and the whole text is joined once, for the final parse. The answer
is re-read only when a boundary (a quote, a comma, a closing bracket) arrived since the last read. A read is
measured in work, not characters (`_work`): its characters, or its brackets times `_CONTAINER_CHARS` where that is
more — building a container costs what reading a few dozen characters of flat JSON does, so `[[[[]]]]` weighs what
it holds. An answer of up to 4 KiB of work is re-read at every boundary (microseconds each); beyond that, the work
re-read is kept within `reparse_budget` times the work received, so total work stays linear in the final size
however fine the chunks are and however deeply the answer nests — updates on big documents get further apart
instead of the stream getting slower. The reader's reads resume where the last one left off (after the last ','
of the innermost container it had open, `read_prefix.Resume`), so each covers the text since (twice where it stops
at a syntax it may not repair); a read counts the whole answer's work beyond 4 KiB (its tree is loaded and
validated whole) or the text the reader covers beyond 512 characters, whichever is more, so the budget bounds both
(give or take one read).
`benchmarks/bench_streaming.py` measures it.

Limits, by design: partials follow the first JSON value that starts in the answer (the final object follows the
batch rules for several candidates), and a start is an opening bracket followed by what strict JSON allows there
(`{"`, `[1`, …): an answer that opens with `{'a'`, `{a:` or `[True` is not followed from its root (the partials
may follow a `{"…` inside it until the final object comes). Where the policy does not let the reader repair a
syntax (in strict, a guess such as an unquoted string value), the partials show what precedes it and go on only
if more text settles it (a comment still open); the final parse decides. A value right before such a place, or
still growing at the end (a number, a literal, a single-quoted string whose last quote may be an apostrophe),
waits; a double-quoted string that has closed is shown, though lenient's inner-quote repair may still extend it
(`"a 24"` + ` screen"`). Partials are checked against types, not against field
constraints or your validators, and discriminated unions are matched by shape until the final validation; the
correction loop's re-asks (`correct_with`) are not streamed, only their result. A reasoning tag written inside
a JSON value before the answer counts as a tag for the partials (the batch path ignores one inside a closed
`{…}`: telling needs the rest of the span); a tag still being written holds the search back until it is decided
(at most ~200 characters, and one past its `>`, which the quote rule looks at).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from resilient_parse.errors import ConfigurationError
from resilient_parse.streaming._locator import _Locator as _Locator  # re-exported: the cost tests measure it
from resilient_parse.streaming._partials import partial_type
from resilient_parse.streaming._state import _FREE_CHARS as _FREE_CHARS  # re-exported with `_work` for those tests
from resilient_parse.streaming._state import _Stream as _Stream  # re-exported: `tool_streaming` feeds one per call
from resilient_parse.streaming._state import _work as _work
from resilient_parse.streaming._update import StreamUpdate

if TYPE_CHECKING:
    from resilient_parse.parser import Parser


def stream(parser: Parser, chunks: Iterable[str | bytes], target: Any, **options: Any) -> Iterator[StreamUpdate[Any]]:
    """Yield a `StreamUpdate` with a partial object each time something new in the answer is complete, then a
    final one (`is_final=True`) with the validated object. A `ParseError` from the final parse is raised after
    the partial updates; errors raised by `chunks` itself propagate unchanged.

    Options: `partial_strings=True` shows strings while they are being written (numbers and literals always wait
    until complete); `aliases` and `validators` as in `Parser.parse_result`; `reparse_budget` (default 2.0, None to
    read at every boundary) bounds the work re-read for partials of answers over 4 KiB of work to that multiple of
    the work received (work: characters, or brackets x 16 where that is more; see the module's Cost).
    `correct_with` is an option of the top-level `resilient_parse.stream`, which sits above the correction loop.
    """
    state = open_stream(parser, target, **options)
    return _run(state, as_chunks(chunks))


OPTIONS = ("partial_strings", "aliases", "validators", "reparse_budget")


def open_stream(parser: Parser, target: Any, **options: Any) -> _Stream:
    """The state of one stream; an unknown option is a `ConfigurationError` naming the ones there are."""
    if "correct_with" in options or "correct_options" in options:
        raise ConfigurationError(
            "correct_with is an option of resilient_parse.stream()/astream(chunks, target, parser=..., "
            "correct_with=...), which sit above the correction loop; Parser.stream/astream stream and parse only"
        )
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ConfigurationError(f"unknown stream option(s) {', '.join(unknown)}; the options: {', '.join(OPTIONS)}")
    return _Stream(parser, target, **options)


def as_chunks(chunks: Any) -> Iterable[str | bytes]:
    """The chunks as an iterable: one str or bytes is one chunk; anything not iterable is the caller's mistake."""
    if isinstance(chunks, str | bytes):
        return [chunks]
    if not isinstance(chunks, Iterable):
        raise ConfigurationError(f"stream needs an iterable of text chunks, got {type(chunks).__name__}")
    return chunks


def _run(state: _Stream, chunks: Iterable[str | bytes]) -> Iterator[StreamUpdate[Any]]:
    yield from partials(state, chunks)
    yield state.finish()


def partials(state: _Stream, chunks: Iterable[str | bytes]) -> Iterator[StreamUpdate[Any]]:
    """The partial updates of a stream, without its final parse (the correcting `stream` adds its own)."""
    for chunk in chunks:
        update = state.feed(chunk)
        if update is not None:
            yield update


def astream(
    parser: Parser, chunks: AsyncIterable[str | bytes], target: Any, **options: Any
) -> AsyncIterator[StreamUpdate[Any]]:
    """The async twin of `stream`, over an async iterable of text chunks; it yields the same updates."""
    state = open_stream(parser, target, **options)
    if not hasattr(chunks, "__aiter__"):
        raise ConfigurationError(f"astream needs an async iterable of chunks, got {type(chunks).__name__}")
    return _arun(state, chunks)


async def _arun(state: _Stream, chunks: AsyncIterable[str | bytes]) -> AsyncIterator[StreamUpdate[Any]]:
    async for update in apartials(state, chunks):
        yield update
    yield state.finish()


async def apartials(state: _Stream, chunks: AsyncIterable[str | bytes]) -> AsyncIterator[StreamUpdate[Any]]:
    """The async twin of `partials`."""
    async for chunk in chunks:
        update = state.feed(chunk)
        if update is not None:
            yield update


__all__ = [
    "OPTIONS",
    "StreamUpdate",
    "apartials",
    "as_chunks",
    "astream",
    "open_stream",
    "partial_type",
    "partials",
    "stream",
]
