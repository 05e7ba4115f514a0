"""The `resilient-parse` command: parse one output from a file or stdin, benchmark a corpus, measure speed.

    resilient-parse parse reply.txt --target myapp.models:ToolCall --report
    resilient-parse parse - --target schema.json --mode strict < reply.txt
    resilient-parse bench                      # the bundled default corpus, our parser and every installed peer
    resilient-parse speed                      # throughput against json.loads, validate_json and json-repair

Exit codes: 0 success, 1 the text could not be parsed (the errors are printed as JSON), 2 bad usage.
`--target` is an import path (`module:Name`, `list[module:Name]`) or a JSON Schema file; see
`model_from_json_schema` for the supported subset.
"""

from __future__ import annotations

import argparse
import importlib
import json
import keyword
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from resilient_parse.errors import ConfigurationError, ParseError
from resilient_parse.parser import Parser

PROG = "resilient-parse"


class UsageError(Exception):
    """The command line was wrong: the message says what to fix; the command exits 2."""


# -- targets: import paths ----------------------------------------------------------------------------------------


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
    except ImportError as exc:
        raise TargetError(f"target {spec!r}: cannot import module {module_name!r} ({exc})") from None
    for part in attr_path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise TargetError(f"target {spec!r}: module {module_name!r} has no attribute {attr_path!r}") from None
    return obj


# -- targets: JSON Schema -----------------------------------------------------------------------------------------

_ANNOTATION_KEYWORDS = frozenset(
    {"title", "description", "examples", "$schema", "$id", "$comment", "format", "deprecated", "readOnly"}
)
_CONSTRAINTS = {
    "minimum": "ge",
    "maximum": "le",
    "exclusiveMinimum": "gt",
    "exclusiveMaximum": "lt",
    "minLength": "min_length",
    "maxLength": "max_length",
    "pattern": "pattern",
    "minItems": "min_length",
    "maxItems": "max_length",
}
_HANDLED_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "$ref",
        "$defs",
        "definitions",
        "anyOf",
        "oneOf",
        "default",
        *_CONSTRAINTS,
    }
)
_SCALARS: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None)}


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


class _SchemaTranslator:
    """Turns one JSON Schema document into Pydantic types, following `$ref`s into `$defs` once each."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.defs: Mapping[str, Any] = {**root.get("definitions", {}), **root.get("$defs", {})}
        self.built: dict[str, Any] = {}
        self.building: set[str] = set()

    def translate(self, node: Any, where: str, name: str) -> Any:
        if node is True or node == {}:
            return Any
        if not isinstance(node, Mapping):
            raise SchemaError(f"{where or '/'}: expected a schema object, got {node!r}")
        unknown = sorted(set(node) - _HANDLED_KEYWORDS - _ANNOTATION_KEYWORDS)
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
                options = node[combinator]
                if not isinstance(options, list) or not options:
                    raise SchemaError(f"{where}/{combinator}: expected a non-empty list of schemas")
                members = [self.translate(o, f"{where}/{combinator}/{i}", name) for i, o in enumerate(options)]
                return members[0] if len(members) == 1 else Union[tuple(members)]  # noqa: UP007
        kind = node.get("type")
        if kind is None:
            if "properties" in node:
                kind = "object"
            else:
                return Any
        if isinstance(kind, list):
            members = [self._typed(node, k, where, name) for k in kind]
            return members[0] if len(members) == 1 else Union[tuple(members)]  # noqa: UP007
        return self._typed(node, kind, where, name)

    def _ref(self, ref: Any, where: str) -> Any:
        prefixes = ("#/$defs/", "#/definitions/")
        if not isinstance(ref, str) or not ref.startswith(prefixes):
            raise SchemaError(f"{where}/$ref: only local references into $defs are supported, got {ref!r}")
        key = ref.split("/", 2)[2]
        if key not in self.defs:
            raise SchemaError(f"{where}/$ref: {ref!r} is not defined")
        if key in self.built:
            return self.built[key]
        if key in self.building:
            raise SchemaError(f"{where}/$ref: recursive reference {ref!r} is not supported")
        self.building.add(key)
        built = self.translate(self.defs[key], ref[1:], key)
        self.building.discard(key)
        self.built[key] = built
        return built

    def _typed(self, node: Mapping[str, Any], kind: Any, where: str, name: str) -> Any:
        if kind == "object":
            return self._object(node, where, name)
        if kind == "array":
            items = self.translate(node.get("items", True), f"{where}/items", f"{name}Item")
            return self._constrained(list[items], node, where)  # type: ignore[valid-type]
        if kind in _SCALARS:
            return self._constrained(_SCALARS[kind], node, where) if kind != "null" else None
        raise SchemaError(f"{where}/type: unsupported type {kind!r}")

    def _constrained(self, tp: Any, node: Mapping[str, Any], where: str) -> Any:
        constraints = {_CONSTRAINTS[k]: node[k] for k in _CONSTRAINTS if k in node}
        if not constraints:
            return tp
        return Annotated[tp, Field(**constraints)]

    def _object(self, node: Mapping[str, Any], where: str, name: str) -> Any:
        props = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        if not isinstance(props, Mapping):
            raise SchemaError(f"{where}/properties: expected an object")
        if not props:
            value_type = (
                Any if isinstance(extra, bool) else self.translate(extra, f"{where}/additionalProperties", name)
            )
            return dict[str, value_type]  # type: ignore[valid-type]
        if not isinstance(extra, bool):
            raise SchemaError(f"{where}/additionalProperties: only true/false is supported next to properties")
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
        config = ConfigDict(extra="forbid" if extra is False else "ignore", populate_by_name=True)
        model_name = _model_name(str(node.get("title") or name))
        return create_model(model_name, __config__=config, **fields)


def _model_name(text: str) -> str:
    name = "".join(part[:1].upper() + part[1:] for part in "".join(c if c.isalnum() else " " for c in text).split())
    return name if name.isidentifier() else f"Model{name}"


def model_from_json_schema(schema: Mapping[str, Any], name: str = "Model") -> Any:
    """A Pydantic type for a JSON Schema document (usually a `BaseModel` subclass).

    Supported: `type` string/integer/number/boolean/null/array/object (also a list of types, e.g.
    `["string", "null"]`), `properties`, `required`, `additionalProperties` (true/false, or a schema for a map
    without `properties`), `items`, `enum`, `const`, `anyOf`/`oneOf` (both read as a union; a `{"type": "null"}`
    member makes the value nullable), `$ref` to `#/$defs/...` or `#/definitions/...` (not recursive), `default`,
    and the constraints minimum/maximum/exclusiveMinimum/exclusiveMaximum/minLength/maxLength/pattern/
    minItems/maxItems. Annotations (title, description, examples, format, ...) are ignored. A property that is
    not required and has no `default` may be absent (it is left out of the output) but not `null` unless its
    type says so. Anything else (allOf, not, if/then, patternProperties, remote refs, ...) raises `SchemaError`.
    """
    if not isinstance(schema, Mapping):
        raise SchemaError("a JSON Schema document must be a JSON object")
    return _SchemaTranslator(schema).translate(schema, "", name)


# -- commands -----------------------------------------------------------------------------------------------------


def _load_target(spec: str) -> tuple[Any, bool]:
    """The target type and whether it came from a JSON Schema file."""
    path = Path(spec)
    if spec.endswith(".json") or (path.is_file() and ":" not in spec):
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise UsageError(f"cannot read the JSON Schema file {spec!r}: {exc.strerror or exc}") from None
        except json.JSONDecodeError as exc:
            raise UsageError(f"{spec} is not valid JSON: {exc}") from None
        try:
            return model_from_json_schema(schema, name=_model_name(path.stem) or "Model"), True
        except SchemaError as exc:
            raise UsageError(f"{spec}: {exc}") from None
    if os.getcwd() not in sys.path:  # console scripts do not put the working directory on the path; `python -m` does
        sys.path.insert(0, os.getcwd())
    try:
        return resolve_target(spec), False
    except TargetError as exc:
        raise UsageError(str(exc)) from None


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {source!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{source!r} is not UTF-8 text: {exc}") from None


def _read_aliases(path: str | None) -> dict[str, str] | None:
    if path is None:
        return None
    try:
        table = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read the aliases file {path!r}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"the aliases file {path!r} is not valid JSON: {exc}") from None
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise UsageError(f'the aliases file {path!r} must be a JSON object of "key the model writes": "field name"')
    return table


def _print_json(value: Any, stream: Any = None) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False), file=stream or sys.stdout)


def cmd_parse(args: argparse.Namespace) -> int:
    """Parse one model output and print the recovered object as JSON (exit 0) or the errors as JSON (exit 1)."""
    target, from_schema = _load_target(args.target)
    aliases = _read_aliases(args.aliases)
    text = _read_text(args.file)
    try:
        parser = Parser(mode=args.mode)
        result = parser.parse_result(text, target, aliases=aliases)
    except ConfigurationError as exc:
        raise UsageError(str(exc)) from None
    except ParseError as err:
        _print_json(err.to_dict())
        if args.report:
            for attempt in err.attempts:
                print(f"attempt: {attempt}", file=sys.stderr)
        return 1
    adapter: TypeAdapter[Any] = TypeAdapter(target)
    _print_json(adapter.dump_python(result.value, mode="json", by_alias=True, exclude_unset=from_schema))
    if args.report:
        if result.repairs:
            print(f"{len(result.repairs)} repair(s), mode {result.mode}:", file=sys.stderr)
            for repair in result.repairs:
                print(f"  [{repair.stage}] {repair}", file=sys.stderr)
        else:
            print(f"no repairs: the input was valid JSON for the target (mode {result.mode})", file=sys.stderr)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Run corpora through our parser and the installed peers; print the comparison."""
    runner = importlib.import_module("benchmarks.runner")
    code: int = runner.main(args)
    return code


def cmd_speed(args: argparse.Namespace) -> int:
    """Throughput on valid and broken documents against json.loads, validate_json and json-repair."""
    speed = importlib.import_module("benchmarks.speed")
    code: int = speed.main(args)
    return code


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    top = _ArgumentParser(prog=PROG, description="Turn LLM output into typed objects; benchmark the recovery.")
    sub = top.add_subparsers(dest="command", metavar="{parse,bench,speed}", parser_class=_ArgumentParser)

    p = sub.add_parser("parse", help="parse one model output into a target type")
    p.add_argument("file", nargs="?", default="-", help="the model output (a file, or - for stdin; default -)")
    p.add_argument("--target", "-t", required=True, help="module:Model, list[module:Model], or a JSON Schema file")
    p.add_argument("--mode", choices=("strict", "lenient"), default="lenient", help="repair policy (default lenient)")
    p.add_argument("--aliases", metavar="FILE.json", help='JSON object {"key the model writes": "field name"}')
    p.add_argument("--report", action="store_true", help="print every repair (to stderr)")
    p.set_defaults(func=cmd_parse)

    b = sub.add_parser("bench", help="benchmark recovery on corpora against peer libraries")
    b.add_argument("corpus", nargs="*", help="JSONL corpus files (default: the bundled corpus)")
    b.add_argument("--systems", help="comma-separated systems (default: all installed); see --list-systems")
    b.add_argument("--list-systems", action="store_true", help="list the systems and whether they are installed")
    b.add_argument(
        "--mode", choices=("strict", "lenient", "both"), default="both", help="which of our modes to run (default both)"
    )
    b.add_argument("--json", metavar="OUT", help="write every figure and per-case outcome as JSON")
    b.add_argument("--html", metavar="OUT", help="write a self-contained HTML report with charts")
    b.add_argument("--timeout", type=float, default=5.0, metavar="S", help="per-case timeout in seconds (default 5)")
    b.add_argument("--category", action="append", help="only run cases of this category (repeatable)")
    b.add_argument("--show-failures", action="store_true", help="list each case our parser got wrong")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(func=cmd_bench)

    s = sub.add_parser("speed", help="throughput against json.loads, TypeAdapter.validate_json and json-repair")
    s.add_argument("--sizes", help="comma-separated document sizes, e.g. 2KB,10KB,1MB (default 2KB..4MB)")
    s.add_argument("--budget", type=float, default=1.0, metavar="S", help="seconds per measurement (default 1)")
    s.add_argument("--json", metavar="OUT", help="write the figures as JSON")
    s.add_argument("--profile", action="store_true", help="cProfile our parser on the largest broken document")
    s.set_defaults(func=cmd_speed)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args.func(args)
    except UsageError as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `resilient-parse ... | head`
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
