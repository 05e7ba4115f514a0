"""One output record per input record: the value (or null), the outcome, the repairs and the error.

Every input record yields exactly one `RecordResult`, whatever happened to it — recovered as it was, repaired,
refused by the parser, invalid as a record (no text, a target that does not load), or lost to its worker
(`timeout`, `crashed`: the pool fills those in itself). `to_json` is the line `resilient-parse batch` writes.

For files, workers send `EncodedRecord`s instead: the JSON line already written and a `Tally` of what the summary
counts, both plain tuples and strings. The parent then only writes lines and adds tallies: it is the one serial
part of a pool, and unpickling `RecordResult`s and encoding their JSON there cost ~14 µs per record (measured),
against ~1 µs for lines and tallies.

Every output line encodes as UTF-8, whatever the record held: a lone surrogate (a `\\ud800` escape the model
wrote, an id read from a byte that is not UTF-8) is spelled as its escape, as `ParseError.to_dict` spells it
(`escape_surrogates`): error notes and repair paths when they are made, the id when it is read, the value when
its line is encoded. A result that cannot be encoded at all becomes a `crashed` record, never a lost run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, NamedTuple

from pydantic_core import to_jsonable_python
from typing_extensions import TypeVar

from resilient_parse.errors import ConfigurationError, ParseError
from resilient_parse.repairs import Repair
from resilient_parse.safe_text import escape_surrogates, utf8_safe

Outcome = Literal["recovered", "repaired", "refused", "invalid", "timeout", "crashed"]
OUTCOMES: tuple[Outcome, ...] = ("recovered", "repaired", "refused", "invalid", "timeout", "crashed")


@dataclass(frozen=True)
class RepairNote:
    """What a repair was, where: enough to count and locate it (the full trace stays with `Parser.parse_result`)."""

    kind: str
    path: str
    lossless: bool

    @classmethod
    def of(cls, repair: Repair) -> RepairNote:
        return cls(escape_surrogates(repair.kind), escape_surrogates(repair.path), repair.lossless)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "lossless": self.lossless}


@dataclass(frozen=True)
class ErrorNote:
    """Why a record has no value: the error's type and kind, its message, and each problem's path and kind."""

    type: str
    kind: str
    message: str
    errors: tuple[Mapping[str, Any], ...] = ()

    @classmethod
    def of_parse_error(cls, err: ParseError) -> ErrorNote:
        """The error's notes, every string escaped as `ParseError.to_dict` escapes it (a path may hold a key the
        model wrote with a lone surrogate; the details' messages are not escaped by the error itself)."""
        details = tuple(
            {"path": escape_surrogates(d.path), "kind": d.kind, "message": escape_surrogates(d.message)}
            for d in err.details
        )
        return cls(type(err).__name__, escape_surrogates(err.kind), escape_surrogates(err.message), details)

    @classmethod
    def plain(cls, kind: str, message: str, path: str = "", *, error_type: str | None = None) -> ErrorNote:
        """An error the parser did not raise (a broken record, a worker lost); its type defaults to the kind."""
        kind, message, path = escape_surrogates(kind), escape_surrogates(message), escape_surrogates(path)
        return cls(error_type or kind, kind, message, ({"path": path, "kind": kind, "message": message},))

    @property
    def paths(self) -> list[str]:
        return [str(e.get("path", "")) for e in self.errors]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "kind": self.kind, "message": self.message, "errors": [dict(e) for e in self.errors]}


T = TypeVar("T", default=Any)


@dataclass(frozen=True)
class RecordResult(Generic[T]):
    """The fate of one input record. `value` is the typed object (`parse_many`) or its JSON form (files); None
    when the record was not recovered."""

    index: int
    outcome: Outcome
    value: T | None = None
    repairs: tuple[RepairNote, ...] = ()
    error: ErrorNote | None = None
    id: Any = None

    @property
    def ok(self) -> bool:
        return self.outcome in ("recovered", "repaired")

    def to_json(self) -> dict[str, Any]:
        """The output record: index, id (when the input had one), outcome, value, repairs, error."""
        out: dict[str, Any] = {"index": self.index}
        if self.id is not None:
            out["id"] = self.id
        out["outcome"] = self.outcome
        out["value"] = self.value
        out["repairs"] = [r.to_json() for r in self.repairs]
        out["error"] = None if self.error is None else self.error.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RecordResult:
        """Read back a record `to_json` wrote (resume counts and summarises the records already written)."""
        error = data.get("error")
        outcome = data.get("outcome")
        if outcome not in OUTCOMES or not isinstance(data.get("index"), int):
            raise ValueError(f"not an output record: {dict(data)!r:.200}")
        return cls(
            index=data["index"],
            outcome=outcome,
            value=data.get("value"),
            repairs=tuple(RepairNote(str(r["kind"]), str(r["path"]), bool(r["lossless"])) for r in data["repairs"]),
            error=None
            if error is None
            else ErrorNote(str(error["type"]), str(error["kind"]), str(error["message"]), tuple(error["errors"])),
            id=data.get("id"),
        )


def safe_id(value: Any) -> Any:
    """A record's id as the output can hold it: JSON data (a Parquet timestamp or decimal as its JSON form, bytes
    as text), every lone surrogate escaped; what has no JSON form at all, as its short repr."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, bytes):
        value = value.decode("utf-8", "surrogateescape")
    if isinstance(value, str):
        return escape_surrogates(value)
    try:
        return utf8_safe(to_jsonable_python(value))
    except Exception:  # no JSON form, or too deep to copy: the id is only for joining back
        try:
            text = repr(value)
        except Exception:
            text = f"<{type(value).__name__}>"
        return escape_surrogates(text if len(text) <= 200 else text[:199] + "…")


def parsed(index: int, value: Any, repairs: tuple[Repair, ...], record_id: Any = None) -> RecordResult:
    """A record the parser turned into a value: recovered as it was, or repaired."""
    notes = tuple(RepairNote.of(r) for r in repairs)
    return RecordResult(index, "repaired" if notes else "recovered", value, notes, None, record_id)


def refused(index: int, err: ParseError, record_id: Any = None) -> RecordResult:
    return RecordResult(index, "refused", None, (), ErrorNote.of_parse_error(err), record_id)


INVALID = "invalid_record"
"""The error type of every `invalid` record; its kind says why (`no_text`, `not_json`, ...: `RecordError.reason`)."""


def invalid(index: int, exc: ConfigurationError | ValueError, record_id: Any = None) -> RecordResult:
    """A record that could not be parsed at all: a blank or undecodable line, not JSON, no text, or a
    target/mode/aliases that do not work. The error's kind is the exception's `reason` when it has one."""
    reason = getattr(exc, "reason", None) or INVALID
    return RecordResult(index, "invalid", None, (), ErrorNote.plain(reason, str(exc), error_type=INVALID), record_id)


def lost(index: int, outcome: Literal["timeout", "crashed"], message: str, record_id: Any = None) -> RecordResult:
    """A record whose worker hung past its timeout or died: the pool replaced the worker and kept the record."""
    return RecordResult(index, outcome, None, (), ErrorNote.plain(outcome, message), record_id)


class Tally(NamedTuple):
    """What the summary counts of one record."""

    outcome: str
    error_type: str | None
    repairs: tuple[tuple[str, bool], ...]
    """(kind, lossless) of each repair."""
    failing_paths: tuple[str, ...]
    reason: str | None = None
    """Why an `invalid` record is invalid (its error's kind)."""
    message: str | None = None
    """An `invalid` record's error message (the summary keeps one per reason, for its hint)."""


class EncodedRecord(NamedTuple):
    """A record as the file route moves it: its position in the input, its output line (no newline), its tally."""

    position: int
    line: str
    tally: Tally


def tally(result: RecordResult) -> Tally:
    error = result.error
    bad = error is not None and result.outcome == "invalid"
    return Tally(
        result.outcome,
        None if error is None else error.type,
        tuple((r.kind, r.lossless) for r in result.repairs),
        tuple(error.paths) if error is not None and result.outcome == "refused" else (),
        error.kind if bad and error is not None else None,
        error.message if bad and error is not None else None,
    )


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def encode(result: RecordResult) -> EncodedRecord:
    """The record's output line and tally. The line always encodes as UTF-8; encoding never raises."""
    try:
        line = _dumps(result.to_json())
    except (TypeError, ValueError, RecursionError) as exc:  # a value JSON cannot hold; the record, not the run
        message = f"the result could not be written as JSON ({type(exc).__name__}: {exc})"
        kept_id = result.id if isinstance(result.id, str | int | float) else None
        result = RecordResult(result.index, "crashed", None, (), ErrorNote.plain("internal", message), kept_id)
        line = _dumps(result.to_json())
    if not line.isascii():
        escaped = escape_surrogates(line)
        if escaped != line:  # a lone surrogate in a string (the value's: the rest is escaped already)
            try:
                line = _dumps(utf8_safe(result.to_json()))
            except RecursionError:  # too deep to copy: the escapes in the line read back as the same value
                line = escaped
    return EncodedRecord(result.index, line, tally(result))
