"""What a plain reading is and gives: its target, the values it mentions, and the candidate or error it ends in."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from resilient_parse.context import CallContext, Candidate
from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, ParseError, UnrecoverableSyntaxError
from resilient_parse.repairs import Repair
from resilient_parse.schema import ChoiceView, ListView, ScalarView, TypeView, UnionView

SOURCE = "plain"
_NUMERIC_TYPES = (int, float, Decimal)


@dataclass(frozen=True)
class Reading:
    """What the plain text gives for the target: candidates, or the error that explains why there is none
    (None when the text is not a plain answer at all, e.g. it holds JSON)."""

    candidates: tuple[Candidate, ...] = ()
    error: ParseError | None = None


@dataclass(frozen=True)
class _Target:
    kind: str  # "bool", "number", "str", "choice"
    view: TypeView
    nullable: bool = False


@dataclass(frozen=True)
class _Mention:
    value: Any  # what it means (numbers as Decimal, so 12,111 and 12111 are one value)
    raw: str
    start: int
    end: int
    exact: bool = False  # the JSON value's own spelling (no case change, no name)
    written: Any = None  # what the candidate writes: the JSON value, or a number's text for coercion ("12,111")
    signed: bool = False  # a number whose sign is written before it ("-5", "minus 5")
    number: bool = False  # digits (a number, or a choice's numeric member)
    sign_doubt: bool = False  # a minus word before it is part of a longer phrase: its sign is not known


class _Refused(Exception):
    """A mention that cannot honestly be read (an unclear separator, a sign the choices do not have)."""

    def __init__(self, error: ParseError) -> None:
        super().__init__(str(error))
        self.error = error


def _scalar_target(view: TypeView) -> _Target | None:
    nullable = False
    if isinstance(view, UnionView):
        if len(view.options) != 1:
            return None
        nullable, view = view.nullable, view.options[0]
    if isinstance(view, ChoiceView):
        return _Target("choice", view, nullable) if _choice_values(view) else None
    if isinstance(view, ScalarView) and view.py_type in _NUMERIC_TYPES and view.py_type is not bool:
        return _Target("number", view, nullable)
    if isinstance(view, ScalarView):
        if view.py_type is bool:
            return _Target("bool", view, nullable)
        if view.py_type is str:
            return _Target("str", view, nullable)
    return None


def _choice_values(view: ChoiceView) -> list[Any]:
    values = [v.value if isinstance(v, enum.Enum) else v for v in view.values]
    return [v for v in values if isinstance(v, str | int) and not isinstance(v, bool)]


def plain_target(view: TypeView) -> tuple[_Target, bool] | None:
    """The scalar/choice target a plain answer may be read for, and whether a list of it is wanted."""
    if isinstance(view, ListView):
        item = _scalar_target(view.item)
        return (item, True) if item is not None and not item.nullable else None
    found = _scalar_target(view)
    return (found, False) if found is not None else None


def _value_key(value: Any) -> tuple[Any, Any]:
    """A key equal for two values exactly when `_same_value` says they are the same."""
    return ("number", value) if isinstance(value, Decimal) else (type(value), value)


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, Decimal) and isinstance(b, Decimal):
        return a == b
    return type(a) is type(b) and a == b


def _offer(value: Any, text: str, start: int, end: int, kind: str, ctx: CallContext, refusal_at: int) -> Reading:
    """One candidate writing `value` as JSON, or the error saying the policy does not allow this reading."""
    before = text[start:end]
    repair = Repair.make(kind, "", before, value, offset=start)
    if not ctx.policy.allows(kind, repair.lossless):
        if refusal_at >= 0:
            return Reading()  # refused by the model before the policy had a say: the refusal explains it
        message = f"reading the plain-text answer {before[:60]!r} is a lossy repair ({kind}) the policy refuses"
        return Reading(
            error=UnrecoverableSyntaxError(
                message, [ErrorDetail(path="", kind="repair_not_allowed", message=message, offset=start)]
            )
        )
    body = json.dumps(value, ensure_ascii=False)
    return Reading((Candidate(body, start, end, SOURCE, 0, 1 << 20, (repair,), refusal_at=refusal_at),))


def _ambiguous(message: str, path: str, kind: str, at: _Mention, named: list[str] | None = None) -> ParseError:
    got = named if named is not None else at.raw
    return AmbiguousMatchError(message, [ErrorDetail(path=path, kind=kind, message=message, got=got, offset=at.start)])
