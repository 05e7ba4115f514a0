"""The toolcalls plugin inside a plain `Parser`: found by entry point, `ToolCall` targets read from any vendor
format, and — bound to a registry — names and arguments checked, near-miss names repaired, the tools listed in
the feedback, and the correction loop driven to a valid call."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel
from rp_toolcalls import ToolCall, ToolCallsPlugin, ToolRegistry, call_model, default_plugin

from resilient_parse import AmbiguousMatchError, ParseError, Parser, SemanticCheckError
from resilient_parse.correction import ScriptedLLM, correct_result


class WeatherArgs(BaseModel):
    city: str
    unit: str = "c"


class NoArguments(BaseModel):
    pass


def make_registry() -> ToolRegistry:
    registry = ToolRegistry()
    registry.register("get_weather", "Current weather for a city", WeatherArgs)
    registry.register("get_time", "Current time", NoArguments)
    return registry


HERMES = 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
OPENAI = json.dumps(
    {
        "role": "assistant",
        "tool_calls": [
            {"id": "c1", "function": {"name": "get_weather", "arguments": '{"city": "Oslo",}'}},
            {"id": "c2", "function": {"name": "get_time", "arguments": "{}"}},
        ],
    }
)


def test_a_plain_parser_discovers_the_toolcalls_plugin_through_its_entry_point() -> None:
    parser = Parser()
    assert parser.host.pm.get_plugin("toolcalls") is default_plugin


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HERMES, ToolCall(name="get_weather", arguments={"city": "Paris"})),
        ('[TOOL_CALLS]get_weather[ARGS]{"city": "Lima"}', ToolCall(name="get_weather", arguments={"city": "Lima"})),
        (
            '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Cairo"}}<|eom_id|>',
            ToolCall(name="get_weather", arguments={"city": "Cairo"}),
        ),
        (
            'Thought: weather\nAction: get_weather\nAction Input: {"city": "Berlin"}\n',
            ToolCall(name="get_weather", arguments={"city": "Berlin"}),
        ),
        (
            '{"content": [{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Rome"}}]}',
            ToolCall(name="get_weather", arguments={"city": "Rome"}, id="t1"),
        ),
    ],
)
def test_a_tool_call_target_is_read_from_every_vendor_format(text: str, expected: ToolCall) -> None:
    assert Parser().parse(text, ToolCall) == expected


def test_several_calls_fill_a_list_target_and_a_broken_arguments_string_is_repaired() -> None:
    result = Parser().parse_result(OPENAI, list[ToolCall])
    assert result.value == [
        ToolCall(name="get_weather", arguments={"city": "Oslo"}, id="c1"),
        ToolCall(name="get_time", arguments={}, id="c2"),
    ]
    assert ("trailing_comma", "/arguments") in {(r.kind, r.path[:10]) for r in result.repairs}


def test_two_clean_calls_for_a_single_call_target_are_ambiguous_not_a_coin_toss() -> None:
    text = '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "A"}}, {"name": "get_time", "arguments": {}}]'
    with pytest.raises(AmbiguousMatchError):
        Parser().parse(text, ToolCall)


def test_blocking_the_plugin_leaves_vendor_formats_to_the_core() -> None:
    with pytest.raises(ParseError):
        Parser(blocked_plugins=["toolcalls"]).parse('[TOOL_CALLS]get_weather[ARGS]{"city": "Lima"}', ToolCall)


def test_a_bound_plugin_rejects_unknown_tools_and_bad_arguments_with_paths() -> None:
    parser = Parser(plugins=[ToolCallsPlugin(make_registry())])
    with pytest.raises(SemanticCheckError) as info:
        parser.parse('{"name": "send_email", "arguments": {}}', ToolCall)
    assert info.value.errors[0]["path"] == "/name" and info.value.errors[0]["kind"] == "unknown_tool"
    with pytest.raises(SemanticCheckError) as info:
        parser.parse('{"name": "get_weather", "arguments": {"town": "Paris"}}', ToolCall)
    assert info.value.errors[0]["path"] == "/arguments/city"


def test_with_the_restricted_call_model_a_near_miss_name_is_repaired() -> None:
    registry = make_registry()
    parser = Parser(plugins=[ToolCallsPlugin(registry)])
    result = parser.parse_result('{"name": "GetWeather", "arguments": {"city": "Paris"}}', call_model(registry.names))
    assert result.value.name == "get_weather"
    assert [(r.kind, r.path) for r in result.repairs] == [("tool_name_style", "/name")]


def test_the_feedback_lists_the_available_tools() -> None:
    parser = Parser(plugins=[ToolCallsPlugin(make_registry())])
    with pytest.raises(ParseError) as info:
        parser.parse('{"name": "send_email", "arguments": {}}', ToolCall)
    text = parser.feedback(info.value, ToolCall)
    assert "The available tools (call only these, by their exact names):" in text
    assert "- get_weather: Current weather for a city" in text


def test_the_correction_loop_turns_an_unknown_tool_into_a_valid_call() -> None:
    parser = Parser(plugins=[ToolCallsPlugin(make_registry())])
    llm = ScriptedLLM(
        [
            '<tool_call>{"name": "weather_lookup", "arguments": {"city": "Paris"}}</tool_call>',
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
        ]
    )
    messages = [{"role": "user", "content": "Weather in Paris?"}]
    result = correct_result(llm, messages, ToolCall, parser=parser)
    assert result.outcome == "corrected"
    assert result.value == ToolCall(name="get_weather", arguments={"city": "Paris"})
    assert "there is no tool named 'weather_lookup'" in llm.calls[1][-1]["content"]


def test_targets_without_tool_calls_are_not_touched() -> None:
    class Person(BaseModel):
        name: str
        arguments: list[str]

    text = '<tool_call>{"name": "Ada", "arguments": ["x"]}</tool_call>'
    assert Parser().parse(text, Person) == Person(name="Ada", arguments=["x"])


class SecretArgs(BaseModel):
    query: str
    api_key: str = "sk-live-DO-NOT-LEAK"


def test_the_feedback_lists_tools_without_their_default_values() -> None:
    """Issue 13 (r13): a tool argument's default may be a secret; the model sees the schema's shape only."""
    registry = ToolRegistry()
    registry.register("search", "Search the web", SecretArgs)
    parser = Parser(plugins=[ToolCallsPlugin(registry)])
    with pytest.raises(ParseError) as info:
        parser.parse('{"name": "send_email", "arguments": {}}', ToolCall)
    text = parser.feedback(info.value, ToolCall)
    assert "- search: Search the web" in text and '"api_key"' in text
    assert "sk-live-DO-NOT-LEAK" not in text
