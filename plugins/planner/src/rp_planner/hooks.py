"""What the planner plugin's hooks do once a target holds a plan: find the plans and the fields a path falls in,
check them, repair step references and tool hints, and write plan-specific feedback.

`rp_planner.plugin` — the module the entry point loads for every `Parser()` — keeps only the plugin class and
imports this module (with the plan models, the checks and rapidfuzz) the first time a target holds a plan.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from pydantic import BaseModel

from resilient_parse import AmbiguousMatchError, ErrorDetail, ParseError, Repair
from resilient_parse.plugin_api import (
    LENIENT,
    CallContext,
    ChoiceView,
    Coercion,
    DictView,
    ListView,
    ModelView,
    TypeView,
    UnionView,
    escape_token,
    format_feedback,
    iter_views,
    split_pointer,
)
from resilient_parse.plugin_api import match_tool as core_match_tool
from rp_planner.checks import check_plan
from rp_planner.config import PlannerConfig
from rp_planner.models import PlanStep, TaskPlan
from rp_planner.references import match_tool, normalise_step_ref, split_step_refs

REPAIR_KIND = "semantic_fix"
_MAX_DEPTH = 64


def contains_plan(view: TypeView) -> bool:
    """Whether a target's schema view holds a `TaskPlan` anywhere."""
    return any(isinstance(v, ModelView) and _is_plan_class(v.cls) for v in iter_views(view))


def _is_plan_class(cls: object) -> bool:
    return isinstance(cls, type) and issubclass(cls, TaskPlan)


def find_plans(value: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, TaskPlan]]:
    """Every `TaskPlan` inside a validated value, with its JSON Pointer."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, TaskPlan):
        yield path, value
        return
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            key = info.alias if isinstance(info.alias, str) else name
            yield from find_plans(getattr(value, name, None), f"{path}/{escape_token(key)}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from find_plans(item, f"{path}/{i}", depth + 1)
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from find_plans(item, f"{path}/{escape_token(str(k))}", depth + 1)


def locate_field(root: TypeView, path: str) -> tuple[ModelView, str, int] | None:
    """The model and field a JSON Pointer falls in, and how many list levels below the field it points (0 for the
    field's own value, 1 for an item of a list field). None when the path leaves the schema."""
    parts = split_pointer(path)
    view: TypeView = root
    found: tuple[ModelView, str, int] | None = None
    for part in parts:
        view = _branch(view, part)
        if isinstance(view, ModelView):
            name = view.key_to_field.get(part)
            if name is None:
                return None
            found = (view, name, 0)
            view = view.fields[name].type
        elif isinstance(view, ListView) and part.isdigit():
            view = view.item
            if found is not None:
                found = (found[0], found[1], found[2] + 1)
        elif isinstance(view, DictView):
            view, found = view.value, None
        else:
            return None
    return found


def _branch(view: TypeView, part: str) -> TypeView:
    """The union member a path part continues into (a model with that key, or a list for an index)."""
    if not isinstance(view, UnionView):
        return view
    for option in view.options:
        if isinstance(option, ModelView) and part in option.key_to_field:
            return option
        if isinstance(option, ListView) and part.isdigit():
            return option
    return view


def _choices(view: TypeView) -> tuple[str, ...]:
    if isinstance(view, ChoiceView):
        return tuple(str(v) for v in view.values)
    if isinstance(view, UnionView):
        return tuple(c for o in view.options for c in _choices(o))
    return ()


# -- what the hooks do -------------------------------------------------------------------------------------------


def validate(value: Any, config: PlannerConfig) -> list[ErrorDetail]:
    """Every plan problem in `value` (a plan, or anything containing plans), with paths from its root."""
    errors: list[ErrorDetail] = []
    for base, plan in find_plans(value):
        for e in check_plan(plan, config):
            errors.append(replace(e, path=base + e.path))
    return errors


def coerce_value(value: Any, expected: TypeView, path: str, ctx: CallContext, config: PlannerConfig) -> Coercion | None:
    """A step reference or tool hint at `path`, read honestly (or refused with the choices)."""
    where = locate_field(ctx.schema, path)
    if where is None:
        return None
    model, name, depth = where
    if not (isinstance(model.cls, type) and issubclass(model.cls, PlanStep)):
        return None
    if (name == "id" and depth == 0) or (name == "dependencies" and depth == 1):
        return step_ref(value, path, ctx)
    if name == "dependencies" and depth == 0 and isinstance(value, str):
        return step_refs(value, path, ctx)
    if name == "tool" and depth == 0:
        return tool_hint(value, expected, path, ctx, config)
    return None


def repair_tools(value: Any, config: PlannerConfig) -> tuple[Any, list[Repair]] | None:
    """Tool hints that name exactly one whitelisted tool by the core's name matcher (`references.match_tool`), in a
    plain `TaskPlan` (where the tool field is any string): fixed on a copy and recorded."""
    tools = config.tools
    if not tools or not isinstance(value, TaskPlan):
        return None
    steps = list(value.steps)
    repairs: list[Repair] = []
    for i, step in enumerate(steps):
        if step.tool is None or step.tool in tools:
            continue
        match = match_tool(step.tool, tools)
        if match is None:
            continue  # none or several near tools: the validator reports it with the choices
        note = f"tool hint {step.tool!r} read as the registered tool {match!r}"
        repairs.append(Repair.make(REPAIR_KIND, f"/steps/{i}/tool", step.tool, match, note=note))
        steps[i] = step.model_copy(update={"tool": match})
    if not repairs:
        return None
    return value.model_copy(update={"steps": steps}), repairs


# -- repairs -----------------------------------------------------------------------------------------------------


def step_ref(value: Any, path: str, ctx: CallContext) -> Coercion | None:
    found = normalise_step_ref(value)
    if found is None or not ctx.policy.allows(REPAIR_KIND):
        return None
    canonical, confidence = found
    note = f"read step reference {value!r} as {canonical}"
    return Coercion(
        value=canonical,
        repairs=(Repair.make(REPAIR_KIND, path, value, canonical, confidence=confidence, note=note),),
    )


def step_refs(value: str, path: str, ctx: CallContext) -> Coercion | None:
    found = split_step_refs(value)
    if found is None or not ctx.policy.allows(REPAIR_KIND):
        return None
    ids, confidence = found
    note = f"read the dependency list written as {value!r} as {ids}"
    repair = Repair.make(REPAIR_KIND, path, value, ids, confidence=confidence, note=note)
    return Coercion(value=ids, repairs=(repair,))


def tool_hint(value: Any, expected: TypeView, path: str, ctx: CallContext, config: PlannerConfig) -> Coercion | None:
    allowed = _choices(expected) or tuple(sorted(config.tools or ()))
    if not allowed or not isinstance(value, str):
        return None
    names = ", ".join(allowed)
    try:
        match = core_match_tool(value.strip(), allowed, LENIENT, path, sent=allowed)[0]
    except AmbiguousMatchError as exc:
        message = f"{exc.message}; name one of: {names}"
        return Coercion(error=ErrorDetail(path, "ambiguous_tool", message, got=value))
    except ParseError:
        match = None
    if match is not None and ctx.policy.allows(REPAIR_KIND):
        note = f"tool hint {value!r} read as the registered tool {match!r}"
        return Coercion(value=match, repairs=(Repair.make(REPAIR_KIND, path, value, match, note=note),))
    hint = f"did you mean {match}? " if match is not None else ""
    message = f"tool {value!r} is not available; {hint}use one of: {names}"
    return Coercion(error=ErrorDetail(path, "tool_not_allowed", message, got=value))


# -- feedback ----------------------------------------------------------------------------------------------------


def plan_rules(config: PlannerConfig) -> list[str]:
    """The plan rules, as lines the model can follow."""
    rules = [
        'Step ids are "S1", "S2", … and unique.',
        "Dependencies name existing steps by id and never form a cycle"
        + (" — only earlier steps." if config.backwards_only else "."),
        f"The plan has {config.min_steps} to {config.max_steps} steps.",
    ]
    if config.tools is not None:
        rules.append("Tools: only " + ", ".join(sorted(config.tools)) + ("" if config.allow_no_tool else " (required)"))
    for rule in config.risk_rules:
        rules.append(f"A step that {rule.name} is marked {rule.level} risk.")
    if config.does_nothing_check:
        rules.append("A single step that restates the objective is not a plan.")
    return rules


def plan_feedback(failure: ParseError, candidate: str | None, target: Any, config: PlannerConfig) -> str:
    """The default feedback, with the plan rules spelled out before the final instruction."""
    text = format_feedback(failure, candidate, target)
    head, sep, last = text.rpartition("\n\n")
    rules = "\n".join(f"- {r}" for r in plan_rules(config))
    block = f"The plan must follow these rules:\n{rules}"
    return f"{head}\n\n{block}{sep}{last}" if sep else f"{text}\n\n{block}"
