"""rp_planner: validated task plans for Plan-and-Execute agents, as a resilient_parse plugin.

from resilient_parse import Parser
from rp_planner import PlannerConfig, PlannerPlugin, TaskPlan, execution_order
plugin = PlannerPlugin(PlannerConfig(tools={"web_search", "read_file"}))
plan = Parser(plugins=[plugin]).parse(llm_text, plugin.plan_model)
"""

from rp_planner.checks import check_plan
from rp_planner.config import PlannerConfig, RiskRule
from rp_planner.fallback import FallbackPlan, PlanOutcome, aplan_with_fallback, plan_with_fallback, single_step
from rp_planner.graph import describe_cycle, execution_layers, execution_order, find_cycles, graph_errors
from rp_planner.models import STEP_ID_PATTERN, PlanStep, RiskLevel, StepId, TaskPlan, plan_model
from rp_planner.plugin import PLUGIN_NAME, PlannerPlugin, default_plugin, plan_feedback, plan_rules
from rp_planner.references import match_tool, normalise_step_ref

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
