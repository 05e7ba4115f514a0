"""The types flow to the user: `tests/typing/user_code.py` asserts (with `typing.assert_type`) what a type checker
infers for each public entry point, and both mypy --strict and pyright must agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
USER_CODE = ROOT / "tests" / "typing" / "user_code.py"
BIN = Path(sys.executable).parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


def test_mypy_strict_infers_the_users_types() -> None:
    done = _run(sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(USER_CODE))
    assert done.returncode == 0, done.stdout + done.stderr


def test_pyright_infers_the_users_types() -> None:
    done = _run(str(BIN / "pyright"), "--pythonpath", sys.executable, str(USER_CODE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 errors" in done.stdout


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    """The check can fail: the same code with one wrong expected type is rejected."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text(USER_CODE.read_text().replace("assert_type(result.value, Plan)", "assert_type(result.value, int)"))
    done = _run(sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(wrong))
    assert done.returncode != 0 and "assert-type" in done.stdout
