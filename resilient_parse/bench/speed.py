"""`resilient-parse speed`: how fast we are next to what a user would otherwise call, in the same run.

Valid documents: `json.loads`, Pydantic's `TypeAdapter(list[Record]).validate_json`, and our `parse` (lenient,
the default; strict too). Broken documents (fence + prose + comments + single quotes + Python literals + trailing
commas): `json_repair.loads` alone, `json_repair.loads` + validation (what a user of json-repair really runs), and
our `parse`. Every figure is a median of interleaved rounds (each function once per round, in turn, so a busy
moment of the machine falls on all of them); ratios compare medians taken in this process. Linearity is our time
per KB across sizes from 10 KB up: a flat column means linear.

Then each broken shape alone (trailing commas, single quotes, Python literals, bare keys, comments, escaped
quotes, raw newlines, a truncated object, inner quotes, and the mix above), ours next to json_repair.loads and
fast_json_repair.loads; fenced valid JSON against the bare document; valid JSON wrapped in prose.

By default a quick run (sizes up to 1 MB, shapes up to 100 KB, short rounds: well under a minute); `--full`
measures up to 4 MB with longer rounds (minutes). `--goals` adds the project's speed goals, met or missed:
broken input at 1 MB and 4 MB >= 10 MB/s and >= 5x json_repair on each shape, linear from 100 KB to 4 MB; at
300 B, 2 KB and 10 KB faster than json_repair on every shape and >= 3x on the median shape; fenced valid JSON
<= 2x the bare document at 2 KB and 1 MB; valid JSON <= 1.1x validate_json; wrapped valid JSON <= 2x
validate_json + 15 µs. Every line printed fits 80 columns.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import json
import pstats
import statistics
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from resilient_parse.bench.speed_core import (
    KB,
    MB,
    SHAPES,
    Documents,
    Record,
    documents,
    format_size,
    interleaved,
    parse_size,
    shaped,
    timed,
)

WIDTH = 80
QUICK_SIZES = (2 * KB, 10 * KB, 100 * KB, 1 * MB)
FULL_SIZES = (2 * KB, 10 * KB, 100 * KB, 1 * MB, 4 * MB)
QUICK_BUDGET = 0.25  # seconds per measurement (at least 2 or 3 interleaved rounds whatever the budget)
FULL_BUDGET = 1.0
VALID_RATIO_TARGET = 1.1  # goal: valid JSON still <= 1.1x TypeAdapter.validate_json
# seconds-long columns left out from 1 MB up, to keep the run short
LARGE_SKIPPED = frozenset({"ours strict", "json_repair+validate"})
BROKEN_SPEEDUP_TARGET = 5.0


def _fit(text: str, indent: str = "") -> list[str]:
    """One paragraph wrapped to 80 columns."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [text]


def _systems() -> tuple[dict[str, Callable[[str], Any]], dict[str, Callable[[str], Any]], list[str]]:
    """(valid-document functions, broken-document functions, notes) by column name."""
    from resilient_parse.api import default_parser

    target = list[Record]
    adapter: TypeAdapter[Any] = TypeAdapter(target)
    lenient, strict = default_parser("lenient"), default_parser("strict")
    notes: list[str] = []
    valid: dict[str, Callable[[str], Any]] = {
        "json.loads": json.loads,
        "validate_json": adapter.validate_json,
        "ours": lambda t: lenient.parse(t, target),
        "ours strict": lambda t: strict.parse(t, target),
    }
    broken: dict[str, Callable[[str], Any]] = {
        "ours": lambda t: lenient.parse(t, target),
        "ours strict": lambda t: strict.parse(t, target),
    }
    try:
        import json_repair

        broken["json_repair"] = json_repair.loads
        broken["json_repair+validate"] = lambda t: adapter.validate_python(json_repair.loads(t))
    except ImportError:
        notes.append("json_repair is not installed: no broken-document comparison")
    return valid, broken, notes


def _check(docs: Documents, name: str, value: Any) -> str | None:
    """A note when a function did not return the document's data (a speed figure of a wrong answer is void)."""
    got = [v.model_dump() if hasattr(v, "model_dump") else v for v in value] if isinstance(value, list) else value
    if got != docs.data:
        return f"{format_size(docs.size)}: {name} did not return the document's data"
    return None


def run(sizes: tuple[int, ...], budget: float, progress: bool = True) -> dict[str, Any]:
    """All timings (seconds, medians of interleaved rounds) per size and column, plus notes. Each function's
    answer is checked once first (that call also warms it up and is not timed)."""
    valid_fns, broken_fns, notes = _systems()
    rows: list[dict[str, Any]] = []
    warm = documents(2 * KB)  # build validators and caches outside the timings
    for fns, text in ((valid_fns, warm.valid), (broken_fns, warm.broken)):
        for fn in fns.values():
            fn(text)
    for size in sizes:
        docs = documents(size)
        row: dict[str, Any] = {"size": size, "records": docs.records, "valid_bytes": len(docs.valid)}
        row["broken_bytes"] = len(docs.broken.encode())
        large = size >= MB
        for kind, fns, text in (("valid", valid_fns, docs.valid), ("broken", broken_fns, docs.broken)):
            if progress:
                print(f"\r  {format_size(size):>7} {kind:<6}", end="", file=sys.stderr, flush=True)
            calls: dict[str, Callable[[], object]] = {}
            for name, fn in fns.items():
                if large and kind == "broken" and name in LARGE_SKIPPED:
                    continue
                calls[name] = functools.partial(fn, text)
                _, value = timed(calls[name])
                note = _check(docs, name, value) if name != "json.loads" else None
                if note:
                    notes.append(note)
            rounds: dict[str, list[float]] = {}
            medians = interleaved(calls, budget, min_rounds=2 if large else 3, samples=rounds)
            for name, median in medians.items():
                row[f"{kind}:{name}"] = {"median": median, "runs": len(rounds[name])}
        rows.append(row)
    if progress:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    return {"rows": rows, "notes": notes, "budget": budget, "timing": "medians of interleaved rounds"}


def _t(row: dict[str, Any], key: str) -> float | None:
    cell = row.get(key)
    return None if cell is None else float(cell["median"])


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def analyse(result: dict[str, Any]) -> dict[str, Any]:
    """Ratios per size, linearity, and the targets met or missed."""
    per_size = []
    for row in result["rows"]:
        per_size.append(
            {
                "size": row["size"],
                "valid_vs_validate_json": _ratio(_t(row, "valid:ours"), _t(row, "valid:validate_json")),
                "valid_vs_json_loads": _ratio(_t(row, "valid:ours"), _t(row, "valid:json.loads")),
                "broken_speedup_vs_json_repair": _ratio(_t(row, "broken:json_repair"), _t(row, "broken:ours")),
                "broken_speedup_vs_json_repair_validate": _ratio(
                    _t(row, "broken:json_repair+validate"), _t(row, "broken:ours")
                ),
                "broken_us_per_kb": 1e6 * (_t(row, "broken:ours") or 0.0) / (row["broken_bytes"] / KB),
                "valid_us_per_kb": 1e6 * (_t(row, "valid:ours") or 0.0) / (row["valid_bytes"] / KB),
                "validate_json_us_per_kb": 1e6 * (_t(row, "valid:validate_json") or 0.0) / (row["valid_bytes"] / KB),
            }
        )
    big = [r for r in per_size if r["size"] >= 10 * KB]
    linear: dict[str, Any] = {}
    for key in ("broken_us_per_kb", "valid_us_per_kb", "validate_json_us_per_kb"):
        values = [r[key] for r in big if r[key] > 0]
        linear[key] = round(max(values) / min(values), 2) if len(values) >= 2 else None
    targets = []
    for r in per_size:
        if r["size"] in (2 * KB, MB) and r["valid_vs_validate_json"] is not None:
            v = r["valid_vs_validate_json"]
            label = f"valid {format_size(r['size'])}: ours / validate_json <= {VALID_RATIO_TARGET}x"
            targets.append((label, v, v <= VALID_RATIO_TARGET))
    speedups = [r["broken_speedup_vs_json_repair"] for r in big if r["broken_speedup_vs_json_repair"] is not None]
    if speedups:
        worst = min(speedups)
        targets.append(
            (
                f"broken 10 KB+: speedup vs json_repair.loads >= {BROKEN_SPEEDUP_TARGET}x (worst)",
                worst,
                worst >= BROKEN_SPEEDUP_TARGET,
            )
        )
    if linear["broken_us_per_kb"] is not None:
        spread = linear["broken_us_per_kb"]
        targets.append(("broken 10 KB+: linear (max/min time per KB <= 1.5)", spread, spread <= 1.5))
    return {"per_size": per_size, "linearity": linear, "targets": targets}


def _fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _fmt_ratio(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}x"


def format_report(result: dict[str, Any], analysis: dict[str, Any]) -> str:
    """The valid and broken document tables and the linearity line, 80 columns."""
    lines = [*_fit("valid JSON (median per parse; ratio = ours / validate_json; strict: strict mode)"), ""]
    head = f"{'size':>8}{'records':>8}{'json.loads':>11}{'validate_json':>14}{'ours':>10}{'strict':>10}"
    head += f"{'ratio':>8}{'µs/KB':>8}"
    lines += [head, "-" * len(head)]
    for row, a in zip(result["rows"], analysis["per_size"]):
        lines.append(
            f"{format_size(row['size']):>8}{row['records']:>8}{_fmt_time(_t(row, 'valid:json.loads')):>11}"
            f"{_fmt_time(_t(row, 'valid:validate_json')):>14}{_fmt_time(_t(row, 'valid:ours')):>10}"
            f"{_fmt_time(_t(row, 'valid:ours strict')):>10}{_fmt_ratio(a['valid_vs_validate_json']):>8}"
            f"{a['valid_us_per_kb']:>8.2f}"
        )
    lines += [""]
    lines += _fit(
        "broken JSON (a fence, prose, comments, single quotes, Python literals, trailing commas); jr = "
        "json_repair.loads, jr+val = jr then Pydantic validation (what its users run); speedup = jr's time / ours "
        "(above 1: we are faster); from 1 MB up, strict and jr+val are not measured (seconds a call)"
    )
    lines.append("")
    head = f"{'size':>8}{'jr':>11}{'jr+val':>11}{'ours':>10}{'strict':>10}{'speedup':>9}{'vs jr+val':>11}"
    head += f"{'µs/KB':>9}"
    lines += [head, "-" * len(head)]
    for row, a in zip(result["rows"], analysis["per_size"]):
        lines.append(
            f"{format_size(row['size']):>8}{_fmt_time(_t(row, 'broken:json_repair')):>11}"
            f"{_fmt_time(_t(row, 'broken:json_repair+validate')):>11}{_fmt_time(_t(row, 'broken:ours')):>10}"
            f"{_fmt_time(_t(row, 'broken:ours strict')):>10}{_fmt_ratio(a['broken_speedup_vs_json_repair']):>9}"
            f"{_fmt_ratio(a['broken_speedup_vs_json_repair_validate']):>11}{a['broken_us_per_kb']:>9.2f}"
        )
    lin = analysis["linearity"]
    if any(v is not None for v in lin.values()):
        lines += [""]
        lines += _fit(
            f"linearity from 10 KB (max/min of µs per KB; 1.00 = perfectly linear): ours valid "
            f"{_fmt_spread(lin['valid_us_per_kb'])}, ours broken {_fmt_spread(lin['broken_us_per_kb'])}, "
            f"validate_json itself {_fmt_spread(lin['validate_json_us_per_kb'])}"
        )
    for note in result["notes"]:
        lines += _fit(f"note: {note}", "  ")
    return "\n".join(lines)


def _fmt_spread(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def format_goals(goals: list[tuple[str, bool]]) -> str:
    """`--goals`: the project's speed goals, one line each, met or missed on this machine in this run."""
    lines = ["speed goals (met or missed on this machine, in this run)"]
    for label, ok in goals:
        lines += _fit(f"  [{'met' if ok else 'MISSED'}] {label}", " " * 4)
    return "\n".join(lines)


def report_goals(analysis: dict[str, Any]) -> list[tuple[str, bool]]:
    """The valid/broken table's goals as (label, met)."""
    return [(f"{label}: {value:.2f}", bool(ok)) for label, value, ok in analysis["targets"]]


def profile_broken(size: int, top: int = 25) -> str:
    """cProfile of our lenient parse on a broken document of `size` bytes: where the time goes."""
    from resilient_parse.api import default_parser

    docs = documents(size)
    parser = default_parser("lenient")
    parser.parse(documents(2 * KB).broken, list[Record])
    prof = cProfile.Profile()
    prof.enable()
    parser.parse(docs.broken, list[Record])
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    stats = pstats.Stats(prof, stream=out)
    out.write("\n--- by own time ---\n")
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


FULL_SHAPE_SIZES = (300, 2 * KB, 10 * KB, 100 * KB, 1 * MB, 4 * MB)
QUICK_SHAPE_SIZES = (300, 2 * KB, 100 * KB)
SMALL = (300, 2 * KB, 10 * KB)


def _shape_systems(target: Any) -> dict[str, Callable[[str], Any]]:
    from resilient_parse.api import default_parser

    lenient = default_parser("lenient")
    systems: dict[str, Callable[[str], Any]] = {"ours": lambda t: lenient.parse(t, target)}
    try:
        import json_repair

        systems["json_repair"] = json_repair.loads
    except ImportError:
        pass
    try:
        import fast_json_repair

        systems["fast_json_repair"] = fast_json_repair.loads
    except ImportError:
        pass
    return systems


def run_shapes(sizes: tuple[int, ...], budget: float, progress: bool = True) -> list[dict[str, Any]]:
    """Per shape and size: the median seconds of each system, measured in interleaved rounds."""
    rows: list[dict[str, Any]] = []
    for shape in SHAPES:
        warm = shaped(shape, 2 * KB)
        systems = _shape_systems(warm.target)
        for fn in systems.values():
            fn(warm.text)
        for size in sizes:
            doc = shaped(shape, size)
            if progress:
                print(f"\r  {shape:<18} {format_size(size):>7}", end="", file=sys.stderr, flush=True)
            calls: dict[str, Callable[[], object]] = {
                name: functools.partial(fn, doc.text) for name, fn in systems.items()
            }
            medians = interleaved(calls, budget, min_rounds=2 if size >= MB else 3)
            rows.append({"shape": shape, "size": size, "bytes": len(doc.text.encode()), **medians})
    fenced = []
    ours = _shape_systems(list[Record])["ours"]
    for size in (2 * KB, 1 * MB):
        docs = documents(size)
        text = f"Here is the JSON you asked for:\n```json\n{docs.valid}\n```\nLet me know if you need more."
        pair: dict[str, Callable[[], object]] = {
            "fenced": functools.partial(ours, text),
            "bare": functools.partial(ours, docs.valid),
        }
        fenced.append({"size": size, **interleaved(pair, budget)})
    if progress:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    return [*rows, *({"fenced": f} for f in fenced)]


WRAPPED_SIZES = (300, 2 * KB)
WRAPPED_SLACK = 15e-6  # goal: wrapped valid JSON costs at most 2x the bare validate_json plus 15 µs


def wrapped_texts(valid: str) -> dict[str, str]:
    """Valid JSON as models hand it over: in a fence or in the prose, with a hand-over and a closing remark."""
    return {
        "fenced": f"Here is the JSON you asked for:\n```json\n{valid}\n```\nLet me know if you need more.",
        "prose": f"Sure! Here is the list: {valid} Let me know if you need anything else.",
        "fenced zh": f"以下是您要的JSON：\n```json\n{valid}\n```\n如果还有其他需要，请告诉我。",
        "prose de": f"Hier ist die Liste: {valid} Sag Bescheid, wenn du noch etwas brauchst.",
    }


def _repeated(fn: Callable[[str], Any], text: str, times: int) -> Callable[[], None]:
    def run() -> None:
        for _ in range(times):
            fn(text)

    return run


def run_wrapped(budget: float, progress: bool = True) -> list[dict[str, Any]]:
    """Per size: the bare `validate_json` ("validate"), our parse of each wrapped text and json_repair + validation
    of the fenced one, in interleaved rounds of many calls each (a single call at 300 B is shorter than the timer's
    noise); seconds per call."""
    from resilient_parse.api import default_parser

    adapter: TypeAdapter[Any] = TypeAdapter(list[Record])
    ours = default_parser("lenient")
    rows = []
    for size in WRAPPED_SIZES:
        if progress:
            print(f"\r  wrapped {format_size(size):>7}", end="", file=sys.stderr, flush=True)
        valid = documents(size).valid
        texts = wrapped_texts(valid)
        times = max(10, 40_000 // len(valid))
        calls: dict[str, Callable[[], object]] = {"validate": _repeated(adapter.validate_json, valid, times)}
        for name, text in texts.items():
            if ours.parse(text, list[Record]) != adapter.validate_json(valid):
                raise AssertionError(f"wrapped {name}: our parse differs from the bare document's")
            calls[name] = _repeated(lambda t: ours.parse(t, list[Record]), text, times)
        try:
            import json_repair

            fenced = texts["fenced"]
            calls["json_repair"] = _repeated(lambda t: adapter.validate_python(json_repair.loads(t)), fenced, times)
        except ImportError:
            pass
        medians = interleaved(calls, budget, min_rounds=5)
        rows.append({"size": size, **{name: seconds / times for name, seconds in medians.items()}})
    if progress:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    return rows


def format_wrapped(rows: list[dict[str, Any]]) -> str:
    """The wrapped-JSON table (µs a call)."""
    lines = ["valid JSON wrapped in prose (µs a call, median of interleaved rounds)", ""]
    names = [n for n in rows[0] if n != "size"] if rows else []
    head = f"{'size':>6}" + "".join(f"{n:>12}" for n in names)
    lines += [head, "-" * len(head)]
    for row in rows:
        lines.append(f"{format_size(row['size']):>6}" + "".join(f"{row[n] * 1e6:>12.1f}" for n in names))
    return "\n".join(lines)


def wrapped_goals(rows: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """Wrapped valid JSON costs at most 2x the bare validate_json plus 15 µs, per size and wrapping."""
    goals: list[tuple[str, bool]] = []
    for row in rows:
        limit = 2 * row["validate"] + WRAPPED_SLACK
        for name in wrapped_texts(""):
            got = row[name]
            label = f"wrapped, {name} {format_size(row['size'])}: {got * 1e6:.1f} <= {limit * 1e6:.1f} µs"
            goals.append((label, got <= limit))
    return goals


def format_shapes(rows: list[dict[str, Any]]) -> str:
    """The per-shape table and the fenced-against-bare lines."""
    lines = [*_fit("broken shapes (median of interleaved rounds; MB/s: ours; x = json_repair / ours)"), ""]
    head = f"{'shape':<17}{'size':>8}{'ours':>10}{'MB/s':>7}{'json_repair':>12}{'x':>7}{'fast_json_repair':>17}"
    lines += [head, "-" * len(head)]
    for row in rows:
        if "fenced" in row:
            continue
        ours, jr, fast = row["ours"], row.get("json_repair"), row.get("fast_json_repair")
        mbs = row["bytes"] / ours / 1e6
        ratio = jr / ours if jr else None
        lines.append(
            f"{row['shape']:<17}{format_size(row['size']):>8}{_fmt_time(ours):>10}{mbs:>7.1f}"
            f"{_fmt_time(jr):>12}{_fmt_ratio(ratio):>7}{_fmt_time(fast):>17}"
        )
    lines += ["", "fenced valid JSON with prose, against the bare document (ours, both)"]
    for row in rows:
        if "fenced" in row:
            f = row["fenced"]
            r = f["fenced"] / f["bare"]
            lines.append(
                f"  {format_size(f['size']):>7}: fenced {_fmt_time(f['fenced'])}, bare {_fmt_time(f['bare'])}: {r:.2f}x"
            )
    return "\n".join(lines)


def shape_goals(rows: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """The per-shape goals: >= 10 MB/s and >= 5x json_repair from 1 MB, faster than json_repair up to 10 KB and
    >= 3x on the median shape, linear from 100 KB; a fence costs at most 2x the bare parse."""
    goals: list[tuple[str, bool]] = []
    small_ratios: dict[int, list[float]] = {}
    per_kb: dict[str, list[float]] = {}
    for row in rows:
        if "fenced" in row:
            f = row["fenced"]
            r = f["fenced"] / f["bare"]
            goals.append((f"fenced {format_size(f['size'])}: {r:.2f}x the bare parse <= 2", r <= 2))
            continue
        ours, jr = row["ours"], row.get("json_repair")
        mbs = row["bytes"] / ours / 1e6
        ratio = jr / ours if jr else None
        where = f"{row['shape']} {format_size(row['size'])}"
        if row["size"] >= MB:
            goals.append((f"{where}: {mbs:.1f} MB/s >= 10", mbs >= 10))
            if ratio is not None:
                goals.append((f"{where}: {ratio:.1f}x json_repair >= 5", ratio >= 5))
        if row["size"] in SMALL and ratio is not None:
            small_ratios.setdefault(row["size"], []).append(ratio)
            goals.append((f"{where}: faster than json_repair ({ratio:.1f}x)", ratio > 1))
        if row["size"] >= 100 * KB:
            per_kb.setdefault(row["shape"], []).append(ours / (row["bytes"] / KB))
    for size, ratios in sorted(small_ratios.items()):
        median = statistics.median(ratios)
        goals.append((f"{format_size(size)}: median shape {median:.1f}x json_repair >= 3", median >= 3))
    for shape, values in per_kb.items():
        if len(values) >= 2:
            spread = max(values) / min(values)
            goals.append((f"{shape} from 100 KB: time per KB max/min {spread:.2f} <= 1.5 (linear)", spread <= 1.5))
    return goals


def _error(message: str) -> int:
    """Print a usage error (one message, wrapped to 80 columns) and return its exit code, 2."""
    print("\n".join(_fit(f"resilient-parse speed: error: {message}", "  ")), file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    """`resilient-parse speed`: quick by default, `--full` for every size and longer rounds."""
    full = bool(getattr(args, "full", False))
    budget = args.budget if getattr(args, "budget", None) is not None else (FULL_BUDGET if full else QUICK_BUDGET)
    try:
        sizes = tuple(parse_size(s) for s in args.sizes.split(",")) if args.sizes else None
    except ValueError as exc:
        return _error(f"bad --sizes: {exc}")
    if budget <= 0:
        return _error("--budget must be positive")
    if args.profile:
        print(profile_broken(max(sizes or (FULL_SIZES if full else QUICK_SIZES))))
        return 0
    progress = sys.stderr.isatty()
    started = time.perf_counter()
    if args.only == "wrapped":
        print(format_wrapped(wrapped := run_wrapped(min(budget, 1.0), progress=progress)))
        if getattr(args, "goals", False):
            print()
            print(format_goals(wrapped_goals(wrapped)))
        print(f"\n({time.perf_counter() - started:.0f} s; medians of interleaved rounds, same process)")
        return 0
    result = run(sizes or (FULL_SIZES if full else QUICK_SIZES), budget, progress=progress)
    analysis = analyse(result)
    print(format_report(result, analysis))
    shape_sizes = sizes or (FULL_SHAPE_SIZES if full else QUICK_SHAPE_SIZES)
    shapes = run_shapes(shape_sizes, min(budget, 0.5), progress=progress)
    print()
    print(format_shapes(shapes))
    result["shapes"] = shapes
    wrapped = run_wrapped(min(budget, 1.0), progress=progress)
    print()
    print(format_wrapped(wrapped))
    result["wrapped"] = wrapped
    goals = [*report_goals(analysis), *shape_goals(shapes), *wrapped_goals(wrapped)]
    if getattr(args, "goals", False):
        print()
        print(format_goals(goals))
    seconds = time.perf_counter() - started
    print()
    print(f"({seconds:.0f} s; medians of interleaved rounds, same process, same machine)")
    if not full:
        print("quick run: `resilient-parse speed --full` goes up to 4 MB with longer rounds")
    if args.json:
        payload = {
            **result,
            "analysis": analysis,
            "goals": [{"goal": label, "met": ok} for label, ok in goals],
            "full": full,
            "seconds": round(seconds, 1),
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print("\n".join(_fit(f"wrote {args.json}")))
    return 0
