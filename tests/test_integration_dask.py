"""The Dask integration on a real 2-worker LocalCluster (processes, one thread each): the parser travels to the
workers as its recipe and the results equal the single-process run record for record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_batch_support import NoDraftTitles, Review, Trapped, mixed_texts

from resilient_parse import Parser
from resilient_parse.batch import process_records
from resilient_parse.integrations.partitions import make_job

db = pytest.importorskip("dask.bag")
distributed = pytest.importorskip("distributed")
from resilient_parse.integrations.dask import parse_bag, parse_dataframe  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    with distributed.Client(cluster) as connected:
        yield connected
    cluster.close()


def local_json(texts: list[str], target: Any, parser: Parser | None = None, **job: Any) -> list[dict[str, Any]]:
    """The single-process run of the same job."""
    return [r.to_json() for r in process_records(make_job(target, parser=parser, **job), texts, workers=0)]


def without_index(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "index"} for r in records]  # a bag numbers within its partition


def test_a_bag_on_the_cluster_equals_the_local_run(client: Any) -> None:
    texts = mixed_texts(2_000)
    bag = db.from_sequence(texts, npartitions=4)
    on_cluster = parse_bag(bag, Trapped).compute()
    assert {info["name"] for info in client.scheduler_info()["workers"].values()} and len(on_cluster) == 2_000
    assert without_index(on_cluster) == without_index(local_json(texts, Trapped))
    ran_on = client.run(lambda: __import__("os").getpid())
    assert len(set(ran_on.values())) == 2  # two worker processes


def test_a_parser_with_a_plugin_and_a_mode_travels_to_the_workers(client: Any) -> None:
    parser = Parser(mode="strict", plugins=[NoDraftTitles()])
    texts = ['{"title": "Draft: x", "rating": 1}', '{"Title": "y", "rating": 2}', "{'title': 'z', 'rating': 3}"] * 40
    on_cluster = parse_bag(db.from_sequence(texts, npartitions=3), Review, parser=parser).compute()
    assert [r["outcome"] for r in on_cluster[:3]] == ["refused", "refused", "repaired"]
    assert on_cluster[0]["error"]["errors"][0]["kind"] == "draft_title"  # the plugin ran on a worker
    assert on_cluster[1]["error"]["type"] == "SchemaMismatchError"  # strict: Title is not title
    assert without_index(on_cluster) == without_index(local_json(texts, Review, parser))


def test_records_with_their_own_settings_in_a_bag(client: Any) -> None:
    records = [json.dumps({"text": '{"Action": "x"}', "mode": m}) for m in ("strict", "lenient")] * 10
    out = parse_bag(db.from_sequence(records, npartitions=2), Trapped, text_field="text").compute()
    assert [r["outcome"] for r in out] == ["refused", "repaired"] * 10
    assert without_index(out) == without_index(local_json(records, Trapped, text_field="text", raw_text=False))


def test_a_dataframe_column_on_the_cluster_equals_the_local_run(client: Any) -> None:
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    texts = mixed_texts(600)
    frame = dd.from_pandas(pd.DataFrame({"completion": texts, "prompt_id": range(600)}), npartitions=3)
    out = parse_dataframe(frame, "completion", Trapped).compute()
    local = local_json(texts, Trapped)
    assert list(out.index) == list(range(600))
    assert list(out["outcome"]) == [r["outcome"] for r in local]

    def cells(column: str) -> list[Any]:  # a missing cell may come back as NaN (pandas' string columns)
        return [None if pd.isna(v) else json.loads(v) for v in out[column]]

    assert cells("value") == [r["value"] if r["outcome"] in ("recovered", "repaired") else None for r in local]
    assert cells("repairs") == [r["repairs"] for r in local]
    assert cells("error") == [r["error"] for r in local]
