"""Every extension point of resilient_parse, in one place.

Plugins implement these with `@resilient_parse.hookimpl`. The built-in stages are ordinary plugins registered
first, so a plugin registered later runs before them and can override a `firstresult` hook. Every hook receives
`ctx`, a frozen `CallContext` (policy, target, schema view, alias table) — except `rp_register_aliases`, which runs
once per parser and receives the parser's policy.

Import what a plugin needs from `resilient_parse.plugin_api` (the stable surface). A plugin published in the
`resilient_parse` entry-point group is built without arguments; to configure it, users pass their own instance as
`Parser(plugins=[...])` with `rp_name` set to the entry point's name, which replaces the default one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pluggy

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
from resilient_parse.errors import ParseError
from resilient_parse.policy import Policy
from resilient_parse.schema import FieldView, ModelView, TypeView

PROJECT = "resilient_parse"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

RegisterAliases = Callable[[Mapping[str, str]], None]


@hookspec
def rp_register_aliases(register: RegisterAliases, policy: Policy) -> None:
    """Contribute alias tables (source key → field name), e.g. ``register({"tool": "action"})``.

    Called once when a `Parser` is built. Tables from plugins rank below the call's, the parser's and the
    model's own tables, and apply only when ``policy.plugin_aliases`` is true (not in strict mode).
    """


@hookspec
def rp_extract_candidates(text: str, ctx: CallContext) -> list[Candidate] | None:
    """Return the pieces of `text` that may hold the answer (fenced blocks, balanced spans, tool-call tags …).

    All implementations are called; their candidates are merged, de-duplicated by text and tried best-first by
    `Candidate.tier` then `Candidate.order`. Return None or an empty list when you find nothing. Return every
    candidate (no cap: a dropped one may be the answer the text designates), each with the facts selection judges
    by: `label` (the words right before it: designated, example, alternative, rejected), `region` (answer,
    reasoning, or a reasoning block the output stopped in), `refusal_at` and `visible_text`. The defaults describe
    a plain candidate in the visible answer.
    """


@hookspec(firstresult=True)
def rp_select_candidates(text: str, candidates: list[Candidate], ctx: CallContext) -> list[Candidate] | None:
    """Rank the extracted candidates into the order the pipeline tries them, best first.

    Called once per parse with every candidate the `rp_extract_candidates` implementations found. Stops at the
    first non-None result. The built-in leaves out what the rules exclude (examples and rejected options, anything
    beside a visible refusal unless designated, reasoning drafts beside a visible answer or in strict), adds the
    whole text when it is one JSON string and a JSON Lines answer joined for a list target, keeps one candidate per
    distinct text and sorts by `tier`, JSON-looking ones first, then `order`. It cuts nothing: the pipeline bounds
    how many it tries (`Policy.max_candidates`) and fails rather than pick when that bound leaves one untried.
    """


@hookspec(firstresult=True)
def rp_explain_no_candidate(text: str, ctx: CallContext) -> ParseError | None:
    """Return the error for an output that holds no candidate at all (a refusal, empty text, prose).

    Stops at the first non-None result; the built-in recognises refusals ("I'm sorry, I can't …") as
    `RefusalError`, which the correction loop does not re-ask.
    """


@hookspec(firstresult=True)
def rp_parse(text: str, ctx: CallContext) -> LoadResult | None:
    """Read one candidate's text into a JSON tree, repairing syntax as far as ``ctx.policy`` allows.

    Stops at the first non-None result. Raise an `UnrecoverableSyntaxError` (or `TruncatedOutputError`) when the
    text cannot be read honestly; return None to let the next implementation try.
    """


@hookspec
def rp_propose_key_mappings(
    obj: Mapping[str, Any], model: ModelView, unknown: list[str], path: str, ctx: CallContext
) -> list[KeyMapping] | None:
    """Propose which field each key in `unknown` (keys of `obj` that are neither field names nor declared aliases)
    means. All implementations are called; the core picks, per key, the proposal with the lowest `rank` and then
    the highest `confidence`, and refuses when two proposals tie or two keys compete for one field.
    """


@hookspec(firstresult=True)
def rp_coerce_value(
    value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
) -> Coercion | None:
    """Turn a value that does not fit `expected` into one that does (fuzzy enum, "1,200" → 1200, unwrapping …).

    Called for values that do not fit their type, and once more (the error-driven pass) for values that fit by
    type but that Pydantic rejected (a pattern, a date format). Stops at the first non-None result; return a
    `Coercion` with `error` set to refuse honestly (e.g. an ambiguous enum), or None when you have nothing to
    offer or the value is fine as it is.
    """


@hookspec
def rp_value_repairers(target: Any, ctx: CallContext) -> list[ValueRepairer] | None:
    """Return repairers for objects Pydantic accepts but that are semantically off in a way you can repair
    honestly (a tool name one typo away from exactly one registered tool, a step reference written "s2").

    All implementations are called once per target and parser (the result is cached, so targets you do not
    care about cost nothing: return None). Each repairer receives the validated object — on every path, the fast
    path too — before the semantic validators, and returns `(new_object, repairs)` or None. Build a new object,
    never mutate the one you got, and record every change as a `Repair`; a result whose repairs the policy
    (``ctx.policy``) does not allow is ignored. Repairers run in turn, each on the previous one's result.
    """


@hookspec
def rp_semantic_validators(target: Any, ctx: CallContext) -> list[SemanticValidator] | None:
    """Return checks to run on the validated object (a plan's dependency graph, a tool whitelist …).

    All implementations are called once per target and parser (the result is cached). Each validator receives the
    object and returns or yields `ErrorDetail`s; any problem fails the parse with a `SemanticCheckError`, which
    the correction loop feeds back to the model like a schema error.
    """


@hookspec(firstresult=True)
def rp_build_feedback(failure: ParseError, candidate: str | None, ctx: CallContext) -> str | None:
    """Write the message that asks the model to fix its output, given the failure and the repaired candidate.

    Stops at the first non-None result; the built-in writes condensed errors, the previous output and the schema
    of the failing paths. Inside the correction loop `candidate` is None: the previous answer is already in the
    conversation as the assistant's turn, and repeating it would cost tokens twice — read `failure.candidate`
    when your feedback needs the document (e.g. to ask for a JSON Patch against it).
    """


@hookspec
def rp_on_event(event: Event, ctx: CallContext | None) -> None:
    """Observe what happens. Every parse (`parse`, `parse_result`, the fast path of valid JSON included) emits
    ``parse_started`` (`length`: characters, or bytes as given), then either ``parse_succeeded`` (`repairs`: how
    many, `lossy`: how many of those are lossy, `source`: the candidate the answer came from — "whole" for the
    text itself, "fence", … —, `path`: "fast" for valid JSON taken as it stands or "repaired", `duration_s`,
    `target`: a short type name like ``list[Record]``, `mode`: the policy's name) or ``parse_failed`` (`kind`: the
    error's kind, `details`: how many error details, `repairs`, `duration_s`, `target`, `mode`). The correction
    loop emits ``correction_started``, then ``attempt_finished`` per model call (the attempt's summary: usage,
    latency, outcome), ``correction_requested`` before each re-ask, ``fallback_started``, and one of
    ``correction_succeeded`` / ``corrections_exhausted`` (calls, tokens, `duration_s`, outcome). `event.data`
    never holds the raw text: only its hash and length, and an attempt's repairs with their before/after pieces.
    Events are built only while an observer is registered, so without one they cost a parse one attribute check.
    Called for every registered observer; return values are ignored, and an observer that raises is logged, not
    allowed to break the parse.
    `ctx` is None for events outside one parse call (and for a parse whose target cannot be planned).
    """


HOOK_NAMES = tuple(name for name, fn in list(globals().items()) if hasattr(fn, f"{PROJECT}_spec"))
"""Every hook, in the order declared above: derived from the specs, never kept by hand."""
