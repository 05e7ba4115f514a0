"""The message that tells a model what was wrong with its answer, condensed so a retry costs few tokens.

Errors are de-duplicated and shown as JSON Pointers, with the offending value only when it is short; at most
`MAX_ERRORS` are listed. The model's previous output is shown as we repaired it (not an annotated copy), and the
schema only for the failing paths.

Feedback carries only what the model wrote, the schema's shape and the messages of the parser and of validators
that mean to be read (see `stages.validate`): never a schema's `default` or `examples` values (a default may be
an API key), never an `ErrorDetail.cause`, never an internal error's text. Every line is capped, and lone
surrogates are escaped, so the message is bounded and always valid UTF-8.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from resilient_parse.repairs import split_pointer
from resilient_parse.safe_text import escape_surrogates

if TYPE_CHECKING:  # the error types, for annotations: the errors module asks this one for `feedback()` of its errors
    from resilient_parse.errors import ErrorDetail, ResilientParseError

MAX_ERRORS = 10
MAX_GOT_CHARS = 60
MAX_CANDIDATE_CHARS = 6000
MAX_LINE_CHARS = 400
_INTERNAL = "the parser could not process this value"


def _message(d: ErrorDetail) -> str:
    """What the model may read of a detail: an internal error's message is the text of a foreign exception."""
    return _INTERNAL if d.kind == "internal" else d.message


def _got(value: Any) -> str | None:
    try:
        got = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None  # not JSON: not something the model wrote
    return got if len(got) <= MAX_GOT_CHARS else None


def excerpt(text: str, limit: int = MAX_CANDIDATE_CHARS) -> str:
    """`text`, or its first `limit` characters and how many more were cut: what we echo of model text is bounded."""
    return text if len(text) <= limit else f"{text[:limit]} … ({len(text) - limit} more characters cut)"


def condense(details: tuple[ErrorDetail, ...] | list[ErrorDetail]) -> list[str]:
    """One line per distinct problem: `/steps/2/id: Field required (got: ...)`, each at most `MAX_LINE_CHARS`."""
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()
    for d in details:
        message = _message(d)
        key = (d.path, message)
        if key in seen:
            continue
        seen.add(key)
        line = f"{d.path or '/'}: {message}"
        got = _got(d.got) if d.has_got and d.kind != "missing" else None
        if got is not None:
            line += f" (got {got})"
        lines.append(escape_surrogates(excerpt(line, MAX_LINE_CHARS)))
    if len(lines) > MAX_ERRORS:
        extra = len(lines) - MAX_ERRORS
        lines = [*lines[:MAX_ERRORS], f"(+{extra} more)"]
    return lines


_NO_SCHEMA_KINDS = frozenset({"syntax", "truncated", "trailing_text", "model_refused", "malformed_response"})
_INDEX = re.compile(r"/\d+(?=/|$)")
# The one filter for every schema the library shows anyone (feedback, `instructions="schema"`, tool definitions):
# JSON Schema's keywords of shape, and nothing else. Titles are noise; `default`, `examples` and every key a
# model adds with `json_schema_extra` (`x-internal`, a note, a token) are values that may be secrets, so they are
# left out by not being listed here rather than by being named.
_SCHEMAS = frozenset(
    {"items", "additionalProperties", "additionalItems", "propertyNames", "contains", "not", "if", "then", "else"}
    | {"unevaluatedProperties", "unevaluatedItems"}
)  # a schema (or a bool)
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas"})  # names -> schemas
_VERBATIM = frozenset({"enum", "const", "required", "dependentRequired"})  # allowed values and names: shape
_SCALARS = frozenset(
    {"type", "format", "pattern", "description", "nullable", "readOnly", "writeOnly", "deprecated"}
    | {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength"}
    | {"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "minContains", "maxContains"}
    | {"contentMediaType", "contentEncoding"}
)
_MAX_INLINE_DEPTH = 6


def _pointer_order(path: str) -> list[tuple[int, int | str]]:
    """Document order for pointers: /steps/2 before /steps/10."""
    return [(0, int(p)) if p.isdigit() else (1, p) for p in split_pointer(path)]


def _resolve(node: Any, defs: dict[str, Any]) -> Any:
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 20:
        node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
        seen += 1
    return node


def _inline(node: Any, defs: dict[str, Any] | None, depth: int) -> Any:
    """`node` through the filter: only the keywords above, each read for what it holds. With `defs`, `$ref`s are
    inlined (past `_MAX_INLINE_DEPTH` only type, enum and const are kept); with None they stay `$ref`s."""
    if defs is not None:
        node = _resolve(node, defs)
    if isinstance(node, bool):
        return node
    if isinstance(node, list):  # `items` as a list of schemas (tuple validation before prefixItems)
        return [_inline(item, defs, depth) for item in node]
    if not isinstance(node, dict):
        return {}
    if defs is not None and depth > _MAX_INLINE_DEPTH:
        return {k: v for k, v in node.items() if k in ("type", "enum", "const")}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _VERBATIM or (key in _SCALARS and not isinstance(value, dict)):
            out[key] = value
        elif key in _SCHEMAS:
            out[key] = _inline(value, defs, depth + 1)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_inline(item, defs, depth + 1) for item in value]
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _inline(sub, defs, depth + 1) for name, sub in value.items()}
        elif key == "$ref" and defs is None and isinstance(value, str):
            out[key] = value
    return out


def schema_shape(schema: dict[str, Any], *, inline: bool = True) -> Any:
    """A JSON Schema as the model may see it, the one filter every schema shown goes through: JSON Schema's
    keywords of shape only — no titles, no `default`/`examples` values (a default may be an API key), no
    `json_schema_extra` keys. `$ref`s are inlined (`inline=True`, for feedback and instructions), or kept with the
    `$defs` they point to, filtered too (`inline=False`, for tool definitions: a recursive model stays exact).
    Plugins that show a schema in feedback (e.g. a tool's arguments) use this."""
    defs = schema.get("$defs")
    defs = defs if isinstance(defs, dict) else {}
    if inline:
        return _inline(schema, defs, 0)
    out = _inline(schema, None, 0)
    if defs:
        out["$defs"] = {name: _inline(sub, None, 0) for name, sub in defs.items()}
    return out


def schema_for_paths(target: Any, paths: list[str]) -> dict[str, Any]:
    """The `schema_shape` of the fields at the failing paths (keyed by pointer), so the model sees just what the
    failing values must look like. Unknown paths are skipped."""
    try:
        full = TypeAdapter(target).json_schema()
    except Exception:  # a target Pydantic cannot describe: give no schema rather than fail the feedback
        return {}
    defs = full.get("$defs", {})

    def step(node: Any, part: str) -> Any:
        node = _resolve(node, defs)
        if not isinstance(node, dict):
            return None
        for branch in node.get("anyOf") or node.get("oneOf") or ():
            found = step(branch, part)
            if found is not None:
                return found
        if part.isdigit() and isinstance(node.get("items"), dict):
            return node["items"]
        if part.isdigit() and isinstance(node.get("prefixItems"), list) and int(part) < len(node["prefixItems"]):
            return node["prefixItems"][int(part)]
        properties = node.get("properties")
        if isinstance(properties, dict) and part in properties:
            return properties[part]
        if isinstance(node.get("additionalProperties"), dict):
            return node["additionalProperties"]
        return None

    out: dict[str, Any] = {}
    shown: set[str] = set()
    for path in paths:
        shape = _INDEX.sub("/*", path)
        if shape in shown:  # /steps/0/id and /steps/3/id share one schema: show it once
            continue
        shown.add(shape)
        node: Any = full
        for part in split_pointer(path):
            node = step(node, part)
            if node is None:
                break
        slim = _inline(node, defs, 0) if node is not None else None
        if isinstance(slim, dict) and slim:
            out[path or "/"] = slim
    return out


def _instruction(target: Any) -> str:
    try:
        kind = TypeAdapter(target).json_schema().get("type") if target is not None else None
    except Exception:
        kind = None
    what = "JSON array" if kind == "array" else "JSON object" if kind in ("object", None) else "JSON value"
    return f"Reply with the complete corrected {what} only, no prose and no code fences."


def format_feedback(failure: ResilientParseError, candidate: str | None, target: Any = None) -> str:
    """The built-in feedback: condensed errors, the previous output (when given), the schema of the failing paths,
    and one plain instruction as the last paragraph (plugins may insert blocks before it)."""
    lines = ["Your previous answer could not be used:"]
    lines.extend(f"- {line}" for line in condense(failure.details))
    if candidate:
        lines += ["", "Your previous output (as we read it):", excerpt(candidate)]
    schema: dict[str, Any] = {}
    if target is not None:
        paths = sorted({d.path for d in failure.details if d.kind not in _NO_SCHEMA_KINDS}, key=_pointer_order)
        schema = schema_for_paths(target, paths[:MAX_ERRORS]) if paths else {}
        if schema:
            lines += ["", "The schema at those paths:", json.dumps(schema, ensure_ascii=False, indent=None)]
    lines += ["", _instruction(target)]
    return escape_surrogates("\n".join(lines))
