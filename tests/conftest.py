"""Shared test configuration: hypothesis profiles ("ci" by default, "deep" for thousands of examples).

Under CI (the `CI` environment variable, which `.ci/run`'s runner sets) both profiles draw the same examples on
every run, so a landing never depends on a lucky draw; on a developer's machine they explore afresh each time, and
what they find is kept as a regression test."""

import os

from hypothesis import HealthCheck, settings

_FIXED = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# litellm fetches its model price list from GitHub on import unless told to use its bundled copy (no network here)
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=_FIXED
)
settings.register_profile(
    "deep", max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck), derandomize=_FIXED
)
settings.load_profile("ci")
