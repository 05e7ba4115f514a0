"""The planner through a plain `Parser`: found by entry point, configurable, repairs recorded, errors with paths."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel
from rp_planner import PlannerConfig, PlannerPlugin, RiskRule, TaskPlan, default_plugin

from resilient_parse import ParseError, Parser, SchemaMismatchError, SemanticCheckError

CYCLIC = json.dumps(
    {
        "objective": "Ship the release",
        "steps": [
            {"id": "S1", "title": "Build", "dependencies": ["S3"]},
            {"id": "S2", "title": "Test", "dependencies": ["S1"]},
            {"id": "S3", "title": "Tag", "dependencies": ["S1"]},
        ],
    }
)


def test_a_plain_parser_discovers_the_planner_through_its_entry_point() -> None:
    parser = Parser()
    assert "planner" in parser.host.names
    assert parser.host.pm.get_plugin("planner") is default_plugin


def test_a_cyclic_plan_fails_with_the_cycle_spelled_out() -> None:
    with pytest.raises(SemanticCheckError) as info:
        Parser().parse(CYCLIC, TaskPlan)
    assert info.value.errors == [
        {
            "path": "/steps/0/dependencies",
            "kind": "dependency_cycle",
            "message": "dependency cycle: S1 depends on S3 which depends on S1; a plan must be runnable in some order",
            "got": ["S1", "S3"],
        }
    ]


def test_blocking_the_planner_by_name_leaves_plans_unchecked() -> None:
    parser = Parser(blocked_plugins=["planner"])
    assert parser.host.pm.get_plugin("planner") is None
    assert parser.parse(CYCLIC, TaskPlan).steps[0].dependencies == ["S3"]


def test_a_configured_plugin_replaces_the_entry_point_default() -> None:
    mine = PlannerPlugin(PlannerConfig(backwards_only=True))
    parser = Parser(plugins=[mine])
    assert parser.host.pm.get_plugin("planner") is mine
    assert default_plugin not in parser.host.pm.get_plugins()
    forward = {
        "objective": "o",
        "steps": [{"id": "S1", "title": "a", "dependencies": ["S2"]}, {"id": "S2", "title": "b"}],
    }
    with pytest.raises(SemanticCheckError) as info:
        parser.parse(json.dumps(forward), TaskPlan)
    assert [e["kind"] for e in info.value.errors] == ["forward_dependency"]


def test_step_references_written_another_way_are_repaired_and_recorded() -> None:
    text = """{"objective": "Compare prices", "steps": [
        {"id": "S1", "title": "Find shops"},
        {"id": "S2", "title": "Get prices", "dependencies": ["s1"]},
        {"id": "S3", "title": "Compare", "dependencies": ["step 2", "Step-1"]}]}"""
    result = Parser().parse_result(text, TaskPlan)
    assert [s.dependencies for s in result.value.steps] == [[], ["S1"], ["S2", "S1"]]
    fixes = sorted((r.path, r.before, r.after) for r in result.repairs if r.kind == "semantic_fix")
    assert fixes == [
        ("/steps/1/dependencies/0", "s1", "S1"),
        ("/steps/2/dependencies/0", "step 2", "S2"),
        ("/steps/2/dependencies/1", "Step-1", "S1"),
    ]
    assert not result.lossless


@pytest.mark.parametrize(
    ("written", "ids"), [("S1, S2", ["S1", "S2"]), ("s1 and step 2", ["S1", "S2"]), ("none", []), ("S2", ["S2"])]
)
def test_a_dependency_list_written_as_one_string_is_read_as_ids(written: str, ids: list[str]) -> None:
    steps = [
        {"id": "S1", "title": "a"},
        {"id": "S2", "title": "b"},
        {"id": "S3", "title": "c", "dependencies": written},
    ]
    result = Parser().parse_result(json.dumps({"objective": "o", "steps": steps}), TaskPlan)
    assert result.value.steps[2].dependencies == ids
    assert [(r.kind, r.path, r.after) for r in result.repairs] == [("semantic_fix", "/steps/2/dependencies", ids)]


def test_a_dependency_string_that_is_not_all_step_references_is_not_split() -> None:
    steps = [{"id": "S1", "title": "a"}, {"id": "S2", "title": "b", "dependencies": "S1 and the budget approval"}]
    with pytest.raises(ParseError) as info:
        Parser().parse(json.dumps({"objective": "o", "steps": steps}), TaskPlan)
    assert info.value.errors[0]["path"].startswith("/steps/1/dependencies")


def test_a_repaired_reference_to_a_step_that_does_not_exist_is_still_an_error() -> None:
    text = (
        '{"objective": "o", "steps": [{"id": "S1", "title": "a"}, {"id": "S2", "title": "b", "dependencies": ["s7"]}]}'
    )
    with pytest.raises(SemanticCheckError) as info:
        Parser().parse(text, TaskPlan)
    assert [(e["kind"], e["got"]) for e in info.value.errors] == [("unknown_dependency", "S7")]


def test_strict_mode_does_not_rewrite_references() -> None:
    text = (
        '{"objective": "o", "steps": [{"id": "S1", "title": "a"}, {"id": "S2", "title": "b", "dependencies": ["s1"]}]}'
    )
    with pytest.raises(SchemaMismatchError) as info:
        Parser(mode="strict").parse(text, TaskPlan)
    assert info.value.errors[0]["path"] == "/steps/1/dependencies/0"


TOOLS = frozenset({"web_search", "read_file", "write_file"})


def tool_plan(tool: str) -> str:
    return json.dumps(
        {
            "objective": "Summarise the news",
            "steps": [
                {"id": "S1", "title": "Search", "tool": tool},
                {"id": "S2", "title": "Sum up", "dependencies": ["S1"]},
            ],
        }
    )


def test_a_tool_hint_one_typo_from_a_whitelisted_tool_is_repaired_in_the_restricted_model() -> None:
    plugin = PlannerPlugin(PlannerConfig(tools=TOOLS))
    result = Parser(plugins=[plugin]).parse_result(tool_plan("web_serch"), plugin.plan_model)
    assert result.value.steps[0].tool == "web_search"
    assert [(r.kind, r.path, r.before, r.after) for r in result.repairs] == [
        ("semantic_fix", "/steps/0/tool", "web_serch", "web_search")
    ]
    assert isinstance(result.value, TaskPlan)


def test_an_unknown_tool_is_never_invented() -> None:
    plugin = PlannerPlugin(PlannerConfig(tools=TOOLS))
    with pytest.raises(ParseError) as info:
        Parser(plugins=[plugin]).parse(tool_plan("send_email"), plugin.plan_model)
    assert info.value.errors[0]["path"] == "/steps/0/tool"
    assert info.value.errors[0]["kind"] == "tool_not_allowed"
    assert "read_file, web_search, write_file" in info.value.errors[0]["message"]


def test_a_tool_hint_one_typo_from_two_tools_is_refused_as_ambiguous() -> None:
    plugin = PlannerPlugin(PlannerConfig(tools=frozenset({"get_weather", "get_weathor"})))
    with pytest.raises(ParseError) as info:
        Parser(plugins=[plugin]).parse(tool_plan("get_weathar"), plugin.plan_model)
    assert info.value.errors[0]["kind"] == "ambiguous_tool"


def test_with_the_open_model_a_tool_outside_the_whitelist_is_a_semantic_error_with_a_suggestion() -> None:
    # strict: lenient repairs the typo through rp_repair_value (test_planner_value_repair.py)
    parser = Parser("strict", plugins=[PlannerPlugin(PlannerConfig(tools=TOOLS))])
    with pytest.raises(SemanticCheckError) as info:
        parser.parse(tool_plan("web_serch"), TaskPlan)
    assert "did you mean web_search?" in info.value.errors[0]["message"]


class AgentTurn(BaseModel):
    thought: str
    plan: TaskPlan


def test_a_plan_inside_a_larger_target_is_checked_with_paths_from_the_root() -> None:
    turn = json.dumps({"thought": "loop", "plan": json.loads(CYCLIC)})
    with pytest.raises(SemanticCheckError) as info:
        Parser().parse(turn, AgentTurn)
    assert info.value.errors[0]["path"] == "/plan/steps/0/dependencies"


def test_targets_without_a_plan_are_not_touched() -> None:
    class Step(BaseModel):
        id: str
        dependencies: list[str]

    value = Parser().parse('{"id": "s1", "dependencies": ["s1"]}', Step)
    assert value == Step(id="s1", dependencies=["s1"])


def test_risk_rules_reach_the_parse() -> None:
    rule = RiskRule("deletes data", pattern=r"\bdelete\b")
    parser = Parser(plugins=[PlannerPlugin(PlannerConfig(risk_rules=(rule,)))])
    text = """{"objective": "Clean up", "steps": [
        {"id": "S1", "title": "List old files"}, {"id": "S2", "title": "Delete them", "dependencies": ["S1"]}]}"""
    with pytest.raises(SemanticCheckError) as info:
        parser.parse(text, TaskPlan)
    assert info.value.errors[0]["path"] == "/steps/1/risk"


def test_the_feedback_for_a_plan_names_the_cycle_and_the_rules() -> None:
    parser = Parser(plugins=[PlannerPlugin(PlannerConfig(tools=TOOLS))])
    with pytest.raises(ParseError) as info:
        parser.parse(CYCLIC, TaskPlan)
    text = parser.feedback(info.value, TaskPlan)
    assert "S1 depends on S3 which depends on S1" in text
    assert "Tools: only read_file, web_search, write_file" in text
    assert text.rstrip().endswith("no prose and no code fences.")


def test_feedback_for_other_targets_is_left_to_the_core() -> None:
    class Point(BaseModel):
        x: int

    parser = Parser()
    with pytest.raises(ParseError) as info:
        parser.parse('{"x": "far"}', Point)
    assert "The plan must follow" not in parser.feedback(info.value, Point)
