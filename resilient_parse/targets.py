"""Turning a target spec into the type to parse into: what `resilient-parse parse --target` and corpus lines name.

A spec is an import path, `package.module:Name` (dotted attributes allowed after the colon), `list[SPEC]`, a bare
`Name` looked up in a default module (the bundled corpus's models, for corpus lines), or a JSON Schema file, which
`model_from_json_schema` turns into a Pydantic model (see it for the supported subset).

    load_target("myapp.models:ToolCall")         # (ToolCall, False)
    load_target("schema.json")                   # (a generated BaseModel subclass, True)
    resolve_target("list[Item]", default_module="resilient_parse.bench.corpus.models")

Every spec that names no usable type raises `TargetError` (a JSON Schema construct outside the subset is a
`SchemaError` from `model_from_json_schema`; `load_target` reports it as a `TargetError` naming the file).
This module imports nothing of the command line or the benchmark.
"""

from __future__ import annotations

import datetime
import importlib
import ipaddress
import json
import keyword
import pathlib
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, ForwardRef, Literal, Union

from pydantic import (
    UUID1,
    UUID3,
    UUID4,
    UUID5,
    AfterValidator,
    AnyUrl,
    BaseModel,
    ConfigDict,
    Field,
    IPvAnyAddress,
    IPvAnyInterface,
    IPvAnyNetwork,
    TypeAdapter,
    create_model,
)
from pydantic.errors import PydanticSchemaGenerationError, PydanticUserError
from pydantic_core import to_jsonable_python

__all__ = [
    "SchemaError",
    "TargetError",
    "is_schema_file",
    "load_schema_target",
    "load_target",
    "model_from_json_schema",
    "resolve_target",
]

# -- import paths ------------------------------------------------------------------------------------------------


class TargetError(ValueError):
    """A target spec that does not name an importable type."""


def resolve_target(spec: str, *, default_module: str | None = None) -> Any:
    """The type a target spec names: `module:Name` (dotted attributes allowed after the colon), `list[SPEC]`,
    or a bare `Name` looked up in `default_module` (the corpus's own models module)."""
    spec = spec.strip()
    if spec.startswith("list[") and spec.endswith("]"):
        return list[resolve_target(spec[5:-1], default_module=default_module)]  # type: ignore[misc]
    if ":" in spec:
        module_name, _, attr_path = spec.partition(":")
    elif default_module is not None and spec.isidentifier():
        module_name, attr_path = default_module, spec
    else:
        raise TargetError(f"target {spec!r} is not an import path: write it as 'package.module:Name'")
    if not module_name or not attr_path:
        raise TargetError(f"target {spec!r} is not an import path: write it as 'package.module:Name'")
    try:
        obj: Any = importlib.import_module(module_name)
    except SyntaxError as exc:
        where = f"{exc.filename}:{exc.lineno}" if exc.filename else module_name
        raise TargetError(f"target {spec!r}: {where}: syntax error: {exc.msg}") from None
    except ImportError as exc:
        raise TargetError(f"target {spec!r}: cannot import module {module_name!r} ({exc})") from None
    except Exception as exc:  # the module itself raised while it was imported
        raise TargetError(f"target {spec!r}: importing {module_name!r} raised {_one_line(exc)}") from None
    for part in attr_path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise TargetError(f"target {spec!r}: module {module_name!r} has no attribute {attr_path!r}") from None
    return obj


def _one_line(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= 200 else text[:199] + "…"


# -- JSON Schema -------------------------------------------------------------------------------------------------

_ANNOTATION_KEYWORDS = frozenset(
    {
        "title",
        "description",
        "examples",
        "$schema",
        "$id",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "contentMediaType",
        "contentEncoding",
    }
)
_CONSTRAINTS = {
    "minimum": "ge",
    "maximum": "le",
    "exclusiveMinimum": "gt",
    "exclusiveMaximum": "lt",
    "multipleOf": "multiple_of",
    "minLength": "min_length",
    "maxLength": "max_length",
    "pattern": "pattern",
    "minItems": "min_length",
    "maxItems": "max_length",
    "minProperties": "min_length",
    "maxProperties": "max_length",
}
_HANDLED_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "uniqueItems",
        "enum",
        "const",
        "$ref",
        "$defs",
        "definitions",
        "anyOf",
        "oneOf",
        "discriminator",
        "default",
        "format",
        *_CONSTRAINTS,
    }
)
_SCALARS: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None)}
# the string formats Pydantic writes for its own types, read back as those types (other formats are annotations)
_STRING_FORMATS: dict[str, Any] = {
    "date-time": datetime.datetime,
    "date": datetime.date,
    "time": datetime.time,
    "duration": datetime.timedelta,
    "uuid": uuid.UUID,
    "uuid1": UUID1,
    "uuid3": UUID3,
    "uuid4": UUID4,
    "uuid5": UUID5,
    "uri": AnyUrl,
    "ipv4": ipaddress.IPv4Address,
    "ipv6": ipaddress.IPv6Address,
    "ipvanyaddress": IPvAnyAddress,
    "ipvanyinterface": IPvAnyInterface,
    "ipvanynetwork": IPvAnyNetwork,
    "path": pathlib.Path,
}


class SchemaError(ValueError):
    """A JSON Schema construct the CLI cannot turn into a Pydantic model; the message names it and where."""


def _field_name(prop: str, taken: set[str]) -> str:
    """A Python identifier for a property name; the property name itself stays the field's alias."""
    name = prop
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or hasattr(BaseModel, name):
        name = "".join(c if c.isalnum() or c == "_" else "_" for c in name).strip("_") or "field"
        if name[0].isdigit() or keyword.iskeyword(name) or hasattr(BaseModel, name):
            name = f"f_{name}"
    base, n = name, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def _no_duplicates(items: list[Any]) -> list[Any]:
    """`uniqueItems`: a repeated item is refused, not collapsed (collapsing would drop what the text wrote). Items
    compare as JSON, key order ignored, in one pass over them (model output is hostile: no pairwise compare)."""
    seen: set[str] = set()
    for item in items:
        key = json.dumps(to_jsonable_python(item), sort_keys=True)
        if key in seen:
            raise ValueError(f"the array repeats {key[:60]} (uniqueItems)")
        seen.add(key)
    return items


class _SchemaTranslator:
    """Turns one JSON Schema document into Pydantic types, following each `$ref` into `$defs` once.

    A reference back into a definition still being built (recursion) becomes a forward reference, resolved by
    rebuilding every generated model once the whole document is read."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.defs: Mapping[str, Any] = {**root.get("definitions", {}), **root.get("$defs", {})}
        self.built: dict[str, Any] = {}
        self.forward: dict[str, str] = {}  # definition key being built -> the forward name recursion uses
        self.recursive: set[str] = set()  # the definitions a forward name was handed out for
        self.models: list[type[BaseModel]] = []

    def document(self, name: str) -> Any:
        """The type for the whole document, with every recursive reference resolved."""
        tp = self.translate(self.root, "", name)
        if self.recursive:
            namespace = {self.forward[key]: self.built[key] for key in self.recursive}
            try:
                for model in self.models:
                    model.model_rebuild(force=True, _types_namespace=namespace)
                complete = TypeAdapter(tp).pydantic_complete  # a forward name outside every model stays unresolved
            except (PydanticUserError, PydanticSchemaGenerationError, NameError, RecursionError):
                complete = False
            if not complete:
                refs = ", ".join(f"#/$defs/{k}" for k in sorted(self.recursive))
                raise SchemaError(f"/: recursive reference(s) {refs} that no object breaks are not supported")
        return tp

    def translate(self, node: Any, where: str, name: str) -> Any:
        if node is True or node == {}:
            return Any
        if not isinstance(node, Mapping):
            raise SchemaError(f"{where or '/'}: expected a schema object, got {node!r}")
        # an `x-` key is a vendor extension (what `json_schema_extra` adds): an annotation, not a constraint
        unknown = sorted(k for k in set(node) - _HANDLED_KEYWORDS - _ANNOTATION_KEYWORDS if not k.startswith("x-"))
        if unknown:
            raise SchemaError(f"{where or '/'}: unsupported JSON Schema keyword(s) {', '.join(unknown)}")
        if "$ref" in node:
            return self._ref(node["$ref"], where)
        if "const" in node:
            return Literal[node["const"]]
        if "enum" in node:
            values = node["enum"]
            if not isinstance(values, list) or not values:
                raise SchemaError(f"{where}/enum: expected a non-empty list")
            if any(isinstance(v, dict | list) for v in values):
                raise SchemaError(f"{where}/enum: only string, number, boolean and null values are supported")
            return Literal[tuple(values)]
        for combinator in ("anyOf", "oneOf"):
            if combinator in node:
                return self._union(node, combinator, where, name)
        if "discriminator" in node:
            raise SchemaError(f"{where}/discriminator: only supported beside oneOf/anyOf")
        kind = node.get("type")
        if kind is None:
            if "properties" in node:
                kind = "object"
            elif "items" in node or "prefixItems" in node:
                kind = "array"
            else:
                return Any
        if isinstance(kind, list):
            members = [self._typed(node, k, where, name) for k in kind]
            return members[0] if len(members) == 1 else Union[tuple(members)]  # noqa: UP007
        return self._typed(node, kind, where, name)

    def _union(self, node: Mapping[str, Any], combinator: str, where: str, name: str) -> Any:
        """anyOf/oneOf as a union; a `discriminator` (OpenAPI's, which Pydantic writes) is read as an annotation:
        the members' own `const` on the property already tell them apart."""
        options = node[combinator]
        if not isinstance(options, list) or not options:
            raise SchemaError(f"{where}/{combinator}: expected a non-empty list of schemas")
        tag = node.get("discriminator")
        if tag is not None and not (isinstance(tag, Mapping) and isinstance(tag.get("propertyName"), str)):
            raise SchemaError(f"{where}/discriminator: expected an object with a string propertyName")
        members = [self.translate(o, f"{where}/{combinator}/{i}", name) for i, o in enumerate(options)]
        return members[0] if len(members) == 1 else Union[tuple(members)]  # noqa: UP007

    def _ref(self, ref: Any, where: str) -> Any:
        prefixes = ("#/$defs/", "#/definitions/")
        if not isinstance(ref, str) or not ref.startswith(prefixes):
            raise SchemaError(f"{where}/$ref: only local references into $defs are supported, got {ref!r}")
        key = ref.split("/", 2)[2]
        if key not in self.defs:
            raise SchemaError(f"{where}/$ref: {ref!r} is not defined")
        if key in self.built:
            return self.built[key]
        if key in self.forward:  # recursion: resolved when the document is finished
            self.recursive.add(key)
            return ForwardRef(self.forward[key])
        self.forward[key] = f"_rp_def_{len(self.forward)}"
        built = self.built[key] = self.translate(self.defs[key], ref[1:], key)
        return built

    def _typed(self, node: Mapping[str, Any], kind: Any, where: str, name: str) -> Any:
        if kind == "object":
            return self._object(node, where, name)
        if kind == "array":
            return self._array(node, where, name)
        if kind == "string" and node.get("format") in _STRING_FORMATS:
            return self._constrained(_STRING_FORMATS[node["format"]], node, where)
        if kind in _SCALARS:
            return self._constrained(_SCALARS[kind], node, where) if kind != "null" else None
        raise SchemaError(f"{where}/type: unsupported type {kind!r}")

    def _array(self, node: Mapping[str, Any], where: str, name: str) -> Any:
        if "prefixItems" in node:
            prefix = node["prefixItems"]
            if not isinstance(prefix, list) or not prefix:
                raise SchemaError(f"{where}/prefixItems: expected a non-empty list of schemas")
            members = tuple(self.translate(s, f"{where}/prefixItems/{i}", name) for i, s in enumerate(prefix))
            fixed = node.get("items") is False or node.get("maxItems") == len(prefix)
            if not fixed or node.get("minItems") != len(prefix):
                raise SchemaError(
                    f"{where}: only a fixed-length tuple is supported (prefixItems with minItems equal to their "
                    "number, and items: false or the same maxItems)"
                )
            return tuple[members]  # type: ignore[valid-type]
        items = self.translate(node.get("items", True), f"{where}/items", f"{name}Item")
        tp = self._constrained(list[items], node, where)  # type: ignore[valid-type]
        if node.get("uniqueItems") is True:
            tp = Annotated[tp, AfterValidator(_no_duplicates)]
        return tp

    def _constrained(self, tp: Any, node: Mapping[str, Any], where: str) -> Any:
        constraints = {_CONSTRAINTS[k]: node[k] for k in _CONSTRAINTS if k in node}
        if not constraints:
            return tp
        return Annotated[tp, Field(**constraints)]

    def _object(self, node: Mapping[str, Any], where: str, name: str) -> Any:
        props = node.get("properties", {})
        extra = node.get("additionalProperties", None)
        if not isinstance(props, Mapping):
            raise SchemaError(f"{where}/properties: expected an object")
        if not props:
            value_type = (
                Any
                if extra is None or isinstance(extra, bool)
                else self.translate(extra, f"{where}/additionalProperties", name)
            )
            return self._constrained(dict[str, value_type], node, where)  # type: ignore[valid-type]
        if extra is not None and not isinstance(extra, bool):
            raise SchemaError(f"{where}/additionalProperties: only true/false is supported next to properties")
        if "minProperties" in node or "maxProperties" in node:
            raise SchemaError(f"{where}: minProperties/maxProperties are supported on maps only (no properties)")
        required = node.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise SchemaError(f"{where}/required: expected a list of property names")
        fields: dict[str, Any] = {}
        taken: set[str] = set()
        for prop, sub in props.items():
            field_name = _field_name(prop, taken)
            taken.add(field_name)
            sub_where = f"{where}/properties/{prop}"
            tp = self.translate(sub, sub_where, _model_name(prop))
            alias = prop if field_name != prop else None
            if prop in required:
                fields[field_name] = (tp, Field(..., alias=alias))
            else:
                default = sub.get("default") if isinstance(sub, Mapping) else None
                fields[field_name] = (tp, Field(default=default, alias=alias))
        # additionalProperties: false forbids other keys, true (written out) keeps them, absent ignores them
        policy = {None: "ignore", False: "forbid", True: "allow"}[extra]
        config = ConfigDict(extra=policy, populate_by_name=True)  # type: ignore[typeddict-item]
        model_name = _model_name(str(node.get("title") or name))
        model: type[BaseModel] = create_model(model_name, __config__=config, **fields)
        self.models.append(model)
        return model


def _model_name(text: str) -> str:
    name = "".join(part[:1].upper() + part[1:] for part in "".join(c if c.isalnum() else " " for c in text).split())
    return name if name.isidentifier() else f"Model{name}"


def model_from_json_schema(schema: Mapping[str, Any], name: str = "Model") -> Any:
    """A Pydantic type for a JSON Schema document (usually a `BaseModel` subclass); what
    `Model.model_json_schema()` writes is read back as a type that validates the same documents.

    Supported: `type` string/integer/number/boolean/null/array/object (also a list of types, e.g.
    `["string", "null"]`), `properties`, `required`, `additionalProperties` (false forbids other keys, true written
    out keeps them, absent ignores them; a schema for a map without `properties`), `items`, `prefixItems` (a
    fixed-length tuple), `uniqueItems` (a repeated item is refused, not collapsed), `enum`, `const`,
    `anyOf`/`oneOf` (both read as a union; a `{"type": "null"}` member makes the value nullable; a `discriminator`
    beside them is an annotation), `$ref` to `#/$defs/...` or `#/definitions/...`
    (recursion included), `default`, the string formats Pydantic writes for its own types (date-time, date, time,
    duration, uuid*, uri, ipv4/ipv6/ipvany*, path: read as those types; other formats are annotations), and the
    constraints minimum/maximum/exclusiveMinimum/exclusiveMaximum/multipleOf/minLength/maxLength/pattern/
    minItems/maxItems/minProperties/maxProperties. Annotations (title, description, examples, ...) are ignored. A
    property that is not required and has no `default` may be absent (it is left out of the output) but not
    `null` unless its type says so. Anything else (allOf, not, if/then, patternProperties, remote
    refs, ...) raises `SchemaError`.
    """
    if not isinstance(schema, Mapping):
        raise SchemaError("a JSON Schema document must be a JSON object")
    return _SchemaTranslator(schema).document(name)


# -- any spec ----------------------------------------------------------------------------------------------------


def is_schema_file(spec: str) -> bool:
    """Whether a spec names a JSON Schema file rather than an import path: it ends in `.json`, or it is an existing
    file and has no colon."""
    return spec.endswith(".json") or (":" not in spec and Path(spec).is_file())


def load_schema_target(spec: str) -> Any:
    """The Pydantic type for the JSON Schema file `spec`; a file that cannot be read, is not JSON or uses a construct
    outside the supported subset raises `TargetError`."""
    path = Path(spec)
    try:
        schema = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TargetError(f"cannot read the JSON Schema file {spec!r}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise TargetError(f"{spec} is not valid JSON: {exc}") from None
    try:
        return model_from_json_schema(schema, name=_model_name(path.stem) or "Model")
    except SchemaError as exc:
        raise TargetError(f"{spec}: {exc}") from None


def load_target(spec: str, *, default_module: str | None = None) -> tuple[Any, bool]:
    """The type a `--target` spec names and whether it came from a JSON Schema file (whose models dump only the
    fields that were set). Import paths resolve against `sys.path` as it is; raises `TargetError`."""
    if is_schema_file(spec):
        return load_schema_target(spec), True
    return resolve_target(spec, default_module=default_module), False
