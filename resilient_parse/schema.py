"""The schema view: a target type read once into a tree the alignment and coercion stages can walk.

Pydantic validates; this view only answers the questions repair needs — which keys an object may have (names and
declared aliases), which fields are required, what each value should be (a model, a list, an enum's choices…).
Views are built once per target and cached by the parser; recursive models share one view per class.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import decimal
import enum
import re
import types
import typing
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import AliasChoices, AliasPath, BaseModel, Discriminator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from resilient_parse.errors import ConfigurationError

MISSING: Any = dataclasses.MISSING

ALIAS_ATTRIBUTE = "__rp_aliases__"
"""Class attribute (or `model_config` key "rp_aliases") holding a model's own alias table: {"tool": "action"}."""


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATORS = re.compile(r"[\s\-_.:/]+")


def normalise_key(key: str) -> str:
    """One spelling per word sequence: `cityName`, `CityName`, `city-name`, `city name`, `CITY_NAME` → `city_name`.

    Not cached: most keys it sees are the model's, and a cache keyed by them would keep hostile output alive
    (schema-side spellings are normalised once, into `ModelView.spellings`)."""
    if key.isascii() and key.islower() and key.isidentifier() and "__" not in key and key[0] != "_" != key[-1]:
        return key  # already snake_case: the common case, without the two regex passes
    spaced = _CAMEL.sub("_", key.strip())
    return _SEPARATORS.sub("_", spaced).strip("_").lower()


class TypeView:
    """What a value at some path should be. Subclasses describe the kinds repair cares about."""

    kind: str = "any"

    def describe(self) -> str:
        return self.kind


@dataclass(eq=False)
class AnyView(TypeView):
    kind: str = "any"


@dataclass(eq=False)
class ScalarView(TypeView):
    py_type: type
    kind: str = "scalar"

    def describe(self) -> str:
        return self.py_type.__name__


@dataclass(eq=False)
class NoneView(TypeView):
    kind: str = "none"


@dataclass(eq=False)
class ChoiceView(TypeView):
    """An enum or Literal: the allowed values as JSON writes them, and for enums the member names."""

    values: tuple[Any, ...]
    enum_cls: type[enum.Enum] | None = None
    kind: str = "choice"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.enum_cls) if self.enum_cls else ()

    @cached_property
    def exact_values(self) -> frozenset[tuple[type, Any]] | None:
        """The allowed values keyed by type and value, for a membership test that does not loop (True is not 1,
        "1" is not 1); None when some value is unhashable."""
        try:
            return frozenset((type(v), v) for v in self.values)
        except TypeError:
            return None

    @cached_property
    def numeric_values(self) -> frozenset[int | float]:
        """The allowed numbers (not bools), which a number of the other numeric type also matches (1.0 for 1)."""
        return frozenset(v for v in self.values if isinstance(v, int | float) and not isinstance(v, bool))

    @cached_property
    def int_spellings(self) -> frozenset[str]:
        """How the allowed ints (not bools) are written as strings ("3"), which Pydantic's lax mode reads."""
        return frozenset(str(v) for v in self.values if isinstance(v, int) and not isinstance(v, bool))

    def describe(self) -> str:
        return "one of " + ", ".join(repr(v) for v in self.values)


@dataclass(eq=False)
class ListView(TypeView):
    item: TypeView
    container: type = list
    kind: str = "list"

    def describe(self) -> str:
        return f"{self.container.__name__}[{self.item.describe()}]"


@dataclass(eq=False)
class TupleView(TypeView):
    items: tuple[TypeView, ...]
    kind: str = "tuple"


@dataclass(eq=False)
class DictView(TypeView):
    value: TypeView
    kind: str = "dict"

    @property
    def free_form(self) -> bool:
        return isinstance(self.value, AnyView)

    def describe(self) -> str:
        return f"dict[str, {self.value.describe()}]"


@dataclass(eq=False)
class UnionView(TypeView):
    options: tuple[TypeView, ...]
    nullable: bool = False
    discriminator: str | None = None
    kind: str = "union"

    def describe(self) -> str:
        parts = [o.describe() for o in self.options] + (["null"] if self.nullable else [])
        return " | ".join(parts)


@dataclass(eq=False)
class FieldView:
    """One field of a model: its name, the keys that validate it, what its value should be, and its default."""

    name: str
    type: TypeView
    required: bool
    input_keys: tuple[str, ...]
    default: Any = field(default_factory=lambda: MISSING)  # MISSING itself would make the field required
    description: str | None = None
    metadata: tuple[Any, ...] = ()
    path_keys: frozenset[str] = frozenset()
    """Keys that reach the field through an `AliasPath` (`{"names": ["Ada"]}`): the value under such a key is a
    container holding the field's value, not the value itself, so repair leaves it to Pydantic."""
    default_factory: Any = None
    linear_pattern: str | None = None
    """The field's regex `pattern` when Pydantic checks it with its linear Rust engine. None when there is none,
    or when Pydantic runs it with Python's backtracking `re` (`regex_engine="python-re"`, a compiled
    `re.Pattern`): repair then never runs model text against it."""

    @property
    def primary_key(self) -> str:
        """The key to write when renaming onto this field: its first direct key (its alias when it has one)."""
        return next((k for k in self.input_keys if k not in self.path_keys), self.name)

    @cached_property
    def renamable(self) -> bool:
        """Whether a key can be renamed onto this field (false when only an `AliasPath` reaches it); asked for
        every proposal, and fixed once the view is built."""
        return any(k not in self.path_keys for k in self.input_keys)

    def default_value(self) -> Any:
        """The default Pydantic will fill in, for the trace; factories of plain containers are called, others not."""
        if self.default is not MISSING and self.default is not PydanticUndefined:
            return self.default
        if self.default_factory in (list, dict, set, frozenset, tuple):
            return self.default_factory()
        return "(default)"


@dataclass(eq=False)
class ModelView(TypeView):
    """A BaseModel, dataclass or TypedDict: its fields, the keys that reach them, and what it does with extras."""

    name: str
    cls: Any
    fields: dict[str, FieldView] = field(default_factory=dict)
    key_to_field: dict[str, str] = field(default_factory=dict)
    extra: str = "ignore"
    own_aliases: Mapping[str, str] = field(default_factory=dict)
    kind: str = "model"
    extra_declared: bool = False
    """Whether the model's config sets `extra` itself (rather than Pydantic's default "ignore")."""

    def field_for_key(self, key: str) -> FieldView | None:
        name = self.key_to_field.get(key)
        return self.fields[name] if name is not None else None

    @cached_property
    def spellings(self) -> dict[str, tuple[str, ...]]:
        """Normalised spelling → the fields it names, for every field name and declared key (computed once).

        Two fields whose names normalise alike (`cityName` and `city_name`) share an entry: a key matching it is
        ambiguous, and the core refuses it.
        """
        names: dict[str, tuple[str, ...]] = {}
        for fv in self.fields.values():
            for spelling in (fv.name, *fv.input_keys):
                norm = normalise_key(spelling)
                if fv.name not in names.get(norm, ()):
                    names[norm] = (*names.get(norm, ()), fv.name)
        return names

    @cached_property
    def spelling_list(self) -> tuple[str, ...]:
        """The keys of `spellings` in order, for scoring a key against all of them in one call."""
        return tuple(self.spellings)

    @cached_property
    def field_order(self) -> dict[str, int]:
        """Each field's place among `spellings`' fields, by its first spelling (how ties between fields break)."""
        order: dict[str, int] = {}
        for names in self.spellings.values():
            for name in names:
                order.setdefault(name, len(order))
        return order

    @cached_property
    def most_spellings_per_field(self) -> int:
        """The most entries of `spellings` that name one field."""
        counts: dict[str, int] = {}
        for names in self.spellings.values():
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        return max(counts.values(), default=0)

    @cached_property
    def squashed(self) -> dict[str, tuple[str, ...]]:
        """Spellings with the word breaks removed (`cityname` for `city_name`), for keys written without any."""
        out: dict[str, tuple[str, ...]] = {}
        for norm, names in self.spellings.items():
            squashed = norm.replace("_", "")
            out[squashed] = tuple(dict.fromkeys((*out.get(squashed, ()), *names)))
        return out

    def describe(self) -> str:
        return self.name


@dataclass(frozen=True)
class SchemaFacts:
    """Whole-schema facts the fast path needs, computed once."""

    known_keys: frozenset[str]
    open_keys: bool  # a free-form dict, Any, or extra="allow" somewhere: arbitrary keys are legitimate
    allow_models: bool  # some model declares extra="allow"
    ignore_models: bool  # some model with fields ignores extra keys (Pydantic's default): a stray key could vanish
    quoted_spellings: tuple[tuple[str, ...], ...]  # each field with several declared keys: '"ticket_id"', '"ticketId"'


_SCALARS: tuple[type, ...] = (
    str,
    int,
    float,
    bool,
    bytes,
    decimal.Decimal,
    _dt.datetime,
    _dt.date,
    _dt.time,
    _dt.timedelta,
    uuid.UUID,
)


def _annotated_discriminator(tp: Any) -> str | None:
    """The discriminator declared in `Annotated[A | B, Field(discriminator="kind")]` (or `Discriminator("kind")`)."""
    while get_origin(tp) is typing.Annotated:
        for meta in getattr(tp, "__metadata__", ()):
            found = _discriminator_name(getattr(meta, "discriminator", None) if isinstance(meta, FieldInfo) else meta)
            if found is not None:
                return found
        tp = get_args(tp)[0]
    return None


def _discriminator_name(disc: Any) -> str | None:
    if isinstance(disc, str):
        return disc
    if isinstance(disc, Discriminator) and isinstance(disc.discriminator, str):
        return disc.discriminator
    return None


def _strip_annotated(tp: Any) -> Any:
    while get_origin(tp) is typing.Annotated:
        tp = get_args(tp)[0]
    origin = get_origin(tp)
    if origin is not None and getattr(origin, "_name", None) in ("Required", "NotRequired", "ReadOnly"):
        return _strip_annotated(get_args(tp)[0])
    return tp


def _input_keys(name: str, info: FieldInfo, config: Mapping[str, Any]) -> tuple[tuple[str, ...], frozenset[str]]:
    """The keys Pydantic accepts for a field, in its order of preference, and which of them lead into an AliasPath.

    Mirrors Pydantic: a validation alias (str, AliasChoices, AliasPath) or else the alias (which an
    alias_generator fills in) is accepted unless `validate_by_alias=False`; the name is accepted when there is no
    alias, or with `populate_by_name` / `validate_by_name`.
    """
    keys: list[str] = []
    direct: set[str] = set()
    va = info.validation_alias
    choices = va.choices if isinstance(va, AliasChoices) else [va] if va is not None else []
    for choice in choices:
        if isinstance(choice, str):
            keys.append(choice)
            direct.add(choice)
        elif isinstance(choice, AliasPath) and choice.path and isinstance(choice.path[0], str):
            keys.append(choice.path[0])
            if len(choice.path) == 1:
                direct.add(choice.path[0])
    if not keys and info.alias:
        keys.append(info.alias)
        direct.add(info.alias)
    if config.get("validate_by_alias", True) is False:
        keys, direct = [], set()
    if not keys or config.get("populate_by_name") or config.get("validate_by_name"):
        keys.append(name)
        direct.add(name)
    return tuple(dict.fromkeys(keys)), frozenset(k for k in keys if k not in direct)


class _Builder:
    def __init__(self) -> None:
        self.memo: dict[Any, TypeView] = {}

    def build(self, tp: Any) -> TypeView:
        disc = _annotated_discriminator(tp)
        tp = _strip_annotated(tp)
        if disc is not None and get_origin(tp) in (Union, types.UnionType):
            return self._union(get_args(tp), disc)
        try:
            cached = self.memo.get(tp)
        except TypeError:
            cached = None
        if cached is not None:
            return cached
        view = self._build(tp)
        with contextlib.suppress(TypeError):
            self.memo.setdefault(tp, view)
        return view

    def _build(self, tp: Any) -> TypeView:
        if tp is Any or tp is object:
            return AnyView()
        if tp is None or tp is type(None):
            return NoneView()
        origin = get_origin(tp)
        if origin is Literal:
            # the values as JSON writes them: `Literal[Kind.A]` is read from "alpha"
            return ChoiceView(values=tuple(a.value if isinstance(a, enum.Enum) else a for a in get_args(tp)))
        if origin in (Union, types.UnionType):
            return self._union(get_args(tp), None)
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return ChoiceView(values=tuple(m.value for m in tp), enum_cls=tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return self._model(tp)
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return self._dataclass(tp)
        if isinstance(tp, type) and typing.is_typeddict(tp):
            return self._typeddict(tp)
        if origin in (list, set, frozenset, Sequence, typing.Sequence) or tp in (list, set, frozenset):
            args = get_args(tp)
            container = origin if isinstance(origin, type) and origin is not Sequence else list
            if tp in (list, set, frozenset):
                container = tp
            return ListView(item=self.build(args[0]) if args else AnyView(), container=container)
        if origin is tuple or tp is tuple:
            args = get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return ListView(item=self.build(args[0]), container=tuple)
            if not args:
                return ListView(item=AnyView(), container=tuple)
            return TupleView(items=tuple(self.build(a) for a in args))
        if origin in (dict, Mapping, typing.Mapping) or tp is dict:
            args = get_args(tp)
            return DictView(value=self.build(args[1]) if len(args) == 2 else AnyView())
        if isinstance(tp, type) and issubclass(tp, _SCALARS):
            base = next(s for s in _SCALARS if issubclass(tp, s))
            return ScalarView(py_type=bool if issubclass(tp, bool) else base)
        return AnyView()

    def _union(self, args: Sequence[Any], discriminator: str | None) -> TypeView:
        nullable = any(a is type(None) or a is None for a in args)
        options = tuple(self.build(a) for a in args if a is not type(None) and a is not None)
        if len(options) == 1 and discriminator is None:
            only = options[0]
            return UnionView(options=(only,), nullable=True) if nullable else only
        return UnionView(options=options, nullable=nullable, discriminator=discriminator)

    def _field_type(self, annotation: Any, info: FieldInfo | None) -> TypeView:
        disc = _discriminator_name(info.discriminator) if info is not None else None
        inner = _strip_annotated(annotation)
        if disc is not None and get_origin(inner) in (Union, types.UnionType):
            return self._union(get_args(inner), disc)
        return self.build(annotation)

    def _model(self, cls: type[BaseModel]) -> ModelView:
        config = cls.model_config
        view = ModelView(name=cls.__name__, cls=cls, extra=str(config.get("extra") or "ignore"))
        view.extra_declared = config.get("extra") is not None
        self.memo[cls] = view
        for name, info in cls.model_fields.items():
            keys, path_keys = _input_keys(name, info, config)
            fv = FieldView(
                name=name,
                type=self._field_type(info.annotation, info),
                required=info.is_required(),
                input_keys=keys,
                default=MISSING if info.is_required() or info.default_factory else info.default,
                description=info.description,
                metadata=tuple(info.metadata),
                path_keys=path_keys,
                default_factory=info.default_factory,
                linear_pattern=_linear_pattern(info.metadata, config),
            )
            view.fields[name] = fv
        view.key_to_field = {k: f.name for f in view.fields.values() for k in f.input_keys}
        view.own_aliases = _own_aliases(cls, config)
        return view

    def _dataclass(self, cls: type) -> ModelView:
        view = ModelView(name=cls.__name__, cls=cls)
        self.memo[cls] = view
        pyd_fields: dict[str, FieldInfo] | None = getattr(cls, "__pydantic_fields__", None)
        config = getattr(cls, "__pydantic_config__", {}) or {}
        view.extra = str(config.get("extra") or "ignore")
        view.extra_declared = config.get("extra") is not None
        hints = _hints(cls)
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            info = pyd_fields.get(f.name) if pyd_fields else None
            required = (
                info.is_required() if info is not None else (f.default is MISSING and f.default_factory is MISSING)
            )
            keys, path_keys = _input_keys(f.name, info, config) if info is not None else ((f.name,), frozenset())
            view.fields[f.name] = FieldView(
                name=f.name,
                type=self._field_type(hints.get(f.name, Any), info),
                required=required,
                input_keys=keys,
                default=f.default,
                metadata=tuple(info.metadata) if info is not None else (),
                path_keys=path_keys,
                default_factory=None if f.default_factory is MISSING else f.default_factory,
                linear_pattern=_linear_pattern(info.metadata, config) if info is not None else None,
            )
        view.key_to_field = {k: fv.name for fv in view.fields.values() for k in fv.input_keys}
        view.own_aliases = _own_aliases(cls, config)
        return view

    def _typeddict(self, cls: type) -> ModelView:
        config = getattr(cls, "__pydantic_config__", {}) or {}
        view = ModelView(name=cls.__name__, cls=cls, extra=str(config.get("extra") or "ignore"))
        view.extra_declared = config.get("extra") is not None
        self.memo[cls] = view
        required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
        for name, annotation in _hints(cls).items():
            view.fields[name] = FieldView(
                name=name, type=self.build(annotation), required=name in required_keys, input_keys=(name,)
            )
        view.key_to_field = {fv.name: fv.name for fv in view.fields.values()}
        view.own_aliases = _own_aliases(cls, config)
        return view


def _linear_pattern(metadata: Sequence[Any], config: Mapping[str, Any]) -> str | None:
    """The `pattern` Pydantic checks with its Rust engine (linear time), or None (see `FieldView.linear_pattern`)."""
    if config.get("regex_engine", "rust-regex") != "rust-regex":
        return None
    for meta in metadata:
        pattern = getattr(meta, "pattern", None)
        if pattern is not None:
            return pattern if isinstance(pattern, str) else None  # a compiled re.Pattern runs under Python's re
    return None


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:  # unresolvable forward references: fall back to raw annotations
        return dict(getattr(cls, "__annotations__", {}))


def _own_aliases(cls: Any, config: Mapping[str, Any]) -> Mapping[str, str]:
    table = getattr(cls, ALIAS_ATTRIBUTE, None) or config.get("rp_aliases") or {}
    if not isinstance(table, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise ConfigurationError(
            f"{ALIAS_ATTRIBUTE} of {getattr(cls, '__name__', cls)} must map str keys to str fields"
        )
    return dict(table)


def build_view(target: Any) -> TypeView:
    """Read a target type into a view. Unknown types become AnyView (Pydantic still validates them)."""
    return _Builder().build(target)


def iter_views(root: TypeView) -> Iterator[TypeView]:
    """Every view reachable from `root`, once each (recursive models are visited once)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        view = stack.pop()
        if id(view) in seen:
            continue
        seen.add(id(view))
        yield view
        if isinstance(view, ModelView):
            stack.extend(f.type for f in view.fields.values())
        elif isinstance(view, ListView):
            stack.append(view.item)
        elif isinstance(view, TupleView):
            stack.extend(view.items)
        elif isinstance(view, DictView):
            stack.append(view.value)
        elif isinstance(view, UnionView):
            stack.extend(view.options)


def schema_facts(root: TypeView) -> SchemaFacts:
    known: set[str] = set()
    open_keys = allow_models = ignore_models = False
    spellings: list[tuple[str, ...]] = []
    for view in iter_views(root):
        if isinstance(view, ModelView):
            known.update(view.key_to_field)
            if view.extra == "allow":
                open_keys = allow_models = True
            if view.extra == "ignore" and view.fields:
                ignore_models = True
            spellings.extend(
                tuple(f'"{key}"' for key in fv.input_keys) for fv in view.fields.values() if len(fv.input_keys) > 1
            )
        elif isinstance(view, (DictView, AnyView)):
            open_keys = True
    return SchemaFacts(frozenset(known), open_keys, allow_models, ignore_models, tuple(spellings))
