"""Degradation: when the model cannot produce a valid plan within its corrections, use a plan the user supplied —
a single step or a template — and say so.

The fallback goes through the correction loop's `on_exhausted` hook, so the loop records it as a "default"
attempt (outcome "default", never "valid" or "corrected"); the plan itself is marked (`plan.is_fallback`), and
`plan_with_fallback` returns a `PlanOutcome` whose `source` is "fallback" with the error that caused it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from resilient_parse import ConfigurationError, ParseError, Parser
from rp_planner.models import PlanStep, RiskLevel, TaskPlan


class FallbackPlan:
    """An `on_exhausted` callback that returns a user-supplied plan, marked as a fallback.

    `FallbackPlan(template=plan)` returns a copy of `plan`; `FallbackPlan(objective="…", title="Ask a human")`
    builds a one-step plan. `last_error` holds the failure that made the loop give up.
    """

    def __init__(
        self,
        objective: str | None = None,
        *,
        template: TaskPlan | None = None,
        title: str = "Ask a human to plan this task",
        description: str = "The model could not produce a valid plan; hand the task over.",
        tool: str | None = None,
        risk: RiskLevel = "low",
        target: type[TaskPlan] = TaskPlan,
    ) -> None:
        if template is None and not objective:
            raise ConfigurationError("FallbackPlan needs an objective (for a one-step plan) or a template plan")
        self.objective = objective
        self.template = template
        self.title = title
        self.description = description
        self.tool = tool
        self.risk: RiskLevel = risk
        self.target = target
        self.last_error: ParseError | None = None

    def build(self, target: type[TaskPlan] | None = None) -> TaskPlan:
        """A fresh fallback plan (marked), as an instance of `target` (default: the one given at construction)."""
        cls = target or self.target
        if self.template is not None:
            plan = cls.model_validate(self.template.model_dump())
        else:
            step: dict[str, Any] = {
                "id": "S1",
                "title": self.title,
                "description": self.description,
                "tool": self.tool,
                "risk": self.risk,
            }
            plan = cls.model_validate({"objective": self.objective, "steps": [step]})
        plan.mark_fallback()
        return plan

    def __call__(self, error: ParseError) -> TaskPlan:
        self.last_error = error
        return self.build()


@dataclass(frozen=True)
class PlanOutcome:
    """A plan and where it came from: "model" (valid, repaired or corrected) or "fallback" (with `error`)."""

    plan: TaskPlan
    source: Literal["model", "fallback"]
    outcome: str
    error: ParseError | None = None
    result: Any = None

    @property
    def is_fallback(self) -> bool:
        return self.source == "fallback"


def _loop(export: object) -> Callable[..., Any]:
    """`resilient_parse` exports the correction loop lazily (a module `__getattr__`, so importing the core — and
    this plugin — stays light), and type checkers see such a name as `object`: it is the loop function."""
    assert callable(export)
    return export


def plan_with_fallback(
    llm: Any,
    messages: Sequence[Mapping[str, Any]],
    fallback: FallbackPlan,
    *,
    target: type[TaskPlan] = TaskPlan,
    parser: Parser | None = None,
    **options: Any,
) -> PlanOutcome:
    """Ask for a plan through `resilient_parse.correction.correct_result`; when corrections run out, use `fallback`.
    Quota and refusal errors are not swallowed: the loop raises them as usual."""
    from resilient_parse.correction import correct_result

    fallback.last_error = None

    def on_exhausted(error: ParseError) -> TaskPlan:
        fallback.last_error = error
        return fallback.build(target)

    result = _loop(correct_result)(llm, messages, target, parser=parser, on_exhausted=on_exhausted, **options)
    plan = result.value
    if result.outcome == "default":
        return PlanOutcome(plan, "fallback", result.outcome, fallback.last_error, result)
    return PlanOutcome(plan, "model", result.outcome, None, result)


async def aplan_with_fallback(
    llm: Any,
    messages: Sequence[Mapping[str, Any]],
    fallback: FallbackPlan,
    *,
    target: type[TaskPlan] = TaskPlan,
    parser: Parser | None = None,
    **options: Any,
) -> PlanOutcome:
    """The async twin of `plan_with_fallback` (`llm` may be sync or async)."""
    from resilient_parse.correction import acorrect_result

    fallback.last_error = None

    def on_exhausted(error: ParseError) -> TaskPlan:
        fallback.last_error = error
        return fallback.build(target)

    result = await _loop(acorrect_result)(llm, messages, target, parser=parser, on_exhausted=on_exhausted, **options)
    if result.outcome == "default":
        return PlanOutcome(result.value, "fallback", result.outcome, fallback.last_error, result)
    return PlanOutcome(result.value, "model", result.outcome, None, result)


def single_step(objective: str, title: str, **step: Any) -> TaskPlan:
    """A one-step plan, for templates."""
    return TaskPlan(objective=objective, steps=[PlanStep(id="S1", title=title, **step)])
