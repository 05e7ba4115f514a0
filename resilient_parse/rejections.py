"""The errors the pipeline raises when it turns something away, worded in one place.

An input it does not take, a repair the policy forbids, values the conform walk would not guess, several values
where the target takes one, and an output cut inside a literal."""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from resilient_parse.context import Candidate
from resilient_parse.errors import (
    AmbiguousMatchError,
    ErrorDetail,
    InputTooLargeError,
    InvalidInputError,
    ParseError,
    SchemaMismatchError,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)
from resilient_parse.policy import Policy
from resilient_parse.repairs import Repair, kind_info

if TYPE_CHECKING:
    from resilient_parse.target_plan import TargetPlan

__all__ = ["check_input", "check_policy", "cut_literal", "refusal_error", "refuse_values_for_one"]

_JSON_SPACE = " \t\r\n"  # the white space JSON allows around a value (str.strip() would take more)
_LITERALS = ("null", "true", "false")
_KIND_AND_LOSSLESS = operator.attrgetter("kind", "lossless")


def check_input(text: Any, policy: Policy) -> str:
    """The model's output as str, or the InvalidInputError or InputTooLargeError that refuses it."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInputError(
                f"the input bytes are not valid UTF-8 (offset {exc.start})",
                [ErrorDetail(path="", kind="invalid_utf8", message=str(exc), offset=exc.start)],
            ) from None
    if not isinstance(text, str):
        raise InvalidInputError(
            f"expected the model's output as str or bytes, got {type(text).__name__}",
            [ErrorDetail(path="", kind="invalid_input", message=f"got {type(text).__name__}")],
        )
    check_size(len(text), policy)
    return text


def check_size(length: int, policy: Policy) -> None:
    """The InputTooLargeError for an output (a text, or a reply's text and calls together) over the limit."""
    limit = policy.max_input_chars
    if length > limit:
        raise InputTooLargeError(
            f"the input has {length:,} characters, over the limit of {limit:,} (Policy.max_input_chars)",
            [ErrorDetail(path="", kind="input_too_large", message=f"{length} > {limit} characters")],
        )


def check_policy(repairs: Sequence[Repair], cand: Candidate, policy: Policy) -> None:
    """Raise the UnrecoverableSyntaxError naming each repair the policy does not allow (made in `cand`)."""
    # a reader's trace holds one repair per token but few kinds: each (kind, lossless) pair is asked once
    allows = policy.allows
    if all(allows(kind, lossless) for kind, lossless in set(map(_KIND_AND_LOSSLESS, repairs))):
        return
    refused = [r for r in repairs if not allows(r.kind, r.lossless)]
    if refused:
        first = refused[0]
        raise UnrecoverableSyntaxError(
            f"repair {first.kind!r} at {first.path or '(root)'} is not allowed by the {policy.name} policy",
            [
                ErrorDetail(
                    path=r.path,
                    kind="repair_not_allowed",
                    message=f"{r.kind} is not allowed" + _described(r.kind),
                    offset=r.offset,
                )
                for r in refused
            ],
        )


def refusal_error(errors: list[ErrorDetail], json_text: str, repairs: list[Repair]) -> ParseError:
    """The error for the values the conform walk refused to guess at: ambiguous, or not matching the schema."""
    first = errors[0]
    ambiguous = any(e.kind.startswith("ambiguous") or e.kind.startswith("hedged") for e in errors)
    cls = AmbiguousMatchError if ambiguous else SchemaMismatchError
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    return cls(f"{first.path or '(root)'}: {first.message}{more}", errors, candidate=json_text, repairs=repairs)


def _described(kind: str) -> str:
    """ ": " and what the repair kind does, for an error that refuses it ("" for a kind no table describes)."""
    info = kind_info(kind)
    return f": {info.description}" if info is not None else ""


def cut_literal(text: str) -> TruncatedOutputError | None:
    """The error for an output that is only the front of a JSON literal (`nul`, `tru`, `fals`): output cut off
    mid-value, not an output without JSON. One letter (`n`, `t`, `f`) is too little to say so."""
    body = text.strip(_JSON_SPACE)
    if len(body) < 2:
        return None
    literal = next((word for word in _LITERALS if len(body) < len(word) and word.startswith(body)), None)
    if literal is None:
        return None
    offset = len(text) - len(text.lstrip(_JSON_SPACE))
    message = f"the output ends inside a literal (`{body}`, the front of `{literal}`)"
    detail = ErrorDetail(path="", kind="truncated", message=message, offset=offset)
    return TruncatedOutputError(f"{message} (offset {offset})", [detail])


def refuse_values_for_one(text: str, plan: TargetPlan, policy: Policy, failure: UnrecoverableSyntaxError) -> None:
    """When the text the reader stopped in ("unexpected text after the end of the JSON value") is several JSON
    values separated by commas (`"a", "b"`, `[1], [2]`) and the target does not take them as a list, the fault is
    the target's shape, not the syntax: raise that SchemaMismatchError. Otherwise return (the syntax error
    stands: a list target still needs its brackets where the policy does not add them)."""
    from resilient_parse.stages.validate import validate_json

    try:
        values = json.loads("[" + text + "]")
    except (ValueError, RecursionError):
        return
    # a value that fits, or a container the policy may unwrap to fit, is a candidate of its own: selection weighs it
    unwraps = policy.allows("unwrap_list", False) or policy.allows("unwrap_wrapper", False)
    if len(values) < 2 or any(_fits(plan, v) or (unwraps and isinstance(v, dict | list)) for v in values):
        return
    listed = json.dumps(values, ensure_ascii=False)
    try:
        validate_json(plan.adapter, listed, values, plan.view)
    except SchemaMismatchError as exc:
        exc.message = f"the output is {len(values)} JSON values separated by commas; {exc.message}"
        exc.args = (exc.message,)
        raise exc from failure
    except ParseError:
        return


def _fits(plan: TargetPlan, value: Any) -> bool:
    try:
        plan.adapter.validate_json(json.dumps(value, ensure_ascii=False))
    except (ValidationError, ValueError):
        return False
    return True
