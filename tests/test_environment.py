"""The test environment holds every optional package the suite's integration tests use.

Those tests `importorskip` their package so that a user running the suite with fewer extras gets skips, not
import errors. This test is what stops a skip from ever turning CI green: `make test` installs the `dev` and
`bench` extras, so every one of these must import there.
"""

from __future__ import annotations

import importlib

import pytest

OPTIONAL = (
    "openai",
    "anthropic",
    "litellm",
    "langchain_core",
    "pydantic_ai",
    "opentelemetry.sdk",
    "instructor",
    "dask.bag",
    "distributed",
    "pyarrow",
    "pandas",
    "pyspark",
    "rp_planner",
    "rp_toolcalls",
)


@pytest.mark.parametrize("module", OPTIONAL)
def test_the_optional_package_is_installed(module: str) -> None:
    importlib.import_module(module)
