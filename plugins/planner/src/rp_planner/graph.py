"""The plan as a dependency graph: its defects (duplicates, unknown or self dependencies, cycles) and an execution
order for the steps when it has none.

Every defect is an `ErrorDetail` whose path points into the plan (``/steps/2/dependencies/0``), so the model is
told exactly where to look; a cycle is reported with its ids in order ("S3 depends on S1 which depends on S3").
"""

from __future__ import annotations

from collections.abc import Sequence

from resilient_parse import ErrorDetail, SemanticCheckError
from rp_planner.models import PlanStep, TaskPlan


def graph_errors(steps: Sequence[PlanStep], *, backwards_only: bool = False) -> list[ErrorDetail]:
    """Duplicate ids, self-dependencies, unknown dependencies, cycles, and (optionally) forward dependencies."""
    errors: list[ErrorDetail] = []
    first_index: dict[str, int] = {}
    for i, step in enumerate(steps):
        if step.id in first_index:
            errors.append(
                ErrorDetail(
                    f"/steps/{i}/id",
                    "duplicate_step_id",
                    f"step id {step.id} is used twice (also by step {first_index[step.id] + 1}); ids must be unique",
                    got=step.id,
                )
            )
        else:
            first_index[step.id] = i
    for i, step in enumerate(steps):
        for j, dep in enumerate(step.dependencies):
            where = f"/steps/{i}/dependencies/{j}"
            if dep == step.id:
                errors.append(ErrorDetail(where, "self_dependency", f"{step.id} depends on itself", got=dep))
            elif dep not in first_index:
                known = ", ".join(s.id for s in steps)
                errors.append(
                    ErrorDetail(
                        where,
                        "unknown_dependency",
                        f"{step.id} depends on {dep}, which is not a step ({known})",
                        got=dep,
                    )
                )
            elif backwards_only and first_index[dep] > i:
                errors.append(
                    ErrorDetail(
                        where,
                        "forward_dependency",
                        f"{step.id} depends on {dep}, which comes later; dependencies may only name earlier steps",
                        got=dep,
                    )
                )
    errors.extend(cycle_errors(steps))
    return errors


def find_cycles(steps: Sequence[PlanStep]) -> list[list[str]]:
    """Each distinct dependency cycle (longer than one step), as ids in order: [a, b, …] where a depends on b …
    and the last depends on a. Rotated so the earliest step in the plan comes first."""
    position: dict[str, int] = {}
    for i, s in enumerate(steps):
        position.setdefault(s.id, i)
    deps: dict[str, list[str]] = {}
    for s in steps:
        deps.setdefault(s.id, []).extend(d for d in s.dependencies if d in position and d != s.id)
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    stack: list[str] = []
    cycles: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in dict.fromkeys(deps.get(node, ())):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt) :]
                start = min(range(len(cycle)), key=lambda k: position[cycle[k]])
                rotated = cycle[start:] + cycle[:start]
                if tuple(rotated) not in seen:
                    seen.add(tuple(rotated))
                    cycles.append(rotated)
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for s in steps:
        if s.id not in state:
            visit(s.id)
    return cycles


def describe_cycle(cycle: Sequence[str]) -> str:
    """ "S1 depends on S3 which depends on S1"."""
    chain = [*cycle, cycle[0]]
    return f"{chain[0]} depends on {chain[1]}" + "".join(f" which depends on {c}" for c in chain[2:])


def cycle_errors(steps: Sequence[PlanStep]) -> list[ErrorDetail]:
    index: dict[str, int] = {}
    for i, s in enumerate(steps):
        index.setdefault(s.id, i)
    return [
        ErrorDetail(
            f"/steps/{index[cycle[0]]}/dependencies",
            "dependency_cycle",
            f"dependency cycle: {describe_cycle(cycle)}; a plan must be runnable in some order",
            got=list(cycle),
        )
        for cycle in find_cycles(steps)
    ]


def execution_layers(plan: TaskPlan) -> list[list[str]]:
    """Steps grouped into batches that can run in parallel, each batch after the ones before it, in plan order
    within a batch. Raises `SemanticCheckError` when the plan's graph is broken."""
    problems = graph_errors(plan.steps)
    if problems:
        raise SemanticCheckError(f"the plan cannot be ordered: {problems[0].message}", problems)
    remaining = {s.id: set(s.dependencies) for s in plan.steps}
    layers: list[list[str]] = []
    done: set[str] = set()
    while remaining:
        ready = [sid for sid, needs in remaining.items() if needs <= done]
        layers.append(ready)
        done.update(ready)
        for sid in ready:
            del remaining[sid]
    return layers


def execution_order(plan: TaskPlan) -> list[str]:
    """A topological order of the step ids (dependencies first; plan order among steps that are ready together).
    Raises `SemanticCheckError` when the plan's graph is broken."""
    order: list[str] = []
    remaining = [s for s in plan.steps]
    problems = graph_errors(plan.steps)
    if problems:
        raise SemanticCheckError(f"the plan cannot be ordered: {problems[0].message}", problems)
    done: set[str] = set()
    while remaining:
        nxt = next(s for s in remaining if set(s.dependencies) <= done)
        order.append(nxt.id)
        done.add(nxt.id)
        remaining.remove(nxt)
    return order
