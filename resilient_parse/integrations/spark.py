"""Spark: a function for `DataFrame.mapInPandas` that parses a text column, with the schema it returns.

    from resilient_parse.integrations.spark import SPARK_SCHEMA, spark_parser
    results = logs.mapInPandas(spark_parser(ToolCall, text_column="completion"), SPARK_SCHEMA)
    joined = logs.mapInPandas(spark_parser(ToolCall, text_column="completion", keep=["id"]), "id long, " + SPARK_SCHEMA)

Each Python worker builds one parser per job from its recipe (entry-point plugins load on the executor). The
function keeps no Spark import, so it is testable with pandas alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from resilient_parse.integrations.partitions import SPARK_SCHEMA, make_job, results_frame
from resilient_parse.parser import Parser
from resilient_parse.policy import Policy

__all__ = ["SPARK_SCHEMA", "spark_parser"]


def spark_parser(
    target: Any = None,
    *,
    text_column: str = "text",
    parser: Parser | None = None,
    mode: str | Policy = "lenient",
    target_spec: str | None = None,
    keep: Sequence[str] = (),
) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The `mapInPandas` function: batches of rows in, batches of (outcome, value, repairs, error) out, in order,
    after the input columns named in `keep` (put them first in the schema too)."""
    job = make_job(target, parser=parser, mode=mode, target_spec=target_spec)
    kept = list(keep)

    def parse_batches(batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            results = results_frame(job, batch[text_column])
            if kept:
                results = batch[kept].join(results)
            yield results.reset_index(drop=True)

    return parse_batches
