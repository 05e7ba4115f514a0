"""The correction loop's state machine: one `correct` call as a generator of requests, sans I/O."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from resilient_parse.api import default_parser
from resilient_parse.context import CallContext, SemanticValidator
from resilient_parse.correction._loop_accounting import (
    Deadline,
    _deadline_at,
    _is_quota_error,
    _with_attempts,
    estimate_tokens,
)
from resilient_parse.correction._loop_messages import (
    _CUT_OFF,
    _CUT_OFF_NOTE,
    MAX_ECHO_CHARS,
    _echoed,
    _tools_of,
    _with_instruction,
    schema_instruction,
)
from resilient_parse.correction._loop_protocol import Engine, Request, _Call, _Callback, _message, _Raised, _Reply
from resilient_parse.correction.tool_calls import ToolTarget, check_tool_name, read_reply_calls, tool_target
from resilient_parse.correction.types import (
    Attempt,
    Completion,
    CorrectionResult,
    MalformedResponseError,
    Outcome,
    Role,
    Usage,
    text_digest,
)
from resilient_parse.errors import (
    BudgetExhaustedError,
    ConfigurationError,
    CorrectionError,
    CorrectionsExhaustedError,
    ErrorDetail,
    ModelRefusedError,
    ParseError,
    QuotaExhaustedError,
    RefusalError,
    ResilientParseError,
    UnrecoverableSyntaxError,
)
from resilient_parse.feedback import excerpt
from resilient_parse.llm.base import LLMAdapter, copy_messages
from resilient_parse.llm.choose import as_adapter, takes_declared_tools
from resilient_parse.llm.tool_defs import ToolSpec, sent_tool_names
from resilient_parse.llm.tool_followups import for_tool_calls, text_followup
from resilient_parse.llm.types import Messages
from resilient_parse.parser import Parser, ParseResult
from resilient_parse.policy import Policy
from resilient_parse.safe_text import escape_surrogates

if TYPE_CHECKING:
    pass

log = logging.getLogger("resilient_parse.correction.loop")  # the logger the loop has always logged to

StopReason = Literal["max_corrections", "repeated_errors", "refused", "token_budget", "deadline"]
OnExhausted = Callable[[ParseError], Any]
Instructions = Literal["schema"]


def _answer_rewriters(parser: Parser) -> list[Any]:
    """Plugins that can turn an answer into a document before parsing (e.g. apply a JSON Patch to the candidate).

    A plugin opts in by having a `rewrite_answer(text, candidate, feedback, ctx)` method (not a hook: it only
    makes sense together with the plugin's own `rp_build_feedback`).
    """
    return [p for p in parser.host.pm.get_plugins() if callable(getattr(p, "rewrite_answer", None))]


class _Loop:
    """The state of one `correct` call; `run()` is the generator both drivers share."""

    def __init__(
        self,
        llm: Any,
        messages: Sequence[Mapping[str, Any]],
        target: Any,
        *,
        max_corrections: int | None = None,
        mode: str | Policy | None = None,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
        parser: Parser | None = None,
        token_budget: int | None = None,
        deadline: Deadline | None = None,
        fallbacks: Sequence[Any] = (),
        on_exhausted: OnExhausted | None = None,
        instructions: Instructions | None = None,
        clock: Callable[[], float] = time.monotonic,
        tools: Sequence[ToolSpec] | None = None,
    ) -> None:
        if parser is not None and mode is not None:
            raise ConfigurationError("pass either parser= or mode=, not both (the parser has its own mode)")
        self.parser = parser if parser is not None else default_parser(mode or "lenient")
        if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
            raise ConfigurationError("messages must be a list of {'role', 'content'} dicts")
        for m in messages:
            if not isinstance(m, Mapping) or "role" not in m or "content" not in m:
                raise ConfigurationError(f"each message needs 'role' and 'content', got {_shown(m)}")
        # a private deep copy: the caller's messages are never touched, even by a misbehaving llm
        self.messages: Messages = copy_messages(messages)
        self.target = target
        limit = self.parser.policy.max_corrections if max_corrections is None else max_corrections
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise ConfigurationError(f"max_corrections must be an int >= 0, not {max_corrections!r}")
        self.max_corrections = limit
        if token_budget is not None and (not isinstance(token_budget, int) or token_budget <= 0):
            raise ConfigurationError(f"token_budget must be a positive int, not {token_budget!r}")
        self.token_budget = token_budget
        self.clock = clock
        self.deadline = _deadline_at(deadline, clock)
        self.aliases = aliases
        self.validators = tuple(validators)
        if tools is not None and (isinstance(tools, str | bytes | Mapping) or not isinstance(tools, Sequence)):
            raise ConfigurationError("tools= must be a list of argument models or tool dicts")
        # `tools`: what a plain-function llm (and each plain-function fallback) sends; an adapter says it itself
        self.chain = [
            as_adapter(llm, tools=tools),
            *(as_adapter(f, tools=tools if takes_declared_tools(f) else None) for f in fallbacks),
        ]
        self.on_exhausted = on_exhausted
        if on_exhausted is not None and not callable(on_exhausted):
            raise ConfigurationError("on_exhausted must be callable")
        self.ctx: CallContext = self.parser.context(target, aliases)
        self.tool_target: ToolTarget | None = None
        self.tool_target_error: ConfigurationError | None = None  # raised only if a reply makes tool calls
        try:
            self.tool_target = tool_target(target)
        except ConfigurationError as exc:  # e.g. two models under one tool name: fine for text answers
            if any(_tools_of(adapter) is not None for adapter in self.chain):
                raise  # tools are sent, so calls are expected: say it before a request is paid for
            self.tool_target_error = exc
        self._check_tools_sent()
        if instructions not in (None, "schema"):
            raise ConfigurationError(f"instructions must be None or 'schema', not {instructions!r}")
        if instructions == "schema" and _tools_of(self.chain[0]) is None:  # tools already carry their schema
            self.messages = _with_instruction(self.messages, schema_instruction(target))
        self.rewriters = _answer_rewriters(self.parser)
        self.attempts: list[Attempt] = []
        self.spent = 0
        self.estimated = False
        self.failure: ResilientParseError | None = None  # the last answer's problems
        self.shown: str | None = None  # what we show the model as its previous answer
        self.feedback: str | None = None
        self.answered: Completion | None = None  # the reply the feedback answers (its tool calls are answered)
        self.stop_reason: StopReason = "max_corrections"
        self.started = time.perf_counter()

    def _check_tools_sent(self) -> None:
        """Tools were sent, yet none under a name the target answers to: no exact answer is possible (strict could
        never accept one), so say how to name them instead of re-asking in vain."""
        if self.tool_target is None:
            return
        for adapter in self.chain:
            sent = _tools_of(adapter)
            if sent is None:
                continue
            names = sent_tool_names(sent)
            if names and not names & set(self.tool_target.models):
                raise ConfigurationError(
                    f"none of the tools sent to {adapter.name} ({', '.join(sorted(names))}) is named as the target's "
                    f"argument models ({', '.join(self.tool_target.models)}): name the tool after the model, or set "
                    "the model's model_config title to the tool's name"
                )

    # -- bookkeeping --------------------------------------------------------------------------------------------

    def _emit(self, name: str, **data: Any) -> None:
        self.parser.host.emit(name, self.ctx, **data)

    def _totals(self) -> dict[str, Any]:
        """What the whole call has cost so far, for the closing events and logs."""
        usage = self._usage()
        return {
            "calls": len(self.attempts),
            "tokens": usage.total_tokens,
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "estimated": usage.estimated,
            "duration_s": round(time.perf_counter() - self.started, 6),
        }

    def _record(self, attempt: Attempt) -> Attempt:
        self.attempts.append(attempt)
        if attempt.usage is not None:
            self.spent += attempt.usage.total_tokens
            self.estimated = self.estimated or attempt.usage.estimated
        outcome = "ok" if attempt.ok else attempt.error_kind
        usage = attempt.usage or Usage()
        fields = {
            "attempt_index": attempt.index,
            "attempt_role": attempt.role,
            "model": attempt.model,
            "adapter": attempt.adapter,
            "outcome": outcome,
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "tokens_estimated": usage.estimated,
            "tool_calls": attempt.tool_calls,
            "duration_s": round(attempt.latency_s, 6),
        }
        log.debug(
            "attempt %d (%s, %s): %s, %d tokens, %.3fs",
            attempt.index,
            attempt.role,
            attempt.model,
            outcome,
            attempt.tokens,
            attempt.latency_s,
            extra={"resilient_parse": fields},
        )
        self._emit(
            "attempt_finished",
            **attempt.to_dict(),
            outcome=outcome,
            duration_s=fields["duration_s"],
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            total_tokens=usage.total_tokens,
        )
        return attempt

    def _request(self, adapter: LLMAdapter) -> Messages:
        """Original messages + the reply answered with the feedback (in the adapter's shape); just the original
        messages the first time."""
        if self.feedback is None:
            return copy_messages(self.messages)
        followup = getattr(adapter, "followup", None)
        if callable(followup) and self.answered is not None:
            extra = followup(self.answered, self.shown, self.feedback)
        else:
            extra = text_followup(self.shown, self.feedback)
        return [*copy_messages(self.messages), *copy_messages(extra)]

    def _out_of_budget(self, messages: Messages, adapter: LLMAdapter) -> StopReason | None:
        if self.deadline is not None and self.clock() >= self.deadline:
            return "deadline"
        if self.token_budget is not None:
            upcoming = estimate_tokens(messages, "", tools=_tools_of(adapter)).prompt_tokens
            if self.spent + upcoming > self.token_budget:
                return "token_budget"
        return None

    def _set_failure(
        self,
        failure: ParseError,
        raw_text: str | None,
        finish_reason: str | None = None,
        answered: Completion | None = None,
    ) -> None:
        self.failure = failure
        if isinstance(failure, MalformedResponseError):
            return  # nothing new was said: send the same request again
        self.answered = _echoed(answered) if answered is not None else None
        # the model's own output, up to MAX_ECHO_CHARS: the repaired candidate when there is one, else what it said
        said = failure.candidate or (raw_text.strip() if raw_text else None)
        self.shown = escape_surrogates(excerpt(said, MAX_ECHO_CHARS)) if said else None
        # the candidate is already in the conversation as the assistant's turn, so the hook gets candidate=None
        # (a plugin that needs it reads `failure.candidate`)
        feedback = self.parser.host.build_feedback(failure, None, self.ctx)
        if answered is not None and answered.tool_calls and self.tool_target is not None:
            feedback = for_tool_calls(feedback, many=self.tool_target.many)
        if finish_reason in _CUT_OFF:
            feedback = f"{_CUT_OFF_NOTE}\n\n{feedback}"
        self.feedback = escape_surrogates(feedback)

    def _parse_completion(self, completion: Completion, adapter: LLMAdapter) -> ParseResult[Any]:
        """The answer in a reply: read from its tool calls when the target takes them, else from its text (a reply
        that is one call and no text, for another target, is read from that call's arguments when the call names the
        target's class, or the target names none)."""
        calls = completion.tool_calls
        if calls and self.tool_target is not None:
            # text beside the calls that refuses, takes the call back or asks back refuses them (`RefusalError`)
            return read_reply_calls(
                calls,
                completion.text,
                self.target,
                self.parser,
                aliases=self.aliases,
                validators=self.validators,
                truncated=completion.finish_reason in _CUT_OFF,
                sent_names=sent_tool_names(_tools_of(adapter) or ()),
            )
        if len(calls) == 1 and not completion.text.strip():
            check_tool_name(calls[0], self.target, self.parser)
            return self._parse(calls[0].arguments)
        return self._parse(completion.text)

    def _parse(self, text: str) -> ParseResult[Any]:
        for plugin in self.rewriters:
            rewritten = self._rewrite(plugin, text)
            if isinstance(rewritten, str):
                text = rewritten
                break
        return self.parser.parse_result(text, self.target, aliases=self.aliases, validators=self.validators)

    def _rewrite(self, plugin: Any, text: str) -> Any:
        """One plugin's `rewrite_answer`, under the parse guard: whatever it raises leaves as a `ParseError`."""
        candidate = self.failure.candidate if self.failure else None
        try:
            return plugin.rewrite_answer(text, candidate, self.feedback, self.ctx)
        except (ParseError, ConfigurationError):
            raise
        except RecursionError:
            raise UnrecoverableSyntaxError(
                "the answer is nested too deeply to process",
                [ErrorDetail(path="", kind="too_deep", message="nesting too deep")],
            ) from None
        except Exception as exc:
            name = getattr(plugin, "rp_name", type(plugin).__name__)
            raise ParseError(
                f"internal error while rewriting the answer ({name}): {type(exc).__name__}",
                [
                    ErrorDetail(
                        path="",
                        kind="internal",
                        message=f"{name} failed",
                        cause=f"{type(exc).__name__}: {_message(exc)}",
                    )
                ],
            ) from exc

    def _usage(self) -> Usage:
        completion = sum(a.usage.completion_tokens for a in self.attempts if a.usage)
        prompt = sum(a.usage.prompt_tokens for a in self.attempts if a.usage)
        return Usage(prompt, completion, self.estimated)

    # -- the loop -----------------------------------------------------------------------------------------------

    def run(self) -> Engine:
        self._emit(
            "correction_started",
            mode=self.parser.policy.name,
            model=self.chain[0].name,
            max_corrections=self.max_corrections,
            token_budget=self.token_budget,
            fallbacks=len(self.chain) - 1,
            tools=self.tool_target is not None and _tools_of(self.chain[0]) is not None,
        )
        log.debug(
            "correction started (%s)",
            self.chain[0].name,
            extra={"resilient_parse": {"model": self.chain[0].name, "mode": self.parser.policy.name}},
        )
        for position, adapter in enumerate(self.chain):
            if position:
                self._emit("fallback_started", model=adapter.name, position=position)
                log.info("falling back to %s", adapter.name)
            result = yield from self._run_model(adapter, fallback=position > 0)
            if result is not None:
                totals = self._totals()
                self._emit(
                    "correction_succeeded", **totals, outcome=result.outcome, corrections_used=result.corrections_used
                )
                log.debug(
                    "correction %s after %d calls",
                    result.outcome,
                    totals["calls"],
                    extra={"resilient_parse": {**totals, "outcome": result.outcome}},
                )
                return result
            if self.stop_reason in ("token_budget", "deadline"):
                break
        error = self._final_error()
        totals = self._totals()
        self._emit("corrections_exhausted", **totals, reason=self.stop_reason, outcome=error.kind)
        log.info(
            "correction loop gave up (%s) after %d calls, %d tokens",
            self.stop_reason,
            len(self.attempts),
            self.spent,
            extra={"resilient_parse": {**totals, "outcome": error.kind, "stop_reason": self.stop_reason}},
        )
        if self.on_exhausted is not None:
            reply = yield _Callback(self.on_exhausted, error)
            if reply.error is not None:
                raise _Raised(reply.error)
            if reply.value is not None:
                return self._default(reply.value, error)
        raise error

    def _run_model(
        self, adapter: LLMAdapter, *, fallback: bool
    ) -> Generator[Request, _Reply, CorrectionResult[Any] | None]:
        calls_left = 1 + self.max_corrections
        previous: frozenset[tuple[str, str]] | None = None
        first = True
        while calls_left:
            messages = self._request(adapter)
            if self.attempts:  # the very first call is the caller's own decision; every later one is budgeted
                reason = self._out_of_budget(messages, adapter)
                if reason:
                    self.stop_reason = reason
                    return None
                self._emit(
                    "correction_requested",
                    model=adapter.name,
                    round=len(self.attempts),
                    errors=len(self.failure.details) if self.failure else 0,
                )
            role: Role = ("fallback" if first else "correction") if fallback else ("initial" if first else "correction")
            first = False
            calls_left -= 1
            reply = yield _Call(adapter, messages)
            attempt, result = self._settle(adapter, role, messages, reply)
            if result is not None:
                return result
            if attempt.error_kind in ("refusal", "model_refused"):
                self.stop_reason = "refused"
                return None
            signature = attempt.error_signature()
            if attempt.error_kind != "malformed_response":
                if signature == previous:
                    self.stop_reason = "repeated_errors"
                    return None
                previous = signature
        self.stop_reason = "max_corrections"
        return None

    def _settle(
        self, adapter: LLMAdapter, role: Role, messages: Messages, reply: _Reply
    ) -> tuple[Attempt, CorrectionResult[Any] | None]:
        """Turn one call's reply into an `Attempt` (and a result when it produced the object)."""
        base: dict[str, Any] = {
            "index": len(self.attempts),
            "role": role,
            "model": getattr(adapter, "model", None) or adapter.name,
            "adapter": getattr(adapter, "kind", type(adapter).__name__),
            "latency_s": reply.latency_s,
        }
        if reply.error is not None:
            return self._settle_error(adapter, messages, base, reply.error), None
        completion = reply.value
        if not isinstance(completion, Completion):  # a user's adapter-shaped object: a bug to report, not retry
            raise ConfigurationError(
                f"the llm adapter {adapter.name!r} returned {type(completion).__name__}, not a Completion: an "
                "adapter's complete()/acomplete() returns Completion(text=...); a plain function may return text"
            )
        text = completion.text
        said = text or "\n".join(c.arguments for c in completion.tool_calls)  # what the model wrote, for the record
        usage = completion.usage or estimate_tokens(messages, said, tools=_tools_of(adapter))
        base.update(
            text_sha256=text_digest(said),
            text_length=len(said),
            usage=usage,
            finish_reason=completion.finish_reason,
            tool_calls=len(completion.tool_calls),
        )
        if completion.model:
            base["model"] = completion.model
        if completion.refusal:
            refused = ModelRefusedError(
                "the model refused to answer",
                [ErrorDetail(path="", kind="model_refused", message=completion.refusal[:500])],
            )
            self.failure = refused
            return self._record(Attempt(**base, error_kind=refused.kind, errors=refused.details)), None
        if completion.tool_calls and self.tool_target_error is not None:  # calls no tool target can read
            self._record(Attempt(**base, error_kind="configuration_error", note=str(self.tool_target_error)[:200]))
            raise _with_attempts(self.tool_target_error, tuple(self.attempts), self._totals())
        try:
            parsed = self._parse_completion(completion, adapter)
        except ParseError as exc:
            kind = "refusal" if isinstance(exc, RefusalError) else exc.kind
            if isinstance(exc, RefusalError):
                self.failure = exc
            else:
                self._set_failure(exc, said, completion.finish_reason, completion)
            attempt = Attempt(**base, error_kind=kind, errors=exc.details, repairs=exc.repairs)
            return self._record(attempt), None
        attempt = self._record(Attempt(**base, ok=True, repairs=parsed.repairs))
        return attempt, self._result(role, parsed)

    def _settle_error(self, adapter: LLMAdapter, messages: Messages, base: dict[str, Any], exc: Exception) -> Attempt:
        """Record a call that failed: a malformed response is an attempt the loop corrects (returned), a quota
        error or any other exception from the llm ends the loop (raised, with the attempts so far)."""
        # the request was sent: count it (what the provider reported, else its prompt, estimated)
        asked = estimate_tokens(messages, "", tools=_tools_of(adapter))
        if isinstance(exc, MalformedResponseError):
            self._set_failure(exc, None)
            usage = exc.usage or asked
            return self._record(Attempt(**base, error_kind=exc.kind, errors=exc.details, usage=usage))
        note = f"{type(exc).__name__}: {_message(exc)}"[:200]
        if _is_quota_error(exc):
            self._record(Attempt(**base, error_kind="quota_exhausted", note=note, usage=asked))
            raise QuotaExhaustedError(
                f"the LLM provider says the quota is exhausted ({adapter.name}); stopped at once",
                [ErrorDetail(path="", kind="quota_exhausted", message=_message(exc)[:500])],
                candidate=self.failure.candidate if self.failure else None,
                attempts=self.attempts,
            ) from exc
        self._record(Attempt(**base, error_kind="llm_error", note=note, usage=asked))
        raise _Raised(_with_attempts(exc, tuple(self.attempts), self._totals()))

    def _result(self, role: Role, parsed: ParseResult[Any]) -> CorrectionResult[Any]:
        """The result of the call that produced the object, with the outcome its attempts earn."""
        outcome: Outcome
        if role == "initial":
            outcome = "repaired" if parsed.repairs else "valid"
        else:
            outcome = "fallback" if any(a.role == "fallback" for a in self.attempts) else "corrected"
        return CorrectionResult(
            value=parsed.value,
            attempts=tuple(self.attempts),
            outcome=outcome,
            repairs=parsed.repairs,
            candidate=parsed.json_text,
            usage=self._usage(),
        )

    def _final_error(self) -> CorrectionError:
        failure = self.failure
        details: Sequence[ErrorDetail] = failure.details if failure else ()
        calls = len(self.attempts)
        used = f"{calls} call{'s' if calls != 1 else ''}, {self.spent} tokens"
        cls: type[CorrectionError]
        if self.stop_reason in ("token_budget", "deadline"):
            cls = BudgetExhaustedError
            what = "the token budget ran out" if self.stop_reason == "token_budget" else "the deadline passed"
            message = f"{what} before the model produced a valid object ({used})"
        elif self.stop_reason == "refused":
            cls = ModelRefusedError
            message = f"the model refused to answer ({used})"
        else:
            cls = CorrectionsExhaustedError
            why = "the same errors came back twice" if self.stop_reason == "repeated_errors" else "no corrections left"
            message = f"no valid object after {used}: {why}"
        if failure is not None:
            message += f"; last problem: {failure.message}"
        error = cls(
            message,
            details,
            candidate=failure.candidate if failure else None,
            repairs=failure.repairs if failure else (),
            attempts=self.attempts,
        )
        error.__cause__ = failure
        error.stop_reason = self.stop_reason
        return error

    def _default(self, value: Any, error: CorrectionError) -> CorrectionResult[Any]:
        """A default from `on_exhausted`, validated against the target and recorded as an attempt."""
        try:
            checked = self.parser.plan(self.target).adapter.validate_python(value)
        except ValidationError as exc:
            raise ConfigurationError(
                f"on_exhausted returned a value that is not a valid {self.target!r}: {exc}"
            ) from exc
        self._record(
            Attempt(
                index=len(self.attempts),
                role="default",
                model="on_exhausted",
                adapter="callback",
                ok=True,
                note=f"default after: {error.message}"[:200],
            )
        )
        return CorrectionResult(value=checked, attempts=tuple(self.attempts), outcome="default", usage=self._usage())


def _shown(value: Any) -> str:
    """`repr(value)` cut to 200 characters, or its type for an object whose `__repr__` raises."""
    try:
        text = repr(value)
    except Exception:
        return f"<{type(value).__name__}>"
    return text if len(text) <= 200 else text[:199] + "…"
