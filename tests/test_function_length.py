"""No function outgrows what a reader holds in mind: every function and method of the library is at most 80 lines
long (from its `def` to its last line; a method or nested function is named by itself), except the reader's
grammar, whose functions read one construct each in a single linear pass and keep their current length as a
ceiling that may only shrink."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "resilient_parse"
MAX_LINES = 80
# the reader's grammar: one pass over the text, its cases side by side; these may shrink, never grow
GRAMMAR = {
    "json/document.py:read": 294,
    "json/words.py:word": 95,
}


def function_lengths(tree: ast.Module, module: str) -> list[tuple[str, int]]:
    """The length in lines of every function in a module (methods and nested functions included), each named
    `module:name`."""
    return [
        (f"{module}:{node.name}", node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
    ]


def too_long(lengths: list[tuple[str, int]], allowed: dict[str, int]) -> list[str]:
    """The functions longer than they may be: MAX_LINES, or their ceiling in `allowed`."""
    return [
        f"{name}: {length} lines (at most {allowed.get(name, MAX_LINES)})"
        for name, length in sorted(lengths)
        if length > allowed.get(name, MAX_LINES)
    ]


def library_lengths() -> list[tuple[str, int]]:
    lengths: list[tuple[str, int]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        lengths += function_lengths(ast.parse(path.read_text(encoding="utf-8")), module)
    return lengths


def test_no_function_is_longer_than_80_lines_outside_the_readers_grammar() -> None:
    assert too_long(library_lengths(), GRAMMAR) == []


def test_the_grammar_allowlist_names_functions_that_exist_and_are_still_long() -> None:
    # a ceiling for a function that was renamed, removed or split below the limit is stale: lower or drop it
    longest = {name: length for name, length in sorted(library_lengths(), key=lambda item: item[1])}
    assert {name: longest.get(name, 0) > MAX_LINES for name in GRAMMAR} == dict.fromkeys(GRAMMAR, True)


def test_a_long_function_fails_the_check() -> None:
    source = "class Reader:\n    def step(self) -> None:\n" + "        pass\n" * 80
    lengths = function_lengths(ast.parse(source), "synthetic.py")
    assert lengths == [("synthetic.py:step", 81)]
    assert too_long(lengths, {}) == ["synthetic.py:step: 81 lines (at most 80)"]
    assert too_long(lengths, {"synthetic.py:step": 81}) == []


def test_a_grammar_function_may_not_grow_past_its_ceiling() -> None:
    source = "def read(text: str) -> None:\n" + "    pass\n" * 90
    lengths = function_lengths(ast.parse(source), "json/document.py")
    assert too_long(lengths, {"json/document.py:read": 90}) == ["json/document.py:read: 91 lines (at most 90)"]
