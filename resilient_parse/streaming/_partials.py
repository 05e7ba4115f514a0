"""Partial types: the twin of a target in which every field may still be missing, that partials are instances of."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ForwardRef, Optional, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, RootModel, TypeAdapter, create_model
from pydantic.fields import FieldInfo
from typing_extensions import is_typeddict

_COPIED_CONFIG = (
    "populate_by_name",
    "validate_by_name",
    "validate_by_alias",
    "arbitrary_types_allowed",
    "str_strip_whitespace",
    "str_to_lower",
    "str_to_upper",
    "use_enum_values",
    "coerce_numbers_to_str",
)


def _is_discriminator(meta: Any) -> bool:
    if isinstance(meta, FieldInfo):
        return meta.discriminator is not None
    return type(meta).__name__ == "Discriminator"


def _strip_required(tp: Any) -> Any:
    origin = get_origin(tp)
    if origin is not None and getattr(origin, "_name", None) in ("Required", "NotRequired", "ReadOnly"):
        return _strip_required(get_args(tp)[0])
    return tp


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:  # unresolvable forward references: the raw annotations are the best we have
        return dict(getattr(cls, "__annotations__", {}))


class _PartialBuilder:
    """Turns a target type into its partial twin: every model (BaseModel, dataclass, TypedDict) becomes a
    `Partial<Name>` model whose fields are all optional, recursively through lists, dicts, tuples and unions.
    Discriminators are dropped (a partial member may not have its tag yet); field constraints and validators are
    not copied (a value being written need not satisfy them yet — the final validation does)."""

    def __init__(self, extra: str = "ignore") -> None:
        self.extra = extra
        self.memo: dict[Any, Any] = {}
        self.namespace: dict[str, Any] = {}
        self.created: list[type[BaseModel]] = []

    def root(self, tp: Any) -> Any:
        out = self.convert(tp)
        for model in self.created:
            model.model_rebuild(force=True, _types_namespace=self.namespace)
        return out

    def convert(self, tp: Any) -> Any:
        tp = _strip_required(tp)
        origin = get_origin(tp)
        args = get_args(tp)
        if origin is Annotated:
            inner = self.convert(args[0])
            if inner is args[0]:
                return tp
            meta = tuple(m for m in args[1:] if not _is_discriminator(m))
            return Annotated.__class_getitem__((inner, *meta)) if meta else inner
        if isinstance(tp, type):
            if issubclass(tp, RootModel):
                return self.convert(tp.model_fields["root"].annotation)
            if issubclass(tp, BaseModel):
                return self.model(tp, self._model_fields(tp), dict(tp.model_config))
            if dataclasses.is_dataclass(tp):
                return self.model(tp, self._dataclass_fields(tp), dict(getattr(tp, "__pydantic_config__", {}) or {}))
            if is_typeddict(tp):
                fields = [(name, hint, None, None) for name, hint in _hints(tp).items()]
                return self.model(tp, fields, dict(getattr(tp, "__pydantic_config__", {}) or {}))
            return tp
        if origin is typing.Literal or not args:
            return tp
        new = tuple(a if a is Ellipsis else self.convert(a) for a in args)
        if all(a is b for a, b in zip(new, args)):
            return tp
        if origin in (Union, types.UnionType):
            return Union[new]  # noqa: UP007 - built from a runtime tuple
        return origin[new]

    @staticmethod
    def _model_fields(cls: type[BaseModel]) -> list[tuple[str, Any, Any, Any]]:
        return [(name, info.annotation, info.alias, info.validation_alias) for name, info in cls.model_fields.items()]

    @staticmethod
    def _dataclass_fields(cls: Any) -> list[tuple[str, Any, Any, Any]]:
        infos: dict[str, FieldInfo] = getattr(cls, "__pydantic_fields__", None) or {}
        hints = _hints(cls)
        out: list[tuple[str, Any, Any, Any]] = []
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            info = infos.get(f.name)
            if info is not None:
                out.append((f.name, info.annotation, info.alias, info.validation_alias))
            else:
                out.append((f.name, hints.get(f.name, Any), None, None))
        return out

    def model(self, cls: Any, fields: list[tuple[str, Any, Any, Any]], config: Mapping[str, Any]) -> Any:
        cached = self.memo.get(cls)
        if cached is not None:
            return cached
        key = f"__rp_partial_{len(self.memo)}"
        self.memo[cls] = ForwardRef(key)  # what a recursive reference sees while the model is being built
        definitions: dict[str, Any] = {}
        for name, annotation, alias, validation_alias in fields:
            definitions[name] = (
                Optional[self.convert(annotation)],  # noqa: UP045 - built at runtime
                Field(default=None, alias=alias, validation_alias=validation_alias),
            )
        settings = ConfigDict(extra=self.extra)  # type: ignore[typeddict-item]
        for option in _COPIED_CONFIG:
            if option in config:
                settings[option] = config[option]  # type: ignore[literal-required]
        model: type[BaseModel] = create_model(
            f"Partial{cls.__name__}",
            __config__=settings,
            __doc__=f"{cls.__name__} while it is being streamed: every field may still be missing (None).",
            __module__=__name__,
            **definitions,
        )
        self.memo[cls] = model
        self.namespace[key] = model
        self.created.append(model)
        return model


@dataclass(frozen=True)
class _Partial:
    """The partial type of a target, its adapter, and an adapter for the same shape that refuses unknown keys (a
    tree it accepts needs no key alignment, so the stream can skip the conformer)."""

    cls: Any
    adapter: TypeAdapter[Any]
    exact: TypeAdapter[Any]


@functools.lru_cache(maxsize=256)
def _cached_partial(target: Any) -> _Partial:
    return _build_partial(target)


def _build_partial(target: Any) -> _Partial:
    partial = _PartialBuilder().root(target)
    exact = _PartialBuilder(extra="forbid").root(target)
    return _Partial(partial, TypeAdapter(partial), TypeAdapter(exact))


def _partial_for(target: Any) -> _Partial:
    try:
        hash(target)
    except TypeError:
        return _build_partial(target)
    return _cached_partial(target)


def partial_type(target: Any) -> Any:
    """The partial twin of `target` that streamed updates are instances of (cached per target).

    `Plan` becomes `PartialPlan` with every field optional (None = not arrived yet); nested models, lists and dicts
    of models and unions follow recursively; `list[Step]` becomes `list[PartialStep]`. Scalars, enums and
    literals keep their types: a value shows up only once it is complete and valid.
    """
    return _partial_for(target).cls
