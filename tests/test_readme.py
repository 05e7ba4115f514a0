"""Every Python example in the README runs as written (docs that cannot drift from the code)."""

import contextlib
import io
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
NEEDS_YOUR_FILES = "# Needs your own models module and log files"
"""The first line of an example that runs against a user's files (the batch and cluster routes); the same calls
run in tests/test_batch.py, tests/test_integration_dask.py and tests/test_spark.py on generated data."""


def python_blocks() -> list[str]:
    blocks: list[str] = []
    current: list[str] | None = None
    for line in README.read_text(encoding="utf-8").splitlines():
        if current is None and line == "```python":
            current = []
        elif current is not None and line == "```":
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def runnable_blocks() -> list[str]:
    return [b for b in python_blocks() if not b.startswith(NEEDS_YOUR_FILES)]


def test_the_readme_has_examples() -> None:
    assert len(runnable_blocks()) >= 4
    assert len(python_blocks()) - len(runnable_blocks()) <= 3  # only the batch/cluster routes need the user's files


@pytest.mark.parametrize("index", range(len(runnable_blocks())))
def test_readme_example_runs(index: int) -> None:
    source = runnable_blocks()[index]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, f"README.md example {index}", "exec"), {"__name__": f"readme_example_{index}"})
    assert out.getvalue() or "print(" not in source
