"""Invariants of the graph helpers over generated plans: an acyclic plan always gets an order that respects every
dependency; every reported cycle is a real cycle; a plan with a cycle is never ordered."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rp_planner import TaskPlan, execution_layers, execution_order, find_cycles, graph_errors

from resilient_parse import SemanticCheckError


@st.composite
def acyclic_plans(draw: st.DrawFn) -> TaskPlan:
    """Steps S1..Sn where Sk may depend only on lower-numbered steps, listed in a shuffled order."""
    n = draw(st.integers(1, 20))
    rows = []
    for k in range(1, n + 1):
        deps = draw(st.lists(st.integers(1, k - 1), unique=True, max_size=3)) if k > 1 else []
        rows.append({"id": f"S{k}", "title": f"step {k}", "dependencies": [f"S{d}" for d in deps]})
    seed = draw(st.integers(0, 2**16))
    random.Random(seed).shuffle(rows)
    return TaskPlan.model_validate({"objective": "generated", "steps": rows})


@st.composite
def cyclic_plans(draw: st.DrawFn) -> TaskPlan:
    """An acyclic plan plus one edge from a step to a step that (transitively) depends on it."""
    plan = draw(acyclic_plans().filter(lambda p: any(s.dependencies for s in p.steps)))
    rows = plan.model_dump()["steps"]
    child = draw(st.sampled_from([r for r in rows if r["dependencies"]]))
    parent = next(r for r in rows if r["id"] == child["dependencies"][0])
    parent["dependencies"] = [*parent["dependencies"], child["id"]]
    return TaskPlan.model_validate({"objective": "generated", "steps": rows})


@settings(deadline=None)
@given(acyclic_plans())
def test_an_acyclic_plan_is_ordered_with_every_dependency_first(plan: TaskPlan) -> None:
    assert graph_errors(plan.steps) == []
    order = execution_order(plan)
    assert sorted(order) == sorted(s.id for s in plan.steps)
    position = {sid: i for i, sid in enumerate(order)}
    for step in plan.steps:
        assert all(position[d] < position[step.id] for d in step.dependencies)


@settings(deadline=None)
@given(acyclic_plans())
def test_layers_partition_the_steps_and_put_dependencies_in_earlier_layers(plan: TaskPlan) -> None:
    layers = execution_layers(plan)
    layer_of = {sid: i for i, layer in enumerate(layers) for sid in layer}
    assert len(layer_of) == len(plan.steps) == sum(len(layer) for layer in layers)
    for step in plan.steps:
        assert all(layer_of[d] < layer_of[step.id] for d in step.dependencies)


@settings(deadline=None)
@given(cyclic_plans())
def test_every_reported_cycle_is_real_and_a_cyclic_plan_is_never_ordered(plan: TaskPlan) -> None:
    cycles = find_cycles(plan.steps)
    assert cycles
    deps = {s.id: set(s.dependencies) for s in plan.steps}
    for cycle in cycles:
        for a, b in zip(cycle, [*cycle[1:], cycle[0]]):
            assert b in deps[a], f"{a} does not depend on {b} in reported cycle {cycle}"
    with pytest.raises(SemanticCheckError):
        execution_order(plan)
