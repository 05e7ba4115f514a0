"""The plan a Plan-and-Execute agent asks its model for: an objective and 1–20 steps with ids S1..Sn.

Pydantic checks each field's shape (id format, risk level, step count); the graph-level rules (unknown or cyclic
dependencies, tool whitelist, risk rules) are semantic checks the plugin adds, so their errors reach the model as
feedback with JSON paths like any schema error.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints, create_model

from rp_planner._shared import MAX_STEPS as MAX_STEPS
from rp_planner._shared import RISK_ORDER as RISK_ORDER
from rp_planner._shared import RiskLevel as RiskLevel

STEP_ID_PATTERN = r"^S[1-9][0-9]*$"

StepId = Annotated[str, StringConstraints(pattern=STEP_ID_PATTERN)]
"""A step id: "S1", "S2", … (the plugin repairs "s2", "step 2" and "Step-2" to "S2" in lenient mode)."""


class PlanStep(BaseModel):
    """One step: what to do, what it needs first, which tool it expects to use, and how risky it is."""

    model_config = ConfigDict(populate_by_name=True)
    __rp_aliases__: ClassVar[dict[str, str]] = {
        "step_id": "id",
        "name": "title",
        "depends": "dependencies",
        "deps": "dependencies",
        "requires": "dependencies",
        "tool_hint": "tool",
        "risk_level": "risk",
        "output": "expected_output",
    }

    id: StepId = Field(description='Step id: "S1", "S2", … in order')
    title: str = Field(min_length=1, description="A short imperative title")
    description: str = Field(default="", description="What exactly to do")
    dependencies: list[StepId] = Field(
        default_factory=list,
        validation_alias=AliasChoices("dependencies", "depends_on"),
        description="Ids of the steps that must finish before this one",
    )
    tool: str | None = Field(default=None, description="The tool this step expects to call, if any")
    expected_output: str = Field(default="", description="What the step produces")
    risk: RiskLevel = Field(default="low", description="low, medium or high")


class TaskPlan(BaseModel):
    """A plan: the objective, the assumptions it rests on, the steps, and how to tell that the task is done."""

    model_config = ConfigDict(populate_by_name=True)

    objective: str = Field(min_length=1, description="What the plan achieves")
    assumptions: list[str] = Field(default_factory=list)
    steps: list[PlanStep] = Field(min_length=1, max_length=MAX_STEPS)
    completion_criteria: list[str] = Field(default_factory=list, description="How to tell the objective is met")
    _origin: Literal["model", "fallback"] = PrivateAttr(default="model")

    @property
    def is_fallback(self) -> bool:
        """True for a plan a fallback builder supplied, not the model (never set from the model's text)."""
        return self._origin == "fallback"

    def mark_fallback(self) -> None:
        self._origin = "fallback"

    def step(self, step_id: str) -> PlanStep:
        """The step with this id (KeyError when there is none)."""
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(step_id)


@lru_cache(maxsize=64)
def _plan_model(tools: tuple[str, ...]) -> type[TaskPlan]:
    tool_names: Any = Literal.__getitem__(tools)
    step = create_model(
        "PlanStep",
        __base__=PlanStep,
        __module__=__name__,
        tool=(tool_names | None, Field(default=None, description="The tool this step expects to call, if any")),
    )
    plan = create_model(
        "TaskPlan",
        __base__=TaskPlan,
        __module__=__name__,
        steps=(list[step], Field(min_length=1, max_length=MAX_STEPS)),
    )
    return plan


def plan_model(tools: Iterable[str]) -> type[TaskPlan]:
    """A `TaskPlan` subclass whose steps may only name these tools: the JSON Schema lists them for the model,
    Pydantic rejects any other, and the planner plugin repairs a hint one typo away from exactly one of them.
    Instances are `TaskPlan`s; the same tools give the same class."""
    names = tuple(sorted(set(tools)))
    if not names or not all(isinstance(t, str) and t for t in names):
        from resilient_parse import ConfigurationError

        raise ConfigurationError("plan_model needs at least one tool name, all non-empty strings")
    return _plan_model(names)
