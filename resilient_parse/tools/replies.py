"""Provider replies as the SDKs hand them over, read once: what the model said (its text), the tool calls it made,
the provider's refusal signal and whether the output length limit cut it.

One reader for every path: the correction loop's adapters (`llm.openai.completion_from_openai`,
`llm.anthropic.completion_from_anthropic`) and `parse(reply, Target)`, which takes an OpenAI `ChatCompletion`, one
of its `Choice`s or its `ChatCompletionMessage`, an OpenAI Responses-API `Response`, an Anthropic `Message` or a
LangChain `AIMessage` as well as text (`read_reply`, then `answer_reply` for a reply made of tool calls).

Duck-typed: nothing here imports openai, anthropic or langchain. An object is recognised by the fields its API
gives it (a LangChain message by its class, only when langchain_core is already imported), and read by attribute
or key, so the SDKs' objects, LiteLLM's and the JSON as a dict read alike (`parse` takes objects only: a dict
is data, not a reply).

For `parse` (`read_reply`): the answer's text is parsed as the text would be, and a reply of tool calls is read
as the tools layer reads calls (`answer.read_made`: the tool chosen by name, a misspelt name repaired as a lossy
guess); a `read_reply` repair says which field was read. A reply the length limit cut (`finish_reason "length"`,
`stop_reason "max_tokens"`, `status "incomplete"`) is marked by a lossy `truncated_reply` repair — strict refuses
it as truncated output, and cut tool calls are refused in every mode (`envelopes.truncated_call_error`). The
provider's refusal signal (`message.refusal`, `stop_reason "refusal"`, a content filter) is a `RefusalError` with
the provider's words; several choices that differ are an `AmbiguousMatchError` naming them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from resilient_parse.errors import (
    AmbiguousMatchError,
    ConfigurationError,
    ErrorDetail,
    InvalidInputError,
    ParseError,
    RefusalError,
    TruncatedOutputError,
)
from resilient_parse.feedback import excerpt
from resilient_parse.policy import Policy
from resilient_parse.repairs import Repair
from resilient_parse.tools.calls import RawCall, ToolCall

ACCEPTED = (
    "str or bytes, an OpenAI ChatCompletion, Choice or ChatCompletionMessage, an OpenAI Responses-API Response, "
    "an Anthropic Message or a LangChain AIMessage"
)
CONTENT_FILTERED = "the provider's content filter stopped the answer"
STOPPED_REFUSING = "stop_reason 'refusal'"  # the refusal signal of a stop, where no refusal text was flagged
ANTHROPIC_REFUSED = "the model refused (stop_reason 'refusal')"
CUT_OFF = frozenset({"length", "max_tokens", "max_output_tokens", "MAX_TOKENS", "model_context_window_exceeded"})
"""The stop reasons of a reply cut off before its end: OpenAI's `length`, Anthropic's `max_tokens` and
`model_context_window_exceeded`, the Responses API's `max_output_tokens`, Gemini's `MAX_TOKENS` (through
LangChain). Every reader of a provider's stop asks `says_cut`."""


def says_cut(reason: object) -> bool:
    """Whether a stop reason as the reply wrote it (any value: a list is no reason) says the reply was cut off."""
    return isinstance(reason, str) and reason in CUT_OFF


class ReplyShapeError(ValueError):
    """A reply object of a known kind that cannot be read (no choices, a call without a name): `what` went wrong,
    `detail` says more. The adapters report it as a malformed response, `parse` as invalid input."""

    def __init__(self, what: str, detail: str = "") -> None:
        super().__init__(what)
        self.what, self.detail = what, detail or what


@dataclass(frozen=True)
class Reply:
    """What one reply (one choice of a completion) says: its text (None when it has no text content), its tool
    calls, the provider's refusal signal, why it stopped, whether the length limit cut it, and where it was read
    (`field`: `choices[0].message.content`) in which object (`kind`: `ChatCompletion`)."""

    text: str | None
    calls: tuple[ToolCall, ...] = ()
    refusal: str | None = None
    finish_reason: str | None = None
    truncated: bool = False
    field: str = ""
    kind: str = ""
    model: str | None = None

    @property
    def said(self) -> tuple[Any, ...]:
        """What the reply says, to compare two choices: text, calls (name and arguments) and refusal; JSON is
        compared as the value it writes, so `{"a": 1}` and `{"a":1}` say the same."""
        calls = tuple((c.kind, c.name, _as_value(c.arguments)) for c in self.calls)
        return (_as_value(self.text or ""), calls, self.refusal)


def _as_value(text: str) -> Any:
    """A JSON text as its value (tagged, so the text `1` and the number 1 differ), else the text itself."""
    if not text or (text.lstrip()[:1] not in ("{", "[", '"') and not text.strip().lstrip("-")[:1].isdigit()):
        return text
    try:
        return ("json", json.dumps(json.loads(text), sort_keys=True))
    except (ValueError, RecursionError):
        return text


def get(obj: Any, name: str, default: Any = None) -> Any:
    """Attribute or key access, so SDK objects and plain dicts (LiteLLM, raw JSON) read the same."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    try:
        return getattr(obj, name, default)
    except Exception:  # SDK objects built without validation may raise on a missing field
        return default


def _model(obj: Any) -> str | None:
    model = get(obj, "model")
    return model if isinstance(model, str) else None


def _call_id(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def tool_call(name: str, arguments: Any, call_id: Any, index: int, *, text: bool) -> ToolCall:
    """One call read from a reply. `text`: the API sends the arguments as the model wrote them (OpenAI's
    `function.arguments`), so a str is kept as it is; otherwise (Anthropic's `tool_use.input`, LangChain's `args`)
    whatever the SDK decoded is encoded back as JSON, a str included."""
    identifier = _call_id(call_id)
    if text and isinstance(arguments, str):
        return ToolCall(name, arguments, id=identifier, index=index)
    try:
        return ToolCall.decoded(name, arguments, id=identifier, index=index)
    except ParseError as exc:  # nested too deeply to write as JSON text
        raise ReplyShapeError(f"the arguments of tool call {index} cannot be read", exc.message) from None
    except ConfigurationError as exc:  # arguments the SDK decoded into something that is not JSON data
        raise ReplyShapeError(f"the arguments of tool call {index} are not JSON data", str(exc)) from None


# -- OpenAI chat completions --------------------------------------------------------------------------------------


def _custom_call(item: Any, index: int) -> ToolCall:
    custom = get(item, "custom")
    name, text = get(custom, "name"), get(custom, "input")
    if not isinstance(name, str) or not isinstance(text, str | None):
        raise ReplyShapeError(f"custom tool call {index} has no name or no text input")
    return ToolCall(name, text or "", id=_call_id(get(item, "id")), index=index, kind="custom")


def openai_calls(message: Any) -> tuple[ToolCall, ...]:
    """`message.tool_calls` (and the legacy `function_call`) as `ToolCall`s; arguments kept as the model wrote
    them (a provider that decoded them to an object gets its JSON text)."""
    raw = get(message, "tool_calls")
    if raw is None:
        legacy = get(message, "function_call")
        raw = [{"function": legacy}] if legacy is not None else []
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise ReplyShapeError("the message's tool_calls is not a list")
    calls = []
    for index, item in enumerate(raw):
        if get(item, "type") == "custom":  # a custom (free-form) tool: its input is the argument text
            calls.append(_custom_call(item, index))
            continue
        function = get(item, "function")
        name = get(function, "name")
        if not isinstance(name, str):
            raise ReplyShapeError(f"tool call {index} has no function name")
        arguments = get(function, "arguments")
        calls.append(tool_call(name, "" if arguments is None else arguments, get(item, "id"), index, text=True))
    return tuple(calls)


def openai_message_reply(
    message: Any, *, finish_reason: Any = None, where: str = "", model: str | None = None
) -> Reply:
    """One OpenAI chat message (with its choice's finish reason, when known)."""
    content = get(message, "content")
    refusal = get(message, "refusal")
    calls = openai_calls(message)
    if finish_reason == "content_filter" and not refusal:
        refusal = CONTENT_FILTERED
    text = content if isinstance(content, str) else None
    field = f"{where}.tool_calls" if calls else f"{where}.content"
    return Reply(
        text=text,
        calls=calls,
        refusal=str(refusal) if refusal else None,
        finish_reason=finish_reason if isinstance(finish_reason, str) else None,
        truncated=says_cut(finish_reason),
        field=field.lstrip("."),
        kind="ChatCompletionMessage",
        model=model,
    )


def openai_choice_reply(choice: Any, where: str = "", model: str | None = None) -> Reply:
    return openai_message_reply(
        get(choice, "message"), finish_reason=get(choice, "finish_reason"), where=f"{where}message", model=model
    )


def openai_chat_replies(response: Any) -> tuple[Reply, ...]:
    """Every choice of an OpenAI-shaped chat completion (the SDK's object, LiteLLM's, or the JSON as a dict)."""
    choices = get(response, "choices")
    if not isinstance(choices, Sequence) or isinstance(choices, str) or not choices:
        raise ReplyShapeError("no choices in the chat completion")
    model = _model(response)
    return tuple(openai_choice_reply(choice, f"choices[{i}].", model) for i, choice in enumerate(choices))


# -- OpenAI Responses API -----------------------------------------------------------------------------------------


def responses_reply(response: Any) -> Reply:
    """An OpenAI Responses-API response: its `output_text` parts joined, `function_call` (and `custom_tool_call`)
    items as calls, a `refusal` part as the refusal; `status "incomplete"` says why in `incomplete_details`."""
    output = get(response, "output")
    if not isinstance(output, Sequence) or isinstance(output, str):
        raise ReplyShapeError("no output items in the response")
    texts: list[str] = []
    refusals: list[str] = []
    calls: list[ToolCall] = []
    for item in output:
        kind = get(item, "type")
        if kind == "message":
            for part in get(item, "content") or ():
                if get(part, "type") == "output_text" and isinstance(get(part, "text"), str):
                    texts.append(get(part, "text"))
                elif get(part, "type") == "refusal":
                    refusals.append(str(get(part, "refusal") or "refused"))
        elif kind == "function_call":
            name = get(item, "name")
            if not isinstance(name, str):
                raise ReplyShapeError(f"function_call item {len(calls)} has no name")
            arguments = get(item, "arguments")
            call_id = get(item, "call_id") or get(item, "id")
            calls.append(tool_call(name, "" if arguments is None else arguments, call_id, len(calls), text=True))
        elif kind == "custom_tool_call":
            name, text = get(item, "name"), get(item, "input")
            if not isinstance(name, str):
                raise ReplyShapeError(f"custom_tool_call item {len(calls)} has no name")
            call_id = _call_id(get(item, "call_id") or get(item, "id"))
            calls.append(ToolCall(name, str(text or ""), id=call_id, index=len(calls), kind="custom"))
    reason = get(get(response, "incomplete_details"), "reason")
    status = get(response, "status")
    refusal = "; ".join(refusals) or (CONTENT_FILTERED if reason == "content_filter" else None)
    return Reply(
        text="".join(texts) if texts else None,
        calls=tuple(calls),
        refusal=refusal,
        finish_reason=reason if isinstance(reason, str) else status if isinstance(status, str) else None,
        truncated=status in ("incomplete", "in_progress") and reason != "content_filter",
        field="output[].function_call" if calls else "output[].content.output_text",
        kind="Response",
        model=_model(response),
    )


# -- Anthropic ----------------------------------------------------------------------------------------------------


def anthropic_reply(message: Any) -> Reply:
    """An Anthropic Messages API response (the SDK's object or the JSON as a dict): text blocks joined, `tool_use`
    blocks as `ToolCall`s (their `input` is already decoded: kept as its JSON text)."""
    blocks = get(message, "content")
    if not isinstance(blocks, Sequence) or isinstance(blocks, str):
        raise ReplyShapeError("no content blocks in the message")
    written = [get(b, "text") for b in blocks if get(b, "type") == "text"]
    text = "".join(t for t in written if isinstance(t, str))  # a block without text (None) adds none
    calls: list[ToolCall] = []
    for block in blocks:
        if get(block, "type") != "tool_use":
            continue
        name = get(block, "name")
        if not isinstance(name, str):
            raise ReplyShapeError("a tool_use block has no name")
        calls.append(tool_call(name, get(block, "input", {}), get(block, "id"), len(calls), text=False))
    stop_reason = get(message, "stop_reason")
    return Reply(
        text=text,
        calls=tuple(calls),
        refusal=ANTHROPIC_REFUSED if stop_reason == "refusal" else None,
        finish_reason=stop_reason if isinstance(stop_reason, str) else None,
        truncated=says_cut(stop_reason),
        field="content[].tool_use.input" if calls else "content[].text",
        kind="Message",
        model=_model(message),
    )


# -- LangChain ----------------------------------------------------------------------------------------------------


def _langchain_message_class() -> Any:
    return getattr(sys.modules.get("langchain_core.messages.ai"), "AIMessage", None)


def _written(message: Any) -> dict[Any, tuple[int, str, str | None]]:
    """The provider's raw calls (`additional_kwargs["tool_calls"]`, OpenAI's shape) by id: their position, and the
    name and argument text as the model wrote them (None when not text)."""
    raw = get(get(message, "additional_kwargs"), "tool_calls")
    written: dict[Any, tuple[int, str, str | None]] = {}
    for position, item in enumerate(raw if isinstance(raw, list) else ()):
        if not isinstance(item, Mapping):
            continue
        function = item.get("function")
        function = function if isinstance(function, Mapping) else {}
        name, arguments = function.get("name"), function.get("arguments")
        written.setdefault(
            item.get("id"),
            (position, name if isinstance(name, str) else "", arguments if isinstance(arguments, str) else None),
        )
    return written


def _as_written(args: Any, text: str | None) -> bool:
    """Whether the raw argument text says what LangChain decoded (so it is these arguments, as the model wrote
    them, duplicate keys and all — LangChain's decoding keeps the last of two values) and not a stale copy of
    arguments someone changed since."""
    if text is None:
        return False
    try:
        return bool(json.loads(text, strict=False) == args)
    except (ValueError, RecursionError):
        return False


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def langchain_calls(message: Any) -> tuple[ToolCall, ...]:
    """An `AIMessage`'s calls as `ToolCall`s, in the order the model made them: `tool_calls` (the argument text the
    model wrote, from `additional_kwargs["tool_calls"]`, when it is there and says what LangChain decoded; else
    the decoded `args` as JSON text) and `invalid_tool_calls` (their `args` exactly as the model wrote them). The
    order is the provider's (`additional_kwargs["tool_calls"]`) when every call's id is found there, else valid
    calls first. No calls for a message that is not the AI's; `ToolCall.decoded`'s `ParseError` for args nested
    too deeply to write as JSON, which the callers report as theirs."""
    if get(message, "type") not in ("ai", "AIMessageChunk"):
        return ()
    written = _written(message)
    found: list[tuple[str, str | None, Any, str | None]] = []  # name, argument text as written, decoded args, id
    for call in _list(get(message, "tool_calls")):
        name, args, call_id = call["name"], call["args"], call.get("id")
        _, raw_name, text = written.get(call_id, (0, "", None))
        found.append((name, text if raw_name == name and _as_written(args, text) else None, args, call_id))
    for bad in _list(get(message, "invalid_tool_calls")):
        found.append((bad.get("name") or "", str(bad.get("args") or ""), None, bad.get("id")))
    if written and all(call[3] in written for call in found):
        found.sort(key=lambda c: written[c[3]][0])
    calls = []
    for index, (name, text, args, call_id) in enumerate(found):
        if text is not None:
            calls.append(ToolCall(name, text, id=call_id, index=index))
        else:
            calls.append(ToolCall.decoded(name, args, id=call_id, index=index))
    return tuple(calls)


def langchain_refusal_pieces(message: Any) -> list[str]:
    """The refusal text the provider flagged on a message (or a chunk of one): OpenAI's `refusal`, which LangChain
    keeps in `additional_kwargs["refusal"]` (or as a `refusal` content block)."""
    pieces: list[str] = []
    said = get(get(message, "additional_kwargs"), "refusal")
    if isinstance(said, str) and said:
        pieces.append(said)
    for block in _list(get(message, "content")):
        if isinstance(block, dict) and block.get("type") == "refusal" and isinstance(block.get("refusal"), str):
            pieces.append(block["refusal"])
    return pieces


def langchain_refused_by_stop(message: Any) -> bool:
    """Whether the provider stopped the message as a refusal (Anthropic's `stop_reason: "refusal"`)."""
    return bool(get(get(message, "response_metadata"), "stop_reason") == "refusal")


def refusal_signal(pieces: Sequence[str], stopped: bool) -> str | None:
    """The refusal signal of a message: the refusal text flagged (joined), else the refusing stop, else None."""
    said = "".join(pieces)
    if said.strip():
        return said
    return STOPPED_REFUSING if stopped else None


def langchain_refusal(message: Any) -> str | None:
    """The provider's own refusal signal on a message, or None."""
    return refusal_signal(langchain_refusal_pieces(message), langchain_refused_by_stop(message))


def langchain_finish_reason(message: Any) -> str | None:
    meta = get(message, "response_metadata")
    for key in ("finish_reason", "stop_reason", "done_reason"):
        value = get(meta, key)
        if isinstance(value, str):
            return value
    return None


def langchain_reply(message: Any) -> Reply:
    """A LangChain `AIMessage`, read as the LangChain parser and adapter read it: its text, its calls
    (`langchain_calls`), its finish reason and the provider's refusal signal (`langchain_refusal`)."""
    text = get(message, "text")
    if not isinstance(text, str) and callable(text):  # older langchain_core: `text()` is a method
        text = text()
    try:
        calls = langchain_calls(message)
    except ParseError as exc:
        raise ReplyShapeError("the message's tool calls cannot be read", exc.message) from None
    reason = langchain_finish_reason(message)
    refusal = langchain_refusal(message) or (CONTENT_FILTERED if reason == "content_filter" else None)
    meta = get(message, "response_metadata")
    model = get(meta, "model_name") or get(meta, "model")
    return Reply(
        text=text if isinstance(text, str) else None,
        calls=calls,
        refusal=refusal,
        finish_reason=reason,
        truncated=says_cut(reason) or get(meta, "status") == "incomplete",
        field="tool_calls" if calls else "content",
        kind="AIMessage",
        model=model if isinstance(model, str) else None,
    )


# -- recognising a reply ------------------------------------------------------------------------------------------


def replies_of(obj: Any) -> tuple[Reply, ...] | None:
    """The replies an SDK object holds (one per choice), or None for an object that is no reply `parse` knows.
    Raises `ReplyShapeError` for a reply of a known kind that cannot be read."""
    if isinstance(obj, Mapping | str | bytes | bytearray) or obj is None:
        return None
    name = type(obj).__name__
    lc_message = _langchain_message_class()
    if isinstance(lc_message, type) and isinstance(obj, lc_message):
        return (langchain_reply(obj),)
    if get(obj, "object") == "chat.completion" or (name == "ChatCompletion" and get(obj, "choices") is not None):
        replies = openai_chat_replies(obj)
        return tuple(_named(r, "ChatCompletion") for r in replies)
    if get(obj, "object") == "response" and get(obj, "output") is not None:
        return (responses_reply(obj),)
    if get(obj, "type") == "message" and get(obj, "role") == "assistant" and get(obj, "stop_reason", "") != "":
        return (anthropic_reply(obj),)
    if get(obj, "message") is not None and get(obj, "finish_reason", "") != "" and isinstance(get(obj, "index"), int):
        return (_named(openai_choice_reply(obj), "Choice"),)
    if get(obj, "role") == "assistant" and get(obj, "tool_calls", "") != "" and get(obj, "content", "") != "":
        return (openai_message_reply(obj),)
    return None


def _named(reply: Reply, kind: str) -> Reply:
    return Reply(**{**reply.__dict__, "kind": kind})


def _unknown(obj: Any) -> InvalidInputError:
    got = type(obj).__name__
    return InvalidInputError(
        f"expected the model's output as {ACCEPTED}; got {got}",
        [ErrorDetail(path="", kind="invalid_input", message=f"got {got}; accepted: {ACCEPTED}")],
    )


def one_reply(replies: tuple[Reply, ...]) -> Reply:
    """The one reply several choices give, or an `AmbiguousMatchError` naming the choices that differ."""
    first = replies[0]
    said = first.said  # read once: each reading decodes the reply's JSON
    differing = [i for i, r in enumerate(replies) if r.said != said]
    if not differing:
        return first
    shown = ", ".join(f"choices[{i}]" for i in differing)
    raise AmbiguousMatchError(
        f"the completion's {len(replies)} choices do not agree ({shown} differ from choices[0]); it does not say "
        "which is the answer",
        [
            ErrorDetail(
                path="",
                kind="ambiguous_choices",
                message=f"choices[0] and choices[{i}] say different things; parse the choice you mean",
                got=excerpt(replies[i].text or ", ".join(c.name for c in replies[i].calls), 120),
            )
            for i in differing
        ],
    )


def read_reply(obj: Any, policy: Policy) -> tuple[Reply, tuple[Repair, ...]]:
    """The one reply an SDK object gives `parse`, and the repairs reading it made (`read_reply`, and
    `truncated_reply` for a reply the length limit cut); see the module docstring for what is refused."""
    try:
        replies = replies_of(obj)
    except ReplyShapeError as exc:
        raise InvalidInputError(
            f"the {type(obj).__name__} could not be read: {exc.what}",
            [ErrorDetail(path="", kind="unreadable_reply", message=exc.detail)],
        ) from None
    if not replies:
        raise _unknown(obj)
    reply = one_reply(replies)
    if reply.refusal:
        shown = excerpt(reply.refusal, 300)
        raise RefusalError(
            f"the provider flagged the reply as a refusal: {shown}",
            [ErrorDetail(path="", kind="refusal", message="the provider flagged the reply as a refusal", got=shown)],
        )
    if reply.text is None and not reply.calls:
        raise InvalidInputError(
            f"the {reply.kind} holds no text and no tool call",
            [ErrorDetail(path="", kind="unreadable_reply", message=f"nothing to read in {reply.field}")],
        )
    note = f"read {reply.kind}.{reply.field}" + (f" (all {len(replies)} choices agree)" if len(replies) > 1 else "")
    repairs = [Repair.make("read_reply", "", None, None, note=note)]
    if reply.truncated and not reply.calls:
        if not policy.allows("truncated_reply"):
            raise TruncatedOutputError(
                f"the provider cut the reply off at its output length limit (finish reason {reply.finish_reason!r}); "
                f"the {policy.name} policy does not read cut-off output",
                [
                    ErrorDetail(
                        path="",
                        kind="truncated_reply",
                        message=f"the reply was cut off by the output length limit ({reply.finish_reason})",
                    )
                ],
            )
        note = f"the provider cut the reply off (finish reason {reply.finish_reason!r})"
        repairs.append(Repair.make("truncated_reply", "", None, None, note=note))
    return reply, tuple(repairs)


def made_calls(reply: Reply) -> list[RawCall]:
    """A reply's native calls as the tools layer's `RawCall`s (format "native"; `where` names the call's field)."""
    return [
        RawCall(
            name=call.name,
            arguments=call.arguments,
            format="native",
            id=call.id,
            offset=0,
            where=f"{reply.kind}.{reply.field}[{call.index}]",
        )
        for call in reply.calls
    ]


__all__ = [
    "ACCEPTED",
    "Reply",
    "ReplyShapeError",
    "anthropic_reply",
    "get",
    "langchain_reply",
    "made_calls",
    "openai_chat_replies",
    "openai_message_reply",
    "read_reply",
    "replies_of",
    "responses_reply",
]
