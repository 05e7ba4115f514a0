"""The plan's dependency graph: defects reported with paths and ids in order, and an execution order."""

from __future__ import annotations

from typing import Any

import pytest
from rp_planner import TaskPlan, describe_cycle, execution_layers, execution_order, find_cycles, graph_errors

from resilient_parse import SemanticCheckError


def plan(*steps: tuple[str, list[str]]) -> TaskPlan:
    """A plan from (id, dependencies) pairs."""
    rows: list[dict[str, Any]] = [{"id": sid, "title": f"do {sid}", "dependencies": deps} for sid, deps in steps]
    return TaskPlan(objective="test", steps=rows)  # type: ignore[arg-type]


def kinds(p: TaskPlan, **options: bool) -> list[tuple[str, str]]:
    return [(e.kind, e.path) for e in graph_errors(p.steps, **options)]


def test_a_sound_graph_has_no_errors() -> None:
    assert kinds(plan(("S1", []), ("S2", ["S1"]), ("S3", ["S1", "S2"]))) == []


def test_a_duplicate_id_is_reported_at_the_second_occurrence() -> None:
    assert kinds(plan(("S1", []), ("S1", []))) == [("duplicate_step_id", "/steps/1/id")]


def test_a_step_depending_on_itself_is_reported() -> None:
    assert kinds(plan(("S1", []), ("S2", ["S2"]))) == [("self_dependency", "/steps/1/dependencies/0")]


def test_an_unknown_dependency_names_the_missing_step() -> None:
    errors = graph_errors(plan(("S1", []), ("S2", ["S1", "S9"])).steps)
    assert [(e.kind, e.path, e.got) for e in errors] == [("unknown_dependency", "/steps/1/dependencies/1", "S9")]
    assert "S2 depends on S9, which is not a step" in errors[0].message


def test_a_two_step_cycle_is_reported_with_its_ids_in_order() -> None:
    errors = graph_errors(plan(("S1", ["S3"]), ("S2", []), ("S3", ["S1"])).steps)
    assert [(e.kind, e.path, e.got) for e in errors] == [("dependency_cycle", "/steps/0/dependencies", ["S1", "S3"])]
    assert "S1 depends on S3 which depends on S1" in errors[0].message


def test_a_three_step_cycle_reads_as_a_chain() -> None:
    cycles = find_cycles(plan(("S1", ["S2"]), ("S2", ["S3"]), ("S3", ["S1"])).steps)
    assert cycles == [["S1", "S2", "S3"]]
    assert describe_cycle(cycles[0]) == "S1 depends on S2 which depends on S3 which depends on S1"


def test_two_separate_cycles_are_both_reported() -> None:
    p = plan(("S1", ["S2"]), ("S2", ["S1"]), ("S3", ["S4"]), ("S4", ["S3"]))
    assert find_cycles(p.steps) == [["S1", "S2"], ["S3", "S4"]]


def test_forward_dependencies_are_allowed_unless_backwards_only() -> None:
    p = plan(("S1", ["S2"]), ("S2", []))
    assert kinds(p) == []
    assert kinds(p, backwards_only=True) == [("forward_dependency", "/steps/0/dependencies/0")]


def test_execution_order_puts_dependencies_first_and_keeps_plan_order_otherwise() -> None:
    p = plan(("S1", ["S3"]), ("S2", []), ("S3", []), ("S4", ["S1", "S2"]))
    assert execution_order(p) == ["S2", "S3", "S1", "S4"]


def test_execution_layers_group_steps_that_can_run_together() -> None:
    p = plan(("S1", []), ("S2", []), ("S3", ["S1"]), ("S4", ["S2", "S3"]))
    assert execution_layers(p) == [["S1", "S2"], ["S3"], ["S4"]]


def test_ordering_a_cyclic_plan_raises_a_semantic_error_with_the_cycle() -> None:
    p = plan(("S1", ["S2"]), ("S2", ["S1"]))
    with pytest.raises(SemanticCheckError) as info:
        execution_order(p)
    assert info.value.errors[0]["kind"] == "dependency_cycle"
    assert "S1 depends on S2 which depends on S1" in str(info.value)
