"""What a user can tune in the planner plugin: the tool whitelist, risk rules, step limits and optional checks.

A `PlannerConfig` is frozen and validated on construction (a mistake is a `ConfigurationError`, not a surprise at
parse time). The entry-point plugin uses the defaults; pass `PlannerPlugin(PlannerConfig(...))` to a `Parser` to
use your own (it takes the entry-point plugin's name, so the default steps aside).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from resilient_parse import ConfigurationError
from rp_planner._shared import MAX_STEPS, RISK_ORDER, RiskLevel

if TYPE_CHECKING:
    from rp_planner.models import PlanStep


@dataclass(frozen=True)
class RiskRule:
    """A user's rule: steps that match must be marked at least `level` risky.

    A step matches when `pattern` (a case-insensitive regex) is found in its title, description or tool, when its
    tool is one of `tools`, or when `predicate(step)` is true. `name` is what the model is told.
    """

    name: str
    pattern: str | None = None
    tools: frozenset[str] = frozenset()
    predicate: Callable[[PlanStep], bool] | None = None
    level: RiskLevel = "high"
    _regex: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.pattern is None and not self.tools and self.predicate is None:
            raise ConfigurationError(f"risk rule {self.name!r} needs a pattern, tools or a predicate")
        if self.level not in RISK_ORDER:
            raise ConfigurationError(f"risk rule {self.name!r}: level must be low, medium or high")
        object.__setattr__(self, "tools", frozenset(self.tools))
        if self.pattern is not None:
            try:
                object.__setattr__(self, "_regex", re.compile(self.pattern, re.IGNORECASE))
            except re.error as exc:
                raise ConfigurationError(f"risk rule {self.name!r}: bad pattern: {exc}") from None

    def matches(self, step: PlanStep) -> bool:
        if step.tool is not None and step.tool in self.tools:
            return True
        if self._regex is not None:
            text = " ".join(x for x in (step.title, step.description, step.tool or "") if x)
            if self._regex.search(text):
                return True
        return self.predicate is not None and bool(self.predicate(step))


@dataclass(frozen=True)
class PlannerConfig:
    """Settings for the plan checks and repairs.

    - `tools`: the tool whitelist; None means "no whitelist" (any tool hint is accepted).
    - `allow_no_tool`: whether a step may have no tool hint.
    - `backwards_only`: dependencies may only name earlier steps (a plan that can run top to bottom).
    - `min_steps` / `max_steps`: step-count limits, within Pydantic's 1..20.
    - `risk_rules`: user rules for steps that must be marked risky.
    - `does_nothing_check` / `does_nothing_similarity`: reject a one-step plan whose step restates the objective
      (similarity 0..1 of the step's title and description against the objective).
    - `repair_references`: in lenient mode, rewrite "s2"/"step 2"/"Step-2" to "S2" and a tool hint one typo away
      from exactly one whitelisted tool to that tool (recorded as `semantic_fix` repairs).
    """

    tools: frozenset[str] | None = None
    allow_no_tool: bool = True
    backwards_only: bool = False
    min_steps: int = 1
    max_steps: int = MAX_STEPS
    risk_rules: tuple[RiskRule, ...] = ()
    does_nothing_check: bool = True
    does_nothing_similarity: float = 0.8
    repair_references: bool = True

    def __post_init__(self) -> None:
        if self.tools is not None:
            tools = frozenset(self.tools)
            if not all(isinstance(t, str) and t for t in tools):
                raise ConfigurationError("PlannerConfig.tools must be non-empty strings")
            object.__setattr__(self, "tools", tools)
        object.__setattr__(self, "risk_rules", tuple(self.risk_rules))
        if not 1 <= self.min_steps <= self.max_steps <= MAX_STEPS:
            raise ConfigurationError(f"PlannerConfig needs 1 <= min_steps <= max_steps <= {MAX_STEPS}")
        if not 0.0 < self.does_nothing_similarity <= 1.0:
            raise ConfigurationError("PlannerConfig.does_nothing_similarity must be in (0, 1]")

    @classmethod
    def with_tools(cls, tools: Iterable[str], **options: object) -> PlannerConfig:
        """A config whose whitelist is `tools`."""
        return cls(tools=frozenset(tools), **options)  # type: ignore[arg-type]
