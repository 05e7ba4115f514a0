"""Dask: parse a `dask.bag` of texts or records, or a text column of a `dask.dataframe`, on any cluster.

    from distributed import Client, LocalCluster
    from resilient_parse.integrations.dask import parse_bag, parse_dataframe

    client = Client(LocalCluster(n_workers=8, threads_per_worker=1))
    results = parse_bag(db.read_text("logs/*.txt"), ToolCall, parser=Parser(mode="strict")).compute()
    frame = parse_dataframe(dd.read_parquet("logs/"), "completion", ToolCall)   # + outcome/value/repairs/error

The parser travels as its recipe (entry-point plugins are loaded again on each worker); each worker process builds
one parser per job. Unlike `resilient-parse batch`, a record that hangs or kills its worker is the engine's to
handle: Dask has no per-task timeout, and a task whose worker dies is retried elsewhere up to
`distributed.scheduler.allowed-failures` times, then fails with `KilledWorker`. Run logs that may hold such
records (a plugin that can crash, a validator that can hang) through the batch pool instead.
"""

from __future__ import annotations

import importlib
from typing import Any

from resilient_parse.integrations.partitions import RESULT_COLUMNS, make_job, parse_partition, results_frame
from resilient_parse.parser import Parser
from resilient_parse.policy import Policy


def _results_json(records: Any, job: Any) -> list[dict[str, Any]]:
    return [r.to_json() for r in parse_partition(job, records)]


def parse_bag(
    bag: Any,
    target: Any = None,
    *,
    parser: Parser | None = None,
    mode: str | Policy = "lenient",
    target_spec: str | None = None,
    text_field: str | None = None,
) -> Any:
    """A bag of output records (`RecordResult.to_json()`: index within the partition, id, outcome, value as JSON,
    repairs, error), one per element, in order. Elements are texts, or — with `text_field` — records (dicts or
    JSON lines) whose text is under that field and which may name their own target/mode/aliases."""
    job = make_job(
        target,
        parser=parser,
        mode=mode,
        target_spec=target_spec,
        text_field=text_field or "text",
        raw_text=text_field is None,
    )
    return bag.map_partitions(_results_json, job)


def parse_dataframe(
    frame: Any,
    text_column: str,
    target: Any = None,
    *,
    parser: Parser | None = None,
    mode: str | Policy = "lenient",
    target_spec: str | None = None,
) -> Any:
    """A dask DataFrame on `frame`'s index with the columns outcome, value, repairs and error (JSON text)."""
    pd = importlib.import_module("pandas")
    job = make_job(target, parser=parser, mode=mode, target_spec=target_spec)
    meta = pd.DataFrame({column: pd.Series(dtype="object") for column in RESULT_COLUMNS})
    return frame[text_column].map_partitions(_frame, job, meta=meta)


def _frame(texts: Any, job: Any) -> Any:
    return results_frame(job, texts)
