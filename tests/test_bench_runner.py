"""The benchmark runner: how outcomes are classified, how hangs and crashes are scored, what the reports hold."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from resilient_parse.bench.corpus.models import DeleteFile, GetWeather, ReadFile, ToolCall
from resilient_parse.bench.corpus_loader import Case, load_corpus
from resilient_parse.bench.peers import System, select, tool_calls
from resilient_parse.bench.report import render
from resilient_parse.bench.runner import (
    CaseResult,
    by_category,
    classify,
    figures,
    percentile,
    run,
    run_system,
    same,
    summarize,
)
from resilient_parse.bench.tables import format_tables

SEARCH = {"action": "search", "arguments": {}}


def corpus(tmp_path: Path, *lines: Mapping[str, Any]) -> list[Case]:
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return load_corpus([path])


def case(case_id: str, text: str, expected: Any, category: str = "misc", **extra: Any) -> dict[str, Any]:
    return {"id": case_id, "category": category, "target": "ToolCall", "input": text, "expected": expected, **extra}


def system(name: str, adapter: Any, mode: str | None = None) -> System:
    return System(name, "test system", None, lambda aliases: adapter, mode)


# -- classification --------------------------------------------------------------------------------------------


def test_the_expected_object_is_correct() -> None:
    assert classify(SEARCH, True, {"action": "search", "arguments": {}}) == "correct"


def test_another_object_is_wrong() -> None:
    assert classify(SEARCH, True, {"action": "lookup", "arguments": {}}) == "wrong"


def test_an_object_where_a_reject_is_expected_is_a_false_accept() -> None:
    assert classify(None, True, SEARCH) == "false_accept"


def test_an_error_where_an_object_is_expected_is_rejected() -> None:
    assert classify(SEARCH, False) == "rejected"


def test_an_error_where_a_reject_is_expected_is_a_correct_reject() -> None:
    assert classify(None, False) == "correct_reject"


def test_true_is_not_one_when_comparing_objects() -> None:
    assert not same({"arguments": {"limit": True}}, {"arguments": {"limit": 1}})
    assert same({"score": 1}, {"score": 1.0})
    assert not same([1, 2], [1, 2, 3])
    assert not same({"a": 1}, {"a": 1, "b": 2})
    assert not same("1", 1)


def test_percentile_is_nearest_rank() -> None:
    assert percentile([5.0, 1.0, 3.0], 50) == 3.0
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    assert percentile([], 50) == 0.0


def test_summary_percentages_count_correct_rejections_as_correct() -> None:
    results = [
        CaseResult("a", "x", "s", "correct", 0.001),
        CaseResult("b", "x", "s", "correct_reject", 0.002),
        CaseResult("c", "x", "s", "false_accept", 0.003),
        CaseResult("d", "y", "s", "rejected", 0.004, error="timeout: no answer within 1 s"),
    ]
    s = summarize(results)
    assert (s["correct_pct"], s["wrong_pct"], s["false_accept_pct"], s["rejected_pct"]) == (50.0, 0.0, 25.0, 25.0)
    assert s["timeouts"] == 1
    assert (s["recovered_pct"], s["rejects_caught_pct"]) == (50.0, 50.0)
    assert s["latency_ms"]["median"] == 2.0
    assert by_category(results)["x"]["s"] == {"cases": 3, "correct": 2, "correct_pct": 66.7}


# -- running systems in worker processes ---------------------------------------------------------------------------


def test_each_outcome_is_scored_from_what_the_system_returned(tmp_path: Path) -> None:
    cases = corpus(
        tmp_path,
        case("ok", '{"action": "search"}', SEARCH),
        case("other", '{"action": "lookup"}', SEARCH),
        case("refusal", '{"action": "refuse"}', None),
        case("broken", "{action: search}", SEARCH),
    )

    def naive(text: str, target: Any) -> Any:
        return target.model_validate_json(text)

    outcomes = {r.case_id: r.outcome for r in run_system(system("naive", naive), cases, timeout=5)}
    assert outcomes == {"ok": "correct", "other": "wrong", "refusal": "false_accept", "broken": "rejected"}


def test_a_hanging_case_is_rejected_after_the_timeout_and_the_next_case_still_runs(tmp_path: Path) -> None:
    cases = corpus(tmp_path, case("hang", "HANG", SEARCH), case("after", '{"action": "search"}', SEARCH))

    def sometimes_hangs(text: str, target: Any) -> Any:
        if text == "HANG":
            time.sleep(60)
        return target.model_validate_json(text)

    results = run_system(system("hangs", sometimes_hangs), cases, timeout=0.5)
    assert [(r.case_id, r.outcome) for r in results] == [("hang", "rejected"), ("after", "correct")]
    assert results[0].error is not None and results[0].error.startswith("timeout")


def test_a_crashing_case_is_rejected_and_the_worker_restarts(tmp_path: Path) -> None:
    cases = corpus(tmp_path, case("crash", "CRASH", SEARCH), case("after", '{"action": "search"}', SEARCH))

    def sometimes_crashes(text: str, target: Any) -> Any:
        if text == "CRASH":
            os._exit(3)
        return target.model_validate_json(text)

    results = run_system(system("crashes", sometimes_crashes), cases, timeout=5)
    assert [(r.case_id, r.outcome) for r in results] == [("crash", "rejected"), ("after", "correct")]
    assert results[0].error is not None and results[0].error.startswith("crash")


def test_strict_is_graded_against_expected_and_scored_by_expected_strict_beside_it(tmp_path: Path) -> None:
    # issue 15: every system, ours in both modes, is graded against the same `expected`; the strict policy's own
    # key (`expected_strict`) gives a second, labelled score. (This test used to assert outcome == "false_accept":
    # strict graded against its own key.)
    cases = corpus(tmp_path, case("case", '{"Action": "search"}', SEARCH, expected_strict=None))
    lenient_like = system("fixes-case", lambda text, target: ToolCall(action="search"), mode="strict")
    [result] = run_system(lenient_like, cases, timeout=5)
    assert result.outcome == "correct"
    assert result.policy_outcome == "false_accept"


def test_peers_are_not_scored_on_strict_only_cases(tmp_path: Path) -> None:
    cases = corpus(tmp_path, case("s", '{"Action": "search"}', None, mode="strict"), case("b", "{}", None))
    results = run_system(system("peer", lambda text, target: 1 / 0), cases, timeout=5)
    assert [r.case_id for r in results] == ["b"]


def test_our_parser_gets_the_case_aliases(tmp_path: Path) -> None:
    cases = corpus(tmp_path, case("alias", '{"tool": "search"}', SEARCH, aliases={"tool": "action"}))
    [strict] = select("resilient_parse:strict")
    [result] = run_system(strict, cases, timeout=10)
    assert result.outcome == "correct"


def test_a_system_whose_package_is_missing_is_skipped_with_a_reason(tmp_path: Path) -> None:
    cases = corpus(tmp_path, case("ok", '{"action": "search"}', SEARCH))
    missing = System("ghost", "not installed", "no_such_package_xyz", lambda aliases: lambda t, target: None)
    results, skipped = run(cases, [missing], timeout=5, progress=False)
    assert results == []
    assert skipped == [
        {"system": "ghost", "reason": "no_such_package_xyz is not installed (pip install 'resilient-parse[bench]')"}
    ]


def test_select_expands_resilient_parse_to_both_modes_and_filters_by_mode() -> None:
    assert [s.name for s in select("resilient_parse,json")] == [
        "resilient_parse:strict",
        "resilient_parse:lenient",
        "json",
    ]
    assert [s.name for s in select("resilient_parse,json", mode="strict")] == ["resilient_parse:strict", "json"]
    with pytest.raises(ValueError, match="unknown system 'jsonn'"):
        select("jsonn")


# -- tool calls in text: the peers' wrapper --------------------------------------------------------------------------

TOOLS = "resilient_parse.bench.corpus.models:AgentTools"
HERMES_CALLS = (
    '<tool_call>{"name": "delete_file", "arguments": {"path": "/a"}}</tool_call>\n'
    '<tool_call>{"name": "functions.read_file", "arguments": {"path": "/b"}}</tool_call>'
)


def test_the_peers_tool_call_wrapper_picks_each_tool_by_its_name() -> None:
    read = tool_calls(json.loads)
    tools = ReadFile | DeleteFile | GetWeather
    assert read(HERMES_CALLS, list[tools]) == [DeleteFile(path="/a"), ReadFile(path="/b")]
    assert read(HERMES_CALLS, tools) == DeleteFile(path="/a")  # one tool: the first call, as `tool_calls[0]`
    kimi = '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"}<|tool_call_end|>'
    assert read(kimi, tools) == GetWeather(city="Oslo")
    assert read('[{"read_file": {"path": "/b"}}]', list[tools]) == [ReadFile(path="/b")]  # keyed by the tool's name
    with pytest.raises(ValueError, match="no tool named 'drop_all'"):
        read('<tool_call>{"name": "drop_all", "arguments": {"path": "/"}}</tool_call>', tools)
    with pytest.raises(json.JSONDecodeError):  # a loader that cannot read the arguments fails as it does alone
        read("<tool_call>{'name': 'read_file', 'arguments': {'path': '/b'}}</tool_call>", tools)


def test_peers_read_tool_text_cases_through_the_wrapper_and_others_as_before(tmp_path: Path) -> None:
    calls = [{"kind": "delete_file", "path": "/a"}, {"kind": "read_file", "path": "/b"}]
    cases = corpus(
        tmp_path,
        {**case("tools", HERMES_CALLS, calls, "tool_text"), "target": f"list[{TOOLS}]"},
        {**case("other", HERMES_CALLS, None, "fences"), "target": f"list[{TOOLS}]"},  # json.loads alone: no
    )
    [peer] = select("json")
    outcomes = {r.case_id: r.outcome for r in run_system(peer, cases, timeout=10)}
    assert outcomes == {"tools": "correct", "other": "correct_reject"}


# -- reports -------------------------------------------------------------------------------------------------------


def _figures(tmp_path: Path) -> dict[str, Any]:
    cases = corpus(
        tmp_path,
        case("ok", '{"action": "search"}', SEARCH, category="valid"),
        case("fenced", '```json\n{"action": "search",}\n```', SEARCH, category="fences"),
        case("refusal", "I'm sorry, I can't help with that.", None, category="rejects"),
    )
    systems = select("resilient_parse:lenient,json")
    results, skipped = run(cases, systems, timeout=10, progress=False)
    return figures(cases, results, systems, skipped, ["c.jsonl"], 1.0)


def test_the_table_has_a_row_per_system_and_a_category_matrix(tmp_path: Path) -> None:
    fig = _figures(tmp_path)
    assert fig["summary"]["resilient_parse:lenient"]["correct_pct"] == 100.0
    assert fig["summary"]["json"]["correct_pct"] == pytest.approx(66.7)
    text = format_tables(fig)
    assert "resilient_parse:lenient      3   100.0%" in text
    json_row = next(line for line in text.splitlines() if line.startswith("json "))
    assert json_row.split()[1:7] == ["3", "66.7%", "0.0%", "0.0%", "33.3%", "50.0%"]
    assert "correct % by category" in text
    fences_row = next(line for line in text.splitlines() if line.startswith("fences"))
    assert fences_row.split()[1:] == ["1", "100", "0"]


def test_the_html_report_is_self_contained(tmp_path: Path) -> None:
    page = render(_figures(tmp_path))
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == 3
    assert "http://" not in page and "https://" not in page
    assert "<script" not in page and "<link" not in page
