"""The toolcalls plugin: makes `ToolCall` targets readable from every vendor format, and — when bound to a
registry — checks names and arguments against the registered tools and tells the model which tools exist.

The entry point registers `default_plugin` (no registry: format recognition only) under the name "toolcalls".
`Parser(plugins=[ToolCallsPlugin(registry)])` replaces it with one bound to your tools. Targets without a
`ToolCall` in them are not touched.
"""

from __future__ import annotations

import contextlib
import json
import threading
import weakref
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ValidationError

from resilient_parse import CallContext, Candidate, Coercion, ErrorDetail, ParseError, Parser, Policy, hookimpl
from resilient_parse.plugin_api import (
    FieldView,
    ListView,
    ModelView,
    TypeView,
    UnionView,
    details_from_validation_error,
    format_feedback,
    iter_views,
    split_pointer,
)
from rp_toolcalls.calls import resolve_name
from rp_toolcalls.formats import RawCall, extract_calls, load_json
from rp_toolcalls.models import ToolCall
from rp_toolcalls.registry import ToolRegistry

PLUGIN_NAME = "toolcalls"
CANDIDATE_TIER = 1
_MAX_DEPTH = 64


def _is_call_model(view: TypeView) -> bool:
    return isinstance(view, ModelView) and isinstance(view.cls, type) and issubclass(view.cls, ToolCall)


def contains_tool_call(view: TypeView) -> bool:
    """Whether a target's schema view holds a `ToolCall` anywhere."""
    return any(_is_call_model(v) for v in iter_views(view))


def _wants_list(view: TypeView) -> bool:
    if isinstance(view, UnionView):
        return any(_wants_list(o) for o in view.options)
    return isinstance(view, ListView) and _is_call_model(view.item)


def _wants_one(view: TypeView) -> bool:
    if isinstance(view, UnionView):
        return any(_wants_one(o) for o in view.options)
    return _is_call_model(view)


def find_calls(value: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, ToolCall]]:
    """Every `ToolCall` inside a validated value, with its JSON Pointer."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, ToolCall):
        yield path, value
    elif isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            key = info.alias if isinstance(info.alias, str) else name
            yield from find_calls(getattr(value, name, None), f"{path}/{key}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from find_calls(item, f"{path}/{i}", depth + 1)
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from find_calls(item, f"{path}/{k}", depth + 1)


class ToolCallsPlugin:
    """Register with `Parser(plugins=[ToolCallsPlugin(registry)])`; without a registry it only reads formats."""

    rp_name = PLUGIN_NAME

    def __init__(self, registry: ToolRegistry | None = None) -> None:
        self.registry = registry
        self._loaders: dict[Policy, Parser] = {}
        self._lock = threading.Lock()
        self._seen: weakref.WeakKeyDictionary[TypeView, bool] = weakref.WeakKeyDictionary()

    def __repr__(self) -> str:
        return f"ToolCallsPlugin(tools={self.registry.names if self.registry else None!r})"

    def _has_call(self, view: TypeView) -> bool:
        """`contains_tool_call`, remembered per schema view: hooks ask on every call for every target."""
        try:
            return self._seen[view]
        except (KeyError, TypeError):
            pass
        found = contains_tool_call(view)
        with contextlib.suppress(TypeError):
            self._seen[view] = found
        return found

    def _loader(self, policy: Policy) -> Parser:
        """A plain parser (no entry points, so no recursion into this plugin) for reading embedded JSON."""
        with self._lock:
            loader = self._loaders.get(policy)
            if loader is None:
                loader = self._loaders[policy] = Parser(policy, entrypoints=False)
            return loader

    # -- candidates ----------------------------------------------------------------------------------------------

    @hookimpl
    def rp_extract_candidates(self, text: str, ctx: CallContext) -> list[Candidate] | None:
        if not self._has_call(ctx.schema):
            return None
        loader = self._loader(ctx.policy)
        calls = [c for c in extract_calls(text, loader) if c.error is None and isinstance(c.name, str)]
        if not calls:
            return None
        normalised = [self._normalise(c, loader) for c in calls]
        out: list[Candidate] = []
        if _wants_one(ctx.schema):
            for i, (call, (obj, repairs)) in enumerate(zip(calls, normalised)):
                body = json.dumps(obj, ensure_ascii=False)
                out.append(
                    Candidate(body, call.offset, call.offset, f"toolcalls:{call.format}", CANDIDATE_TIER, i, repairs)
                )
        if _wants_list(ctx.schema):
            body = json.dumps([obj for obj, _ in normalised], ensure_ascii=False)
            repairs = tuple(r for _, rs in normalised for r in rs)
            out.append(Candidate(body, calls[0].offset, calls[-1].offset, "toolcalls:list", CANDIDATE_TIER, 0, repairs))
        return out

    @staticmethod
    def _normalise(call: RawCall, loader: Parser) -> tuple[dict[str, Any], tuple[Any, ...]]:
        """{"name", "arguments", "id"} for one call; a JSON-encoded arguments string is read (with repairs)."""
        args = call.arguments
        repairs: tuple[Any, ...] = call.repairs
        if isinstance(args, str) and args.strip().startswith(("{", "[")):
            try:
                args, found = load_json(args.strip(), loader)
                repairs += tuple(replace(r, path="/arguments" + r.path) for r in found)
            except ParseError:
                pass  # left as a string: Pydantic will say the arguments are not an object
        obj: dict[str, Any] = {"name": call.name, "arguments": {} if args is None else args}
        if call.id is not None:
            obj["id"] = call.id
        return obj, repairs

    # -- names and arguments against the registry ----------------------------------------------------------------

    @hookimpl
    def rp_coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        if self.registry is None or field is None or field.name != "name" or not self._has_call(ctx.schema):
            return None
        if not _parent_is_call(ctx.schema, path):
            return None
        name, repairs, error = resolve_name(value, self.registry.names, ctx.policy)
        if error is not None:
            return Coercion(error=ErrorDetail(path, error.code, error.feedback or error.message, got=value))
        moved = tuple(replace(r, path=path) for r in repairs)
        return Coercion(value=name, repairs=moved) if moved else None

    @hookimpl
    def rp_semantic_validators(self, target: Any, ctx: CallContext) -> list[Any] | None:
        if self.registry is None or not self._has_call(ctx.schema):
            return None
        return [self.validate]

    def validate(self, value: Any) -> list[ErrorDetail]:
        """Unknown tools, and arguments that do not validate as they are, in every `ToolCall` inside `value`."""
        if self.registry is None:
            return []
        errors: list[ErrorDetail] = []
        exact = Policy(name="exact", allow_lossy=False)
        for base, call in find_calls(value):
            tool = self.registry.get(call.name)
            if tool is None:
                _, _, problem = resolve_name(call.name, self.registry.names, exact)
                message = problem.feedback if problem is not None and problem.feedback else "unknown tool"
                errors.append(ErrorDetail(f"{base}/name", "unknown_tool", message, got=call.name))
                continue
            try:
                tool.args_model.model_validate(call.arguments)
            except ValidationError as exc:
                errors.extend(replace(d, path=f"{base}/arguments{d.path}") for d in details_from_validation_error(exc))
        return errors

    @hookimpl
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str | None:
        if self.registry is None or not self._has_call(ctx.schema):
            return None
        text = format_feedback(failure, candidate, ctx.target)
        head, sep, last = text.rpartition("\n\n")
        tools = "\n".join(
            f"- {t.name}: {t.description} arguments: {json.dumps(t.parameters_schema(), ensure_ascii=False)}"
            for t in self.registry
        )
        block = f"The available tools (call only these, by their exact names):\n{tools}"
        return f"{head}\n\n{block}{sep}{last}" if sep else f"{text}\n\n{block}"


def _parent_is_call(root: TypeView, path: str) -> bool:
    """Whether the JSON Pointer `path` ends at the `name` field of a `ToolCall` model."""
    parts = split_pointer(path)
    view: TypeView = root
    parent: TypeView | None = None
    for part in parts:
        if isinstance(view, UnionView):
            view = next(
                (
                    o
                    for o in view.options
                    if (isinstance(o, ModelView) and part in o.key_to_field)
                    or (isinstance(o, ListView) and part.isdigit())
                ),
                view,
            )
        if isinstance(view, ModelView) and part in view.key_to_field:
            parent, view = view, view.fields[view.key_to_field[part]].type
        elif isinstance(view, ListView) and part.isdigit():
            parent, view = None, view.item
        else:
            return False
    return parent is not None and _is_call_model(parent)


default_plugin = ToolCallsPlugin()
"""The instance the `resilient_parse` entry point registers: format recognition only, no registry."""
