"""Measurement helpers shared by `resilient-parse speed`: documents of a given size, and a median timer.

The documents are lists of records (`list[Record]`) as a model would write them. The *valid* one is plain JSON;
the *broken* one is the same data the way models break it: inside a ```json fence with a sentence before and
after, `//` comments, single-quoted strings, Python literals and trailing commas. Both decode to the same object.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

KB = 1024
MB = 1024 * KB


class Record(BaseModel):
    """One row of the speed documents."""

    id: int
    name: str
    email: str
    active: bool
    score: float
    tags: list[str]
    note: str | None = None


_NAMES = ("Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth")
_TAGS = ("admin", "beta", "billing", "eu-west", "trial", "vip")


def _record(i: int) -> dict[str, Any]:
    name = _NAMES[i % len(_NAMES)]
    return {
        "id": i,
        "name": f"{name} {i}",
        "email": f"user{i}@example.com",
        "active": i % 3 != 0,
        "score": round((i * 37 % 1000) / 10.0, 1),
        "tags": [_TAGS[(i + k) % len(_TAGS)] for k in range(i % 4)],
        "note": None if i % 2 else f"customer since {2000 + i % 24}, prefers email",
    }


def _py(value: Any) -> str:
    """A value in the broken dialect: single quotes, Python literals, trailing commas."""
    if value is None:
        return "None"
    if value is True:
        return "True"
    if value is False:
        return "False"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(_py(v) for v in value) + ("," if value else "") + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py(k)}: {_py(v)}" for k, v in value.items()) + ",}"
    return repr(value)


@dataclass(frozen=True)
class Documents:
    """A valid and a broken rendering of the same records."""

    size: int
    records: int
    valid: str
    broken: str
    data: list[dict[str, Any]]


def documents(size: int) -> Documents:
    """Records until the valid JSON reaches `size` bytes (at least one record)."""
    import json

    data: list[dict[str, Any]] = []
    valid_len = 2
    while valid_len < size or not data:
        rec = _record(len(data))
        data.append(rec)
        valid_len += len(json.dumps(rec)) + 2
    valid = json.dumps(data)
    lines = ["Sure! Here are the records you asked for:", "", "```json", "["]
    for i, rec in enumerate(data):
        if i % 10 == 0:
            lines.append(f"  // records {i} to {i + 9}")
        lines.append(f"  {_py(rec)},")
    lines += ["]", "```", "", "Let me know if you need anything else."]
    return Documents(size=size, records=len(data), valid=valid, broken="\n".join(lines), data=data)


@dataclass(frozen=True)
class Timing:
    """Median seconds over `runs` repetitions."""

    median: float
    runs: int
    best: float


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    """Seconds for one call of `fn` (garbage collector paused, as `timeit` does) and what it returned."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        value = fn()
        return time.perf_counter() - start, value
    finally:
        if gc_was_enabled:
            gc.enable()


def measure(
    fn: Callable[[], object],
    budget: float = 1.0,
    min_runs: int = 3,
    max_runs: int = 200,
    first: float | None = None,
) -> Timing:
    """Run `fn` at least `min_runs` times and until `budget` seconds are spent (or `max_runs`); the median.
    `first` is the time of a run already made (e.g. the one whose result was checked); it counts as a sample."""
    times: list[float] = [] if first is None else [first]
    spent = sum(times)
    while len(times) < min_runs or (spent < budget and len(times) < max_runs):
        elapsed, _ = timed(fn)
        times.append(elapsed)
        spent += elapsed
    return Timing(median=statistics.median(times), runs=len(times), best=min(times))


def parse_size(text: str) -> int:
    """'2KB', '1MB', '4096' -> bytes."""
    t = text.strip().upper().removesuffix("B")
    factor = 1
    if t.endswith("K"):
        factor, t = KB, t[:-1]
    elif t.endswith("M"):
        factor, t = MB, t[:-1]
    value = float(t)
    if value <= 0:
        raise ValueError(f"size must be positive: {text!r}")
    return int(value * factor)


def format_size(size: int) -> str:
    if size >= MB and size % MB == 0:
        return f"{size // MB} MB"
    if size >= KB and size % KB == 0:
        return f"{size // KB} KB"
    return f"{size} B"
