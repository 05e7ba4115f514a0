"""What a stream does with a partly read tree: which values want text, what to leave out, what is new."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from resilient_parse.conform import Conformer
from resilient_parse.schema import AnyView, DictView, ListView, ModelView, ScalarView, TupleView, TypeView, UnionView


def _wants_text(view: TypeView, path: Sequence[Any]) -> bool:
    """Whether the value at `path` (keys as written) is a `str` (or Any) for the target — for every union member
    the path can lead through. A key the schema does not know answers no."""
    if not path:
        if isinstance(view, UnionView):
            return all(_wants_text(o, path) for o in view.options)
        return isinstance(view, AnyView) or (isinstance(view, ScalarView) and view.py_type is str)
    part, rest = path[0], path[1:]
    if isinstance(view, AnyView):
        return True
    if isinstance(view, UnionView):
        routes = [o for o in view.options if _leads(o, part)]
        return bool(routes) and all(_wants_text(o, path) for o in routes)
    if isinstance(view, ModelView) and isinstance(part, str):
        fv = view.field_for_key(part)
        return fv is not None and _wants_text(fv.type, rest)
    if isinstance(view, ListView) and isinstance(part, int):
        return _wants_text(view.item, rest)
    if isinstance(view, TupleView) and isinstance(part, int):
        return part < len(view.items) and _wants_text(view.items[part], rest)
    if isinstance(view, DictView) and isinstance(part, str):
        return _wants_text(view.value, rest)
    return False


def _leads(view: TypeView, part: Any) -> bool:
    if isinstance(view, ModelView):
        return isinstance(part, str) and part in view.key_to_field
    if isinstance(view, DictView):
        return isinstance(part, str)
    return isinstance(view, ListView | TupleView | AnyView) and isinstance(part, int)


def _remove(tree: Any, loc: Sequence[Any]) -> bool:
    """Leave out the deepest part of `tree` on `loc` (a Pydantic error location) that exists. A list is cut at the
    failing item, so later items never shift into its place."""
    node = tree
    parent: Any = None
    key: Any = None
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:  # noqa: SIM114 - mypy narrows each
            parent, key, node = node, part, node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            parent, key, node = node, part, node[part]
        else:
            break
    if parent is None:
        return False
    if isinstance(parent, list):
        del parent[int(key) :]
    else:
        del parent[key]
    return True


def _fingerprint(tree: Any) -> tuple[Any, ...]:
    """What tells two reads of the same growing document apart: parsed prefixes only ever grow at their right
    edge, so the sizes and last keys along the rightmost path, and the leaf, say whether anything is new."""
    parts: list[Any] = []
    node = tree
    while True:
        if isinstance(node, dict):
            if not node:
                parts.append(("{}",))
                break
            key = next(reversed(node))
            parts.append((len(node), key))
            node = node[key]
        elif isinstance(node, list):
            parts.append((len(node),))
            if not node:
                break
            node = node[-1]
        else:
            parts.append((type(node).__name__, node))
            break
    return tuple(parts)


class _ListMemoConformer(Conformer):
    """The core's conformer, remembering list items between reads: an item that was complete last time and has
    not changed is not walked again, so aligning keys costs about one pass over the document in all."""

    def __init__(self, stream_memo: dict[tuple[Any, ...], tuple[list[Any], list[Any]]], *args: Any) -> None:
        super().__init__(*args)
        self.stream_memo = stream_memo

    def _items(self, items: list[Any], item_view: TypeView, path: list[str | int]) -> list[Any]:
        if isinstance(item_view, AnyView):
            return items
        key = tuple(path)
        previous = self.stream_memo.get(key)
        done = 0
        if previous is not None:
            raw, shaped = previous
            limit = min(len(raw), len(items)) - 1  # the last item may have been cut short
            while done < limit and items[done] == raw[done]:
                done += 1
            if done == 0:
                previous = None
        if previous is None:
            out = super()._items(items, item_view, path)
        else:
            out = shaped[:done] + [self.walk(v, item_view, None, [*path, i]) for i, v in enumerate(items[done:], done)]
        self.stream_memo[key] = (items, out)
        return out


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False
