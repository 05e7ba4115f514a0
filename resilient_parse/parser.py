"""The pipeline: text → candidates → JSON tree → aligned, coerced tree → Pydantic → semantic checks → object.

A `Parser` owns its configuration (policy, alias tables, validators) and its plugin host; it keeps no other state
but per-target caches, so one parser can be shared by threads and several can coexist. Valid JSON for the
target takes the fast path straight through `TypeAdapter.validate_json`.
"""

from __future__ import annotations

import inspect
import itertools
import json
import re
import threading
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from pydantic import TypeAdapter, ValidationError
from pydantic.errors import PydanticSchemaGenerationError, PydanticUserError

from resilient_parse.conform import Conformer
from resilient_parse.context import AliasEntry, CallContext, Candidate, SemanticValidator, ValueRepairer
from resilient_parse.errors import (
    AmbiguousMatchError,
    ConfigurationError,
    ErrorDetail,
    InputTooLargeError,
    InvalidInputError,
    NoCandidateError,
    ParseError,
    RefusalError,
    SchemaMismatchError,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)
from resilient_parse.plugins import PluginHost
from resilient_parse.policy import Policy, resolve_policy
from resilient_parse.repairs import Repair, pointer, total_cost
from resilient_parse.revisit import revisit
from resilient_parse.schema import (
    AnyView,
    DictView,
    ListView,
    ModelView,
    SchemaFacts,
    TupleView,
    TypeView,
    UnionView,
    build_view,
    schema_facts,
)
from resilient_parse.stages.validate import run_semantic_checks, validate_json

if TYPE_CHECKING:
    from resilient_parse.streaming import StreamUpdate

T = TypeVar("T")

INVALID: Any = object()
"""What `_validate_exact` returns for a document that does not validate (None is a valid value of many targets)."""
_EXTRA_OVERRIDE = "extra" in inspect.signature(TypeAdapter.validate_json).parameters  # Pydantic >= 2.12
_KEY_PATTERN = re.compile(r'"([^"\\]*)"\s*:')  # a key with escapes is misread as unknown: safe, just slower
_REFUSAL = re.compile(
    r"^\W*(?:i'?m sorry|i am sorry|sorry[,.!]|i apologi[sz]e|i can(?:no|')t|i cannot|i am unable|i'm unable|"
    r"i won'?t|as an ai|unfortunately,? i)",
    re.IGNORECASE,
)
_STAGE_PROGRESS = {"syntax": 1, "truncated": 1, "schema": 2, "ambiguous": 2, "semantic": 3}
_LOOKS_LIKE_OBJECT = re.compile(r"""["']?[A-Za-z_][\w\- ]*["']?\s*:""")


def _progress(error: ParseError, cand: Candidate) -> int:
    """How far a candidate got. A candidate that is recognisably the JSON answer but broken (truncated, bad
    syntax) counts as "read": a lower-ranked draft that happens to validate must not replace it."""
    progress = _STAGE_PROGRESS.get(error.kind, 0)
    if progress == 1 and _LOOKS_LIKE_OBJECT.search(cand.text[:2000]):
        return 2
    return progress


_PLACEHOLDER = re.compile(r'"<([A-Za-z][A-Za-z0-9_ -]{1,40})>"')
_PLACEHOLDER_TEXT = (
    "value string str number int integer float bool boolean name text type id description answer result key "
    "date time url email tool param arg argument list array object field query content title summary"
)
_PLACEHOLDER_WORDS = frozenset(_PLACEHOLDER_TEXT.split())


def _refuse_template_echo(json_text: str) -> None:
    """An answer whose keys or values are the prompt's unfilled placeholders (`"<tool_name>"`, `"<value>"`) is the
    answer format echoed back, not an answer — even when it validates. Two distinct placeholders are needed, so a
    lone `"<unknown>"` or an HTML tag in real content passes."""
    found = {
        m.group(1)
        for m in _PLACEHOLDER.finditer(json_text)
        if any(c in m.group(1) for c in "_ -") or m.group(1).lower() in _PLACEHOLDER_WORDS
    }
    if len(found) >= 2:
        names = ", ".join(f"<{p}>" for p in sorted(found)[:5])
        raise SchemaMismatchError(
            f"the output is the answer template with its placeholders unfilled ({names})",
            [ErrorDetail(path="", kind="template_echo", message=f"placeholders instead of values: {names}")],
            candidate=json_text,
        )


def _inside_failed_answer(cand: Candidate, failures: list[_Failure]) -> bool:
    """Whether `cand` lies inside a candidate that is recognisably the whole answer (the whole text or a fence) and
    failed as one broken value: a piece cut out of a broken answer is not the answer. Several values side by side
    (the whole failed only because text follows its first value) are not one broken value."""
    for failure in failures:
        outer = failure.candidate
        if outer.source not in ("whole", "fence") or failure.progress < _STAGE_PROGRESS["schema"]:
            continue
        if any(d.kind == "trailing_text" for d in failure.error.details):
            continue
        if outer.start <= cand.start and cand.end <= outer.end and (cand.start, cand.end) != (outer.start, outer.end):
            return True
    return False


def _refuse_cut_fields(tree: Any, view: TypeView, json_text: str) -> None:
    """Closing truncated output is honest only when nothing of the schema was cut: every object that was left
    open (the right-most chain of the tree) must already hold every field of its model. Otherwise a field that
    was cut off would silently become its default."""
    node, current = tree, view
    parts: list[str | int] = []
    while isinstance(node, dict) and node:
        if isinstance(current, UnionView) and len(current.options) == 1:
            current = current.options[0]
        if isinstance(current, ModelView):
            missing = [f.name for f in current.fields.values() if not any(k in node for k in f.input_keys)]
            if missing:
                where = pointer(parts)
                raise TruncatedOutputError(
                    f"the output was cut off inside {where or 'the root object'}; "
                    f"{', '.join(missing)} may have been cut off with it",
                    [ErrorDetail(path=where, kind="truncated", message=f"cut off before {', '.join(missing)}")],
                    candidate=json_text,
                )
        key = next(reversed(node))
        parts.append(key)
        node = node[key]
        if isinstance(current, ModelView):
            fv = current.field_for_key(key)
            current = fv.type if fv is not None else AnyView()
        elif isinstance(current, DictView):
            current = current.value
        else:
            current = AnyView()


def _join_json_lines(text: str, found: list[Candidate]) -> Candidate | None:
    """Several objects one after another, separated only by white space or commas (JSON Lines), read as one list
    — offered only when the target is a list."""
    spans = sorted(
        (c for c in found if c.source == "span" and c.tier >= 0 and c.text.startswith("{")), key=lambda c: c.start
    )
    if len(spans) < 2:
        return None
    for left, right in itertools.pairwise(spans):
        if left.end > right.start or text[left.end : right.start].strip(" \t\r\n,"):
            return None
    body = "[" + ",".join(c.text for c in spans) + "]"
    repair = Repair.make("join_values", "", f"{len(spans)} separate values", "one list", offset=spans[0].start)
    return Candidate(body, spans[0].start, spans[-1].end, "joined", min(c.tier for c in spans), 0, (repair,))


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


def _needs_finishing(json_text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]) -> bool:
    """Whether a validated value must still go through `Parser._finish` (validators, value repairers, or a '<'
    that may be an echoed template's placeholder) — on the fast path, usually not."""
    return bool(checks) or bool(plan.repairers) or "<" in json_text


@dataclass(frozen=True)
class _Success:
    candidate: Candidate
    value: Any
    repairs: tuple[Repair, ...]
    json_text: str
    cost: float


@dataclass
class _Failure:
    candidate: Candidate
    error: ParseError
    progress: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


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
            cached = self._plans.get(target)
        except TypeError:
            return self._build_plan(target)
        if cached is not None:
            return cached
        with self._lock:
            cached = self._plans.get(target)
            if cached is None:
                cached = self._build_plan(target)
                self._plans[target] = cached
        return cached

    def _build_plan(self, target: Any) -> TargetPlan:
        try:
            adapter: TypeAdapter[Any] = TypeAdapter(target)
        except (PydanticSchemaGenerationError, PydanticUserError, TypeError, NameError) as exc:
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
        return TargetPlan(target, adapter, view, schema_facts(view), tuple(validators), repairers)

    # -- public API ----------------------------------------------------------------------------------------------

    @overload
    def parse(self, text: str | bytes, target: type[T], *, aliases: Mapping[str, str] | None = None) -> T: ...
    @overload
    def parse(self, text: str | bytes, target: Any, *, aliases: Mapping[str, str] | None = None) -> Any: ...
    def parse(self, text: str | bytes, target: Any, *, aliases: Mapping[str, str] | None = None) -> Any:
        """The validated object, or a `ParseError` saying what was wrong and where."""
        if not aliases and type(text) is str and len(text) <= self.policy.max_input_chars:
            # the hot path of a valid answer, without building a ParseResult nobody reads
            try:
                plan = self.plan(target)
                if not _needs_finishing(text, plan, plan.validators):
                    value = self._validate_exact(text, plan)
                    if value is not INVALID:
                        return value
            except Exception:  # anything unusual: the full path below reports it properly
                pass
        return self.parse_result(text, target, aliases=aliases).value

    def parse_result(
        self,
        text: str | bytes,
        target: Any,
        *,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
    ) -> ParseResult[Any]:
        """The validated object with the repairs that produced it, or a `ParseError`."""
        text = self._check_input(text)
        plan = self.plan(target)
        call_aliases = _check_alias_table(aliases, "call")
        checks = (*plan.validators, *validators)
        try:
            fast = self._fast_path(text, plan, checks)
            if fast is not None:
                return fast
            return self._slow_path(text, plan, checks, call_aliases)
        except (ParseError, ConfigurationError):
            raise
        except RecursionError:
            raise UnrecoverableSyntaxError(
                "the input is nested too deeply to process",
                [ErrorDetail(path="", kind="too_deep", message="nesting too deep")],
            ) from None
        except Exception as exc:  # the contract: only our own exception types leave the library
            raise ParseError(
                f"internal error while parsing: {type(exc).__name__}: {exc}",
                [ErrorDetail(path="", kind="internal", message=f"{type(exc).__name__}: {exc}")],
            ) from exc

    def stream(self, chunks: Iterable[str | bytes], target: Any, **options: Any) -> Iterator[StreamUpdate[Any]]:
        """Yield partial objects while text arrives, then the final validated object (see `streaming`)."""
        from resilient_parse.streaming import stream

        return stream(self, chunks, target, **options)

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

    def _validate_exact(self, json_text: str, plan: TargetPlan) -> Any:
        """Validate as Pydantic would, or return `INVALID` (None is a valid value of many targets).

        A model that ignores extra keys would silently drop a stray key — `Arguments` beside an optional
        `arguments`, or `Action` beside `action` with another value — and return a different object than the
        model meant. Such a document takes the repair path, where the stray key is aligned, refused or dropped
        by the rules of `conform`. Pydantic checks for strays at no extra cost when told `extra="forbid"` for this
        one validation (a document without them validates to the same object); with models that declare
        `extra="allow"` we fall back to scanning the keys. Likewise a document that writes one field under two
        declared spellings (`ticket_id` and `ticketId`) takes the repair path, where differing values are
        refused. `Policy.guard_ignored_keys` turns the guard off."""
        facts = plan.facts
        guard = facts.ignore_models and self.policy.guard_ignored_keys
        pydantic_guards = guard and _EXTRA_OVERRIDE and not facts.allow_models
        try:
            if pydantic_guards:
                value = plan.adapter.validate_json(json_text, extra="forbid")
            else:
                value = plan.adapter.validate_json(json_text)
        except (ValidationError, ValueError):  # ValueError: e.g. lone surrogates Pydantic cannot encode
            return INVALID
        if guard and not pydantic_guards and not self._keys_all_known(json_text, facts):
            return INVALID
        for keys in facts.quoted_spellings:
            if sum(1 for key in keys if key in json_text) > 1:
                return INVALID
        return value

    @staticmethod
    def _keys_all_known(json_text: str, facts: SchemaFacts) -> bool:
        """The slower stray-key check, for when Pydantic cannot be asked (old Pydantic, extra="allow" models)."""
        return not facts.open_keys and all(k in facts.known_keys for k in _KEY_PATTERN.findall(json_text))

    def _fast_path(self, text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]) -> ParseResult[Any] | None:
        value = self._validate_exact(text, plan)
        if value is INVALID:
            return None
        repairs: list[Repair] = []
        if _needs_finishing(text, plan, checks):
            value = self._finish(value, repairs, text, checks, plan)
        return ParseResult(value=value, repairs=tuple(repairs), candidate=text, json_text=text, mode=self.policy.name)

    def _finish(
        self, value: Any, repairs: list[Repair], json_text: str, checks: Sequence[SemanticValidator], plan: TargetPlan
    ) -> Any:
        """After Pydantic: the template-echo check, the plugins' value repairers, then the semantic validators."""
        if "<" in json_text:
            _refuse_template_echo(json_text)
        for repair in plan.repairers:
            result = repair(value)
            if result is None:
                continue
            new_value, fixes = result
            if fixes and all(self.policy.allows(r.kind, r.lossless) for r in fixes):
                value = new_value
                repairs.extend(fixes)
        if checks:
            run_semantic_checks(checks, value, json_text)
        return value

    def _slow_path(
        self,
        text: str,
        plan: TargetPlan,
        checks: Sequence[SemanticValidator],
        call_aliases: Mapping[str, str],
    ) -> ParseResult[Any]:
        aliases = self._merge_aliases(call_aliases) if call_aliases else self._base_aliases
        ctx = CallContext(policy=self.policy, target=plan.target, schema=plan.view, aliases=aliases, text=text)
        self.host.emit("parse_started", ctx, length=len(text))
        candidates = self._candidates(text, ctx)
        if not candidates:
            error = self._no_candidate(text)
            self.host.emit("parse_failed", ctx, kind=error.kind)
            raise error
        successes: list[_Success] = []
        failures: list[_Failure] = []
        for tier in sorted({c.tier for c in candidates}, reverse=True):
            tier_failures: list[_Failure] = []
            for cand in (c for c in candidates if c.tier == tier):
                try:
                    successes.append(self._attempt(cand, plan, ctx, checks))
                except ParseError as exc:
                    tier_failures.append(_Failure(cand, exc, _progress(exc, cand)))
            failures.extend(tier_failures)
            successes = [s for s in successes if not _inside_failed_answer(s.candidate, tier_failures)]
            if successes:
                break
            if any(f.progress >= _STAGE_PROGRESS["schema"] for f in tier_failures):
                # the text's best-designated answer was read but is wrong: a lower-ranked draft or example
                # that happens to validate is not the answer
                break
        if successes:
            chosen = self._choose(successes, plan)
            self.host.emit("parse_succeeded", ctx, repairs=len(chosen.repairs), source=chosen.candidate.source)
            return ParseResult(
                value=chosen.value,
                repairs=chosen.repairs,
                candidate=chosen.candidate.text,
                json_text=chosen.json_text,
                mode=self.policy.name,
            )
        best = max(failures, key=lambda f: (f.candidate.tier, f.progress, -f.candidate.order))
        error = best.error
        error.attempts = tuple(
            {
                "source": f.candidate.source,
                "offset": f.candidate.start,
                "kind": f.error.kind,
                "message": f.error.message,
            }
            for f in failures
        )
        self.host.emit("parse_failed", ctx, kind=error.kind)
        raise error

    def _candidates(self, text: str, ctx: CallContext) -> list[Candidate]:
        found = self.host.extract_candidates(text, ctx)
        stripped = text.strip()
        if stripped.startswith('"') and stripped.endswith('"') and len(stripped) > 2:
            found.append(Candidate(stripped, text.find('"'), len(text), "whole"))
        if isinstance(ctx.schema, ListView | TupleView) and self.policy.allows("join_values"):
            joined = _join_json_lines(text, found)
            if joined is not None:
                found.append(joined)
        unique: dict[str, Candidate] = {}
        for cand in found:
            prev = unique.get(cand.text)
            if prev is None or (cand.tier, -cand.order) > (prev.tier, -prev.order):
                unique[cand.text] = cand
        ranked = sorted(unique.values(), key=lambda c: (-c.tier, c.order))
        return ranked[: self.policy.max_candidates]

    def _no_candidate(self, text: str) -> ParseError:
        if _REFUSAL.search(text.strip()):
            return RefusalError(
                "the model refused to answer",
                [
                    ErrorDetail(
                        path="",
                        kind="refusal",
                        message="the output is a refusal, not JSON",
                        got=text.strip()[:120],
                    )
                ],
            )
        if not text.strip():
            return NoCandidateError(
                "the output is empty", [ErrorDetail(path="", kind="empty", message="no text at all")]
            )
        return NoCandidateError(
            "no JSON object or array found in the output",
            [
                ErrorDetail(
                    path="",
                    kind="no_candidate",
                    message="no '{' or '[' starts a JSON value",
                    got=text.strip()[:120],
                )
            ],
        )

    def _attempt(
        self, cand: Candidate, plan: TargetPlan, ctx: CallContext, checks: Sequence[SemanticValidator]
    ) -> _Success:
        repairs = list(cand.repairs)
        if cand.text != ctx.text:
            quick = self._validate_exact(cand.text, plan)
            if quick is not INVALID:
                quick = self._finish(quick, repairs, cand.text, checks, plan)
                return _Success(cand, quick, tuple(repairs), cand.text, total_cost(repairs))
        loaded = self.host.parse(cand.text, ctx)
        self._check_policy(loaded.repairs, cand)
        if any(r.kind == "close_truncated" for r in loaded.repairs):
            _refuse_cut_fields(loaded.tree, plan.view, loaded.json_text)
        repairs.extend(loaded.repairs)
        if loaded.repairs:
            quick = self._validate_exact(loaded.json_text, plan)
            if quick is not INVALID:
                quick = self._finish(quick, repairs, loaded.json_text, checks, plan)
                return _Success(cand, quick, tuple(repairs), loaded.json_text, total_cost(repairs))
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
        return _Success(cand, value, tuple(repairs), json_text, total_cost(repairs))

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
        refused = [r for r in repairs if not self.policy.allows(r.kind, r.lossless)]
        if refused:
            first = refused[0]
            raise UnrecoverableSyntaxError(
                f"repair {first.kind!r} at {first.path or '(root)'} is not allowed by the {self.policy.name} policy",
                [
                    ErrorDetail(
                        path=r.path,
                        kind="repair_not_allowed",
                        message=f"{r.kind} is not allowed",
                        offset=r.offset,
                    )
                    for r in refused
                ],
            )

    def _choose(self, successes: list[_Success], plan: TargetPlan) -> _Success:
        top = max(s.candidate.tier for s in successes)
        group = [s for s in successes if s.candidate.tier == top]
        cheapest = min(s.cost for s in group)
        best = [s for s in group if s.cost - cheapest < 1e-9]
        if len(best) == 1:
            return best[0]
        distinct: list[_Success] = []
        dumped: list[bytes] = []
        for s in best:
            key = plan.adapter.dump_json(s.value)
            if key not in dumped:
                dumped.append(key)
                distinct.append(s)
        if len(distinct) > 1:
            offsets = ", ".join(str(s.candidate.start) for s in distinct)
            raise AmbiguousMatchError(
                f"{len(distinct)} different JSON values in the output fit the target equally well "
                f"(at offsets {offsets}); the text does not say which is the answer",
                [
                    ErrorDetail(
                        path="",
                        kind="ambiguous_candidates",
                        message=f"equally good candidates at offsets {offsets}",
                    )
                ],
                candidate=distinct[0].json_text,
            )
        return min(best, key=lambda s: s.candidate.order)
