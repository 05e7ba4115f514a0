"""Reading input records and writing output records: JSONL always, Parquet when pyarrow is installed.

Input JSONL is read as bytes and split on `\\n` alone: a CR is JSON white space inside a record, not a line end,
and every line is a record — a blank line or one that is not UTF-8 too (the worker makes it an `invalid` one), so
a record's `index` is its line number (from 0). Lines are handed to workers undecoded (they decode in parallel);
a Parquet row arrives as a dict. Output is written in input order, one record per input record, so an interrupted
JSONL output is a prefix of the full one: `resume_jsonl` keeps its complete records, cuts a torn last line, and
says how many to skip. Parquet output cannot be appended to (the footer comes last), so resuming needs JSONL
output. Every output line is valid UTF-8 (`records.encode` escapes lone surrogates as `ParseError.to_dict` does).

In Parquet output, `id` and `value` hold JSON text: the values of a log have no single Arrow type.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from resilient_parse.batch.records import EncodedRecord, RecordResult
from resilient_parse.safe_text import escape_surrogates


class BatchFileError(ValueError):
    """An input or output file that cannot be used: unreadable, not the format it claims, a mismatched resume."""


def is_parquet(path: str) -> bool:
    return path.endswith((".parquet", ".pq"))


def _pyarrow() -> Any:
    try:
        pyarrow = importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise BatchFileError("Parquet needs pyarrow: pip install 'resilient-parse[parquet]'") from None
    return pyarrow


# -- input -------------------------------------------------------------------------------------------------------


_BOM = b"\xef\xbb\xbf"


def read_records(path: str, *, skip: int = 0) -> Iterator[Any]:
    """The input records after the first `skip`: JSONL lines as bytes, without their `\\n` (every line is one
    record; a UTF-8 byte order mark before the first is dropped), or Parquet rows."""
    if is_parquet(path):
        yield from _read_parquet(path, skip)
        return
    stream: IO[bytes] = sys.stdin.buffer if path == "-" else _open(path)
    try:
        for number, line in enumerate(stream):
            if number >= skip:
                if number == 0 and line.startswith(_BOM):
                    line = line[len(_BOM) :]
                yield line[:-1] if line.endswith(b"\n") else line
    finally:
        if path != "-":
            stream.close()


def _open(path: str) -> IO[bytes]:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise BatchFileError(f"cannot read {path!r}: {exc.strerror or exc}") from None


def _read_parquet(path: str, skip: int) -> Iterator[dict[str, Any]]:
    pa = _pyarrow()
    try:
        table = pa.parquet.ParquetFile(path)
    except (OSError, pa.ArrowException) as exc:
        raise BatchFileError(f"cannot read {path!r} as Parquet: {exc}") from None
    seen = 0
    for batch in table.iter_batches(batch_size=4096):
        if seen + batch.num_rows <= skip:
            seen += batch.num_rows
            continue
        rows = batch.to_pylist()
        yield from rows[max(0, skip - seen) :]
        seen += batch.num_rows


def count_records(path: str) -> int | None:
    """How many records the input holds, for the progress bar (None for stdin)."""
    if path == "-":
        return None
    if is_parquet(path):
        try:
            return int(_pyarrow().parquet.ParquetFile(path).metadata.num_rows)
        except Exception:
            return None
    try:
        with open(path, "rb") as stream:
            return sum(1 for _ in stream)  # lines, as `read_records` reads them
    except OSError:
        return None


# -- output ------------------------------------------------------------------------------------------------------


class JsonlWriter:
    """Writes one JSON line per record; flushed by the caller at chunk boundaries, so an interrupt tears at most
    the last line. Lines are written as UTF-8 whatever the locale; a lone surrogate that reached a line anyway is
    written as its `\\u` escape (the same JSON value), never a UnicodeEncodeError."""

    def __init__(self, path: str, *, append: bool = False) -> None:
        self._stdout = path == "-"
        try:
            self._stream: IO[bytes] = (
                _stdout_bytes() if self._stdout else open(path, "ab" if append else "wb")  # noqa: SIM115
            )
        except OSError as exc:
            raise BatchFileError(f"cannot write {path!r}: {exc.strerror or exc}") from None

    def write(self, record: EncodedRecord) -> None:
        self._stream.write((record.line + "\n").encode("utf-8", "backslashreplace"))

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        self.flush()
        if not self._stdout:
            self._stream.close()


def _stdout_bytes() -> IO[bytes]:
    sys.stdout.flush()
    return sys.stdout.buffer


class ParquetWriter:
    """Writes records to Parquet in row groups, with a fixed schema (see the module docstring)."""

    _ROWS_PER_GROUP = 8192

    def __init__(self, path: str) -> None:
        pa = self._pa = _pyarrow()
        detail = pa.struct([("path", pa.string()), ("kind", pa.string()), ("message", pa.string())])
        self.schema = pa.schema(
            [
                ("index", pa.int64()),
                ("id", pa.string()),
                ("outcome", pa.string()),
                ("value", pa.string()),
                (
                    "repairs",
                    pa.list_(pa.struct([("kind", pa.string()), ("path", pa.string()), ("lossless", pa.bool_())])),
                ),
                (
                    "error",
                    pa.struct(
                        [
                            ("type", pa.string()),
                            ("kind", pa.string()),
                            ("message", pa.string()),
                            ("errors", pa.list_(detail)),
                        ]
                    ),
                ),
            ]
        )
        try:
            self._writer = pa.parquet.ParquetWriter(path, self.schema)
        except (OSError, pa.ArrowException) as exc:
            raise BatchFileError(f"cannot write {path!r}: {exc}") from None
        self._rows: list[dict[str, Any]] = []

    def write(self, record: EncodedRecord) -> None:
        row = json.loads(record.line)
        row["id"] = None if row.get("id") is None else _json_text(row["id"])
        ok = row["outcome"] in ("recovered", "repaired")
        row["value"] = _json_text(row["value"]) if ok else None
        self._rows.append(row)
        if len(self._rows) >= self._ROWS_PER_GROUP:
            self.flush()

    def flush(self) -> None:
        if self._rows:
            self._writer.write_table(self._pa.Table.from_pylist(self._rows, schema=self.schema))
            self._rows = []

    def close(self) -> None:
        self.flush()
        self._writer.close()


def _json_text(value: Any) -> str:
    """JSON text for a Parquet string column: valid UTF-8 (a lone surrogate as its escape, the same JSON value)."""
    return escape_surrogates(json.dumps(value, ensure_ascii=False))


Writer = JsonlWriter | ParquetWriter


def open_writer(path: str, *, append: bool = False) -> Writer:
    """A writer for the output's format; `append` (JSONL only) continues a resumed output."""
    if is_parquet(path):
        return ParquetWriter(path)
    return JsonlWriter(path, append=append)


def resume_jsonl(path: str, on_record: Callable[[RecordResult], None]) -> int:
    """How many records an interrupted JSONL output already holds (each passed to `on_record`); a torn last line
    is cut off. Raises `BatchFileError` when the file is not this command's output in input order."""
    if is_parquet(path):
        raise BatchFileError("--resume needs JSONL output: a Parquet file cannot be appended to")
    target = Path(path)
    if path == "-" or not target.exists():
        return 0
    kept = 0
    good_bytes = 0
    with target.open("rb") as stream:
        for raw in stream:
            if not raw.endswith(b"\n"):
                break  # torn by the interrupt: it is written again
            try:
                result = RecordResult.from_json(json.loads(raw))
            except (ValueError, KeyError, TypeError) as exc:
                raise BatchFileError(
                    f"{path}: record {kept + 1} is not an output record ({exc}); not resuming"
                ) from None
            if result.index != kept:
                raise BatchFileError(
                    f"{path}: record {kept + 1} has index {result.index}, expected {kept}; not resuming"
                )
            on_record(result)
            kept += 1
            good_bytes += len(raw)
    with target.open("r+b") as stream:
        stream.truncate(good_bytes)
    return kept
