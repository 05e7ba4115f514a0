"""How fast any pure-Python reader that records every repair can be at 1 MB: the floor under issue 12's speed goals.

For four of the speed bench's broken shapes this runs the least work such a reader does — one C-speed `re.sub`
whose callback builds the repaired token and its `Repair` record (with a fixed pointer: no structure is tracked,
no path built), then `TypeAdapter.validate_json` of the result — and times it next to `json_repair.loads` on the
same text as `resilient-parse speed` does (interleaved rounds, collector paused, medians). The real reader also
tracks structure, builds each pointer, checks policy, duplicates and truncation, so it can only be slower.

    python benchmarks/reader_floor.py [--size 1048576] [--rounds 5]
"""

from __future__ import annotations

import argparse
import functools
import re
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter

from resilient_parse.bench.speed_core import MB, interleaved, shaped
from resilient_parse.repairs import Repair

_LITERALS = {"True": "true", "False": "false", "None": "null"}
# the token each shape breaks, and how the floor writes it as JSON
_FIXES: dict[str, tuple[re.Pattern[str], Callable[[str], str]]] = {
    "single_quotes": (re.compile(r"'[^'\\]*+'"), lambda tok: '"' + tok[1:-1] + '"'),
    "bare_keys": (re.compile(r"[A-Za-z_][A-Za-z0-9_]*+(?=:)"), lambda tok: '"' + tok + '"'),
    "trailing_commas": (re.compile(r",(?=[ \t\r\n]*+[}\]])"), lambda tok: ""),
    "python_literals": (re.compile(r"\b(?:True|False|None)\b"), _LITERALS.__getitem__),
}


def floor_reader(shape: str, adapter: TypeAdapter[Any]) -> Callable[[str], tuple[Any, int]]:
    """The least a recording reader does for `shape`: each fix and its record, then validation."""
    pattern, fix = _FIXES[shape]

    def read(text: str) -> tuple[Any, int]:
        repairs: list[Repair] = []

        def one(m: re.Match[str]) -> str:
            fixed = fix(m.group())
            repairs.append(Repair.make(shape, "/0/key", m.group(), fixed, offset=m.start()))
            return fixed

        return adapter.validate_json(pattern.sub(one, text)), len(repairs)

    return read


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--size", type=int, default=MB)
    args.add_argument("--rounds", type=int, default=5)
    opts = args.parse_args(argv)
    import json_repair

    print(f"{'shape':<17}{'repairs':>9}{'floor':>10}{'MB/s':>7}{'json_repair':>13}{'x':>7}")
    for shape in _FIXES:
        doc = shaped(shape, opts.size)
        adapter: TypeAdapter[Any] = TypeAdapter(doc.target)
        read = floor_reader(shape, adapter)
        value, repairs = read(doc.text)
        assert adapter.dump_python(value, mode="json") == doc.expected, shape  # the floor reads the shape right
        calls: dict[str, Callable[[], object]] = {
            "floor": functools.partial(read, doc.text),
            "json_repair": functools.partial(json_repair.loads, doc.text),
        }
        medians = interleaved(calls, budget=0.0, min_rounds=opts.rounds)  # as `resilient-parse speed` times
        floor, peer = medians["floor"], medians["json_repair"]
        mbs = len(doc.text.encode()) / floor / 1e6
        print(f"{shape:<17}{repairs:>9,}{floor * 1e3:>8.1f}ms{mbs:>7.1f}{peer * 1e3:>11.1f}ms{peer / floor:>6.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
