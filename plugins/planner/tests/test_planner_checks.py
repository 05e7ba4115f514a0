"""The configurable plan checks: tool whitelist, step limits, user risk rules, "does nothing", and reference
repairs that never invent a step or a tool."""

from __future__ import annotations

from typing import Any

import pytest
from rp_planner import PlannerConfig, RiskRule, TaskPlan, check_plan, match_tool, normalise_step_ref

from resilient_parse import ConfigurationError


def make_plan(objective: str = "Publish the quarterly report", **step_fields: Any) -> TaskPlan:
    steps = step_fields.pop("steps", None) or [
        {"id": "S1", "title": "Collect the figures", **step_fields},
        {"id": "S2", "title": "Write the summary", "dependencies": ["S1"]},
    ]
    return TaskPlan(objective=objective, steps=steps)


def kinds(plan: TaskPlan, config: PlannerConfig) -> list[tuple[str, str]]:
    return [(e.kind, e.path) for e in check_plan(plan, config)]


def test_a_whitelisted_tool_passes_and_another_is_reported_with_the_choices() -> None:
    config = PlannerConfig(tools=frozenset({"web_search", "read_file"}))
    assert kinds(make_plan(tool="web_search"), config) == []
    errors = check_plan(make_plan(tool="send_email"), config)
    assert [(e.kind, e.path, e.got) for e in errors] == [("tool_not_allowed", "/steps/0/tool", "send_email")]
    assert "available tools: read_file, web_search" in errors[0].message


def test_the_whitelist_error_suggests_the_one_tool_a_typo_away() -> None:
    errors = check_plan(make_plan(tool="web_serch"), PlannerConfig(tools=frozenset({"web_search", "read_file"})))
    assert "did you mean web_search?" in errors[0].message


def test_without_a_whitelist_any_tool_hint_is_accepted() -> None:
    assert kinds(make_plan(tool="anything"), PlannerConfig()) == []


def test_a_step_without_a_tool_is_reported_when_tools_are_required() -> None:
    config = PlannerConfig(tools=frozenset({"web_search"}), allow_no_tool=False)
    plan = make_plan(tool="web_search")
    assert kinds(plan, config) == [("missing_tool", "/steps/1/tool")]


def test_step_count_limits_come_from_the_config() -> None:
    assert kinds(make_plan(), PlannerConfig(min_steps=3)) == [("too_few_steps", "/steps")]
    assert kinds(make_plan(), PlannerConfig(max_steps=1)) == [("too_many_steps", "/steps")]


def test_a_risk_rule_by_pattern_requires_the_matching_step_to_be_marked_high() -> None:
    rule = RiskRule("deletes data", pattern=r"\b(delete|drop|wipe)\b")
    config = PlannerConfig(risk_rules=(rule,))
    steps = [{"id": "S1", "title": "Drop the staging table", "risk": "medium"}, {"id": "S2", "title": "Report"}]
    errors = check_plan(make_plan(steps=steps), config)
    assert [(e.kind, e.path, e.got) for e in errors] == [("risk_understated", "/steps/0/risk", "medium")]
    assert "S1 is marked medium risk but deletes data: it must be marked high" in errors[0].message
    steps[0]["risk"] = "high"
    assert kinds(make_plan(steps=steps), config) == []


def test_a_risk_rule_by_tool_or_predicate_matches_too() -> None:
    by_tool = RiskRule("moves money", tools=frozenset({"send_payment"}))
    by_predicate = RiskRule("touches production", predicate=lambda s: "prod" in s.description, level="medium")
    config = PlannerConfig(risk_rules=(by_tool, by_predicate))
    steps = [
        {"id": "S1", "title": "Pay the invoice", "tool": "send_payment"},
        {"id": "S2", "title": "Deploy", "description": "push to prod"},
    ]
    assert kinds(make_plan(steps=steps), config) == [
        ("risk_understated", "/steps/0/risk"),
        ("risk_understated", "/steps/1/risk"),
    ]


def test_a_single_step_that_restates_the_objective_does_nothing() -> None:
    steps = [{"id": "S1", "title": "Publish the quarterly report."}]
    assert kinds(make_plan(steps=steps), PlannerConfig()) == [("plan_does_nothing", "/steps")]


def test_a_single_concrete_step_is_a_plan() -> None:
    steps = [{"id": "S1", "title": "Export the Q3 figures from the ledger and email the PDF to finance"}]
    assert kinds(make_plan(steps=steps), PlannerConfig()) == []


def test_the_does_nothing_check_can_be_switched_off() -> None:
    steps = [{"id": "S1", "title": "Publish the quarterly report"}]
    assert kinds(make_plan(steps=steps), PlannerConfig(does_nothing_check=False)) == []


@pytest.mark.parametrize(
    ("written", "canonical"),
    [("s2", "S2"), ("step 2", "S2"), ("Step-2", "S2"), ("STEP_02", "S2"), ("S 12", "S12"), ("2", "S2"), (2, "S2")],
)
def test_step_references_written_another_way_read_as_the_canonical_id(written: object, canonical: str) -> None:
    found = normalise_step_ref(written)
    assert found is not None and found[0] == canonical


@pytest.mark.parametrize("written", ["S2", "the search step", "step", "S0", 0, True, None, "step 2b"])
def test_anything_else_is_not_a_step_reference(written: object) -> None:
    assert normalise_step_ref(written) is None


def test_a_tool_one_slip_away_from_exactly_one_tool_is_that_tool() -> None:
    tools = ["web_search", "read_file", "write_file"]
    assert match_tool("web_serch", tools) == "web_search"  # a vowel deleted
    assert match_tool("web_saerch", tools) == "web_search"  # two letters swapped
    assert match_tool("Web_Search", tools) == "web_search"  # case
    assert match_tool("functions.web_search", tools) == "web_search"  # a namespace


def test_a_tool_near_two_tools_or_far_from_all_is_never_guessed() -> None:
    tools = ["get_weather", "get_weathor", "write_file"]
    assert match_tool("get_weathar", tools) is None  # one slip from two tools
    assert match_tool("send_email", tools) is None  # from none
    # a consonant changed is another action, even with every tool known: the one matcher of every path
    for written, tool in [("change_card", "charge_card"), ("remote_file", "remove_file"), ("set_user", "get_user")]:
        assert match_tool(written, [tool]) is None


def test_bad_configuration_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError):
        PlannerConfig(min_steps=5, max_steps=2)
    with pytest.raises(ConfigurationError):
        RiskRule("matches nothing")
    with pytest.raises(ConfigurationError):
        RiskRule("bad regex", pattern="(")
