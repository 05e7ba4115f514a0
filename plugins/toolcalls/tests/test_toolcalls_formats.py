"""Tool calls found in the formats models emit, several per output, in order; drafts in reasoning ignored."""

from __future__ import annotations

from typing import Any

import pytest
from rp_toolcalls import extract_calls, python_call

from resilient_parse import Parser

PARSER = Parser(entrypoints=False)


def found(text: str) -> list[tuple[str, Any, Any]]:
    return [(c.format, c.name, c.arguments) for c in extract_calls(text, PARSER)]


def test_openai_tool_calls_with_arguments_as_a_json_string() -> None:
    text = """{"role": "assistant", "content": null, "tool_calls": [
      {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\\"city\\": \\"Paris\\"}"}},
      {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}"""
    calls = extract_calls(text, PARSER)
    assert [(c.format, c.name, c.arguments, c.id) for c in calls] == [
        ("openai", "weather", '{"city": "Paris"}', "call_1"),
        ("openai", "get_time", "{}", "call_2"),
    ]


def test_a_whole_chat_completion_response_and_the_legacy_function_call() -> None:
    response = '{"choices": [{"message": {"tool_calls": [{"function": {"name": "a", "arguments": "{}"}}]}}]}'
    legacy = '{"role": "assistant", "function_call": {"name": "b", "arguments": "{\\"x\\": 1}"}}'
    assert found(response) == [("openai", "a", "{}")]
    assert found(legacy) == [("openai", "b", '{"x": 1}')]


def test_anthropic_tool_use_blocks_among_text_blocks() -> None:
    text = """{"role": "assistant", "content": [
      {"type": "text", "text": "Checking both."},
      {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}},
      {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Rome"}}]}"""
    assert found(text) == [
        ("anthropic", "get_weather", {"city": "Oslo"}),
        ("anthropic", "get_weather", {"city": "Rome"}),
    ]


def test_hermes_and_qwen_tool_call_tags_even_with_the_last_one_unclosed() -> None:
    text = (
        "I'll look both up.\n"
        '<tool_call>\n{"name": "search", "arguments": {"q": "pluggy"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "search", "arguments": {"q": "pydantic"}}'
    )
    assert found(text) == [("hermes", "search", {"q": "pluggy"}), ("hermes", "search", {"q": "pydantic"})]


def test_mistral_tool_calls_as_a_list_and_in_the_name_args_form() -> None:
    listed = '[TOOL_CALLS][{"name": "search", "arguments": {"q": "a"}}, {"name": "get_time", "arguments": {}}]'
    named = '[TOOL_CALLS]search[ARGS]{"q": "b"}[TOOL_CALLS]get_time[ARGS]{}'
    assert found(listed) == [("mistral", "search", {"q": "a"}), ("mistral", "get_time", {})]
    assert found(named) == [("mistral", "search", {"q": "b"}), ("mistral", "get_time", {})]


def test_llama3_python_tag_with_json_and_with_a_builtin_call() -> None:
    as_json = '<|python_tag|>{"name": "search", "parameters": {"q": "llama"}}<|eom_id|>'
    builtin = '<|python_tag|>brave_search.call(query="weather in Lyon")<|eom_id|>'
    assert found(as_json) == [("llama", "search", {"q": "llama"})]
    assert found(builtin) == [("llama", "brave_search", {"query": "weather in Lyon"})]


def test_llama3_bare_json_with_parameters() -> None:
    assert found('{"name": "search", "parameters": {"q": "x"}}') == [("llama", "search", {"q": "x"})]


def test_react_action_and_action_input_pairs() -> None:
    text = (
        "Thought: I need the weather first.\n"
        "Action: get_weather\n"
        'Action Input: {"city": "Berlin"}\n'
        "Observation: 12 C\n"
        "Thought: now search\n"
        "Action: search\n"
        "Action Input: best bakery in Berlin\n"
    )
    assert found(text) == [("react", "get_weather", {"city": "Berlin"}), ("react", "search", "best bakery in Berlin")]


def test_react_final_answer_is_not_a_call() -> None:
    assert found("Thought: done\nAction: Final Answer\nAction Input: 42\n") == []


@pytest.mark.parametrize(
    ("text", "name", "arguments"),
    [
        ('{"action": "search", "action_input": {"q": "a"}}', "search", {"q": "a"}),
        ('{"tool": "search", "args": {"q": "b"}}', "search", {"q": "b"}),
        ('{"name": "search", "arguments": {"q": "c"}}', "search", {"q": "c"}),
        ('{"tool": "get_time"}', "get_time", None),
    ],
)
def test_plain_json_calls_with_the_usual_key_names(text: str, name: str, arguments: Any) -> None:
    assert found(text) == [("json", name, arguments)]


def test_json_that_is_data_not_a_call_is_ignored() -> None:
    assert found('{"name": "Ada Lovelace", "born": 1815}') == []


def test_a_list_of_plain_calls_in_a_fence_keeps_its_order() -> None:
    text = 'Here:\n```json\n[{"tool": "a", "args": {}}, {"tool": "b", "args": {}}]\n```'
    assert [name for _, name, _ in found(text)] == ["a", "b"]


def test_broken_json_around_a_call_is_repaired_and_the_repairs_travel_with_it() -> None:
    calls = extract_calls("{'tool': 'search', 'args': {'q': 'x',},}", PARSER)
    assert [(c.name, c.arguments) for c in calls] == [("search", {"q": "x"})]
    assert {"single_quotes", "trailing_comma"} <= {r.kind for r in calls[0].repairs}


def test_a_draft_call_inside_reasoning_is_ignored() -> None:
    text = '<think>maybe {"tool": "delete_all", "args": {}}</think>\n{"tool": "search", "args": {"q": "x"}}'
    assert found(text) == [("json", "search", {"q": "x"})]


def test_an_unreadable_tag_body_is_reported_not_dropped() -> None:
    calls = extract_calls("<tool_call>not json at all</tool_call>", Parser(mode="strict", entrypoints=False))
    assert len(calls) == 1 and calls[0].error is not None


def test_python_call_reads_literals_and_never_evaluates() -> None:
    assert python_call('search.call(q="x", n=3)') == ("search", {"q": "x", "n": 3})
    assert python_call('search(q=__import__("os").system("echo hi"))') is None
    assert python_call("search(1, 2)") is None


def test_braces_in_prose_are_not_a_broken_call() -> None:
    assert found("Use a set like {1, 2 or a dict {'a': 1 to group them.") == []


def test_a_broken_value_that_looks_like_a_call_is_reported() -> None:
    calls = extract_calls('{"tool": "search", "args": {"q": "x" "y"', Parser(mode="strict", entrypoints=False))
    assert len(calls) == 1 and calls[0].error is not None


def test_hostile_nesting_is_refused_quickly() -> None:
    calls = extract_calls('{"tool": ' + "[" * 100_000, PARSER)
    assert len(calls) == 1 and "nested too deeply" in (calls[0].error or "")
