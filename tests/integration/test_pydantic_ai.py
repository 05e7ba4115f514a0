"""The pydantic-ai integration with the real package and its own fake models (`FunctionModel`, `TestModel`):
broken output repaired in one run, unrecoverable output retried with our feedback, usage counted by pydantic-ai."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import Parser

pytest.importorskip("pydantic_ai", reason="the pydantic-ai extra is not installed")

from pydantic_ai import (
    Agent,
    ModelRequest,
    ModelResponse,
    PromptedOutput,
    TextPart,
    ToolCallPart,
    ToolOutput,
    UnexpectedModelBehavior,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from resilient_parse.integrations.pydantic_ai import ResilientOutput, text_output


class GetWeather(BaseModel):
    """Current weather for a city."""

    city: str
    unit: Literal["c", "f"] = "c"


class SendEmail(BaseModel):
    to: str
    body: str


class Script:
    """A `FunctionModel` function answering with scripted tool calls (or text), recording what it was sent."""

    def __init__(self, *replies: tuple[str | None, str]) -> None:
        self.replies: Iterator[tuple[str | None, str]] = iter(replies)
        self.seen: list[list[Any]] = []

    def __call__(self, messages: list[Any], info: AgentInfo) -> ModelResponse:
        self.seen.append(list(messages))
        tool, said = next(self.replies)
        if tool is None:
            return ModelResponse(parts=[TextPart(said)])
        name = info.output_tools[0].name if tool == "" else tool
        return ModelResponse(parts=[ToolCallPart(name, said, tool_call_id=f"call_{len(self.seen)}")])


def _agent(script: Script, output_type: Any, **options: Any) -> Agent[None, Any]:
    return Agent(FunctionModel(script), output_type=output_type, capabilities=[ResilientOutput(**options)])


def _retry_prompts(script: Script) -> list[str]:
    """What pydantic-ai sent back to the model after its first answer (tool returns, retry parts, or a user turn
    for text output), in order."""
    said: list[str] = []
    for message in script.seen[-1][1:]:
        if isinstance(message, ModelRequest):
            said += [
                str(p.content) for p in message.parts if p.part_kind in ("tool-return", "retry-prompt", "user-prompt")
            ]
    return said


def test_broken_tool_arguments_are_repaired_in_one_request_with_usage_counted() -> None:
    script = Script(("", "{'city': 'Paris', unit: 'F',}"))
    result = _agent(script, GetWeather).run_sync("Weather in Paris?")
    assert result.output == GetWeather(city="Paris", unit="f")
    assert result.usage.requests == 1 and result.usage.input_tokens > 0 and result.usage.output_tokens > 0


def test_without_the_capability_the_same_answer_is_not_accepted() -> None:
    script = Script(("", "{'city': 'Paris', unit: 'F',}"), ("", "{'city': 'Paris', unit: 'F',}"))
    with pytest.raises(UnexpectedModelBehavior):
        Agent(FunctionModel(script), output_type=GetWeather).run_sync("Weather in Paris?")


def test_an_unrecoverable_answer_is_retried_with_our_feedback_then_succeeds() -> None:
    script = Script(("", '{"town": "Paris", "unit": "kelvin"}'), ("", '{"city": "Paris"}'))
    result = _agent(script, GetWeather).run_sync("Weather in Paris?")
    assert result.output == GetWeather(city="Paris")
    feedback = _retry_prompts(script)
    assert len(feedback) == 1 and "/city" in feedback[0] and "/unit" in feedback[0]
    # the answer was a tool call, and the prompt goes back as its tool return: call the tool again, not "reply JSON"
    assert feedback[0].rstrip().endswith("Call the tool again with the complete corrected arguments.")
    assert "no code fences" not in feedback[0]
    responses = [m for m in result.all_messages() if isinstance(m, ModelResponse)]
    assert result.usage.requests == 2 == len(responses)
    assert result.usage.input_tokens == sum(r.usage.input_tokens for r in responses)


def test_strict_mode_refuses_a_lossy_repair_and_asks_again() -> None:
    script = Script(("", '{"city": "Paris", "unit": "F"}'), ("", '{"city": "Paris", "unit": "f"}'))
    result = _agent(script, GetWeather, parser=Parser(mode="strict", entrypoints=False)).run_sync("?")
    assert result.output == GetWeather(city="Paris", unit="f") and result.usage.requests == 2
    assert "/unit" in _retry_prompts(script)[0]


def test_each_output_tool_repairs_into_its_own_type() -> None:
    outputs = [ToolOutput(GetWeather, name="get_weather"), ToolOutput(SendEmail, name="send_email")]
    script = Script(("send_email", "{'To': 'a@b.c', 'body': 'hi'}"))
    assert _agent(script, outputs).run_sync("mail").output == SendEmail(to="a@b.c", body="hi")


def test_scalar_output_and_output_functions_are_repaired_against_the_schema_the_model_was_shown() -> None:
    assert _agent(Script(("", '{"response": "42",}')), int).run_sync("?").output == 42

    def send(to: str, body: str) -> str:
        return f"sent to {to}"

    assert _agent(Script(("", "{'to': 'a@b.c', 'body': 'x',}")), ToolOutput(send)).run_sync("?").output == (
        "sent to a@b.c"
    )


def test_prompted_output_with_prose_and_a_syntax_slip_is_repaired() -> None:
    script = Script((None, 'Sure! {"city": "Oslo", unit: "c",} Hope that helps.'))
    result = _agent(script, PromptedOutput(GetWeather)).run_sync("?")
    assert result.output == GetWeather(city="Oslo", unit="c") and result.usage.requests == 1


def test_a_valid_answer_from_test_model_passes_through_unchanged() -> None:
    agent = Agent(TestModel(), output_type=GetWeather, capabilities=[ResilientOutput()])
    plain = Agent(TestModel(), output_type=GetWeather)
    assert agent.run_sync("?").output == plain.run_sync("?").output


def test_text_output_repairs_plain_text_and_retries_with_feedback_when_it_cannot() -> None:
    repaired = Script((None, 'It is {"city": "Lima",} ok'))
    result = Agent(FunctionModel(repaired), output_type=text_output(GetWeather)).run_sync("?")
    assert result.output == GetWeather(city="Lima") and result.usage.requests == 1

    retried = Script((None, "no idea, sorry"), (None, '{"city": "Lima"}'))
    result = Agent(FunctionModel(retried), output_type=text_output(GetWeather)).run_sync("?")
    assert result.output == GetWeather(city="Lima") and result.usage.requests == 2
    assert "no '{' or '[' starts a JSON value" in _retry_prompts(retried)[0]


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_key_written_twice_with_two_values_is_retried_not_read_as_the_last(mode: str) -> None:
    # pydantic-ai's own validation accepts this as Rome; which city the model meant is unknown.
    script = Script(("", '{"city": "Paris", "city": "Rome"}'), ("", '{"city": "Oslo"}'))
    result = _agent(script, GetWeather, mode=mode).run_sync("Weather?")
    assert result.output == GetWeather(city="Oslo") and result.usage.requests == 2
    feedback = _retry_prompts(script)
    assert len(feedback) == 1 and "/city" in feedback[0] and "Paris" in feedback[0] and "Rome" in feedback[0]


def test_a_key_written_twice_with_one_value_is_read_in_one_request() -> None:
    script = Script(("", '{"city": "Paris", "unit": "f", "city": "Paris"}'))
    assert _agent(script, GetWeather).run_sync("?").output == GetWeather(city="Paris", unit="f")
    assert len(script.seen) == 1


def test_a_key_written_twice_in_prompted_output_is_retried() -> None:
    script = Script((None, '{"city": "Paris", "city": "Rome"}'), (None, '{"city": "Oslo"}'))
    assert _agent(script, PromptedOutput(GetWeather)).run_sync("?").output == GetWeather(city="Oslo")
    assert len(script.seen) == 2
