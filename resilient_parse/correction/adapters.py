"""LLM adapters: one small interface over plain functions and the OpenAI, Anthropic and LiteLLM SDKs.

An adapter turns chat messages into a `Completion` (text, provider model name, token usage, refusal flag). The
SDKs are optional extras, imported only when an adapter has to build its own client; pass your own client and
the adapter never imports the SDK at all. Anything callable with messages that returns text (or awaits to text)
works as an `llm` too — `as_adapter` wraps it in a `FunctionAdapter`.

Tool calling: the SDK adapters take `tools=` (Pydantic argument models, or tool definitions written in the API's
own format) and `tool_choice=`, send them in that API's format, read the calls the model made into
`Completion.tool_calls`, and answer them on a re-ask the way the API expects (`followup`).

Errors: a quota error is recognised by `is_quota_error` (the loop then stops at once); a body the SDK could not
read becomes `MalformedResponseError` (carrying the usage the provider reported, when it did); every other
exception (network, auth, rate limit) is left as it is.
"""

from __future__ import annotations

import copy
import inspect
import json
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from resilient_parse.correction.tool_defs import (
    ToolSpec,
    anthropic_tool_choice,
    anthropic_tools,
    check_tool_choice,
    openai_tool_choice,
    openai_tools,
)
from resilient_parse.correction.tool_followups import anthropic_tool_followup, openai_tool_followup, text_followup
from resilient_parse.correction.types import Completion, MalformedResponseError, Usage, usage_from_counts
from resilient_parse.errors import ConfigurationError, ErrorDetail, ParseError, QuotaExhaustedError
from resilient_parse.tools.replies import (
    Reply,
    ReplyShapeError,
    anthropic_reply,
    get,
    one_reply,
    openai_chat_replies,
    responses_reply,
)

Message = dict[str, Any]
Messages = list[Message]


@runtime_checkable
class LLMAdapter(Protocol):
    """What the loop needs from a model: a name for telemetry, and a sync and an async call."""

    name: str

    def complete(self, messages: Messages) -> Completion: ...

    async def acomplete(self, messages: Messages) -> Completion: ...


# -- reading provider responses -----------------------------------------------------------------------------------


_get = get  # attribute or key access, so SDK objects and plain dicts (LiteLLM, raw JSON) read the same


def _malformed(what: str, detail: str = "", usage: Usage | None = None) -> MalformedResponseError:
    return MalformedResponseError(
        f"the provider's response could not be read: {what}",
        [ErrorDetail(path="", kind="malformed_response", message=detail or what)],
        usage=usage,
    )


def _usage_of(response: Any, prompt: str, completion: str) -> Usage | None:
    """The provider's token counts (read first: an unreadable reply was still paid for); None — unreported, so the
    loop estimates it and marks it estimated — when either count is missing or not a count (a negative number is
    not clamped to 0: that would book an unknown cost as free and reported)."""
    usage_obj = _get(response, "usage")
    if usage_obj is None:
        return None
    return usage_from_counts(_get(usage_obj, prompt), _get(usage_obj, completion))


def _read(read: Callable[[Any], Any], response: Any, usage: Usage | None) -> Any:
    """`read(response)` by the one reply reader (`tools.replies`); a reply it cannot read is malformed."""
    try:
        return read(response)
    except ReplyShapeError as exc:
        raise _malformed(exc.what, exc.detail, usage=usage) from None
    except ParseError as exc:  # the choices disagree: which one answers is not ours to pick
        raise _malformed(exc.message, "; ".join(d.message for d in exc.details), usage=usage) from None
    except Exception as exc:  # an SDK object whose fields raise when read (built without validation)
        what = f"reading it raised {type(exc).__name__}"
        raise _malformed(what, f"{type(exc).__name__}: {exc}"[:300], usage=usage) from None


def completion_from_openai(response: Any) -> Completion:
    """Read an OpenAI-shaped chat completion (the SDK's object, LiteLLM's, or the JSON as a dict): its first choice,
    as `tools.replies` reads it."""
    usage = _usage_of(response, "prompt_tokens", "completion_tokens")
    reply: Reply = _read(lambda r: one_reply(openai_chat_replies(r)), response, usage)
    if reply.text is None and not reply.refusal and not reply.calls:
        content = _get(_get(_get(response, "choices")[0], "message"), "content")
        raise _malformed("the chat completion has no text", f"message content is {type(content).__name__}", usage=usage)
    return _completion(reply, usage)


def completion_from_anthropic(response: Any) -> Completion:
    """Read an Anthropic Messages API response (the SDK's object or the JSON as a dict), as `tools.replies` reads
    it: text blocks joined, `tool_use` blocks as `ToolCall`s (their `input` is already decoded: kept as its JSON
    text)."""
    usage = _usage_of(response, "input_tokens", "output_tokens")
    return _completion(_read(anthropic_reply, response, usage), usage)


def _completion(reply: Reply, usage: Usage | None) -> Completion:
    return Completion(
        text=reply.text or "",
        model=reply.model,
        usage=usage,
        refusal=reply.refusal,
        finish_reason=reply.finish_reason,
        tool_calls=reply.calls,
    )


def to_completion(result: Any) -> Completion:
    """What a plain function returned, as a `Completion`: text, a `Completion`, an SDK response object, or a
    LangChain message."""
    if isinstance(result, Completion):
        return result
    if isinstance(result, str):
        return Completion(text=result)
    if isinstance(result, bytes | bytearray):
        try:
            return Completion(text=bytes(result).decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise _malformed("the answer is not valid UTF-8", str(exc)) from None
    message = getattr(sys.modules.get("langchain_core.messages.base"), "BaseMessage", None)
    if isinstance(message, type) and isinstance(result, message):  # a LangChain chat model's answer
        from resilient_parse.correction.chat_model import completion_from_message  # the langchain extra, when used

        return completion_from_message(result)
    if _get(result, "choices") is not None:
        return completion_from_openai(result)
    if _get(result, "content") is not None and _get(result, "stop_reason", "") != "":
        return completion_from_anthropic(result)
    if _get(result, "object") == "response" and _get(result, "output") is not None:  # the Responses API's
        return _completion(_read(responses_reply, result, None), _usage_of(result, "input_tokens", "output_tokens"))
    # None, a dict of the answer's fields, any other object: a bug in the caller's function, not a model's slip
    raise ConfigurationError(
        f"the llm returned {type(result).__name__}, not text: a plain function returns the model's text (a str), "
        "a Completion, or the SDK's response object"
    )


# -- classifying errors -------------------------------------------------------------------------------------------

_QUOTA_CODES = frozenset({"insufficient_quota", "quota_exceeded", "billing_hard_limit_reached", "billing_error"})
_QUOTA_PHRASES = ("insufficient_quota", "exceeded your current quota", "quota exceeded", "credit balance is too low")


def is_quota_error(exc: BaseException) -> bool:
    """Whether an exception from an LLM call says the quota or credit is exhausted (retrying cannot help).

    Recognises our own `QuotaExhaustedError`, the `code`/`type` fields the OpenAI, Anthropic and LiteLLM SDKs set
    from the error body, and the providers' usual wording. A plain rate limit ("slow down") is not a quota error.
    """
    if isinstance(exc, QuotaExhaustedError):
        return True
    for attr in ("code", "type"):
        value = getattr(exc, attr, None)
        if isinstance(value, str) and value in _QUOTA_CODES:
            return True
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping) and any(inner.get(k) in _QUOTA_CODES for k in ("code", "type")):
            return True
    text = str(exc).lower()
    return any(phrase in text for phrase in _QUOTA_PHRASES)


def _in_json_decoding(exc: BaseException) -> bool:
    """A RecursionError raised while decoding JSON (a body nested deeper than Python's stack), not one in code."""
    if "JSON" in str(exc):  # the C decoder's "... while decoding a JSON array from a unicode string"
        return True
    tb = exc.__traceback__
    while tb is not None:
        if "/json/" in tb.tb_frame.f_code.co_filename.replace("\\", "/"):
            return True
        tb = tb.tb_next
    return False


def _is_decoding_failure(exc: BaseException) -> bool:
    if isinstance(exc, RecursionError):
        return _in_json_decoding(exc)
    return isinstance(exc, json.JSONDecodeError) or type(exc).__name__ == "APIResponseValidationError"


_MAX_CHAIN = 8  # how many causes deep to look: LiteLLM wraps the SDK's decoding error three levels down


def _is_unreadable_body(exc: BaseException) -> bool:
    """The SDK got a response it could not decode (JSON syntax error, a body nested too deeply to decode, schema
    mismatch of the body) — raised as it is, or wrapped: LiteLLM reports a 200 whose body is broken JSON as an
    `InternalServerError` (status_code 500) raised while handling the JSONDecodeError, so the error's causes are
    read too. A real 5xx has an HTTP status error there, never a decoding failure."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen and len(seen) < _MAX_CHAIN:
        if _is_decoding_failure(link):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


# -- adapters -----------------------------------------------------------------------------------------------------


def copy_messages(messages: Sequence[Mapping[str, Any]]) -> Messages:
    """A deep copy (nested content lists and parts included): what we hand to an llm can never alias the caller's
    messages, nor the copy the loop keeps for its next round. Content that cannot be copied is a caller's mistake."""
    try:
        return [{str(k): copy.deepcopy(v) for k, v in m.items()} for m in messages]
    except Exception as exc:
        raise ConfigurationError(f"messages must be plain data that can be copied: {type(exc).__name__}") from exc


def _need_sync(result: Any, where: str) -> None:
    if inspect.isawaitable(result):
        if inspect.iscoroutine(result):
            result.close()
        raise ConfigurationError(f"{where} is async; use acorrect() (or an async driver) with it")


def openai_followup(completion: Completion, shown: str | None, feedback: str) -> Messages:
    """The messages that answer `completion` with `feedback` in the OpenAI chat shape: a `tool` message per call
    when it made calls, else the previous answer as the assistant's turn and the feedback as the user's."""
    if completion.tool_calls:
        return openai_tool_followup(completion.tool_calls, feedback, completion.text)
    return text_followup(shown, feedback)


class FunctionAdapter:
    """Any callable taking chat messages and returning text (or a `Completion`), sync or async. Re-asks after tool
    calls come in the OpenAI chat shape (an assistant turn with `tool_calls`, a `tool` message per call), the
    shape plain chat-message functions most often speak.

    `tools=` (Pydantic argument models or tool dicts, as the SDK adapters take) declares the tools the function's
    own request sends — the adapter sends nothing itself. With them, a call to another of those tools is a wrong
    tool, never a typo of the target's; without them, nothing says which tools exist, so only a slip that cannot
    make another word is repaired as a typo (`correction.tool_calls`)."""

    kind = "function"

    def __init__(
        self, fn: Callable[[Messages], Any], name: str | None = None, *, tools: Sequence[ToolSpec] | None = None
    ) -> None:
        if not callable(fn):
            raise ConfigurationError(f"llm must be callable, got {type(fn).__name__}")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", None) or type(fn).__name__
        self.tools = openai_tools(tools) if tools is not None else None

    def __repr__(self) -> str:
        return f"FunctionAdapter({self.name!r})"

    def followup(self, completion: Completion, shown: str | None, feedback: str) -> Messages:
        return openai_followup(completion, shown, feedback)

    def complete(self, messages: Messages) -> Completion:
        result = self.fn(copy_messages(messages))
        _need_sync(result, f"llm {self.name!r}")
        return to_completion(result)

    async def acomplete(self, messages: Messages) -> Completion:
        result = self.fn(copy_messages(messages))
        if inspect.isawaitable(result):
            result = await result
        return to_completion(result)


def _import(module: str, extra: str) -> Any:
    try:
        return __import__(module)
    except ImportError as exc:
        raise ConfigurationError(
            f"this adapter needs the {module!r} package: pip install 'resilient-parse[{extra}]'"
        ) from exc


def _tool_params(tools: Sequence[ToolSpec] | None, tool_choice: Any, params: Mapping[str, Any]) -> None:
    if tools is not None and "tools" in params:
        raise ConfigurationError("pass the tools once: tools=[...] (models or dicts), not also in the call parameters")
    if tool_choice is not None and tools is None and "tools" not in params:
        raise ConfigurationError("tool_choice= needs tools= to choose from")


def _sent_choice(
    choice: Any, shape: Callable[[Any], Any], tools: list[dict[str, Any]] | None, params: Mapping[str, Any]
) -> Any:
    """The tool_choice in the API's shape (None when not given), refused at once when it forces a tool that is not
    sent (the adapter's tools, or tools= in the call parameters)."""
    if choice is None:
        return None
    sent_choice = shape(choice)
    sent = tools if tools is not None else params.get("tools")
    if isinstance(sent, Sequence) and all(isinstance(t, Mapping) for t in sent):
        check_tool_choice(sent_choice, sent)
    return sent_choice


class _SDKAdapter:
    """Shared call plumbing: sync/async dispatch, turning unreadable bodies into `MalformedResponseError`, and the
    OpenAI-shaped re-ask (`followup`), which LiteLLM and every OpenAI-compatible server share."""

    kind = "sdk"
    model: str
    name: str
    tools: list[dict[str, Any]] | None = None
    tool_choice: Any = None

    def followup(self, completion: Completion, shown: str | None, feedback: str) -> Messages:
        return openai_followup(completion, shown, feedback)

    def _with_tools(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        if self.tools is not None:
            kwargs["tools"] = copy.deepcopy(self.tools)
        if self.tool_choice is not None:
            kwargs["tool_choice"] = copy.deepcopy(self.tool_choice)
        return kwargs

    def _request(self, messages: Messages) -> tuple[Callable[..., Any], dict[str, Any]]:
        raise NotImplementedError

    def _read(self, response: Any) -> Completion:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r})"

    def complete(self, messages: Messages) -> Completion:
        fn, kwargs = self._request(copy_messages(messages))
        try:
            response = fn(**kwargs)
        except Exception as exc:
            if _is_unreadable_body(exc):
                raise _malformed("the response body is not valid", f"{type(exc).__name__}: {exc}") from exc
            raise
        _need_sync(response, f"the {self.kind} client")
        return self._read(response)

    async def acomplete(self, messages: Messages) -> Completion:
        fn, kwargs = self._request(copy_messages(messages))
        try:
            response = fn(**kwargs)
            if inspect.isawaitable(response):
                response = await response
        except Exception as exc:
            if _is_unreadable_body(exc):
                raise _malformed("the response body is not valid", f"{type(exc).__name__}: {exc}") from exc
            raise
        return self._read(response)


class OpenAIAdapter(_SDKAdapter):
    """The OpenAI SDK's chat completions (`OpenAI` or `AsyncOpenAI` client; any OpenAI-compatible server).

    `json_mode=True` sends `response_format={"type": "json_object"}`; `tools=` (Pydantic argument models or tool
    dicts) and `tool_choice=` ("auto", "required", a model or tool name) are sent as OpenAI function tools; other
    keyword arguments (temperature, max_tokens, seed …) are passed to `chat.completions.create` unchanged. Usage
    comes from `response.usage`.
    """

    kind = "openai"

    def __init__(
        self,
        client: Any = None,
        model: str = "gpt-4o-mini",
        *,
        json_mode: bool = False,
        tools: Sequence[ToolSpec] | None = None,
        tool_choice: Any = None,
        **params: Any,
    ):
        _tool_params(tools, tool_choice, params)
        if client is None:
            client = _import("openai", "openai").OpenAI()
        self.client = client
        self.model = model
        self.json_mode = json_mode
        self.tools = openai_tools(tools) if tools is not None else None
        self.tool_choice = _sent_choice(tool_choice, openai_tool_choice, self.tools, params)
        self.params = params
        self.name = f"openai:{model}"

    def _request(self, messages: Messages) -> tuple[Callable[..., Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, **self.params}
        if self.json_mode:
            kwargs.setdefault("response_format", {"type": "json_object"})
        return self.client.chat.completions.create, self._with_tools(kwargs)

    def _read(self, response: Any) -> Completion:
        return completion_from_openai(response)


def _blocks(content: Any) -> list[Any]:
    return list(content) if isinstance(content, list) else [{"type": "text", "text": str(content)}]


def _merge_turns(messages: Messages) -> Messages:
    """Consecutive messages of one role as one turn (their content as blocks): Anthropic wants the roles to
    alternate, and a re-ask after an empty answer would otherwise send two user turns in a row."""
    merged: Messages = []
    for message in messages:
        if merged and merged[-1].get("role") == message.get("role"):
            last = merged[-1]
            merged[-1] = {**last, "content": [*_blocks(last["content"]), *_blocks(message.get("content"))]}
        else:
            merged.append(message)
    return merged


class AnthropicAdapter(_SDKAdapter):
    """The Anthropic SDK's Messages API (`Anthropic` or `AsyncAnthropic` client).

    System messages are joined into the `system` parameter, and consecutive turns of one role are merged, as the
    API wants. `tools=` (Pydantic argument models or tool dicts) and `tool_choice=` are sent in Anthropic's format;
    a re-ask answers `tool_use` blocks with `tool_result` blocks. Usage comes from `response.usage.input_tokens` /
    `output_tokens`; `stop_reason == "refusal"` is reported as a refusal.
    """

    kind = "anthropic"

    def __init__(
        self,
        client: Any = None,
        model: str = "claude-3-5-haiku-latest",
        *,
        max_tokens: int = 1024,
        tools: Sequence[ToolSpec] | None = None,
        tool_choice: Any = None,
        **params: Any,
    ):
        _tool_params(tools, tool_choice, params)
        if client is None:
            client = _import("anthropic", "anthropic").Anthropic()
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.tools = anthropic_tools(tools) if tools is not None else None
        self.tool_choice = _sent_choice(tool_choice, anthropic_tool_choice, self.tools, params)
        self.params = params
        self.name = f"anthropic:{model}"

    def followup(self, completion: Completion, shown: str | None, feedback: str) -> Messages:
        """`tool_use` blocks answered by one user turn of `tool_result` blocks; a text answer as the assistant's
        turn and the feedback as the user's."""
        if completion.tool_calls:
            return anthropic_tool_followup(completion.tool_calls, feedback, completion.text)
        return text_followup(shown, feedback)

    def _request(self, messages: Messages) -> tuple[Callable[..., Any], dict[str, Any]]:
        system = "\n\n".join(str(m["content"]) for m in messages if m.get("role") == "system")
        chat = _merge_turns([m for m in messages if m.get("role") != "system"])
        kwargs: dict[str, Any] = {"model": self.model, "max_tokens": self.max_tokens, "messages": chat, **self.params}
        if system:
            kwargs["system"] = system
        return self.client.messages.create, self._with_tools(kwargs)

    def _read(self, response: Any) -> Completion:
        return completion_from_anthropic(response)


class LiteLLMAdapter(_SDKAdapter):
    """LiteLLM's `completion` / `acompletion` (any provider LiteLLM routes to); responses are OpenAI-shaped.

    `completion` and `acompletion` default to LiteLLM's own functions, imported on first use; pass your own (e.g. a
    `litellm.Router`'s methods) to route differently. `tools=` and `tool_choice=` are sent in OpenAI's format,
    which LiteLLM translates for the provider.
    """

    kind = "litellm"

    def __init__(
        self,
        model: str,
        *,
        completion: Callable[..., Any] | None = None,
        acompletion: Callable[..., Awaitable[Any]] | None = None,
        json_mode: bool = False,
        tools: Sequence[ToolSpec] | None = None,
        tool_choice: Any = None,
        **params: Any,
    ):
        _tool_params(tools, tool_choice, params)
        self.model = model
        self._completion = completion
        self._acompletion = acompletion
        self.json_mode = json_mode
        self.tools = openai_tools(tools) if tools is not None else None
        self.tool_choice = _sent_choice(tool_choice, openai_tool_choice, self.tools, params)
        self.params = params
        self.name = f"litellm:{model}"

    def _kwargs(self, messages: Messages) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, **self.params}
        if self.json_mode:
            kwargs.setdefault("response_format", {"type": "json_object"})
        return self._with_tools(kwargs)

    def _request(self, messages: Messages) -> tuple[Callable[..., Any], dict[str, Any]]:
        fn = self._completion or _import("litellm", "litellm").completion
        return fn, self._kwargs(messages)

    async def acomplete(self, messages: Messages) -> Completion:
        fn = self._acompletion or _import("litellm", "litellm").acompletion
        try:
            response = await fn(**self._kwargs(copy_messages(messages)))
        except Exception as exc:
            if _is_unreadable_body(exc):
                raise _malformed("the response body is not valid", f"{type(exc).__name__}: {exc}") from exc
            raise
        return self._read(response)

    def _read(self, response: Any) -> Completion:
        return completion_from_openai(response)


def _langchain_model(llm: Any) -> Any:
    """The LangChain chat model `llm` is, or whose `invoke`/`ainvoke` it is — a `BaseChatModel`, or a
    `RunnableBinding` of one (`chat_model.bind_tools([...])`); None otherwise. Any other runnable (a chain ending in
    `StrOutputParser`, a `RunnableLambda`) is a plain function of the messages (`_runnable_function`).

    Recognised by type wherever the class was written — a user's subclass, a provider package — and only when
    langchain_core is already imported (a LangChain object cannot exist without it, so nothing is imported)."""
    chat = getattr(sys.modules.get("langchain_core.language_models.chat_models"), "BaseChatModel", None)
    if not isinstance(chat, type):
        return None
    owner = _invoke_owner(llm)
    if isinstance(owner, chat):
        return owner
    binding = getattr(sys.modules.get("langchain_core.runnables.base"), "RunnableBinding", None)
    if isinstance(binding, type) and isinstance(owner, binding) and isinstance(getattr(owner, "bound", None), chat):
        return owner
    return None


def _invoke_owner(llm: Any) -> Any:
    return getattr(llm, "__self__", None) if getattr(llm, "__name__", "") in ("invoke", "ainvoke") else llm


def _runnable_function(llm: Any) -> Callable[[Messages], Any] | None:
    """A LangChain runnable that is no chat model, passed itself: its `invoke`, a function of the messages whose
    result (text, for a chain ending in `StrOutputParser`) is read like any function's."""
    runnable = getattr(sys.modules.get("langchain_core.runnables.base"), "Runnable", None)
    if isinstance(runnable, type) and isinstance(llm, runnable):
        return cast("Callable[[Messages], Any]", getattr(llm, "invoke"))  # noqa: B009 — typed as object by mypy
    return None


def takes_declared_tools(llm: Any) -> bool:
    """Whether `llm` is a plain function, whose tools only the caller can declare (`as_adapter(..., tools=)`): an
    adapter or a LangChain chat model has its own."""
    return not isinstance(llm, LLMAdapter) and _langchain_model(llm) is None


def as_adapter(llm: Any, name: str | None = None, *, tools: Sequence[ToolSpec] | None = None) -> LLMAdapter:
    """An adapter for `llm`: adapters pass through; a LangChain chat model (or its `invoke`) becomes a
    `ChatModelAdapter`; SDK clients need a model, so they are refused with a hint; any other callable becomes a
    `FunctionAdapter` — declaring `tools` as the tools its request sends. `tools` is for a plain function only:
    an adapter or a chat model says (or sends) its own, so it is refused with one."""
    if tools is not None and not takes_declared_tools(llm):
        raise ConfigurationError(
            f"tools= declares the tools a plain-function llm sends; {type(llm).__name__} has its own: "
            "pass them to it (an adapter's tools=, a chat model's bind_tools)"
        )
    if isinstance(llm, LLMAdapter):
        return llm
    chat_model = _langchain_model(llm)
    if chat_model is not None:
        from resilient_parse.correction.chat_model import ChatModelAdapter  # the langchain extra, only when used

        return ChatModelAdapter(chat_model)
    invoke = _runnable_function(llm)
    if invoke is not None:
        return FunctionAdapter(invoke, name=name or type(llm).__name__, tools=tools)
    module = type(llm).__module__.split(".", 1)[0]
    if module in ("openai", "anthropic") and hasattr(llm, "chat" if module == "openai" else "messages"):
        cls = "OpenAIAdapter" if module == "openai" else "AnthropicAdapter"
        raise ConfigurationError(f"wrap the {module} client with {cls}(client, model=...) to say which model to call")
    if callable(llm):
        return FunctionAdapter(llm, name=name, tools=tools)
    raise ConfigurationError(f"llm must be a callable or an adapter, got {type(llm).__name__}")
