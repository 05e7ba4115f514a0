"""Wrappers around an answer, followed to the one value that fits the target, never past a call to another tool.

`{"result": {"data": …}}` and `{"result": [ {…} ]}` are followed through wrapper keys at any depth (up to
`MAX_DEPTH`) and one-element lists, when the inner value fits the target and the outer does not; the first level
of a plain wrapper around an object or list stays with `shapes` (the same repair, `unwrap_wrapper`). An object
that names another tool is that tool's call: refused, naming both (`envelopes` asks the same of a bare object).
"""

from __future__ import annotations

from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.errors import ErrorDetail
from resilient_parse.fit import field_of, fits, spelling_of
from resilient_parse.repairs import Repair, pointer
from resilient_parse.schema import ChoiceView, ListView, ModelView, ScalarView, TupleView, TypeView, UnionView
from resilient_parse.schema import normalise_key as _norm
from resilient_parse.stages.coerce.shapes import is_wrapper_key
from resilient_parse.tools.names import ARGUMENT_KEYS, NAME_KEYS, same_tool, tool_name

MAX_DEPTH = 6
_ENVELOPE_KINDS = frozenset(
    {"function", "tool_use", "function_call", "tool_call", "custom", "custom_tool_call", "message", "tool", "call"}
)


def other_tool_named(value: dict[str, Any], expected: str) -> tuple[str, str] | None:
    """The (key, name) under which an object names a tool other than `expected` beside another value — `{"tool":
    "delete_city", "input": {...}}`, `{"action": "x", "arguments": {...}}`, `{"type": "x", "input": {...}}`,
    `{"result": {...}, "name": "x"}` — or None when it names no tool, or names the expected one (under any of its
    name keys: the object is then that tool's call, read by the other stages)."""
    if len(value) < 2:
        return None
    keys = {k: _norm(k) for k in value}
    beside_arguments = any(k in ARGUMENT_KEYS for k in keys.values())
    named = [
        (key, name)
        for key, name in value.items()
        if isinstance(name, str)
        and keys[key] in NAME_KEYS
        and (keys[key] != "type" or (beside_arguments and name not in _ENVELOPE_KINDS))
    ]
    if not named or any(same_tool(name, expected) for _, name in named):
        return None
    return next(((k, n) for k, n in named if keys[k] != "type"), named[0])


def other_tool_error(key: str, name: str, expected: str, path: str, where: str = "") -> Coercion:
    at = f"{where}/{key}" if where else key
    message = f"the output names the tool {name!r} (under {at!r}), not {expected!r} (the target's tool); refusing"
    return Coercion(error=ErrorDetail(path=path, kind="tool_name_mismatch", message=message, got=name))


def deep_wrapper(value: dict[str, Any], view: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    if isinstance(view, ModelView) and any(field_of(k, view, ctx) is not None for k in value):
        return None  # the outer object names a field: it is (partly) the object itself
    others: list[tuple[list[str | int], str, str]] = []
    found = _descend(value, view, [], ctx, others)
    if others and isinstance(view, ModelView):  # a call to another tool inside a wrapper: refused, never unwrapped
        trail, key, name = others[0]
        return other_tool_error(key, name, tool_name(view), path, pointer(trail))
    if found is None or not ctx.policy.allows("unwrap_wrapper"):
        return None
    inner, trail = found
    plain = len(trail) == 1 and isinstance(view, ModelView | ListView | TupleView)
    if plain:
        return None  # one wrapper around an object or a list: `shapes.unwrap` reads it (and records it alike)
    note = "took the value out of " + pointer(trail)
    return Coercion(inner, (Repair.make("unwrap_wrapper", path, value, inner, confidence=0.9, note=note),))


def _descend(
    node: Any,
    view: TypeView,
    trail: list[str | int],
    ctx: CallContext,
    others: list[tuple[list[str | int], str, str]],
) -> tuple[Any, list[str | int]] | None:
    """The one value under wrapper keys and one-element lists that fits `view`, with the keys that lead to it. An
    object on the way that names another tool (`{"data": {"name": "x", "arguments": {...}}}`) is that tool's call:
    it is not descended through, and is told in `others` (where, under which key, which name)."""
    if trail and fits_view(node, view, ctx):
        return node, trail
    if len(trail) >= MAX_DEPTH:
        return None
    if isinstance(node, list):
        if trail and len(node) == 1 and not isinstance(view, ListView | TupleView):
            return _descend(node[0], view, [*trail, 0], ctx, others)
        return None
    if not isinstance(node, dict):
        return None
    if trail and isinstance(view, ModelView):
        named = other_tool_named(node, tool_name(view))
        if named is not None:
            others.append((trail, *named))
            return None
    found = [
        got
        for key, inner in node.items()
        if is_wrapper_key(spelling_of(key, ctx), ctx)
        and (got := _descend(inner, view, [*trail, key], ctx, others)) is not None
    ]
    return found[0] if len(found) == 1 else None


def fits_view(node: Any, view: TypeView, ctx: CallContext) -> bool:
    if isinstance(view, ModelView):
        return isinstance(node, dict) and any(field_of(k, view, ctx) is not None for k in node)
    if isinstance(view, ListView | TupleView):
        return isinstance(node, list)
    if isinstance(view, ChoiceView):
        return isinstance(node, str | int) and not isinstance(node, bool)
    if isinstance(view, ScalarView):
        if view.py_type in (int, float) or view.py_type.__name__ == "Decimal":
            return isinstance(node, str | int | float) and not isinstance(node, bool)
        return fits(node, view)
    if isinstance(view, UnionView):
        return any(fits_view(node, o, ctx) for o in view.options)
    return False
