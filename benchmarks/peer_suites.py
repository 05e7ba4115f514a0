"""How the reader fares on the peers' own test suites: json_repair's (Python) and jsonrepair's (JavaScript), and
as its yardstick JSON5's (json5/json5-tests) and JSONTestSuite's (nst/JSONTestSuite).

Usage:
    python benchmarks/peer_suites.py [--json-repair PATH] [--jsonrepair PATH] [--json5-tests PATH]
        [--json-test-suite PATH] [--show differ,raised] [--limit N]

Each PATH is a local snapshot of the repository (mangiucugna/json_repair, josdejong/jsonrepair, json5/json5-tests,
nst/JSONTestSuite). The test files are read at run time and never copied: for json5-tests and JSONTestSuite, each
file is one document, valid or not by its name (`resilient_parse/bench/peer_suites.py` says how); for json_repair,
the `assert repair_json(...) == ...` and `assert loads(...) == ...` lines of its tests/ (and
`_assert_object_repairs(raw, expected)` calls); for jsonrepair, `assertRepair(text)`,
`expect(jsonrepair(text)).toBe(expected)` and `expect(() => jsonrepair(text)) .toThrow(...)` in src/index.test.ts.
Each (input, expected) pair is run through `resilient_parse.parse(text, typing.Any)` in lenient and strict mode, and
through json_repair / fast_json_repair when installed, and counted as match / differ / raised; our raises are
classified by error kind, and the differences we make on purpose are listed with their reason. An expected "nothing"
(json_repair's "" for text with no JSON; jsonrepair's throw) is matched by a raise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# the readers are the library's (`resilient-parse bench --peer-suites` reads the same suites the same way)
from resilient_parse.bench.peer_suites import (
    NOTHING,
    Pair,
    json5_tests_pairs,
    json_repair_pairs,
    json_test_suite_pairs,
    jsonrepair_pairs,
)
from resilient_parse.bench.runner import same

# -- running -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    verdict: str  # "match", "differ", "raised"
    got: Any = None
    kind: str = ""  # the error kind, for raises


def _ours(mode: str) -> Callable[[str], Any]:
    from resilient_parse import Parser

    parser = Parser(mode, entrypoints=False)
    return lambda text: parser.parse(text, Any)


def _peers() -> dict[str, Callable[[str], Any]]:
    found: dict[str, Callable[[str], Any]] = {}
    try:
        import json_repair

        found["json_repair"] = lambda t: json_repair.loads(t)
    except ImportError:
        pass
    try:
        import fast_json_repair

        found["fast_json_repair"] = lambda t: fast_json_repair.loads(t)
    except ImportError:
        pass
    return found


def run_one(fn: Callable[[str], Any], pair: Pair, ours: bool) -> Outcome:
    from resilient_parse import ParseError

    try:
        got = fn(pair.text)
    except ParseError as exc:
        kind = exc.errors[0]["kind"] if exc.errors else type(exc).__name__
        if kind == "syntax" and GUARDED in exc.message:
            kind = "syntax, json-repair refused"
        verdict = "match" if pair.expected is NOTHING else "raised"
        return Outcome(verdict, None, f"{type(exc).__name__}:{kind}")
    except Exception as exc:  # a peer's own exception, or (a bug) ours escaping
        verdict = "match" if pair.expected is NOTHING else "raised"
        return Outcome(verdict, None, ("ESCAPED " if ours else "") + type(exc).__name__)
    if pair.expected is NOTHING:
        nothing = got in ("", None) and not ours
        return Outcome("match" if nothing else "differ", got)
    return Outcome("match" if same(got, pair.expected) else "differ", got)


GUARDED = "json-repair's reading"
"""How a reader error says json-repair read the text too, and a guard refused that reading (it drops or invents
content, or turns structure into text)."""


GRAMMAR_SUITES = frozenset({"json5-tests", "JSONTestSuite"})
"""Suites of a grammar (a file is valid or not), not of a repairer: their invalid files are what we repair."""


# the differences and refusals we make on purpose, each with its reason (checked on the pair, not by its text)
def deliberate(pair: Pair, outcome: Outcome) -> str | None:
    text = pair.text
    if outcome.verdict == "raised":
        kind = outcome.kind.split(":")[-1]
        reasons = {
            "truncated": "the text is cut off inside what it was writing: closing it would invent or drop data",
            "elided": "items elided with '...': what was left out is unknown",
            "ambiguous": "two readings are plausible; the error names them",
            "ambiguous_duplicate_key": "a key written twice with different values",
            "adjacent_quotes": "quotes right after a string: unescaped quotes or a missing comma — two readings",
            "comment_at_end": "a comment runs to the end with containers open: their closers may be in it",
            "trailing_text": "text after the value that is neither a comment nor JSON",
            "no_candidate": "no JSON in the text",
            "multiple_candidates": "several JSON values with different contents, none designated",
            "ambiguous_candidates": "several JSON values with different contents, none designated",
            "too_deep": "nesting over Policy.max_depth",
            "empty": "no JSON value in the text",
            "missing_value": "a key with no value: null would be invented",
            "leading_zeros": "a number with leading zeros: a number or a string of digits?",
            "stray_slash": "a regular expression or a division is not JSON",
            "bad_number": "a number run into letters or dots: not a number JSON can read",
            "number_out_of_range": "a number past a float's range: it would read as infinity",
            "syntax, json-repair refused": "the reader stops here, and json-repair's reading drops or invents "
            "content (a guard refused it): no honest reading",
        }
        return reasons.get(kind)
    if outcome.verdict == "differ" and pair.expected is NOTHING and pair.suite in GRAMMAR_SUITES:
        return "invalid in the suite's grammar, read with recorded repairs (strict refuses those that are guesses)"
    if outcome.verdict == "differ" and pair.expected is NOTHING:
        stripped = text.strip()
        if _is_json(text):
            return "the text is valid JSON, and we read it as written"
        if stripped in ("True", "False", "None"):
            return "a lone Python literal is the value it writes (the peer refuses it)"
        if stripped[:1] in "'\"" and stripped[-1:] == stripped[:1] and isinstance(outcome.got, str):
            return "one string: an invalid escape or raw control character kept as text, or single quotes read"
        return "prose around the JSON is left out by extraction (the peer refuses the whole text)"
    if outcome.verdict == "differ" and _last_quote_closes(outcome.got, pair.expected):
        return "the string's last quote closes it (the peer keeps that quote as text too)"
    if outcome.verdict == "differ" and _text_kept(outcome.got, pair.expected):
        return "we keep a backslash, space or line break the text wrote inside a string; the peer drops it"
    same_shape = isinstance(pair.expected, (dict, list, str)) and isinstance(outcome.got, type(pair.expected))
    if (
        outcome.verdict == "differ"
        and same_shape
        and "\n" in text
        and _strip_ws(outcome.got) == _strip_ws(pair.expected)
    ):
        return "the text keeps a raw line break or space inside a string that the peer drops"
    return None


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _last_quote_closes(got: Any, expected: Any) -> bool:
    """Whether `got` differs from `expected` only by strings the peer ended with one more quote."""
    if isinstance(got, str) and isinstance(expected, str):
        return expected == got + '"'
    if isinstance(got, dict) and isinstance(expected, dict) and got.keys() == expected.keys():
        pairs = [(got[k], expected[k]) for k in got]
        return any(_last_quote_closes(a, b) for a, b in pairs) and all(
            same(a, b) or _last_quote_closes(a, b) for a, b in pairs
        )
    return False


def _text_kept(got: Any, expected: Any) -> bool:
    """Whether `got` differs from `expected` only by characters the text wrote inside strings that the peer
    dropped (a backslash of an invalid escape, spaces, line breaks, a closing quote kept as text)."""
    if isinstance(got, str) and isinstance(expected, str):
        squeeze = str.maketrans("", "", '\\ \n\t\r"')
        return got != expected and got.translate(squeeze) == expected.translate(squeeze)
    if isinstance(got, list) and isinstance(expected, list) and len(got) == len(expected):
        return any(_text_kept(a, b) for a, b in zip(got, expected)) and all(
            same(a, b) or _text_kept(a, b) for a, b in zip(got, expected)
        )
    if isinstance(got, dict) and isinstance(expected, dict) and len(got) == len(expected):
        pairs = list(zip(got.items(), expected.items()))
        return all(
            (ka == kb or _text_kept(ka, kb)) and (same(va, vb) or _text_kept(va, vb)) for (ka, va), (kb, vb) in pairs
        ) and any(ka != kb or not same(va, vb) for (ka, va), (kb, vb) in pairs)
    return False


def _strip_ws(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return [_strip_ws(v) for v in value]
    if isinstance(value, dict):
        return {k.strip(): _strip_ws(v) for k, v in value.items()}
    return value


def evaluate(cases: list[Pair]) -> dict[str, list[Outcome]]:
    systems: dict[str, tuple[Callable[[str], Any], bool]] = {
        "ours lenient": (_ours("lenient"), True),
        "ours strict": (_ours("strict"), True),
    }
    systems.update({name: (fn, False) for name, fn in _peers().items()})
    return {name: [run_one(fn, c, ours) for c in cases] for name, (fn, ours) in systems.items()}


def _pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:5.1f}%" if total else "  -  "


def report(suite: str, cases: list[Pair], results: dict[str, list[Outcome]], show: set[str], limit: int) -> str:
    lines = [f"== {suite}: {len(cases)} cases", ""]
    lines.append(f"{'system':<18}{'match':>14}{'differ':>14}{'raised':>14}")
    for name, outcomes in results.items():
        counts = Counter(o.verdict for o in outcomes)
        lines.append(
            f"{name:<18}"
            + "".join(f"{counts[v]:>6} {_pct(counts[v], len(cases))}" for v in ("match", "differ", "raised"))
        )
    lenient = results["ours lenient"]
    raised = Counter(o.kind for o in lenient if o.verdict == "raised")
    lines += ["", "ours lenient, raises by error kind (honest refusal reason, or GAP):"]
    for kind, count in raised.most_common():
        sample = next(c for c, o in zip(cases, lenient) if o.verdict == "raised" and o.kind == kind)
        why = deliberate(sample, Outcome("raised", None, kind)) or "GAP"
        lines.append(f"  {count:4d}  {kind:<48} {why}")
    differ = [(c, o) for c, o in zip(cases, lenient) if o.verdict == "differ"]
    on_purpose: list[tuple[Pair, Outcome, str | None]] = [(c, o, deliberate(c, o)) for c, o in differ]
    lines += ["", f"ours lenient, differences: {len(differ)} ({sum(1 for *_, r in on_purpose if r)} deliberate)"]
    for c, o, reason in on_purpose:
        if "differ" in show or reason:
            lines.append(f"  {c.where}: {c.text[:70]!r}")
            shown = "nothing" if c.expected is NOTHING else json.dumps(c.expected, ensure_ascii=False)[:90]
            lines.append(f"      expected {shown}")
            lines.append(f"      ours     {json.dumps(o.got, ensure_ascii=False)[:90]}  [{reason or 'GAP'}]")
    if "raised" in show:
        lines += ["", "ours lenient, raises:"]
        listed = 0
        for c, o in zip(cases, lenient):
            if o.verdict == "raised" and listed < limit:
                listed += 1
                lines.append(f"  {c.where}: {c.text[:70]!r} -> {o.kind}")
    return "\n".join(lines)


def iter_suites(args: argparse.Namespace) -> Iterator[tuple[str, list[Pair]]]:
    if args.json_repair:
        yield "json_repair (mangiucugna/json_repair tests/)", json_repair_pairs(Path(args.json_repair))
    if args.jsonrepair:
        yield "jsonrepair (josdejong/jsonrepair src/index.test.ts)", jsonrepair_pairs(Path(args.jsonrepair))
    if args.json5_tests:
        yield (
            "json5-tests (json5/json5-tests: .json/.json5 valid, .js/.txt invalid)",
            json5_tests_pairs(Path(args.json5_tests)),
        )
    if args.json_test_suite:
        yield (
            "JSONTestSuite (nst/JSONTestSuite test_parsing: y_ valid, n_ invalid)",
            json_test_suite_pairs(Path(args.json_test_suite)),
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json-repair", help="path to a snapshot of mangiucugna/json_repair")
    ap.add_argument("--jsonrepair", help="path to a snapshot of josdejong/jsonrepair")
    ap.add_argument("--json5-tests", help="path to a snapshot of json5/json5-tests")
    ap.add_argument("--json-test-suite", help="path to a snapshot of nst/JSONTestSuite")
    ap.add_argument("--show", default="", help="also list: differ, raised (comma-separated)")
    ap.add_argument("--limit", type=int, default=400, help="how many raises to list with --show raised")
    args = ap.parse_args(argv)
    if not (args.json_repair or args.jsonrepair or args.json5_tests or args.json_test_suite):
        ap.error("give at least one of --json-repair, --jsonrepair, --json5-tests, --json-test-suite PATH")
    show = set(filter(None, args.show.split(",")))
    for suite, cases in iter_suites(args):
        print(report(suite, cases, evaluate(cases), show, args.limit))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
