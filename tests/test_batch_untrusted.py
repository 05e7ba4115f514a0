"""`resilient-parse batch` over untrusted logs, run as a real subprocess: one odd record never kills the run or
shifts another. A lone surrogate (a `\\ud800` escape the model wrote, an id byte that is not UTF-8) is written
escaped as `ParseError.to_dict` escapes it; a CR inside a record is JSON white space, not a line end; every input
line — blank, not UTF-8 — is one output record at its line number; a run whose records mostly fail the same way
says what to check; a record's own `target` imports nothing the run did not choose."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from resilient_parse.batch import RecordJob, RecordResult, Summary
from resilient_parse.batch.files import ParquetWriter, count_records, read_records
from resilient_parse.batch.job import RecordProcessor
from resilient_parse.batch.records import EncodedRecord, ErrorNote, encode, tally
from resilient_parse.errors import ErrorDetail, SchemaMismatchError

SCRIPT = Path(sys.executable).with_name("resilient-parse")
MODELS = """from pydantic import BaseModel

class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}

class Other(BaseModel):
    title: str
"""
TARGET = "rt_models:ToolCall"


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "rt_models.py").write_text(MODELS, encoding="utf-8")
    return tmp_path


def batch(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "batch", *args, "--no-progress"],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def call(i: int) -> bytes:
    return json.dumps({"id": i, "text": f'{{"action": "a{i}"}}'}).encode()


def read_out(path: Path) -> list[dict[str, Any]]:
    """The output records, each line checked to be strict UTF-8 and every string in it to encode as UTF-8."""
    raw = path.read_bytes()
    records = [json.loads(line) for line in raw.decode("utf-8").splitlines()]
    json.dumps(records, ensure_ascii=False).encode("utf-8")  # no lone surrogate anywhere in what a reader gets
    return records


def surrogate_log() -> list[bytes]:
    lines = [call(i) for i in range(12)]
    lines[3] = json.dumps({"id": 3, "text": '{"acti\\ud800on": "x"}'}).encode()  # the model wrote \ud800 in a key
    lines[5] = b'{"id": "\xfe", "text": "{\\"action\\": \\"x\\"}"}'  # a log whose id has a byte that is not UTF-8
    lines[7] = b'{"id": "r\\udc00", "text": "{\\"action\\": \\"y\\"}"}'  # an id that is a lone surrogate escape
    return lines


# -- lone surrogates (H12) ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", ["0", "2"])
def test_lone_surrogates_are_written_escaped_and_every_record_comes_out(workdir: Path, workers: str) -> None:
    lines = surrogate_log()
    (workdir / "in.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", workers, cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = read_out(workdir / "out.jsonl")
    assert [r["index"] for r in out] == list(range(12))
    assert out[5]["id"] == "\\udcfe" and out[5]["outcome"] == "invalid"  # escaped as ParseError.to_dict does
    assert out[7]["id"] == "r\\udc00" and out[7]["outcome"] == "recovered"
    error = out[3]["error"]
    paths = [r["path"] for r in out[3]["repairs"]] + [e["path"] for e in (error["errors"] if error else [])]
    assert "/acti\\ud800on" in paths  # repaired or refused, the key's path is written escaped
    assert [r["id"] for i, r in enumerate(out) if i not in (5, 7)] == [i for i in range(12) if i not in (5, 7)]


def test_lone_surrogates_in_parquet_output(workdir: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    (workdir / "in.jsonl").write_bytes(b"\n".join(surrogate_log()) + b"\n")
    done = batch("in.jsonl", "-o", "out.parquet", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(workdir / "out.parquet").to_pylist()
    assert [r["index"] for r in rows] == list(range(12))
    assert json.loads(rows[5]["id"]) == "\\udcfe" and json.loads(rows[7]["id"]) == "r\\udc00"


def test_resume_goes_past_a_record_with_a_lone_surrogate(workdir: Path) -> None:
    (workdir / "in.jsonl").write_bytes(b"\n".join(surrogate_log()) + b"\n")
    done = batch("in.jsonl", "-o", "whole.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    whole = (workdir / "whole.jsonl").read_bytes().split(b"\n")
    for kept in (3, 6):  # stopped before the surrogate key; stopped after the escaped ids were written
        (workdir / "out.jsonl").write_bytes(b"\n".join(whole[:kept]) + b"\n" + whole[kept][:9])  # a torn line
        done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", "--resume", cwd=workdir)
        assert done.returncode == 0, done.stderr
        assert f"resumed: {kept} records" in done.stdout
        assert read_out(workdir / "out.jsonl") == read_out(workdir / "whole.jsonl")


def test_a_parquet_id_column_json_cannot_hold_is_written_as_its_json_form(workdir: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import datetime

    stamps = [datetime.datetime(2024, 1, 1, 0, 0, i) for i in range(4)]
    pq.write_table(pa.table({"id": stamps, "text": ['{"action": "a"}'] * 4}), workdir / "in.parquet")
    done = batch("in.parquet", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = read_out(workdir / "out.jsonl")
    assert [(r["id"], r["outcome"]) for r in out] == [(f"2024-01-01T00:00:0{i}", "recovered") for i in range(4)]


def test_an_error_note_escapes_the_paths_and_messages_of_a_parse_error() -> None:
    err = SchemaMismatchError("bad", [ErrorDetail(path="/k\ud800", kind="missing", message="no \udcff here")])
    note = ErrorNote.of_parse_error(err)
    assert note.errors == ({"path": "/k\\ud800", "kind": "missing", "message": "no \\udcff here"},)
    assert ErrorNote.plain("internal", "x\ud800").message == "x\\ud800"


def test_an_encoded_line_escapes_a_value_with_a_lone_surrogate_as_to_dict_does() -> None:
    record = encode(RecordResult(0, "recovered", {"k\ud800": ["v\udc00", 1]}, (), None, "id\udfff"))
    data = json.loads(record.line.encode("utf-8"))
    assert data["value"] == {"k\\ud800": ["v\\udc00", 1]} and data["id"] == "id\\udfff"


def test_a_result_json_cannot_hold_is_a_crashed_record_not_a_lost_run() -> None:
    record = encode(RecordResult(4, "recovered", {"when": object()}, (), None, "r4"))
    data = json.loads(record.line)
    assert (data["index"], data["id"], data["outcome"], data["value"]) == (4, "r4", "crashed", None)
    assert "could not be written as JSON" in data["error"]["message"] and record.tally.outcome == "crashed"


def test_parquet_output_holds_a_value_whose_line_keeps_its_surrogate_as_an_escape(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    writer = ParquetWriter(str(tmp_path / "out.parquet"))
    line = '{"index":0,"outcome":"recovered","value":{"a":"\\ud800"},"repairs":[],"error":null}'
    writer.write(EncodedRecord(0, line, tally(RecordResult(0, "recovered"))))
    writer.close()
    [row] = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert row["value"] == '{"a": "\\ud800"}'


# -- lines: CR, blank, not UTF-8 (M07) ---------------------------------------------------------------------------


def test_a_cr_inside_a_record_is_white_space_not_a_line_end(workdir: Path) -> None:
    lines = [
        call(0),
        b'{"id": 1,\r"text": "{\\"action\\": \\"b\\"}"}',
        b'{"id": 2, "text": "{\\"action\\": \\"c\\"}"}\r',
    ]
    (workdir / "in.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = read_out(workdir / "out.jsonl")
    assert [(r["index"], r["id"], r["outcome"]) for r in out] == [(i, i, "recovered") for i in range(3)]


def test_windows_line_ends_read_as_they_are_written(workdir: Path) -> None:
    (workdir / "in.jsonl").write_bytes(b"".join(call(i) + b"\r\n" for i in range(4)))
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert [(r["id"], r["outcome"]) for r in read_out(workdir / "out.jsonl")] == [(i, "recovered") for i in range(4)]


def test_every_line_is_one_record_at_its_line_number_blank_and_undecodable_ones_too(workdir: Path) -> None:
    lines = [b"\xef\xbb\xbf" + call(0), b"", call(2), b"  \t", b'{"id": 4, "text": "caf\xe9"}', call(5), b"\r", call(7)]
    (workdir / "in.jsonl").write_bytes(b"\n".join(lines))  # no newline after the last line
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "2", cwd=workdir)
    assert done.returncode == 0, done.stderr
    out = read_out(workdir / "out.jsonl")
    assert [r["index"] for r in out] == list(range(8))
    kinds = [r["outcome"] if r["error"] is None else (r["outcome"], r["error"]["kind"]) for r in out]
    blank = ("invalid", "blank_line")
    assert kinds == ["recovered", blank, "recovered", blank, ("invalid", "not_utf8"), "recovered", blank, "recovered"]
    assert [r.get("id") for r in out] == [0, None, 2, None, 4, 5, None, 7]
    assert "byte 0xe9 at offset" in out[4]["error"]["message"]


def test_resume_counts_blank_lines_as_records(workdir: Path) -> None:
    lines = [call(0), b"", call(2), b"", b"", call(5), call(6)]
    (workdir / "in.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    done = batch("in.jsonl", "-o", "whole.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0, done.stderr
    whole = (workdir / "whole.jsonl").read_bytes().split(b"\n")
    (workdir / "out.jsonl").write_bytes(b"\n".join(whole[:4]) + b"\n")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", "--resume", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert read_out(workdir / "out.jsonl") == read_out(workdir / "whole.jsonl")
    assert [r["index"] for r in read_out(workdir / "out.jsonl")] == list(range(7))


def test_the_progress_count_is_the_number_of_records_read(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    for data in (b"a\n\nb\r\nc", b"a\rb\n", b"", b"\n", b"x\n\n"):
        path.write_bytes(data)
        assert count_records(str(path)) == len(list(read_records(str(path)))), data
    path.write_bytes(b"a\r\n\nb")
    assert list(read_records(str(path), skip=1)) == [b"", b"b"]


def test_a_text_line_that_is_blank_is_an_invalid_record_too() -> None:
    processor = RecordProcessor(RecordJob(target_spec="list[int]"))
    results = [processor.process(i, item) for i, item in enumerate(["", " \r", "[1]", b"\x80"])]
    assert [(r.outcome, r.error and r.error.kind) for r in results] == [
        ("invalid", "blank_line"),
        ("invalid", "blank_line"),
        ("invalid", "not_object"),
        ("invalid", "not_utf8"),
    ]


# -- a run that mostly fails the same way -------------------------------------------------------------------------


def one_message(stderr: str) -> str:
    """The one error message on stderr, wrapped to 80 columns: its lines joined back."""
    lines = stderr.splitlines()
    assert lines and all(len(line) <= 80 for line in lines)
    assert all(line.startswith(" ") for line in lines[1:])  # continuation lines only: one message
    return " ".join(line.strip() for line in lines)


def test_a_wrong_text_field_is_reported_once_on_stderr_and_exits_2(workdir: Path) -> None:
    rows = [{"id": i, "completion": '{"action": "a"}'} for i in range(5)]
    (workdir / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 2
    hint = one_message(done.stderr)
    assert hint.startswith("resilient-parse batch: error: 5 of 5 records are invalid (no_text")
    assert "--text-field" in hint and "completion" in hint  # what to check, and the fields the records have
    assert "5 records" in done.stdout  # the summary is still printed, and every record written
    assert [r["outcome"] for r in read_out(workdir / "out.jsonl")] == ["invalid"] * 5
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", "--text-field", "completion", cwd=workdir)
    assert done.returncode == 0 and done.stderr == ""


def test_no_target_for_most_records_exits_2(workdir: Path) -> None:
    (workdir / "in.jsonl").write_bytes(b"".join(call(i) + b"\n" for i in range(3)))
    done = batch("in.jsonl", "-o", "out.jsonl", "-w", "0", cwd=workdir)
    assert done.returncode == 2 and "3 of 3 records are invalid (no_target" in one_message(done.stderr)


def test_input_that_is_not_jsonl_exits_2(workdir: Path) -> None:
    (workdir / "in.jsonl").write_text("id,text\n1,hello\n2,world\n", encoding="utf-8")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 2 and "not_json" in done.stderr and "JSONL" in done.stderr
    assert len(read_out(workdir / "out.jsonl")) == 3


def test_a_target_that_fits_no_record_is_a_warning_with_exit_0(workdir: Path) -> None:
    rows = [{"id": i, "text": '{"title": "t"}'} for i in range(4)]
    (workdir / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert done.returncode == 0
    hint = one_message(done.stderr)
    assert hint.startswith("resilient-parse batch: warning: 4 of 4 records were refused with SchemaMismatchError")
    assert "/action" in hint and "--target" in hint


def test_failures_of_several_kinds_are_no_problem() -> None:
    summary = Summary()
    for i, kind in enumerate(["no_text", "not_json", "blank_line", None]):
        error = None if kind is None else ErrorNote.plain(kind, "x", error_type="invalid_record")
        summary.add(RecordResult(i, "invalid" if kind else "recovered", None, (), error))
    assert summary.problem() is None
    summary.add(RecordResult(4, "invalid", None, (), ErrorNote.plain("no_text", "x", error_type="invalid_record")))
    assert summary.problem() is None  # 2 of 5: not most
    for outcome, expected in (("timeout", "--timeout"), ("crashed", "crashed")):
        summary = Summary()
        for i in range(3):
            summary.add(RecordResult(i, outcome, None, (), ErrorNote.plain(outcome, "lost")))
        problem = summary.problem()
        assert problem is not None and not problem.usage and expected in problem.line


def test_crashed_records_are_not_listed_as_refusals() -> None:
    summary = Summary()
    summary.add(RecordResult(0, "crashed", None, (), ErrorNote.plain("internal", "ValueError: x")))
    table = summary.render()
    assert "internal" not in table and any(line.split()[:2] == ["crashed", "1"] for line in table.splitlines())


# -- a record's own target (L04) ---------------------------------------------------------------------------------


def test_a_records_own_target_imports_no_module_the_run_did_not_choose(workdir: Path) -> None:
    (workdir / "rt_sideeffect.py").write_text("open('IMPORTED', 'w').write('ran')\nclass X: pass\n", encoding="utf-8")
    (workdir / "other.json").write_text(
        json.dumps({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
        encoding="utf-8",
    )
    records = [
        {"id": 0, "text": '{"action": "a"}', "target": "rt_sideeffect:X"},
        {"id": 1, "text": '{"action": "a"}', "target": "list[rt_sideeffect:X]"},
        {"id": 2, "text": '{"title": "t"}', "target": "rt_models:Other"},  # the run's own module: allowed
        {"id": 3, "text": '{"name": "n"}', "target": "other.json"},  # a schema file runs no code: allowed
        {"id": 4, "text": "{}", "target": "rt_models:BaseModel"},  # imported there, defined elsewhere
        {"id": 5, "text": '{"action": "a"}', "target": "rt_models:ToolCall"},
        {"id": 6, "text": '{"action": "a"}', "target": "rt_models.py"},  # a file, but no schema: not read
    ]
    (workdir / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    done = batch("in.jsonl", "-o", "out.jsonl", "-t", TARGET, "-w", "0", cwd=workdir)
    assert not (workdir / "IMPORTED").exists()
    assert done.returncode == 0, done.stderr
    out = read_out(workdir / "out.jsonl")
    outcomes = ["invalid", "invalid", "recovered", "recovered", "invalid", "recovered", "invalid"]
    assert [r["outcome"] for r in out] == outcomes
    assert {out[i]["error"]["kind"] for i in (0, 1, 4)} == {"target_not_allowed"}
    assert out[6]["error"]["kind"] == "bad_target" and "is not an import path" in out[6]["error"]["message"]
    assert "rt_sideeffect:X" in out[0]["error"]["message"] and "rt_models" in out[0]["error"]["message"]
