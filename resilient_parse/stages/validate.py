"""Validation stage: Pydantic v2 decides; its errors become ours (JSON Pointer, kind, message, got), then the
semantic validators run on the validated object.

What an error says may go to the model, so the text of an exception raised by the user's code — a Pydantic
`field_validator` raising `ValueError`, a semantic validator failing to reach its database — is never its
message: the message says which validator rejected the value, the exception's text goes to `ErrorDetail.cause`
(local error and logs only). A validator that means to tell the model something returns `ErrorDetail`s or raises
a `ParseError` (semantic validators), or raises Pydantic's `PydanticCustomError` (Pydantic validators). A `got`
is shown only where the model wrote that value: a default Pydantic validated is not the model's to see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from resilient_parse.context import SemanticValidator
from resilient_parse.errors import (
    ConfigurationError,
    ErrorDetail,
    InvalidInputError,
    ParseError,
    SchemaMismatchError,
    SemanticCheckError,
    UnrecoverableSyntaxError,
    as_detail,
)
from resilient_parse.repairs import pointer
from resilient_parse.schema import ModelView, TypeView

_SCHEMA_KEYS = frozenset({"properties", "$schema", "$defs", "definitions"})


_USER_CODE_ERRORS = frozenset({"value_error", "assertion_error"})
"""Pydantic error types whose message is the text of an exception the user's validator raised."""
_REJECTED = "a validator rejected the value"


def details_from_validation_error(exc: ValidationError, tree: Any = None) -> list[ErrorDetail]:
    """Pydantic's errors as ours. Locations become JSON Pointers into the candidate: union member tags that
    Pydantic inserts into `loc` (e.g. "Cat", "function-after[...]") are dropped when `tree` shows they are not keys.
    A user validator's exception text becomes the `cause`, and `got` is dropped where `tree` has no such value."""
    details = []
    for err in exc.errors(include_url=False):
        loc = [p for p in err.get("loc", ()) if isinstance(p, int | str)]
        path, written = _real_path(loc, tree)
        kind = str(err.get("type", "invalid"))
        message = str(err.get("msg", ""))
        cause = None
        if kind in _USER_CODE_ERRORS:
            message, cause = _REJECTED, message
        if written or kind == "missing":
            details.append(ErrorDetail(pointer(path), kind, message, got=err.get("input"), cause=cause))
        else:
            details.append(ErrorDetail(pointer(path), kind, message, cause=cause))
    return details


def _real_path(loc: list[int | str], tree: Any) -> tuple[list[int | str], bool]:
    """The pointer into `tree` that `loc` means, and whether the model wrote a value there (without a `tree`,
    the location is taken as it is)."""
    if tree is None:
        return loc, True
    out: list[int | str] = []
    node = tree
    written = True
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(node, dict):
            if part in node:
                node = node[part]
                out.append(part)
            elif last:
                out.append(part)
                written = False
            continue  # a union tag, not a key of the input
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            out.append(part)
        elif last:
            out.append(part)
            written = False
        # otherwise: a union tag under a list or scalar, not a place in the input
    return out, written


def validate_json(adapter: TypeAdapter[Any], json_text: str, tree: Any, view: TypeView) -> Any:
    """Validate repaired JSON text; on failure raise SchemaMismatchError with every problem and its path (or, when
    Pydantic cannot read the JSON the reader read, the error that says why: see `refuse_unreadable`)."""
    try:
        return adapter.validate_json(json_text)
    except RecursionError:
        raise
    except ValidationError as exc:
        refuse_unreadable(exc, tree, json_text)
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
    except Exception as exc:  # a Pydantic validator raised something Pydantic does not catch (e.g. OSError)
        raise SchemaMismatchError(
            f"the JSON does not fit the target: {_REJECTED}",
            [ErrorDetail(path="", kind="validator_error", message=_REJECTED, cause=_describe(exc))],
            candidate=json_text,
        ) from exc


PYDANTIC_MAX_DEPTH = 200
"""How deeply nested a JSON text Pydantic's reader (jiter) takes: deeper is "recursion limit exceeded"."""


def refuse_unreadable(exc: ValidationError, tree: Any, json_text: str) -> None:
    """Raise the error that says what happened when Pydantic refused, as JSON, text the reader read: a lone
    surrogate escape (`\\ud800`: half of a UTF-16 pair, no character) is input no one can take
    (InvalidInputError); nesting past Pydantic's depth is over a limit (UnrecoverableSyntaxError, "too_deep", as
    the reader says past Policy.max_depth). Neither is the target's fault, so neither is a schema mismatch."""
    for error in exc.errors(include_url=False, include_context=False, include_input=False):
        if error["type"] not in ("json_invalid", "string_unicode"):  # (a raw lone surrogate: text UTF-8 cannot hold)
            continue
        message = "surrogate" if error["type"] == "string_unicode" else str(error["msg"])
        if "recursion limit" in message:
            text = f"nesting over {PYDANTIC_MAX_DEPTH} levels deep, more than the validator (Pydantic) reads"
            raise UnrecoverableSyntaxError(
                text, [ErrorDetail(path="", kind="too_deep", message=text)], candidate=json_text
            ) from None
        if "surrogate" in message or "hex escape" in message:
            path = _surrogate_path(tree)
            where = path or "(root)"
            text = f"a lone surrogate at {where}: half of a UTF-16 pair, not a character"
            raise InvalidInputError(
                text, [ErrorDetail(path=path, kind="lone_surrogate", message=text)], candidate=json_text
            ) from None


def _surrogate_path(tree: Any) -> str:
    """The JSON Pointer of the first string (value or key) in `tree` holding a lone surrogate; "" when none."""
    stack: list[tuple[Any, tuple[int | str, ...]]] = [(tree, ())]
    while stack:
        node, loc = stack.pop()
        if isinstance(node, str):
            if _has_surrogate(node):
                return pointer(loc)
        elif isinstance(node, dict):
            for key, value in reversed(node.items()):
                if isinstance(key, str) and _has_surrogate(key):
                    return pointer((*loc, key))
                stack.append((value, (*loc, key)))
        elif isinstance(node, list):
            stack.extend((item, (*loc, i)) for i, item in reversed(list(enumerate(node))))
    return ""


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def looks_like_schema_echo(tree: Any, view: TypeView) -> bool:
    """True when the model answered with a JSON Schema instead of an instance of it."""
    if not isinstance(tree, dict) or not isinstance(tree.get("properties"), dict):
        return False
    if isinstance(view, ModelView) and ("properties" in view.key_to_field or "type" in view.key_to_field):
        return False
    return tree.get("type") == "object" or bool(_SCHEMA_KEYS & set(tree) - {"properties"})


def _describe(exc: BaseException) -> str:
    try:
        return f"{type(exc).__name__}: {exc}"
    except Exception:  # an exception whose __str__ fails still names its type
        return type(exc).__name__


def _validator_name(check: SemanticValidator) -> str:
    return str(getattr(check, "__qualname__", None) or type(check).__name__)


def _as_problems(found: Any, check: SemanticValidator) -> list[ErrorDetail]:
    """What a validator returned, as details: None or nothing, one `ErrorDetail`, or an iterable of them (or of
    the mappings `ErrorDetail.to_dict()` gives)."""
    if found is None:
        return []
    if isinstance(found, ErrorDetail):
        return [found]
    if isinstance(found, str | bytes | Mapping) or not isinstance(found, Iterable):
        raise ConfigurationError(
            f"validator {_validator_name(check)} returned {type(found).__name__}; return ErrorDetail objects or None"
        )
    problems = []
    for item in found:
        if not isinstance(item, ErrorDetail | Mapping):
            raise ConfigurationError(
                f"validator {_validator_name(check)} returned a {type(item).__name__}, not an ErrorDetail"
            )
        problems.append(as_detail(item))
    return problems


def run_semantic_checks(validators: Sequence[SemanticValidator], value: Any, candidate: str | None) -> None:
    """Run each validator; collect every problem; raise one SemanticCheckError naming them all.

    A validator reports on purpose by returning `ErrorDetail`s or raising a `ParseError` (its details are used as
    written). Any other exception is a rejection whose text stays local (`cause`), chained as `__cause__`.
    """
    problems: list[ErrorDetail] = []
    first_raised: Exception | None = None
    for check in validators:
        try:
            problems.extend(_as_problems(check(value), check))
        except ConfigurationError:
            raise
        except ParseError as exc:  # raised on purpose: its details are meant for the model
            problems.extend(exc.details)
        except Exception as exc:  # a broken or failing validator is a failed check, not a crash, and not a leak
            first_raised = first_raised or exc
            name = _validator_name(check)
            problems.append(
                ErrorDetail(
                    path="",
                    kind="validator_error",
                    message=f"the validator {name} rejected the value",
                    cause=_describe(exc),
                )
            )
    if problems:
        first = problems[0]
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SemanticCheckError(
            f"semantic check failed: {first.path or '(root)'}: {first.message}{more}",
            problems,
            candidate=candidate,
        ) from first_raised
