"""The semantic checks on a validated plan: its graph, the tool whitelist, step limits, risk rules and the
"does nothing" check. Each returns `ErrorDetail`s with paths relative to the plan."""

from __future__ import annotations

import re

from resilient_parse import ErrorDetail
from rp_planner.config import PlannerConfig
from rp_planner.graph import graph_errors
from rp_planner.models import RISK_ORDER, TaskPlan
from rp_planner.references import match_tool

_WORDS = re.compile(r"[^\w]+")


def check_plan(plan: TaskPlan, config: PlannerConfig) -> list[ErrorDetail]:
    """Every problem the configured checks find, graph problems first."""
    errors = graph_errors(plan.steps, backwards_only=config.backwards_only)
    errors += step_count_errors(plan, config)
    errors += tool_errors(plan, config)
    errors += risk_errors(plan, config)
    if config.does_nothing_check:
        errors += does_nothing_errors(plan, config)
    return errors


def step_count_errors(plan: TaskPlan, config: PlannerConfig) -> list[ErrorDetail]:
    n = len(plan.steps)
    if n < config.min_steps:
        return [ErrorDetail("/steps", "too_few_steps", f"the plan has {n} steps; at least {config.min_steps} needed")]
    if n > config.max_steps:
        return [ErrorDetail("/steps", "too_many_steps", f"the plan has {n} steps; at most {config.max_steps} allowed")]
    return []


def tool_errors(plan: TaskPlan, config: PlannerConfig) -> list[ErrorDetail]:
    errors: list[ErrorDetail] = []
    allowed = config.tools
    for i, step in enumerate(plan.steps):
        if step.tool is None:
            if not config.allow_no_tool:
                errors.append(ErrorDetail(f"/steps/{i}/tool", "missing_tool", f"{step.id} names no tool"))
            continue
        if allowed is None or step.tool in allowed:
            continue
        names = ", ".join(sorted(allowed)) or "(none)"
        hint = match_tool(step.tool, allowed)
        suggestion = f"did you mean {hint}? " if hint is not None else ""
        errors.append(
            ErrorDetail(
                f"/steps/{i}/tool",
                "tool_not_allowed",
                f"{step.id} uses tool {step.tool!r}, which is not available; {suggestion}available tools: {names}",
                got=step.tool,
            )
        )
    return errors


def risk_errors(plan: TaskPlan, config: PlannerConfig) -> list[ErrorDetail]:
    errors: list[ErrorDetail] = []
    for i, step in enumerate(plan.steps):
        for rule in config.risk_rules:
            if RISK_ORDER[step.risk] < RISK_ORDER[rule.level] and rule.matches(step):
                errors.append(
                    ErrorDetail(
                        f"/steps/{i}/risk",
                        "risk_understated",
                        f"{step.id} is marked {step.risk} risk but {rule.name}: it must be marked {rule.level}",
                        got=step.risk,
                    )
                )
                break
    return errors


def _norm(text: str) -> str:
    return _WORDS.sub(" ", text.casefold()).strip()


def restates(objective: str, text: str, threshold: float) -> bool:
    """Whether `text` says no more than `objective` (word-set similarity at or above `threshold`)."""
    a, b = _norm(objective), _norm(text)
    if not a or not b:
        return False
    from rapidfuzz import fuzz  # imported on first use: loading the plugin stays cheap

    return fuzz.token_set_ratio(a, b) / 100.0 >= threshold and len(set(b.split()) - set(a.split())) <= 2


def does_nothing_errors(plan: TaskPlan, config: PlannerConfig) -> list[ErrorDetail]:
    """A one-step plan whose step only restates the objective is not a plan."""
    if len(plan.steps) != 1:
        return []
    step = plan.steps[0]
    texts = [step.title, f"{step.title} {step.description}".strip()]
    if any(restates(plan.objective, t, config.does_nothing_similarity) for t in texts):
        return [
            ErrorDetail(
                "/steps",
                "plan_does_nothing",
                f"the only step ({step.id}: {step.title!r}) restates the objective; break the work into concrete steps",
            )
        ]
    return []
