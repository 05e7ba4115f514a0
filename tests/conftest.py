"""Shared test configuration: hypothesis profiles ("ci" by default, "deep" for thousands of examples)."""

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile("ci")
