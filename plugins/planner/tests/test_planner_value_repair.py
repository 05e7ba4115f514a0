"""With plain TaskPlan (tool is any string), a tool hint one edit from exactly one whitelisted tool is repaired
after validation through rp_repair_value — recorded, lenient only."""

import json

import pytest
from rp_planner import PlannerConfig, PlannerPlugin, TaskPlan

from resilient_parse import Parser, SemanticCheckError

TOOLS = frozenset({"web_search", "read_file", "send_email"})


def _plan(tool: str) -> str:
    return json.dumps(
        {"objective": "Find the report", "steps": [{"id": "S1", "title": "Search the web", "tool": tool}]}
    )


def _parser(mode: str) -> Parser:
    return Parser(mode, plugins=[PlannerPlugin(PlannerConfig(tools=TOOLS))], entrypoints=False)


def test_a_typo_in_a_valid_plain_plan_is_repaired_and_recorded() -> None:
    result = _parser("lenient").parse_result(_plan("web_serch"), TaskPlan)
    assert result.value.steps[0].tool == "web_search"
    assert [(r.kind, r.path, r.before, r.after) for r in result.repairs] == [
        ("semantic_fix", "/steps/0/tool", "web_serch", "web_search")
    ]


def test_a_tool_near_no_registered_tool_is_still_reported() -> None:
    with pytest.raises(SemanticCheckError) as caught:
        _parser("lenient").parse(_plan("fax_machine"), TaskPlan)
    assert caught.value.errors[0]["kind"] == "tool_not_allowed"


def test_strict_reports_the_typo_instead_of_repairing_it() -> None:
    with pytest.raises(SemanticCheckError) as caught:
        _parser("strict").parse(_plan("web_serch"), TaskPlan)
    assert caught.value.errors[0]["path"] == "/steps/0/tool"
