"""The toolcalls plugin: makes `ToolCall` targets readable from every vendor format, and — when bound to a
registry — checks names and arguments against the registered tools and tells the model which tools exist.

The entry point registers `default_plugin` (no registry: format recognition only) under the name "toolcalls".
`Parser(plugins=[ToolCallsPlugin(registry)])` replaces it with one bound to your tools. Targets without a
`ToolCall` in them are not touched.

The entry point loads this module for every `Parser()`, so it holds only the plugin class. What the hooks do is
in `rp_toolcalls.hooks`, imported (with the call model, the format readers and rapidfuzz) the first time a target
holds a call — which no target can before `rp_toolcalls.models` is imported, so until then each hook answers
"not mine" from `sys.modules` alone.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import weakref
from typing import TYPE_CHECKING, Any

from resilient_parse import Parser, Policy, hookimpl

if TYPE_CHECKING:
    from resilient_parse import ErrorDetail, ParseError
    from resilient_parse.plugin_api import CallContext, Candidate, Coercion, FieldView, RawCall, TypeView
    from rp_toolcalls.registry import ToolRegistry

PLUGIN_NAME = "toolcalls"
_MODELS = "rp_toolcalls.models"

_MOVED = {  # names this module imported or defined before the hooks' work moved out, still importable from it
    "CANDIDATE_TIER": "rp_toolcalls.hooks",
    "contains_tool_call": "rp_toolcalls.hooks",
    "find_calls": "rp_toolcalls.hooks",
    "resolve_name": "rp_toolcalls.calls",
    "RawCall": "resilient_parse.plugin_api",
    "extract_calls": "resilient_parse.plugin_api",
    "load_json": "rp_toolcalls.formats",
    "ToolCall": _MODELS,
    "ToolRegistry": "rp_toolcalls.registry",
}


def __getattr__(name: str) -> Any:
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


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
        if _MODELS not in sys.modules:
            return False  # no class is a ToolCall (or a subclass, or a `call_model(...)`) before the models exist
        try:
            return self._seen[view]
        except (KeyError, TypeError):
            pass
        from rp_toolcalls.hooks import contains_tool_call

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
        from rp_toolcalls.hooks import extract_candidates

        return extract_candidates(text, ctx, self._loader(ctx.policy))

    @staticmethod
    def _normalise(call: RawCall, loader: Parser) -> tuple[dict[str, Any], tuple[Any, ...]]:
        from rp_toolcalls.hooks import normalise

        return normalise(call, loader)

    # -- names and arguments against the registry ----------------------------------------------------------------

    @hookimpl
    def rp_coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        if self.registry is None or field is None or field.name != "name" or not self._has_call(ctx.schema):
            return None
        from rp_toolcalls.hooks import coerce_name

        return coerce_name(value, path, ctx, self.registry)

    @hookimpl
    def rp_semantic_validators(self, target: Any, ctx: CallContext) -> list[Any] | None:
        if self.registry is None or not self._has_call(ctx.schema):
            return None
        return [self.validate]

    def validate(self, value: Any) -> list[ErrorDetail]:
        """Unknown tools, and arguments that do not validate as they are, in every `ToolCall` inside `value`."""
        if self.registry is None:
            return []
        from rp_toolcalls.hooks import validate

        return validate(value, self.registry)

    @hookimpl
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str | None:
        if self.registry is None or not self._has_call(ctx.schema):
            return None
        from rp_toolcalls.hooks import build_feedback

        return build_feedback(failure, candidate, ctx, self.registry)


default_plugin = ToolCallsPlugin()
"""The instance the `resilient_parse` entry point registers: format recognition only, no registry."""
