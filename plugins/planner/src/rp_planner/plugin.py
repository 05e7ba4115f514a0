"""The planner as a resilient_parse plugin: semantic checks for any target that is or contains a `TaskPlan`,
honest repairs of step references and tool hints, and plan-specific feedback for the correction loop.

The entry point registers `default_plugin` (default settings) under the name "planner". To configure it, pass
`Parser(plugins=[PlannerPlugin(PlannerConfig(...))])`: a configured plugin takes the same name, so the default
steps aside; `Parser(blocked_plugins=["planner"])` leaves the planner out altogether. Targets that contain no
plan are not touched: every hook returns None for them.

The entry point loads this module for every `Parser()`, so it holds only the plugin class. What the hooks do is
in `rp_planner.hooks`, imported (with the plan models, the checks and rapidfuzz) the first time a target holds a
plan — which no target can before `rp_planner.models` is imported, so until then each hook answers "not mine"
from `sys.modules` alone. The default `PlannerConfig` is likewise built on first use.
"""

from __future__ import annotations

import contextlib
import sys
import weakref
from typing import TYPE_CHECKING, Any

from resilient_parse import hookimpl

if TYPE_CHECKING:
    from resilient_parse import ErrorDetail, ParseError, Repair
    from resilient_parse.plugin_api import CallContext, Coercion, FieldView, TypeView
    from rp_planner.config import PlannerConfig
    from rp_planner.models import TaskPlan

PLUGIN_NAME = "planner"
_MODELS = "rp_planner.models"

_MOVED = {  # names this module imported or defined before the hooks' work moved out, still importable from it
    "REPAIR_KIND": "rp_planner.hooks",
    "contains_plan": "rp_planner.hooks",
    "find_plans": "rp_planner.hooks",
    "locate_field": "rp_planner.hooks",
    "plan_feedback": "rp_planner.hooks",
    "plan_rules": "rp_planner.hooks",
    "check_plan": "rp_planner.checks",
    "PlannerConfig": "rp_planner.config",
    "PlanStep": _MODELS,
    "TaskPlan": _MODELS,
    "plan_model": _MODELS,
    "match_tool": "rp_planner.references",
    "normalise_step_ref": "rp_planner.references",
    "split_step_refs": "rp_planner.references",
}


def __getattr__(name: str) -> Any:
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


class PlannerPlugin:
    """Plan checks and repairs with one configuration. Register it with `Parser(plugins=[PlannerPlugin(cfg)])`."""

    rp_name = PLUGIN_NAME

    def __init__(self, config: PlannerConfig | None = None) -> None:
        self._config = config
        self._seen: weakref.WeakKeyDictionary[TypeView, bool] = weakref.WeakKeyDictionary()

    @property
    def config(self) -> PlannerConfig:
        """The settings: the ones given, else `PlannerConfig()` (built on first use)."""
        if self._config is None:
            from rp_planner.config import PlannerConfig

            self._config = PlannerConfig()
        return self._config

    @config.setter
    def config(self, config: PlannerConfig) -> None:
        self._config = config

    def __repr__(self) -> str:
        return f"PlannerPlugin({self.config!r})"

    def _has_plan(self, view: TypeView) -> bool:
        """`contains_plan`, remembered per schema view: hooks ask on every call for every target."""
        if _MODELS not in sys.modules:
            return False  # no class is a TaskPlan (or a subclass, or a `plan_model(...)`) before the models exist
        try:
            return self._seen[view]
        except (KeyError, TypeError):
            pass
        from rp_planner.hooks import contains_plan

        found = contains_plan(view)
        with contextlib.suppress(TypeError):
            self._seen[view] = found
        return found

    @property
    def plan_model(self) -> type[TaskPlan]:
        """The plan model to ask for: restricted to the whitelisted tools when there is a whitelist."""
        from rp_planner.models import TaskPlan, plan_model

        return plan_model(self.config.tools) if self.config.tools else TaskPlan

    def validate(self, value: Any) -> list[ErrorDetail]:
        """Every plan problem in `value` (a plan, or anything containing plans), with paths from its root."""
        from rp_planner.hooks import validate

        return validate(value, self.config)

    # -- hooks -------------------------------------------------------------------------------------------------

    @hookimpl
    def rp_semantic_validators(self, target: Any, ctx: CallContext) -> list[Any] | None:
        if not self._has_plan(ctx.schema):
            return None
        return [self.validate]

    @hookimpl
    def rp_coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        if not path or not self._has_plan(ctx.schema) or not self.config.repair_references:
            return None
        from rp_planner.hooks import coerce_value

        return coerce_value(value, expected, path, ctx, self.config)

    @hookimpl
    def rp_value_repairers(self, target: Any, ctx: CallContext) -> list[Any] | None:
        """For targets that are plans, with a whitelist: fix tool hints in plans Pydantic already accepted."""
        if not self._has_plan(ctx.schema) or not self.config.tools or not self.config.repair_references:
            return None
        from rp_planner.hooks import REPAIR_KIND

        if not ctx.policy.allows(REPAIR_KIND):
            return None
        return [self._repair_tools]

    def _repair_tools(self, value: Any) -> tuple[Any, list[Repair]] | None:
        from rp_planner.hooks import repair_tools

        return repair_tools(value, self.config)

    @hookimpl
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str | None:
        if not self._has_plan(ctx.schema):
            return None
        from rp_planner.hooks import plan_feedback

        return plan_feedback(failure, candidate, ctx.target, self.config)


default_plugin = PlannerPlugin()
"""The instance the `resilient_parse` entry point registers (default settings, no tool whitelist)."""
