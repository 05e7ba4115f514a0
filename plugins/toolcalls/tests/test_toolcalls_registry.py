"""The registry: tools registered three ways, and the manifest / OpenAI / Anthropic definitions built from them;
names matched only against registered tools; arguments through the full resilient pipeline."""

from __future__ import annotations

import json
from typing import Literal

import pytest
from pydantic import BaseModel, Field
from rp_toolcalls import INPUT_INVALID, ToolRegistry

from resilient_parse import ConfigurationError, Parser


class SearchArgs(BaseModel):
    query: str = Field(description="What to search for")
    max_results: int = 5


class TimeArgs(BaseModel):
    timezone: str = "UTC"


def make_registry() -> ToolRegistry:
    registry = ToolRegistry()

    @registry.tool(description="Current weather for a city")
    def get_weather(city: str, unit: Literal["c", "f"] = "c") -> dict[str, object]:
        return {"city": city, "unit": unit}

    @registry.tool()
    def web_search(args: SearchArgs) -> list[str]:
        """Search the web."""
        return [args.query]

    registry.register("get_time", "The current time in a time zone", TimeArgs)
    return registry


def test_tools_take_their_names_descriptions_and_argument_models_from_the_registration() -> None:
    registry = make_registry()
    assert registry.names == ["get_weather", "web_search", "get_time"]
    weather = registry.get("get_weather")
    assert weather is not None and not weather.pass_model
    assert set(weather.args_model.model_fields) == {"city", "unit"}
    search = registry.get("web_search")
    assert search is not None and search.args_model is SearchArgs and search.description == "Search the web."


def test_the_manifest_carries_the_json_schema_of_the_arguments() -> None:
    entry = make_registry().manifest()[0]
    assert entry["name"] == "get_weather"
    assert entry["parameters"]["required"] == ["city"]
    assert entry["parameters"]["properties"]["unit"]["enum"] == ["c", "f"]


def test_openai_and_anthropic_definitions_share_the_schema() -> None:
    registry = make_registry()
    openai = registry.openai_tools()[1]
    anthropic = registry.anthropic_tools()[1]
    assert openai == {
        "type": "function",
        "function": {"name": "web_search", "description": "Search the web.", "parameters": anthropic["input_schema"]},
    }
    assert anthropic["name"] == "web_search"
    assert anthropic["input_schema"]["properties"]["query"]["description"] == "What to search for"


def test_the_prompt_lists_every_tool_and_the_call_format() -> None:
    prompt = make_registry().prompt()
    assert "- get_weather: Current weather for a city" in prompt
    assert '{"tool": "<name>", "arguments": {...}}' in prompt


def test_registration_mistakes_are_configuration_errors() -> None:
    registry = make_registry()
    with pytest.raises(ConfigurationError):
        registry.register("get_weather", "again", SearchArgs)
    with pytest.raises(ConfigurationError):
        registry.register("has space", "bad name", SearchArgs)
    with pytest.raises(ConfigurationError):
        registry.register("no_model", "nothing to build a model from")
    with pytest.raises(ConfigurationError):
        ToolRegistry(default_timeout=0)


# -- names ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "kind"),
    [
        ("GetWeather", "tool_name_style"),
        ("get-weather", "tool_name_style"),
        ("Get Weather", "tool_name_style"),
        ("functions.get_weather", "tool_name_prefix"),
    ],
)
def test_a_name_written_another_way_is_the_registered_tool(written: str, kind: str) -> None:
    # the core's one name rule (`plugin_api.how_named`): the same as text envelopes and native calls
    [call] = make_registry().parse(f'{{"tool": "{written}", "args": {{"city": "Oslo"}}}}')
    assert call.ok and call.tool == "get_weather"
    assert [(r.kind, r.before, r.after) for r in call.repairs] == [(kind, written, "get_weather")]


def test_a_misspelled_name_with_a_clear_margin_is_matched_fuzzily() -> None:
    [call] = make_registry().parse('{"tool": "web_serch", "args": {"query": "x"}}')
    assert call.tool == "web_search"
    assert [(r.kind, r.before, r.after) for r in call.repairs] == [("enum_fuzzy", "web_serch", "web_search")]


def test_an_unknown_tool_is_an_input_error_listing_the_tools_never_a_new_tool() -> None:
    [call] = make_registry().parse('{"tool": "send_email", "args": {"to": "x"}}')
    assert call.tool is None and not call.ok
    assert call.error is not None and (call.error.kind, call.error.code) == (INPUT_INVALID, "unknown_tool")
    assert "Available tools: get_weather, web_search, get_time" in (call.error.feedback or "")


def test_a_name_equally_close_to_two_tools_is_not_guessed() -> None:
    registry = ToolRegistry()
    registry.register("read_file", "read", SearchArgs)
    registry.register("read_fil3", "read too", SearchArgs)
    [call] = registry.parse('{"tool": "read_fila", "args": {"query": "x"}}')
    assert call.error is not None and call.error.code == "unknown_tool"


def test_strict_mode_accepts_a_name_in_another_style_but_no_prefix_or_typo() -> None:
    strict = Parser(mode="strict")
    [call] = make_registry().parse('{"tool": "GetWeather", "args": {"city": "Oslo"}}', parser=strict)
    assert call.ok and call.tool == "get_weather"
    for written in ("functions.get_weather", "get_wether"):
        [call] = make_registry().parse(f'{{"tool": "{written}", "args": {{"city": "Oslo"}}}}', parser=strict)
        assert call.error is not None and call.error.code == "unknown_tool"


# -- arguments --------------------------------------------------------------------------------------------------


def test_broken_openai_arguments_are_repaired_and_the_repairs_are_under_arguments() -> None:
    arguments = "{'city': 'Oslo', 'Unit': 'F',}"
    text = json.dumps({"tool_calls": [{"id": "c1", "function": {"name": "get_weather", "arguments": arguments}}]})
    [call] = make_registry().parse(text)
    assert call.ok and call.id == "c1"
    assert call.arguments is not None and call.arguments.model_dump() == {"city": "Oslo", "unit": "f"}
    paths = {(r.kind, r.path) for r in call.repairs}
    assert ("key_case", "/arguments/Unit") in paths
    assert ("enum_value", "/arguments/unit") in paths


def test_arguments_that_do_not_fit_are_an_input_error_with_paths_and_feedback() -> None:
    [call] = make_registry().parse('{"tool": "get_weather", "args": {"unit": "kelvin"}}')
    assert call.error is not None and call.error.code == "invalid_arguments"
    assert {e["path"] for e in call.error.errors} >= {"/arguments/city"}
    feedback = call.error.feedback or ""
    assert "Your call to the tool 'get_weather' has invalid arguments:" in feedback
    assert '"required": ["city"]' in feedback


def test_a_lone_string_is_the_only_required_argument() -> None:
    [call] = make_registry().parse("Action: web_search\nAction Input: cheap flights to Lisbon\n")
    assert call.arguments == SearchArgs(query="cheap flights to Lisbon")
    assert [r.kind for r in call.repairs] == ["wrap_single_argument"]


def test_a_lone_string_for_a_tool_with_two_required_arguments_is_an_error() -> None:
    registry = ToolRegistry()

    @registry.tool(description="Move a file")
    def move(src: str, dst: str) -> None: ...

    [call] = registry.parse("Action: move\nAction Input: a.txt to b.txt\n")
    assert call.error is not None and call.error.code == "invalid_arguments"


def test_an_output_without_a_call_gives_no_calls() -> None:
    assert make_registry().parse("The capital of France is Paris.") == []
