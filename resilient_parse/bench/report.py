"""The benchmark's HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched).

`render(figures)` takes the dict `runner.figures` builds (the same one `--json` writes) and returns the page: whose
corpus it is, the headline (syntax/extraction vs schema-repair cases, every system against the same `expected`,
the strict policy's own-key score labelled beside it), outcomes per system as stacked bars, correct % by category
x system as a heat map (alias-table categories marked), latency (median and p99, log scale) per system, the cases
our parser did not get right, and, with `--peer-suites`, the peers' own suites as a separate section.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from resilient_parse.bench.peer_suites import NOTE
from resilient_parse.bench.peers import short_name

COLOURS = {
    "correct": "#2e7d32",
    "correct_reject": "#66bb6a",
    "wrong": "#ef6c00",
    "false_accept": "#c62828",
    "rejected": "#9e9e9e",
}
LABELS = {
    "correct": "correct object",
    "correct_reject": "rightly rejected",
    "wrong": "wrong object",
    "false_accept": "false accept",
    "rejected": "rejected / timeout",
}
_FONT = "font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif"


def _outcome_bars(summary: Mapping[str, Mapping[str, Any]]) -> str:
    """One stacked 100% bar per system."""
    label_w, bar_w, row_h = 170, 560, 28
    height = row_h * len(summary) + 40
    parts = [f'<svg width="{label_w + bar_w + 70}" height="{height}" role="img" aria-label="outcomes per system">']
    for i, (name, s) in enumerate(summary.items()):
        y = 10 + i * row_h
        parts.append(
            f'<text x="{label_w - 8}" y="{y + 17}" text-anchor="end" class="lbl">{escape(short_name(name))}</text>'
        )
        x = float(label_w)
        n = max(1, s["cases"])
        for outcome, colour in COLOURS.items():
            w = bar_w * s[outcome] / n
            if w <= 0:
                continue
            title = f"{LABELS[outcome]}: {s[outcome]} of {s['cases']} ({100 * s[outcome] / n:.1f}%)"
            parts.append(
                f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row_h - 8}" fill="{colour}">'
                f"<title>{escape(title)}</title></rect>"
            )
            if w > 34:
                parts.append(
                    f'<text x="{x + w / 2:.1f}" y="{y + 15}" text-anchor="middle" class="in">'
                    f"{100 * s[outcome] / n:.0f}%</text>"
                )
            x += w
        parts.append(f'<text x="{label_w + bar_w + 6}" y="{y + 15}" class="lbl">{s["correct_pct"]:.1f}%</text>')
    legend_y = height - 12
    x = float(label_w)
    for outcome, colour in COLOURS.items():
        parts.append(f'<rect x="{x:.0f}" y="{legend_y - 10}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{x + 16:.0f}" y="{legend_y}" class="small">{escape(LABELS[outcome])}</text>')
        x += 16 + 7.2 * len(LABELS[outcome]) + 14
    parts.append("</svg>")
    return "".join(parts)


def _heat_colour(pct: float) -> str:
    """Red (0%) through amber to green (100%)."""
    hue = 120.0 * max(0.0, min(100.0, pct)) / 100.0
    return f"hsl({hue:.0f},65%,{78 - 0.18 * pct:.0f}%)"


def _category_heatmap(
    categories: Mapping[str, Mapping[str, Any]], systems: Sequence[str], marked: frozenset[str] = frozenset()
) -> str:
    """Correct % per category (rows) and system (columns); `marked` categories get a †."""
    label_w, cell_w, cell_h, head_h = 190, 84, 24, 30
    width = label_w + cell_w * len(systems) + 50
    height = head_h + cell_h * len(categories) + 8
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="correct percent by category">']
    for j, name in enumerate(systems):
        cx = label_w + j * cell_w + cell_w / 2
        parts.append(f'<text x="{cx:.0f}" y="20" text-anchor="middle" class="lbl">{escape(short_name(name))}</text>')
    parts.append(f'<text x="{label_w + cell_w * len(systems) + 8}" y="20" class="small">n</text>')
    for i, (category, row) in enumerate(categories.items()):
        y = head_h + i * cell_h
        label = category + ("†" if category in marked else "")
        parts.append(f'<text x="{label_w - 8}" y="{y + 16}" text-anchor="end" class="lbl">{escape(label)}</text>')
        for j, name in enumerate(systems):
            x = label_w + j * cell_w
            cell = row.get(name)
            if cell is None:
                parts.append(f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="#f2f2f2"/>')
                continue
            pct = cell["correct_pct"]
            tip = f"{category} / {name}: {cell['correct']} of {cell['cases']} correct"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="{_heat_colour(pct)}">'
                f"<title>{escape(tip)}</title></rect>"
                f'<text x="{x + cell_w / 2 - 1:.0f}" y="{y + 16}" text-anchor="middle" class="cell">{pct:.0f}</text>'
            )
        n = max(c["cases"] for c in row.values())
        parts.append(f'<text x="{label_w + cell_w * len(systems) + 8}" y="{y + 16}" class="small">{n}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _latency_chart(summary: Mapping[str, Mapping[str, Any]]) -> str:
    """Median and p99 latency per system on a log scale (0.001 ms .. max)."""
    label_w, bar_w, row_h = 170, 520, 34
    values = [v for s in summary.values() for v in (s["latency_ms"]["median"], s["latency_ms"]["p99"]) if v > 0]
    lo = 10 ** math.floor(math.log10(min(values))) if values else 0.001
    hi = 10 ** math.ceil(math.log10(max(values))) if values else 1.0
    hi = max(hi, lo * 10)
    span = math.log10(hi) - math.log10(lo)

    def x_of(ms: float) -> float:
        return label_w + bar_w * (math.log10(max(ms, lo)) - math.log10(lo)) / span

    height = row_h * len(summary) + 50
    parts = [f'<svg width="{label_w + bar_w + 260}" height="{height}" role="img" aria-label="latency per system">']
    decade = lo
    while decade <= hi * 1.0001:
        x = x_of(decade)
        parts.append(f'<line x1="{x:.1f}" y1="6" x2="{x:.1f}" y2="{height - 34}" stroke="#ddd"/>')
        parts.append(f'<text x="{x:.1f}" y="{height - 20}" text-anchor="middle" class="small">{decade:g} ms</text>')
        decade *= 10
    for i, (name, s) in enumerate(summary.items()):
        y = 8 + i * row_h
        med, p99 = s["latency_ms"]["median"], s["latency_ms"]["p99"]
        parts.append(
            f'<text x="{label_w - 8}" y="{y + 17}" text-anchor="end" class="lbl">{escape(short_name(name))}</text>'
        )
        parts.append(
            f'<rect x="{label_w}" y="{y + 2}" width="{max(1.0, x_of(p99) - label_w):.1f}" height="20" fill="#90caf9">'
            f"<title>p99 {p99:.3f} ms</title></rect>"
            f'<rect x="{label_w}" y="{y + 6}" width="{max(1.0, x_of(med) - label_w):.1f}" height="12" fill="#1565c0">'
            f"<title>median {med:.3f} ms</title></rect>"
            f'<text x="{max(x_of(p99), x_of(med)) + 6:.1f}" y="{y + 17}" class="small">'
            f"median {med:.3f} ms · p99 {p99:.2f} ms</text>"
        )
    legend_y = height - 4
    parts.append(f'<rect x="{label_w}" y="{legend_y - 10}" width="12" height="12" fill="#1565c0"/>')
    parts.append(f'<text x="{label_w + 16}" y="{legend_y}" class="small">median</text>')
    parts.append(f'<rect x="{label_w + 80}" y="{legend_y - 10}" width="12" height="12" fill="#90caf9"/>')
    parts.append(f'<text x="{label_w + 96}" y="{legend_y}" class="small">p99</text>')
    parts.append("</svg>")
    return "".join(parts)


def _summary_table(fig: Mapping[str, Any]) -> str:
    versions = {s["name"]: s["version"] for s in fig["systems"]}
    descriptions = {s["name"]: s["description"] for s in fig["systems"]}
    rows = []
    for name, s in fig["summary"].items():
        lat = s["latency_ms"]
        rows.append(
            f"<tr><th title='{escape(descriptions.get(name, ''))}'>{escape(name)}</th>"
            f"<td>{escape(versions.get(name, ''))}</td><td>{s['cases']}</td>"
            f"<td class='good'>{s['correct_pct']:.1f}%</td><td>{s['wrong_pct']:.1f}%</td>"
            f"<td class='{'bad' if s['false_accept'] else ''}'>{s['false_accept_pct']:.1f}%</td>"
            f"<td>{s['rejected_pct']:.1f}%</td><td>{s['recovered_pct']:.1f}%</td>"
            f"<td>{lat['median']:.3f}</td><td>{lat['p99']:.2f}</td></tr>"
        )
    return (
        "<table><thead><tr><th>system</th><th>version</th><th>cases</th><th>correct</th><th>wrong</th>"
        "<th>false accept</th><th>rejected</th><th>recovered</th><th>median ms</th><th>p99 ms</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _pct_cell(pct: float | None) -> str:
    return "<td>-</td>" if pct is None else f"<td>{pct:.1f}%</td>"


def _headline(fig: Mapping[str, Any]) -> str:
    """Correct % over syntax/extraction and schema-repair cases, all cases, and all without the alias cases; the
    strict policy's own-key score, labelled, in its own column."""
    head = fig["headline"]
    groups = head["groups"]
    aliased = bool(head["aliased_cases"])
    keyed = bool(head["policy_keyed_cases"])
    titles = "".join(f"<th>{escape(g)}</th>" for g in groups) + "<th>all cases</th>"
    titles += "<th>without alias cases†</th>" if aliased else ""
    titles += "<th>strict policy's own key‡</th>" if keyed else ""
    rows = []
    for name, entry in head["systems"].items():
        cells = "".join(_pct_cell(entry[g]["correct_pct"]) for g in groups) + _pct_cell(entry["all"])
        cells += _pct_cell(entry["all_without_aliases"]) if aliased else ""
        if keyed:
            cells += _pct_cell(entry["strict_policy_pct"]) if "strict_policy_pct" in entry else "<td></td>"
        rows.append(f"<tr><th>{escape(name)}</th>{cells}</tr>")
    mapping = "; ".join(f"<b>{escape(g)}</b>: {escape(', '.join(c))}" for g, c in head["mapping"].items())
    notes = [f"Correct % against each case's <code>expected</code>, the same for every system. Categories: {mapping}."]
    if aliased:
        notes.append(
            f"† {head['aliased_cases']} case(s) pass our parser an alias table (the <code>aliases</code> field) "
            "that no peer gets; this column leaves them out. Their categories are marked † in the heat map."
        )
    if keyed:
        notes.append(
            f"‡ Our strict mode graded by the strict policy's own answer key (<code>expected_strict</code>, on "
            f"{head['policy_keyed_cases']} case(s)): what strict is designed to return, not comparable with the "
            "other columns."
        )
    return f"<table><thead><tr><th>system</th>{titles}</tr></thead><tbody>{''.join(rows)}</tbody></table>" + "".join(
        f"<p class='meta'>{n}</p>" for n in notes
    )


def _peer_suites(section: Mapping[str, Any]) -> str:
    """The second, independent section: each peer's own test suite, scored against its own expectations."""
    parts = [
        "<h2>The peers' own test suites (a second, independent section)</h2>",
        f"<p class='meta'>Read at run time from {escape(section['root'])}: the cases and expectations are the "
        f"peers' authors'. {escape(NOTE)}</p>",
    ]
    for suite, info in section["suites"].items():
        left_out = f"; {info['left_out_null']} expecting null left out" if info["left_out_null"] else ""
        rows = "".join(
            f"<tr><th>{escape(name)}</th><td>{s['cases']}</td><td class='good'>{s['correct_pct']:.1f}%</td>"
            f"<td>{s['wrong_pct']:.1f}%</td><td>{s['false_accept_pct']:.1f}%</td><td>{s['rejected_pct']:.1f}%</td>"
            "</tr>"
            for name, s in section["summary"][suite].items()
        )
        parts.append(
            f"<h3>{escape(suite)}: {info['cases']} cases{escape(left_out)}</h3><table><thead><tr><th>system</th>"
            "<th>cases</th><th>correct</th><th>wrong</th><th>false accept</th><th>rejected</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )
    return "".join(parts)


def _failures(fig: Mapping[str, Any]) -> str:
    ours = [s["name"] for s in fig["systems"] if s.get("mode")]
    rows = []
    for r in fig["results"]:
        if r["system"] in ours and r["outcome"] not in ("correct", "correct_reject"):
            detail = r.get("error") or "got " + json.dumps(r.get("got"), ensure_ascii=False)
            rows.append(
                f"<tr><td>{escape(short_name(r['system']))}</td><td>{escape(r['outcome'])}</td>"
                f"<td>{escape(r['case_id'])}</td><td>{escape(r['category'])}</td>"
                f"<td class='detail'>{escape(detail[:400])}</td></tr>"
            )
    if not rows:
        return "<p>None: our parser got every case right.</p>"
    return (
        f"<details><summary>{len(rows)} case(s)</summary><table><thead><tr><th>system</th><th>outcome</th>"
        "<th>case</th><th>category</th><th>detail</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></details>"
    )


def render(fig: Mapping[str, Any]) -> str:
    """The whole page as a string."""
    systems = list(fig["summary"])
    env = fig.get("environment", {})
    corpus = ", ".join(escape(str(p)) for p in fig.get("corpus", []))
    skipped = "".join(f"<li>{escape(s['system'])}: {escape(s['reason'])}</li>" for s in fig.get("skipped", []))
    aliased = set(fig.get("aliased_cases", []))
    marked = frozenset(r["category"] for r in fig["results"] if r["case_id"] in aliased)
    own = (
        "<p class='meta'><b>The bundled corpus is our own</b>: written by the resilient_parse authors, not by a "
        "peer or a third party. Bring your own corpus from your logs for an independent figure.</p>"
        if fig.get("bundled")
        else ""
    )
    peer_suites = fig.get("peer_suites")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>resilient_parse benchmark</title>
<style>
body {{{_FONT}; margin: 24px 32px; color: #222; max-width: 1200px}}
h1 {{font-size: 22px; margin-bottom: 4px}} h2 {{font-size: 17px; margin-top: 28px}}
.meta {{color: #666; font-size: 13px}}
table {{border-collapse: collapse; font-size: 13px; margin: 8px 0}}
th, td {{padding: 4px 10px; border-bottom: 1px solid #e5e5e5; text-align: right}}
th:first-child, td:first-child {{text-align: left}}
td.detail {{text-align: left; font-family: ui-monospace, monospace; font-size: 12px; max-width: 640px}}
td.good {{color: #2e7d32; font-weight: 600}} td.bad {{color: #c62828; font-weight: 600}}
svg text {{{_FONT}}} svg .lbl {{font-size: 12px; fill: #333}} svg .small {{font-size: 11px; fill: #555}}
svg .in {{font-size: 11px; fill: #fff}} svg .cell {{font-size: 12px; fill: #111}}
</style></head><body>
<h1>resilient_parse: recovery benchmark</h1>
<p class="meta">{fig["cases"]} cases in {fig.get("categories_count", len(fig["categories"]))} categories from
{corpus} · Python {escape(str(env.get("python", "?")))} · {escape(str(env.get("date", "")))}</p>
<p class="meta">correct = the expected object, or a rightly rejected input · wrong = a different object ·
false accept = an object where the right answer is an error (the worst outcome) · rejected = an error, timeout or
crash where an object was expected · recovered = the expected object, among the cases that expect one.</p>
{own}
<h2>Headline: correct % by kind of case</h2>
{_headline(fig)}
<h2>Outcomes per system</h2>
{_outcome_bars(fig["summary"])}
{_summary_table(fig)}
<h2>Correct % by category</h2>
{_category_heatmap(fig["categories"], systems, marked)}
<h2>Latency per case</h2>
{_latency_chart(fig["summary"])}
<h2>Cases our parser did not get right</h2>
{_failures(fig)}
{_peer_suites(peer_suites) if peer_suites else ""}
{f"<h2>Skipped systems</h2><ul>{skipped}</ul>" if skipped else ""}
</body></html>
"""
