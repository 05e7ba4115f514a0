"""Adapters read what providers return (text, usage, refusals) and classify what they raise — without the SDKs
being imported unless an adapter has to build its own client."""

from __future__ import annotations

import asyncio
import json
import sys
from types import SimpleNamespace
from typing import Any

import pytest

from resilient_parse import ConfigurationError
from resilient_parse.correction import (
    AnthropicAdapter,
    Completion,
    FunctionAdapter,
    LiteLLMAdapter,
    MalformedResponseError,
    OpenAIAdapter,
    QuotaExhaustedError,
    Usage,
    as_adapter,
    is_quota_error,
)
from resilient_parse.llm.anthropic import completion_from_anthropic
from resilient_parse.llm.function import to_completion
from resilient_parse.llm.openai import completion_from_openai

MESSAGES = [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Hi"}]


def openai_response(content: Any = '{"a": 1}', **message: Any) -> dict[str, Any]:
    return {
        "model": "gpt-x-2024",
        "choices": [{"message": {"role": "assistant", "content": content, **message}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17},
    }


def test_openai_shaped_dicts_give_text_usage_and_model() -> None:
    assert completion_from_openai(openai_response()) == Completion(
        text='{"a": 1}', model="gpt-x-2024", usage=Usage(12, 5), finish_reason="stop"
    )


def test_openai_refusal_field_is_reported() -> None:
    completion = completion_from_openai(openai_response(content=None, refusal="I can't help with that."))
    assert completion.refusal == "I can't help with that." and completion.text == ""


def test_a_content_filter_stop_counts_as_a_refusal() -> None:
    response = openai_response(content="")
    response["choices"][0]["finish_reason"] = "content_filter"
    assert completion_from_openai(response).refusal


@pytest.mark.parametrize("response", [{}, {"choices": []}, {"choices": [{"message": {"content": None}}]}])
def test_an_openai_response_without_text_is_malformed(response: dict[str, Any]) -> None:
    with pytest.raises(MalformedResponseError):
        completion_from_openai(response)


def test_anthropic_content_blocks_and_usage() -> None:
    response = SimpleNamespace(
        model="claude-x",
        content=[SimpleNamespace(type="thinking", text="hmm"), SimpleNamespace(type="text", text='{"a": 1}')],
        stop_reason="end_turn",
        usage=SimpleNamespace(input_tokens=20, output_tokens=4),
    )
    assert completion_from_anthropic(response) == Completion(
        text='{"a": 1}', model="claude-x", usage=Usage(20, 4), finish_reason="end_turn"
    )


def test_anthropic_refusal_stop_reason() -> None:
    response = {"content": [], "stop_reason": "refusal", "usage": {"input_tokens": 1, "output_tokens": 0}}
    assert completion_from_anthropic(response).refusal


@pytest.mark.parametrize(
    ("result", "text"),
    [("plain", "plain"), (b"bytes", "bytes"), (Completion(text="c"), "c"), (openai_response("sdk"), "sdk")],
)
def test_a_function_may_return_text_bytes_a_completion_or_an_sdk_response(result: Any, text: str) -> None:
    assert to_completion(result).text == text


def test_a_function_returning_something_else_is_a_configuration_error() -> None:
    """None, a number, a dict of the answer's fields: a bug in the caller's function, reported at once (as the
    README promises), not a model's slip to re-ask about."""
    for returned in (42, None, {"city": "Oslo"}, object()):
        with pytest.raises(ConfigurationError, match="not text"):
            to_completion(returned)


# -- errors ---------------------------------------------------------------------------------------------------------


class SDKError(Exception):
    def __init__(self, message: str, code: str | None = None, body: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.body = body


@pytest.mark.parametrize(
    "exc",
    [
        SDKError("Error code: 429", code="insufficient_quota"),
        SDKError("Error code: 429", body={"error": {"type": "insufficient_quota"}}),
        SDKError("You exceeded your current quota, please check your plan and billing details."),
        SDKError("Your credit balance is too low to access the Anthropic API."),
        QuotaExhaustedError("out of credit"),
    ],
)
def test_quota_errors_are_recognised(exc: Exception) -> None:
    assert is_quota_error(exc)


@pytest.mark.parametrize(
    "exc",
    [SDKError("Rate limit reached, slow down.", code="rate_limit_exceeded"), ConnectionError("reset"), ValueError()],
)
def test_other_errors_are_not_quota_errors(exc: Exception) -> None:
    assert not is_quota_error(exc)


# -- adapters ---------------------------------------------------------------------------------------------------------


class FakeOpenAIClient:
    """The shape of `openai.OpenAI`: `client.chat.completions.create(**kwargs)`."""

    def __init__(self, response: Any) -> None:
        self.kwargs: list[dict[str, Any]] = []

        def create(**kwargs: Any) -> Any:
            self.kwargs.append(kwargs)
            if isinstance(response, Exception):
                raise response
            return response

        self.chat = SimpleNamespace(completions=SimpleNamespace(create=create))


def test_openai_adapter_passes_model_params_and_json_mode() -> None:
    client = FakeOpenAIClient(openai_response())
    adapter = OpenAIAdapter(client, model="gpt-x", json_mode=True, temperature=0)
    assert adapter.complete(MESSAGES).usage == Usage(12, 5)
    assert client.kwargs == [
        {"model": "gpt-x", "messages": MESSAGES, "temperature": 0, "response_format": {"type": "json_object"}}
    ]
    assert adapter.name == "openai:gpt-x"


def test_an_unreadable_body_becomes_a_malformed_response() -> None:
    client = FakeOpenAIClient(json.JSONDecodeError("Expecting value", '{"choices": [', 13))
    with pytest.raises(MalformedResponseError):
        OpenAIAdapter(client, model="m").complete(MESSAGES)


def test_other_sdk_errors_pass_through_unchanged() -> None:
    boom = ConnectionError("reset")
    with pytest.raises(ConnectionError) as info:
        OpenAIAdapter(FakeOpenAIClient(boom), model="m").complete(MESSAGES)
    assert info.value is boom


def test_the_adapter_sends_a_copy_of_the_messages() -> None:
    client = FakeOpenAIClient(openai_response())
    OpenAIAdapter(client, model="m").complete(MESSAGES)
    sent = client.kwargs[0]["messages"]
    assert sent == MESSAGES and sent is not MESSAGES and sent[0] is not MESSAGES[0]


def test_anthropic_adapter_moves_system_messages_to_the_system_parameter() -> None:
    calls: list[dict[str, Any]] = []

    def create(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return {"content": [{"type": "text", "text": "{}"}], "stop_reason": "end_turn", "usage": {}}

    client = SimpleNamespace(messages=SimpleNamespace(create=create))
    AnthropicAdapter(client, model="claude-x", max_tokens=256).complete(MESSAGES)
    assert calls == [
        {"model": "claude-x", "max_tokens": 256, "messages": [{"role": "user", "content": "Hi"}], "system": "Be terse."}
    ]


def test_litellm_adapter_sync_and_async_with_injected_functions() -> None:
    seen: list[dict[str, Any]] = []

    def completion(**kwargs: Any) -> Any:
        seen.append(kwargs)
        return openai_response("sync")

    async def acompletion(**kwargs: Any) -> Any:
        seen.append(kwargs)
        return openai_response("async")

    adapter = LiteLLMAdapter("groq/llama", completion=completion, acompletion=acompletion, json_mode=True)
    assert adapter.complete(MESSAGES).text == "sync"
    assert asyncio.run(adapter.acomplete(MESSAGES)).text == "async"
    assert [k["model"] for k in seen] == ["groq/llama", "groq/llama"]
    assert all(k["response_format"] == {"type": "json_object"} for k in seen)


def test_a_missing_sdk_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "litellm", None)
    with pytest.raises(ConfigurationError, match=r"resilient-parse\[litellm\]"):
        LiteLLMAdapter("gpt-4o").complete(MESSAGES)


def test_importing_the_correction_package_does_not_import_the_sdks() -> None:
    import subprocess

    code = (
        "import sys, resilient_parse.correction; "
        "print(sorted(m for m in ('openai', 'anthropic', 'litellm', 'langchain_core') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_raw_sdk_client_needs_a_model() -> None:
    openai = pytest.importorskip("openai", reason="the openai extra is not installed")
    client = openai.OpenAI(api_key="k", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(ConfigurationError, match="OpenAIAdapter"):
        as_adapter(client)


def test_plain_callables_become_function_adapters_named_after_the_function() -> None:
    def my_model(messages: list[dict[str, str]]) -> str:
        return "{}"

    adapter = as_adapter(my_model)
    assert isinstance(adapter, FunctionAdapter) and adapter.name == "my_model"


def test_something_that_is_not_callable_is_refused() -> None:
    with pytest.raises(ConfigurationError):
        as_adapter("gpt-4o")


def _no_arguments() -> str:
    return "{}"


def _two_arguments(messages: Any, model: str) -> str:
    return "{}"


async def _async_no_arguments() -> str:
    return "{}"


@pytest.mark.parametrize("llm", [_no_arguments, _two_arguments, _async_no_arguments])
def test_a_function_that_cannot_take_the_messages_is_a_configuration_error(llm: Any) -> None:
    from pydantic import BaseModel

    from resilient_parse import acorrect, correct

    class Point(BaseModel):
        x: int

    messages = [{"role": "user", "content": "a point"}]
    with pytest.raises(ConfigurationError, match="one positional argument"):
        correct(llm, messages, Point)
    with pytest.raises(ConfigurationError, match="one positional argument"):
        asyncio.run(acorrect(llm, messages, Point))


def test_a_function_with_optional_parameters_beside_the_messages_is_an_llm() -> None:
    from pydantic import BaseModel

    from resilient_parse import correct

    class Point(BaseModel):
        x: int

    def llm(messages: Any, temperature: float = 0.0, *extra: Any) -> str:
        return '{"x": 1}'

    assert correct(llm, [{"role": "user", "content": "a point"}], Point) == Point(x=1)
