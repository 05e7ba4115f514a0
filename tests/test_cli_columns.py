"""What the `resilient-parse` commands print fits 80 columns, and `bench` writes files only where it is told.

Every command runs as a real subprocess (`python -m resilient_parse`, this checkout), with COLUMNS=200 so that
argparse's help would grow past 80 columns if it followed the terminal. Each test takes a few seconds at most.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

WIDTH = 80

MODELS = """
from pydantic import BaseModel

class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}
"""

CASES = [
    {"id": "valid", "category": "valid", "target": "ToolCall", "input": '{"action": "a"}', "expected": {"action": "a"}},
    {"id": "fence", "category": "fences", "target": "ToolCall", "input": '```json\n{"action": "a",}\n```',
     "expected": {"action": "a"}},
    {"id": "refusal", "category": "rejects", "target": "ToolCall", "input": "I can't help.", "expected": None},
]  # fmt: skip


def run(*args: str, cwd: Path, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    command = [sys.executable, "-m", "resilient_parse", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def assert_fits(done: subprocess.CompletedProcess[str]) -> None:
    """Every line of stdout and stderr is at most 80 characters, and none names an internal issue number."""
    for stream in (done.stdout, done.stderr):
        for line in stream.splitlines():
            assert len(line) <= WIDTH, f"{len(line)} columns: {line!r}"
            assert "issue " not in line.lower(), line


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "models_cols.py").write_text(MODELS, encoding="utf-8")
    (tmp_path / "mine.jsonl").write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    return tmp_path


def files_under(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("command", [(), ("parse",), ("batch",), ("bench",), ("speed",)])
def test_help_fits_80_columns_on_a_wide_terminal(command: tuple[str, ...], tmp_path: Path) -> None:
    done = run(*command, "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout
    assert_fits(done)


@pytest.mark.parametrize(
    "args",
    [
        ("parse",),  # --target missing
        ("batch",),  # input and --output missing
        ("bench", "--no-such-option"),
        ("speed", "--sizes", "lots"),
        ("speed", "--budget", "0"),
        ("bench", "--systems", "jsonn"),  # the message lists every known system
        ("parse", "--target", "a_module_name_long_enough_to_need_wrapping_somewhere:Model"),
    ],
)
def test_usage_errors_are_one_message_within_80_columns(args: tuple[str, ...], tmp_path: Path) -> None:
    done = run(*args, cwd=tmp_path, stdin="{}")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0].startswith("resilient-parse") and "error:" in lines[0], done.stderr
    assert all(line.startswith("  ") for line in lines[1:]), done.stderr  # continuation lines are indented
    assert "Traceback" not in done.stderr
    assert_fits(done)


def test_parse_report_lines_fit_80_columns(workdir: Path) -> None:
    long_value = "a search query long enough to push its repair line past 80"  # its JSON line still fits
    reply = f"Sure!\n```json\n{{'action': 'search', 'arguments': {{'q': '{long_value}'}},}}\n```"
    done = run("parse", "--target", "models_cols:ToolCall", "--report", cwd=workdir, stdin=reply)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"action": "search", "arguments": {"q": long_value}}
    assert "single_quotes" in done.stderr
    assert any(line.startswith("      ") for line in done.stderr.splitlines())  # a repair line went on
    assert_fits(done)


def test_parse_failure_report_fits_80_columns(workdir: Path) -> None:
    reply = '```json\n{"action": 3, "arguments": {"why": "a number where the model wanted a string"}}\n```'
    done = run("parse", "--target", "models_cols:ToolCall", "--report", "--mode", "strict", cwd=workdir, stdin=reply)
    assert done.returncode == 1
    assert any(line.startswith("attempt:") for line in done.stderr.splitlines())
    for line in done.stderr.splitlines():  # stdout is JSON data: a long message string stays on its line
        assert len(line) <= WIDTH, line


def test_batch_summary_fits_80_columns(workdir: Path) -> None:
    records = [{"id": i, "text": '{"action": "a", "arguments": {"n": ' + str(i) + ",}}"} for i in range(20)]
    records.append({"id": 20, "text": "I'm sorry, I can't help with that."})
    (workdir / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    done = run(
        "batch", "in.jsonl", "-o", "out.jsonl", "-t", "models_cols:ToolCall", "-w", "0", "--no-progress", cwd=workdir
    )
    assert done.returncode == 0, done.stderr
    assert "21 records" in done.stdout
    assert_fits(done)


def test_bench_list_systems_fits_80_columns(tmp_path: Path) -> None:
    done = run("bench", "--list-systems", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "resilient_parse:lenient" in done.stdout
    assert_fits(done)


def test_list_systems_puts_the_whole_pip_command_on_its_own_line() -> None:
    from resilient_parse.bench.peers import SYSTEMS
    from resilient_parse.bench.tables import format_systems

    absent = [dataclasses.replace(s, requires="no_such_module_for_the_listing") for s in SYSTEMS[3:5]]
    lines = format_systems(absent).splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    assert lines[0].split() == ["json_repair", "no_such_module_for_the_listing", "is", "not", "installed"]
    assert lines[1] == "    to install: pip install 'resilient-parse[bench]'"
    assert sum("pip install" in line for line in lines) == 2  # one whole command per absent system


def test_bench_without_out_prints_only_and_writes_nothing(workdir: Path) -> None:
    before = files_under(workdir)
    done = run("bench", "mine.jsonl", "--systems", "resilient_parse,json", "--no-progress", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "resilient_parse:lenient" in done.stdout and "wrote" not in done.stdout
    assert files_under(workdir) == before  # no reports/ folder, no file at all
    assert_fits(done)


def test_bench_out_writes_html_and_json_into_the_folder(workdir: Path) -> None:
    done = run("bench", "mine.jsonl", "--systems", "json", "--out", "results/run1", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert files_under(workdir / "results") == {Path("run1"), Path("run1/bench.html"), Path("run1/bench.json")}
    assert (workdir / "results/run1/bench.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert json.loads((workdir / "results/run1/bench.json").read_text(encoding="utf-8"))["cases"] == 3
    assert "results/run1/bench.html" in done.stdout
    assert_fits(done)


def test_bench_html_and_json_write_exactly_the_files_named(workdir: Path) -> None:
    before = files_under(workdir)
    done = run("bench", "mine.jsonl", "--systems", "json", "--html", "a/x.html", "--json", "b/y.json", cwd=workdir)
    assert done.returncode == 0, done.stderr
    added = files_under(workdir) - before
    assert added == {Path("a"), Path("a/x.html"), Path("b"), Path("b/y.json")}
    assert json.loads((workdir / "b/y.json").read_text(encoding="utf-8"))["summary"]["json"]["cases"] == 3


def test_speed_quick_on_a_tiny_setting_fits_80_columns(tmp_path: Path) -> None:
    done = run("speed", "--sizes", "300B", "--budget", "0.01", "--json", "s.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "validate_json" in done.stdout and "json_repair" in done.stdout
    assert "[met]" not in done.stdout and "[MISSED]" not in done.stdout  # the goals only with --goals
    assert "speed --full" in done.stdout
    assert_fits(done)
    figures = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert figures["full"] is False and figures["rows"][0]["size"] == 300
    assert figures["rows"][0]["valid:ours"]["runs"] >= 3  # medians of interleaved rounds
    assert figures["goals"] and all({"goal", "met"} == set(g) for g in figures["goals"])


def test_speed_goals_fit_80_columns_and_name_no_issue(tmp_path: Path) -> None:
    done = run("speed", "--only", "wrapped", "--budget", "0.01", "--goals", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "speed goals" in done.stdout and ("[met]" in done.stdout or "[MISSED]" in done.stdout)
    assert_fits(done)
