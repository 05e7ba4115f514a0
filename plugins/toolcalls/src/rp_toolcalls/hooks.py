"""What the toolcalls plugin's hooks do once a target holds a `ToolCall`: offer each call found in the text (in
any vendor format) as a normalised candidate, match names against the registry, check arguments against the
tools' models, and list the tools in the feedback.

`rp_toolcalls.plugin` — the module the entry point loads for every `Parser()` — keeps only the plugin class and
imports this module (with the call model, the format readers and rapidfuzz) the first time a target holds a call.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from resilient_parse import (
    AmbiguousMatchError,
    ErrorDetail,
    ParseError,
    Parser,
    Policy,
    Repair,
    UnrecoverableSyntaxError,
)
from resilient_parse.plugin_api import (
    ANSWER,
    NOT_ANSWERS,
    REASONING,
    REASONING_CUT,
    CallContext,
    Candidate,
    Coercion,
    ListView,
    ModelView,
    RawCall,
    Reading,
    TypeView,
    UnionView,
    details_from_validation_error,
    format_feedback,
    iter_views,
    load_json,
    may_be_made,
    read_calls,
    schema_shape,
    split_pointer,
)
from rp_toolcalls.calls import resolve_name
from rp_toolcalls.models import ToolCall

if TYPE_CHECKING:
    from rp_toolcalls.tools import ToolSet

CANDIDATE_TIER = 1
DRAFT_TIER = -10
"""Added to a draft's tier (the core ranks JSON inside reasoning the same way below the answer's)."""
_MAX_DEPTH = 64


def _is_call_model(view: TypeView) -> bool:
    return isinstance(view, ModelView) and isinstance(view.cls, type) and issubclass(view.cls, ToolCall)


def contains_tool_call(view: TypeView) -> bool:
    """Whether a target's schema view holds a `ToolCall` anywhere."""
    return any(_is_call_model(v) for v in iter_views(view))


def _wants_list(view: TypeView) -> bool:
    if isinstance(view, UnionView):
        return any(_wants_list(o) for o in view.options)
    return isinstance(view, ListView) and _is_call_model(view.item)


def _wants_one(view: TypeView) -> bool:
    if isinstance(view, UnionView):
        return any(_wants_one(o) for o in view.options)
    return _is_call_model(view)


def find_calls(value: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, ToolCall]]:
    """Every `ToolCall` inside a validated value, with its JSON Pointer."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, ToolCall):
        yield path, value
    elif isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            key = info.alias if isinstance(info.alias, str) else name
            yield from find_calls(getattr(value, name, None), f"{path}/{key}", depth + 1)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from find_calls(item, f"{path}/{i}", depth + 1)
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from find_calls(item, f"{path}/{k}", depth + 1)


# -- candidates ----------------------------------------------------------------------------------------------


def extract_candidates(text: str, ctx: CallContext, loader: Parser) -> list[Candidate] | None:
    """Each call found in `text` as a candidate `{"name", "arguments", "id"}` (one per call for a `ToolCall`
    target, one list for a `list[ToolCall]` target); None when there is no readable call.

    A call inside reasoning is offered with the facts the core judges every candidate by — its region, whether
    the output has a visible answer at all — and a lossy `reasoning_candidate` repair, so answer selection treats
    it as it treats a JSON draft there: never the answer in strict mode, nor when a visible answer exists. A call
    the text leaves open between two readings (`Action: lookup` + a JSON call to another tool) is an
    `AmbiguousMatchError` naming both; an unreadable call no JSON candidate stands for (a ReAct line, a Python
    call) is an `UnrecoverableSyntaxError` — answering with another call would drop it."""
    reading = read_calls(text, loader)
    found = reading.calls
    for call in found:
        if not call.opaque or not may_be_made(call, reading):
            continue
        error = call.error or "unreadable"
        if call.ambiguous:
            detail = ErrorDetail("/name", "ambiguous", error, got=list(call.ambiguous), offset=call.offset)
            raise AmbiguousMatchError(f"the output reads as two different tool calls: {error}", [detail])
        detail = ErrorDetail("", "unreadable_call", error, offset=call.offset)
        raise UnrecoverableSyntaxError(f"a tool call in the output cannot be read: {error}", [detail])
    calls = [c for c in found if c.error is None and isinstance(c.name, str)]
    if not calls:
        return None
    normalised = [normalise(c, loader) for c in calls]
    out: list[Candidate] = []
    if _wants_one(ctx.schema):
        for i, (call, (obj, repairs)) in enumerate(zip(calls, normalised)):
            out.append(_candidate(json.dumps(obj, ensure_ascii=False), call, call, i, repairs, reading))
    if _wants_list(ctx.schema):
        made = [(c, n) for c, n in zip(calls, normalised) if may_be_made(c, reading)]
        drafts = [(c, n) for c, n in zip(calls, normalised) if c.region != ANSWER and c.label not in NOT_ANSWERS]
        group = made or drafts  # the drafts only when the visible answer gives no call
        if not group:
            return out
        first, last = group[0][0], group[-1][0]
        if first.region == ANSWER:
            region = ANSWER
        else:
            region = REASONING_CUT if any(c.region == REASONING_CUT for c, _ in group) else REASONING
        body = json.dumps([obj for _, (obj, _) in group], ensure_ascii=False)
        repairs = tuple(r for _, (_, rs) in group for r in rs)
        label = first.label if first.region == ANSWER and len(group) == 1 else ""
        out.append(
            _candidate(body, replace(first, region=region, label=label), last, 0, repairs, reading, "toolcalls:list")
        )
    return out


def _candidate(
    body: str,
    first: RawCall,
    last: RawCall,
    order: int,
    repairs: tuple[Any, ...],
    reading: Reading,
    source: str | None = None,
) -> Candidate:
    tier = CANDIDATE_TIER
    if first.region != ANSWER:
        tier += DRAFT_TIER
        draft = replace(Repair.make("reasoning_candidate", "", None, None, offset=first.offset), lossless=False)
        repairs = (*repairs, draft)
    return Candidate(
        body,
        first.offset,
        last.offset,
        source or f"toolcalls:{first.format}",
        tier,
        order,
        repairs,
        label=first.label,
        region=first.region,
        refusal_at=reading.refusal_at,
        visible_text=reading.visible_text,
    )


def normalise(call: RawCall, loader: Parser) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """{"name", "arguments", "id"} for one call; a JSON-encoded arguments string is read (with repairs)."""
    args = call.arguments
    repairs: tuple[Any, ...] = call.repairs
    if isinstance(args, str) and args.strip().startswith(("{", "[")):
        try:
            args, found = load_json(args.strip(), loader)
            repairs += tuple(replace(r, path="/arguments" + r.path) for r in found)
        except ParseError:
            pass  # left as a string: Pydantic will say the arguments are not an object
    obj: dict[str, Any] = {"name": call.name, "arguments": {} if args is None else args}
    if call.id is not None:
        obj["id"] = call.id
    return obj, repairs


# -- names and arguments against the registry ----------------------------------------------------------------


def coerce_name(value: Any, path: str, ctx: CallContext, registry: ToolSet) -> Coercion | None:
    """The `name` of a `ToolCall` at `path`, matched to a registered tool (or an error listing them)."""
    if not _parent_is_call(ctx.schema, path):
        return None
    name, repairs, error = resolve_name(value, registry.names, ctx.policy)
    if error is not None:
        return Coercion(error=ErrorDetail(path, error.code, error.feedback or error.message, got=value))
    moved = tuple(replace(r, path=path) for r in repairs)
    return Coercion(value=name, repairs=moved) if moved else None


def validate(value: Any, registry: ToolSet) -> list[ErrorDetail]:
    """Unknown tools, and arguments that do not validate as they are, in every `ToolCall` inside `value`."""
    errors: list[ErrorDetail] = []
    exact = Policy(name="exact", allow_lossy=False)
    for base, call in find_calls(value):
        tool = registry.get(call.name)
        if tool is None:
            _, _, problem = resolve_name(call.name, registry.names, exact)
            message = problem.feedback if problem is not None and problem.feedback else "unknown tool"
            errors.append(ErrorDetail(f"{base}/name", "unknown_tool", message, got=call.name))
            continue
        try:
            tool.args_model.model_validate(call.arguments)
        except ValidationError as exc:
            errors.extend(replace(d, path=f"{base}/arguments{d.path}") for d in details_from_validation_error(exc))
    return errors


def build_feedback(failure: ParseError, candidate: str | None, ctx: CallContext, registry: ToolSet) -> str:
    """The default feedback, with the available tools listed before the final instruction (their argument schemas
    without default or example values: those may hold secrets)."""
    text = format_feedback(failure, candidate, ctx.target)
    head, sep, last = text.rpartition("\n\n")
    tools = "\n".join(
        f"- {t.name}: {t.description} arguments: {json.dumps(schema_shape(t.parameters_schema()), ensure_ascii=False)}"
        for t in registry
    )
    block = f"The available tools (call only these, by their exact names):\n{tools}"
    return f"{head}\n\n{block}{sep}{last}" if sep else f"{text}\n\n{block}"


def _parent_is_call(root: TypeView, path: str) -> bool:
    """Whether the JSON Pointer `path` ends at the `name` field of a `ToolCall` model."""
    parts = split_pointer(path)
    view: TypeView = root
    parent: TypeView | None = None
    for part in parts:
        if isinstance(view, UnionView):
            view = next(
                (
                    o
                    for o in view.options
                    if (isinstance(o, ModelView) and part in o.key_to_field)
                    or (isinstance(o, ListView) and part.isdigit())
                ),
                view,
            )
        if isinstance(view, ModelView) and part in view.key_to_field:
            parent, view = view, view.fields[view.key_to_field[part]].type
        elif isinstance(view, ListView) and part.isdigit():
            parent, view = None, view.item
        else:
            return False
    return parent is not None and _is_call_model(parent)
