"""Duplicate keys: a key written twice in one object is two answers for one field, not "the last one wins".

Pydantic (like `json.loads`) silently keeps the last value, so `{"action": "search", "action": "delete_all"}`
would come back as `delete_all`. Two different values are an `AmbiguousMatchError` naming both and the path, in
both modes; the same value twice is merged under a lossless `duplicate_key` repair.

`has_duplicate_keys` is the cheap question for the valid fast path: linear, C-speed, conservative (it may say yes
for a document without duplicates — the caller then takes the exact, slower path — but never no for one with
them). `find_duplicates` is the exact answer with paths, for documents the cheap question flags.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, json_safe
from resilient_parse.repairs import Repair, escape_token

_jiter_from_json: Callable[..., Any] | None
try:  # jiter (pydantic's own JSON parser, packaged alone) finds duplicates in C
    from jiter import from_json as _jiter_from_json
except ImportError:  # pragma: no cover - the pure-Python check below stands in
    _jiter_from_json = None

# a key of valid JSON: a string followed by ':' (in valid JSON no other string is; a match that starts inside a
# value string ends at that string's closing quote, which is never followed by ':', so no key is ever swallowed)
_KEY = re.compile(r'"((?:[^"\\]++|\\.)*+)"[ \t\r\n]*+:')


def has_duplicate_keys(json_text: str) -> bool:
    """Whether valid JSON text holds a key twice in one object: jiter's `catch_duplicate_keys`, in C (about half
    to nine tenths of `validate_json`'s own time). Without jiter, or for text jiter will not read (a lone
    surrogate escape): conservative — any key written twice anywhere."""
    if ":" not in json_text:
        return False  # no key at all (a scalar, or lists of scalars)
    if _jiter_from_json is not None:
        try:
            _jiter_from_json(json_text.encode("utf-8", "surrogatepass"), catch_duplicate_keys=True, cache_mode="keys")
        except ValueError as exc:
            if "duplicate key" in str(exc):
                return True
        else:
            return False
    keys = _KEY.findall(json_text)
    return len(set(keys)) != len(keys) or any("\\" in k for k in keys)


class _Pairs(list[tuple[str, Any]]):
    """An object's members in order, duplicates kept (json's object_pairs_hook), until checked."""


def find_duplicates(json_text: str) -> tuple[Any, list[Repair]]:
    """The tree of valid JSON text, with a `duplicate_key` repair for each key written twice with the same value.
    Raises `AmbiguousMatchError` naming both values and the path when the values differ. Iterative walk."""
    raw = json.loads(json_text, object_pairs_hook=_Pairs)
    repairs: list[Repair] = []
    conflicts: list[ErrorDetail] = []
    root: list[Any] = [None]
    # (container, slot, node, path): build the plain tree top-down, checking each object's pairs
    todo: list[tuple[Any, Any, Any, str]] = [(root, 0, raw, "")]
    while todo:
        container, slot, node, path = todo.pop()
        if isinstance(node, _Pairs):
            built: dict[str, Any] = {}
            for key, value in node:
                where = f"{path}/{escape_token(key)}"
                if key in built:
                    first = built[key]
                    if _plain(first) == _plain(value):
                        repairs.append(Repair.make("duplicate_key", where, json_safe(_plain(value)), None))
                        continue
                    conflicts.append(
                        ErrorDetail(
                            path=where,
                            kind="ambiguous_duplicate_key",
                            message=(
                                f"the key {key!r} is written twice with different values: "
                                f"{json.dumps(json_safe(_plain(first)))} and {json.dumps(json_safe(_plain(value)))}"
                            ),
                        )
                    )
                    continue
                built[key] = value
            container[slot] = built
            for key, value in built.items():
                todo.append((built, key, value, f"{path}/{escape_token(key)}"))
        elif isinstance(node, list):
            items = list(node)
            container[slot] = items
            for i, item in enumerate(items):
                todo.append((items, i, item, f"{path}/{i}"))
        else:
            container[slot] = node
    if conflicts:
        first = conflicts[0]
        raise AmbiguousMatchError(f"{first.path}: {first.message}", conflicts, candidate=json_text)
    return root[0], repairs


def _plain(node: Any) -> Any:
    """A pairs tree as plain data for comparison (the later value of a duplicated key, as json.loads reads it)."""
    stack: list[tuple[Any, Any, Any]] = []
    root: list[Any] = [None]
    stack.append((root, 0, node))
    while stack:
        container, slot, item = stack.pop()
        if isinstance(item, _Pairs):
            built: dict[str, Any] = {}
            container[slot] = built
            for key, value in reversed(item):  # pushed last-first, so the last value is written last
                built.setdefault(key, None)
                stack.append((built, key, value))
        elif isinstance(item, list):
            items: list[Any] = [None] * len(item)
            container[slot] = items
            for i, value in enumerate(item):
                stack.append((items, i, value))
        else:
            container[slot] = item
    return root[0]
