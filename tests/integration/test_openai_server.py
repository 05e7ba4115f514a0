"""The adapters with the real `openai` (and `anthropic`) SDK clients, against a local OpenAI-compatible HTTP server
started by the test: no network, no mocks between the SDK and the loop."""

from __future__ import annotations

import asyncio
import socket
from typing import Any, Literal

import pytest
from fixtures.fake_openai_server import FakeLLMServer, chat, malformed, quota_exhausted, rate_limited, refusal
from pydantic import BaseModel

from resilient_parse import Parser
from resilient_parse.correction import (
    AnthropicAdapter,
    ModelRefusedError,
    OpenAIAdapter,
    QuotaExhaustedError,
    acorrect_result,
    correct_result,
)

openai = pytest.importorskip("openai", reason="the openai extra is not installed")


class Step(BaseModel):
    id: int
    action: Literal["search", "summarize", "email"]


class Plan(BaseModel):
    goal: str
    steps: list[Step]


GOOD = '{"goal": "g", "steps": [{"id": 1, "action": "search"}]}'
BAD_ENUM = '{"goal": "g", "steps": [{"id": 1, "action": "teleport"}]}'
ASK = [{"role": "system", "content": "You plan."}, {"role": "user", "content": "Plan a literature search."}]


@pytest.fixture
def parser() -> Parser:
    return Parser(entrypoints=False)


def client_for(server: FakeLLMServer) -> Any:
    return openai.OpenAI(base_url=server.openai_url, api_key="test-key", max_retries=0, timeout=10)


def test_corrects_through_the_real_client_and_survives_a_malformed_body(parser: Parser) -> None:
    with FakeLLMServer([chat(BAD_ENUM), malformed(), chat(GOOD)]) as server:
        llm = OpenAIAdapter(client_for(server), model="gpt-test")
        result = correct_result(llm, ASK, Plan, parser=parser)
    assert result.value == Plan(goal="g", steps=[Step(id=1, action="search")])
    assert [a.error_kind for a in result.attempts] == ["schema", "malformed_response", None]
    assert [r.path for r in server.received] == ["/v1/chat/completions"] * 3
    first, second, third = (r.body["messages"] for r in server.received)
    assert first == ASK
    assert second[:2] == ASK and second[2] == {"role": "assistant", "content": BAD_ENUM}
    assert "/steps/0/action" in second[3]["content"]
    assert third == second  # the garbled answer said nothing new: the same request again


def test_usage_comes_from_the_response(parser: Parser) -> None:
    with FakeLLMServer([chat(BAD_ENUM), chat(GOOD)]) as server:
        result = correct_result(OpenAIAdapter(client_for(server), model="gpt-test"), ASK, Plan, parser=parser)
    reported = [(a.usage.prompt_tokens, a.usage.completion_tokens) for a in result.attempts if a.usage]
    assert reported == server.usage
    assert result.tokens == server.tokens
    assert not result.usage.estimated
    assert all(a.model == "gpt-test" and a.adapter == "openai" for a in result.attempts)


def test_quota_exhausted_stops_at_once(parser: Parser) -> None:
    with (
        FakeLLMServer([chat(BAD_ENUM), quota_exhausted(), chat(GOOD)]) as server,
        pytest.raises(QuotaExhaustedError) as info,
    ):
        correct_result(OpenAIAdapter(client_for(server), model="gpt-test"), ASK, Plan, parser=parser)
    assert len(server.received) == 2
    assert isinstance(info.value.__cause__, openai.RateLimitError)
    assert [a.error_kind for a in info.value.attempts] == ["schema", "quota_exhausted"]


def test_a_plain_rate_limit_is_re_raised_as_the_sdk_error(parser: Parser) -> None:
    with FakeLLMServer([rate_limited()]) as server, pytest.raises(openai.RateLimitError):
        correct_result(OpenAIAdapter(client_for(server), model="gpt-test"), ASK, Plan, parser=parser)


def test_a_network_error_is_re_raised_as_the_sdk_error(parser: Parser) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="k", max_retries=0, timeout=5)
    with pytest.raises(openai.APIConnectionError):
        correct_result(OpenAIAdapter(client, model="gpt-test"), ASK, Plan, parser=parser)


def test_json_mode_is_sent_only_when_asked(parser: Parser) -> None:
    with FakeLLMServer([chat(GOOD), chat(GOOD)]) as server:
        correct_result(OpenAIAdapter(client_for(server), model="m", json_mode=True), ASK, Plan, parser=parser)
        correct_result(OpenAIAdapter(client_for(server), model="m", temperature=0), ASK, Plan, parser=parser)
    with_json, plain = (r.body for r in server.received)
    assert with_json["response_format"] == {"type": "json_object"}
    assert "response_format" not in plain and plain["temperature"] == 0


def test_a_refusal_field_stops_the_loop(parser: Parser) -> None:
    with FakeLLMServer([refusal("I can't help with that."), chat(GOOD)]) as server, pytest.raises(ModelRefusedError):
        correct_result(OpenAIAdapter(client_for(server), model="m"), ASK, Plan, parser=parser)
    assert len(server.received) == 1


def test_the_async_client_with_acorrect(parser: Parser) -> None:
    async def run(server: FakeLLMServer) -> Any:
        client = openai.AsyncOpenAI(base_url=server.openai_url, api_key="k", max_retries=0, timeout=10)
        try:
            return await acorrect_result(OpenAIAdapter(client, model="gpt-test"), ASK, Plan, parser=parser)
        finally:
            await client.close()

    with FakeLLMServer([chat(BAD_ENUM), malformed(), chat(GOOD)]) as server:
        result = asyncio.run(run(server))
    assert result.outcome == "corrected"
    assert [a.error_kind for a in result.attempts] == ["schema", "malformed_response", None]
    # issue 15: the garbled reply is counted too, as an estimate (its body said nothing); the others as reported
    reported = [a for a in result.attempts if a.usage is not None and not a.usage.estimated]
    assert len(reported) == 2 and sum(a.tokens for a in reported) == server.tokens
    assert result.attempts[1].usage is not None and result.attempts[1].usage.estimated
    assert result.usage.estimated and result.tokens > server.tokens


def test_the_anthropic_sdk_against_the_same_server(parser: Parser) -> None:
    anthropic = pytest.importorskip("anthropic", reason="the anthropic extra is not installed")
    with FakeLLMServer([chat(BAD_ENUM), chat(GOOD)]) as server:
        client = anthropic.Anthropic(base_url=server.base_url, api_key="k", max_retries=0, timeout=10)
        result = correct_result(AnthropicAdapter(client, model="claude-test"), ASK, Plan, parser=parser)
    assert result.outcome == "corrected"
    first = server.received[0]
    assert first.path == "/v1/messages"
    assert first.body["system"] == "You plan." and first.body["messages"] == ASK[1:]
    assert result.tokens == server.tokens
