"""Fault injection into one `resilient-parse batch` run (a real subprocess, two workers, JSONL and Parquet out):
a log holding every odd byte a log can hold — bytes that are not UTF-8 inside a line and in an id, a raw NUL and
an escaped one, lone surrogate escapes, JSON escapes, a CR inside a record, blank lines, a line of a few MB —
beside good, repairable and refused records, a record that hangs past its timeout and one that kills its worker.
Records in == records out: one output record per input line, in input order, at its line number, each with the
outcome the record earns (the hung and the killed ones `timeout` and `crashed`, not lost); the run exits 0, as
the command documents for a run whose records failed in several ways, and its summary counts what failed."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(sys.executable).with_name("resilient-parse")
SUPPORT = Path(__file__).with_name("test_batch_support.py")
TARGET = "test_batch_support:Trapped"  # hangs on {"action": "hang"}, kills its process on {"action": "die"}
HUGE_CHARS = 3_000_000
ESCAPED = 'q"uote \\ slash / nl\n tab\t é \u2028 😀 \x7f'


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / SUPPORT.name).write_text(SUPPORT.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def line(record_id: Any, text: str) -> bytes:
    return json.dumps({"id": record_id, "text": text}).encode()


def call(action: str, n: int = 0) -> str:
    return json.dumps({"action": action, "n": n})


# (input line, expected outcome, expected id, the expected value or the error's type or kind); an id None: the
# output record has none (a line that is not JSON or blank has no id to read). A lone surrogate, escaped or raw in
# the text, is input no one can take: an InvalidInputError.
CASES: list[tuple[bytes, str, Any, Any]] = [
    (line("good", call("a", 1)), "recovered", "good", {"action": "a", "n": 1}),
    (line("fenced", "Sure!\n```json\n{'action': 'b', 'n': 2,}\n```"), "repaired", "fenced", {"action": "b", "n": 2}),
    (line("recased", '{"Action": "c"}'), "repaired", "recased", {"action": "c", "n": 0}),
    (line("sorry", "I'm sorry, but I cannot help with that request."), "refused", "sorry", "RefusalError"),
    (line("mismatch", '{"action": "d", "n": "many"}'), "refused", "mismatch", "SchemaMismatchError"),
    (line("prose", "no json here at all"), "refused", "prose", "NoCandidateError"),
    (b'{"id": "latin1", "text": "{\\"action\\": \\"caf\xe9\\"}"}', "invalid", "latin1", "not_utf8"),
    (b'{"id": "rawnul", "text": "{\\"action\\": \\"a\x00b\\"}"}', "invalid", None, "not_json"),
    (line("nul-in-text", '{"action": "a\x00b"}'), "repaired", "nul-in-text", {"action": "a\x00b", "n": 0}),
    (line("nul-escaped", '{"action": "a\\u0000b"}'), "recovered", "nul-escaped", {"action": "a\x00b", "n": 0}),
    (line("sur-escaped", '{"action": "x\\ud800y"}'), "refused", "sur-escaped", "InvalidInputError"),
    (line("sur-in-text", '{"action": "x\ud800y"}'), "refused", "sur-in-text", "InvalidInputError"),
    (b'{"id": "\xfe", "text": "{\\"action\\": \\"x\\"}"}', "invalid", "\\udcfe", "not_utf8"),
    (b'{"id": "r\\udc00", "text": "{\\"action\\": \\"y\\"}"}', "recovered", "r\\udc00", {"action": "y", "n": 0}),
    (line("escapes", json.dumps({"action": ESCAPED, "n": 3})), "recovered", "escapes", {"action": ESCAPED, "n": 3}),
    (b'{"id": "cr",\r"text": "{\\"action\\":\\r\\"cr\\"}"}', "recovered", "cr", {"action": "cr", "n": 0}),
    (line("crlf", call("crlf")) + b"\r", "recovered", "crlf", {"action": "crlf", "n": 0}),
    (b"", "invalid", None, "blank_line"),
    (line("huge", call("h" * HUGE_CHARS, 4)), "recovered", "huge", {"action": "h" * HUGE_CHARS, "n": 4}),
    (b" \t\r", "invalid", None, "blank_line"),
    (line("hang", call("hang")), "timeout", "hang", "timeout"),
    *[(line(f"ok{i}", call(f"o{i}", i)), "recovered", f"ok{i}", {"action": f"o{i}", "n": i}) for i in range(5)],
    (line("die", call("die")), "crashed", "die", "crashed"),  # line 26: mid-chunk (24-27) with --chunksize 4
    *[
        (line(f"ok{i}", f"```\n{{'action': 'p{i}'}}\n```"), "repaired", f"ok{i}", {"action": f"p{i}", "n": 0})
        for i in range(5, 12)
    ],
    (line("after-die", '{"action": "a", "n": "many"}'), "refused", "after-die", "SchemaMismatchError"),
    (line("last", call("z", 9)), "recovered", "last", {"action": "z", "n": 9}),
]


def read_output(path: Path) -> list[dict[str, Any]]:
    """The output records as JSONL holds them: Parquet's `id` and `value` JSON text read back; every line of a
    JSONL output is strict UTF-8, split on `\\n` alone."""
    if path.suffix == ".parquet":
        pq = importlib.import_module("pyarrow.parquet")  # installed with the dev extra
        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
        for row in rows:
            row["id"] = None if row["id"] is None else json.loads(row["id"])
            row["value"] = None if row["value"] is None else json.loads(row["value"])
        return rows
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    return [json.loads(text.decode("utf-8")) for text in raw[:-1].split(b"\n")]  # U+2028 is no line end


@pytest.mark.parametrize("output", ["out.jsonl", "out.parquet"])
def test_every_input_line_comes_out_once_in_order_whatever_it_holds_or_does_to_its_worker(
    workdir: Path, output: str
) -> None:
    data = b"\n".join(case[0] for case in CASES) + b"\n"
    (workdir / "in.jsonl").write_bytes(data)
    assert data.count(b"\n") == len(CASES)  # the CRs are no line ends
    command = [str(SCRIPT), "batch", "in.jsonl", "-o", output, "-t", TARGET, "--text-field", "text"]
    command += ["--workers", "2", "--chunksize", "4", "--timeout", "3", "--no-progress"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=workdir, timeout=180, stdin=subprocess.DEVNULL)

    assert done.returncode == 0, done.stderr  # several kinds of failure, none of most records: exit 0
    assert done.stderr == ""  # no traceback, no hint: no way of failing is most of the records
    out = read_output(workdir / output)
    assert len(out) == len(CASES)
    assert [r["index"] for r in out] == list(range(len(CASES)))
    assert [r.get("id") for r in out] == [case[2] for case in CASES]
    assert [r["outcome"] for r in out] == [case[1] for case in CASES]
    for record, (_, outcome, _, expected) in zip(out, CASES):
        if outcome in ("recovered", "repaired"):
            assert record["value"] == expected and record["error"] is None, record["index"]
            assert bool(record["repairs"]) == (outcome == "repaired"), record
        else:
            error = record["error"]
            assert record["value"] is None and error is not None, record
            assert expected is None or expected in (error["type"], error["kind"]), record
    assert {r["kind"] for r in out[2]["repairs"]} == {"key_case"}
    assert [e["path"] for e in out[4]["error"]["errors"]] == ["/n"]
    crashed = out[[case[2] for case in CASES].index("die")]["error"]["message"]
    assert "died on this record" in crashed and "exit code 3" in crashed
    hung = out[[case[2] for case in CASES].index("hang")]["error"]["message"]
    assert "no result within 3 s" in hung and "killed" in hung

    summary = done.stdout.splitlines()
    assert summary[0].startswith(f"{len(CASES)} records") and "2 workers" in summary[0]
    counts: dict[str, int] = {}
    for case in CASES:
        counts[case[1]] = counts.get(case[1], 0) + 1
    for outcome, n in counts.items():
        assert any(row.split()[:2] == [outcome, str(n)] for row in summary), (outcome, done.stdout)
    for kind in ("RefusalError", "SchemaMismatchError", "NoCandidateError", "InvalidInputError"):
        n = sum(1 for r in out if r["outcome"] == "refused" and r["error"]["type"] == kind)
        assert any(row.split()[:2] == [kind, str(n)] for row in summary), (kind, done.stdout)
    assert all(len(row) <= 80 for row in summary)
