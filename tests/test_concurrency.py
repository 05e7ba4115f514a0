"""One Parser shared by 16 threads returns exactly what a sequential run returns.

The corpus mixes valid JSON, every mutation kind from tests/strategies.py, and failures, over several targets that
the parser meets for the first time *inside* the threads (so its per-target plan cache is built concurrently). The
thread switch interval is cut to a microsecond during the run to force interleaving.
"""

from __future__ import annotations

import json
import random
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
import strategies as S

from resilient_parse import ParseError, Parser

THREADS = 16

_ITEM = S.ModelSpec(
    "Item",
    (
        ("name", S.ScalarSpec("str")),
        ("count", S.ScalarSpec("int")),
        ("color", S.ScalarSpec("color")),
        ("tags", S.ListSpec(S.ScalarSpec("str"))),
        ("notes", S.OptionalSpec(S.ScalarSpec("str"))),
    ),
)
_ORDER = S.ModelSpec(
    "Order",
    (
        ("quantity", S.ScalarSpec("float")),
        ("priority", S.ScalarSpec("level")),
        ("owner", S.OptionalSpec(_ITEM)),
        ("created_at", S.ScalarSpec("status")),
    ),
    forbid=True,
)
SPECS: tuple[S.Spec, ...] = (_ITEM, _ORDER, S.ListSpec(_ITEM))
TREES: dict[S.Spec, list[Any]] = {
    _ITEM: [
        {"name": "it's", "count": 3, "color": "red", "tags": ["a", 'say "hi"'], "notes": None},
        {"name": "line\nbreak", "count": -7, "color": "blue", "tags": [], "notes": "// x"},
    ],
    _ORDER: [
        {"quantity": 2.5, "priority": "high", "owner": None, "created_at": "done"},
        {
            "quantity": 0.5,
            "priority": "low",
            "owner": {"name": "n", "count": 1, "color": "green", "tags": ["t"], "notes": "n"},
            "created_at": "in_progress",
        },
    ],
    S.ListSpec(_ITEM): [[{"name": "x", "count": 1, "color": "red", "tags": [], "notes": None}] * 3],
}
JUNK = ("", "I'm sorry, I can't help with that.", "{", '{"name": ', "no json here", "[1, 2, 3]", "{}")


def corpus() -> list[tuple[str, Any, dict[str, str] | None]]:
    """(text, target, aliases) for every tree × mutation kind × a few seeds, plus junk for every target."""
    items: list[tuple[str, Any, dict[str, str] | None]] = []
    for spec, trees in TREES.items():
        for tree in trees:
            ex = S.Example(spec, tree)
            items.append((ex.text, ex.target, None))
            for kind in S.MUTATIONS:
                for seed in range(3):
                    mut = S.mutate(ex, kind, seed)
                    if mut is not None:
                        items.append((mut.text, ex.target, mut.aliases))
            items.append((S.combine_lossless(ex, 7).text, ex.target, None))
        items.extend((junk, S.build(spec), None) for junk in JUNK)
    return items


def outcome(parser: Parser, text: str, target: Any, aliases: dict[str, str] | None) -> tuple[Any, ...]:
    """A comparable summary: the value's JSON and the repairs, or the error's class and details."""
    try:
        result = parser.parse_result(text, target, aliases=aliases)
    except ParseError as err:
        return ("error", type(err).__name__, json.dumps(err.errors, sort_keys=True, default=str))
    value = parser.plan(target).adapter.dump_json(result.value)
    return ("ok", value, tuple(r.to_dict()["kind"] for r in result.repairs), result.json_text)


@contextmanager
def tiny_switch_interval() -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def run_threads(parser: Parser, work: list[tuple[str, Any, dict[str, str] | None]]) -> list[dict[int, Any]]:
    """Each thread parses the whole corpus in its own shuffled order; returns each thread's outcomes by index."""
    barrier = threading.Barrier(THREADS)

    def worker(seed: int) -> dict[int, Any]:
        order = list(range(len(work)))
        random.Random(seed).shuffle(order)
        barrier.wait()
        return {i: outcome(parser, *work[i]) for i in order}

    with tiny_switch_interval(), ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(worker, range(THREADS)))


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_one_parser_shared_by_16_threads_matches_a_sequential_run(mode: str) -> None:
    work = corpus()
    expected = {i: outcome(Parser(mode, entrypoints=False), *item) for i, item in enumerate(work)}
    shared = Parser(mode, entrypoints=False)  # fresh: its plan cache is filled by the threads
    for got in run_threads(shared, work):
        mismatches = [i for i in expected if got[i] != expected[i]]
        assert mismatches == [], f"{len(mismatches)} differ, first: {work[mismatches[0]][0]!r}"


def test_two_parsers_with_different_aliases_do_not_leak_into_each_other_across_threads() -> None:
    spec = _ITEM
    target = S.build(spec)
    text = '{"label": "x", "count": 1, "color": "red", "tags": []}'
    with_alias = Parser("strict", aliases={"label": "name"}, entrypoints=False)
    without = Parser("strict", entrypoints=False)
    barrier = threading.Barrier(THREADS)

    def worker(i: int) -> str:
        parser = with_alias if i % 2 else without
        barrier.wait()
        results = set()
        for _ in range(50):
            try:
                results.add(parser.parse(text, target).name)
            except ParseError as err:
                results.add(type(err).__name__)
        assert len(results) == 1, results
        return results.pop()

    with tiny_switch_interval(), ThreadPoolExecutor(THREADS) as pool:
        got = list(pool.map(worker, range(THREADS)))
    assert got == ["SchemaMismatchError" if i % 2 == 0 else "x" for i in range(THREADS)]
