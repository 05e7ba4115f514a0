"""What a worker needs to turn one input record into one `RecordResult`, and the worker-side processor.

A `RecordJob` is plain, picklable data (a `ParserRecipe`, the target or its spec, the field names); each worker
builds one `RecordProcessor` from it and keeps its parsers and targets for the whole run. An input record is a
JSON line (bytes as read from the file, or text), a mapping (a Parquet row, a Dask/Spark row), or — with
`raw_text` — the model output itself. A line that is blank, not UTF-8, not JSON or not an object is an `invalid`
record, and its error's kind says which (`RecordError.reason`).

A record may name its own target, mode and aliases under the fields the job names. A log is data, so its own
`target` runs no code the run did not choose: it may be a JSON Schema file (`*.json`), or a type defined in a
module the run's target comes from (`rt_models:Other` beside `--target rt_models:ToolCall`); any other import
path is refused before anything is imported.
"""

from __future__ import annotations

import json
import sys
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from resilient_parse.batch.recipe import ParserRecipe
from resilient_parse.batch.records import ErrorNote, RecordResult, invalid, parsed, refused, safe_id
from resilient_parse.errors import ConfigurationError, ParseError
from resilient_parse.parser import Parser
from resilient_parse.policy import resolve_policy
from resilient_parse.targets import TargetError, is_schema_file, load_target

_JSON_WHITESPACE = " \t\r\n"
_SHOWN_FIELDS = 8


class RecordError(ValueError):
    """An input record that cannot be parsed at all: a blank or undecodable line, not JSON, no text, a bad
    per-record setting. `reason` names which, for the output's error kind and the summary's hint."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _spec_modules(spec: str) -> list[str] | None:
    """The modules an import-path spec would import, read as `targets.resolve_target` reads it (None when the
    spec is not an import path)."""
    spec = spec.strip()
    if spec.startswith("list[") and spec.endswith("]"):
        return _spec_modules(spec[5:-1])
    if ":" not in spec:
        return None
    module, _, attr = spec.partition(":")
    return [module] if module and attr else None


def _type_modules(target: Any, depth: int = 0) -> set[str]:
    """The modules that define the classes a target type is made of (`list[Model]`: Model's), builtins aside."""
    found: set[str] = set()
    if depth > 8:
        return found
    if isinstance(target, type):
        module = getattr(target, "__module__", None)
        if isinstance(module, str) and module not in ("builtins", "typing"):
            found.add(module)
    for arg in typing.get_args(target):
        found |= _type_modules(arg, depth + 1)
    return found


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
        """The record's id, read tolerantly (for records whose worker was lost, and lines that are not UTF-8: a
        byte that is not is read as a lone surrogate, and written escaped)."""
        if self.raw_text or self.id_field is None:
            return None
        try:
            if isinstance(item, bytes):
                item = item.decode("utf-8", "surrogateescape")
            record = json.loads(item) if isinstance(item, str) else item
        except (ValueError, RecursionError):
            return None
        return safe_id(record.get(self.id_field)) if isinstance(record, Mapping) else None


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
        spec = job.target_spec
        run_modules = _spec_modules(spec) if spec and not is_schema_file(spec) else None
        self._record_modules = frozenset(run_modules or ()) | _type_modules(job.target)
        """The modules a record's own import-path target may name: those the run's target comes from."""

    def _parser(self, mode: str | None) -> Parser:
        key = mode or ""
        parser = self._parsers.get(key)
        if parser is None:
            try:
                policy = None if mode is None else resolve_policy(mode)
            except ConfigurationError as exc:
                raise RecordError(str(exc), "bad_setting") from None
            recipe = self.job.recipe if policy is None else replace(self.job.recipe, policy=policy)
            parser = self._parsers[key] = recipe.build()
        return parser

    def _target(self, spec: str | None) -> tuple[Any, bool]:
        """The run's target (`spec` None), or the one a record names (checked first: see the module docstring)."""
        from_record = spec is not None and spec != self.job.target_spec
        if spec is None:
            if self.job.target is not None:
                return self.job.target, False
            spec = self.job.target_spec
            if spec is None:
                raise RecordError("no target: give one for the run (--target), or one per record", "no_target")
        found = self._targets.get(spec)
        if found is None:
            if from_record:
                self._check_record_target(spec)
            try:
                found = load_target(spec)
            except TargetError as exc:
                raise RecordError(str(exc), "bad_target") from None
            if from_record and not found[1] and not _type_modules(found[0]) <= self._record_modules:
                raise RecordError(self._not_allowed(spec), "target_not_allowed")
            self._targets[spec] = found
        return found

    def _check_record_target(self, spec: str) -> None:
        """Refuse, before anything is imported, a record's import path into a module the run did not choose."""
        if spec.endswith(".json"):  # a schema file is read, never run (any other file a log names is not read)
            return
        modules = _spec_modules(spec)
        if modules is None:
            raise RecordError(f"target {_short(spec)!r} is not an import path or a JSON Schema file", "bad_target")
        if not set(modules) <= self._record_modules:
            raise RecordError(self._not_allowed(spec), "target_not_allowed")

    def _not_allowed(self, spec: str) -> str:
        where = ", ".join(sorted(self._record_modules))
        allowed = f" or a type defined in the run's target module ({where})" if where else " (the run's names none)"
        return (
            f"target {_short(spec)!r} is not allowed: a record's own target may be a JSON Schema file{allowed}; "
            "a log names no other module to import"
        )

    def _setting(self, record: Mapping[str, Any], name: str | None, kind: type) -> Any:
        if name is None or record.get(name) is None:
            return None
        value = record[name]
        if not isinstance(value, kind):
            raise RecordError(f"field {name!r} must be a {kind.__name__}, got {type(value).__name__}", "bad_setting")
        return value

    def _record(self, item: Any) -> Mapping[str, Any]:
        """The record itself (empty for raw text). A line comes as bytes (from a file) or text."""
        if self.job.raw_text:
            return {}
        if isinstance(item, bytes):
            try:
                item = item.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    f"the line is not UTF-8: byte 0x{item[exc.start]:02x} at offset {exc.start}", "not_utf8"
                ) from None
        if isinstance(item, str):
            if not item.strip(_JSON_WHITESPACE):
                raise RecordError("a blank line: no record", "blank_line")
            try:
                item = json.loads(item)
            except ValueError as exc:
                raise RecordError(f"the line is not JSON: {exc}", "not_json") from None
            except RecursionError:
                raise RecordError("the line is not JSON this reader can read: nested too deeply", "not_json") from None
        if not isinstance(item, Mapping):
            raise RecordError(f"a record must be a JSON object, got {type(item).__name__}", "not_object")
        return item

    def _text(self, item: Any, record: Mapping[str, Any]) -> Any:
        """The model output the record carries (the item itself for raw text)."""
        if self.job.raw_text:
            return item
        name = self.job.text_field
        text = record.get(name)
        if not isinstance(text, str | bytes):
            if name in record:
                problem = f"the record's {name!r} holds {type(text).__name__}, not text"
            else:
                fields = [_short(str(key), 30) for key in list(record)[:_SHOWN_FIELDS]]
                more = ", …" if len(record) > _SHOWN_FIELDS else ""
                problem = f"the record has no text under {name!r} (its fields: {', '.join(fields)}{more})"
            raise RecordError(problem, "no_text")
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
            return invalid(index, exc, self._id(record) if record else self.job.record_id(item))
        except Exception as exc:  # a bug, in the library or a plugin: this record's, not the run's
            note = ErrorNote.plain("internal", f"{type(exc).__name__}: {exc}")
            return RecordResult(index, "crashed", None, (), note, self._id(record))
        return parsed(index, value, result.repairs, self._id(record))

    def _id(self, record: Mapping[str, Any]) -> Any:
        return safe_id(record.get(self.job.id_field)) if self.job.id_field else None
