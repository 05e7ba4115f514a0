"""What streaming costs: a ~100 KB answer fed in 1,000 chunks, against one batch parse of the same text.

    python -m benchmarks.bench_streaming [--size 100000] [--chunks 1000] [--repeats 15] [--check 10] [--r06 128000]

Each repeat times one batch `Parser.parse` and one full `Parser.stream` (every partial plus the final object) back
to back; the figure quoted is the median of the per-repeat ratios of process CPU time. Wall-clock figures are shown
too — the median of per-repeat ratios, and the ratio of the best runs (as `timeit` advises: on a shared machine the
rest mostly measures the neighbours). Scenarios:
well-formed JSON (the common case), the same in a fence after a reasoning block, and keys that need aligning
(`Title` for `title`: both paths then walk the conformer); syntax pydantic-core's partial parser does not read, so
the reader reads the partials (issue 12, "Prefixes too"): a trailing comma in every item, and every name in
single quotes (their reads count against the same `reparse_budget`, so the ratio must not grow with `--size`: compare
`--size 100000` with `--size 1000000`); and defect r06's shape: `--r06` characters of reasoning
full of braces (`let d = {x: 1}; `) in 16-character chunks before a small tool call, which once cost a rescan of the
whole text per chunk (128 KB: 102 s against a 0.02 s batch parse). `--check N` exits 1 when a median ratio exceeds N.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from resilient_parse import Parser


class Item(BaseModel):
    id: int
    name: str
    tags: list[str]
    score: float
    done: bool


class Report(BaseModel):
    title: str
    status: Literal["draft", "final"]
    items: list[Item]


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


def r06_chunks(size: int) -> list[str]:
    """Defect r06's input: reasoning full of braces in 16-character chunks, then a small answer."""
    return ["<think>", *["let d = {x: 1}; "] * (size // 16), "</think>", '{"action": "go"}']


def document(size: int, *, recase: bool = False, trailing_commas: bool = False, single_quotes: bool = False) -> str:
    """A Report whose JSON is about `size` characters (with a trailing comma in every item and its tags, or every
    item's name in single quotes, when asked)."""
    items: list[dict[str, Any]] = []
    text = ""
    while len(text) < size:
        i = len(items)
        items.append(
            {"id": i, "name": f"item {i}: a short name", "tags": ["alpha", f"t{i % 7}"], "score": i / 7, "done": i % 2}
        )
        if i % 50 == 0 or len(text) > size * 0.9:
            text = json.dumps({"title": "bench", "status": "final", "items": items})
    if recase:
        text = text.replace('"title"', '"Title"').replace('"name"', '"Name"')
    if trailing_commas:
        text = text.replace('"], "score"', '",], "score"').replace("}, {", ",}, {")
    if single_quotes:
        text = re.sub(r'"name": "([^"]*)"', lambda m: '"name": \'' + m.group(1) + "'", text)
    return text


@dataclass(frozen=True)
class Outcome:
    scenario: str
    chars: int
    batch_ms: float
    stream_ms: float
    ratio: float
    wall_ratio: float
    best_wall_ratio: float
    updates: int


def _timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(CPU seconds of this process, wall seconds, result). CPU time is the figure quoted: on a shared machine the
    wall clock mostly measures the neighbours."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return time.process_time() - cpu, time.perf_counter() - wall, out


def split(text: str, chunks: int) -> list[str]:
    step = max(1, -(-len(text) // chunks))
    return [text[i : i + step] for i in range(0, len(text), step)]


def measure(scenario: str, pieces: list[str], repeats: int, parser: Parser, target: Any = Report) -> Outcome:
    text = "".join(pieces)
    expected = parser.parse(text, target)
    batch_times: list[float] = []
    stream_times: list[float] = []
    ratios: list[float] = []
    wall_ratios: list[float] = []
    batch_walls: list[float] = []
    stream_walls: list[float] = []
    updates = 0
    for _ in range(repeats):
        gc.collect()
        batch, batch_wall, _ = _timed(lambda: parser.parse(text, target))
        gc.collect()
        streamed, stream_wall, out = _timed(lambda: list(parser.stream(pieces, target)))
        if out[-1].value != expected:
            raise AssertionError(f"{scenario}: the streamed object differs from the batch one")
        updates = len(out)
        batch_times.append(batch)
        stream_times.append(streamed)
        ratios.append(streamed / max(batch, 1e-6))
        wall_ratios.append(stream_wall / max(batch_wall, 1e-6))
        batch_walls.append(batch_wall)
        stream_walls.append(stream_wall)
    return Outcome(
        scenario,
        len(text),
        statistics.median(batch_times) * 1e3,
        statistics.median(stream_times) * 1e3,
        statistics.median(ratios),
        statistics.median(wall_ratios),
        min(stream_walls) / max(min(batch_walls), 1e-6),
        updates,
    )


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    args.add_argument("--size", type=int, default=100_000, help="characters of JSON (default 100000)")
    args.add_argument("--chunks", type=int, default=1000, help="how many chunks to stream it in (default 1000)")
    args.add_argument("--repeats", type=int, default=15, help="timed repeats per scenario (default 15)")
    args.add_argument("--check", type=float, default=None, help="exit 1 if a median ratio exceeds this")
    args.add_argument("--r06", type=int, default=128_000, help="characters of r06's reasoning (default 128000)")
    opts = args.parse_args(argv)
    parser = Parser()
    plain = document(opts.size)
    texts = [
        ("valid JSON", plain),
        ("after <think> + fence", "<think>Let me list them.</think>\nHere:\n```json\n" + plain + "\n```\n"),
        ("keys to align", document(opts.size, recase=True)),
        ("trailing commas", document(opts.size, trailing_commas=True)),
        ("single quotes", document(opts.size, single_quotes=True)),
    ]
    scenarios: list[tuple[str, list[str], Any]] = [(name, split(text, opts.chunks), Report) for name, text in texts]
    scenarios.append(("r06 (16-char chunks)", r06_chunks(opts.r06), ToolCall))
    print(
        f"streaming cost: {opts.chunks} chunks, median of {opts.repeats} paired runs (stream / batch parse, CPU time)"
    )
    columns = ("chars", 9), ("batch ms", 11), ("stream ms", 11), ("ratio", 8), ("wall", 8), ("best wall", 11)
    print(f"{'scenario':<24}" + "".join(f"{name:>{width}}" for name, width in columns) + f"{'updates':>9}")
    worst = 0.0
    for name, pieces, target in scenarios:
        o = measure(name, pieces, opts.repeats, parser, target)
        worst = max(worst, o.ratio)
        print(
            f"{o.scenario:<24}{o.chars:>9}{o.batch_ms:>11.2f}{o.stream_ms:>11.2f}{o.ratio:>7.1f}x"
            f"{o.wall_ratio:>7.1f}x{o.best_wall_ratio:>10.1f}x{o.updates:>9}"
        )
    if opts.check is not None and worst > opts.check:
        print(f"FAIL: median ratio {worst:.1f}x is over {opts.check:g}x")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
