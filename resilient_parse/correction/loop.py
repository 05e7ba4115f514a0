"""The model-feedback correction loop: local repair first, then re-ask the model with exactly what is still wrong.

The loop is written once, as a generator that yields the calls it wants made (`_Call`, `_Callback`) and receives
their outcome; `correct` drives it synchronously and `acorrect` with `await`, so the two cannot disagree.

Each round sends the caller's original messages + the model's last answer + the feedback — never a growing history.
The adapter says how an answer is answered (`followup`): a text answer as the assistant's turn (at most
`MAX_ECHO_CHARS` of it) and the feedback as the user's; tool calls as the API wants them answered (a `tool`
message per call, a `tool_result` block). A reply made of tool calls is read from the calls' arguments when the
target is an argument model, a union of them or a list of either (`tool_calls.read_reply_calls`); text beside the
calls that refuses, takes the call back or asks back is a refusal, as the provider's own signal is. Every call gets
its own deep copy of the messages, so neither the caller's messages nor the next round's can be changed by an llm. It
stops on `max_corrections` (extra calls, not total), a token budget, a deadline, the same errors twice in a row,
a refusal; stops at once on an exhausted quota; re-raises any other LLM error (network, auth, rate limit) as it is,
with the attempts made so far attached as `.attempts`. Every call is counted — the provider's usage when it gave
one (malformed replies included), an estimate marked `estimated` when not (an SDK error costs its prompt). Then come
the fallback models, then `on_exhausted`, then a `CorrectionsExhaustedError` / `BudgetExhaustedError` /
`ModelRefusedError` carrying every `Attempt`.

An llm that answers with something that is not an answer — an adapter returning a bare `str`, a `Completion`
whose text is not a `str` — is a programming error, reported at once as a `ConfigurationError`, not retried.
Plugins that rewrite an answer (`rewrite_answer`) run under the same guard as parsing: only `ParseError`s and
`ConfigurationError`s leave the loop.

This module is the public surface; the loop lives next to it: `_loop_machine` (the generator), `_loop_protocol`
(what it and the drivers exchange), `_loop_drivers`, `_loop_accounting` (tokens, deadline, the cost of a call that
raised) and `_loop_messages` (the schema instruction, the answer echoed back).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, overload

from typing_extensions import TypeForm

from resilient_parse.context import SemanticValidator
from resilient_parse.correction._loop_accounting import Deadline, estimate_tokens
from resilient_parse.correction._loop_drivers import _adrive, _drive
from resilient_parse.correction._loop_machine import Instructions, OnExhausted, _Loop
from resilient_parse.correction._loop_machine import StopReason as StopReason
from resilient_parse.correction._loop_messages import MAX_ECHO_CHARS as MAX_ECHO_CHARS  # re-exported: its old path
from resilient_parse.correction._loop_messages import schema_instruction as schema_instruction
from resilient_parse.correction.types import CorrectionResult
from resilient_parse.errors import ConfigurationError
from resilient_parse.llm.tool_defs import ToolSpec
from resilient_parse.parser import Parser
from resilient_parse.policy import Policy

if TYPE_CHECKING:
    from typing_extensions import Unpack

T = TypeVar("T")


class CorrectOptions(TypedDict, total=False):
    """The keyword options of `correct`, `correct_result` and their async twins (see `correct`)."""

    max_corrections: int | None
    mode: str | Policy | None
    aliases: Mapping[str, str] | None
    validators: Sequence[SemanticValidator]
    parser: Parser | None
    token_budget: int | None
    deadline: Deadline | None
    fallbacks: Sequence[Any]
    on_exhausted: OnExhausted | None
    instructions: Instructions | None
    clock: Callable[[], float]
    tools: Sequence[ToolSpec] | None


def _known(options: CorrectOptions) -> CorrectOptions:
    """The options, once each is known: an unknown one is a `ConfigurationError` naming the ones there are."""
    unknown = sorted(set(options) - set(CorrectOptions.__annotations__))
    if unknown:
        there = ", ".join(CorrectOptions.__annotations__)
        raise ConfigurationError(f"unknown correct option(s) {', '.join(unknown)}; the options: {there}")
    return options


@overload
def correct_result(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: type[T], **options: Unpack[CorrectOptions]
) -> CorrectionResult[T]: ...
@overload
def correct_result(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: TypeForm[T], **options: Unpack[CorrectOptions]
) -> CorrectionResult[T]: ...
def correct_result(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: Any, **options: Unpack[CorrectOptions]
) -> CorrectionResult[Any]:
    """Like `correct`, but returns the `CorrectionResult` (value, attempts, corrections_used, usage, outcome)."""
    return _drive(_Loop(llm, messages, target, **_known(options)).run())


@overload
async def acorrect_result(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: type[T], **options: Unpack[CorrectOptions]
) -> CorrectionResult[T]: ...
@overload
async def acorrect_result(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: TypeForm[T], **options: Unpack[CorrectOptions]
) -> CorrectionResult[T]: ...
async def acorrect_result(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: Any, **options: Unpack[CorrectOptions]
) -> CorrectionResult[Any]:
    """The async twin of `correct_result`: `llm`, fallbacks and `on_exhausted` may be sync or async."""
    return await _adrive(_Loop(llm, messages, target, **_known(options)).run())


@overload
def correct(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: type[T], **options: Unpack[CorrectOptions]
) -> T: ...
@overload
def correct(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: TypeForm[T], **options: Unpack[CorrectOptions]
) -> T: ...
def correct(llm: Any, messages: Sequence[Mapping[str, Any]], target: Any, **options: Unpack[CorrectOptions]) -> Any:
    """Ask `llm` with `messages` and return a validated `target`, re-asking with feedback while it is wrong.

    - `llm`: a callable taking chat messages (a list of {"role", "content"} dicts) and returning text, or an
      adapter (`OpenAIAdapter`, `AnthropicAdapter`, `LiteLLMAdapter`, `FunctionAdapter`).
    - Tool calls: when the reply is tool calls (an adapter built with `tools=[GetWeather, ...]`) and `target` is an
      argument model, a union of them (picked by the tool's name) or `list[...]` of either (parallel calls), the
      answer is read from the calls' arguments; a re-ask answers the calls in the API's own shape.
    - `max_corrections`: extra calls after the first (default: the policy's, 2); `mode` or `parser`, `aliases`,
      `validators`: how each answer is parsed (semantic validators feed the loop like schema errors: the
      `ErrorDetail`s they return or raise in a `ParseError` are sent as written; any other exception they raise is
      sent only as "the validator <name> rejected the value").
    - `token_budget` (tokens as the adapter reports them, else estimated) and `deadline` (seconds, a timedelta or a
      datetime): no call is made once either would be exceeded.
    - `fallbacks`: more llms tried in order once this one gives up; `on_exhausted(error)`: a last resort whose
      non-None return is the answer (validated against `target`); in `acorrect` it may be async.
    - `instructions="schema"`: add a compact JSON Schema of `target` to the first system message (a system message
      is put first when there is none), so the first request says what to answer; off by default, and skipped
      when the adapter sends tools (their definitions already carry the schema). Re-asks keep it (they repeat
      the original messages, so a provider's prompt cache still matches).
    - `clock`: the monotonic clock behind `deadline` (for tests).
    - `tools`: for a plain function as the llm (and plain-function fallbacks), the tools its own request sends
      (argument models or tool dicts, as the adapters' `tools=` take): a call to another of them is a wrong tool,
      never a typo of the target's. Without them nothing says which tools exist, so only a slip that cannot make
      another word (a vowel, two letters swapped) is repaired as a typo. An adapter or chat model takes its own.

    Every request made is counted in `.attempts` and the usage: the provider's figures when it reported them
    (malformed replies included), else an estimate marked `estimated` (an SDK error counts its prompt).

    Raises `CorrectionsExhaustedError`, `BudgetExhaustedError`, `ModelRefusedError` or `QuotaExhaustedError`, each
    with `.attempts`. Any other LLM error (network, auth, a 429 rate limit) is re-raised as the SDK's own
    exception — so `except openai.RateLimitError:` backoff code keeps working — with `.attempts` attached (every
    attempt so far, the failed call last) and a note saying what the call had cost.
    """
    return correct_result(llm, messages, target, **options).value


@overload
async def acorrect(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: type[T], **options: Unpack[CorrectOptions]
) -> T: ...
@overload
async def acorrect(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: TypeForm[T], **options: Unpack[CorrectOptions]
) -> T: ...
async def acorrect(
    llm: Any, messages: Sequence[Mapping[str, Any]], target: Any, **options: Unpack[CorrectOptions]
) -> Any:
    """The async twin of `correct`: `llm`, fallbacks and `on_exhausted` may be sync or async."""
    return (await acorrect_result(llm, messages, target, **options)).value


__all__ = ["CorrectOptions", "acorrect", "acorrect_result", "correct", "correct_result", "estimate_tokens"]
