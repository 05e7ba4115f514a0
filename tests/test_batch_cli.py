"""`resilient-parse batch`, run as a real subprocess: every input record comes out once, in order, with its
outcome — also the one that hangs past its timeout and the one that kills its worker — and `--resume` after a
killed run finishes the output without a duplicate."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_batch_support import EXPECTED_CYCLE, mixed_texts

SCRIPT = Path(sys.executable).with_name("resilient-parse")
SUPPORT = Path(__file__).with_name("test_batch_support.py")
TARGET = "test_batch_support:Trapped"


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / SUPPORT.name).write_text(SUPPORT.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def batch(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "batch", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def write_jsonl(path: Path, texts: list[str]) -> None:
    path.write_text(
        "".join(json.dumps({"id": f"r{i}", "text": t}) + "\n" for i, t in enumerate(texts)), encoding="utf-8"
    )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_ten_thousand_mixed_records_come_out_in_order_with_their_outcomes(workdir: Path) -> None:
    texts = mixed_texts(10_000)
    texts[4_321] = '{"action": "hang"}'
    texts[7_777] = '{"action": "die"}'
    write_jsonl(workdir / "in.jsonl", texts)
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "--workers", "2", "--timeout", "2", cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = read_jsonl(workdir / "out.jsonl")
    assert [r["index"] for r in out] == list(range(10_000))
    assert [r["id"] for r in out] == [f"r{i}" for i in range(10_000)]
    expected = [EXPECTED_CYCLE[i % 6] for i in range(10_000)]
    expected[4_321], expected[7_777] = "timeout", "crashed"
    assert [r["outcome"] for r in out] == expected
    assert out[0]["value"] == {"action": "a0", "n": 0} and out[0]["repairs"] == [] and out[0]["error"] is None
    assert {r["kind"] for r in out[2]["repairs"]} == {"key_case"}
    assert out[3]["error"]["type"] == "RefusalError" and out[3]["value"] is None
    assert [e["path"] for e in out[4]["error"]["errors"]] == ["/n"]
    assert "killed" in out[4_321]["error"]["message"] and "exit code 3" in out[7_777]["error"]["message"]
    summary = done.stdout
    assert "10,000 records" in summary and all(len(line) <= 80 for line in summary.splitlines())
    assert any(line.split()[:2] == ["timeout", "1"] for line in summary.splitlines())
    assert any(line.split()[:2] == ["crashed", "1"] for line in summary.splitlines())


def test_resume_after_a_killed_run_writes_every_record_once(workdir: Path) -> None:
    texts = ['{"action": "slow"}' if i % 2 else t for i, t in enumerate(mixed_texts(1_200))]
    write_jsonl(workdir / "in.jsonl", texts)
    out_path = workdir / "out.jsonl"
    command = [str(SCRIPT), "batch", "in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "2", "--chunksize", "8"]
    running = subprocess.Popen(command, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out_path.exists() or out_path.stat().st_size < 20_000):
        time.sleep(0.02)
    os.kill(running.pid, signal.SIGKILL)  # no chance to tidy up: the last line may be torn
    running.wait()
    before = out_path.read_bytes().count(b"\n")
    assert 0 < before < 1_200, "the run was not interrupted mid-way"
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "2", "--resume", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert f"resumed: {before:,} records" in done.stdout
    assert f"1,200 records, {1_200 - before:,} parsed now in" in done.stdout
    resumed = read_jsonl(out_path)
    done = batch("in.jsonl", "-o", "whole.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert resumed == read_jsonl(workdir / "whole.jsonl")  # same records, each once, in order


def test_ctrl_c_keeps_what_was_written_and_says_how_to_finish(workdir: Path) -> None:
    write_jsonl(workdir / "in.jsonl", ['{"action": "slow"}'] * 1_000)
    out_path = workdir / "out.jsonl"
    command = [str(SCRIPT), "batch", "in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "2", "--chunksize", "8"]
    running = subprocess.Popen(command, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out_path.exists() or out_path.stat().st_size < 5_000):
        time.sleep(0.02)
    running.send_signal(signal.SIGINT)
    _, stderr = running.communicate(timeout=60)
    assert running.returncode == 130 and "--resume" in stderr
    kept = read_jsonl(out_path)  # closed cleanly: no torn line
    assert 0 < len(kept) < 1_000 and [r["index"] for r in kept] == list(range(len(kept)))


def test_records_may_name_their_own_target_mode_and_aliases(workdir: Path) -> None:
    records = [
        {"text": '{"Action": "x"}'},  # lenient by default: key_case
        {"text": '{"Action": "x"}', "mode": "strict"},  # strict never renames
        {"text": '{"tool": "x"}', "aliases": {"tool": "action"}},
        {"text": '{"title": "t", "rating": 3}', "target": "test_batch_support:Review"},
        {"text": "{}", "target": "no_such_module:Model"},
        {"no_text": 1},
        "not an object",
    ]
    (workdir / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records) + "{broken\n", encoding="utf-8")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = read_jsonl(workdir / "out.jsonl")
    assert [r["outcome"] for r in out] == ["repaired", "refused", "repaired", "recovered"] + ["invalid"] * 4
    assert out[2]["repairs"][0]["kind"] == "key_alias" and out[3]["value"] == {"title": "t", "rating": 3}
    assert "no_such_module" in out[4]["error"]["message"] and "'text'" in out[5]["error"]["message"]


def test_parquet_in_and_out(workdir: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")

    texts = mixed_texts(50)
    pq.write_table(pa.table({"id": list(range(50)), "text": texts}), workdir / "in.parquet")
    done = batch("in.parquet", "-o", "out.parquet", "-t", TARGET, "-w", "2", cwd=workdir)
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(workdir / "out.parquet").to_pylist()
    assert [r["index"] for r in rows] == list(range(50)) and [r["id"] for r in rows] == [str(i) for i in range(50)]
    assert [r["outcome"] for r in rows] == [EXPECTED_CYCLE[i % 6] for i in range(50)]
    assert json.loads(rows[0]["value"]) == {"action": "a0", "n": 0} and rows[3]["value"] is None
    assert rows[3]["error"]["type"] == "RefusalError" and rows[2]["repairs"][0]["kind"] == "key_case"
    done = batch("in.parquet", "-o", "out.parquet", "-t", TARGET, "--resume", cwd=workdir)
    assert done.returncode == 2 and "JSONL" in done.stderr


def test_bad_usage_exits_2_with_one_line(workdir: Path) -> None:
    write_jsonl(workdir / "in.jsonl", ["{}"])
    for args in (
        ("in.jsonl", "-o", "out.jsonl", "-t", "no_such_module:Model"),
        ("missing.jsonl", "-o", "out.jsonl", "-t", TARGET),
        ("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "--timeout", "0"),
    ):
        done = batch(*args, cwd=workdir)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        lines = done.stderr.splitlines()  # one message, wrapped to 80 columns, continuation lines indented
        assert lines[0].startswith("resilient-parse batch: error:"), done.stderr
        assert all(line.startswith("  ") for line in lines[1:]) and max(map(len, lines)) <= 80, done.stderr
