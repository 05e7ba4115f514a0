"""What a worker needs to turn one input record into one `RecordResult`, and the worker-side processor.

A `RecordJob` is plain, picklable data (a `ParserRecipe`, the target or its spec, the field names); each worker
builds one `RecordProcessor` from it and keeps its parsers and targets for the whole run. An input record is a
JSON line, a mapping (a Parquet row, a Dask/Spark row), or — with `raw_text` — the model output itself. A record
may name its own target, mode and aliases under the fields the job names.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from resilient_parse.batch.recipe import ParserRecipe
from resilient_parse.batch.records import ErrorNote, RecordResult, invalid, parsed, refused
from resilient_parse.errors import ConfigurationError, ParseError
from resilient_parse.parser import Parser
from resilient_parse.policy import resolve_policy
from resilient_parse.targets import TargetError, load_target


class RecordError(ValueError):
    """An input record that cannot be parsed at all: not JSON, no text, a bad per-record setting."""


@dataclass(frozen=True)
class RecordJob:
    """How to read, parse and report each record. `target` is a type, or `target_spec` names one
    (`module:Name`, `list[...]`, a JSON Schema file) to load on the worker; a record's own `target_field`
    overrides either."""

    recipe: ParserRecipe = field(default_factory=ParserRecipe)
    target: Any = None
    target_spec: str | None = None
    raw_text: bool = False
    as_json: bool = True
    text_field: str = "text"
    id_field: str | None = "id"
    target_field: str | None = "target"
    mode_field: str | None = "mode"
    aliases_field: str | None = "aliases"
    import_paths: tuple[str, ...] = ()

    def record_id(self, item: Any) -> Any:
        """The record's id, read tolerantly (for records whose worker was lost)."""
        if self.raw_text or self.id_field is None:
            return None
        try:
            record = json.loads(item) if isinstance(item, str) else item
        except ValueError:
            return None
        return record.get(self.id_field) if isinstance(record, Mapping) else None


class RecordProcessor:
    """Parses records one at a time for one job; caches a parser per mode and a type per target spec."""

    def __init__(self, job: RecordJob) -> None:
        for path in reversed(job.import_paths):
            if path not in sys.path:
                sys.path.insert(0, path)
        self.job = job
        self._parsers: dict[str, Parser] = {}
        self._targets: dict[str, tuple[Any, bool]] = {}
        self._default = self._parser(None)

    def _parser(self, mode: str | None) -> Parser:
        key = mode or ""
        parser = self._parsers.get(key)
        if parser is None:
            recipe = self.job.recipe if mode is None else replace(self.job.recipe, policy=resolve_policy(mode))
            parser = self._parsers[key] = recipe.build()
        return parser

    def _target(self, spec: str | None) -> tuple[Any, bool]:
        if spec is None:
            if self.job.target is not None:
                return self.job.target, False
            spec = self.job.target_spec
            if spec is None:
                raise RecordError("no target: give one for the run, or one per record")
        found = self._targets.get(spec)
        if found is None:
            try:
                found = self._targets[spec] = load_target(spec)
            except TargetError as exc:
                raise RecordError(str(exc)) from None
        return found

    def _setting(self, record: Mapping[str, Any], name: str | None, kind: type) -> Any:
        if name is None or record.get(name) is None:
            return None
        value = record[name]
        if not isinstance(value, kind):
            raise RecordError(f"field {name!r} must be a {kind.__name__}, got {type(value).__name__}")
        return value

    def _record(self, item: Any) -> Mapping[str, Any]:
        """The record itself (empty for raw text)."""
        if self.job.raw_text:
            return {}
        if isinstance(item, str | bytes):
            try:
                item = json.loads(item)
            except ValueError as exc:
                raise RecordError(f"the line is not JSON: {exc}") from None
        if not isinstance(item, Mapping):
            raise RecordError(f"a record must be a JSON object, got {type(item).__name__}")
        return item

    def _text(self, item: Any, record: Mapping[str, Any]) -> Any:
        """The model output the record carries (the item itself for raw text)."""
        if self.job.raw_text:
            return item
        text = record.get(self.job.text_field)
        if not isinstance(text, str | bytes):
            raise RecordError(f"the record has no text under {self.job.text_field!r}")
        return text

    def process(self, index: int, item: Any) -> RecordResult:
        """One record's result; only a lost worker can keep a record from getting one."""
        record: Mapping[str, Any] = {}
        try:
            record = self._record(item)
            text = self._text(item, record)  # after the record is known, so an invalid record keeps its id
            target, from_schema = self._target(self._setting(record, self.job.target_field, str))
            parser = self._parser(self._setting(record, self.job.mode_field, str))
            aliases = self._setting(record, self.job.aliases_field, Mapping)
            result = parser.parse_result(text, target, aliases=aliases)
            value = result.value
            if self.job.as_json:
                adapter = parser.plan(target).adapter
                value = adapter.dump_python(value, mode="json", by_alias=True, exclude_unset=from_schema)
        except ParseError as err:
            return refused(index, err, self._id(record))
        except (RecordError, ConfigurationError) as exc:
            return invalid(index, exc, self._id(record))
        except Exception as exc:  # a bug, in the library or a plugin: this record's, not the run's
            note = ErrorNote.plain("internal", f"{type(exc).__name__}: {exc}")
            return RecordResult(index, "crashed", None, (), note, self._id(record))
        return parsed(index, value, result.repairs, self._id(record))

    def _id(self, record: Mapping[str, Any]) -> Any:
        return record.get(self.job.id_field) if self.job.id_field else None
