"""Outcome rates of `parse_result` over generated (model, mutation) examples, per mutation kind and mode.

Outside pytest: draws N examples from the property-test strategies (tests/strategies.py), parses each mutated text
in lenient and strict mode, and counts the outcome — `equal` (the original object), `parse_error` (a ParseError),
`different` (a different valid object: a bug or a documented ambiguity), `crash` (any other exception, or a
ParseError whose errors say "internal"). Lossless kinds must be 100% `equal` in both modes.

    python benchmarks/property_outcomes.py --n 10000 [--seed 0] [--json out.json] [--show 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import strategies as S  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from resilient_parse import ParseError, Parser  # noqa: E402

OUTCOMES = ("equal", "parse_error", "different", "crash")
MODES = ("lenient", "strict")


def classify(parser: Parser, ex: S.Example, mut: S.Mutation) -> tuple[str, str]:
    """The outcome and a short detail (repairs, error kind or exception) for one parse."""
    try:
        result = parser.parse_result(mut.text, ex.target, aliases=mut.aliases)
    except ParseError as err:
        if any(e.get("kind") == "internal" for e in err.errors):
            return "crash", f"internal: {err}"
        return "parse_error", type(err).__name__
    except Exception as exc:  # the point of counting: anything else escaping is a bug
        return "crash", f"{type(exc).__name__}: {exc}"
    got = S.adapter(ex.spec).dump_python(result.value, mode="json")
    if got == mut.expected_tree:
        return "equal", ""
    return "different", f"repairs={[r.kind for r in result.repairs]} got={json.dumps(got)[:300]}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000, help="number of (model, mutation) examples")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="write the counts and the surprising examples here")
    ap.add_argument("--show", type=int, default=3, help="surprising examples to print per kind and mode")
    args = ap.parse_args(argv)

    parsers = {mode: Parser(mode, entrypoints=False) for mode in MODES}
    counts: dict[tuple[str, bool, str], Counter[str]] = defaultdict(Counter)
    surprises: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    kinds = S.LOSSLESS_KINDS + S.LOSSY_KINDS
    done = 0

    @seed(args.seed)
    @settings(
        max_examples=args.n,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(pair=S.mutations(kinds), combo=st.integers(0, 9), mix_seed=st.integers(0, 2**32 - 1))
    def one(pair: tuple[S.Example, S.Mutation], combo: int, mix_seed: int) -> None:
        nonlocal done
        ex, mut = pair
        if combo == 0:  # one in ten: several lossless changes at once
            mut = S.combine_lossless(ex, mix_seed)
            mut = S.Mutation("combined_lossless", True, mut.text, mut.expected_tree)
        for mode, parser in parsers.items():
            outcome, detail = classify(parser, ex, mut)
            counts[(mut.kind, mut.lossless, mode)][outcome] += 1
            bad = outcome in ("different", "crash") or (mut.lossless and outcome != "equal")
            if bad and len(surprises[(mut.kind, mode)]) < args.show:
                surprises[(mut.kind, mode)].append(
                    {"outcome": outcome, "detail": detail, "text": mut.text[:400], "expected": mut.expected_tree}
                )
        done += 1

    started = time.perf_counter()
    one()
    elapsed = time.perf_counter() - started

    print(f"{done} examples ({2 * done} parses) in {elapsed:.1f}s, seed {args.seed}\n")
    header = f"{'mutation':<22} {'tag':<8} {'mode':<8} {'n':>6} " + " ".join(f"{o:>12}" for o in OUTCOMES)
    print(header)
    print("-" * len(header))
    for (kind, lossless, mode), c in sorted(counts.items(), key=lambda kv: (not kv[0][1], kv[0][0], kv[0][2])):
        n = sum(c.values())
        rates = " ".join(f"{100 * c[o] / n:11.1f}%" for o in OUTCOMES)
        print(f"{kind:<22} {'lossless' if lossless else 'lossy':<8} {mode:<8} {n:>6} {rates}")
    totals: Counter[str] = Counter()
    for c in counts.values():
        totals.update(c)
    print("\ntotals: " + ", ".join(f"{o}={totals[o]}" for o in OUTCOMES))
    if surprises:
        print("\nsurprising outcomes (lossless not equal; any different object or crash):")
        for (kind, mode), items in sorted(surprises.items()):
            for item in items:
                print(f"- {kind} [{mode}] {item['outcome']}: {item['detail']}\n    text: {item['text']!r}")
    if args.json:
        payload = {
            "examples": done,
            "seed": args.seed,
            "seconds": round(elapsed, 1),
            "counts": [
                {"kind": k, "lossless": ll, "mode": m, **{o: c[o] for o in OUTCOMES}}
                for (k, ll, m), c in sorted(counts.items())
            ],
            "surprises": [{"kind": k, "mode": m, **item} for (k, m), items in surprises.items() for item in items],
        }
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
