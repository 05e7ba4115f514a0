"""Parse time grows linearly with hostile input, in both modes: every shape of benchmarks/adversarial_timing.py,
from a size where one parse takes at least 10 ms of CPU time, at 8x that size costs at most BOUND times 8x the
time. Slow (about a minute); CI runs it with `make test-slow`. The benchmark prints the same figures."""

from __future__ import annotations

import pytest

from benchmarks.adversarial_timing import CASES, TIMEOUT_S, Case, measure_isolated

BOUND = 3.0
"""Generous on purpose: linear shapes measure 0.8-1.5 here, a quadratic one 8; CPU-time noise on a shared
machine stays well under 3."""

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    ("case", "mode"), [pytest.param(c, m, id=f"{c.name}-{m}") for c in CASES if not c.slow for m in c.modes]
)
def test_parse_time_is_linear_in_the_input(case: Case, mode: str) -> None:
    timing = measure_isolated(case, mode, reps=1, warm=False)  # a quick look: one cold run per size
    # a miss is measured again carefully (each size warmed, best of 3): a quadratic scan fails again, noise does not
    assert timing is not None, f"{case.name} ({mode}) still ran after {TIMEOUT_S:.0f} s: super-linear"
    if timing.vs_linear > BOUND:
        timing = measure_isolated(case, mode, reps=3)
        assert timing is not None, f"{case.name} ({mode}) still ran after {TIMEOUT_S:.0f} s: super-linear"
    assert timing.vs_linear <= BOUND, (
        f"{case.name} ({mode}): {timing.sizes[0]:,} chars {timing.seconds[0] * 1000:.1f} ms, "
        f"{timing.sizes[-1]:,} chars {timing.seconds[-1] * 1000:.1f} ms: {timing.vs_linear:.2f}x linear"
    )
