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
import operator
import re
from collections.abc import Callable
from typing import Any

from resilient_parse.errors import AmbiguousMatchError, ErrorDetail
from resilient_parse.repairs import Repair, escape_token
from resilient_parse.safe_text import json_safe

_UNLOADED: Any = object()
_jiter: Any = _UNLOADED  # jiter's from_json, imported on first use (a countable target never needs it), or None


def _jiter_from_json() -> Callable[..., Any] | None:
    """jiter (pydantic's own JSON parser, packaged alone) finds duplicates in C; None when it is not installed."""
    global _jiter
    if _jiter is _UNLOADED:
        try:
            import jiter
        except ImportError:  # pragma: no cover - the pure-Python check in has_duplicate_keys stands in
            _jiter = None
        else:
            _jiter = jiter.from_json
    return _jiter  # type: ignore[no-any-return]


# a key of valid JSON: a string followed by ':' (in valid JSON no other string is; a match that starts inside a
# value string ends at that string's closing quote, which is never followed by ':', so no key is ever swallowed)
_KEY = re.compile(r'"((?:[^"\\]++|\\.)*+)"[ \t\r\n]*+:')


_NO_TREE: Any = object()


def has_duplicate_keys(json_text: str, tree: Any = _NO_TREE) -> bool:
    """Whether valid JSON text holds a key twice in one object. Given `tree` (the text as `json.loads` read it), a
    count of its members against the text's colons settles most texts at once (`members_match`); otherwise, or
    when that count cannot tell, jiter's `catch_duplicate_keys`, in C (about half to nine tenths of
    `validate_json`'s own time). Without jiter, or for text jiter will not read (a lone surrogate escape):
    conservative — any key written twice anywhere."""
    if ":" not in json_text:
        return False  # no key at all (a scalar, or lists of scalars)
    if tree is not _NO_TREE and members_match(json_text, count_members(tree)):
        return False
    from_json = _jiter_from_json()
    if from_json is not None:
        try:
            from_json(json_text.encode("utf-8", "surrogatepass"), catch_duplicate_keys=True, cache_mode="keys")
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


# -- the fast path's guard: count the members instead of parsing again ---------------------------------------------

KeyCounter = Callable[[Any], int]
"""Counts the object members a validated value was built from (model fields set, dict entries)."""

_LEAVES = frozenset(
    {
        "none", "bool", "int", "float", "decimal", "str", "bytes", "date", "time", "datetime", "timedelta",
        "literal", "enum", "uuid", "url", "multi-host-url", "complex",
    }
)  # fmt: skip
# what may hold object members (or run code that builds them): never opaque
_CONTAINERS = frozenset(
    {
        "model", "model-fields", "list", "dict", "tuple", "set", "frozenset", "any", "typed-dict", "dataclass",
        "dataclass-args", "json", "generator", "arguments", "call", "definition-ref", "definitions", "union",
        "tagged-union",
    }
)  # fmt: skip
_RUNTIME_TYPES = {"list": list, "set": set, "frozenset": frozenset, "tuple": tuple, "dict": dict}


class _NotCountable(Exception):
    """The schema may build a value that is not one-to-one with the JSON's objects (user code, aliases paths …)."""


def _leaf(_value: Any) -> int:
    return 0


def key_counter(core_schema: Any) -> KeyCounter | None:
    """For a target's pydantic-core schema, a function counting the members of the JSON objects a validated value
    was read from — or None when the schema can run code on a container (validators, `model_post_init`, custom
    `__init__`), keeps extra keys, reads a field through an alias path, or lets one key fill two fields: then the
    count could be off, and the caller asks `has_duplicate_keys`.

    Where it is given, each model counts its set fields and each dict its entries, so the count is at most the
    number of distinct keys per object, and equal to the number of members written exactly when no object writes
    a key twice (and none is ignored): `members_match` compares it with the text."""
    try:
        return _Compiler(core_schema).top()
    except (_NotCountable, KeyError, TypeError, ValueError, AttributeError, RecursionError):
        return None


class _Compiler:
    """Turns a core schema into a counting function, following the schema (never the value's own types)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.definitions: dict[str, Any] = {}
        self.compiled: dict[str, list[KeyCounter | None]] = {}  # ref -> cell, filled once compiled (recursion)

    def top(self) -> KeyCounter:
        return self.compile(self.root)

    def compile(self, schema: Any) -> KeyCounter:
        kind = schema["type"]
        if kind in _LEAVES:
            return _leaf
        if not _holds_containers(schema):
            return _leaf  # a validator on a string, a custom scalar: whatever it returns, no member is counted there
        if kind == "definitions":
            for definition in schema["definitions"]:
                self.definitions[definition["ref"]] = definition
            return self.compile(schema["schema"])
        if kind == "definition-ref":
            return self._ref(schema["schema_ref"])
        if "ref" in schema and kind != "definitions":
            self.definitions.setdefault(schema["ref"], schema)
        if kind in ("nullable", "default", "custom-error"):
            return self._nullable(self.compile(schema["schema"]))
        if kind == "json-or-python":
            return self.compile(schema["json_schema"])
        if kind == "model":
            return self._model(schema)
        if kind in ("list", "set", "frozenset"):
            items = self.compile(schema["items_schema"]) if "items_schema" in schema else count_members
            if items is _leaf:
                return _leaf
            if items is _fields_set_size:  # a list of flat models (the common case): counted in C
                return lambda value: sum(map(len, map(_FIELDS_SET, value)))
            return lambda value: sum(map(items, value))
        if kind == "tuple":
            return self._tuple(schema)
        if kind == "dict":
            if self.compile(schema.get("keys_schema", {"type": "str"})) is not _leaf:
                raise _NotCountable("dict keys that are not scalars")
            values = self.compile(schema["values_schema"]) if "values_schema" in schema else count_members
            if values is _leaf:
                return len
            return lambda value: len(value) + sum(map(values, value.values()))
        if kind == "any":
            return count_members
        if kind in ("union", "tagged-union"):
            return self._union(schema)
        raise _NotCountable(kind)

    def _ref(self, ref: str) -> KeyCounter:
        cell = self.compiled.get(ref)
        if cell is None:
            cell = self.compiled[ref] = [None]
            cell[0] = self.compile(self.definitions[ref])
        return lambda value: cell[0](value)  # type: ignore[misc]  # filled before any value is counted

    @staticmethod
    def _nullable(inner: KeyCounter) -> KeyCounter:
        if inner is _leaf:
            return _leaf
        return lambda value: 0 if value is None else inner(value)

    def _model(self, schema: Any) -> KeyCounter:
        config = schema.get("config", {})
        fields_schema = schema["schema"]
        if (
            schema.get("post_init")
            or schema.get("custom_init")
            or schema.get("root_model")
            or fields_schema["type"] != "model-fields"
            or fields_schema.get("extras_schema") is not None
            or fields_schema.get("extra_behavior", config.get("extra_fields_behavior")) == "allow"
        ):
            raise _NotCountable("a model that runs code or keeps extra keys")
        keys: list[str] = []
        deep: list[tuple[str, KeyCounter]] = []
        for name, field in fields_schema["fields"].items():
            alias = field.get("validation_alias")
            if alias is not None and not isinstance(alias, str):
                raise _NotCountable("an alias path or choices")
            keys.extend({name, alias} - {None})
            counter = self.compile(field["schema"])
            if counter is not _leaf:
                deep.append((name, counter))
        if len(keys) != len(set(keys)):
            raise _NotCountable("one key names two fields")
        if not deep:
            return _fields_set_size
        shallow = tuple(deep)

        def count(value: Any) -> int:
            fields_set = value.__pydantic_fields_set__
            total = len(fields_set)
            for name, counter in shallow:
                if name in fields_set:
                    total += counter(getattr(value, name))
            return total

        return count

    def _tuple(self, schema: Any) -> KeyCounter:
        items = [self.compile(s) for s in schema.get("items_schema", [])]
        variadic = schema.get("variadic_item_index")
        if all(c is _leaf for c in items):
            return _leaf
        if variadic is None:
            return lambda value: sum(c(v) for c, v in zip(items, value))
        before, repeated, after = items[:variadic], items[variadic], items[variadic + 1 :]

        def count(value: Any) -> int:
            tail = len(value) - len(after)
            total: int = sum(c(v) for c, v in zip(before, value))
            total += sum(map(repeated, value[len(before) : tail]))
            return total + sum(c(v) for c, v in zip(after, value[tail:]))

        return count

    def _union(self, schema: Any) -> KeyCounter:
        choices = schema["choices"]
        options = choices.values() if isinstance(choices, dict) else choices
        by_type: dict[type, KeyCounter] = {}
        for option in options:
            choice = option[0] if isinstance(option, tuple) else option
            counter = self.compile(choice)
            if counter is _leaf:
                if choice["type"] not in _LEAVES:
                    raise _NotCountable("an opaque choice beside containers")  # its value could be any type
                continue
            runtime = self._runtime_type(choice)
            if runtime in by_type:
                raise _NotCountable("two choices of one runtime type")
            by_type[runtime] = counter
        if not by_type:
            return _leaf
        table = by_type
        return lambda value: table[type(value)](value) if type(value) in table else 0

    def _runtime_type(self, schema: Any) -> type:
        while schema["type"] in ("nullable", "default", "custom-error", "definition-ref"):
            schema = self.definitions[schema["schema_ref"]] if schema["type"] == "definition-ref" else schema["schema"]
        kind = schema["type"]
        if kind == "model":
            return schema["cls"]  # type: ignore[no-any-return]
        if kind in _RUNTIME_TYPES:
            return _RUNTIME_TYPES[kind]
        raise _NotCountable(f"a {kind} choice in a union")


_FIELDS_SET = operator.attrgetter("__pydantic_fields_set__")


def _fields_set_size(value: Any) -> int:
    return len(value.__pydantic_fields_set__)


def _holds_containers(schema: Any) -> bool:
    """Whether a schema (with everything inside it) has a container or a reference anywhere."""
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if node.get("type") in _CONTAINERS:
                return True
            todo.extend(v for k, v in node.items() if k not in ("metadata", "serialization", "cls", "default"))
        elif isinstance(node, list | tuple):
            todo.extend(node)
    return False


def count_members(value: Any) -> int:
    """Members of plain JSON data (a `json.loads` tree, an `Any` or a `dict` value): every dict's entries, without
    recursion."""
    total = 0
    todo = [value]
    while todo:
        node = todo.pop()
        if type(node) is dict:
            total += len(node)
            todo.extend(node.values())
        elif type(node) is list:
            todo.extend(node)
    return total


def members_match(json_text: str, members: int) -> bool:
    """Whether valid JSON text writes no more object members than `members`, which is then proof that no object
    writes a key twice (a count from `key_counter` never exceeds the distinct keys). Each member is followed by
    exactly one ':' of the structure, so the text's colons are at least its members — more when strings hold
    colons (then this says no, and the caller asks the exact question)."""
    if json_text.count(":") <= members:
        return True
    # strings hold colons: count the colons right after a quote instead (every key's, when no space comes between)
    return json_text.count('":') <= members and _SPACED_COLON.search(json_text) is None


_SPACED_COLON = re.compile(r'"[ \t\r\n]++:')
