"""A `Parser`'s configuration in a form that travels to other processes and machines.

A `Parser` owns a pluggy plugin manager and a lock, which do not pickle; what it was built from does. A recipe
holds exactly that — policy, alias tables, the caller's plugin objects, validators, blocked names, and whether
entry-point plugins load — and `build()` makes an equal parser wherever it runs: entry-point plugins are loaded
again on the worker, from the worker's own installation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from resilient_parse.parser import Parser
from resilient_parse.plugins import ENTRY_POINT_GROUP, builtin_plugins
from resilient_parse.policy import LENIENT, Policy, resolve_policy


@dataclass(frozen=True)
class ParserRecipe:
    """What `Parser(...)` was called with; picklable when its plugins and validators are."""

    policy: Policy = LENIENT
    aliases: Mapping[str, str] = field(default_factory=dict)
    plugins: tuple[object, ...] = ()
    entrypoints: bool = True
    blocked_plugins: tuple[str, ...] = ()
    validators: tuple[Any, ...] = ()

    @classmethod
    def of(cls, parser: Parser) -> ParserRecipe:
        """The recipe of an existing parser, read from its plugin manager: the plugins it registered that are
        neither built-in stages nor entry points, and the names it blocks."""
        pm = parser.host.pm
        builtin = [name for name, _ in builtin_plugins()]
        from_entrypoints = {id(plugin) for plugin, _ in pm.list_plugin_distinfo()}
        group = [ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)]
        caller = tuple(
            plugin
            for name, plugin in pm.list_name_plugin()
            if plugin is not None and name not in builtin and id(plugin) not in from_entrypoints
        )
        blocked = tuple(name for name in (*builtin, *group) if pm.is_blocked(name))
        return cls(
            policy=parser.policy,
            aliases=dict(parser.aliases),
            plugins=caller,
            entrypoints=bool(from_entrypoints) or any(name in blocked for name in group),
            blocked_plugins=blocked,
            validators=parser.validators,
        )

    @classmethod
    def for_mode(cls, mode: str | Policy) -> ParserRecipe:
        """The recipe of `Parser(mode=mode)`."""
        return cls(policy=resolve_policy(mode))

    def build(self) -> Parser:
        return Parser(
            mode=self.policy,
            aliases=self.aliases,
            plugins=self.plugins,
            entrypoints=self.entrypoints,
            blocked_plugins=self.blocked_plugins,
            validators=self.validators,
        )
