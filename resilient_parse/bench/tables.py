"""What `resilient-parse bench` prints: the outcome tables, the category matrix, the systems and the failures,
each within 80 columns unless `--wide` asks for one line per row."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from resilient_parse.bench.headline import OTHER, group_of
from resilient_parse.bench.peers import TOOL_TEXT, System, short_name

_LABELS = {
    "resilient_parse:strict": "rp:str",
    "resilient_parse:lenient": "rp:len",
    "json_repair": "j_rep",
    "dirtyjson": "dirty",
    "langchain": "lchain",
    "instructor": "instr",
}


def _label(name: str) -> str:
    """A column label of at most 6 characters, for the 80-column category matrix."""
    return _LABELS.get(name, name[:6])


def _cell(pct: float | None, width: int) -> str:
    return f"{'-':>{width}}" if pct is None else f"{pct:>{width - 1}.1f}%"


def format_tables(fig: Mapping[str, Any], wide: bool = False) -> str:
    """The headline, the outcome table and the per-category matrix as plain text: 80 columns, or the full tables
    (latency beside the outcomes, full system names) with `wide`."""
    lines: list[str] = []
    corpus = ", ".join(Path(p).name for p in fig["corpus"])
    lines.append(f"{fig['cases']} cases in {fig['categories_count']} categories ({corpus})")
    if fig.get("bundled"):
        lines.append("The bundled corpus is our own (written by the resilient_parse authors).")
    lines.append("Every system, ours in both modes, is graded against the same `expected`.")
    if TOOL_TEXT in fig["categories"] and any(s.get("tool_text") for s in fig["systems"]):
        note = f"On {TOOL_TEXT}, peers read the calls through the wrapper a user writes (peers.tool_calls)."
        lines += textwrap.wrap(note, 80)
    lines.append("")

    head = f"{'system':<24}{'cases':>6}{'correct':>9}{'wrong':>8}{'false-acc':>10}{'rejected':>10}{'recovered':>11}"
    if wide:
        head += f"{'median ms':>11}{'p99 ms':>9}"
    lines += [head, "-" * len(head)]
    for name, s in fig["summary"].items():
        row = f"{name:<24}{s['cases']:>6}{s['correct_pct']:>8.1f}%{s['wrong_pct']:>7.1f}%"
        row += f"{s['false_accept_pct']:>9.1f}%{s['rejected_pct']:>9.1f}%{s['recovered_pct']:>10.1f}%"
        if wide:
            row += f"{s['latency_ms']['median']:>11.3f}{s['latency_ms']['p99']:>9.2f}"
        lines.append(row)
        if s["timeouts"] or s["crashes"]:
            lines.append(f"{'':<24}({s['timeouts']} timeouts, {s['crashes']} crashes)")
    lines.append("")
    lines += textwrap.wrap(
        "correct = expected object returned, or rightly rejected; wrong = another object; false-acc = an object "
        "where the answer is an error; rejected = error/timeout where an object was expected; recovered = expected "
        "object, among the cases expecting one.",
        80,
    )
    lines += ["", *_headline_lines(fig["headline"], wide)]
    if not wide:
        lines += ["", f"{'latency per case':<24}{'median ms':>11}{'p99 ms':>9}"]
        for name, s in fig["summary"].items():
            lines.append(f"{name:<24}{s['latency_ms']['median']:>11.3f}{s['latency_ms']['p99']:>9.2f}")
    lines += _category_lines(fig, wide)
    for skip in fig["skipped"]:
        line = f"skipped {skip['system']}: {skip['reason']}"
        lines += [line] if wide else fit_lines(line)
    return "\n".join(lines)


WIDTH = 80


def fit_lines(text: str, indent: str = "  ") -> list[str]:
    """`text` wrapped to 80 columns, continuation lines indented; a word longer than a line (a path) stays whole.
    Leading spaces are kept (an indented first line)."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False) or [
        text
    ]


def usage_error(message: str) -> int:
    """Print a usage error (one message, wrapped to 80 columns) and return its exit code, 2."""
    print("\n".join(fit_lines(f"resilient-parse bench: error: {one_line(message)}")), file=sys.stderr)
    return 2


def format_systems(systems: Iterable[System], wide: bool = False) -> str:
    """`bench --list-systems`: each system's name and status (installed and its version, or not installed), the
    install command on a line of its own (whole, to copy), then its description, indented; 80 columns (one line
    a system with `wide`)."""
    lines: list[str] = []
    for s in systems:
        status = s.missing() or f"installed ({s.version()})"
        if wide:
            lines.append(f"{s.name:<24} {s.description:<58} {status}")
            continue
        status, _, command = status.partition(" (pip install ")
        lines += fit_lines(f"{s.name:<24} {status}", indent=" " * 25)
        if command:
            lines.append(f"    to install: pip install {command.removesuffix(')')}")
        lines += fit_lines(f"    {s.description}", indent="    ")
    return "\n".join(lines)


def _headline_lines(head: Mapping[str, Any], wide: bool) -> list[str]:
    groups = [g for g in head["groups"] if g != OTHER]
    rows = head["systems"]
    if not rows:
        return []
    any_system = next(iter(rows.values()))
    name_w = 24 if wide else 12
    out = ["correct % by kind of case"]
    titles = [f"{g.split(' ')[0]} ({any_system[g]['cases']})" for g in groups]
    header = f"{'system':<{name_w}}" + "".join(f"{t:>15}" for t in titles) + f"{'all':>9}"
    if head["aliased_cases"]:
        header += f"{'no-alias†':>11}"
    out += [header, "-" * len(header)]
    for name, entry in rows.items():
        row = f"{(name if wide else short_name(name)):<{name_w}}"
        row += "".join(_cell(entry[g]["correct_pct"], 15) for g in groups) + _cell(entry["all"], 9)
        if head["aliased_cases"]:
            row += _cell(entry["all_without_aliases"], 11)
        out.append(row)
    notes = [
        "syntax = syntax & extraction cases, schema = schema-repair cases, plain = plain-text answers (no JSON); "
        "by category, mapped in resilient_parse/bench/headline.py; other categories count in `all` only."
    ]
    if head["aliased_cases"]:
        notes.append(
            f"† {_count(head['aliased_cases'], 'case')} with an alias table for our parser only (the `aliases` "
            "field; no peer takes one); no-alias = all cases without them. Their categories are marked † below."
        )
    for name, entry in rows.items():
        if "strict_policy_pct" in entry and head["policy_keyed_cases"]:
            notes.append(
                f"{short_name(name)} by the strict policy's own answer key (`expected_strict`, on "
                f"{_count(head['policy_keyed_cases'], 'case')}): {entry['strict_policy_pct']:.1f}%. That is what "
                "strict is designed to return, not a score comparable with the rows above."
            )
    for note in notes:
        out += textwrap.wrap(note, 80, subsequent_indent="  ", break_on_hyphens=False)
    return out


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _category_lines(fig: Mapping[str, Any], wide: bool) -> list[str]:
    systems = list(fig["summary"])
    if not systems:
        return []
    names = {n: (short_name(n) if wide else _label(n)) for n in systems}
    width = max(7, *(len(v) + 1 for v in names.values()))
    aliased_categories = {r["category"] for r in fig["results"] if r["case_id"] in set(fig["aliased_cases"])}
    cat_width = max(12, *(len(c) + 2 for c in fig["categories"]))
    lines = ["", "correct % by category"]
    header = f"{'category':<{cat_width}}{'n':>4}" + "".join(f"{names[n]:>{width}}" for n in systems)
    lines += [header, "-" * len(header)]
    by_group: dict[str, list[str]] = {}
    for category in fig["categories"]:
        by_group.setdefault(group_of(category), []).append(category)
    for group, categories in by_group.items():
        lines.append(f"[{group}]")
        for category in categories:
            row = fig["categories"][category]
            n = max(cell["cases"] for cell in row.values())
            cells = "".join(
                f"{row[name]['correct_pct']:>{width}.0f}" if name in row else f"{'-':>{width}}" for name in systems
            )
            label = category + ("†" if category in aliased_categories else "")
            lines.append(f"{label:<{cat_width}}{n:>4}{cells}")
    if not wide:
        legend = ", ".join(f"{v} = {k}" for k, v in names.items() if v != k)
        if legend:
            lines += ["", *textwrap.wrap(f"columns: {legend}", 80)]
    return lines


def printable(text: str) -> str:
    """Text safe to print or write as UTF-8 (lone surrogates from broken escapes become \\udxxx)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def format_failures(fig: Mapping[str, Any], systems: Iterable[str], wide: bool = False) -> str:
    """Each case a system did not get right: one line each with `wide`, else the case on one line and what went
    wrong on the next, indented and cut to 80 columns."""
    wanted = set(systems)
    lines = []
    for r in fig["results"]:
        if r["system"] in wanted and r["outcome"] not in ("correct", "correct_reject"):
            detail = r["error"] if r["error"] else f"got {json.dumps(r.get('got'), ensure_ascii=False)[:160]}"
            detail = printable(" ".join(detail.split()))
            head = f"{short_name(r['system']):<12} {r['outcome']:<13} {r['case_id']:<28}"
            if wide:
                lines.append(f"{head} {detail}")
            else:
                lines += [head.rstrip(), textwrap.shorten(detail, 76, placeholder=" …", break_on_hyphens=False)]
                lines[-1] = "    " + lines[-1]
    return "\n".join(lines)


def one_line(message: str) -> str:
    return " ".join(message.split())
