"""The pipeline: text → candidates → JSON tree → aligned, coerced tree → Pydantic → semantic checks → object.

The repair path imports its stages when it first runs (the imports inside the methods below), so a process that
only ever meets valid JSON pays for the fast path alone.

A `Parser` owns its configuration (policy, alias tables, validators) and its plugin host; it keeps no other state
but per-target caches, so one parser can be shared by threads and several can coexist. Valid JSON for the
target takes the fast path straight through `TypeAdapter.validate_json`.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import math
import operator
import re
import threading
import time
import typing
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import GenericAlias, MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, get_args, get_origin, overload

from pydantic import TypeAdapter, ValidationError
from pydantic.errors import PydanticSchemaGenerationError, PydanticUserError

from resilient_parse.context import AliasEntry, CallContext, Candidate, SemanticValidator, ValueRepairer
from resilient_parse.errors import (
    AmbiguousMatchError,
    ConfigurationError,
    ErrorDetail,
    InputTooLargeError,
    InvalidInputError,
    ParseError,
    SchemaMismatchError,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)
from resilient_parse.plugins import PluginHost
from resilient_parse.policy import Policy, resolve_policy
from resilient_parse.repairs import Repair, kind_info, total_cost
from resilient_parse.schema import (
    ListView,
    SchemaFacts,
    TypeView,
    UnionView,
    build_view,
    schema_facts,
)
from resilient_parse.stages.read_duplicates import KeyCounter, has_duplicate_keys, key_counter, members_match
from resilient_parse.stages.valid_json import NOT_JSON, refuse_out_of_range

if TYPE_CHECKING:
    from resilient_parse.stages.select import Success
    from resilient_parse.stages.wrapped import Wrapped
    from resilient_parse.streaming import StreamUpdate

T = TypeVar("T")

INVALID: Any = object()
"""What `_validate_exact` returns for a document that does not validate (None is a valid value of many targets)."""
_EXTRA_OVERRIDE = "extra" in inspect.signature(TypeAdapter.validate_json).parameters  # Pydantic >= 2.12
_KEY_PATTERN = re.compile(r'"([^"\\]*)"\s*:')  # a key with escapes is misread as unknown: safe, just slower
_JSON_SPACE = " \t\r\n"  # the white space JSON allows around a value (str.strip() would take more)
# Pydantic's json_invalid messages that json.loads agrees with (never "recursion limit exceeded", a lone
# surrogate's escape or a number out of range: json.loads reads those texts, or refuses them its own way)
_NOT_JSON_MESSAGES = (
    "Invalid JSON: EOF while parsing",
    "Invalid JSON: expected",
    "Invalid JSON: trailing c",
    "Invalid JSON: key must be a string",
    "Invalid JSON: control character",
    "Invalid JSON: invalid number",
    "Invalid JSON: invalid escape",
)


def _certainly_not_json(exc: ValidationError) -> bool:
    """Whether Pydantic refused the text as JSON in a way json.loads refuses it too (one json_invalid error)."""
    if exc.error_count() != 1:
        return False
    error = exc.errors(include_url=False, include_context=False, include_input=False)[0]
    return error["type"] == "json_invalid" and error["msg"].startswith(_NOT_JSON_MESSAGES)


_LITERALS = ("null", "true", "false")
# what a JSON text Pydantic reads can open with: a value, or `NaN`/`Infinity`, which it reads as floats
_JSON_OPENERS = frozenset('{["-0123456789tfnNI')


def _may_be_json(text: str) -> bool:
    """Whether the text, past JSON's white space, opens as a JSON value may: a text opening with a word ("Here is
    the JSON:") cannot validate, and asking Pydantic costs an exception."""
    first = text.lstrip(_JSON_SPACE)[:1]
    return not first or first in _JSON_OPENERS


def _cut_literal(text: str) -> TruncatedOutputError | None:
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


def _refuse_values_for_one(text: str, plan: TargetPlan, policy: Policy, failure: UnrecoverableSyntaxError) -> None:
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


_NAME_LIMIT = 80
_KIND_AND_LOSSLESS = operator.attrgetter("kind", "lossless")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ParseResult(Generic[T]):
    """The validated object and every repair that produced it."""

    value: T
    repairs: tuple[Repair, ...] = ()
    candidate: str | None = None
    json_text: str | None = None
    mode: str = ""

    @property
    def repaired(self) -> bool:
        return bool(self.repairs)

    @property
    def lossless(self) -> bool:
        return all(r.lossless for r in self.repairs)

    def repairs_as_dicts(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.repairs]


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


def _holds_infinity(value: Any, plan: TargetPlan) -> bool:
    """Whether the value may hold an infinite float: its plan's probe says so, or there is no probe."""
    probe = plan.inf_probe
    if probe is None:
        return True
    try:
        return probe(value)
    except Exception:  # a value the probe did not foresee: the text decides
        return True


class _CallReader:
    """How `tools.answer` reads a call's JSON and arguments: with this parser and the call's aliases, unobserved
    (observers hear of the parse that asked, not of each call inside it)."""

    def __init__(self, parser: Parser, aliases: Mapping[str, str]) -> None:
        self.parser, self.aliases, self.policy = parser, aliases, parser.policy

    def parse_result(self, text: str, target: Any) -> ParseResult[Any]:
        plan = self.parser.plan(target)
        return self.parser._guarded(text, plan, plan.validators, self.aliases)[0]


@functools.cache
def _wrapped() -> ModuleType:
    """`stages.wrapped`, imported on the first text that is not bare JSON (the lexicon stays out of a valid
    parse's import) and kept, so the short way pays no import statement per call."""
    from resilient_parse.stages import wrapped

    return wrapped


@functools.cache
def _tools() -> ModuleType:
    """`tools.answer`, imported on the first text a tool target is asked for."""
    from resilient_parse.tools import answer

    return answer


def _needs_finishing(json_text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]) -> bool:
    """Whether a validated value must still go through `Parser._finish` (validators, value repairers, or a '<'
    that may be an echoed template's placeholder) — on the fast path, usually not."""
    return bool(checks) or bool(plan.repairers) or "<" in json_text


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


def _check_alias_table(table: Any, where: str) -> dict[str, str]:
    if table is None:
        return {}
    if not isinstance(table, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise ConfigurationError(f"{where} aliases must be a mapping of str key -> str field name, got {table!r}")
    return dict(table)


class Parser:
    """A configured pipeline. `mode` is "strict", "lenient" or a `Policy`; `aliases` maps keys models write to
    field names (`{"tool": "action"}`); `plugins` are objects with `@hookimpl` methods; `entrypoints` loads the
    `resilient_parse` entry-point group; `blocked_plugins` names plugins (built-in or external) to leave out;
    `validators` are semantic checks run on every validated object."""

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
        self.aliases: Mapping[str, str] = MappingProxyType(_check_alias_table(aliases, "Parser"))
        self.validators = tuple(validators)
        for v in self.validators:
            if not callable(v):
                raise ConfigurationError(f"validator {v!r} is not callable")
        self.host = PluginHost(plugins, entrypoints=entrypoints, blocked=blocked_plugins)
        self._plugin_aliases = tuple(self.host.collect_aliases(self.policy))
        self._base_aliases = self._merge_aliases({})
        self._plans: dict[Any, TargetPlan] = {}
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
        """The cached adapter, schema view and validators for a target."""
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
        ctx = CallContext(policy=self.policy, target=target, schema=view, aliases=self._base_aliases)
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

    # -- public API ----------------------------------------------------------------------------------------------

    @overload
    def parse(self, text: str | bytes | object, target: type[T], *, aliases: Mapping[str, str] | None = None) -> T: ...
    @overload
    def parse(self, text: str | bytes | object, target: Any, *, aliases: Mapping[str, str] | None = None) -> Any: ...
    def parse(self, text: str | bytes | object, target: Any, *, aliases: Mapping[str, str] | None = None) -> Any:
        """The validated object, or a `ParseError` saying what was wrong and where."""
        if not aliases and type(text) is str and len(text) <= self.policy.max_input_chars and not self.host.observed:
            # the hot path of a valid answer, without building a ParseResult nobody reads (an observer is told
            # about every parse, so with one the full path below runs)
            plan: TargetPlan | None = None
            memo: dict[str, Any] = {}
            try:
                plan = self.plan(target)
                if not _needs_finishing(text, plan, plan.validators):
                    value = self._validate_exact(text, plan, memo=memo)
                    if value is not INVALID:
                        self._one_tool_fits(text, plan)
                        return value
                    # (a piece of a text that needs no finishing needs none either)
                    lone = self._lone_valid(text, plan)
                    if lone is not None:
                        self._one_tool_fits(lone[1], plan)
                        return lone[2]
                else:
                    plan = None
            except Exception:  # anything unusual: the full path below reports it properly
                plan = None
            if plan is not None:
                # neither short way answers: straight to the calls and the repair path
                return self._guarded(text, plan, plan.validators, {}, short_failed=True, memo=memo)[0].value
        return self.parse_result(text, target, aliases=aliases).value

    @overload
    def parse_result(
        self,
        text: str | bytes | object,
        target: type[T],
        *,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
    ) -> ParseResult[T]: ...
    @overload
    def parse_result(
        self,
        text: str | bytes | object,
        target: Any,
        *,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
    ) -> ParseResult[Any]: ...
    def parse_result(
        self,
        text: str | bytes | object,
        target: Any,
        *,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
    ) -> ParseResult[Any]:
        """The validated object with the repairs that produced it, or a `ParseError`. `text` may also be a reply
        object from a provider's SDK (`tools/replies.py`: an OpenAI ChatCompletion, a Claude Message …)."""
        if not self.host.observed:
            if not isinstance(text, str | bytes | bytearray):
                plan = self.plan(target)
                call_aliases = _check_alias_table(aliases, "call")
                return self._reply_result(text, plan, (*plan.validators, *validators), call_aliases)[0]
            text = self._check_input(text)
            plan = self.plan(target)
            call_aliases = _check_alias_table(aliases, "call")
            return self._guarded(text, plan, (*plan.validators, *validators), call_aliases)[0]
        return self._observed(text, target, aliases, validators)

    def report_failed(self, error: ParseError, ctx: CallContext | None, target_name: str, started: float) -> None:
        """Tell observers a parse failed (`parse_failed`, see `hookspecs.rp_on_event`): the parser's own paths, and
        readers built on it that fail before any text is parsed (a tool call naming the wrong tool)."""
        self.host.emit(
            "parse_failed",
            ctx,
            kind=error.kind,
            details=len(error.details),
            repairs=len(error.repairs),
            duration_s=time.perf_counter() - started,
            target=target_name,
            mode=self.policy.name,
        )

    def _observed(
        self,
        text: str | bytes | bytearray | object,
        target: Any,
        aliases: Mapping[str, str] | None,
        validators: Sequence[SemanticValidator],
    ) -> ParseResult[Any]:
        """`parse_result` with an observer registered: `parse_started`, then `parse_succeeded` or `parse_failed`
        (see `hookspecs.rp_on_event`), on every path."""
        started = time.perf_counter()
        mode = self.policy.name
        length = len(text) if isinstance(text, str | bytes | bytearray) else 0
        ctx: CallContext | None = None
        name = ""
        try:
            plan = self.plan(target)
            name = plan.name
            ctx = CallContext(policy=self.policy, target=target, schema=plan.view, aliases=self._base_aliases)
        except ConfigurationError:
            plan = None
        self.host.emit("parse_started", ctx, length=length)
        try:
            given = text if isinstance(text, str | bytes | bytearray) else None  # else a reply object
            read = None if given is None else self._check_input(given)
            if plan is None:
                plan = self.plan(target)
            call_aliases = _check_alias_table(aliases, "call")
            checks = (*plan.validators, *validators)
            if read is None:
                result, source, path = self._reply_result(text, plan, checks, call_aliases)
            else:
                result, source, path = self._guarded(read, plan, checks, call_aliases)
        except ParseError as error:
            self.report_failed(error, ctx, name, started)
            raise
        except ConfigurationError as error:
            self.host.emit(
                "parse_failed",
                ctx,
                kind="configuration_error",
                details=1,
                repairs=0,
                duration_s=time.perf_counter() - started,
                target=name or type(error).__name__,
                mode=mode,
            )
            raise
        self.host.emit(
            "parse_succeeded",
            ctx,
            repairs=len(result.repairs),
            lossy=sum(1 for r in result.repairs if not r.lossless),
            source=source,
            path=path,
            duration_s=time.perf_counter() - started,
            target=name,
            mode=mode,
        )
        return result

    def _guarded(
        self,
        text: str,
        plan: TargetPlan,
        checks: Sequence[SemanticValidator],
        call_aliases: Mapping[str, str],
        *,
        short_failed: bool = False,
        memo: dict[str, Any] | None = None,
    ) -> tuple[ParseResult[Any], str, str]:
        """The result, the source of the answer and the path it took ("fast" or "repaired"); only our own
        exceptions leave. `short_failed`: the caller already found that neither short way answers: the text is
        not valid as it stands (noted in `memo` as `_validate_exact` notes it), nor one value in harmless prose."""
        memo = {} if memo is None else memo
        try:
            if not short_failed:
                fast = self._fast_path(text, plan, checks, memo)
                if fast is not None:
                    self._one_tool_fits(text, plan)
                    return fast, "whole", "fast"
                # a lone value in harmless prose is the whole answer as a bare document is: taken before the calls
                wrapped = self._wrapped_path(text, plan, checks)
                if wrapped is not None:
                    self._one_tool_fits(wrapped[0].json_text or "", plan)
                    return wrapped
            called = self._tool_path(text, plan, checks, call_aliases)
            if called is not None:
                return called
            found = self._slow_path(text, plan, checks, call_aliases, memo)
            self._one_tool_fits(found[0].json_text or "", plan)
            return found
        except (ParseError, ConfigurationError):
            raise
        except RecursionError:
            raise UnrecoverableSyntaxError(
                "the input is nested too deeply to process",
                [ErrorDetail(path="", kind="too_deep", message="nesting too deep")],
            ) from None
        except Exception as exc:  # the contract: only our own exception types leave the library
            # the exception's text stays local (`cause`, logs): a message may be sent back to a model
            log.warning(
                "internal error while parsing",
                extra={"rp_error": type(exc).__name__, "rp_length": len(text), "rp_target": plan.name},
            )
            raise ParseError(
                f"internal error while parsing ({type(exc).__name__})",
                [
                    ErrorDetail(
                        path="",
                        kind="internal",
                        message="the parser could not process this output",
                        cause=f"{type(exc).__name__}: {exc}",
                    )
                ],
            ) from exc

    @overload
    def stream(self, chunks: Iterable[str | bytes], target: type[T], **options: Any) -> Iterator[StreamUpdate[T]]: ...
    @overload
    def stream(self, chunks: Iterable[str | bytes], target: Any, **options: Any) -> Iterator[StreamUpdate[Any]]: ...
    def stream(self, chunks: Iterable[str | bytes], target: Any, **options: Any) -> Iterator[StreamUpdate[Any]]:
        """Yield partial objects while text arrives, then the final validated object (see `streaming`)."""
        from resilient_parse.streaming import stream

        return stream(self, chunks, target, **options)

    @overload
    def astream(
        self, chunks: AsyncIterable[str | bytes], target: type[T], **options: Any
    ) -> AsyncIterator[StreamUpdate[T]]: ...
    @overload
    def astream(
        self, chunks: AsyncIterable[str | bytes], target: Any, **options: Any
    ) -> AsyncIterator[StreamUpdate[Any]]: ...
    def astream(
        self, chunks: AsyncIterable[str | bytes], target: Any, **options: Any
    ) -> AsyncIterator[StreamUpdate[Any]]:
        """The async twin of `stream`, over an async iterable of text chunks."""
        from resilient_parse.streaming import astream

        return astream(self, chunks, target, **options)

    def context(self, target: Any, aliases: Mapping[str, str] | None = None) -> CallContext:
        """A call context for `target`, as hooks see it (used by the correction loop and plugins' tests)."""
        plan = self.plan(target)
        merged = self._merge_aliases(_check_alias_table(aliases, "call")) if aliases else self._base_aliases
        return CallContext(policy=self.policy, target=target, schema=plan.view, aliases=merged)

    def feedback(self, error: ParseError, target: Any) -> str:
        """The message to send back to the model for this failure (built by the `rp_build_feedback` hook)."""
        return self.host.build_feedback(error, error.candidate, self.context(target))

    # -- stages --------------------------------------------------------------------------------------------------

    def _check_input(self, text: Any) -> str:
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
        limit = self.policy.max_input_chars
        if len(text) > limit:
            raise InputTooLargeError(
                f"the input has {len(text):,} characters, over the limit of {limit:,} (Policy.max_input_chars)",
                [ErrorDetail(path="", kind="input_too_large", message=f"{len(text)} > {limit} characters")],
            )
        return text

    def _validate_exact(
        self, json_text: str, plan: TargetPlan, *, read: bool = False, memo: dict[str, Any] | None = None
    ) -> Any:
        """Validate as Pydantic would, or return `INVALID` (None is a valid value of many targets).

        Given `memo` (the call's `CallContext.memo`, or what becomes it), a text that is certainly not JSON is noted
        there under `NOT_JSON`, so the syntax stage does not scan it with json.loads again.

        Pydantic keeps the last of two values written under one key; a document that writes a key twice takes the
        repair path, where the reader refuses two different values and merges identical ones
        (`Policy.guard_duplicate_keys`; skipped for the reader's own output, `read=True`, whose keys it settled).
        The guard costs a count of the text's colons against the members the value was built from when the
        target allows that proof, else a second parse (`has_duplicate_keys`).

        A number past a float's range (`1e999999`) validates as infinity, a value the text never wrote: refused here
        as the syntax stage refuses it (`valid_json.refuse_out_of_range`, for targets that read floats at all, when the
        value holds an infinity or its shape has no `inf_probe`).

        A model that ignores extra keys would silently drop a stray key — `Arguments` beside an optional
        `arguments`, or `Action` beside `action` with another value — and return a different object than the
        model meant. Such a document takes the repair path, where the stray key is aligned, refused or dropped
        by the rules of `conform`. Pydantic checks for strays at no extra cost when told `extra="forbid"` for this
        one validation (a document without them validates to the same object); with models that declare
        `extra="allow"` we fall back to scanning the keys. Likewise a document that writes one field under two
        declared spellings (`ticket_id` and `ticketId`) takes the repair path, where differing values are
        refused. `Policy.guard_ignored_keys` turns the guard off."""
        # a whole text (given with its memo) that opens with a word: Pydantic would only raise
        if memo is not None and not _may_be_json(json_text):
            memo[NOT_JSON] = json_text
            return INVALID
        facts = plan.facts
        guard = facts.ignore_models and self.policy.guard_ignored_keys
        pydantic_guards = guard and _EXTRA_OVERRIDE and not facts.allow_models
        try:
            if pydantic_guards:
                value = plan.adapter.validate_json(json_text, extra="forbid")
            else:
                value = plan.adapter.validate_json(json_text)
        except ValidationError as exc:
            if memo is not None and _certainly_not_json(exc):
                memo[NOT_JSON] = json_text  # the syntax stage need not ask json.loads again (`syntax.load_json`)
            return INVALID
        except ValueError:  # e.g. lone surrogates Pydantic cannot encode
            return INVALID
        if not read and plan.reads_floats and _holds_infinity(value, plan):
            refuse_out_of_range(json_text)  # `1e999999` validates as inf, a value the text never wrote
        if guard and not pydantic_guards and not self._keys_all_known(json_text, facts):
            return INVALID
        for keys in facts.quoted_spellings:
            if sum(1 for key in keys if key in json_text) > 1:
                return INVALID
        if (
            not read
            and self.policy.guard_duplicate_keys
            and not self._members_all_distinct(json_text, value, plan)
            and has_duplicate_keys(json_text)
        ):
            return INVALID
        return value

    @staticmethod
    def _members_all_distinct(json_text: str, value: Any, plan: TargetPlan) -> bool:
        """The cheap proof that valid JSON writes no key twice in one object: the validated value holds as many
        members as the text writes (`read_duplicates.key_counter`, `members_match`); False when it cannot tell."""
        counter = plan.count_members
        if counter is None:
            return False
        try:
            members = counter(value)
        except Exception:  # a value the schema walk did not foresee: ask the exact question instead
            return False
        return members_match(json_text, members)

    @staticmethod
    def _keys_all_known(json_text: str, facts: SchemaFacts) -> bool:
        """The slower stray-key check, for when Pydantic cannot be asked (old Pydantic, extra="allow" models)."""
        return not facts.open_keys and all(k in facts.known_keys for k in _KEY_PATTERN.findall(json_text))

    def _fast_path(
        self, text: str, plan: TargetPlan, checks: Sequence[SemanticValidator], memo: dict[str, Any]
    ) -> ParseResult[Any] | None:
        value = self._validate_exact(text, plan, memo=memo)
        if value is INVALID:
            return None
        repairs: list[Repair] = []
        if _needs_finishing(text, plan, checks):
            value = self._finish(value, repairs, text, checks, plan)
        return ParseResult(value=value, repairs=tuple(repairs), candidate=text, json_text=text, mode=self.policy.name)

    @staticmethod
    def _one_tool_fits(json_text: str, plan: TargetPlan) -> None:
        """For a union of models read by shape (no call named one): the value fits one member only
        (`tools.answer.check_one_tool_fits`)."""
        if isinstance(plan.view, UnionView) or (
            isinstance(plan.view, ListView) and isinstance(plan.view.item, UnionView)
        ):
            tools = _tools()
            target = tools.tool_target(plan.view)
            if target is not None:
                tools.check_one_tool_fits(json_text, target)

    def _reply_result(
        self, reply: object, plan: TargetPlan, checks: Sequence[SemanticValidator], call_aliases: Mapping[str, str]
    ) -> tuple[ParseResult[Any], str, str]:
        """`_guarded` for a provider's reply object (`tools/replies.py`): its text parsed as text is, or its tool
        calls read by name (`tools.answer.answer_reply`); the repairs start with how the reply was read."""
        from resilient_parse.tools.replies import read_reply

        found, read = read_reply(reply, self.policy)
        text = found.text or ""
        if found.calls:
            answered = _tools().answer_reply(found, plan.view, _CallReader(self, call_aliases))
            if answered is not None:
                return self._called(answered[0], (*read, *answered[1]), text, plan, checks)
            text = found.calls[0].arguments  # one call answering a target of no tool models: its arguments
        inner, source, path = self._guarded(self._check_input(text), plan, checks, call_aliases)
        return (
            ParseResult(inner.value, (*read, *inner.repairs), inner.candidate, inner.json_text, inner.mode),
            source,
            path,
        )

    def _tool_path(
        self, text: str, plan: TargetPlan, checks: Sequence[SemanticValidator], call_aliases: Mapping[str, str]
    ) -> tuple[ParseResult[Any], str, str] | None:
        """A target of tool models answered by the calls the text makes, each tool chosen by name
        (`tools/answer.py`); None when the target takes no calls or the text makes none."""
        tools = _tools()
        target = tools.tool_target(plan.view)
        if target is None or not tools.engages(text, target):
            return None
        answered = tools.answer(text, target, _CallReader(self, call_aliases))
        if answered is None:
            return None
        value, repairs = answered
        return self._called(value, repairs, text, plan, checks)

    def _called(
        self, value: Any, repairs: tuple[Repair, ...], text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]
    ) -> tuple[ParseResult[Any], str, str]:
        """The result of a value read from tool calls: the policy checked, the target's checks run."""
        self._check_policy(repairs, Candidate(text, 0, len(text), "tool_calls"))
        json_text = json.dumps(plan.adapter.dump_python(value, mode="json"))
        if checks or plan.repairers:
            kept = list(repairs)
            value = self._finish(value, kept, json_text, checks, plan)
            repairs = tuple(kept)
        result = ParseResult(value, repairs, candidate=text or json_text, json_text=json_text, mode=self.policy.name)
        return result, "tool_calls", "repaired"

    def _wrapped_path(
        self, text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]
    ) -> tuple[ParseResult[Any], str, str] | None:
        """One valid value in one fence or in prose that can neither exclude it nor offer another: the result the
        full path would give, at the cost of finding it (`stages/wrapped.py`); None sends the text the full way."""
        found = self._lone_valid(text, plan)
        if found is None:
            return None
        wrapped, body, value = found
        repairs = [Repair.make(wrapped.kind, "", None, None, offset=wrapped.offset)]
        if _needs_finishing(body, plan, checks):
            try:
                value = self._finish(value, repairs, body, checks, plan)
            except ParseError:
                return None  # the full path weighs every candidate against the checks, and explains a failure
        result = ParseResult(value=value, repairs=tuple(repairs), candidate=body, json_text=body, mode=self.policy.name)
        return result, "fence" if wrapped.kind == "extract_fence" else "span", "fast"

    def _lone_valid(self, text: str, plan: TargetPlan) -> tuple[Wrapped, str, Any] | None:
        """Where the lone value stands, its JSON and what that validates to, when the short way may take it
        (`parse` reads the value alone: no repairs, no checks)."""
        wrapped = _wrapped()
        if not self.host.selects_alone or wrapped.reads_plain(plan.view):
            return None
        found = wrapped.lone_value(text)
        if found is None or not self.policy.allows(found.kind, True):
            return None
        if _tools().call_in_prose(found.prose, text, found.start):
            return None  # ("Action: delete" before the value: the calls the text makes decide what it answers)
        if not self.host.extracts_alone and self.host.foreign_candidates(
            text, CallContext(policy=self.policy, target=plan.target, schema=plan.view, aliases=self._base_aliases)
        ):
            return None
        body = text[found.start : found.end]
        value = self._validate_exact(body, plan)
        return None if value is INVALID else (found, body, value)

    def _finish(
        self, value: Any, repairs: list[Repair], json_text: str, checks: Sequence[SemanticValidator], plan: TargetPlan
    ) -> Any:
        """After Pydantic: the template-echo check, the plugins' value repairers, then the semantic validators."""
        if "<" in json_text:
            from resilient_parse.stages.select import refuse_template_echo

            refuse_template_echo(json_text)
        for repair in plan.repairers:
            result = repair(value)
            if result is None:
                continue
            new_value, fixes = result
            if fixes and all(self.policy.allows(r.kind, r.lossless) for r in fixes):
                value = new_value
                repairs.extend(fixes)
        if checks:
            from resilient_parse.stages.validate import run_semantic_checks

            run_semantic_checks(checks, value, json_text)
        return value

    def _slow_path(
        self,
        text: str,
        plan: TargetPlan,
        checks: Sequence[SemanticValidator],
        call_aliases: Mapping[str, str],
        memo: dict[str, Any],
    ) -> tuple[ParseResult[Any], str, str]:
        aliases = self._merge_aliases(call_aliases) if call_aliases else self._base_aliases
        ctx = CallContext(policy=self.policy, target=plan.target, schema=plan.view, aliases=aliases, text=text)
        ctx.memo.update(memo)
        found = self.host.extract_candidates(text, ctx)
        candidates = self.host.select_candidates(text, found, ctx)
        from resilient_parse.stages.select import explain_no_answer, select_answer

        if not candidates:
            if not found:
                cut = _cut_literal(text)
                if cut is not None:
                    raise cut
            raise explain_no_answer(text, found, ctx) if found else self.host.explain_no_candidate(text, ctx)
        chosen = select_answer(
            candidates,
            lambda cand: self._attempt(cand, plan, ctx, checks),
            plan.adapter,
            self.policy.max_candidates,
        )
        # the repairs that came with the answer (extraction's, or a plugin's) must be allowed too; checked once
        # it is chosen, so a candidate that fails reports its own error (a cut-off draft is truncated output)
        self._check_policy(chosen.candidate.repairs, chosen.candidate)
        result = ParseResult(
            value=chosen.value,
            repairs=chosen.repairs,
            candidate=chosen.candidate.text,
            json_text=chosen.json_text,
            mode=self.policy.name,
        )
        return result, chosen.candidate.source, "repaired"

    def _attempt(
        self, cand: Candidate, plan: TargetPlan, ctx: CallContext, checks: Sequence[SemanticValidator]
    ) -> Success:
        """Read, align, coerce and validate one candidate."""
        from resilient_parse.conform import Conformer
        from resilient_parse.stages.select import Success
        from resilient_parse.stages.validate import validate_json

        repairs = list(cand.repairs)
        if cand.text != ctx.text and cand.text != ctx.text.strip(_JSON_SPACE):
            # (the text itself was found not valid as it stands; with only JSON white space around, nor is this)
            quick = self._validate_exact(cand.text, plan, memo=ctx.memo)
            if quick is not INVALID:
                quick = self._finish(quick, repairs, cand.text, checks, plan)
                return Success(cand, quick, tuple(repairs), cand.text, total_cost(repairs))
        try:
            loaded = self.host.parse(cand.text, ctx)  # the reader settles truncation and duplicate keys itself
        except UnrecoverableSyntaxError as exc:
            if exc.details and exc.details[0].kind == "trailing_text":
                _refuse_values_for_one(cand.text, plan, self.policy, exc)
            raise
        self._check_policy(loaded.repairs, cand)
        repairs.extend(loaded.repairs)
        if loaded.repairs:
            quick = self._validate_exact(loaded.json_text, plan, read=True)
            if quick is not INVALID:
                quick = self._finish(quick, repairs, loaded.json_text, checks, plan)
                return Success(cand, quick, tuple(repairs), loaded.json_text, total_cost(repairs))
        conformed = Conformer(ctx, self.host.propose_key_mappings, self.host.coerce_value).run(loaded.tree, plan.view)
        json_text = loaded.json_text
        if conformed.repairs:
            self._check_policy(conformed.repairs, cand)
            repairs.extend(conformed.repairs)
            json_text = json.dumps(conformed.tree, ensure_ascii=False)
        try:
            value = validate_json(plan.adapter, json_text, conformed.tree, plan.view)
        except SchemaMismatchError as exc:
            if conformed.errors:
                raise self._refusal_error(conformed.errors, json_text, repairs) from None
            value, json_text = self._second_pass(exc, conformed.tree, plan, ctx, cand, repairs)
        if conformed.errors:
            # Pydantic accepted the object without the values we refused to guess at (e.g. an optional field)
            raise self._refusal_error(conformed.errors, json_text, repairs)
        value = self._finish(value, repairs, json_text, checks, plan)
        return Success(cand, value, tuple(repairs), json_text, total_cost(repairs))

    def _second_pass(
        self,
        failure: SchemaMismatchError,
        tree: Any,
        plan: TargetPlan,
        ctx: CallContext,
        cand: Candidate,
        repairs: list[Repair],
    ) -> tuple[Any, str]:
        """Offer the values Pydantic rejected to the coercion hook once; re-validate if anything changed."""
        from resilient_parse.revisit import revisit
        from resilient_parse.stages.validate import validate_json

        second = revisit(tree, failure.details, plan.view, ctx, self.host.coerce_value)
        if second.refusals:
            refused = {r.path for r in second.refusals}
            others = [d for d in failure.details if d.path not in refused]
            raise self._refusal_error([*second.refusals, *others], failure.candidate or "", repairs) from None
        if not second.repairs:
            failure.repairs = tuple(repairs)
            raise failure
        self._check_policy(second.repairs, cand)
        repairs.extend(second.repairs)
        json_text = json.dumps(second.tree, ensure_ascii=False)
        try:
            return validate_json(plan.adapter, json_text, second.tree, plan.view), json_text
        except SchemaMismatchError as exc:
            exc.repairs = tuple(repairs)
            raise

    def _refusal_error(self, errors: list[ErrorDetail], json_text: str, repairs: list[Repair]) -> ParseError:
        first = errors[0]
        ambiguous = any(e.kind.startswith("ambiguous") or e.kind.startswith("hedged") for e in errors)
        cls = AmbiguousMatchError if ambiguous else SchemaMismatchError
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        return cls(f"{first.path or '(root)'}: {first.message}{more}", errors, candidate=json_text, repairs=repairs)

    def _check_policy(self, repairs: Sequence[Repair], cand: Candidate) -> None:
        # a reader's trace holds one repair per token but few kinds: each (kind, lossless) pair is asked once
        allows = self.policy.allows
        if all(allows(kind, lossless) for kind, lossless in set(map(_KIND_AND_LOSSLESS, repairs))):
            return
        refused = [r for r in repairs if not allows(r.kind, r.lossless)]
        if refused:
            first = refused[0]
            raise UnrecoverableSyntaxError(
                f"repair {first.kind!r} at {first.path or '(root)'} is not allowed by the {self.policy.name} policy",
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


def _described(kind: str) -> str:
    """ ": " and what the repair kind does, for an error that refuses it ("" for a kind no table describes)."""
    info = kind_info(kind)
    return f": {info.description}" if info is not None else ""
