"""The pipeline: text → candidates → JSON tree → aligned, coerced tree → Pydantic → semantic checks → object.

The repair path imports its stages when it first runs (the imports inside the methods below), so a process that
only ever meets valid JSON pays for the fast path alone.

A `Parser` owns its configuration (policy, alias tables, validators) and its plugin host (`target_plan.ParserSetup`);
it keeps no other state but per-target caches, so one parser can be shared by threads and several can coexist.
Valid JSON for the target takes the fast path (`fast_path`) straight through `TypeAdapter.validate_json`.
"""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar, overload

from typing_extensions import TypeForm

from resilient_parse.context import CallContext, Candidate, SemanticValidator
from resilient_parse.errors import (
    ConfigurationError,
    ErrorDetail,
    ParseError,
    SchemaMismatchError,
    UnrecoverableSyntaxError,
)
from resilient_parse.fast_path import INVALID, JSON_SPACE, one_tool_fits, tool_answers, validate_exact
from resilient_parse.rejections import (
    check_input,
    check_policy,
    cut_literal,
    refusal_error,
    refuse_values_for_one,
)
from resilient_parse.repairs import ParseResult, Repair, total_cost
from resilient_parse.reply_path import reply_result
from resilient_parse.target_plan import (  # re-exported: tests and integrations import them from here
    ParserSetup,
    TargetPlan,
    check_alias_table,
    inf_probe,
    plan_key,
    reads_floats,
    type_name,
)
from resilient_parse.tools.vocabulary import STAGE_VOCABULARY

if TYPE_CHECKING:
    from resilient_parse.stages.select import Success
    from resilient_parse.stages.wrapped import Wrapped
    from resilient_parse.streaming import StreamUpdate

__all__ = [
    "INVALID",
    "ParseResult",
    "Parser",
    "ParserSetup",
    "TargetPlan",
    "inf_probe",
    "plan_key",
    "reads_floats",
    "type_name",
]

T = TypeVar("T")


log = logging.getLogger(__name__)


def _contained(exc: Exception, length: int, target: str) -> ParseError:
    """The library's own error for an exception that is not: too deep a nesting, or an internal error whose text
    stays local (`cause`, logs), since a message may be sent back to a model."""
    if isinstance(exc, RecursionError):
        return UnrecoverableSyntaxError(
            "the input is nested too deeply to process",
            [ErrorDetail(path="", kind="too_deep", message="nesting too deep")],
        )
    log.warning(
        "internal error while parsing", extra={"rp_error": type(exc).__name__, "rp_length": length, "rp_target": target}
    )
    return ParseError(
        f"internal error while parsing ({type(exc).__name__})",
        [
            ErrorDetail(
                path="",
                kind="internal",
                message="the parser could not process this output",
                cause=f"{type(exc).__name__}: {exc}",
            )
        ],
    )


class _CallReader:
    """How `tools.answer` reads a call's JSON and arguments: with this parser and the call's aliases, unobserved
    (observers hear of the parse that asked, not of each call inside it)."""

    def __init__(self, parser: Parser, aliases: Mapping[str, str]) -> None:
        self.parser, self.aliases, self.policy = parser, aliases, parser.policy

    def parse_result(self, text: str, target: Any) -> ParseResult[Any]:
        plan = self.parser.plan(target)
        return self.parser._guarded(text, plan, plan.validators, self.aliases)[0]


@functools.cache
def _wrapped() -> ModuleType:
    """`stages.wrapped`, imported on the first text that is not bare JSON (the lexicon stays out of a valid
    parse's import) and kept, so the short way pays no import statement per call."""
    from resilient_parse.stages import wrapped

    return wrapped


def _needs_finishing(json_text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]) -> bool:
    """Whether a validated value must still go through `Parser._finish` (validators, value repairers, or a '<'
    that may be an echoed template's placeholder) — on the fast path, usually not."""
    return bool(checks) or bool(plan.repairers) or "<" in json_text


class Parser(ParserSetup):
    """A configured pipeline. `mode` is "strict", "lenient" or a `Policy`; `aliases` maps keys models write to
    field names (`{"tool": "action"}`); `plugins` are objects with `@hookimpl` methods; `entrypoints` loads the
    `resilient_parse` entry-point group; `blocked_plugins` names plugins (built-in or external) to leave out;
    `validators` are semantic checks run on every validated object."""

    # -- public API ----------------------------------------------------------------------------------------------

    @overload
    def parse(self, text: str | bytes | object, target: type[T], *, aliases: Mapping[str, str] | None = None) -> T: ...
    @overload
    def parse(
        self, text: str | bytes | object, target: TypeForm[T], *, aliases: Mapping[str, str] | None = None
    ) -> T: ...
    def parse(self, text: str | bytes | object, target: Any, *, aliases: Mapping[str, str] | None = None) -> Any:
        """The validated object, or a `ParseError` saying what was wrong and where."""
        if not aliases and type(text) is str and len(text) <= self.policy.max_input_chars and not self.host.observed:
            # the hot path of a valid answer, without building a ParseResult nobody reads (an observer is told
            # about every parse, so with one the full path below runs)
            plan: TargetPlan | None = None
            memo: dict[str, Any] = {}
            try:
                plan = self.plan(target)
                if not _needs_finishing(text, plan, plan.validators):
                    value = validate_exact(text, plan, self.policy, memo=memo)
                    if value is not INVALID:
                        one_tool_fits(text, plan)
                        return value
                    # (a piece of a text that needs no finishing needs none either)
                    lone = self._lone_valid(text, plan)
                    if lone is not None:
                        one_tool_fits(lone[1], plan)
                        return lone[2]
                else:
                    plan = None
            except Exception:  # anything unusual: the full path below reports it properly
                plan = None
            if plan is not None:
                # neither short way answers: straight to the calls and the repair path
                return self._guarded(text, plan, plan.validators, {}, short_failed=True, memo=memo)[0].value
        return self.parse_result(text, target, aliases=aliases).value

    @overload
    def parse_result(
        self,
        text: str | bytes | object,
        target: type[T],
        *,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
    ) -> ParseResult[T]: ...
    @overload
    def parse_result(
        self,
        text: str | bytes | object,
        target: TypeForm[T],
        *,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
    ) -> ParseResult[T]: ...
    def parse_result(
        self,
        text: str | bytes | object,
        target: Any,
        *,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
    ) -> ParseResult[Any]:
        """The validated object with the repairs that produced it, or a `ParseError`. `text` may also be a reply
        object from a provider's SDK (`tools/replies.py`: an OpenAI ChatCompletion, a Claude Message …)."""
        if not self.host.observed:
            if not isinstance(text, str | bytes | bytearray):
                plan = self.plan(target)
                call_aliases = check_alias_table(aliases, "call")
                return self._reply_result(text, plan, (*plan.validators, *validators), call_aliases)[0]
            text = check_input(text, self.policy)
            plan = self.plan(target)
            call_aliases = check_alias_table(aliases, "call")
            return self._guarded(text, plan, (*plan.validators, *validators), call_aliases)[0]
        return self._observed(text, target, aliases, validators)

    def report_failed(self, error: ParseError, ctx: CallContext | None, target_name: str, started: float) -> None:
        """Tell observers a parse failed (`parse_failed`, see `hookspecs.rp_on_event`): the parser's own paths, and
        readers built on it that fail before any text is parsed (a tool call naming the wrong tool)."""
        self.host.emit(
            "parse_failed",
            ctx,
            kind=error.kind,
            details=len(error.details),
            repairs=len(error.repairs),
            duration_s=time.perf_counter() - started,
            target=target_name,
            mode=self.policy.name,
        )

    def _observed(
        self,
        text: str | bytes | bytearray | object,
        target: Any,
        aliases: Mapping[str, str] | None,
        validators: Sequence[SemanticValidator],
    ) -> ParseResult[Any]:
        """`parse_result` with an observer registered: `parse_started`, then `parse_succeeded` or `parse_failed`
        (see `hookspecs.rp_on_event`), on every path."""
        started = time.perf_counter()
        mode = self.policy.name
        length = len(text) if isinstance(text, str | bytes | bytearray) else 0
        ctx: CallContext | None = None
        name = ""
        try:
            plan = self.plan(target)
            name = plan.name
            ctx = CallContext(
                policy=self.policy,
                target=target,
                schema=plan.view,
                aliases=self._base_aliases,
                tools=STAGE_VOCABULARY,
            )
        except ConfigurationError:
            plan = None
        self.host.emit("parse_started", ctx, length=length)
        try:
            given = text if isinstance(text, str | bytes | bytearray) else None  # else a reply object
            read = None if given is None else check_input(given, self.policy)
            if plan is None:
                plan = self.plan(target)
            call_aliases = check_alias_table(aliases, "call")
            checks = (*plan.validators, *validators)
            if read is None:
                result, source, path = self._reply_result(text, plan, checks, call_aliases)
            else:
                result, source, path = self._guarded(read, plan, checks, call_aliases)
        except ParseError as error:
            self.report_failed(error, ctx, name, started)
            raise
        except ConfigurationError as error:
            self.host.emit(
                "parse_failed",
                ctx,
                kind="configuration_error",
                details=1,
                repairs=0,
                duration_s=time.perf_counter() - started,
                target=name or type(error).__name__,
                mode=mode,
            )
            raise
        self.host.emit(
            "parse_succeeded",
            ctx,
            repairs=len(result.repairs),
            lossy=sum(1 for r in result.repairs if not r.lossless),
            source=source,
            path=path,
            duration_s=time.perf_counter() - started,
            target=name,
            mode=mode,
        )
        return result

    def _guarded(
        self,
        text: str,
        plan: TargetPlan,
        checks: Sequence[SemanticValidator],
        call_aliases: Mapping[str, str],
        *,
        short_failed: bool = False,
        memo: dict[str, Any] | None = None,
    ) -> tuple[ParseResult[Any], str, str]:
        """The result, the source of the answer and the path it took ("fast" or "repaired"); only our own
        exceptions leave. `short_failed`: the caller already found that neither short way answers: the text is
        not valid as it stands (noted in `memo` as `validate_exact` notes it), nor one value in harmless prose."""
        memo = {} if memo is None else memo
        try:
            if not short_failed:
                fast = self._fast_path(text, plan, checks, memo)
                if fast is not None:
                    one_tool_fits(text, plan)
                    return fast, "whole", "fast"
                # a lone value in harmless prose is the whole answer as a bare document is: taken before the calls
                wrapped = self._wrapped_path(text, plan, checks)
                if wrapped is not None:
                    one_tool_fits(wrapped[0].json_text or "", plan)
                    return wrapped
            called = self._tool_path(text, plan, checks, call_aliases)
            if called is not None:
                return called
            found = self._slow_path(text, plan, checks, call_aliases, memo)
            one_tool_fits(found[0].json_text or "", plan)
            return found
        except (ParseError, ConfigurationError):
            raise
        except Exception as exc:  # the contract: only our own exception types leave the library
            raise _contained(exc, len(text), plan.name) from exc

    @overload
    def stream(self, chunks: Iterable[str | bytes], target: type[T], **options: Any) -> Iterator[StreamUpdate[T]]: ...
    @overload
    def stream(
        self, chunks: Iterable[str | bytes], target: TypeForm[T], **options: Any
    ) -> Iterator[StreamUpdate[T]]: ...
    def stream(self, chunks: Iterable[str | bytes], target: Any, **options: Any) -> Iterator[StreamUpdate[Any]]:
        """Yield partial objects while text arrives, then the final validated object (see `streaming`)."""
        from resilient_parse.streaming import stream

        return stream(self, chunks, target, **options)

    @overload
    def astream(
        self, chunks: AsyncIterable[str | bytes], target: type[T], **options: Any
    ) -> AsyncIterator[StreamUpdate[T]]: ...
    @overload
    def astream(
        self, chunks: AsyncIterable[str | bytes], target: TypeForm[T], **options: Any
    ) -> AsyncIterator[StreamUpdate[T]]: ...
    def astream(
        self, chunks: AsyncIterable[str | bytes], target: Any, **options: Any
    ) -> AsyncIterator[StreamUpdate[Any]]:
        """The async twin of `stream`, over an async iterable of text chunks."""
        from resilient_parse.streaming import astream

        return astream(self, chunks, target, **options)

    def feedback(self, error: ParseError, target: Any) -> str:
        """The message to send back to the model for this failure (built by the `rp_build_feedback` hook)."""
        return self.host.build_feedback(error, error.candidate, self.context(target))

    # -- stages --------------------------------------------------------------------------------------------------

    def _fast_path(
        self, text: str, plan: TargetPlan, checks: Sequence[SemanticValidator], memo: dict[str, Any]
    ) -> ParseResult[Any] | None:
        value = validate_exact(text, plan, self.policy, memo=memo)
        if value is INVALID:
            return None
        repairs: list[Repair] = []
        if _needs_finishing(text, plan, checks):
            value = self._finish(value, repairs, text, checks, plan)
        return ParseResult(value=value, repairs=tuple(repairs), candidate=text, json_text=text, mode=self.policy.name)

    def _reply_result(
        self, reply: object, plan: TargetPlan, checks: Sequence[SemanticValidator], call_aliases: Mapping[str, str]
    ) -> tuple[ParseResult[Any], str, str]:
        """`_guarded` for a provider's reply object (`reply_path.reply_result`), under the same contract."""
        try:
            return reply_result(self, reply, plan, checks, call_aliases, _CallReader(self, call_aliases))
        except (ParseError, ConfigurationError):
            raise
        except Exception as exc:
            raise _contained(exc, 0, plan.name) from exc

    def _tool_path(
        self, text: str, plan: TargetPlan, checks: Sequence[SemanticValidator], call_aliases: Mapping[str, str]
    ) -> tuple[ParseResult[Any], str, str] | None:
        """A target of tool models answered by the calls the text makes, each tool chosen by name
        (`tools/answer.py`); None when the target takes no calls or the text makes none."""
        tools = tool_answers()
        target = tools.tool_target(plan.view)
        if target is None or not tools.engages(text, target):
            return None
        answered = tools.answer(text, target, _CallReader(self, call_aliases))
        if answered is None:
            return None
        value, repairs = answered
        return self._called(value, repairs, text, plan, checks)

    def _called(
        self, value: Any, repairs: tuple[Repair, ...], text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]
    ) -> tuple[ParseResult[Any], str, str]:
        """The result of a value read from tool calls: the policy checked, the target's checks run."""
        check_policy(repairs, Candidate(text, 0, len(text), "tool_calls"), self.policy)
        json_text = json.dumps(plan.adapter.dump_python(value, mode="json"))
        if checks or plan.repairers:
            kept = list(repairs)
            value = self._finish(value, kept, json_text, checks, plan)
            repairs = tuple(kept)
        result = ParseResult(value, repairs, candidate=text or json_text, json_text=json_text, mode=self.policy.name)
        return result, "tool_calls", "repaired"

    def _wrapped_path(
        self, text: str, plan: TargetPlan, checks: Sequence[SemanticValidator]
    ) -> tuple[ParseResult[Any], str, str] | None:
        """One valid value in one fence or in prose that can neither exclude it nor offer another: the result the
        full path would give, at the cost of finding it (`stages/wrapped.py`); None sends the text the full way."""
        found = self._lone_valid(text, plan)
        if found is None:
            return None
        wrapped, body, value = found
        repairs = [Repair.make(wrapped.kind, "", None, None, offset=wrapped.offset)]
        if _needs_finishing(body, plan, checks):
            try:
                value = self._finish(value, repairs, body, checks, plan)
            except ParseError:
                return None  # the full path weighs every candidate against the checks, and explains a failure
        result = ParseResult(value=value, repairs=tuple(repairs), candidate=body, json_text=body, mode=self.policy.name)
        return result, "fence" if wrapped.kind == "extract_fence" else "span", "fast"

    def _lone_valid(self, text: str, plan: TargetPlan) -> tuple[Wrapped, str, Any] | None:
        """Where the lone value stands, its JSON and what that validates to, when the short way may take it
        (`parse` reads the value alone: no repairs, no checks)."""
        wrapped = _wrapped()
        if not self.host.selects_alone or wrapped.reads_plain(plan.view):
            return None
        found = wrapped.lone_value(text)
        if found is None or not self.policy.allows(found.kind, True):
            return None
        if tool_answers().call_in_prose(found.prose, text, found.start):
            return None  # ("Action: delete" before the value: the calls the text makes decide what it answers)
        if not self.host.extracts_alone and self.host.foreign_candidates(
            text,
            CallContext(
                policy=self.policy,
                target=plan.target,
                schema=plan.view,
                aliases=self._base_aliases,
                tools=STAGE_VOCABULARY,
            ),
        ):
            return None
        body = text[found.start : found.end]
        value = validate_exact(body, plan, self.policy)
        return None if value is INVALID else (found, body, value)

    def _finish(
        self, value: Any, repairs: list[Repair], json_text: str, checks: Sequence[SemanticValidator], plan: TargetPlan
    ) -> Any:
        """After Pydantic: the template-echo check, the plugins' value repairers, then the semantic validators."""
        if "<" in json_text:
            from resilient_parse.stages.select import refuse_template_echo

            refuse_template_echo(json_text)
        for repair in plan.repairers:
            result = repair(value)
            if result is None:
                continue
            new_value, fixes = result
            if fixes and all(self.policy.allows(r.kind, r.lossless) for r in fixes):
                value = new_value
                repairs.extend(fixes)
        if checks:
            from resilient_parse.stages.validate import run_semantic_checks

            run_semantic_checks(checks, value, json_text)
        return value

    def _slow_path(
        self,
        text: str,
        plan: TargetPlan,
        checks: Sequence[SemanticValidator],
        call_aliases: Mapping[str, str],
        memo: dict[str, Any],
    ) -> tuple[ParseResult[Any], str, str]:
        aliases = self._merge_aliases(call_aliases) if call_aliases else self._base_aliases
        ctx = CallContext(
            policy=self.policy,
            target=plan.target,
            schema=plan.view,
            aliases=aliases,
            text=text,
            tools=STAGE_VOCABULARY,
        )
        ctx.memo.update(memo)
        found = self.host.extract_candidates(text, ctx)
        candidates = self.host.select_candidates(text, found, ctx)
        from resilient_parse.stages.select import explain_no_answer, select_answer

        if not candidates:
            if not found:
                cut = cut_literal(text)
                if cut is not None:
                    raise cut
            raise explain_no_answer(text, found, ctx) if found else self.host.explain_no_candidate(text, ctx)
        chosen = select_answer(
            candidates,
            lambda cand: self._attempt(cand, plan, ctx, checks),
            plan.adapter,
            self.policy.max_candidates,
        )
        # the repairs that came with the answer (extraction's, or a plugin's) must be allowed too; checked once
        # it is chosen, so a candidate that fails reports its own error (a cut-off draft is truncated output)
        check_policy(chosen.candidate.repairs, chosen.candidate, self.policy)
        result = ParseResult(
            value=chosen.value,
            repairs=chosen.repairs,
            candidate=chosen.candidate.text,
            json_text=chosen.json_text,
            mode=self.policy.name,
        )
        return result, chosen.candidate.source, "repaired"

    def _attempt(
        self, cand: Candidate, plan: TargetPlan, ctx: CallContext, checks: Sequence[SemanticValidator]
    ) -> Success:
        """Read, align, coerce and validate one candidate."""
        from resilient_parse.conform import Conformer
        from resilient_parse.stages.select import Success
        from resilient_parse.stages.validate import validate_json

        repairs = list(cand.repairs)
        if cand.text != ctx.text and cand.text != ctx.text.strip(JSON_SPACE):
            # (the text itself was found not valid as it stands; with only JSON white space around, nor is this)
            quick = validate_exact(cand.text, plan, self.policy, memo=ctx.memo)
            if quick is not INVALID:
                quick = self._finish(quick, repairs, cand.text, checks, plan)
                return Success(cand, quick, tuple(repairs), cand.text, total_cost(repairs))
        try:
            loaded = self.host.parse(cand.text, ctx)  # the reader settles truncation and duplicate keys itself
        except UnrecoverableSyntaxError as exc:
            if exc.details and exc.details[0].kind == "trailing_text":
                refuse_values_for_one(cand.text, plan, self.policy, exc)
            raise
        check_policy(loaded.repairs, cand, self.policy)
        repairs.extend(loaded.repairs)
        if loaded.repairs:
            quick = validate_exact(loaded.json_text, plan, self.policy, read=True)
            if quick is not INVALID:
                quick = self._finish(quick, repairs, loaded.json_text, checks, plan)
                return Success(cand, quick, tuple(repairs), loaded.json_text, total_cost(repairs))
        conformed = Conformer(ctx, self.host.propose_key_mappings, self.host.coerce_value).run(loaded.tree, plan.view)
        json_text = loaded.json_text
        if conformed.repairs:
            check_policy(conformed.repairs, cand, self.policy)
            repairs.extend(conformed.repairs)
            json_text = json.dumps(conformed.tree, ensure_ascii=False)
        try:
            value = validate_json(plan.adapter, json_text, conformed.tree, plan.view)
        except SchemaMismatchError as exc:
            if conformed.errors:
                raise refusal_error(conformed.errors, json_text, repairs) from None
            value, json_text = self._second_pass(exc, conformed.tree, plan, ctx, cand, repairs)
        if conformed.errors:
            # Pydantic accepted the object without the values we refused to guess at (e.g. an optional field)
            raise refusal_error(conformed.errors, json_text, repairs)
        value = self._finish(value, repairs, json_text, checks, plan)
        return Success(cand, value, tuple(repairs), json_text, total_cost(repairs))

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
        from resilient_parse.revisit import revisit
        from resilient_parse.stages.validate import validate_json

        second = revisit(tree, failure.details, plan.view, ctx, self.host.coerce_value)
        if second.refusals:
            refused = {r.path for r in second.refusals}
            others = [d for d in failure.details if d.path not in refused]
            raise refusal_error([*second.refusals, *others], failure.candidate or "", repairs) from None
        if not second.repairs:
            failure.repairs = tuple(repairs)
            raise failure
        check_policy(second.repairs, cand, self.policy)
        repairs.extend(second.repairs)
        json_text = json.dumps(second.tree, ensure_ascii=False)
        try:
            return validate_json(plan.adapter, json_text, second.tree, plan.view), json_text
        except SchemaMismatchError as exc:
            exc.repairs = tuple(repairs)
            raise
