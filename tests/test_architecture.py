"""The picture holds: no import circle among the library's modules — counting imports made at call time, which
import-linter's layers also check but a lazy import can hide from a reader — and no module grows past the size
one concept needs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "resilient_parse"
MAX_LINES = 600
# modules still over MAX_LINES, at most this long: the list only shrinks
OVER: dict[str, int] = {}


def module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        names[name] = path
    return names


def _type_checking_only(tree: ast.AST) -> set[int]:
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(inner) for inner in ast.walk(node))
    return hidden


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every library module `name` imports, at import time or call time (not for type checking only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            subs = [f"{base}.{alias.name}" for alias in node.names]
            wanted = subs if all(s in known for s in subs) else [base, *subs]
        else:
            continue
        for target in wanted:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def circles() -> list[list[str]]:
    known = module_names()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    for name, targets in graph.items():  # importing a.b.c runs a and a.b first
        for target in list(targets):
            parts = target.split(".")
            for i in range(1, len(parts)):
                parent = ".".join(parts[:i])
                if parent in known and not name.startswith(parent + "."):
                    targets.add(parent)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in order:
            visit(node)
    return found


def test_no_import_circle_not_even_at_call_time() -> None:
    assert circles() == []


def test_the_circle_check_sees_a_lazy_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a call-time import from a bottom module back up to the parser is a circle."""
    known = module_names()
    lazy = tmp_path / "errors.py"
    lazy.write_text(known["resilient_parse.errors"].read_text() + "\n\ndef f():\n    import resilient_parse.parser\n")
    monkeypatch.setitem(globals(), "module_names", lambda: {**known, "resilient_parse.errors": lazy})
    assert any("resilient_parse.errors" in group for group in circles())


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_grows_past_one_concept(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= OVER.get(str(path.relative_to(PACKAGE)), MAX_LINES)
