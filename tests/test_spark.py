"""The Spark route: `mapInPandas` with `spark_parser` on a local-mode session (2 cores) gives the single-process
results row for row."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_batch_support import Trapped, mixed_texts

from resilient_parse.batch import process_records
from resilient_parse.integrations.partitions import make_job

pyspark_sql = pytest.importorskip("pyspark.sql")
pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
from resilient_parse.integrations.spark import SPARK_SCHEMA, spark_parser  # noqa: E402


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    saved = {name: os.environ.get(name) for name in ("PYSPARK_PYTHON", "PYTHONPATH")}
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the executors' Python must have resilient_parse
    here = str(Path(__file__).parent)  # the executors import the test's target from here
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (here, saved["PYTHONPATH"]) if p)
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("resilient-parse-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def test_map_in_pandas_equals_the_single_process_run(spark: Any) -> None:
    texts = mixed_texts(600)
    frame = spark.createDataFrame([(i, t) for i, t in enumerate(texts)], "id long, completion string")
    parse = spark_parser(Trapped, text_column="completion", keep=["id"])
    got = [row.asDict() for row in frame.mapInPandas(parse, "id long, " + SPARK_SCHEMA).collect()]
    assert [r["id"] for r in got] == list(range(600))
    local = [r.to_json() for r in process_records(make_job(Trapped), texts, workers=0)]

    def cell(text: str | None) -> Any:
        return None if text is None else json.loads(text)

    assert [r["outcome"] for r in got] == [r["outcome"] for r in local]
    assert [cell(r["value"]) for r in got] == [r["value"] if r["outcome"] != "refused" else None for r in local]
    assert [cell(r["repairs"]) for r in got] == [r["repairs"] for r in local]
    assert [cell(r["error"]) for r in got] == [r["error"] for r in local]
