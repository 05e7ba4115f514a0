"""One partition of records in, one result per record out — the part every engine integration shares.

A worker builds the `RecordProcessor` for a job once and keeps it for every later partition of that job (jobs
are told apart by their pickled bytes: engines hand each task its own copy). `results_frame` is the pandas form
Dask DataFrames and Spark's `mapInPandas` exchange; `id`, `value`, `repairs` and `error` hold JSON text there,
because the values of a log have no single column type.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import threading
from collections.abc import Iterable
from typing import Any

from resilient_parse.batch.job import RecordJob, RecordProcessor
from resilient_parse.batch.recipe import ParserRecipe
from resilient_parse.batch.records import RecordResult
from resilient_parse.parser import Parser
from resilient_parse.policy import Policy

RESULT_COLUMNS = ("outcome", "value", "repairs", "error")
SPARK_SCHEMA = "outcome string, value string, repairs string, error string"
"""The schema of `results_frame`, as Spark's `mapInPandas` wants it."""

_processors: dict[bytes, RecordProcessor] = {}
_lock = threading.Lock()


def make_job(
    target: Any = None,
    *,
    parser: Parser | None = None,
    mode: str | Policy = "lenient",
    target_spec: str | None = None,
    text_field: str = "text",
    raw_text: bool = True,
) -> RecordJob:
    """The job an engine runs: `parser` (else `Parser(mode=mode)`) travels as its recipe; values come back as
    JSON, so they move between processes and into columns without the target's classes."""
    recipe = ParserRecipe.of(parser) if parser is not None else ParserRecipe.for_mode(mode)
    return RecordJob(
        recipe=recipe, target=target, target_spec=target_spec, raw_text=raw_text, as_json=True, text_field=text_field
    )


def processor_for(job: RecordJob) -> RecordProcessor:
    """This process's processor for `job`, built on first use."""
    key = hashlib.sha256(_pickler().dumps(job)).digest()
    with _lock:
        processor = _processors.get(key)
        if processor is None:
            processor = _processors[key] = RecordProcessor(job)
    return processor


def _pickler() -> Any:
    """cloudpickle where installed (Dask ships it; it pickles what pickle cannot, a lambda validator), else pickle
    (Spark vendors its own copy)."""
    try:
        return importlib.import_module("cloudpickle")
    except ImportError:
        return importlib.import_module("pickle")


def parse_partition(job: RecordJob, records: Iterable[Any]) -> list[RecordResult]:
    """One result per record, in order; `index` is the position in the partition."""
    processor = processor_for(job)
    return [processor.process(index, record) for index, record in enumerate(records)]


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def results_frame(job: RecordJob, texts: Any) -> Any:
    """A pandas DataFrame of results for a pandas Series of texts, on the same index."""
    pd = importlib.import_module("pandas")
    results = parse_partition(job, texts.tolist())
    return pd.DataFrame(
        {
            "outcome": [r.outcome for r in results],
            "value": [_json(r.value) if r.ok else None for r in results],
            "repairs": [_json([n.to_json() for n in r.repairs]) for r in results],
            "error": [None if r.error is None else _json(r.error.to_json()) for r in results],
        },
        index=texts.index,
        columns=list(RESULT_COLUMNS),
    )
