"""Tool calls as answers: the calls a model made, which targets they can answer, and reading them into the target.

A model that answers through tool calling (OpenAI `tool_calls`, Anthropic `tool_use`, LangChain
`AIMessage.tool_calls`) puts the object in the call's arguments and says which object it is by the tool's name.
`read_tool_calls` reads those arguments through the whole parsing pipeline against the argument model the name
picks: one model, a union of models (`None` among them allowed, picked by name), or `list[...]` of either for
parallel calls. A call's name is matched to a tool by the one matcher of every path (`tools.names.match_tool`):
exactly, in another case or style, behind a namespace prefix or by one typo (lossy guesses, refused in strict),
never onto another tool that was sent (`sent_names`); anything else is an error listing the expected tools.
The call itself is `tools.calls.ToolCall`.

The tools a request sends are `tool_defs`; the messages that answer a bad call are `tool_followups`.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
import types
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import typing_extensions
from pydantic import BaseModel, ValidationError

from resilient_parse.context import SemanticValidator
from resilient_parse.errors import (
    AmbiguousMatchError,
    ConfigurationError,
    ErrorDetail,
    NoCandidateError,
    ParseError,
    SchemaMismatchError,
    TruncatedOutputError,
)
from resilient_parse.llm.tool_defs import ToolSpec, is_tool_model, tool_name
from resilient_parse.parser import Parser, ParseResult
from resilient_parse.policy import STRICT
from resilient_parse.repairs import Repair
from resilient_parse.tools.calls import ToolCall
from resilient_parse.tools.envelopes import refusal_beside_calls, truncated_call_error
from resilient_parse.tools.names import match_tool, shown_name
from resilient_parse.tools.reply_signals import Reading, check_text_agrees, same_answer

# -- which targets tool calls can answer --------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolTarget:
    """A target read from tool calls: the argument models by tool name, and whether it takes several calls."""

    models: Mapping[str, type[BaseModel]]
    many: bool


def _strip_annotated(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _models_of(tp: Any) -> tuple[type[BaseModel], ...] | None:
    tp = _strip_annotated(tp)
    if is_tool_model(tp):
        return (tp,)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        # `Model | None`: a call always gives the model (None is never a tool call's answer)
        members = [_strip_annotated(a) for a in typing.get_args(tp) if a is not type(None)]
        if members and all(is_tool_model(m) for m in members):
            return tuple(members)
    return None


def _without_none(tp: Any) -> Any:
    """`X | None` as `X` (`list[Model] | None` is read from calls as `list[Model]`); anything else as it is."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(rest) == 1 and len(rest) < len(typing.get_args(tp)):
            return _strip_annotated(rest[0])
    return tp


def tool_target(target: Any) -> ToolTarget | None:
    """The tool-call reading of `target` — an argument model, a union of them (`None` allowed among them), or
    `list[...]` of either (itself optional) — or None when the target is something else (its answer is read from
    the text)."""
    inner = _without_none(_strip_annotated(target))
    many = typing.get_origin(inner) is list
    if many:
        args = typing.get_args(inner)
        if len(args) != 1:
            return None
        inner = args[0]
    models = _models_of(inner)
    if models is None:
        return None
    by_name: dict[str, type[BaseModel]] = {}
    for model in models:
        name = tool_name(model)
        if name in by_name and by_name[name] is not model:
            raise ConfigurationError(f"two argument models are sent under the tool name {name!r}")
        by_name[name] = model
    return ToolTarget(models=by_name, many=many)


def _members(target: Any) -> list[Any]:
    tp = _without_none(_strip_annotated(target))
    if typing.get_origin(tp) is list and len(typing.get_args(tp)) == 1:
        tp = _strip_annotated(typing.get_args(tp)[0])
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return [_strip_annotated(a) for a in typing.get_args(tp)]
    return [tp]


def _class_name(tp: Any) -> str | None:
    if is_tool_model(tp):
        return tool_name(tp)
    if isinstance(tp, type) and (
        dataclasses.is_dataclass(tp)
        or typing_extensions.is_typeddict(tp)
        or (issubclass(tp, tuple) and hasattr(tp, "_fields"))
    ):
        return tp.__name__
    return None


def check_tool_name(call: ToolCall, target: Any, parser: Parser | None = None) -> None:
    """A call read as the answer to a target that is not a tool target (a dataclass, a TypedDict, `Model | int`)
    must name one of the classes the target is made of; a target naming none (`dict[str, int]`) takes any call.
    The one matcher decides, as far as a lossless reading goes (exactly, or in another case or style): this check
    records no repair, so no guess is made here. With `parser`, a refusal is reported to its observers as a failed
    parse."""
    started = time.perf_counter()
    names = [n for n in map(_class_name, _members(target)) if n is not None]
    if not names:
        return
    try:
        match_tool(call.name, names, STRICT, "")
    except ParseError as error:
        if parser is not None:
            _tell_failed(parser, target, None, error, started, len(call.arguments))
        raise


# -- reading calls ------------------------------------------------------------------------------------------------


def _under(prefix: str, error: ParseError, message: str) -> ParseError:
    """The same error with every path moved under `prefix` (the call's place in a list target)."""
    details = [replace(d, path=prefix + d.path) for d in error.details]
    repairs = [replace(r, path=prefix + r.path) if isinstance(r, Repair) else r for r in error.repairs]
    try:
        moved = type(error)(message, details, candidate=error.candidate, repairs=repairs)
    except TypeError:  # a subclass with a constructor of its own: keep its class out of it
        moved = ParseError(message, details, candidate=error.candidate, repairs=repairs)
    moved.__cause__ = error
    return moved


def _truncated(call: ToolCall, path: str, *, complete: bool = False) -> TruncatedOutputError:
    return truncated_call_error(shown_name(call.name), path, complete=complete)


def _looks_cut(arguments: str) -> bool:
    """Whether JSON argument text stops mid-value (an unterminated string, or the text ends where more must
    follow). Text that is broken elsewhere (single quotes …) is left to the parser, which finds a cut itself."""
    text = arguments.rstrip()
    if not text:
        return True
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.msg.startswith("Unterminated string") or exc.pos >= len(text)
    except (ValueError, RecursionError):
        return False
    return False


def _tell_failed(
    parser: Parser, target: Any, aliases: Mapping[str, str] | None, error: ParseError, started: float, length: int
) -> None:
    """`parse_started` + `parse_failed` for a read that failed before (or after) any argument text was parsed — a
    wrong tool, no call, several calls, a cut-off call, the whole target refused — so observers see every parse
    attempt, as `Parser.parse_result` reports its own."""
    if not parser.host.observed:
        return
    try:
        ctx = parser.context(target, aliases)
        name = parser.plan(target).name
    except ConfigurationError:
        ctx, name = None, ""
    parser.host.emit("parse_started", ctx, length=length)
    parser.report_failed(error, ctx, name, started)


def _read_one(
    call: ToolCall,
    tools: ToolTarget,
    parser: Parser,
    path: str,
    aliases: Mapping[str, str] | None,
    sent: Collection[str],
    target: Any,
) -> tuple[ParseResult[Any], tuple[Repair, ...]]:
    started = time.perf_counter()
    try:
        name, renamed = match_tool(call.name, tuple(tools.models), parser.policy, path, sent=sent)
        model = tools.models[name]
    except ParseError as error:
        _tell_failed(parser, target, aliases, error, started, len(call.arguments))
        raise
    try:
        result = parser.parse_result(call.arguments, model, aliases=aliases)  # reports its own events
    except ParseError as error:
        if not path:
            raise
        raise _under(path, error, f"tool call {path[1:]} ({shown_name(call.name)}): {error.message}") from None
    repairs = tuple(replace(r, path=path + r.path) for r in result.repairs) if path else result.repairs
    return result, (*renamed, *repairs)


def _no_call(tools: ToolTarget) -> NoCandidateError:
    return NoCandidateError(
        "the model made no tool call",
        [ErrorDetail(path="", kind="no_tool_call", message=f"call the tool {next(iter(tools.models))!r}")],
    )


def _call_count_error(calls: tuple[ToolCall, ...], tools: ToolTarget, truncated: bool) -> ParseError | None:
    """What is wrong with the calls for a single-object target before any is read: none, several, or cut off."""
    if not calls:
        return _no_call(tools)
    if len(calls) > 1:
        names = ", ".join(repr(c.name) for c in calls)
        return AmbiguousMatchError(
            f"{len(calls)} tool calls ({names}) for a target that takes one",
            [ErrorDetail(path="", kind="ambiguous_tool_calls", message="make exactly one tool call", got=len(calls))],
        )
    return _truncated(calls[0], "") if truncated else None


def read_tool_calls(
    calls: Sequence[ToolCall],
    target: Any,
    parser: Parser,
    *,
    aliases: Mapping[str, str] | None = None,
    validators: Sequence[SemanticValidator] = (),
    truncated: bool = False,
    sent_names: Collection[str] = (),
) -> ParseResult[Any]:
    """The target read from the model's tool calls, with every repair (paths under the call: `/0/city` for the
    first call's `city` in a `list[...]` target), or a `ParseError` naming what is wrong and where.

    `truncated=True` (the provider said the output hit its length limit) refuses the cut call: its arguments were
    cut off, and completing them would invent data. For a list, the calls whose arguments stop mid-value are the
    cut ones; when every call is complete, the last is refused all the same, saying so (more calls may have
    been cut off). A single-object target takes exactly one call; no call at all answers no target (for a list,
    `[]` and — for `list[...] | None` — None would be guesses alike).
    `sent_names`: the names of the tools the request sent (`sent_tool_names`); a call to one of them that is not
    the target's is a wrong tool, and no typo is repaired toward the target when one of them is as close.
    Observers (`rp_on_event`) hear of every read: each call's arguments are parsed by `parser.parse_result`, and
    a failure no parse reports (a wrong tool, no call, several, a cut-off call, the whole target refused) fires
    `parse_started` + `parse_failed` too.
    """
    started = time.perf_counter()
    tools, calls = _checked_calls(target, calls)
    sent = frozenset(sent_names)
    length = sum(len(c.arguments) for c in calls)
    if not calls:  # no call is no answer for a list target either: `[]` and (for `... | None`) None fit as well
        missing = _no_call(tools)
        _tell_failed(parser, target, aliases, missing, started, length)
        raise missing
    if not tools.many:
        problem = _call_count_error(calls, tools, truncated)
        if problem is not None:
            _tell_failed(parser, target, aliases, problem, started, length)
            raise problem
        result, repairs = _read_one(calls[0], tools, parser, "", aliases, sent, target)
        value = result.value
        whole_check = _strip_annotated(target) is not next(iter(tools.models.values())) or len(tools.models) > 1
        json_text = result.json_text
    else:
        value, json_text, repairs = _read_each(calls, tools, parser, aliases, sent, target, truncated)
        whole_check = True
    try:
        if whole_check:
            value = _validate_whole(parser, target, value)
        if validators:
            from resilient_parse.stages.validate import run_semantic_checks

            run_semantic_checks(validators, value, json_text)
    except ParseError as error:
        _tell_failed(parser, target, aliases, error, started, length)
        raise
    return ParseResult(value=value, repairs=repairs, candidate=json_text, json_text=json_text, mode=parser.policy.name)


def _checked_calls(target: Any, calls: Sequence[ToolCall]) -> tuple[ToolTarget, tuple[ToolCall, ...]]:
    """The tool target and the calls as a tuple, or a `ConfigurationError` when the target is none or a call is
    not a `ToolCall` (a caller's mistake, not the model's)."""
    tools = tool_target(target)
    if tools is None:
        raise ConfigurationError(
            f"{target!r} is not an argument model, a union of them, or a list of either: it cannot be read "
            "from tool calls"
        )
    calls = tuple(calls)
    for call in calls:
        if not isinstance(call, ToolCall):
            raise ConfigurationError(f"calls must be ToolCall objects, not {type(call).__name__}")
    return tools, calls


def _read_each(
    calls: tuple[ToolCall, ...],
    tools: ToolTarget,
    parser: Parser,
    aliases: Mapping[str, str] | None,
    sent: Collection[str],
    target: Any,
    truncated: bool,
) -> tuple[list[Any], str | None, tuple[Repair, ...]]:
    """Every call read for a list target: the values, their JSON text as one array and the repairs (paths under
    each call's place); one `ParseError` for all the calls that failed, so each failure is reported at once."""
    values: list[Any] = []
    texts: list[str | None] = []
    found_repairs: list[Repair] = []  # one list for every call: a tuple re-made per call is quadratic
    failures: list[ParseError] = []
    # with the length limit reached, the calls whose arguments stop mid-value are the cut ones; when none
    # does, the cut fell after the last call, which is refused for the calls that may be missing
    cut_at = {i for i, c in enumerate(calls) if _looks_cut(c.arguments)} if truncated else set()
    unsure = truncated and bool(calls) and not cut_at
    if unsure:
        cut_at = {len(calls) - 1}
    for position, call in enumerate(calls):
        path = f"/{position}"
        try:
            if position in cut_at:
                cut = _truncated(call, path, complete=unsure)
                _tell_failed(parser, target, aliases, cut, time.perf_counter(), len(call.arguments))
                raise cut
            result, found = _read_one(call, tools, parser, path, aliases, sent, target)
        except ParseError as error:
            failures.append(error)
            texts.append(error.candidate)
            continue
        values.append(result.value)
        texts.append(result.json_text)
        found_repairs.extend(found)
    whole = None if any(t is None for t in texts) else "[" + ",".join(t for t in texts if t is not None) + "]"
    if failures:
        first = failures[0]
        details = [d for f in failures for d in f.details]
        message = first.message if len(failures) == 1 else f"{len(failures)} of {len(calls)} tool calls failed"
        combined = type(first)(message, details, candidate=whole, repairs=[r for f in failures for r in f.repairs])
        raise combined from first
    return values, whole, tuple(found_repairs)


def read_reply_calls(
    calls: Sequence[ToolCall],
    text: str,
    target: Any,
    parser: Parser,
    *,
    refusal: str | None = None,
    aliases: Mapping[str, str] | None = None,
    validators: Sequence[SemanticValidator] = (),
    truncated: bool = False,
    sent_names: Collection[str] = (),
) -> ParseResult[Any]:
    """The target read from a reply made of tool calls and the text beside them — the one reading of such a reply
    for every path (the correction loop, the LangChain parser, streamed calls). A reply that refuses is refused
    first, whatever its calls say (`RefusalError`): the provider's refusal signal (`refusal`) or text beside the
    calls that refuses, takes the call back or asks back (`tools.envelopes.refusal_beside_calls`, the reading text
    envelopes get too). Then the calls are read (`read_tool_calls`, whose options these are) and the text must not
    answer the target otherwise (`tools.reply_signals.check_text_agrees`)."""
    _refuse_beside(text, refusal, target, parser, aliases, sum(len(c.arguments) for c in calls))
    called = read_tool_calls(
        calls,
        target,
        parser,
        aliases=aliases,
        validators=validators,
        truncated=truncated,
        sent_names=sent_names,
    )
    _agrees(text, called, target, parser, aliases)
    return called


def _refuse_beside(
    text: str,
    refusal: str | None,
    target: Any,
    parser: Parser,
    aliases: Mapping[str, str] | None,
    length: int,
) -> None:
    """Raise the `RefusalError` the reply makes of its calls, if it makes one (told to observers as a failed
    parse, as every other refusal of calls is)."""
    started = time.perf_counter()
    refused = refusal_beside_calls(text, refusal)
    if refused is not None:
        _tell_failed(parser, target, aliases, refused, started, length + len(text))
        raise refused


def _agrees(
    text: str, called: ParseResult[Any], target: Any, parser: Parser, aliases: Mapping[str, str] | None
) -> None:
    """The text beside the calls answers nothing else: `reply_signals.check_text_agrees` decides, the text read by
    this parser as the target (reasoning, examples and prose read as the text path reads them)."""

    def reader(tp: Any) -> Callable[[str], list[Reading]]:
        def read(said: str) -> list[Reading]:
            written = parser.parse_result(said, tp, aliases=aliases)
            return [(written.value, written.json_text or said)]

        return read

    listed = _without_none(_strip_annotated(target))
    items = typing.get_args(listed) if typing.get_origin(listed) is list else ()
    check_text_agrees(
        text,
        called.value,
        reader(target),
        functools.partial(same_answer, parser.plan(target).adapter.dump_json),
        made=called.json_text or "",
        candidate=called.json_text,
        takes_null=type(None) in typing.get_args(_strip_annotated(target)),
        read_item=reader(items[0]) if len(items) == 1 else None,
    )


def _validate_whole(parser: Parser, target: Any, value: Any) -> Any:
    """The calls' objects checked against the whole target (a list's length limits, a union's own rules) and its
    plugins' validators."""
    plan = parser.plan(target)
    try:
        checked = plan.adapter.validate_python(value)
    except ValidationError as exc:
        details = [
            ErrorDetail(
                path="".join(f"/{p}" for p in e["loc"]),
                kind="schema",
                message=e["msg"],
            )
            for e in exc.errors(include_url=False, include_input=False)
        ]
        raise SchemaMismatchError("the tool calls do not fit the target", details) from None
    if plan.validators:
        from resilient_parse.stages.validate import run_semantic_checks

        run_semantic_checks(plan.validators, checked, None)
    return checked


__all__ = [
    "ToolCall",
    "ToolSpec",
    "ToolTarget",
    "check_tool_name",
    "read_reply_calls",
    "read_tool_calls",
    "tool_target",
]
