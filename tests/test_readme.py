"""Every Python example in the README runs as written (docs that cannot drift from the code)."""

import contextlib
import io
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


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


def test_the_readme_has_examples() -> None:
    assert len(python_blocks()) >= 4


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_readme_example_runs(index: int) -> None:
    source = python_blocks()[index]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, f"README.md example {index}", "exec"), {"__name__": f"readme_example_{index}"})
    assert out.getvalue() or "print(" not in source
