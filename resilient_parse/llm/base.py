"""What every provider adapter shares: the `LLMAdapter` protocol the correction loop calls, reading a reply's
usage and text through the one reply reader (`tools.replies`), the OpenAI-shaped re-ask, and classifying errors.

Errors: a quota error is recognised by `is_quota_error` (the loop then stops at once); a body the SDK could not
read becomes `MalformedResponseError` (carrying the usage the provider reported, when it did); every other
exception (network, auth, rate limit) is left as it is. `SDKAdapter` holds the call plumbing the SDK adapters
(`llm.openai`, `llm.anthropic`, `llm.litellm`) share; each imports its SDK only when it has to build a client.
"""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from resilient_parse.errors import ConfigurationError, ErrorDetail, ParseError, QuotaExhaustedError
from resilient_parse.llm.tool_defs import ToolSpec, check_tool_choice
from resilient_parse.llm.tool_followups import openai_tool_followup, text_followup
from resilient_parse.llm.types import Completion, MalformedResponseError, Messages, Usage, usage_from_counts
from resilient_parse.tools.replies import Reply, ReplyShapeError, get


@runtime_checkable
class LLMAdapter(Protocol):
    """What the loop needs from a model: a name for telemetry, and a sync and an async call."""

    name: str

    def complete(self, messages: Messages) -> Completion: ...

    async def acomplete(self, messages: Messages) -> Completion: ...


# -- reading provider responses -----------------------------------------------------------------------------------


def malformed(what: str, detail: str = "", usage: Usage | None = None) -> MalformedResponseError:
    """A reply the SDK or the reader could not read, as the error the loop retries on."""
    return MalformedResponseError(
        f"the provider's response could not be read: {what}",
        [ErrorDetail(path="", kind="malformed_response", message=detail or what)],
        usage=usage,
    )


def usage_of(response: Any, prompt: str, completion: str) -> Usage | None:
    """The provider's token counts (read first: an unreadable reply was still paid for); None — unreported, so the
    loop estimates it and marks it estimated — when either count is missing or not a count (a negative number is
    not clamped to 0: that would book an unknown cost as free and reported)."""
    usage_obj = get(response, "usage")
    if usage_obj is None:
        return None
    return usage_from_counts(get(usage_obj, prompt), get(usage_obj, completion))


def read_reply(read: Callable[[Any], Any], response: Any, usage: Usage | None) -> Any:
    """`read(response)` by the one reply reader (`tools.replies`); a reply it cannot read is malformed."""
    try:
        return read(response)
    except ReplyShapeError as exc:
        raise malformed(exc.what, exc.detail, usage=usage) from None
    except ParseError as exc:  # the choices disagree: which one answers is not ours to pick
        raise malformed(exc.message, "; ".join(d.message for d in exc.details), usage=usage) from None
    except Exception as exc:  # an SDK object whose fields raise when read (built without validation)
        what = f"reading it raised {type(exc).__name__}"
        raise malformed(what, f"{type(exc).__name__}: {exc}"[:300], usage=usage) from None


def completion_of(reply: Reply, usage: Usage | None) -> Completion:
    """A reply read by `tools.replies` as the `Completion` the loop takes."""
    return Completion(
        text=reply.text or "",
        model=reply.model,
        usage=usage,
        refusal=reply.refusal,
        finish_reason=reply.finish_reason,
        tool_calls=reply.calls,
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


def is_unreadable_body(exc: BaseException) -> bool:
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


# -- the call plumbing --------------------------------------------------------------------------------------------


def copy_messages(messages: Sequence[Mapping[str, Any]]) -> Messages:
    """A deep copy (nested content lists and parts included): what we hand to an llm can never alias the caller's
    messages, nor the copy the loop keeps for its next round. Content that cannot be copied is a caller's mistake."""
    try:
        return [{str(k): copy.deepcopy(v) for k, v in m.items()} for m in messages]
    except Exception as exc:
        raise ConfigurationError(f"messages must be plain data that can be copied: {type(exc).__name__}") from exc


def need_sync(result: Any, where: str) -> None:
    """An awaitable in a sync call is the caller's mix-up: closed (no 'never awaited' warning) and refused."""
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


def import_sdk(module: str, extra: str) -> Any:
    """The provider's SDK, imported only when an adapter builds its own client; missing, it names the extra."""
    try:
        return __import__(module)
    except ImportError as exc:
        raise ConfigurationError(
            f"this adapter needs the {module!r} package: pip install 'resilient-parse[{extra}]'"
        ) from exc


def check_tool_params(tools: Sequence[ToolSpec] | None, tool_choice: Any, params: Mapping[str, Any]) -> None:
    """Tools given twice, or a tool_choice with nothing to choose from, are refused when the adapter is built."""
    if tools is not None and "tools" in params:
        raise ConfigurationError("pass the tools once: tools=[...] (models or dicts), not also in the call parameters")
    if tool_choice is not None and tools is None and "tools" not in params:
        raise ConfigurationError("tool_choice= needs tools= to choose from")


def sent_choice(
    choice: Any, shape: Callable[[Any], Any], tools: list[dict[str, Any]] | None, params: Mapping[str, Any]
) -> Any:
    """The tool_choice in the API's shape (None when not given), refused at once when it forces a tool that is not
    sent (the adapter's tools, or tools= in the call parameters)."""
    if choice is None:
        return None
    shaped = shape(choice)
    sent = tools if tools is not None else params.get("tools")
    if isinstance(sent, Sequence) and all(isinstance(t, Mapping) for t in sent):
        check_tool_choice(shaped, sent)
    return shaped


class SDKAdapter:
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
            if is_unreadable_body(exc):
                raise malformed("the response body is not valid", f"{type(exc).__name__}: {exc}") from exc
            raise
        need_sync(response, f"the {self.kind} client")
        return self._read(response)

    async def acomplete(self, messages: Messages) -> Completion:
        fn, kwargs = self._request(copy_messages(messages))
        try:
            response = fn(**kwargs)
            if inspect.isawaitable(response):
                response = await response
        except Exception as exc:
            if is_unreadable_body(exc):
                raise malformed("the response body is not valid", f"{type(exc).__name__}: {exc}") from exc
            raise
        return self._read(response)
