"""What a parser knows before any text arrives: its configuration, and a plan per target computed once.

A plan holds the adapter, the schema view, the float and infinity facts the fast path asks and the short name
events report; `ParserSetup` owns the configuration and the plan cache, and `Parser` adds the pipeline."""

from __future__ import annotations

import math
import threading
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import GenericAlias, MappingProxyType
from typing import Any, get_args, get_origin

from pydantic import TypeAdapter
from pydantic.errors import PydanticSchemaGenerationError, PydanticUserError

from resilient_parse.context import AliasEntry, CallContext, SemanticValidator, ValueRepairer
from resilient_parse.errors import ConfigurationError
from resilient_parse.plugins import PluginHost
from resilient_parse.policy import Policy, resolve_policy
from resilient_parse.schema import SchemaFacts, TypeView, build_view, schema_facts
from resilient_parse.stages.read_duplicates import KeyCounter, key_counter
from resilient_parse.tools.vocabulary import STAGE_VOCABULARY

__all__ = [
    "InfinityProbe",
    "ParserSetup",
    "TargetPlan",
    "check_alias_table",
    "inf_probe",
    "plan_key",
    "reads_floats",
    "type_name",
]

_NAME_LIMIT = 80


@dataclass(frozen=True)
class TargetPlan:
    """What the parser knows about one target, computed once."""

    target: Any
    adapter: TypeAdapter[Any]
    view: TypeView
    facts: SchemaFacts
    validators: tuple[SemanticValidator, ...]
    repairers: tuple[ValueRepairer, ...] = ()
    name: str = ""  # the target's short type name, for events (`list[Record]`, `Person | None`)
    count_members: KeyCounter | None = None  # `read_duplicates.key_counter` for the target, when it has one
    reads_floats: bool = True  # whether a JSON number may validate as a float somewhere (`reads_floats`)
    inf_probe: InfinityProbe | None = None  # `inf_probe` for the target, when it has one


def plan_key(target: Any) -> Any:
    """The plan cache's key for a target: the target, spelled out to the order and type of its arguments.
    `Union[A, B] == Union[B, A]` and `Literal["a", "b"] == Literal["b", "a"]` in Python, but their plans differ
    (the order of a union's members orders its error details). Raises TypeError for a target with an unhashable
    part (it is then not cached)."""
    if type(target) is GenericAlias and all(
        type(a) is not GenericAlias and isinstance(a, type) for a in target.__args__
    ):
        return target  # `list[Model]`: compared in order, and its classes only by identity
    args = get_args(target)
    if not args:
        hash(target)
        return target
    return (type(target), get_origin(target), tuple(plan_key(a) if _is_type_like(a) else (type(a), a) for a in args))


def _is_type_like(arg: Any) -> bool:
    return isinstance(arg, type) or bool(get_args(arg)) or get_origin(arg) is not None


# core-schema nodes that never turn a JSON number into a float (a decimal refuses infinity, an int a float past
# its range), or that only hold other nodes; any other node (float, any, a function validator, a type this list
# does not know) may, and `reads_floats` says so
_FLOATLESS_NODES = frozenset(
    {
        "str", "int", "bool", "none", "decimal", "uuid", "url", "multi-host-url", "bytes", "literal", "enum",
        "list", "set", "frozenset", "dict", "tuple", "nullable", "default", "model", "model-fields", "model-field",
        "typed-dict", "typed-dict-field", "dataclass", "dataclass-args", "dataclass-field", "union",
        "tagged-union", "definitions", "definition-ref", "lax-or-strict", "json-or-python", "chain",
        "function-after", "custom-error",
    }
)  # fmt: skip
_NOT_SCHEMA_KEYS = frozenset({"metadata", "serialization", "cls", "config", "ref"})


def reads_floats(core_schema: Any) -> bool:
    """Whether a target may validate a JSON number as a float (so `1e999999` could become infinity): a node of
    its core schema outside `_FLOATLESS_NODES`, a float among a literal's or an enum's values, or an object that
    keeps extra members of any type. Conservative: what it does not know reads floats. Iterative walk."""
    stack: list[Any] = [core_schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list | tuple):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        kind = node.get("type")
        if isinstance(kind, str):
            if kind not in _FLOATLESS_NODES:
                return True
            if kind == "literal" and any(isinstance(v, float) for v in node.get("expected", ())):
                return True
            if kind == "enum" and node.get("sub_type") not in ("str", "int"):
                return True
            config = node.get("config")
            if node.get("extra_behavior") == "allow" or (
                isinstance(config, dict) and config.get("extra_fields_behavior") == "allow"
            ):
                return True  # extra members are kept, of any type
        stack.extend(v for k, v in node.items() if k not in _NOT_SCHEMA_KEYS and isinstance(v, dict | list | tuple))
    return False


InfinityProbe = Callable[[Any], bool]
"""Whether a validated value holds an infinite float somewhere (`inf_probe`)."""


def _no_float(value: Any) -> bool:
    return False


def inf_probe(node: Any) -> InfinityProbe | None:
    """A check of a validated value for an infinite float, for the core-schema shapes it knows (float, nullable,
    default, list/set/frozenset, dict values, plain models), walking only where floats can be; None for any
    other shape (the text is tested instead). Cheaper than searching a long text for a big exponent: one
    attribute read per model, C-level iteration over lists."""
    kind = node.get("type") if isinstance(node, dict) else None
    if kind == "float":
        return math.isinf if node.get("allow_inf_nan", True) else _no_float
    if kind in ("str", "int", "bool", "none", "decimal"):
        return _no_float
    if kind in ("nullable", "default"):
        inner = inf_probe(node.get("schema"))
        if inner is None or inner is _no_float:
            return inner
        return lambda v: v is not None and inner(v)
    if kind in ("list", "set", "frozenset", "dict"):
        items = inf_probe(node.get("values_schema" if kind == "dict" else "items_schema"))
        if items is None or items is _no_float:
            return items
        if kind == "dict":
            return lambda v: any(map(items, v.values()))
        return lambda v: any(map(items, v))
    if kind == "model" and not node.get("root_model") and not node.get("custom_init"):
        fields = node.get("schema")
        config = node.get("config")
        if not isinstance(fields, dict) or fields.get("type") != "model-fields" or fields.get("extras_schema"):
            return None
        if fields.get("extra_behavior") == "allow" or (
            isinstance(config, dict) and config.get("extra_fields_behavior") == "allow"
        ):
            return None
        probes: list[tuple[str, InfinityProbe]] = []
        for name, field in fields.get("fields", {}).items():
            probe = inf_probe(field.get("schema") if isinstance(field, dict) else None)
            if probe is None:
                return None
            if probe is not _no_float:
                probes.append((name, probe))
        if not probes:
            return _no_float
        if len(probes) == 1:
            ((name, probe),) = probes
            return lambda v: probe(getattr(v, name))
        return lambda v: any(probe(getattr(v, name)) for name, probe in probes)
    return None


def type_name(target: Any) -> str:
    """A short name for a target type, as events report it: `Person`, `list[Record]`, `Action | None` (module
    paths left out, cut at 80 characters)."""
    name = _type_name(target, 0)
    return name if len(name) <= _NAME_LIMIT else name[: _NAME_LIMIT - 1] + "…"


def _type_name(tp: Any, depth: int) -> str:
    if tp is None or tp is type(None):
        return "None"
    if depth > 4:
        return "…"
    origin, args = get_origin(tp), get_args(tp)
    if origin is typing.Annotated:
        return _type_name(args[0], depth)
    if origin is not None and args:
        if origin is typing.Union or type(tp).__name__ == "UnionType":
            return " | ".join(_type_name(a, depth + 1) for a in args)
        if origin is typing.Literal:
            return "Literal[" + ", ".join(repr(a) for a in args) + "]"
        head = getattr(origin, "__name__", None) or str(origin).rsplit(".", 1)[-1]
        return f"{head}[{', '.join('...' if a is Ellipsis else _type_name(a, depth + 1) for a in args)}]"
    name = getattr(tp, "__name__", None)
    return name if isinstance(name, str) else str(tp).rsplit(".", 1)[-1]


def check_alias_table(table: Any, where: str) -> dict[str, str]:
    """An alias table as a dict, or the ConfigurationError that refuses it (`where`: "Parser" or "call")."""
    if table is None:
        return {}
    if not isinstance(table, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise ConfigurationError(f"{where} aliases must be a mapping of str key -> str field name, got {table!r}")
    return dict(table)


class ParserSetup:
    """A parser's configuration and its plan per target, computed once: what it knows before any text arrives
    (`Parser` adds the pipeline; its docstring says what each argument is)."""

    def __init__(
        self,
        mode: str | Policy = "lenient",
        aliases: Mapping[str, str] | None = None,
        plugins: Sequence[object] = (),
        entrypoints: bool = True,
        *,
        blocked_plugins: Iterable[str] = (),
        validators: Sequence[SemanticValidator] = (),
    ) -> None:
        self.policy = resolve_policy(mode)
        self.aliases: Mapping[str, str] = MappingProxyType(check_alias_table(aliases, "Parser"))
        self.validators = tuple(validators)
        for v in self.validators:
            if not callable(v):
                raise ConfigurationError(f"validator {v!r} is not callable")
        self.host = PluginHost(plugins, entrypoints=entrypoints, blocked=blocked_plugins)
        self._plugin_aliases = tuple(self.host.collect_aliases(self.policy))
        self._base_aliases = self._merge_aliases({})
        self._plans: dict[Any, TargetPlan] = {}
        self._last_plan: tuple[Any, TargetPlan] | None = None  # the last target asked for, by identity
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Parser(mode={self.policy.name!r}, plugins={self.host.names!r})"

    # -- configuration -------------------------------------------------------------------------------------------

    def _merge_aliases(self, call: Mapping[str, str]) -> Mapping[str, tuple[AliasEntry, ...]]:
        merged: dict[str, list[AliasEntry]] = {}
        for origin, table, explicit in (
            ("call", call, True),
            ("parser", self.aliases, True),
            *((f"plugin:{name}", table, False) for name, table in self._plugin_aliases),
        ):
            for source, target in table.items():
                merged.setdefault(source, []).append(AliasEntry(source, target, origin, explicit))
        return MappingProxyType({k: tuple(v) for k, v in merged.items()})

    def plan(self, target: Any) -> TargetPlan:
        """The cached adapter, schema view and validators for a target. The same target object asked again (a
        model class, or a `list[Model]` kept in a variable) is known by identity, without spelling out its key:
        the memo holds the object, so its identity cannot be reused by another."""
        last = self._last_plan
        if last is not None and last[0] is target:
            return last[1]
        plan = self._cached_plan(target)
        self._last_plan = (target, plan)
        return plan

    def _cached_plan(self, target: Any) -> TargetPlan:
        try:
            key = plan_key(target)
            cached = self._plans.get(key)
        except TypeError:
            return self._build_plan(target)
        if cached is not None:
            return cached
        with self._lock:
            cached = self._plans.get(key)
            if cached is None:
                cached = self._build_plan(target)
                self._plans[key] = cached
        return cached

    def _build_plan(self, target: Any) -> TargetPlan:
        try:
            adapter: TypeAdapter[Any] = TypeAdapter(target)
        except (PydanticSchemaGenerationError, PydanticUserError, TypeError, NameError, SyntaxError) as exc:
            raise ConfigurationError(f"Pydantic cannot validate target {target!r}: {exc}") from exc
        try:
            view = build_view(target)
        except Exception as exc:  # a target Pydantic accepts but our view cannot read must not crash a parse
            raise ConfigurationError(
                f"cannot read the schema of target {target!r}: {type(exc).__name__}: {exc}"
            ) from exc
        ctx = CallContext(
            policy=self.policy,
            target=target,
            schema=view,
            aliases=self._base_aliases,
            tools=STAGE_VOCABULARY,
        )
        validators = (*self.host.semantic_validators(target, ctx), *self.validators)
        repairers = tuple(self.host.value_repairers(target, ctx))
        return TargetPlan(
            target,
            adapter,
            view,
            schema_facts(view),
            tuple(validators),
            repairers,
            type_name(target),
            key_counter(adapter.core_schema),
            reads_floats(adapter.core_schema),
            inf_probe(adapter.core_schema),
        )

    def context(self, target: Any, aliases: Mapping[str, str] | None = None) -> CallContext:
        """A call context for `target`, as hooks see it (used by the correction loop and plugins' tests)."""
        plan = self.plan(target)
        merged = self._merge_aliases(check_alias_table(aliases, "call")) if aliases else self._base_aliases
        return CallContext(policy=self.policy, target=target, schema=plan.view, aliases=merged, tools=STAGE_VOCABULARY)
