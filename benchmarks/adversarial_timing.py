"""Hostile inputs and how parse time grows with their size: each must end in a result or a ParseError, in time
linear in the input.

Each `Case` builds an input of size n; `measure` times a parse at n, 2n, 4n, 8n (best of a few runs, since the
machine is shared) and reports t(kn) / (k · t(n)) — 1.0 is linear, 8.0 at k=8 would be quadratic. tests/
test_adversarial.py asserts on the same cases; this script prints the table.

    python benchmarks/adversarial_timing.py [--scale 1.0] [--reps 3] [--case NAME ...]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from resilient_parse import ParseError, Parser


class Item(BaseModel):
    """The target for most cases: small, with an optional field so partial objects could validate."""

    a: str
    b: int = 0


class Tiny(BaseModel):
    i: int


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[int], str | bytes]
    n: int  # the base size; the timing runs n, 2n, 4n, 8n
    target: Any = Item
    mode: str = "lenient"
    slow: bool = False  # whether the test suite runs it only under `-m slow`


CASES: tuple[Case, ...] = (
    Case("deep_open_brackets", lambda n: "[" * n, 12_500),
    Case("deep_balanced_brackets", lambda n: "[" * n + "]" * n, 12_500),
    Case("deep_open_objects", lambda n: '{"a": ' * n, 12_500),
    Case("deep_mixed_unclosed", lambda n: "[{" * n + "x", 6_000),
    Case("many_empty_objects_in_prose", lambda n: "{} " * n, 2_000),
    Case("many_distinct_objects_in_prose", lambda n: " ".join(f'{{"a": "{i}"}}' for i in range(n)), 1_000),
    Case("many_open_braces_in_prose", lambda n: "see { " * n, 2_000),
    Case("many_close_braces_in_prose", lambda n: "} ] " * n + '{"a": "x"}', 5_000),
    Case("many_fences", lambda n: "```\n{}\n" * n, 2_000),
    Case("many_json_fences", lambda n: '```json\n{"a": "x"}\n```\n' * n, 1_000),
    Case("many_think_tags", lambda n: "<think>" * n + '{"a": "x"}', 5_000),
    Case("many_close_think_tags", lambda n: "</think>" * n + '{"a": "x",}', 5_000),
    Case("backslash_run_in_string", lambda n: '{"a": "' + "\\" * (2 * n) + '"}', 50_000),
    Case("backslash_run_odd_unclosed", lambda n: '{"a": "' + "\\" * (2 * n + 1) + '"}', 100_000),
    Case("backslash_run_bare", lambda n: "\\" * n, 50_000),
    Case("quote_run", lambda n: '"' * n, 50_000),
    Case("single_quote_run_as_value", lambda n: "{'a': " + "'" * n + "}", 20_000),
    Case("unclosed_string_then_fragments", lambda n: '{"a": "' + "k: v, " * n, 5_000),
    # json-repair's quadratic shape; 8n stays under syntax.JSON_REPAIR_MAX_CHARS (20,000) so json-repair really runs
    Case("json_repair_bare_key_value_fragments", lambda n: '{"a": "x", ' + "key: value, " * n + "}", 200),
    Case("json_repair_fragments_past_its_cap", lambda n: '{"a": "x", ' + "key: value, " * n + "}", 2_000),
    Case("json_repair_unquoted_words", lambda n: '{"a": ' + "word " * n + "}", 2_000),
    Case("json_repair_inner_quotes", lambda n: '{"a": "' + 'b, "c": "d", ' * n + '"}', 2_000),
    Case("comment_opener_run", lambda n: '{"a": "x" ' + "/*" * n + "}", 20_000),
    Case("long_line_comment", lambda n: '{"a": "x", // ' + "c" * n + "\n}", 50_000),
    Case("nul_bytes", lambda n: "\x00" * n, 50_000),
    Case("nul_bytes_in_string", lambda n: '{"a": "' + "\x00" * n + '"}', 20_000),
    Case("lone_surrogates", lambda n: '{"a": "' + "\ud800" * n + '"}', 20_000),
    Case("invalid_utf8_bytes", lambda n: b'{"a": "' + b"\xff" * n + b'"}', 50_000),
    Case("trailing_comma_long_list", lambda n: "[" + '{"i": 1}, ' * n + "]", 5_000, target=list[Tiny]),
    Case("long_string_value", lambda n: '{"a": "' + "x" * n + '",}', 100_000),
    Case("many_keys_unknown", lambda n: "{" + ", ".join(f'"k{i}": {i}' for i in range(n)) + ', "a": "x",}', 2_000),
    Case("many_keys_typos", lambda n: "{" + ", ".join(f'"A{i}": {i}' for i in range(n)) + ', "A": "x"}', 1_000),
    Case(
        "million_tiny_objects_valid", lambda n: "[" + ", ".join(['{"i": 1}'] * n) + "]", 125_000, list[Tiny], slow=True
    ),
    Case("million_tiny_objects_repaired", lambda n: "[" + '{"i": 1}, ' * n + "]", 125_000, list[Tiny], slow=True),
)
CASES_BY_NAME = {c.name: c for c in CASES}


def outcome(parser: Parser, text: str | bytes, target: Any) -> str:
    """The string "ok", or the ParseError class name; anything else escaping propagates (it is a bug)."""
    try:
        parser.parse_result(text, target)
    except ParseError as err:
        return type(err).__name__
    return "ok"


def time_once(
    parser: Parser, text: str | bytes, target: Any, reps: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, str]:
    best = float("inf")
    result = ""
    for _ in range(reps):
        started = clock()
        result = outcome(parser, text, target)
        best = min(best, clock() - started)
    return best, result


@dataclass(frozen=True)
class Timing:
    case: str
    sizes: tuple[int, ...]  # input lengths
    seconds: tuple[float, ...]
    outcomes: tuple[str, ...]

    @property
    def growth(self) -> float:
        """t(largest) / t(smallest): 8.0 is linear for 8x the size, 64 quadratic."""
        return self.seconds[-1] / max(self.seconds[0], 1e-6)

    @property
    def vs_linear(self) -> float:
        """Growth relative to linear growth in input length: 1.0 is linear."""
        return self.growth / (self.sizes[-1] / max(self.sizes[0], 1))


def measure(
    case: Case,
    scale: float = 1.0,
    reps: int = 3,
    factors: tuple[int, ...] = (1, 2, 4, 8),
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Time the case at each size. `clock=time.process_time` counts only this process's CPU time, which other
    processes on a shared machine cannot inflate."""
    parser = Parser(case.mode, entrypoints=False)
    parser.plan(case.target)  # build the plan outside the timing
    sizes: list[int] = []
    seconds: list[float] = []
    outcomes: list[str] = []
    for k in factors:
        text = case.make(max(1, int(case.n * scale)) * k)
        t, result = time_once(parser, text, case.target, reps, clock)
        sizes.append(len(text))
        seconds.append(t)
        outcomes.append(result)
    return Timing(case.name, tuple(sizes), tuple(seconds), tuple(outcomes))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every base size")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--case", action="append", help="run only these cases")
    ap.add_argument("--no-slow", action="store_true", help="skip the cases marked slow")
    args = ap.parse_args(argv)
    chosen = [CASES_BY_NAME[n] for n in args.case] if args.case else list(CASES)
    if args.no_slow:
        chosen = [c for c in chosen if not c.slow]
    print(f"{'case':<38} {'chars at n':>11} {'t(n) s':>9} {'t(8n) s':>9} {'t8n/tn':>7} {'vs linear':>9}  outcome")
    for case in chosen:
        m = measure(case, args.scale, args.reps)
        print(
            f"{m.case:<38} {m.sizes[0]:>11,} {m.seconds[0]:>9.4f} {m.seconds[-1]:>9.4f} {m.growth:>7.1f} "
            f"{m.vs_linear:>9.2f}  {m.outcomes[-1]}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
