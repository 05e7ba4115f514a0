"""The planner through the correction loop with a scripted model: plan errors go back to the model as feedback,
local repairs save a round trip, and an exhausted loop ends in a fallback that says it is one."""

from __future__ import annotations

import asyncio
import json

import pytest
from rp_planner import (
    FallbackPlan,
    PlannerConfig,
    PlannerPlugin,
    TaskPlan,
    aplan_with_fallback,
    execution_order,
    plan_with_fallback,
)

from resilient_parse import Parser, correct
from resilient_parse.correction import CorrectionsExhaustedError, ScriptedLLM, correct_result

MESSAGES = [
    {"role": "system", "content": "You plan tasks. Reply with a JSON plan."},
    {"role": "user", "content": "Plan: release version 2.0"},
]


def plan_json(*steps: tuple[str, list[str]], **extra: object) -> str:
    rows = [{"id": sid, "title": f"step {sid}", "dependencies": deps, **extra} for sid, deps in steps]
    return json.dumps({"objective": "Release version 2.0", "steps": rows})


CYCLIC = plan_json(("S1", ["S3"]), ("S2", ["S1"]), ("S3", ["S1"]))
FIXED = plan_json(("S1", []), ("S2", ["S1"]), ("S3", ["S1"]))


def test_a_cycle_is_sent_back_and_the_corrected_plan_is_returned() -> None:
    llm = ScriptedLLM([CYCLIC, FIXED])
    result = correct_result(llm, MESSAGES, TaskPlan, max_corrections=2)
    assert result.outcome == "corrected"
    assert execution_order(result.value) == ["S1", "S2", "S3"]
    feedback = llm.calls[1][-1]["content"]
    assert "S1 depends on S3 which depends on S1" in feedback
    assert "The plan must follow these rules:" in feedback
    assert llm.calls[1][:2] == MESSAGES


def test_references_the_plugin_can_repair_cost_no_extra_call() -> None:
    llm = ScriptedLLM([plan_json(("S1", []), ("S2", ["s1"]), ("S3", ["step 2"]))])
    result = correct_result(llm, MESSAGES, TaskPlan)
    assert result.outcome == "repaired"
    assert [s.dependencies for s in result.value.steps] == [[], ["S1"], ["S2"]]
    assert len(llm.calls) == 1


def test_a_configured_plugin_checks_the_tool_whitelist_inside_the_loop() -> None:
    plugin = PlannerPlugin(PlannerConfig(tools=frozenset({"git", "pypi_upload"})))
    parser = Parser(plugins=[plugin])
    first = plan_json(("S1", []), ("S2", ["S1"]), tool="shell")
    second = plan_json(("S1", []), ("S2", ["S1"]), tool="git")
    llm = ScriptedLLM([first, second])
    plan = correct(llm, MESSAGES, plugin.plan_model, parser=parser)
    assert [s.tool for s in plan.steps] == ["git", "git"]
    assert "tool 'shell' is not available" in llm.calls[1][-1]["content"]


def test_a_typo_in_a_tool_hint_is_repaired_without_asking_again() -> None:
    plugin = PlannerPlugin(PlannerConfig(tools=frozenset({"git", "pypi_upload"})))
    llm = ScriptedLLM([plan_json(("S1", []), ("S2", ["S1"]), tool="pypi_uplaod")])
    result = correct_result(llm, MESSAGES, plugin.plan_model, parser=Parser(plugins=[plugin]))
    assert result.outcome == "repaired"
    assert {s.tool for s in result.value.steps} == {"pypi_upload"}


def test_when_corrections_run_out_the_fallback_plan_is_used_and_marked() -> None:
    llm = ScriptedLLM([CYCLIC, CYCLIC.replace("step S2", "step two")])
    fallback = FallbackPlan("Release version 2.0", title="Ask the release manager")
    outcome = plan_with_fallback(llm, MESSAGES, fallback, max_corrections=1)
    assert outcome.source == "fallback" and outcome.is_fallback
    assert outcome.plan.is_fallback
    assert [s.title for s in outcome.plan.steps] == ["Ask the release manager"]
    assert isinstance(outcome.error, CorrectionsExhaustedError)
    assert outcome.result.outcome == "default"
    assert outcome.result.attempts[-1].role == "default"


def test_a_valid_model_plan_is_never_marked_as_a_fallback() -> None:
    outcome = plan_with_fallback(ScriptedLLM([FIXED]), MESSAGES, FallbackPlan("Release version 2.0"))
    assert outcome.source == "model" and not outcome.plan.is_fallback and outcome.error is None


def test_a_template_fallback_is_a_copy_of_the_template() -> None:
    template = TaskPlan.model_validate_json(FIXED)
    fallback = FallbackPlan(template=template)
    outcome = plan_with_fallback(ScriptedLLM([CYCLIC, CYCLIC, CYCLIC]), MESSAGES, fallback)
    assert outcome.plan.model_dump() == template.model_dump() and outcome.plan is not template
    assert outcome.plan.is_fallback and not template.is_fallback


def test_the_model_cannot_claim_to_be_a_fallback() -> None:
    text = json.dumps({**json.loads(FIXED), "_origin": "fallback", "origin": "fallback"})
    assert not Parser().parse(text, TaskPlan).is_fallback


def test_without_a_fallback_an_exhausted_loop_raises_with_every_attempt() -> None:
    with pytest.raises(CorrectionsExhaustedError) as info:
        correct(ScriptedLLM([CYCLIC, CYCLIC]), MESSAGES, TaskPlan, max_corrections=1)
    assert len(info.value.attempts) == 2


def test_the_async_twin_corrects_and_falls_back_the_same_way() -> None:
    corrected = asyncio.run(aplan_with_fallback(ScriptedLLM([CYCLIC, FIXED]), MESSAGES, FallbackPlan("Release")))
    assert corrected.source == "model" and corrected.outcome == "corrected"
    exhausted = asyncio.run(
        aplan_with_fallback(ScriptedLLM([CYCLIC, CYCLIC]), MESSAGES, FallbackPlan("Release"), max_corrections=1)
    )
    assert exhausted.is_fallback and exhausted.plan.is_fallback
