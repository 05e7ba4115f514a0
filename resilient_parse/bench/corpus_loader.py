"""Reading benchmark corpora: JSONL files of model outputs with the object a careful human would recover.

One case per line, a JSON object:

    id          str, unique across the corpora loaded together
    category    str, what the case exercises ("fences", "truncation", ...); the report groups by it
    target      the type to parse into: "package.module:Name", "list[package.module:Name]", or a bare "Name"
                (or "list[Name]"), one of the bundled corpus models in resilient_parse.bench.corpus.models
    input       str, the model's output exactly as it came
    expected    the object as JSON (field names, not aliases), or null: the input must be rejected. Every
                system, ours in both modes and every peer, is graded against it
    expected_strict   optional: the strict policy's own answer key, what strict is designed to return when that
                differs from `expected` (null: reject); it gives our strict mode a second, labelled score
                beside the headline, never the headline itself
    mode        optional, "both" (default), "strict" or "lenient": which of our modes the case is scored for.
                "strict" cases are scored for resilient_parse:strict only (peers have no strict mode);
                "lenient" and "both" cases are scored for every peer too.
    aliases     optional object {"key the model writes": "field name"}, passed to our parser (peers ignore it;
                the report marks these cases and gives the headline without them too)
    note        optional str, why the expectation is what it is

Blank lines are skipped. Every malformed line is a `CorpusError` naming the file and the line. The bundled corpus
(`DEFAULT_CORPUS`, read when no file is given) and its models ship inside the package, under
resilient_parse/bench/corpus/.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError
from pydantic.errors import PydanticSchemaGenerationError, PydanticUserError

from resilient_parse.targets import TargetError, resolve_target

DEFAULT_CORPUS = Path(__file__).resolve().parent / "corpus" / "default.jsonl"
MODELS_MODULE = "resilient_parse.bench.corpus.models"
REQUIRED = ("id", "category", "target", "input", "expected")
OPTIONAL = ("expected_strict", "mode", "aliases", "note")
MODES = ("both", "strict", "lenient")

Mode = Literal["both", "strict", "lenient"]


class CorpusError(ValueError):
    """A corpus line that cannot be used; the message starts with `file:line:`."""


@dataclass(frozen=True)
class Case:
    """One corpus case. `expected`/`expected_strict` are canonical JSON (the object as `dump_python(mode="json")`
    gives it) or None for "must be rejected"."""

    id: str
    category: str
    target_spec: str
    input: str
    expected: Any
    expected_strict: Any = None
    has_strict_override: bool = False
    mode: Mode = "both"
    aliases: Mapping[str, str] | None = None
    note: str = ""
    source: str = ""
    target: Any = field(default=None, compare=False, repr=False)

    def applies_to(self, system_mode: str | None) -> bool:
        """Whether a system is scored on this case: `system_mode` is "strict"/"lenient" for ours, None for peers."""
        if self.mode == "both":
            return True
        if self.mode == "strict":
            return system_mode == "strict"
        return system_mode != "strict"

    def expectation(self, system_mode: str | None) -> Any:
        """The canonical object this system's own policy says it must return, or None (reject): `expected_strict`
        for strict where the case has one. Grading uses `expected` for everyone; this is the policy score."""
        if system_mode == "strict" and self.has_strict_override:
            return self.expected_strict
        return self.expected


@lru_cache(maxsize=256)
def target_for(spec: str) -> Any:
    """The type a corpus target spec names (bare names are the bundled corpus models, `MODELS_MODULE`)."""
    try:
        return resolve_target(spec, default_module=MODELS_MODULE)
    except TargetError as exc:
        bare = spec.strip().removeprefix("list[").removesuffix("]").strip()
        if not bare.isidentifier():
            raise
        raise TargetError(
            f"{exc} (a bare name is one of the bundled corpus models: {', '.join(bundled_models())}; "
            "name any other type by its import path, 'package.module:Name')"
        ) from None


def bundled_models() -> list[str]:
    """The names a corpus line may use bare: the classes defined in the bundled models module."""
    module = importlib.import_module(MODELS_MODULE)
    return sorted(n for n, v in vars(module).items() if isinstance(v, type) and v.__module__ == MODELS_MODULE)


@lru_cache(maxsize=256)
def adapter_for(spec: str) -> TypeAdapter[Any]:
    return TypeAdapter(target_for(spec))


def canonical(spec: str, value: Any) -> Any:
    """A value of the target as plain JSON data, the form expectations and results are compared in."""
    return adapter_for(spec).dump_python(value, mode="json", by_alias=False, warnings=False)


def _canonical_expected(spec: str, raw: Any, where: str, key: str) -> Any:
    if raw is None:
        return None
    try:
        value = adapter_for(spec).validate_python(raw, by_alias=True, by_name=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = "/".join(str(p) for p in first["loc"])
        raise CorpusError(
            f"{where}: {key!r} does not validate against target {spec!r}: /{loc}: {first['msg']}"
        ) from None
    return canonical(spec, value)


def parse_line(line: str, where: str) -> Case:
    """One corpus line as a `Case`; `where` is "file:line" for the error messages."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CorpusError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(raw, dict):
        raise CorpusError(f"{where}: a case must be a JSON object, got {type(raw).__name__}")
    missing = [k for k in REQUIRED if k not in raw]
    if missing:
        raise CorpusError(f"{where}: missing field(s) {', '.join(missing)}")
    unknown = sorted(set(raw) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        allowed = ", ".join((*REQUIRED, *OPTIONAL))
        raise CorpusError(f"{where}: unknown field(s) {', '.join(unknown)} (allowed: {allowed})")
    for key in ("id", "category", "target", "input"):
        if not isinstance(raw[key], str) or (key != "input" and not raw[key].strip()):
            raise CorpusError(f"{where}: {key!r} must be a non-empty string, got {raw[key]!r}")
    case_id = raw["id"]
    where = f"{where} (id {case_id!r})"
    mode = raw.get("mode", "both")
    if mode not in MODES:
        raise CorpusError(f"{where}: 'mode' must be one of {', '.join(MODES)}, got {mode!r}")
    aliases = raw.get("aliases")
    if aliases is not None and (
        not isinstance(aliases, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in aliases.items())
    ):
        raise CorpusError(f"{where}: 'aliases' must be an object of string to string, got {aliases!r}")
    note = raw.get("note", "")
    if not isinstance(note, str):
        raise CorpusError(f"{where}: 'note' must be a string")
    spec = raw["target"]
    try:
        target = target_for(spec)
        adapter_for(spec)
    except TargetError as exc:
        raise CorpusError(f"{where}: unknown target: {exc}") from None
    except (PydanticSchemaGenerationError, PydanticUserError, TypeError) as exc:
        raise CorpusError(f"{where}: target {spec!r} is not a type Pydantic can validate: {exc}") from None
    expected = _canonical_expected(spec, raw["expected"], where, "expected")
    has_override = "expected_strict" in raw
    expected_strict = _canonical_expected(spec, raw.get("expected_strict"), where, "expected_strict")
    return Case(
        id=case_id,
        category=raw["category"],
        target_spec=spec,
        input=raw["input"],
        expected=expected,
        expected_strict=expected_strict,
        has_strict_override=has_override,
        mode=mode,
        aliases=aliases,
        note=note,
        source=where,
        target=target,
    )


def load_corpus(paths: Iterable[str | Path] = ()) -> list[Case]:
    """Every case of the given JSONL files (the bundled default corpus when none), ids unique across files."""
    files = [Path(p) for p in paths] or [DEFAULT_CORPUS]
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CorpusError(f"{path}: cannot read the corpus ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            raise CorpusError(f"{path}: not UTF-8 ({exc})") from None
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            case = parse_line(line, where)
            if case.id in seen:
                raise CorpusError(f"{where}: duplicate id {case.id!r} (first at {seen[case.id]})")
            seen[case.id] = where
            cases.append(case)
    if not cases:
        raise CorpusError(f"{', '.join(map(str, files))}: no cases")
    return cases
