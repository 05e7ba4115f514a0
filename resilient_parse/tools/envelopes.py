"""Envelopes that keep their meaning: a tool call is unwrapped only into the arguments of *that* tool.

A tool-call envelope — an OpenAI `{"type": "function", "function": {"name", "arguments"}}` (arguments often a JSON
string), a message's `tool_calls`, a legacy `function_call`, a Responses-API `function_call` item, an Anthropic
`{"type": "tool_use", "name", "input"}`, or a whole chat completion or message holding them — names the tool it
calls. When the target is a tool's argument model, that name must be the target's tool name (`__rp_tool_name__`,
else `model_config["title"]`, else the class name, compared in any case or style): another name is
a refusal naming both, never an unwrap; several calls for one target are an ambiguity; a `list[...]` target takes
all of them, each to the same tool. A target that is itself a call (`{"action": …, "arguments": …}`) is left to
the built-in coercion (`stages/coerce/shapes.py`), which maps name and arguments onto its fields.

Wrappers (`{"result": {"data": …}}`, `{"result": [ {…} ]}`) are followed to the value that fits the target
(`wrappers`).

A call is refused as the answer — `RefusalError` — when what the reply says beside it refuses it
(`refusal_beside_calls`): the provider's own refusal signal (an OpenAI message's `refusal`, an Anthropic message's
`stop_reason: "refusal"`), or text beside the calls (a message's `content`, its text blocks) that refuses the
task, takes the call back or asks the user instead. Every path that reads tool calls asks the same helper
(`reply_signals`): text envelopes here, the correction loop, the LangChain parser and streamed calls.

`unwrap_envelope` is the built-in `rp_coerce_value` asked before the other coercions; None for anything else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic import TypeAdapter, ValidationError

from resilient_parse.context import CallContext, Coercion
from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, ParseError
from resilient_parse.fit import field_of
from resilient_parse.repairs import Repair
from resilient_parse.schema import ListView, ModelView, TypeView, UnionView
from resilient_parse.stages.coerce.embedded import decode_json_string
from resilient_parse.stages.extract import scan_spans, split_reasoning
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.names import (
    ARGUMENT_KEYS,
    CALL_NAME_KEYS,
    NAMESPACE_PREFIXES,
    match_tool,
    tool_name,
)
from resilient_parse.tools.reply_signals import (
    check_text_agrees,
    cut_off,
    disagreeing_text_error,
    refusal_beside_calls,
    said_beside_calls,
    truncated_call_error,
)
from resilient_parse.tools.wrappers import deep_wrapper, fits_view, other_tool_error, other_tool_named

__all__ = [  # with what the loop and the tool-call answers import from here, wherever it lives
    "cut_off",
    "disagreeing_text_error",
    "envelope_error",
    "find_calls",
    "is_call_shaped",
    "refusal_beside_calls",
    "said_beside_calls",
    "truncated_call_error",
    "unwrap_envelope",
]


_CALL_KEYS = frozenset({"name", "arguments", "parameters", "input", "id", "type", "call_id"})


def unwrap_envelope(value: Any, expected: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    """The arguments of a call to the target's tool, a deeply wrapped value, or a refusal (see the module
    docstring); None when `value` is neither an envelope nor a wrapper this stage reads."""
    view = _unoptional(expected)
    if not isinstance(value, dict | list) or not value:
        return None
    if isinstance(value, dict):
        several = _several_choices(value, path, ctx.policy.max_depth)
        if several is not None:
            return several  # whatever the choices hold: which sample is the answer is not said
    calls = find_calls(value, ctx.policy.max_depth)
    if calls is not None:
        return _from_calls(value, calls, view, path, ctx)
    if isinstance(value, dict):
        keyed = _namespaced_call(value, view, path, ctx)
        if keyed is not None:
            return keyed
        return _named_other_tool(value, view, path, ctx) or deep_wrapper(value, view, path, ctx)
    return None


def _namespaced_call(value: dict[str, Any], view: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    """`{"functions.get_weather": {…}}`: a lone key with a namespace prefix names a tool, never a wrapper — its
    arguments (an object, its JSON text, or for a list target a list of them) when it is the target's tool (by the
    one matcher), else a call to another tool, refused."""
    item = view.item if isinstance(view, ListView) else view
    models = item.options if isinstance(item, UnionView) else (item,)
    if len(value) != 1 or not all(isinstance(m, ModelView) and not is_call_shaped(m, ctx) for m in models):
        return None
    ((key, inner),) = value.items()
    if not key[: len(max(NAMESPACE_PREFIXES, key=len))].casefold().startswith(NAMESPACE_PREFIXES):
        return None
    if isinstance(inner, str):
        inner = decode_json_string(inner, ctx.policy.max_depth)
    if not isinstance(inner, dict | list):
        return None
    try:
        renamed = match_tool(key, tuple(tool_name(m) for m in models if isinstance(m, ModelView)), ctx.policy, path)[1]
    except ParseError as exc:
        return Coercion(error=exc.details[0])
    if len(models) > 1:
        return None  # one of a union's tools: its arguments are read by name on the tool path, not by shape here
    note = f"the arguments of the call to {key!r}"
    return Coercion(inner, (Repair.make("read_tool_call", path, value, inner, confidence=0.95, note=note), *renamed))


def _named_other_tool(value: dict[str, Any], view: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    """An object that names another tool beside the value (`other_tool_named`), for an argument model none of its
    keys is a field of: refused like a call to that tool, naming both (never unwrapped past)."""
    if not isinstance(view, ModelView) or is_call_shaped(view, ctx):
        return None
    if any(field_of(k, view, ctx) is not None for k in value):
        return None
    expected = tool_name(view)
    found = other_tool_named(value, expected)
    return other_tool_error(*found, expected, path) if found is not None else None


def envelope_error(value: Any, shown: str, complete: bool, max_depth: int) -> ParseError | None:
    """What an envelope's own signals say against the calls it holds (`shown`: the last call's name as a message
    quotes it; `complete`: whether its arguments are whole): several choices that differ (ambiguous), a refusal
    beside the calls, or a reply the length limit cut (truncated); None when nothing does. For readers of calls
    outside this stage (`tools.answer`), which must honour what this stage honours."""
    if isinstance(value, dict):
        several = _several_choices(value, "", max_depth)
        if several is not None and several.error is not None:
            return AmbiguousMatchError(several.error.message, [several.error])
    said, signal = said_beside_calls(value)
    refused = refusal_beside_calls(said, signal)
    if refused is not None:
        return refused
    if cut_off(value):
        return truncated_call_error(shown, "", complete=complete)
    return None


def _several_choices(value: dict[str, Any], path: str, max_depth: int) -> Coercion | None:
    """A completion with several choices (`n` > 1 samples) whose messages differ — in their text or in their tool
    calls (never parallel calls of one turn): which one is the answer is not said."""
    choices = value.get("choices")
    if not isinstance(choices, list) or len(choices) < 2:
        return None
    readings = set()
    for choice in choices:
        message = choice.get("message") or choice.get("delta") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            readings.add("")
            continue
        calls = _message_calls(message, "", max_depth) or []
        readings.add(repr((message.get("content"), [(c.name, c.arguments) for c in calls])))
    if len(readings) < 2:
        return None
    message = f"the completion has {len(choices)} choices with different messages; the text does not say which"
    return Coercion(error=ErrorDetail(path=path, kind="ambiguous_choices", message=message, got=len(choices)))


def _unoptional(view: TypeView) -> TypeView:
    if isinstance(view, UnionView) and len(view.options) == 1:
        return view.options[0]
    return view


def find_calls(value: Any, max_depth: int) -> list[RawCall] | None:
    """The tool calls an envelope holds, in order, or None when `value` is not a tool-call envelope."""
    if isinstance(value, list):
        items = [_call(item, f"/{i}", max_depth) for i, item in enumerate(value)]
        listed = [c for c in items if c is not None]
        return listed if listed and len(listed) == len(value) else None
    if not isinstance(value, dict):
        return None
    single = _call(value, "", max_depth)
    if single is not None:
        return [single]
    choices = value.get("choices")
    if isinstance(choices, list) and choices:
        # the first choice: several choices are samples of one turn, not its parallel calls (several that differ
        # are refused before, `_several_choices`; the same answer sampled twice is that answer once)
        first = choices[0]
        message = first.get("message") or first.get("delta") if isinstance(first, dict) else None
        return _message_calls(message, "/choices/0/message", max_depth) if isinstance(message, dict) else None
    return _message_calls(value, "", max_depth)


def _message_calls(message: dict[str, Any], where: str, max_depth: int) -> list[RawCall] | None:
    """Calls in an OpenAI message (`tool_calls`, `function_call`), an Anthropic message (`tool_use` blocks) or a
    Responses-API output (`function_call` items)."""
    found: list[RawCall] = []
    for key in ("tool_calls", "content", "output"):
        items = message.get(key)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if key != "tool_calls" and not (
                isinstance(item, dict) and item.get("type") in ("tool_use", "function_call")
            ):
                continue
            call = _call(item, f"{where}/{key}/{i}", max_depth)
            if call is not None:
                found.append(call)
    legacy = message.get("function_call")
    if isinstance(legacy, dict):
        call = _call(legacy, f"{where}/function_call", max_depth)
        if call is not None:
            found.append(call)
    return found or None


def _call(item: Any, where: str, max_depth: int) -> RawCall | None:
    """One call item: `{"type": "function", "function": {...}}`, `{"type": "tool_use", "name", "input"}`,
    `{"type": "function_call", "name", "arguments"}` or a bare `{"name", "arguments"}` function object."""
    if not isinstance(item, dict):
        return None
    function = item.get("function")
    if isinstance(function, dict) and set(item) <= {"id", "type", "function", "index"}:
        return _call(function, where + "/function", max_depth)
    name = item.get("name")
    if not isinstance(name, str) or not set(item) <= _CALL_KEYS:
        return None
    if item.get("type") not in (None, "function", "tool_use", "function_call"):
        return None
    key = next((k for k in ("arguments", "input", "parameters") if k in item), None)
    if key is None:
        return None
    arguments = item[key]
    if isinstance(arguments, str):
        decoded = decode_json_string(arguments, max_depth) if arguments.strip() else {}
        arguments = decoded if decoded is not None else arguments
    return RawCall(name, arguments, "envelope", where=f"{where}/{key}")


def is_call_shaped(model: ModelView, ctx: CallContext) -> bool:
    """Whether the target is itself a tool call: a field for the tool's name and one for its arguments."""
    return any(field_of(k, model, ctx) is not None for k in CALL_NAME_KEYS) and any(
        field_of(k, model, ctx) is not None for k in ARGUMENT_KEYS
    )


def _from_calls(value: Any, calls: list[RawCall], view: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    many = isinstance(view, ListView)
    model = view.item if isinstance(view, ListView) else view
    if not isinstance(model, ModelView):
        return None  # no call can be this target: the other coercions decide
    said, signal = said_beside_calls(value)
    refused = refusal_beside_calls(said, signal)
    if refused is not None:
        raise refused  # whatever the calls say: the reply does not give them as its answer
    if cut_off(value):  # the length limit cut the reply: its calls are cut, or calls after them may be missing
        complete = all(not isinstance(c.arguments, str) for c in calls)
        raise truncated_call_error(repr(calls[-1].name[:128]), path + calls[-1].where, complete=complete)
    if is_call_shaped(model, ctx):
        return _as_call(value, calls, model, many, path, ctx)
    expected = tool_name(model)
    renamed: list[Repair] = []
    for name in dict.fromkeys(c.name for c in calls):  # by the one matcher: exact, another style, or a guess
        try:
            renamed.extend(match_tool(name, (expected,), ctx.policy, path)[1])
        except ParseError as exc:
            return Coercion(error=exc.details[0])
    if len(calls) > 1 and not many:
        where = ", ".join(c.where or "(root)" for c in calls)
        message = f"{len(calls)} calls to {expected!r} (at {where}) for one target; the text does not say which"
        return Coercion(error=ErrorDetail(path=path, kind="ambiguous_tool_calls", message=message, got=len(calls)))
    inner = [c.arguments for c in calls] if many else calls[0].arguments
    _check_text_agrees(said, inner, model, many, ctx)
    note = f"the arguments of the call to {calls[0].name!r} at {calls[0].where or '(root)'}"
    if many:
        note = f"the arguments of {len(calls)} calls to {expected!r}"
    read = Repair.make("read_tool_call", path, value, inner, confidence=0.95, note=note)
    return Coercion(inner, (read, *renamed))


def _check_text_agrees(text: str, inner: Any, model: ModelView, many: bool, ctx: CallContext) -> None:
    """Text beside the calls must not answer the target otherwise (`reply_signals.check_text_agrees` decides, as
    for every path). This stage runs inside the pipeline with no parser, so it reads the text's answers itself: the
    JSON values of its visible prose read as the target's fields (for a list target, a list of them; a list of one
    object as that object where the mode unwraps lists) that validate as the target; a value that does not fit is
    prose, no second answer."""
    made = _as_fields(inner, model, many, ctx)

    unwraps = not many and ctx.policy.allows("unwrap_list")  # `[{…}]` reads as its one object, as the parser reads it

    def read(said: str) -> Iterator[tuple[Any, str]]:
        for written in _json_in_visible_text(said, ctx.policy.max_depth):
            one = written[0] if unwraps and isinstance(written, list) and len(written) == 1 else written
            one = [one] if many and isinstance(one, dict) else one  # one item beside a list of calls answers too
            fields = _as_fields(one, model, many, ctx)
            if fields is not None and (fields == made or _validates(fields, model, many)):
                yield fields, _dumped(written)

    def same(said: Any, called: Any) -> bool:
        return bool(said == called or (called is not None and _same_validated(said, called, model, many)))

    check_text_agrees(text, made, read, same, made=_dumped(inner), candidate=_dumped(inner))


def _json_in_visible_text(text: str, max_depth: int) -> Iterator[Any]:
    for region in split_reasoning(text):
        if region.reasoning:
            continue
        for span in scan_spans(text, region.start, region.end):
            if span.inside >= 0 or not span.closed:
                continue
            decoded = decode_json_string(text[span.start : span.end], max_depth)
            if decoded is not None:
                yield decoded


def _as_fields(value: Any, model: ModelView, many: bool, ctx: CallContext) -> Any:
    """A value read as the target's fields (`{key: value}` under each field's own key, written in any spelling),
    or None when it names none."""
    if many:
        if not isinstance(value, list) or not value:
            return None
        items = [_as_fields(item, model, False, ctx) for item in value]
        return None if any(i is None for i in items) else items
    if not isinstance(value, dict):
        return None
    fields = {model.fields[f].primary_key: v for k, v in value.items() if (f := field_of(k, model, ctx)) is not None}
    return fields or None


def _adapter(model: ModelView, many: bool) -> TypeAdapter[Any]:
    return TypeAdapter(list[model.cls] if many else model.cls)  # type: ignore[name-defined]


def _validates(value: Any, model: ModelView, many: bool) -> bool:
    try:
        _adapter(model, many).validate_python(value)
    except (ValidationError, TypeError, ValueError):
        return False
    return True


def _same_validated(a: Any, b: Any, model: ModelView, many: bool) -> bool:
    try:
        adapter = _adapter(model, many)
        return bool(adapter.dump_json(adapter.validate_python(a)) == adapter.dump_json(adapter.validate_python(b)))
    except (ValidationError, TypeError, ValueError):
        return False


def _dumped(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _as_call(
    value: Any, calls: list[RawCall], model: ModelView, many: bool, path: str, ctx: CallContext
) -> Coercion | None:
    """A call-shaped target (`{"action": …, "arguments": …}`) takes the call's name and arguments as its fields.
    Left to `shapes` when it can do it (an alias table maps `name`, or the arguments are themselves the target)."""
    if field_of("name", model, ctx) is not None or any(fits_view(c.arguments, model, ctx) for c in calls):
        return None
    name_field = next((f for k in CALL_NAME_KEYS if (f := field_of(k, model, ctx)) is not None), None)
    args_field = next((f for k in ARGUMENT_KEYS if (f := field_of(k, model, ctx)) is not None), None)
    if name_field is None or args_field is None or name_field == args_field:
        return None
    if len(calls) > 1 and not many:
        where = ", ".join(c.where or "(root)" for c in calls)
        message = f"{len(calls)} tool calls (at {where}) for one target; the text does not say which"
        return Coercion(error=ErrorDetail(path=path, kind="ambiguous_tool_calls", message=message, got=len(calls)))
    if not ctx.policy.allows("unwrap_tool_call"):
        return None
    name_key, args_key = model.fields[name_field].primary_key, model.fields[args_field].primary_key
    mapped = [{name_key: c.name, args_key: c.arguments} for c in calls]
    inner: Any = mapped if many else mapped[0]
    note = f"the call's name as {name_key!r}, its arguments as {args_key!r}"
    return Coercion(inner, (Repair.make("unwrap_tool_call", path, value, inner, confidence=0.95, note=note),))
