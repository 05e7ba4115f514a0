"""Reading input records and writing output records: JSONL always, Parquet when pyarrow is installed.

Input JSONL lines are handed to workers undecoded (they decode in parallel); a Parquet row arrives as a dict.
Output is written in input order, one record per input record, so an interrupted JSONL output is a prefix of the
full one: `resume_jsonl` keeps its complete records, cuts a torn last line, and says how many to skip. Parquet
output cannot be appended to (the footer comes last), so resuming needs JSONL output.

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


def read_records(path: str, *, skip: int = 0) -> Iterator[Any]:
    """The input records after the first `skip`: JSONL lines (blank lines are not records) or Parquet rows."""
    if is_parquet(path):
        yield from _read_parquet(path, skip)
        return
    stream: IO[str] = sys.stdin if path == "-" else _open(path)
    try:
        seen = 0
        for line in stream:
            if line.strip():
                if seen >= skip:
                    yield line
                seen += 1
    finally:
        if stream is not sys.stdin:
            stream.close()


def _open(path: str) -> IO[str]:
    try:
        return open(path, encoding="utf-8", errors="surrogateescape")
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
            return sum(1 for line in stream if line.strip())
    except OSError:
        return None


# -- output ------------------------------------------------------------------------------------------------------


class JsonlWriter:
    """Writes one JSON line per record; flushed by the caller at chunk boundaries, so an interrupt tears at most
    the last line."""

    def __init__(self, path: str, *, append: bool = False) -> None:
        try:
            self._stream: IO[str] = (
                sys.stdout if path == "-" else open(path, "a" if append else "w", encoding="utf-8")  # noqa: SIM115
            )
        except OSError as exc:
            raise BatchFileError(f"cannot write {path!r}: {exc.strerror or exc}") from None

    def write(self, record: EncodedRecord) -> None:
        self._stream.write(record.line + "\n")

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        self.flush()
        if self._stream is not sys.stdout:
            self._stream.close()


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
        row["id"] = None if row.get("id") is None else json.dumps(row["id"], ensure_ascii=False)
        ok = row["outcome"] in ("recovered", "repaired")
        row["value"] = json.dumps(row["value"], ensure_ascii=False) if ok else None
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
