"""A target of tool models answered by the calls a text makes: each call's tool chosen by its name, before its shape.

A tool target (`tool_target`) is an argument model, a union of them, or a list of either, where no model is itself a
call (`{"action": …, "arguments": …}`, read by the coercions). The calls come from `formats.read_calls`, in the order
the text makes them, as the core judges candidates: drafts in reasoning, examples, rejected options and calls beside
a refusal are not made. Then:

- each call is matched by name to one tool (`names.match_tool`, the one matcher: exactly or in another case or
  style — lossless; behind a namespace prefix such as `functions.` or by a typo — lossy guesses); a call to a tool
  outside the target is a `SchemaMismatchError` naming it and the target's tools; a plain JSON object naming a tool
  under a key one of the models has (`action`, a union's tag) is that model's data, not a call;
- its arguments are read by the parser against that tool alone (repairs recorded under the call's path; strict
  refuses what it refuses in any object), so two tools with the same fields are never confused;
- a list target keeps every call, in order, a repeated one too (a call can be meant twice); a call that cannot be
  read is an error, never skipped; one model takes exactly one call (several: `AmbiguousMatchError`);
- text beside the calls that gives the target another answer (another tool's arguments, other arguments) answers
  twice: ambiguous (`reply_signals.check_text_agrees`, the one decision for every path);
- a provider's message or completion written as JSON is judged as the envelope stage judges it
  (`envelopes.envelope_error`): several choices that differ are ambiguous, a refusal beside the calls refuses
  them, a reply the length limit cut is truncated.

The parser asks here before its other paths when the target has several tools, or when the text holds the markup
of a tool-call format (`MARKUP`); None hands the text on unchanged. A union's value read by its shape on those
other paths must fit one member only (`check_one_tool_fits`).
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pydantic import TypeAdapter, ValidationError

from resilient_parse.errors import (
    AmbiguousMatchError,
    ErrorDetail,
    ParseError,
    SchemaMismatchError,
    UnrecoverableSyntaxError,
)
from resilient_parse.repairs import Repair
from resilient_parse.schema import ListView, ModelView, TypeView, UnionView, normalise_key
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.envelopes import (
    envelope_error,
    refusal_beside_calls,
    said_beside_calls,
    truncated_call_error,
)
from resilient_parse.tools.formats import Parser, may_be_made, opens_with_a_name_line, react_action_in, read_calls
from resilient_parse.tools.formats import call_in_prose as call_in_prose  # for the parser's short way
from resilient_parse.tools.names import ARGUMENT_KEYS, CALL_NAME_KEYS, match_tool, tool_name
from resilient_parse.tools.replies import Reply, made_calls
from resilient_parse.tools.reply_signals import check_text_agrees, same_answer

# a text opening like a Python call, `get_weather(` or `[get_weather(` (possessive: nothing is tried twice)
_PYTHON_HEAD = re.compile(r"[ \t\r\n]*+\[?+[ \t\r\n]*+[A-Za-z_][\w.]{0,100}+\(")
_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}  # a validator per tool model or tool target, for the checks beside calls
_BARE_CALL_KEYS = tuple(f'"{key}"' for key in ARGUMENT_KEYS)  # a call's arguments, under any key of the vocabulary
_PROVIDER_KEYS = ('"choices"', '"tool_calls"', '"content"', '"function"', '"function_call"', '"output"', '"type"')
MARKUP = (
    "<tool_call>",
    "<function_call>",
    "<tool_use>",
    "[TOOL_CALLS]",
    "<|python_tag|>",
    "<\uff5ctool\u2581call\u2581begin\uff5c>",
    "<function=",
    ">>>",
    "<|recipient|>",
    "<|tool_call_begin|>",
    "<|message|>",
)
"""Marks that say the text makes tool calls, in the formats `formats` reads."""


@dataclass(frozen=True)
class ToolTarget:
    """The tools a target takes calls to, and whether it takes a list of them."""

    tools: tuple[ModelView, ...]
    many: bool
    nullable: bool = False  # an Optional target: `null` answers it too (never the calls' answer)

    @functools.cached_property
    def item_type(self) -> Any:
        """One answer of the tools as a type the parser reads: a tool or a union of them (with None when the target
        takes it)."""
        item: Any = functools.reduce(operator.or_, (t.cls for t in self.tools))
        return item | None if self.nullable else item

    @functools.cached_property
    def type(self) -> Any:
        """The target the tools make, as a type the parser reads: `item_type`, or a list of it."""
        return list[self.item_type] if self.many else self.item_type  # type: ignore[name-defined]

    @functools.cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(tool_name(t) for t in self.tools)

    @functools.cached_property
    def quoted_names(self) -> tuple[str, ...]:
        """Each tool's name as a JSON key a model writes it, in its own style and in snake_case (`"get_weather"`)."""
        return tuple({f'"{form}"' for name in self.names for form in (name, normalise_key(name))})


_KNOWN: dict[int, tuple[TypeView, ToolTarget | None]] = {}
_KNOWN_MAX = 256


def tool_target(view: TypeView) -> ToolTarget | None:
    """The tool target `view` is, or None (see the module docstring); remembered per view (a parser keeps one
    view per target), for the few hundred views last asked about."""
    known = _KNOWN.get(id(view))
    if known is not None and known[0] is view:
        return known[1]
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.clear()
    found = _KNOWN[id(view)] = (view, _tool_target(view))
    return found[1]


def _tool_target(view: TypeView) -> ToolTarget | None:
    many = isinstance(view, ListView)
    item = view.item if isinstance(view, ListView) else view
    if isinstance(item, UnionView):
        options = item.options  # (an Optional union's None is no tool: a text that makes calls is not null)
    elif isinstance(item, ModelView):
        options = (item,)
    else:
        return None
    if not options or not all(isinstance(o, ModelView) and not _call_shaped(o) for o in options):
        return None
    nullable = isinstance(item, UnionView) and item.nullable
    return ToolTarget(tuple(o for o in options if isinstance(o, ModelView)), many, nullable)


def _call_shaped(model: ModelView) -> bool:
    """A model that is itself a call: a field named as a tool's name is, beside one for its arguments."""
    keys = model.key_to_field
    return any(k in keys for k in CALL_NAME_KEYS) and any(k in keys for k in ARGUMENT_KEYS)


def engages(text: str, target: ToolTarget) -> bool:
    """Whether to read the text's calls first: the target has several tools, the text writes call markup, a ReAct
    `Action:` line, a tool's name as a key (`{"get_weather": {…}}`) or on a line of its own before its arguments
    (GLM), opens like a Python call (`get_weather(…`,
    `[get_weather(…`), or writes a bare call `{"name": …, "arguments": …}` (a provider's message or completion,
    with its text and signals beside the calls, stays with the envelope stage, which also compares that text with
    the call for one tool)."""
    if len(target.tools) > 1 or _PYTHON_HEAD.match(text) is not None:
        return True
    if ("<" in text or "[TOOL_CALLS]" in text or ">>>" in text) and any(mark in text for mark in MARKUP):
        return True
    if react_action_in(text) or opens_with_a_name_line(text, names=target.names):
        return True
    # a bare call, or a tool's name as a key (`{"get_weather": {…}}`, `formats.keyed_calls`)
    bare = any(key in text for key in _BARE_CALL_KEYS) or any(name in text for name in target.quoted_names)
    return bare and not any(key in text for key in _PROVIDER_KEYS)


def answer(text: str, target: ToolTarget, parser: Parser) -> tuple[Any, tuple[Repair, ...]] | None:
    """The value the calls the text makes give `target`, with the repairs that read them; None when the text
    makes no call (the parser's other paths decide). Raises `ParseError` (see the module docstring)."""
    reading = read_calls(text, parser, target.names)
    fields = {key for tool in target.tools for key in tool.key_to_field}
    # an object that names a tool under a key one of the models has (a union tagged by `action`) is that model's data
    made = [c for c in reading.calls if may_be_made(c, reading) and not (c.named_by and c.named_by in fields)]
    if not made:
        return None
    refused = refusal_beside_calls(_prose_of(text, reading.taken))
    if refused is not None:
        raise refused  # a refusal, a retraction or a question back beside the calls: as on every path
    _check_count(made, target)
    beside = [text[start:end] for start, end in reading.others]
    judged: set[int] = set()
    for call in made:
        if call.envelope is not None and id(call.envelope) not in judged:
            judged.add(id(call.envelope))
            complete = not isinstance(call.arguments, str) or _whole_json(call.arguments)
            beside.append(said_beside_calls(call.envelope)[0])  # a message's text may answer too
            error = envelope_error(call.envelope, repr(str(call.name)[:128]), complete, parser.policy.max_depth)
            if error is not None:
                raise error
    value, repairs = read_made(made, target, parser)
    _check_text_agrees(beside, value, target, parser)
    return value, repairs


def _check_count(made: list[RawCall], target: ToolTarget) -> None:
    if not target.many and len(made) > 1:
        where = ", ".join(f"{c.name!r} at {_place(c)}" for c in made)
        raise AmbiguousMatchError(
            f"the output makes {len(made)} tool calls ({where}) and the target takes one; the text does not say which",
            [ErrorDetail(path="", kind="ambiguous_tool_calls", message=f"{len(made)} calls for one target")],
        )


def read_made(
    made: list[RawCall], target: ToolTarget, parser: Parser, sent: tuple[str, ...] = ()
) -> tuple[Any, tuple[Repair, ...]]:
    """The value the calls a reply makes give `target` (one call for one model, every call for a list), each call's
    tool chosen by its name (`sent`: the tools the request sent, when known, as `names.match_tool` takes them),
    with the repairs that read them."""
    _check_count(made, target)
    values: list[Any] = []
    repairs: list[Repair] = []
    for i, call in enumerate(made):
        where = f"/{i}" if target.many else ""
        value, read = _one(call, where, target, parser, sent)
        values.append(value)
        repairs.extend(read)
    return (values if target.many else values[0]), tuple(repairs)


def answer_native(made: list[RawCall], said: str, target: ToolTarget, parser: Parser) -> tuple[Any, tuple[Repair, ...]]:
    """The value a provider's native calls (`tools.replies.made_calls`) give `target`; `said` is the text beside
    them, which must not answer the target otherwise (`_check_text_agrees`). Refusals beside the calls are the
    caller's to check first (`envelopes.refusal_beside_calls`). The target's tools are taken as the tools the
    request sent (a reply object does not say which were): a slip of one of their names is repaired as the
    correction loop repairs it with the tools it sent (a lossy guess, refused in strict), and a name no slip
    explains is a wrong tool."""
    value, repairs = read_made(made, target, parser, sent=target.names)
    _check_text_agrees([said], value, target, parser)
    return value, repairs


def answer_reply(reply: Reply, view: TypeView, parser: Parser) -> tuple[Any, tuple[Repair, ...]] | None:
    """The value a reply object's native calls give the target `view` (`tools.replies.read_reply` read the reply;
    its refusal signal was refused there): a refusal, retraction or question beside the calls refuses them, a call
    the length limit cut is refused in every mode (completing it would invent data), then the calls are read
    by name (`answer_native`). None for a target that takes no tool calls and a reply of one call: its arguments
    are the text to parse; several calls for such a target are ambiguous."""
    said = reply.text or ""
    refused = refusal_beside_calls(said)
    if refused is not None:
        raise refused
    made = made_calls(reply)
    if reply.truncated:
        last = made[-1]
        raise truncated_call_error(repr(last.name), "", complete=_whole_json(str(last.arguments)))
    target = tool_target(view)
    if target is None:
        _check_count(made, ToolTarget((), _call_list(view)))
        return None
    return answer_native(made, said, target, parser)


def _call_list(view: TypeView) -> bool:
    """A list of call-shaped models (`list[ToolCall]`): several calls are its items."""
    return isinstance(view, ListView) and isinstance(view.item, ModelView) and _call_shaped(view.item)


def calls_as_text(reply: Reply, view: TypeView) -> str:
    """The text a reply's calls give a target that takes no tool models (`answer_reply` returned None): a
    call-shaped model (`ToolCall(action, arguments)`, or a list of them) reads each call whole, written as the
    text path reads `{"name": …, "arguments": …}`, so the call's name is never dropped for its arguments' keys;
    any other target reads the one call's arguments."""
    item = view.item if isinstance(view, ListView) else view
    if isinstance(item, ModelView) and _call_shaped(item):
        written = [{"name": call.name, "arguments": call.arguments} for call in reply.calls]
        return json.dumps(written if isinstance(view, ListView) else written[0], ensure_ascii=False)
    return reply.calls[0].arguments


def _place(call: RawCall) -> str:
    """Where a call stands: a native call's field, or the offset in the text."""
    return call.where if call.format == "native" and call.where else f"offset {call.offset}"


def _prose_of(text: str, taken: tuple[tuple[int, int], ...]) -> str:
    """The text with what the formats took as their own blanked out (offsets kept): what is said beside the calls."""
    pieces, pos = [], 0
    for start, end in taken:
        if end <= pos:
            continue
        start = max(start, pos)
        pieces.append(text[pos:start])
        pieces.append(" " * (end - start))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def _check_text_agrees(beside: list[str], value: Any, target: ToolTarget, parser: Parser) -> None:
    """Text beside the calls must not answer the target otherwise (`reply_signals.check_text_agrees` decides, as
    for every path): the text read by the parser as the target the tools make (`ToolTarget.type`), so a JSON value
    there that is another answer — another tool's arguments, other arguments, `null` for an Optional target — is a
    second answer, and the same answer, prose or a draft in reasoning is none. The calls' answer is written out
    once for every stretch of text beside them (there is one between each two calls): linear in the calls."""
    beside = [said for said in beside if said.strip()]
    if not beside:
        return
    adapter = _adapter(target.type)
    try:
        written: str | None = adapter.dump_json(value).decode()
    except Exception:
        written = None
    shown = written if written is not None else repr(value)

    def reader(tp: Any) -> Callable[[str], list[tuple[Any, str]]]:
        def read(text: str) -> list[tuple[Any, str]]:
            written = parser.parse_result(text, tp)
            return [(written.value, written.json_text or text)]

        return read

    def same(a: Any, b: Any) -> bool:
        # `b` is always the calls' answer: compared by its JSON as written above, when the adapter could write it
        if written is None:
            return same_answer(adapter.dump_json, a, b)
        try:
            return adapter.dump_json(a).decode() == written
        except Exception:
            return bool(a == b)

    for said in beside:
        check_text_agrees(
            said,
            value,
            reader(target.type),
            same,
            made=shown,
            candidate=said,
            takes_null=target.nullable,
            read_item=reader(target.item_type) if target.many else None,
        )


def _fits(value: Any, cls: type[Any]) -> bool:
    """Whether `value` validates as `cls`: a JSON text strictly, with no key `cls` does not know (the written
    object fits it as it stands); a tree as Pydantic reads Python data."""
    adapter = _adapter(cls)
    try:
        if isinstance(value, str):
            adapter.validate_json(value, strict=True, extra="forbid")
        else:
            adapter.validate_python(value)
    except (ValidationError, ValueError, TypeError):
        return False
    return True


def _adapter(tp: Any) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(tp)
    if adapter is None:
        adapter = _ADAPTERS[tp] = TypeAdapter(tp)
    return adapter


def _whole_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _one(
    call: RawCall, where: str, target: ToolTarget, parser: Parser, sent: tuple[str, ...] = ()
) -> tuple[Any, list[Repair]]:
    """One call's value: its tool by name, its arguments read against that tool."""
    shown = f"the call {call.where}" if call.format == "native" else f"the {call.format} call at offset {call.offset}"
    if call.ambiguous:
        listed = " and ".join(repr(n) for n in call.ambiguous)
        raise AmbiguousMatchError(
            f"{shown} can be read as a call to {listed}: {call.error}",
            [
                ErrorDetail(
                    path=where, kind="ambiguous_tool_calls", message=call.error or "two readings", offset=call.offset
                )
            ],
        )
    if call.error is not None or not isinstance(call.name, str):
        message = call.error or "it names no tool"
        raise UnrecoverableSyntaxError(
            f"{shown} cannot be read: {message}",
            [ErrorDetail(path=where, kind="unreadable_tool_call", message=message, offset=call.offset)],
        )
    name, renamed = match_tool(call.name, target.names, parser.policy, where, sent=sent)
    tool = target.tools[target.names.index(name)]
    repairs = [
        Repair.make("read_tool_call", where, None, call.name, offset=call.offset, note=f"{shown} to {call.name!r}")
    ]
    repairs.extend(replace(r, offset=call.offset) for r in renamed)
    repairs.extend(replace(r, path=where + r.path) for r in call.repairs)
    arguments = call.arguments
    if isinstance(arguments, str) and not arguments.lstrip().startswith(("{", "[")):
        message = f"the arguments of {shown} to {call.name!r} are not an object: {arguments[:80]!r}"
        raise SchemaMismatchError(message, [ErrorDetail(path=where, kind="model_type", message=message, got=arguments)])
    text = arguments if isinstance(arguments, str) else json.dumps({} if arguments is None else arguments)
    try:
        result = parser.parse_result(text, tool.cls)
    except ParseError as exc:
        details = [replace(d, path=where + d.path) for d in exc.details]
        raise type(exc)(f"the arguments of {shown} to {call.name!r}: {exc.message}", details) from None
    repairs.extend(replace(r, path=where + r.path) for r in result.repairs)
    return result.value, repairs


def check_one_tool_fits(json_text: str, target: ToolTarget) -> None:
    """A value read by its shape, not by a name (bare arguments, a path that read no call): when the object as
    written fits another of the target's models as well (`{"path": "/"}` for `ReadFile | DeleteFile`, each read
    strictly, with no key it does not know), which one is meant is not said, and Pydantic's pick (the first) would
    be a guess. Raises AmbiguousMatchError."""
    if len(target.tools) < 2:
        return
    try:
        tree = json.loads(json_text)
    except (ValueError, RecursionError):
        return
    items = tree if target.many and isinstance(tree, list) else [tree]
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        written = json.dumps(item)
        fitting = [t for t in target.tools if _fits(written, t.cls)]
        if len(fitting) > 1:
            names = " and ".join(repr(tool_name(t)) for t in fitting)
            path = f"/{i}" if target.many else ""
            message = f"these arguments fit {names} alike; the output names no tool"
            raise AmbiguousMatchError(message, [ErrorDetail(path=path, kind="ambiguous_tool_calls", message=message)])
