"""What a fresh process pays to parse one valid answer: `import resilient_parse; parse(valid, Model)` against
`import pydantic; TypeAdapter(Model).validate_json(valid)`, each in a new interpreter, interleaved, medians of the
wall time. The goal is <= 1.25x: the valid fast path needs pydantic and nothing else.

    python benchmarks/bench_import.py [--runs 31]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

MODEL = """
from pydantic import BaseModel
class Step(BaseModel):
    id: int
    action: str
class Plan(BaseModel):
    goal: str
    steps: list[Step]
TEXT = '{"goal": "g", "steps": [{"id": 1, "action": "search"}, {"id": 2, "action": "email"}]}'
"""
PROGRAMS = {
    "pydantic": MODEL + "from pydantic import TypeAdapter\nTypeAdapter(Plan).validate_json(TEXT)\n",
    "resilient_parse": MODEL + "import resilient_parse\nresilient_parse.parse(TEXT, Plan)\n",
    "import only": "import resilient_parse\n",
}


_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""As an installed package runs: with bytecode caches (pip writes them at install; the warm-up run writes them
here), so neither side pays for compiling its sources."""


def _wall(program: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", program], check=True, env=_ENV)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args(argv)
    for program in PROGRAMS.values():  # warm the file cache and the .pyc files once
        _wall(program)
    times: dict[str, list[float]] = {name: [] for name in PROGRAMS}
    for _ in range(args.runs):
        for name, program in PROGRAMS.items():
            times[name].append(_wall(program))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:16} median {median * 1000:7.1f} ms  (min {min(times[name]) * 1000:.1f})")
    ratio = medians["resilient_parse"] / medians["pydantic"]
    print(f"fresh import + one valid parse: {ratio:.2f}x pydantic's own (goal <= 1.25x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
