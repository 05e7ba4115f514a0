"""Many records through one job, in order: in this process (`workers=0`) or on a `RecordPool`.

results = parse_many(texts, ToolCall, workers=4)        # one RecordResult per text, in order
calls = [r.value for r in results if r.ok]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from typing_extensions import TypeForm

from resilient_parse.batch.job import RecordJob, RecordProcessor
from resilient_parse.batch.pool import RecordPool, default_workers
from resilient_parse.batch.recipe import ParserRecipe
from resilient_parse.batch.records import EncodedRecord, RecordResult, encode
from resilient_parse.parser import Parser
from resilient_parse.policy import Policy

T = TypeVar("T")


def process_records(
    job: RecordJob,
    items: Iterable[Any],
    *,
    workers: int,
    chunksize: int = 64,
    timeout: float | None = None,
    start: int = 0,
) -> Iterator[RecordResult]:
    """One result per item, in order, numbered from `start`. `workers=0` parses here, without timeouts or crash
    isolation; otherwise a pool of that many processes does, with both."""
    return _process(job, items, workers, chunksize, timeout, start, encoded=False)


def process_encoded(
    job: RecordJob,
    items: Iterable[Any],
    *,
    workers: int,
    chunksize: int = 64,
    timeout: float | None = None,
    start: int = 0,
) -> Iterator[EncodedRecord]:
    """Like `process_records`, but each result comes as its output line and tally (encoded by the workers)."""
    return _process(job, items, workers, chunksize, timeout, start, encoded=True)


def _process(
    job: RecordJob,
    items: Iterable[Any],
    workers: int,
    chunksize: int,
    timeout: float | None,
    start: int,
    *,
    encoded: bool,
) -> Iterator[Any]:
    if workers == 0:
        processor = RecordProcessor(job)
        for index, item in enumerate(items, start):
            result = processor.process(index, item)
            yield encode(result) if encoded else result
        return
    with RecordPool(job, workers, chunksize=chunksize, timeout=timeout, encoded=encoded) as pool:
        yield from pool.imap(items, start)


def parse_many(
    texts: Iterable[str | bytes],
    target: TypeForm[T],
    *,
    parser: Parser | None = None,
    mode: str | Policy = "lenient",
    workers: int | None = None,
    chunksize: int = 64,
    timeout: float | None = None,
) -> list[RecordResult[T]]:
    """Parse every text into `target`; the results come back in order, one per text, each with its outcome, the
    typed value (or None), its repairs and its error. `parser` (else a `Parser(mode=mode)`) travels to the
    workers as its recipe; `workers` defaults to the CPU count, 0 parses in this process; `timeout` is per
    record, in seconds. The target must be importable by the workers (defined in a module, not in `__main__`
    under spawn)."""
    recipe = ParserRecipe.of(parser) if parser is not None else ParserRecipe.for_mode(mode)
    job = RecordJob(recipe=recipe, target=target, raw_text=True, as_json=False)
    count = default_workers() if workers is None else workers
    return list(process_records(job, texts, workers=count, chunksize=chunksize, timeout=timeout))
