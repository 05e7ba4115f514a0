"""The plugin host: one pluggy PluginManager per Parser, behind typed methods so callers never touch `pm.hook`.

Built-in stages are registered first (so plugins registered after them run first and can override firstresult
hooks), then the caller's plugins, then the `resilient_parse` entry-point group unless disabled. A misspelled hook
in any plugin fails at construction (`check_pending`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pluggy

from resilient_parse import hookspecs
from resilient_parse.context import (
    CallContext,
    Candidate,
    Coercion,
    Event,
    KeyMapping,
    LoadResult,
    SemanticValidator,
    ValueRepairer,
)
from resilient_parse.errors import ParseError, PluginError
from resilient_parse.policy import Policy
from resilient_parse.safe_text import escape_surrogates
from resilient_parse.schema import FieldView, ModelView, TypeView
from resilient_parse.stages import builtin_plugins as stage_plugins
from resilient_parse.tools import EnvelopeStage
from resilient_parse.tools.names import TOOL_KEY_ALIASES

log = logging.getLogger("resilient_parse")
ENTRY_POINT_GROUP = "resilient_parse"


def builtin_plugins() -> list[tuple[str, object]]:
    """The built-in plugins, in registration order: the core's stages (their common aliases with the tools layer's
    tool words), then the tools layer's envelope stage."""
    return [*stage_plugins(TOOL_KEY_ALIASES), ("rp.envelopes", EnvelopeStage())]


class PluginHost:
    """Owns the PluginManager of one parser."""

    def __init__(
        self,
        plugins: Sequence[object] = (),
        *,
        entrypoints: bool = True,
        blocked: Iterable[str] = (),
    ) -> None:
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        blocked = list(blocked)
        for name in blocked:
            pm.set_blocked(name)
        for name, plugin in builtin_plugins():
            if not pm.is_blocked(name):
                pm.register(plugin, name=name)
        for plugin in plugins:
            given = getattr(plugin, "rp_name", None) or getattr(plugin, "__name__", None)
            try:
                pm.register(plugin, name=given if isinstance(given, str) else None)
            except (ValueError, pluggy.PluginValidationError) as exc:
                raise PluginError(f"could not register plugin {plugin!r}: {exc}") from exc
        if entrypoints:
            try:
                pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
            except pluggy.PluginValidationError as exc:
                raise PluginError(f"plugin {exc.plugin!r} is invalid: {exc}") from exc
            except Exception as exc:
                raise PluginError(
                    f"loading plugins from the {ENTRY_POINT_GROUP!r} entry-point group failed: "
                    f"{type(exc).__name__}: {exc}; block the broken one with Parser(blocked_plugins=[...])"
                ) from exc
        try:
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"a plugin implements a hook that does not exist: {exc}") from exc
        self.pm = pm
        self.observed = bool(pm.hook.rp_on_event.get_hookimpls())
        builtins = [plugin for name, plugin in pm.list_name_plugin() if name and name.startswith("rp.")]
        # what a text's candidates are, when no plugin but the built-ins chooses among them (`stages/wrapped.py`)
        self._foreign_extractors = pm.subset_hook_caller("rp_extract_candidates", remove_plugins=builtins)
        foreign = self._foreign_extractors.get_hookimpls()
        self.extracts_alone = not foreign
        # asked on the short way of every wrapped answer: plain implementations are called as pluggy calls them
        # (the last registered first, every one, each given the arguments it names), without its ~2 µs of
        # bookkeeping per call; a wrapper among them takes pluggy's own way
        self._plain_extractors = None if any(i.hookwrapper or i.wrapper for i in foreign) else tuple(reversed(foreign))
        self.selects_alone = all(
            impl.plugin_name.startswith("rp.") for impl in pm.hook.rp_select_candidates.get_hookimpls()
        )

    def add_observer(self, observer: object, name: str | None = None) -> None:
        """Register an `rp_on_event` observer on a host already built (e.g. tracing switched on after the default
        parsers exist). Only observers: a plugin that implements any other hook would change how this parser
        parses after it has cached plans, so it must be passed when the parser is built."""
        hooks = {n for n in dir(observer) if n.startswith("rp_") and callable(getattr(observer, n))}
        if hooks != {"rp_on_event"}:
            raise PluginError(f"{observer!r} is not an observer: it must implement rp_on_event and no other hook")
        try:
            self.pm.register(observer, name=name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise PluginError(f"could not register observer {observer!r}: {exc}") from exc
        self.observed = True

    def remove_observer(self, observer: object) -> None:
        """Undo `add_observer`; a host left without observers goes back to paying nothing for events."""
        if self.pm.is_registered(observer):
            self.pm.unregister(observer)
        self.observed = bool(self.pm.hook.rp_on_event.get_hookimpls())

    @property
    def names(self) -> list[str]:
        return [name for name, plugin in self.pm.list_name_plugin() if name is not None and plugin is not None]

    def collect_aliases(self, policy: Policy) -> list[tuple[str, Mapping[str, str]]]:
        """Alias tables contributed by plugins, with the contributing plugin's name."""
        tables: list[tuple[str, Mapping[str, str]]] = []
        for impl in self.pm.hook.rp_register_aliases.get_hookimpls():

            def register(table: Mapping[str, str], _name: str = impl.plugin_name) -> None:
                if not isinstance(table, Mapping) or not all(
                    isinstance(k, str) and isinstance(v, str) for k, v in table.items()
                ):
                    raise PluginError(f"plugin {_name!r} registered an alias table that is not {{str: str}}")
                tables.append((_name, dict(table)))

            impl.function(register=register, policy=policy)
        return tables

    def extract_candidates(self, text: str, ctx: CallContext) -> list[Candidate]:
        found: list[Candidate] = []
        for group in self.pm.hook.rp_extract_candidates(text=text, ctx=ctx):
            if group:
                found.extend(group)
        return found

    def foreign_candidates(self, text: str, ctx: CallContext) -> bool:
        """Whether a plugin other than the built-in stages offers a candidate in this text."""
        if self._plain_extractors is None:
            return any(self._foreign_extractors(text=text, ctx=ctx))
        given = {"text": text, "ctx": ctx}
        return any([impl.function(*[given[name] for name in impl.argnames]) for impl in self._plain_extractors])

    def select_candidates(self, text: str, candidates: list[Candidate], ctx: CallContext) -> list[Candidate]:
        ranked = self.pm.hook.rp_select_candidates(text=text, candidates=candidates, ctx=ctx)
        return list(ranked) if ranked is not None else candidates

    def explain_no_candidate(self, text: str, ctx: CallContext) -> ParseError:
        error = self.pm.hook.rp_explain_no_candidate(text=text, ctx=ctx)
        if not isinstance(error, ParseError):
            from resilient_parse.errors import NoCandidateError

            return NoCandidateError("no JSON value found in the output")
        return error

    def parse(self, text: str, ctx: CallContext) -> LoadResult:
        result = self.pm.hook.rp_parse(text=text, ctx=ctx)
        if result is None:
            from resilient_parse.errors import UnrecoverableSyntaxError

            raise UnrecoverableSyntaxError("no plugin could read the candidate")
        return result  # type: ignore[no-any-return]

    def propose_key_mappings(
        self, obj: dict[str, Any], model: ModelView, unknown: list[str], path: str, ctx: CallContext
    ) -> list[KeyMapping]:
        proposals: list[KeyMapping] = []
        for group in self.pm.hook.rp_propose_key_mappings(obj=obj, model=model, unknown=unknown, path=path, ctx=ctx):
            if group:
                proposals.extend(group)
        return proposals

    def coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        return self.pm.hook.rp_coerce_value(  # type: ignore[no-any-return]
            value=value, expected=expected, field=field, path=path, ctx=ctx
        )

    def value_repairers(self, target: Any, ctx: CallContext) -> list[ValueRepairer]:
        repairers: list[ValueRepairer] = []
        for group in self.pm.hook.rp_value_repairers(target=target, ctx=ctx):
            if group:
                repairers.extend(group)
        return repairers

    def semantic_validators(self, target: Any, ctx: CallContext) -> list[SemanticValidator]:
        validators: list[SemanticValidator] = []
        for group in self.pm.hook.rp_semantic_validators(target=target, ctx=ctx):
            if group:
                validators.extend(group)
        return validators

    def build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str:
        text = self.pm.hook.rp_build_feedback(failure=failure, candidate=candidate, ctx=ctx)
        if not isinstance(text, str):
            from resilient_parse.feedback import format_feedback

            return format_feedback(failure, candidate)
        return escape_surrogates(text)  # a plugin's message is sent as UTF-8 too

    def emit(self, name: str, ctx: CallContext | None, **data: Any) -> None:
        """Tell observers; an observer that raises is logged, never allowed to break the parse."""
        # the name only: event data can hold repairs' before/after, which are pieces of the model's text
        log.debug("event %s", name, extra={"resilient_parse": {"event": name}})
        if not self.observed:
            return
        event = Event(name=name, data=data)
        for impl in reversed(self.pm.hook.rp_on_event.get_hookimpls()):
            try:
                impl.function(event=event, ctx=ctx)
            except Exception:
                log.exception("observer %s failed on event %s", impl.plugin_name, name)
