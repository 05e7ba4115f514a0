"""The built-in stages, as ordinary pluggy plugins: which hook each stage implements, in one place.

Each implementation delegates to its stage module, imported on first use: a parser that only ever meets valid JSON
(the fast path) never loads the repairing reader, json-repair, rapidfuzz or the extraction patterns, so building a
`Parser` stays cheap. Every built-in is `trylast` (or registered first), so a user's plugin runs before it and can
override a `firstresult` hook; `Parser(blocked_plugins=["rp.extract"])` leaves one out by its name here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resilient_parse.context import CallContext, Candidate, Coercion, KeyMapping, LoadResult
from resilient_parse.errors import ParseError
from resilient_parse.hookspecs import RegisterAliases, hookimpl
from resilient_parse.policy import Policy
from resilient_parse.schema import FieldView, ModelView, TypeView


class ExtractStage:
    """`rp_extract_candidates`: fences, reasoning blocks, balanced spans (`stages/extract.py`)."""

    @hookimpl(trylast=True)
    def rp_extract_candidates(self, text: str, ctx: CallContext) -> list[Candidate]:
        from resilient_parse.stages.extract import extract_candidates

        return extract_candidates(text)


class SelectStage:
    """`rp_select_candidates` and `rp_explain_no_candidate`: ranking the candidates (`stages/select.py`)."""

    @hookimpl(trylast=True)
    def rp_select_candidates(self, text: str, candidates: list[Candidate], ctx: CallContext) -> list[Candidate]:
        from resilient_parse.stages.select import rank_candidates

        return rank_candidates(text, candidates, ctx)

    @hookimpl(trylast=True)
    def rp_explain_no_candidate(self, text: str, ctx: CallContext) -> ParseError:
        from resilient_parse.stages.select import explain_no_candidate

        return explain_no_candidate(text)


class SyntaxStage:
    """`rp_parse`: the one-pass repairing reader (`json/`), its schema-aware truncation rules and
    duplicate-key check, json-repair as the lenient last resort (`stages/syntax.py` orders them)."""

    @hookimpl(trylast=True)
    def rp_parse(self, text: str, ctx: CallContext) -> LoadResult | None:
        from resilient_parse.stages.syntax import load_json

        return load_json(text, ctx)


COMMON_ALIASES = {
    "deps": "dependencies",
    "depends_on": "dependencies",
}
"""Spellings models use for common agent fields. Applies only where the target field exists and the key is
unknown, only under policies that accept plugin aliases (not strict); block the plugin "rp.common_aliases" to
turn it off. The tool words among them (`tool` → `action`, `args` → `arguments` …) are the tools layer's
(`tools.names.TOOL_KEY_ALIASES`), passed in by `plugins.builtin_plugins`."""


class CommonAliases:
    """`rp_register_aliases`: the keys models commonly write for common fields (`COMMON_ALIASES`, and the tables
    the layers above pass in: `extra`), data here so a parser is built without loading the aligner."""

    def __init__(self, extra: Mapping[str, str] | None = None) -> None:
        self.table = {**COMMON_ALIASES, **(extra or {})}

    @hookimpl
    def rp_register_aliases(self, register: RegisterAliases, policy: Policy) -> None:
        register(self.table)


class AlignStage:
    """`rp_propose_key_mappings`: case/style, alias tables, fuzzy matches (`stages/align.py`)."""

    @hookimpl(trylast=True)
    def rp_propose_key_mappings(
        self, obj: Mapping[str, Any], model: ModelView, unknown: list[str], path: str, ctx: CallContext
    ) -> list[KeyMapping]:
        from resilient_parse.stages.align import propose

        return propose(obj, model, unknown, ctx)


class CoerceStage:
    """`rp_coerce_value`: numbers, dates, choices, shapes, embedded JSON (`stages/coerce/`)."""

    @hookimpl(trylast=True)
    def rp_coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        from resilient_parse.stages.coerce import coerce

        return coerce(value, expected, field, path, ctx)


class FeedbackStage:
    """`rp_build_feedback`: condensed errors, the previous output and the failing paths' schema
    (`feedback.py`)."""

    @hookimpl(trylast=True)
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str:
        from resilient_parse.feedback import format_feedback

        return format_feedback(failure, candidate, ctx.target)


class PlainStage:
    """`rp_extract_candidates` and `rp_explain_no_candidate` for scalar and choice targets: an answer written as
    plain text ("**True**", "The sentiment is positive.", "12,111"), or why it cannot be read (`stages/plain.py`).
    Its explanation is not `trylast` and registered after `rp.select`, so it is asked before the built-in one (a
    user's plugin, registered later, still comes first); it has none for any other target."""

    @hookimpl(trylast=True)
    def rp_extract_candidates(self, text: str, ctx: CallContext) -> list[Candidate]:
        from resilient_parse.stages.plain import read_plain

        return list(read_plain(text, ctx).candidates)

    @hookimpl
    def rp_explain_no_candidate(self, text: str, ctx: CallContext) -> ParseError | None:
        from resilient_parse.stages.plain import explain

        return explain(text, ctx)


def builtin_plugins(aliases: Mapping[str, str] | None = None) -> list[tuple[str, object]]:
    """The default stage plugins, in registration order (the tools layer adds its envelope stage after them, and
    its tool words to the common aliases, `aliases`: `plugins.builtin_plugins`)."""
    return [
        ("rp.extract", ExtractStage()),
        ("rp.select", SelectStage()),
        ("rp.syntax", SyntaxStage()),
        ("rp.align", AlignStage()),
        ("rp.common_aliases", CommonAliases(aliases)),
        ("rp.coerce", CoerceStage()),
        ("rp.feedback", FeedbackStage()),
        ("rp.plain", PlainStage()),
    ]
