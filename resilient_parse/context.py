"""Frozen data that crosses a hook: the per-call context, candidates, load results, key mappings, coercions, events."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from resilient_parse.errors import ErrorDetail
from resilient_parse.policy import Policy
from resilient_parse.repairs import Repair

if TYPE_CHECKING:
    from resilient_parse.schema import TypeView


@dataclass(frozen=True)
class AliasEntry:
    """One alias: `source` key → `field` name, where it came from, and whether it counts as explicit."""

    source: str
    field: str
    origin: str  # "call", "parser", "model", or "plugin:<name>"
    explicit: bool


@dataclass(frozen=True)
class ToolVocabulary:
    """Tool words and readers the core's stages use but do not own: the tools layer owns them and sits above the
    stages, so it hands them down in the call context (`tools.vocabulary`)."""

    wrapper_keys: frozenset[str] = frozenset()
    """Keys a model wraps its answer in beside the core's own (`stages.coerce.shapes.WRAPPER_KEYS`): a call's
    argument keys (`arguments`, `input` …)."""
    envelope_content: Callable[[dict[str, Any]], list[tuple[str, Any]]] | None = None
    """What a provider's response envelope carries, as (where, value) readings; None reads no envelope."""


NO_TOOLS = ToolVocabulary()


@dataclass(frozen=True)
class CallContext:
    """Everything a hook may read about the current call. Frozen: hooks return results, they do not mutate."""

    policy: Policy
    target: Any
    schema: TypeView
    aliases: Mapping[str, tuple[AliasEntry, ...]] = field(default_factory=lambda: MappingProxyType({}))
    text: str = ""
    tools: ToolVocabulary = field(default_factory=lambda: NO_TOOLS)
    """What the stages need of the tools layer, which sits above them (the parser passes its
    `tools.vocabulary.STAGE_VOCABULARY`; a context made without it knows no tool words)."""
    memo: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)
    """Scratch space for what the stages work out once per call (each key's normalised spelling, the field it
    names): it lives and dies with the call, so no model text outlives it, and a context made from
    another (`dataclasses.replace`) starts with an empty one."""

    def aliases_for(self, key: str) -> tuple[AliasEntry, ...]:
        """Alias entries that name `key` as their source, explicit (call/parser/model) ones first."""
        return self.aliases.get(key, ())


ANSWER, REASONING, REASONING_CUT = "answer", "reasoning", "reasoning_cut"
"""The regions a candidate can stand in (`Candidate.region`, `Region.kind`)."""


@dataclass(frozen=True)
class Candidate:
    """A piece of the text that may hold the answer, with where it came from and how much the text vouches for it.

    `tier` ranks how the text designates the candidate: answers after reasoning outrank drafts inside it; "final
    answer"/"corrected" raise it; "for example" lowers it. Two valid candidates of one tier with different values
    are an ambiguity. `order` breaks ties for *trying* candidates, never for choosing between two valid different
    ones. The facts below are what answer selection judges by; the defaults describe a plain visible candidate
    (what a plugin's candidate is unless it says otherwise):

    - `label`: what the words right before it call it: "designated" ("Final answer:"), "example" (also a draft or
      a template), "alternative" ("Option B:"), "rejected" ("Do not use …"), or "" (nothing).
    - `region`: "answer" (visible text), "reasoning" (inside a closed `<think>` block) or "reasoning_cut" (inside
      a reasoning block the output stopped in).
    - `refusal_at`: where the visible prose refuses the task ("I will not do that"), or -1.
    - `visible_text`: whether anything at all is written outside reasoning blocks.
    """

    text: str
    start: int
    end: int
    source: str  # "whole", "fence", "span", "truncated_span", or a plugin's name
    tier: int = 0
    order: int = 0
    repairs: tuple[Repair, ...] = ()
    label: str = ""
    region: str = ANSWER
    refusal_at: int = -1
    visible_text: bool = True


@dataclass(frozen=True)
class LoadResult:
    """A candidate read into a JSON tree, with the syntax repairs it took and the repaired JSON text."""

    tree: Any
    json_text: str
    repairs: tuple[Repair, ...] = ()


@dataclass(frozen=True)
class KeyMapping:
    """A proposal that `key` in the object at `path` means field `field`.

    `rank` orders kinds of evidence (lower wins: case/style < alias table < fuzzy); `confidence` orders proposals
    of the same rank. The core rejects a key with two equally good proposals, and two keys competing for one field.
    """

    key: str
    field: str
    kind: str
    rank: int
    confidence: float = 1.0
    note: str = ""


@dataclass(frozen=True)
class Coercion:
    """A proposed replacement for a value that does not fit its field, or an error explaining why none is honest."""

    value: Any = None
    repairs: tuple[Repair, ...] = ()
    error: ErrorDetail | None = None


SemanticValidator = Callable[[Any], Iterable[ErrorDetail] | None]
"""Runs after Pydantic on the validated object; returns (or yields) the problems it finds."""

ValueRepairer = Callable[[Any], tuple[Any, list[Repair]] | None]
"""Runs after Pydantic, before the validators: returns (a new object, the repairs that made it) or None."""


@dataclass(frozen=True)
class Event:
    """Something observers may want to know: attempt started, repair applied, re-ask sent, exhausted …"""

    name: str
    data: Mapping[str, Any] = field(default_factory=dict)
