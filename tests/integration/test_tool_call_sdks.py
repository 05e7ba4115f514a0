"""Tool calls through the real SDKs (openai sync and async, anthropic, litellm) talking HTTP to a local server that
scripts the replies and records the requests: the tools we send, the re-ask's tool-result messages, the answer,
and the usage of every request (issue 15)."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest
from fixtures.fake_openai_server import (
    FakeLLMServer,
    Received,
    Reply,
    call,
    chat,
    malformed,
    rate_limited,
    tool_calls,
    unreadable_with_usage,
)
from pydantic import BaseModel

from resilient_parse import Parser
from resilient_parse.correction import (
    AnthropicAdapter,
    LiteLLMAdapter,
    OpenAIAdapter,
    acorrect_result,
    correct_result,
)

openai = pytest.importorskip("openai", reason="the openai extra is not installed")


class GetWeather(BaseModel):
    """The weather forecast for a city."""

    city: str
    days: int = 1


class GetTime(BaseModel):
    zone: str


ASK = [{"role": "system", "content": "You call tools."}, {"role": "user", "content": "Weather in Paris?"}]
PARIS = GetWeather(city="Paris")


@pytest.fixture(params=["lenient", "strict"])
def parser(request: pytest.FixtureRequest) -> Parser:
    return Parser(mode=request.param, entrypoints=False)


@pytest.fixture
def lenient() -> Parser:
    return Parser(mode="lenient", entrypoints=False)


@pytest.fixture
def strict() -> Parser:
    return Parser(mode="strict", entrypoints=False)


def openai_llm(server: FakeLLMServer, tools: list[Any], **options: Any) -> OpenAIAdapter:
    client = openai.OpenAI(base_url=server.openai_url, api_key="test-key", max_retries=0, timeout=10)
    return OpenAIAdapter(client, model="gpt-test", tools=tools, **options)


def reported(result_attempts: Any) -> list[tuple[int, int]]:
    return [(a.usage.prompt_tokens, a.usage.completion_tokens) for a in result_attempts if not a.usage.estimated]


def tool_messages(request: Received) -> list[dict[str, Any]]:
    return [m for m in request.body["messages"] if m["role"] == "tool"]


# -- OpenAI, sync -------------------------------------------------------------------------------------------------


def test_openai_broken_arguments_are_repaired_in_one_call(parser: Parser) -> None:
    with FakeLLMServer([tool_calls(call("GetWeather", "{'city': 'Paris', days: 2,}"))]) as server:
        result = correct_result(
            openai_llm(server, [GetWeather], tool_choice=GetWeather), ASK, GetWeather, parser=parser
        )
    assert result.value == GetWeather(city="Paris", days=2) and result.outcome == "repaired"
    (request,) = server.received
    (tool,) = request.body["tools"]
    assert tool["type"] == "function" and tool["function"]["name"] == "GetWeather"
    assert tool["function"]["parameters"]["required"] == ["city"]
    assert request.body["tool_choice"] == {"type": "function", "function": {"name": "GetWeather"}}
    assert reported(result.attempts) == server.usage and result.tokens == server.tokens


def test_openai_tool_name_typo_lenient_repairs_strict_re_asks(lenient: Parser, strict: Parser) -> None:
    typo = tool_calls(call("get_wether", '{"city": "Paris"}', id="call_typo"))
    with FakeLLMServer([typo]) as server:
        result = correct_result(openai_llm(server, [GetWeather]), ASK, GetWeather, parser=lenient)
    assert result.value == PARIS and result.repairs[0].kind == "enum_fuzzy" and len(server.received) == 1
    with FakeLLMServer([typo, tool_calls(call("GetWeather", '{"city": "Paris"}'))]) as server:
        result = correct_result(openai_llm(server, [GetWeather]), ASK, GetWeather, parser=strict)
    assert result.value == PARIS and result.outcome == "corrected"
    (answer,) = tool_messages(server.received[1])
    assert answer["tool_call_id"] == "call_typo" and "'GetWeather'" in answer["content"]


def test_openai_wrong_tool_is_re_asked_in_the_tool_result_shape(parser: Parser) -> None:
    script = [
        tool_calls(call("delete_city", '{"city": "Paris"}', id="call_del")),
        tool_calls(call("GetWeather", '{"city": "Paris"}')),
    ]
    with FakeLLMServer(script) as server:
        result = correct_result(openai_llm(server, [GetWeather, GetTime]), ASK, GetWeather | GetTime, parser=parser)
    assert result.value == PARIS
    messages = server.received[1].body["messages"]
    assert messages[:2] == ASK
    assistant, tool = messages[2:]
    assert assistant["role"] == "assistant"
    assert assistant["tool_calls"] == [
        {"id": "call_del", "type": "function", "function": {"name": "delete_city", "arguments": '{"city": "Paris"}'}}
    ]
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_del"
    assert "'GetWeather'" in tool["content"] and "'GetTime'" in tool["content"]
    assert reported(result.attempts) == server.usage


def test_openai_parallel_calls_fill_a_list(parser: Parser) -> None:
    script = [tool_calls(call("GetWeather", '{"city": "Paris"}'), call("GetTime", '{"zone": "UTC"}'))]
    with FakeLLMServer(script) as server:
        result = correct_result(
            openai_llm(server, [GetWeather, GetTime]), ASK, list[GetWeather | GetTime], parser=parser
        )
    assert result.value == [PARIS, GetTime(zone="UTC")] and len(server.received) == 1


def test_openai_arguments_cut_by_length_are_re_asked_with_the_cut_off_note(parser: Parser) -> None:
    cut = tool_calls(call("GetWeather", '{"city": "Par', id="call_cut"), finish_reason="length")
    with FakeLLMServer([cut, tool_calls(call("GetWeather", '{"city": "Paris"}'))]) as server:
        result = correct_result(openai_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    assert result.value == PARIS and result.attempts[0].error_kind == "truncated"
    (answer,) = tool_messages(server.received[1])
    assert answer["tool_call_id"] == "call_cut" and "cut off by the output length limit" in answer["content"]


def test_openai_429_after_a_readable_attempt_carries_the_attempts(parser: Parser) -> None:
    with (
        FakeLLMServer([tool_calls(call("GetWeather", '{"town": "Paris"}')), rate_limited()]) as server,
        pytest.raises(openai.RateLimitError) as info,
    ):
        correct_result(openai_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    attempts = info.value.attempts
    assert len(server.received) == 2
    assert [a.error_kind for a in attempts] == ["schema", "llm_error"]
    assert reported(attempts) == server.usage  # the first, as the provider reported it
    assert attempts[1].usage.estimated and attempts[1].usage.prompt_tokens > 0  # the 429'd request, estimated


def test_openai_usage_is_counted_on_every_request_even_unreadable_ones(parser: Parser) -> None:
    script = [unreadable_with_usage(), tool_calls(call("GetWeather", '{"city": "Paris"}'))]
    with FakeLLMServer(script) as server:
        result = correct_result(openai_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    assert [a.error_kind for a in result.attempts] == ["malformed_response", None]
    assert reported(result.attempts) == server.usage and len(server.usage) == 2
    assert result.tokens == server.tokens and not result.usage.estimated


# -- OpenAI, async ------------------------------------------------------------------------------------------------


def test_openai_async_client_re_asks_in_the_tool_shape(parser: Parser) -> None:
    async def run(server: FakeLLMServer) -> Any:
        client = openai.AsyncOpenAI(base_url=server.openai_url, api_key="k", max_retries=0, timeout=10)
        try:
            llm = OpenAIAdapter(client, model="gpt-test", tools=[GetWeather])
            return await acorrect_result(llm, ASK, GetWeather, parser=parser)
        finally:
            await client.close()

    script = [
        tool_calls(call("GetWeather", '{"town": "Paris"}', id="c1")),
        tool_calls(call("GetWeather", '{"city": "Paris"}')),
    ]
    with FakeLLMServer(script) as server:
        result = asyncio.run(run(server))
    assert result.value == PARIS and result.outcome == "corrected"
    (answer,) = tool_messages(server.received[1])
    assert answer["tool_call_id"] == "c1" and "/city" in answer["content"]
    assert reported(result.attempts) == server.usage


def test_openai_async_429_carries_the_attempts(parser: Parser) -> None:
    async def run(server: FakeLLMServer) -> Any:
        client = openai.AsyncOpenAI(base_url=server.openai_url, api_key="k", max_retries=0, timeout=10)
        try:
            return await acorrect_result(
                OpenAIAdapter(client, model="m", tools=[GetWeather]), ASK, GetWeather, parser=parser
            )
        finally:
            await client.close()

    with (
        FakeLLMServer([tool_calls(call("Nope", "{}")), rate_limited()]) as server,
        pytest.raises(openai.RateLimitError) as info,
    ):
        asyncio.run(run(server))
    assert [a.error_kind for a in info.value.attempts] == ["schema", "llm_error"]


# -- Anthropic ----------------------------------------------------------------------------------------------------


def anthropic_llm(server: FakeLLMServer, tools: list[Any], **options: Any) -> AnthropicAdapter:
    anthropic = pytest.importorskip("anthropic", reason="the anthropic extra is not installed")
    client = anthropic.Anthropic(base_url=server.base_url, api_key="k", max_retries=0, timeout=10)
    return AnthropicAdapter(client, model="claude-test", tools=tools, **options)


def test_anthropic_tool_use_is_read_and_answered_with_tool_result_blocks(parser: Parser) -> None:
    script = [
        tool_calls(call("GetWeather", '{"town": "Paris"}', id="toolu_1"), text="Let me check."),
        tool_calls(call("GetWeather", '{"city": "Paris"}')),
    ]
    with FakeLLMServer(script) as server:
        llm = anthropic_llm(server, [GetWeather], tool_choice="required")
        result = correct_result(llm, ASK, GetWeather, parser=parser)
    assert result.value == PARIS and result.outcome == "corrected"
    first, second = (r.body for r in server.received)
    assert first["system"] == "You call tools." and first["messages"] == ASK[1:]
    assert first["tools"][0]["name"] == "GetWeather" and "input_schema" in first["tools"][0]
    assert first["tool_choice"] == {"type": "any"}
    assert second["system"] == "You call tools."
    user, assistant, results = second["messages"]
    assert user == ASK[1] and assistant["role"] == "assistant" and results["role"] == "user"
    assert assistant["content"] == [
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "toolu_1", "name": "GetWeather", "input": {"town": "Paris"}},
    ]
    (block,) = results["content"]
    assert block["type"] == "tool_result" and block["tool_use_id"] == "toolu_1" and block["is_error"] is True
    assert "/city" in block["content"]
    assert reported(result.attempts) == server.usage


def test_anthropic_parallel_calls_and_a_wrong_tool(parser: Parser) -> None:
    script = [
        tool_calls(call("GetWeather", '{"city": "Paris"}', id="t1"), call("delete_city", "{}", id="t2")),
        tool_calls(call("GetWeather", '{"city": "Paris"}'), call("GetTime", '{"zone": "UTC"}')),
    ]
    with FakeLLMServer(script) as server:
        llm = anthropic_llm(server, [GetWeather, GetTime])
        result = correct_result(llm, ASK, list[GetWeather | GetTime], parser=parser)
    assert result.value == [PARIS, GetTime(zone="UTC")]
    results = server.received[1].body["messages"][-1]["content"]
    assert [b["tool_use_id"] for b in results] == ["t1", "t2"]
    assert "/1" in results[0]["content"] and "delete_city" in results[0]["content"]


def test_anthropic_max_tokens_inside_tool_input_is_refused_and_re_asked(parser: Parser) -> None:
    script = [
        tool_calls(call("GetWeather", '{"city": "Par"}', id="t1"), finish_reason="length"),
        tool_calls(call("GetWeather", '{"city": "Paris"}')),
    ]
    with FakeLLMServer(script) as server:
        result = correct_result(anthropic_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    assert result.value == PARIS and result.attempts[0].finish_reason == "max_tokens"
    assert result.attempts[0].error_kind == "truncated"
    block = server.received[1].body["messages"][-1]["content"][0]
    assert "cut off by the output length limit" in block["content"]


def test_anthropic_429_after_a_readable_attempt_and_unreadable_usage(parser: Parser) -> None:
    anthropic = pytest.importorskip("anthropic")
    script = [unreadable_with_usage(), tool_calls(call("GetWeather", '{"town": "Paris"}')), rate_limited()]
    with FakeLLMServer(script) as server, pytest.raises(anthropic.RateLimitError) as info:
        correct_result(anthropic_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    attempts = info.value.attempts
    assert [a.error_kind for a in attempts] == ["malformed_response", "schema", "llm_error"]
    assert reported(attempts) == server.usage and len(server.usage) == 2


def test_anthropic_an_empty_answer_never_sends_two_user_turns(parser: Parser) -> None:
    with FakeLLMServer([chat(""), tool_calls(call("GetWeather", '{"city": "Paris"}'))]) as server:
        correct_result(anthropic_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    roles = [m["role"] for m in server.received[1].body["messages"]]
    assert roles == ["user"]  # the feedback joined the user's turn as a second block
    assert len(server.received[1].body["messages"][0]["content"]) == 2


# -- LiteLLM ------------------------------------------------------------------------------------------------------


@pytest.fixture
def litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return pytest.importorskip("litellm", reason="the litellm extra is not installed")


def litellm_llm(server: FakeLLMServer, tools: list[Any]) -> LiteLLMAdapter:
    return LiteLLMAdapter("openai/gpt-test", tools=tools, api_base=server.openai_url, api_key="k", max_retries=0)


def test_litellm_tool_calls_repair_re_ask_and_count(litellm: Any, parser: Parser) -> None:
    script = [
        tool_calls(call("GetWeather", '{"town": "Paris"}', id="call_l1")),
        tool_calls(call("GetWeather", "{'city': 'Paris'}"), call("GetTime", '{"zone": "UTC"}')),
    ]
    with FakeLLMServer(script) as server:
        result = correct_result(
            litellm_llm(server, [GetWeather, GetTime]), ASK, list[GetWeather | GetTime], parser=parser
        )
    assert result.value == [PARIS, GetTime(zone="UTC")]
    first, second = server.received
    assert [t["function"]["name"] for t in first.body["tools"]] == ["GetWeather", "GetTime"]
    (answer,) = tool_messages(second)
    assert answer["tool_call_id"] == "call_l1"
    assert reported(result.attempts) == server.usage


def test_litellm_429_after_a_readable_attempt_carries_the_attempts(litellm: Any, parser: Parser) -> None:
    script = [tool_calls(call("GetWeather", '{"town": "Paris"}')), rate_limited()]
    with FakeLLMServer(script) as server, pytest.raises(litellm.RateLimitError) as info:
        correct_result(litellm_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    assert [a.error_kind for a in info.value.attempts] == ["schema", "llm_error"]
    assert len(server.received) == 2


def test_the_requests_carry_the_tools_as_json(parser: Parser) -> None:
    with FakeLLMServer([tool_calls(call("GetWeather", '{"city": "Paris"}'))]) as server:
        written = {"type": "function", "function": {"name": "GetWeather", "parameters": {"type": "object"}}}
        correct_result(openai_llm(server, [written]), ASK, GetWeather, parser=parser)
    assert json.loads(json.dumps(server.received[0].body["tools"])) == [written]


def test_litellm_async_reads_tool_calls_and_re_asks(litellm: Any, parser: Parser) -> None:
    script = [
        tool_calls(call("GetWether", '{"city": "Paris"}', id="call_a1")),
        tool_calls(call("GetWeather", '{"city": "Paris"}')),
    ]
    with FakeLLMServer(script) as server:
        result = asyncio.run(acorrect_result(litellm_llm(server, [GetWeather]), ASK, GetWeather, parser=parser))
    assert result.value == PARIS
    if parser.policy.name == "strict":  # the typo is refused: the call is answered and made again
        (answer,) = tool_messages(server.received[1])
        assert answer["tool_call_id"] == "call_a1" and "'GetWeather'" in answer["content"]
    else:  # a recorded lossy repair, no second call
        assert len(server.received) == 1 and result.repairs[0].kind == "enum_fuzzy"
    assert reported(result.attempts) == server.usage


# -- hostile bodies --------------------------------------------------------------------------------------------------

_DEEP = "[" * 200_000 + "]" * 200_000


def test_a_body_nested_deeper_than_the_sdk_can_decode_is_an_unreadable_reply(parser: Parser) -> None:
    body = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "x", "e": 0}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10},
    }
    deep = json.dumps(body).replace('"e": 0', '"e": ' + _DEEP).encode()
    with FakeLLMServer([Reply(body=deep), tool_calls(call("GetWeather", '{"city": "Paris"}'))]) as server:
        result = correct_result(openai_llm(server, [GetWeather]), ASK, GetWeather, parser=parser)
    assert result.value == PARIS and [a.error_kind for a in result.attempts] == ["malformed_response", None]


def test_an_anthropic_body_nested_too_deeply_is_an_unreadable_reply(parser: Parser) -> None:
    anthropic = pytest.importorskip("anthropic")
    block = {"type": "tool_use", "id": "t1", "name": "GetWeather", "input": {"city": "x", "e": 0}}
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": [block]}
    body |= {"stop_reason": "tool_use", "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 5}}
    deep = json.dumps(body).replace('"e": 0', '"e": ' + _DEEP).encode()
    with FakeLLMServer([Reply(body=deep), tool_calls(call("GetWeather", '{"city": "Paris"}'))]) as server:
        client = anthropic.Anthropic(base_url=server.base_url, api_key="k", max_retries=0, timeout=10)
        result = correct_result(AnthropicAdapter(client, model="m", tools=[GetWeather]), ASK, GetWeather, parser=parser)
    assert result.value == PARIS and [a.error_kind for a in result.attempts] == ["malformed_response", None]


def test_litellm_reports_a_broken_200_body_as_an_unreadable_reply_not_a_server_error(litellm: Any) -> None:
    script = [malformed(), tool_calls(call("GetWeather", '{"city": "Paris"}'))]
    with FakeLLMServer(script) as server:
        result = correct_result(litellm_llm(server, [GetWeather]), ASK, GetWeather)
    assert result.value == PARIS and [a.error_kind for a in result.attempts] == ["malformed_response", None]
    error = {"message": "boom", "type": "server_error", "param": None, "code": None}
    with FakeLLMServer([Reply(status=500, error=error)]) as server, pytest.raises(litellm.InternalServerError):
        correct_result(litellm_llm(server, [GetWeather]), ASK, GetWeather)  # a real 5xx stays the SDK's error
