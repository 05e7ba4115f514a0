"""No function outgrows what a reader holds in mind: every function and method of the library, the reader's grammar
included, is at most 80 lines long (from its `def` to its last line; a method or nested function is named by
itself)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "resilient_parse"
MAX_LINES = 80


def function_lengths(tree: ast.Module, module: str) -> list[tuple[str, int]]:
    """The length in lines of every function in a module (methods and nested functions included), each named
    `module:name`."""
    return [
        (f"{module}:{node.name}", node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
    ]


def too_long(lengths: list[tuple[str, int]]) -> list[str]:
    """The functions longer than MAX_LINES."""
    return [f"{name}: {length} lines (at most {MAX_LINES})" for name, length in sorted(lengths) if length > MAX_LINES]


def library_lengths() -> list[tuple[str, int]]:
    lengths: list[tuple[str, int]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        lengths += function_lengths(ast.parse(path.read_text(encoding="utf-8")), module)
    return lengths


def test_no_function_is_longer_than_80_lines() -> None:
    assert too_long(library_lengths()) == []


def test_a_long_function_fails_the_check() -> None:
    source = "class Reader:\n    def step(self) -> None:\n" + "        pass\n" * 80
    lengths = function_lengths(ast.parse(source), "synthetic.py")
    assert lengths == [("synthetic.py:step", 81)]
    assert too_long(lengths) == ["synthetic.py:step: 81 lines (at most 80)"]
    assert too_long([("synthetic.py:step", 80)]) == []
