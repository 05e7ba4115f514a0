"""Measurement helpers shared by `resilient-parse speed`: documents of a given size, and a median timer.

The documents are lists of records (`list[Record]`) as a model would write them. The *valid* one is plain JSON;
the *broken* one is the same data the way models break it: inside a ```json fence with a sentence before and
after, `//` comments, single-quoted strings, Python literals and trailing commas. Both decode to the same object.
"""

from __future__ import annotations

import gc
import json
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


class Page(BaseModel):
    """The target of the truncated shape: records, then a summary, in an object cut before its '}'."""

    records: list[Record]
    summary: str = ""


def _json_with(rec: dict[str, Any], shape: str) -> str:
    """One record written with one kind of damage."""
    if shape == "trailing_commas":
        body = ", ".join(
            f"{json.dumps(k)}: {json.dumps(v)[:-1] + ',]' if isinstance(v, list) and v else json.dumps(v)}"
            for k, v in rec.items()
        )
        return "{" + body + ",}"
    if shape == "single_quotes":
        return (
            "{"
            + ", ".join(f"{_py(k)}: {json.dumps(v) if not isinstance(v, str) else _py(v)}" for k, v in rec.items())
            .replace('["', "['")
            .replace('"]', "']")
            .replace('", "', "', '")
            + "}"
        )
    if shape == "python_literals":
        return (
            "{"
            + ", ".join(
                f"{json.dumps(k)}: {_py(v) if v is None or isinstance(v, bool) else json.dumps(v)}"
                for k, v in rec.items()
            )
            + "}"
        )
    if shape == "bare_keys":
        return "{" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in rec.items()) + "}"
    if shape == "escaped_quotes":
        return _py({**rec, "note": f"it's {rec['name']}'s \"note\""}).replace(",}", "}").replace(",]", "]")
    if shape == "raw_newlines":
        return json.dumps({**rec, "note": f"line one\\nline two of {rec['id']}"}).replace("\\\\n", "\n")
    if shape == "inner_quotes":
        return json.dumps({**rec, "note": "NOTE"}).replace('"NOTE"', f'"prefers "email" over calls, {rec["id"]}"')
    return json.dumps(rec)


SHAPES = (
    "trailing_commas",
    "single_quotes",
    "python_literals",
    "bare_keys",
    "comments",
    "escaped_quotes",
    "raw_newlines",
    "truncated_object",
    "inner_quotes",
    "mix",
)


@dataclass(frozen=True)
class Shaped:
    """A broken document of one shape: its text, the target, and the data it must come back as."""

    shape: str
    text: str
    target: Any
    expected: Any


def shaped(shape: str, size: int) -> Shaped:
    """A document of about `size` bytes broken in one way (or, for "mix", all of the bench's ways at once)."""
    docs = documents(size)
    data = docs.data
    if shape == "mix":
        return Shaped(shape, docs.broken, list[Record], data)
    if shape == "comments":
        text = "[\n" + ",\n".join(f"  // record {r['id']}\n  {json.dumps(r)}" for r in data) + "\n]"
        return Shaped(shape, text, list[Record], data)
    if shape == "truncated_object":
        text = '{"records": ' + json.dumps(data) + ', "summary": "all records"\n'
        return Shaped(shape, text, Page, {"records": data, "summary": "all records"})
    expected = data
    if shape == "escaped_quotes":
        expected = [{**r, "note": f"it's {r['name']}'s \"note\""} for r in data]
    elif shape == "raw_newlines":
        expected = [{**r, "note": f"line one\nline two of {r['id']}"} for r in data]
    elif shape == "inner_quotes":
        expected = [{**r, "note": f'prefers "email" over calls, {r["id"]}'} for r in data]
    text = "[" + ", ".join(_json_with(r, shape) for r in data) + "]"
    return Shaped(shape, text, list[Record], expected)


def interleaved(
    fns: dict[str, Callable[[], object]],
    budget: float,
    min_rounds: int = 3,
    max_rounds: int = 50,
    samples: dict[str, list[float]] | None = None,
) -> dict[str, float]:
    """Median seconds per function, measured in rounds that run each function once, in turn (so a busy moment
    of a shared machine falls on all of them); `samples`, when given, receives every function's times."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    if samples is not None:
        samples.update(times)
    spent = 0.0
    rounds = 0
    while rounds < min_rounds or (spent < budget and rounds < max_rounds):
        for name, fn in fns.items():
            elapsed, _ = timed(fn)
            times[name].append(elapsed)
            spent += elapsed
        rounds += 1
    return {name: statistics.median(values) for name, values in times.items()}
