"""The tool-call correction benchmark measures what it says: both systems get the same scripted replies over
HTTP, and where the answer can be repaired locally, ours needs no second call."""

from __future__ import annotations

from benchmarks import bench_correction_tools as bench

LOCAL = {"trailing comma", "single quotes", "key case", "enum case", "Python literals", "arguments in a fence"}


def test_every_scripted_failure_is_recovered_and_local_repairs_cost_one_call() -> None:
    for case in bench.CASES:
        ours = bench.run_ours(case)
        assert ours.ok, case.name
        if case.name in LOCAL:
            assert ours.calls == 1, case.name


def test_both_systems_are_served_the_same_script() -> None:
    case = next(c for c in bench.CASES if c.name == "valid arguments")
    ours, theirs = bench.run_ours(case), bench.run_instructor(case)
    assert (ours.ok, ours.calls) == (theirs.ok, theirs.calls) == (True, 1)
    # the same messages and reply; our tool definition is the schema's shape (no titles, defaults or examples:
    # `schema_shape`), instructor's the whole JSON Schema, so ours costs fewer tokens, never more
    assert 0 < ours.tokens < theirs.tokens
