"""The error-driven second pass: after Pydantic rejects a tree, offer each rejected value to the coercion hook.

The first pass only coerces values that do not fit their type (a str where an int belongs). Some values fit by
type and still fail — a date in a format Pydantic does not read, a step id "s2" against a `^S\\d+$` pattern — and
only Pydantic's verdict reveals them. This pass resolves each failing JSON Pointer in the tree and in the schema
view, asks `rp_coerce_value` once, and edits the tree copy-on-write (each container copied once, however many
values inside it change). Nothing is retried more than once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.errors import ErrorDetail
from resilient_parse.repairs import Repair, split_pointer
from resilient_parse.schema import DictView, FieldView, ListView, ModelView, TupleView, TypeView, UnionView

CoerceValue = Callable[[Any, TypeView, "FieldView | None", str, CallContext], "Coercion | None"]
_ABSENT = object()


@dataclass
class Revisit:
    tree: Any
    repairs: list[Repair] = field(default_factory=list)
    refusals: list[ErrorDetail] = field(default_factory=list)


def resolve(tree: Any, view: TypeView, parts: list[str]) -> tuple[Any, TypeView | None, FieldView | None]:
    """The value and the expected view at a pointer; the value is `_ABSENT` when the path does not exist."""
    node: Any = tree
    current: TypeView | None = view
    fld: FieldView | None = None
    for part in parts:
        if isinstance(current, UnionView):
            current = current.options[0] if len(current.options) == 1 else None
        if isinstance(node, dict) and part in node:
            node = node[part]
            if isinstance(current, ModelView):
                fld = current.field_for_key(part)
                current = fld.type if fld is not None else None
            elif isinstance(current, DictView):
                current, fld = current.value, None
            else:
                current, fld = None, None
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
            if isinstance(current, ListView):
                current, fld = current.item, None
            elif isinstance(current, TupleView) and int(part) < len(current.items):
                current, fld = current.items[int(part)], None
            else:
                current, fld = None, None
        else:
            return _ABSENT, None, None
    return node, current, fld


class CopyOnWrite:
    """A tree edited in place at pointers, whose containers on an edited path are copied the first time only.

    Copying the path afresh for every edit made N edits inside one list cost N copies of the list (quadratic);
    here each container of the input is copied at most once, and the copies (which this class owns) are edited
    in place. Containers off every edited path stay shared with the input, which is never mutated. A value put
    in by an edit is not owned either (a coercion may hand back part of the input): an edit beneath it copies it
    first."""

    def __init__(self, tree: Any) -> None:
        self.tree = tree
        self._owned: dict[int, Any] = {}  # id → the copy itself, which keeps the id from being reused

    def _own(self, container: Any) -> Any:
        if id(container) in self._owned:
            return container
        copy = dict(container) if isinstance(container, dict) else list(container)
        self._owned[id(copy)] = copy
        return copy

    def replace(self, parts: list[str], value: Any) -> None:
        """Put `value` at the pointer `parts` (which `resolve` found in the current tree)."""
        if not parts:
            self.tree = value
            return
        self.tree = node = self._own(self.tree)
        for part in parts[:-1]:
            key: Any = part if isinstance(node, dict) else int(part)
            child = self._own(node[key])
            node[key] = child
            node = child
        node[parts[-1] if isinstance(node, dict) else int(parts[-1])] = value


def revisit(
    tree: Any, details: tuple[ErrorDetail, ...], view: TypeView, ctx: CallContext, coerce: CoerceValue
) -> Revisit:
    """Offer every value Pydantic rejected to the coercion hook; collect what it changed and what it refused."""
    result = Revisit(tree)
    edited = CopyOnWrite(tree)
    seen: set[str] = set()
    for detail in details:
        if detail.kind == "missing" or detail.path in seen:
            continue
        seen.add(detail.path)
        parts = split_pointer(detail.path)
        value, expected, fld = resolve(edited.tree, view, parts)
        if value is _ABSENT or expected is None:
            continue
        offered = coerce(value, expected, fld, detail.path, ctx)
        if offered is None:
            continue
        if offered.error is not None:
            result.refusals.append(offered.error)
            continue
        if not offered.repairs or not all(ctx.policy.allows(r.kind, r.lossless) for r in offered.repairs):
            continue
        if offered.value == value and type(offered.value) is type(value):
            continue
        edited.replace(parts, offered.value)
        result.repairs.extend(offered.repairs)
    result.tree = edited.tree
    return result
