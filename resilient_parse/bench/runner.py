"""The recovery benchmark: every corpus case through every system, each case scored, then tables and reports.

Each system runs in its own worker process, one case at a time, with a per-case timeout: a system that hangs or
crashes on a case is killed, restarted, and the case counts as rejected. Latency is measured inside the worker
around the adapter call only (after a warm-up that builds each target's validators), so process plumbing is not
billed to anyone.

Outcomes of one case for one system, always against the case's `expected` (ours in both modes and every peer
alike):
    correct          returned the expected object
    correct_reject   raised where the expected answer is "reject"
    wrong            returned a different object where an object was expected
    false_accept     returned an object where the right answer is an error (the worst outcome)
    rejected         raised (or hung, or crashed) where an object was expected
Our strict mode also gets a `policy_outcome`, against the strict policy's own key (`expected_strict` where a case
has one): what strict is designed to return, shown beside the headline and labelled, never instead of it. The
headline split (syntax/extraction vs schema-repair cases) is `resilient_parse.bench.headline`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing as mp
import platform
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from resilient_parse.bench.corpus_loader import DEFAULT_CORPUS, Case, CorpusError, canonical, load_corpus, target_for
from resilient_parse.bench.headline import headline
from resilient_parse.bench.peer_suites import PeerSuiteError, format_section, load_suites, peer_nothing
from resilient_parse.bench.peers import SYSTEMS, TOOL_TEXT, Adapter, System, select
from resilient_parse.bench.tables import (
    fit_lines,
    format_failures,
    format_systems,
    format_tables,
    printable,
    usage_error,
)

OUTCOMES = ("correct", "correct_reject", "wrong", "false_accept", "rejected")
_START_TIMEOUT = 120.0
_MAX_ERROR_CHARS = 300


@dataclass(frozen=True)
class CaseResult:
    """What one system did with one case."""

    case_id: str
    category: str
    system: str
    outcome: str
    seconds: float
    error: str | None = None
    got: Any = None
    policy_outcome: str | None = None  # our strict mode only: against the strict policy's own key


# -- scoring ------------------------------------------------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """Equality of JSON data that does not confuse `true` with `1` (Python's `True == 1`)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (a != a and b != b)  # NaN (JSON5 writes it) is the same NaN
    return type(a) is type(b) and bool(a == b)


def classify(expected: Any, returned: bool, got: Any = None) -> str:
    """The outcome of a case: `expected` is the canonical object or None (reject); `returned` says whether the
    system returned an object (`got`, canonical) rather than raising."""
    if expected is None:
        return "false_accept" if returned else "correct_reject"
    if not returned:
        return "rejected"
    return "correct" if same(got, expected) else "wrong"


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (q in 0..100) of `values`; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return ordered[rank - 1]


def summarize(results: Iterable[CaseResult]) -> dict[str, Any]:
    """Counts, percentages and latency for one system's results."""
    rows = list(results)
    n = len(rows)
    counts = {o: sum(1 for r in rows if r.outcome == o) for o in OUTCOMES}
    timeouts = sum(1 for r in rows if r.error and r.error.startswith("timeout"))
    crashes = sum(1 for r in rows if r.error and r.error.startswith("crash"))
    ms = [r.seconds * 1000.0 for r in rows]

    def pct(k: int) -> float:
        return round(100.0 * k / n, 1) if n else 0.0

    correct_all = counts["correct"] + counts["correct_reject"]
    recoverable = counts["correct"] + counts["wrong"] + counts["rejected"]
    must_reject = counts["correct_reject"] + counts["false_accept"]
    return {
        "cases": n,
        **counts,
        "recoverable": recoverable,
        "must_reject": must_reject,
        "recovered_pct": round(100.0 * counts["correct"] / recoverable, 1) if recoverable else 0.0,
        "rejects_caught_pct": round(100.0 * counts["correct_reject"] / must_reject, 1) if must_reject else 0.0,
        "timeouts": timeouts,
        "crashes": crashes,
        "correct_pct": pct(correct_all),
        "wrong_pct": pct(counts["wrong"]),
        "false_accept_pct": pct(counts["false_accept"]),
        "rejected_pct": pct(counts["rejected"]),
        "latency_ms": {
            "median": round(percentile(ms, 50), 4),
            "p99": round(percentile(ms, 99), 4),
            "mean": round(sum(ms) / n, 4) if n else 0.0,
        },
    }


def by_category(results: Iterable[CaseResult]) -> dict[str, dict[str, dict[str, Any]]]:
    """category -> system -> {cases, correct, correct_pct}, where correct includes correct rejections."""
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        cell = table.setdefault(r.category, {}).setdefault(r.system, {"cases": 0, "correct": 0})
        cell["cases"] += 1
        cell["correct"] += r.outcome in ("correct", "correct_reject")
    for row in table.values():
        for cell in row.values():
            cell["correct_pct"] = round(100.0 * cell["correct"] / cell["cases"], 1)
    return dict(sorted(table.items()))


# -- the worker process -------------------------------------------------------------------------------------------

Payload = tuple[str, str, "dict[str, str] | None", str]
"""A case as the worker needs it: its text, target, aliases and category (a peer reads tool_text its own way)."""


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 1] + "…"


def _worker(conn: Connection, system_ref: System | str, payloads: Sequence[Payload]) -> None:
    """Serve case indices from `conn` until None: reply (index, returned, canonical value or error, seconds).
    `system_ref` is the System itself (forked workers) or its name (spawned workers, which import it)."""
    from resilient_parse.bench.peers import BY_NAME

    try:
        system = BY_NAME[system_ref] if isinstance(system_ref, str) else system_ref
        adapters: dict[tuple[bool, tuple[tuple[str, str], ...]], Adapter] = {}

        def adapter_for(aliases: dict[str, str] | None, category: str) -> Adapter:
            """The system's adapter for a case's aliases and category (`System.build`), built once."""
            key = (category == TOOL_TEXT, tuple(sorted(aliases.items())) if aliases else ())
            if key not in adapters:
                adapters[key] = system.build(aliases, category)
            return adapters[key]

        for spec in dict.fromkeys(spec for _, spec, _, _ in payloads):  # warm-up: build each target's validators
            target = target_for(spec)
            for probe in ("{}", "[]"):
                with contextlib.suppress(Exception):
                    adapter_for(None, "")(probe, target)
    except BaseException as exc:
        conn.send(("failed", _describe(exc)))
        return
    conn.send(("ready", None))
    while True:
        try:
            index = conn.recv()
        except EOFError:
            return
        if index is None:
            return
        text, spec, aliases, category = payloads[index]
        try:
            adapter = adapter_for(aliases, category)
            target = target_for(spec)
        except BaseException as exc:
            conn.send((index, False, f"adapter: {_describe(exc)}", 0.0))
            continue
        start = time.perf_counter()
        try:
            value = adapter(text, target)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            conn.send((index, False, _describe(exc), time.perf_counter() - start))
            continue
        seconds = time.perf_counter() - start
        try:
            conn.send((index, True, canonical(spec, value), seconds))
        except Exception as exc:  # a value we cannot turn into JSON data (or send) is not the expected object
            conn.send((index, True, {"unserialisable": repr(value)[:200], "error": _describe(exc)}, seconds))


class _WorkerHandle:
    """A worker process for one system, restarted after a timeout or a crash."""

    def __init__(self, system: System, payloads: Sequence[Payload]) -> None:
        self.forked = "fork" in mp.get_all_start_methods()
        self.ctx: Any = mp.get_context("fork" if self.forked else "spawn")
        self.system = system
        self.payloads = payloads
        self.process: Any = None
        self.conn: Connection | None = None

    def start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.process = self.ctx.Process(
            target=_worker,
            args=(child, self.system if self.forked else self.system.name, self.payloads),
            daemon=True,
            name=self.system.name,
        )
        self.process.start()
        child.close()
        self.conn = parent
        if not parent.poll(_START_TIMEOUT):
            self.stop()
            raise RuntimeError(f"{self.system.name}: the worker did not start within {_START_TIMEOUT:.0f} s")
        try:
            status, detail = parent.recv()
        except EOFError:
            self.stop()
            raise RuntimeError(f"{self.system.name}: the worker died while starting") from None
        if status != "ready":
            self.stop()
            raise RuntimeError(f"{self.system.name}: {detail}")

    def run(self, index: int, timeout: float) -> tuple[bool, Any, float]:
        """(returned, canonical value or error text, seconds) for one case; timeouts and crashes raise nothing."""
        if self.conn is None:
            self.start()
        assert self.conn is not None
        started = time.perf_counter()
        try:
            self.conn.send(index)
            if not self.conn.poll(timeout):
                self.stop()
                return False, f"timeout: no answer within {timeout:g} s", timeout
            got_index, returned, payload, seconds = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            code = self.process.exitcode if self.process is not None else None
            self.stop()
            return False, f"crash: the worker died (exit code {code})", time.perf_counter() - started
        if got_index != index:  # pragma: no cover - protocol invariant
            self.stop()
            return False, "crash: the worker answered another case", time.perf_counter() - started
        return bool(returned), payload, float(seconds)

    def stop(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.conn.close()
            self.conn = None
        if self.process is not None:
            self.process.join(0.5)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(2.0)
            self.process = None


# -- running ------------------------------------------------------------------------------------------------------


class _Progress:
    """tqdm when it is installed and stderr is a terminal, else a plain counter on a terminal, else silence."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None
        self.done = 0
        self.total = total
        if self.enabled:
            try:
                import tqdm  # type: ignore[import-untyped,unused-ignore]

                tqdm.tqdm.monitor_interval = 0  # no monitor thread: workers are forked
                self.bar = tqdm.tqdm(total=total, file=sys.stderr, unit="case", leave=False, dynamic_ncols=True)
            except ImportError:
                self.bar = None

    def describe(self, name: str) -> None:
        if self.bar is not None:
            self.bar.set_description(name)
        self.name = name

    def step(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        elif self.enabled and (self.done % 10 == 0 or self.done == self.total):
            print(f"\r{self.name}: {self.done}/{self.total}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            print(file=sys.stderr)


def run_system(
    system: System, cases: Sequence[Case], timeout: float, on_step: Callable[[], None] = lambda: None
) -> list[CaseResult]:
    """Every case the system is scored on, through a worker process with a per-case timeout."""
    scored = [c for c in cases if c.applies_to(system.mode)]
    payloads: list[Payload] = [
        (c.input, c.target_spec, dict(c.aliases) if c.aliases else None, c.category) for c in scored
    ]
    worker = _WorkerHandle(system, payloads)
    results: list[CaseResult] = []
    try:
        worker.start()
        for index, case in enumerate(scored):
            returned, payload, seconds = worker.run(index, timeout)
            got = payload if returned else None
            outcome = classify(case.expected, returned, got)
            policy = classify(case.expectation("strict"), returned, got) if system.mode == "strict" else None
            results.append(
                CaseResult(
                    case_id=case.id,
                    category=case.category,
                    system=system.name,
                    outcome=outcome,
                    seconds=seconds,
                    error=None if returned else str(payload),
                    got=got if {outcome, policy} & {"wrong", "false_accept"} else None,
                    policy_outcome=policy,
                )
            )
            on_step()
    finally:
        worker.stop()
    return results


def run(
    cases: Sequence[Case], systems: Sequence[System], timeout: float = 5.0, progress: bool = True
) -> tuple[list[CaseResult], list[dict[str, str]]]:
    """All results, and the systems skipped (with why)."""
    runnable: list[System] = []
    skipped: list[dict[str, str]] = []
    for system in systems:
        reason = system.missing()
        if reason:
            skipped.append({"system": system.name, "reason": reason})
        else:
            runnable.append(system)
    total = sum(sum(1 for c in cases if c.applies_to(s.mode)) for s in runnable)
    bar = _Progress(total, progress)
    results: list[CaseResult] = []
    try:
        for system in runnable:
            bar.describe(system.name)
            try:
                results.extend(run_system(system, cases, timeout, bar.step))
            except RuntimeError as exc:
                skipped.append({"system": system.name, "reason": str(exc)})
    finally:
        bar.close()
    return results, skipped


def run_peer_suites(
    root: Path,
    suites: tuple[list[Case], dict[str, dict[str, Any]]],
    systems: Sequence[System],
    timeout: float,
    progress: bool,
) -> dict[str, Any]:
    """The peers' suites (`peer_suites.load_suites(root)`) through every system: per suite and system, the corpus
    summary; a peer's own "nothing" where the suite expects nothing counts as its rejection."""
    cases, found = suites
    raw, skipped = run(cases, systems, timeout, progress)
    peers = {s.name for s in systems if s.mode is None}
    results = [peer_nothing(r, peers) for r in raw]
    ran = [s.name for s in systems if any(r.system == s.name for r in results)]
    summary = {
        suite: {
            name: summarize(r for r in results if r.system == name and r.category.startswith(f"{suite}/"))
            for name in ran
        }
        for suite in found
    }
    return {
        "root": str(root),
        "suites": found,
        "summary": summary,
        "categories": by_category(results),
        "skipped": skipped,
    }


def figures(
    cases: Sequence[Case],
    results: Sequence[CaseResult],
    systems: Sequence[System],
    skipped: Sequence[Mapping[str, str]],
    corpus: Sequence[str],
    seconds: float,
) -> dict[str, Any]:
    """Everything the tables, the JSON file and the HTML page show."""
    ran = [s for s in systems if any(r.system == s.name for r in results)]
    by_case = {c.id: c for c in cases}
    aliased = [c.id for c in cases if c.aliases]
    keyed = [c.id for c in cases if c.has_strict_override]
    return {
        "corpus": list(corpus),
        "bundled": [str(Path(p).resolve()) for p in corpus] == [str(DEFAULT_CORPUS)],
        "cases": len(cases),
        "categories_count": len({c.category for c in cases}),
        "headline": headline([*results], [s.name for s in ran], aliased, keyed),
        "aliased_cases": aliased,
        "systems": [
            {
                "name": s.name,
                "description": s.description,
                "version": s.version(),
                "mode": s.mode,
                "tool_text": s.tool_text is not None,  # a peer given a tool-call wrapper for that category
            }
            for s in ran
        ],
        "skipped": list(skipped),
        "summary": {s.name: summarize(r for r in results if r.system == s.name) for s in ran},
        "categories": by_category(results),
        "results": [
            {**asdict(r), "seconds": round(r.seconds, 6), "expected": by_case[r.case_id].expected}
            if r.got is not None or r.outcome in ("wrong", "false_accept")
            else {k: v for k, v in asdict(r).items() if k != "got"} | {"seconds": round(r.seconds, 6)}
            for r in results
        ],
        "environment": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
            "wall_seconds": round(seconds, 1),
        },
    }


def main(args: argparse.Namespace) -> int:
    """`resilient-parse bench`: run, print the tables, write --json/--html. Exit 2 on a bad corpus or system."""
    if getattr(args, "list_systems", False):
        print(format_systems(SYSTEMS, wide=getattr(args, "wide", False)))
        return 0
    try:
        systems = select(args.systems, args.mode)
        cases = load_corpus(args.corpus)
    except (ValueError, CorpusError) as exc:
        return usage_error(str(exc))
    if args.category:
        cases = [c for c in cases if c.category in set(args.category)]
        if not cases:
            return usage_error(f"no case in categories {args.category}")
    if args.timeout <= 0:
        return usage_error("--timeout must be positive")
    html_path, json_path = report_paths(args)
    suites = None
    if getattr(args, "peer_suites", None):  # read first: a wrong folder is a usage error before the long run
        try:
            suites = load_suites(Path(args.peer_suites))
        except PeerSuiteError as exc:
            return usage_error(str(exc))
    started = time.perf_counter()
    try:
        results, skipped = run(cases, systems, args.timeout, progress=not args.no_progress)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    corpus = [str(p) for p in args.corpus] or [str(DEFAULT_CORPUS)]
    fig = figures(cases, results, systems, skipped, corpus, time.perf_counter() - started)
    wide = bool(getattr(args, "wide", False))
    print(format_tables(fig, wide=wide))
    if args.show_failures:
        ours = [s.name for s in systems if s.mode is not None]
        print("\ncases our parser did not get right:")
        print(format_failures(fig, ours, wide=wide) or "(none)")
    if suites is not None:
        section = run_peer_suites(Path(args.peer_suites), suites, systems, args.timeout, not args.no_progress)
        fig["peer_suites"] = section
        print()
        print(format_section(section, wide=wide))
    try:
        if json_path is not None:
            json_path.parent.mkdir(parents=True, exist_ok=True)
            json_path.write_text(json.dumps(fig, indent=2) + "\n", encoding="utf-8")
            print("\n".join(fit_lines(f"wrote the figures (JSON): {json_path}")))
        if html_path is not None:
            from resilient_parse.bench.report import render

            html_path.parent.mkdir(parents=True, exist_ok=True)
            html_path.write_text(printable(render(fig)), encoding="utf-8")
            print("\n".join(fit_lines(f"wrote the HTML report: {html_path}")))
    except OSError as exc:
        return usage_error(f"cannot write the report: {exc}")
    return 0


def report_paths(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """Where `bench` writes its HTML and JSON reports: only where the user said. `--out DIR` means DIR/bench.html
    and DIR/bench.json; `--html FILE` and `--json FILE` name one file each (and win over `--out` for theirs).
    Nothing given: nothing written, the tables go to stdout only."""
    out = getattr(args, "out", None)
    html = getattr(args, "html", None) or (str(Path(out) / "bench.html") if out else None)
    data = getattr(args, "json", None) or (str(Path(out) / "bench.json") if out else None)
    return (Path(html) if html else None), (Path(data) if data else None)
