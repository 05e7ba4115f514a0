"""Validation stage: Pydantic v2 decides; its errors become ours (JSON Pointer, kind, message, got), then the
semantic validators run on the validated object."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from resilient_parse.context import SemanticValidator
from resilient_parse.errors import ErrorDetail, SchemaMismatchError, SemanticCheckError
from resilient_parse.repairs import pointer
from resilient_parse.schema import ModelView, TypeView

_SCHEMA_KEYS = frozenset({"properties", "$schema", "$defs", "definitions"})


def details_from_validation_error(exc: ValidationError, tree: Any = None) -> list[ErrorDetail]:
    """Pydantic's errors as ours. Locations become JSON Pointers into the candidate: union member tags that
    Pydantic inserts into `loc` (e.g. "Cat", "function-after[...]") are dropped when `tree` shows they are not keys."""
    details = []
    for err in exc.errors(include_url=False):
        loc = [p for p in err.get("loc", ()) if isinstance(p, int | str)]
        details.append(
            ErrorDetail(
                path=pointer(_real_path(loc, tree)),
                kind=str(err.get("type", "invalid")),
                message=str(err.get("msg", "")),
                got=err.get("input"),
            )
        )
    return details


def _real_path(loc: list[int | str], tree: Any) -> list[int | str]:
    if tree is None:
        return loc
    out: list[int | str] = []
    node = tree
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(node, dict):
            if part in node:
                node = node[part]
                out.append(part)
            elif last:
                out.append(part)
            continue  # a union tag, not a key of the input
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            out.append(part)
        elif last:
            out.append(part)
        # otherwise: a union tag under a list or scalar, not a place in the input
    return out


def validate_json(adapter: TypeAdapter[Any], json_text: str, tree: Any, view: TypeView) -> Any:
    """Validate repaired JSON text; on failure raise SchemaMismatchError with every problem and its path."""
    try:
        return adapter.validate_json(json_text)
    except ValidationError as exc:
        details = details_from_validation_error(exc, tree)
        if looks_like_schema_echo(tree, view):
            raise SchemaMismatchError(
                "the output is a JSON Schema describing the object, not an instance of it",
                [
                    ErrorDetail(
                        path="",
                        kind="schema_echo",
                        message="expected an instance of the schema, got the schema itself",
                    )
                ],
                candidate=json_text,
            ) from None
        count = len(details)
        first = details[0]
        where = first.path or "(root)"
        more = f" (+{count - 1} more)" if count > 1 else ""
        raise SchemaMismatchError(
            f"the JSON does not fit the target: {where}: {first.message}{more}", details, candidate=json_text
        ) from None


def looks_like_schema_echo(tree: Any, view: TypeView) -> bool:
    """True when the model answered with a JSON Schema instead of an instance of it."""
    if not isinstance(tree, dict) or not isinstance(tree.get("properties"), dict):
        return False
    if isinstance(view, ModelView) and ("properties" in view.key_to_field or "type" in view.key_to_field):
        return False
    return tree.get("type") == "object" or bool(_SCHEMA_KEYS & set(tree) - {"properties"})


def run_semantic_checks(validators: Sequence[SemanticValidator], value: Any, candidate: str | None) -> None:
    """Run each validator; collect every problem; raise one SemanticCheckError naming them all."""
    problems: list[ErrorDetail] = []
    for check in validators:
        try:
            found: Iterable[ErrorDetail] | None = check(value)
            problems.extend(found or ())
        except Exception as exc:  # a broken validator is reported as a failed check, not a crash
            name = getattr(check, "__qualname__", type(check).__name__)
            problems.append(
                ErrorDetail(
                    path="",
                    kind="validator_error",
                    message=f"validator {name} raised {type(exc).__name__}: {exc}",
                )
            )
    if problems:
        first = problems[0]
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SemanticCheckError(
            f"semantic check failed: {first.path or '(root)'}: {first.message}{more}",
            problems,
            candidate=candidate,
        )
