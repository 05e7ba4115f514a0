"""rp_planner: validated task plans for Plan-and-Execute agents, as a resilient_parse plugin.

from resilient_parse import Parser
from rp_planner import PlannerConfig, PlannerPlugin, TaskPlan, execution_order
plugin = PlannerPlugin(PlannerConfig(tools={"web_search", "read_file"}))
plan = Parser(plugins=[plugin]).parse(llm_text, plugin.plan_model)

The names below are imported from their submodules on first access (PEP 562), so that the entry point — which
imports `rp_planner.plugin`, and with it this package — does not pay for the plan models, checks and rapidfuzz
until a target that holds a plan shows up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rp_planner.checks import check_plan
    from rp_planner.config import PlannerConfig, RiskRule
    from rp_planner.fallback import FallbackPlan, PlanOutcome, aplan_with_fallback, plan_with_fallback, single_step
    from rp_planner.graph import describe_cycle, execution_layers, execution_order, find_cycles, graph_errors
    from rp_planner.hooks import plan_feedback, plan_rules
    from rp_planner.models import STEP_ID_PATTERN, PlanStep, RiskLevel, StepId, TaskPlan, plan_model
    from rp_planner.plugin import PLUGIN_NAME, PlannerPlugin, default_plugin
    from rp_planner.references import match_tool, normalise_step_ref

_EXPORTS: dict[str, str] = {
    "check_plan": "rp_planner.checks",
    "PlannerConfig": "rp_planner.config",
    "RiskRule": "rp_planner.config",
    "FallbackPlan": "rp_planner.fallback",
    "PlanOutcome": "rp_planner.fallback",
    "aplan_with_fallback": "rp_planner.fallback",
    "plan_with_fallback": "rp_planner.fallback",
    "single_step": "rp_planner.fallback",
    "describe_cycle": "rp_planner.graph",
    "execution_layers": "rp_planner.graph",
    "execution_order": "rp_planner.graph",
    "find_cycles": "rp_planner.graph",
    "graph_errors": "rp_planner.graph",
    "STEP_ID_PATTERN": "rp_planner.models",
    "PlanStep": "rp_planner.models",
    "RiskLevel": "rp_planner.models",
    "StepId": "rp_planner.models",
    "TaskPlan": "rp_planner.models",
    "plan_model": "rp_planner.models",
    "PLUGIN_NAME": "rp_planner.plugin",
    "PlannerPlugin": "rp_planner.plugin",
    "default_plugin": "rp_planner.plugin",
    "plan_feedback": "rp_planner.hooks",
    "plan_rules": "rp_planner.hooks",
    "match_tool": "rp_planner.references",
    "normalise_step_ref": "rp_planner.references",
}
_SUBMODULES = frozenset({"checks", "config", "fallback", "graph", "hooks", "models", "plugin", "references"})


def __getattr__(name: str) -> Any:
    """Import a public name (or a submodule, as `rp_planner.graph`) on first access; keep it for the next one."""
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS, *_SUBMODULES})


__all__ = [
    "PLUGIN_NAME",
    "STEP_ID_PATTERN",
    "FallbackPlan",
    "PlanOutcome",
    "PlanStep",
    "PlannerConfig",
    "PlannerPlugin",
    "RiskLevel",
    "RiskRule",
    "StepId",
    "TaskPlan",
    "aplan_with_fallback",
    "check_plan",
    "default_plugin",
    "describe_cycle",
    "execution_layers",
    "execution_order",
    "find_cycles",
    "graph_errors",
    "match_tool",
    "normalise_step_ref",
    "plan_feedback",
    "plan_model",
    "plan_rules",
    "plan_with_fallback",
    "single_step",
]
