"""resilient_parse.batch: one result per record, in order, whether the record parses, is refused, hangs past its
timeout or kills its worker; a parser's configuration travels to the workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_batch_support import EXPECTED_CYCLE, MisspelledHook, NoDraftTitles, Review, Trapped, mixed_texts

from resilient_parse import Parser
from resilient_parse.batch import ParserRecipe, RecordJob, RecordPool, RecordResult, Summary, parse_many
from resilient_parse.batch.files import resume_jsonl
from resilient_parse.batch.job import RecordProcessor
from resilient_parse.batch.progress import Progress
from resilient_parse.errors import ConfigurationError


def test_parse_many_in_process_gives_each_text_its_outcome_in_order() -> None:
    texts = mixed_texts(60)
    results = parse_many(texts, Trapped, workers=0)
    assert [r.index for r in results] == list(range(60))
    assert [r.outcome for r in results] == [EXPECTED_CYCLE[i % 6] for i in range(60)]
    assert results[0].value == Trapped(action="a0", n=0)
    assert {n.kind for n in results[2].repairs} == {"key_case"} and not results[2].repairs[0].lossless
    assert results[3].error is not None and results[3].error.type == "RefusalError"
    assert results[4].error is not None and "/n" in results[4].error.paths


def test_the_pool_returns_what_one_process_returns_record_for_record() -> None:
    texts = mixed_texts(300)
    assert parse_many(texts, Trapped, workers=2, chunksize=7) == parse_many(texts, Trapped, workers=0)


def test_a_record_that_hangs_or_kills_its_worker_is_kept_and_the_others_still_parse() -> None:
    texts = mixed_texts(200)
    texts[37] = '{"action": "hang"}'
    texts[150] = '{"action": "die"}'
    texts[151] = '{"action": "die"}'  # two in a row: the replacement worker dies too
    job = RecordJob(target=Trapped, raw_text=True, as_json=False)
    with RecordPool(job, 2, chunksize=16, timeout=1.0) as pool:
        results = list(pool.imap(texts))
        replaced = pool.replaced
    reference = parse_many(texts[:37] + texts[38:150] + texts[152:], Trapped, workers=0)
    assert [r.index for r in results] == list(range(200))
    assert results[37].outcome == "timeout" and results[37].value is None
    assert [results[150].outcome, results[151].outcome] == ["crashed", "crashed"]
    assert results[150].error is not None and "exit code 3" in results[150].error.message
    survivors = [r for i, r in enumerate(results) if i not in (37, 150, 151)]
    assert [(r.outcome, r.value, r.repairs) for r in survivors] == [(r.outcome, r.value, r.repairs) for r in reference]
    assert replaced == 3


def test_a_callers_plugin_blocked_names_and_entry_point_plugins_travel_to_the_workers() -> None:
    parser = Parser(mode="strict", plugins=[NoDraftTitles()], blocked_plugins=["toolcalls"])
    recipe = ParserRecipe.of(parser)
    assert recipe.build().host.names == parser.host.names  # planner (an entry point) loads again; toolcalls not
    texts = [
        '{"title": "Draft: dune", "rating": 4}',
        '{"title": "Dune", "rating": 4}',
        "{'title': 'Dune', 'rating': 5}",
    ]
    pooled = parse_many(texts, Review, parser=parser, workers=2, chunksize=1)
    assert [r.outcome for r in pooled] == ["refused", "recovered", "repaired"]
    assert pooled[0].error is not None and pooled[0].error.errors[0]["kind"] == "draft_title"
    assert pooled == parse_many(texts, Review, parser=parser, workers=0)


def test_entry_point_plugins_check_records_on_the_workers() -> None:
    plan_module = pytest.importorskip("rp_planner")
    cyclic = {
        "objective": "ship",
        "steps": [
            {"id": "S1", "title": "build it", "dependencies": ["S2"]},
            {"id": "S2", "title": "test it", "dependencies": ["S1"]},
        ],
    }
    results = parse_many([json.dumps(cyclic)], plan_module.TaskPlan, workers=1)
    assert results[0].outcome == "refused"
    assert results[0].error is not None and "dependency_cycle" in {e["kind"] for e in results[0].error.errors}


def test_a_parser_that_cannot_be_built_on_the_workers_fails_the_run_not_each_record() -> None:
    job = RecordJob(recipe=ParserRecipe(plugins=(MisspelledHook(),)), target=Review, raw_text=True)
    with RecordPool(job, 1) as pool, pytest.raises(ConfigurationError, match="could not start"):
        list(pool.imap(["{}"]))
    with pytest.raises(ConfigurationError):
        RecordPool(job, 0)


def test_a_target_pydantic_cannot_read_makes_each_record_invalid_not_the_run() -> None:
    # Pydantic raises SyntaxError for this target; the parser reports it as a ConfigurationError
    results = parse_many(['{"title": "x", "rating": 1}', "{}"], "not a type", workers=0)
    assert [r.outcome for r in results] == ["invalid", "invalid"]
    assert results[0].error is not None and "cannot validate target" in results[0].error.message


def test_records_round_trip_through_their_json_form() -> None:
    for result in parse_many(mixed_texts(12), Trapped, workers=0):
        as_json = json.loads(json.dumps({**result.to_json(), "value": None}))
        back = RecordResult.from_json(as_json)
        assert (back.index, back.outcome, back.repairs, back.error) == (
            result.index,
            result.outcome,
            result.repairs,
            result.error,
        )


def test_resume_keeps_complete_records_and_cuts_a_torn_last_line(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    lines = [json.dumps(r.to_json()) for r in parse_many(mixed_texts(3), Review, workers=0)]
    out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:10], encoding="utf-8")
    seen: list[int] = []
    assert resume_jsonl(str(out), lambda r: seen.append(r.index)) == 2
    assert seen == [0, 1]
    assert out.read_text(encoding="utf-8") == "\n".join(lines[:2]) + "\n"


def test_the_summary_counts_outcomes_repair_kinds_and_failing_paths_within_80_columns() -> None:
    summary = Summary()
    texts = mixed_texts(600)
    texts[5] = '{"action": "' + "x" * 200 + '", "n": "a long failing value"}'
    for result in parse_many(texts, Trapped, workers=0):
        summary.add(result)
    table = summary.render(seconds=1.5, workers=2)
    assert all(len(line) <= 80 for line in table.splitlines())
    assert summary.outcomes == {"recovered": 100, "repaired": 200, "refused": 300}
    assert summary.failures["RefusalError"] == 100 and summary.failing_paths["/n"] == 101  # 100 + texts[5]
    assert summary.repair_kinds["key_case"] == 100 and "key_case" in summary.lossy_kinds
    assert "600 records in 1.5 s (400/s), 2 workers" in table
    assert "/n" in table and "key_case" in table and "RefusalError" in table


def test_progress_without_a_terminal_is_a_plain_line_with_rate_and_eta(capsys: pytest.CaptureFixture[str]) -> None:
    progress = Progress(10_000, initial=1_000, enabled=True)  # stderr is captured: not a terminal, no tqdm bar
    progress.update(3_000)
    line = progress.line(2.0)
    assert line == "batch: 4,000/10,000 records (40%), 1,500/s, ETA 4 s"
    progress.close()
    assert capsys.readouterr().err == ""  # nothing printed before the first interval


def test_an_invalid_record_keeps_its_id() -> None:
    """A record without its text is `invalid`, and still says which record it was (found by an outside attack)."""
    processor = RecordProcessor(RecordJob(target=Review))
    results = [processor.process(i, line) for i, line in enumerate(['{"id": "r-7", "other": 1}', '{"id": "r-8"}'])]
    assert [(r.outcome, r.id) for r in results] == [("invalid", "r-7"), ("invalid", "r-8")]
