"""Tool calls as answers (issue 15): reading calls into argument models, the re-ask that answers a call, and the
budgets and events that count every request. Scripted models only; the real SDKs are in
tests/integration/test_tool_call_sdks.py."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
from typing import Annotated, Any, ClassVar

import pytest
from pydantic import BaseModel, ConfigDict, Field, create_model
from typing_extensions import TypedDict

from resilient_parse import Parser
from resilient_parse.correction import (
    Completion,
    FunctionAdapter,
    MalformedResponseError,
    ScriptedLLM,
    ToolCall,
    Usage,
    anthropic_tools,
    as_adapter,
    correct_result,
    openai_tools,
    read_tool_calls,
    tool_name,
)
from resilient_parse.correction.loop import MAX_ECHO_CHARS, schema_instruction
from resilient_parse.correction.tool_calls import read_reply_calls
from resilient_parse.errors import (
    AmbiguousMatchError,
    ConfigurationError,
    CorrectionsExhaustedError,
    ErrorDetail,
    NoCandidateError,
    ParseError,
    SchemaMismatchError,
    TruncatedOutputError,
)
from resilient_parse.llm.anthropic import completion_from_anthropic
from resilient_parse.llm.openai import completion_from_openai
from resilient_parse.llm.tool_followups import anthropic_tool_followup, openai_tool_followup
from resilient_parse.plugin_api import Event, hookimpl


class GetWeather(BaseModel):
    """The weather forecast for a city."""

    city: str
    days: int = 1


class GetTime(BaseModel):
    zone: str


class Lookup(BaseModel):
    city: str


class Search(BaseModel):
    city: str


ASK = [{"role": "system", "content": "You call tools."}, {"role": "user", "content": "Weather in Paris?"}]


@pytest.fixture(params=["lenient", "strict"])
def parser(request: pytest.FixtureRequest) -> Parser:
    return Parser(mode=request.param, entrypoints=False)


@pytest.fixture
def lenient() -> Parser:
    return Parser(mode="lenient", entrypoints=False)


@pytest.fixture
def strict() -> Parser:
    return Parser(mode="strict", entrypoints=False)


def calls(*pairs: tuple[str, str], finish_reason: str = "tool_calls") -> Completion:
    return Completion(
        text="",
        tool_calls=tuple(ToolCall(n, a, id=f"call_{i}", index=i) for i, (n, a) in enumerate(pairs)),
        finish_reason=finish_reason,
    )


# -- reading calls ------------------------------------------------------------------------------------------------


def test_broken_arguments_are_repaired_in_both_modes(parser: Parser) -> None:
    result = read_tool_calls([ToolCall("GetWeather", "{'city': 'Paris', days: 3,}")], GetWeather, parser)
    assert result.value == GetWeather(city="Paris", days=3)
    assert {r.kind for r in result.repairs} >= {"single_quotes", "bare_key", "trailing_comma"}
    assert result.lossless


def test_a_lossy_argument_repair_is_refused_in_strict(lenient: Parser, strict: Parser) -> None:
    broken = [ToolCall("GetWeather", '{"City": "Paris"}')]
    assert read_tool_calls(broken, GetWeather, lenient).value == GetWeather(city="Paris")
    with pytest.raises(SchemaMismatchError):
        read_tool_calls(broken, GetWeather, strict)


def test_a_tool_name_typo_is_a_lossy_repair_in_lenient_and_refused_in_strict(lenient: Parser, strict: Parser) -> None:
    typo = [ToolCall("GetWether", '{"city": "Paris"}')]
    with pytest.raises(SchemaMismatchError):  # the tools sent unknown: the slip may be another tool's real name
        read_tool_calls(typo, GetWeather, lenient)
    result = read_tool_calls(typo, GetWeather, lenient, sent_names={"GetWeather", "SendEmail"})
    assert result.value == GetWeather(city="Paris")
    (repair,) = result.repairs
    assert (repair.kind, repair.before, repair.after, repair.lossless) == (
        "enum_fuzzy",
        "GetWether",
        "GetWeather",
        False,
    )
    with pytest.raises(SchemaMismatchError) as info:
        read_tool_calls(typo, GetWeather, strict, sent_names={"GetWeather", "SendEmail"})
    assert info.value.details[0].kind == "tool_name_mismatch"
    assert "'GetWeather'" in info.value.details[0].message


def test_no_call_is_no_answer_for_a_list_target_either(lenient: Parser) -> None:
    for target in (list[GetWeather], list[GetWeather] | None):
        with pytest.raises(NoCandidateError) as info:
            read_tool_calls([], target, lenient)
        assert info.value.details[0].kind == "no_tool_call"


def test_a_name_in_another_case_or_style_is_the_same_tool_in_both_modes(lenient: Parser, strict: Parser) -> None:
    # the one name rule (`envelopes.how_named`), as text envelopes and tool calls in text read it
    variant = [ToolCall("get_weather", '{"city": "Paris"}')]
    for parser in (lenient, strict):
        result = read_tool_calls(variant, GetWeather, parser)
        assert [(r.kind, r.lossless) for r in result.repairs] == [("tool_name_style", True)]


def test_a_name_behind_a_namespace_prefix_is_lossy(lenient: Parser, strict: Parser) -> None:
    prefixed = [ToolCall("functions.GetWeather", '{"city": "Paris"}')]
    assert [(r.kind, r.lossless) for r in read_tool_calls(prefixed, GetWeather, lenient).repairs] == [
        ("tool_name_prefix", False)
    ]
    with pytest.raises(SchemaMismatchError):
        read_tool_calls(prefixed, GetWeather, strict)


def test_a_wrong_tool_for_the_target_names_the_expected_tools(parser: Parser) -> None:
    with pytest.raises(SchemaMismatchError) as info:
        read_tool_calls([ToolCall("delete_city", '{"city": "Paris"}')], GetWeather | GetTime, parser)
    assert "wrong tool" in info.value.message
    detail = info.value.details[0]
    assert detail.kind == "tool_name_mismatch" and detail.got == "delete_city"
    assert "'GetWeather'" in detail.message and "'GetTime'" in detail.message


def test_a_union_is_chosen_by_the_tool_name_even_when_the_arguments_fit_both(parser: Parser) -> None:
    args = '{"city": "Paris"}'
    assert type(read_tool_calls([ToolCall("Search", args)], Lookup | Search, parser).value) is Search
    assert type(read_tool_calls([ToolCall("Lookup", args)], Lookup | Search, parser).value) is Lookup


def test_two_equally_close_tool_names_are_ambiguous(lenient: Parser) -> None:
    class Probale(BaseModel):
        x: int

    class Probile(BaseModel):
        x: int

    with pytest.raises(AmbiguousMatchError):
        read_tool_calls(
            [ToolCall("Probole", '{"x": 1}')], Probale | Probile, lenient, sent_names={"Probale", "Probile"}
        )


def test_a_changed_prefix_ending_digit_or_script_is_another_tool_never_a_typo(lenient: Parser) -> None:
    pairs = [
        ("Unsubscribe", "Subscribe"), ("ActivateUser", "DeactivateUser"), ("InstallPackage", "UninstallPackage"),
        ("decrement_counter", "increment_counter"), ("Publish", "Unpublish"), ("UnloadFile", "UploadFile"),
        ("Step2", "Step1"), ("GetTop20", "GetTop10"), ("GetWeather2", "GetWeather"), ("ReadFiles", "ReadFile"),
        ("LastUsers", "ListUsers"), ("Probe3", "Probe1"), ("Удалить_GetWeather", "GetWeather"),
        ("Get天Weather", "GetWeather"), ("GetWeath\u0435r", "GetWeather"),
    ]  # fmt: skip
    for called, tool in pairs:
        other: type[BaseModel] = create_model(tool, x=(int, 0))
        with pytest.raises(SchemaMismatchError, match="wrong tool"):
            read_tool_calls([ToolCall(called, '{"x": 1}')], other, lenient)
    for called, tool in [("get_wether", "get_weather"), ("GetWeathar", "GetWeather"), ("SendMessege", "SendMessage")]:
        slipped: type[BaseModel] = create_model(tool, x=(int, 0))
        found = read_tool_calls([ToolCall(called, '{"x": 1}')], slipped, lenient, sent_names={tool})
        assert [r.kind for r in found.repairs] == ["enum_fuzzy"]


def test_one_edit_from_a_very_short_name_is_another_tool_not_a_typo(lenient: Parser) -> None:
    class Ab(BaseModel):
        x: int

    with pytest.raises(SchemaMismatchError, match="wrong tool"):
        read_tool_calls([ToolCall("Ac", '{"x": 1}')], Ab, lenient)


def test_parallel_calls_fill_a_list_with_errors_and_repairs_under_each_call(parser: Parser) -> None:
    two = [ToolCall("GetWeather", "{'city': 'Paris'}", index=0), ToolCall("GetTime", '{"zone": "UTC"}', index=1)]
    result = read_tool_calls(two, list[GetWeather | GetTime], parser)
    assert result.value == [GetWeather(city="Paris"), GetTime(zone="UTC")]
    assert result.repairs and all(r.path.startswith("/0") for r in result.repairs)
    assert json.loads(result.json_text or "") == [{"city": "Paris"}, {"zone": "UTC"}]
    bad = [two[0], ToolCall("GetTime", '{"zone": [1, 2]}', index=1), ToolCall("GetTime", "{}", index=2)]
    with pytest.raises(SchemaMismatchError) as info:
        read_tool_calls(bad, list[GetWeather | GetTime], parser)
    assert {d.path for d in info.value.details} >= {"/1/zone", "/2/zone"}


def test_a_single_target_takes_exactly_one_call(parser: Parser) -> None:
    with pytest.raises(AmbiguousMatchError):
        read_tool_calls(
            [ToolCall("GetWeather", '{"city": "A"}'), ToolCall("GetWeather", '{"city": "B"}')], GetWeather, parser
        )
    with pytest.raises(NoCandidateError):
        read_tool_calls([], GetWeather, parser)


def test_arguments_cut_by_the_length_limit_are_refused_in_both_modes(parser: Parser) -> None:
    with pytest.raises(TruncatedOutputError) as info:
        read_tool_calls([ToolCall("GetWeather", '{"city": "Par')], GetWeather, parser, truncated=True)
    assert info.value.details[0].kind == "truncated"
    with pytest.raises(TruncatedOutputError) as listed:
        read_tool_calls(
            [ToolCall("GetTime", '{"zone": "UTC"}'), ToolCall("GetWeather", '{"city": "Par', index=1)],
            list[GetWeather | GetTime],
            parser,
            truncated=True,
        )
    assert [d.path for d in listed.value.details] == ["/1"]


def test_validators_see_the_whole_value(parser: Parser) -> None:
    def one_city(value: Any) -> list[ErrorDetail]:
        cities = [v.city for v in value if isinstance(v, GetWeather)]
        return [ErrorDetail(path="", kind="semantic", message="one city only")] if len(set(cities)) > 1 else []

    two = [ToolCall("GetWeather", '{"city": "A"}'), ToolCall("GetWeather", '{"city": "B"}', index=1)]
    with pytest.raises(Exception) as info:
        read_tool_calls(two, list[GetWeather], parser, validators=[one_city])
    assert "one city only" in str(info.value.errors)  # type: ignore[attr-defined]


def test_a_target_that_takes_no_tool_calls_is_a_configuration_error(parser: Parser) -> None:
    with pytest.raises(ConfigurationError):
        read_tool_calls([ToolCall("x", "{}")], dict[str, int], parser)


def test_two_models_under_one_tool_name_still_read_text_answers(parser: Parser) -> None:
    # (two models with one name and the same fields would be ambiguous for a text answer too: nothing names one)
    first = create_model("Same", v=(int, ...))
    second = create_model("Same", w=(int, ...))
    result = correct_result(ScriptedLLM(['{"v": 1}']), ASK, first | second, parser=parser)
    assert type(result.value) is first and result.value.v == 1
    with pytest.raises(ConfigurationError):
        correct_result(ScriptedLLM([calls(("Same", '{"v": 1}'))]), ASK, first | second, parser=parser)


def test_tools_sent_under_no_name_of_the_target_are_a_configuration_error(parser: Parser) -> None:
    class Adapter(ScriptedLLM):
        tools: ClassVar[list[dict[str, Any]]] = [
            {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
        ]

    with pytest.raises(ConfigurationError, match="model_config title"):
        correct_result(Adapter([calls(("get_weather", '{"city": "P"}'))]), ASK, GetWeather, parser=parser)

    class Named(BaseModel):
        model_config = ConfigDict(title="get_weather")
        city: str

    result = correct_result(Adapter([calls(("get_weather", '{"city": "P"}'))]), ASK, Named, parser=parser)
    assert result.value == Named(city="P") and not result.repairs


# -- tool definitions ---------------------------------------------------------------------------------------------


def test_tool_definitions_come_from_models_and_dicts_pass_through() -> None:
    class Named(BaseModel):
        model_config = ConfigDict(title="get_weather")
        city: str

    written = {"type": "function", "function": {"name": "mine", "parameters": {"type": "object"}}}
    tools = openai_tools([GetWeather, Named, written])
    assert tools[0]["function"]["name"] == "GetWeather"
    assert tools[0]["function"]["description"] == "The weather forecast for a city."
    assert tools[0]["function"]["parameters"]["required"] == ["city"]
    assert tools[1]["function"]["name"] == tool_name(Named) == "get_weather"
    assert tools[2] == written and tools[2] is not written
    (anthropic,) = anthropic_tools([GetWeather])
    assert anthropic["name"] == "GetWeather" and anthropic["input_schema"]["properties"]["city"]["type"] == "string"


# -- reading SDK replies ------------------------------------------------------------------------------------------


def test_an_openai_reply_of_tool_calls_only_is_not_malformed() -> None:
    response = {
        "model": "m",
        "choices": [
            {
                "message": {
                    "content": None,
                    "tool_calls": [{"id": "c1", "function": {"name": "GetWeather", "arguments": '{"city": "P'}}],
                },
                "finish_reason": "length",
            }
        ],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3},
    }
    completion = completion_from_openai(response)
    assert completion.text == "" and completion.finish_reason == "length"
    assert completion.tool_calls == (ToolCall("GetWeather", '{"city": "P', id="c1", index=0),)


def test_anthropic_tool_use_blocks_become_calls() -> None:
    response = {
        "model": "m",
        "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "tu1", "name": "GetWeather", "input": {"city": "Zürich"}}],
        "usage": {"input_tokens": 5, "output_tokens": 2},
    }
    (call,) = completion_from_anthropic(response).tool_calls
    assert (call.name, json.loads(call.arguments), call.id) == ("GetWeather", {"city": "Zürich"}, "tu1")


def test_a_malformed_reply_keeps_the_usage_it_reported() -> None:
    with pytest.raises(MalformedResponseError) as info:
        completion_from_openai({"choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": 0}})
    assert info.value.usage == Usage(11, 0)


# -- the loop -----------------------------------------------------------------------------------------------------


def test_broken_tool_arguments_are_repaired_without_a_re_ask(parser: Parser) -> None:
    llm = ScriptedLLM([calls(("GetWeather", "{'city': 'Paris'}"))])
    result = correct_result(llm, ASK, GetWeather, parser=parser)
    assert result.value == GetWeather(city="Paris") and result.outcome == "repaired" and len(llm.calls) == 1
    assert result.attempts[0].tool_calls == 1


def test_a_wrong_tool_is_re_asked_with_tool_messages_in_the_openai_shape(parser: Parser) -> None:
    llm = ScriptedLLM(
        [calls(("delete_city", '{"city": "Paris"}')), calls(("GetWeather", '{"city": "Paris"}'))], tool_shape="openai"
    )
    result = correct_result(llm, ASK, GetWeather, parser=parser)
    assert result.outcome == "corrected"
    second = llm.calls[1]
    assert second[:2] == ASK
    assistant, tool = second[2:]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["function"]["name"] == "delete_city"
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_0" and "GetWeather" in tool["content"]
    assert tool["content"].endswith("Call the tool again with the complete corrected arguments.")


def test_parallel_calls_are_answered_one_tool_result_each_in_the_anthropic_shape(lenient: Parser) -> None:
    first = calls(("GetWeather", '{"city": "Paris"}'), ("GetTime", '{"zone": [1, 2]}'))
    llm = ScriptedLLM(
        [first, calls(("GetWeather", '{"city": "Paris"}'), ("GetTime", '{"zone": "UTC"}'))], tool_shape="anthropic"
    )
    result = correct_result(llm, ASK, list[GetWeather | GetTime], parser=lenient)
    assert result.value == [GetWeather(city="Paris"), GetTime(zone="UTC")]
    assistant, user = llm.calls[1][2:]
    assert [b["type"] for b in assistant["content"]] == ["tool_use", "tool_use"]
    assert user["role"] == "user" and [b["tool_use_id"] for b in user["content"]] == ["call_0", "call_1"]
    assert all(b["is_error"] for b in user["content"]) and "/1/zone" in user["content"][0]["content"]
    assert "Make all the tool calls again" in user["content"][0]["content"]
    assert "call_0" in user["content"][1]["content"]  # the second result points to the first
    roles = [m["role"] for m in llm.calls[1]]
    assert ("user", "user") not in set(itertools.pairwise(roles))


def test_an_adapter_without_followup_gets_the_arguments_echoed_as_text(parser: Parser) -> None:
    replies = iter([calls(("GetWeather", '{"town": "Paris"}')), calls(("GetWeather", '{"city": "Paris"}'))])
    seen: list[list[dict[str, Any]]] = []

    class Bare:  # the LLMAdapter protocol and nothing more
        name = "bare"

        def complete(self, messages: list[dict[str, Any]]) -> Completion:
            seen.append(messages)
            return next(replies)

        async def acomplete(self, messages: list[dict[str, Any]]) -> Completion:
            return self.complete(messages)

    result = correct_result(Bare(), ASK, GetWeather, parser=parser, max_corrections=1)
    assert result.value == GetWeather(city="Paris")
    assert seen[1][2] == {"role": "assistant", "content": '{"town": "Paris"}'} and seen[1][3]["role"] == "user"


def test_a_plain_function_is_re_asked_in_the_openai_tool_shape(parser: Parser) -> None:
    """A function speaking chat messages gets its calls answered as the OpenAI API would: the assistant turn keeps
    the tool names and ids, and each call gets its own `tool` message (found by a new user)."""
    replies = iter([calls(("GetWeather", '{"town": "Paris"}')), calls(("GetWeather", '{"city": "Paris"}'))])
    seen: list[list[dict[str, Any]]] = []

    def llm(messages: list[dict[str, Any]]) -> Completion:
        seen.append(messages)
        return next(replies)

    result = correct_result(FunctionAdapter(llm), ASK, GetWeather, parser=parser, max_corrections=1)
    assert result.value == GetWeather(city="Paris")
    assistant, answer = seen[1][2], seen[1][3]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["function"]["name"] == "GetWeather"
    assert answer["role"] == "tool" and answer["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert "/city" in answer["content"] or "city" in answer["content"]


def test_a_declared_tool_name_is_the_name_sent_and_read(parser: Parser) -> None:
    """`__rp_tool_name__` names the tool for calls as it does for text envelopes (found by a new user)."""

    class Named(BaseModel):
        __rp_tool_name__ = "get_weather"
        city: str

    assert openai_tools([Named])[0]["function"]["name"] == "get_weather"
    llm = FunctionAdapter(lambda messages: calls(("get_weather", '{"city": "Oslo"}')))
    result = correct_result(llm, ASK, Named, parser=parser)
    assert result.value == Named(city="Oslo") and not result.repairs


def test_arguments_cut_by_length_are_re_asked_with_the_cut_off_note(lenient: Parser) -> None:
    llm = ScriptedLLM(
        [calls(("GetWeather", '{"city": "Par'), finish_reason="length"), calls(("GetWeather", '{"city": "Paris"}'))],
        tool_shape="openai",
    )
    result = correct_result(llm, ASK, GetWeather, parser=lenient)
    assert result.value == GetWeather(city="Paris")
    assert result.attempts[0].error_kind == "truncated"
    assert "cut off by the output length limit" in llm.calls[1][-1]["content"]


def test_a_reply_with_one_call_and_no_text_answers_a_target_naming_no_tool(parser: Parser) -> None:
    result = correct_result(ScriptedLLM([calls(("anything", '{"a": 1}'))]), ASK, dict[str, int], parser=parser)
    assert result.value == {"a": 1}


# -- budgets: every request is counted ----------------------------------------------------------------------------


class RateLimitError(Exception):
    status_code = 429


def test_a_429_after_a_readable_attempt_is_the_sdk_error_with_the_attempts(parser: Parser) -> None:
    error = RateLimitError("Rate limit reached, slow down.")
    llm = ScriptedLLM([calls(("GetWeather", '{"town": "Paris"}')), error])
    with pytest.raises(RateLimitError) as info:
        correct_result(llm, ASK, GetWeather, parser=parser)
    attempts = info.value.attempts  # type: ignore[attr-defined]
    assert [a.error_kind for a in attempts] == ["schema", "llm_error"]
    assert attempts[1].usage.estimated and attempts[1].usage.prompt_tokens > 0
    assert any("2 calls" in note for note in getattr(info.value, "__notes__", []))


def test_a_malformed_reply_counts_the_usage_it_reported_else_an_estimate(parser: Parser) -> None:
    unreadable = MalformedResponseError("no choices", usage=Usage(40, 2))
    llm = ScriptedLLM([unreadable, MalformedResponseError("broken body"), calls(("GetWeather", '{"city": "P"}'))])
    result = correct_result(llm, ASK, GetWeather, parser=parser)
    first, second, _ = result.attempts
    assert first.usage == Usage(40, 2)
    assert second.usage is not None and second.usage.estimated and second.usage.prompt_tokens > 0
    assert result.usage.estimated and result.tokens == sum(a.tokens for a in result.attempts)


def test_the_token_budget_counts_malformed_replies(parser: Parser) -> None:
    llm = ScriptedLLM([MalformedResponseError("no choices", usage=Usage(90, 0))] * 3)
    with pytest.raises(Exception) as info:
        correct_result(llm, ASK, GetWeather, parser=parser, token_budget=100)
    assert info.value.stop_reason == "token_budget"  # type: ignore[attr-defined]
    assert len(llm.calls) == 1


# -- events and logs ----------------------------------------------------------------------------------------------


class Observer:
    rp_name = "observer"

    def __init__(self) -> None:
        self.events: list[Event] = []

    @hookimpl
    def rp_on_event(self, event: Event, ctx: Any) -> None:
        if not event.name.startswith("parse_"):
            self.events.append(event)


def test_events_open_and_close_every_correction_with_totals() -> None:
    observer = Observer()
    parser = Parser(plugins=[observer], entrypoints=False)
    correct_result(ScriptedLLM([calls(("GetWeather", '{"city": "Paris"}'))]), ASK, GetWeather, parser=parser)
    names = [e.name for e in observer.events]
    assert names == ["correction_started", "attempt_finished", "correction_succeeded"]
    started, attempt, succeeded = observer.events
    assert started.data["mode"] == "lenient" and started.data["model"] == "scripted"
    assert attempt.data["outcome"] == "ok" and attempt.data["total_tokens"] > 0 and "duration_s" in attempt.data
    assert succeeded.data["outcome"] == "valid" and succeeded.data["calls"] == 1
    assert succeeded.data["tokens"] == attempt.data["total_tokens"] and succeeded.data["duration_s"] >= 0


def test_an_exhausted_loop_closes_with_its_totals() -> None:
    observer = Observer()
    parser = Parser(plugins=[observer], entrypoints=False)
    with pytest.raises(CorrectionsExhaustedError):
        correct_result(ScriptedLLM(["{}", "{}"]), ASK, GetWeather, parser=parser, max_corrections=1)
    last = observer.events[-1]
    assert last.name == "corrections_exhausted" and last.data["outcome"] == "corrections_exhausted"
    assert last.data["calls"] == 2 and last.data["prompt_tokens"] > 0


def test_logs_carry_structured_fields_and_never_the_answer(parser: Parser, caplog: pytest.LogCaptureFixture) -> None:
    secret = "Paris-SECRET-123"
    with caplog.at_level(logging.DEBUG, logger="resilient_parse.correction"):
        correct_result(
            ScriptedLLM([calls(("GetWeather", json.dumps({"city": secret})))]), ASK, GetWeather, parser=parser
        )
    fields = [r.resilient_parse for r in caplog.records if hasattr(r, "resilient_parse")]
    attempt = next(f for f in fields if "attempt_index" in f)
    assert attempt["attempt_index"] == 0 and attempt["model"] == "scripted" and attempt["outcome"] == "ok"
    assert attempt["prompt_tokens"] > 0
    assert all(
        secret not in r.getMessage() and secret not in str(getattr(r, "resilient_parse", "")) for r in caplog.records
    )


# -- format instructions ------------------------------------------------------------------------------------------


def test_schema_instructions_are_added_to_the_first_system_message(parser: Parser) -> None:
    llm = ScriptedLLM(['{"city": "Paris"}'])
    correct_result(llm, ASK, GetWeather, parser=parser, instructions="schema")
    system = llm.calls[0][0]
    assert system["role"] == "system" and system["content"].startswith("You call tools.\n\n")
    assert schema_instruction(GetWeather) in system["content"] and '"required":["city"]' in system["content"]
    assert ASK[0]["content"] == "You call tools."  # the caller's messages are not touched


def test_schema_instructions_make_a_system_message_when_there_is_none(parser: Parser) -> None:
    llm = ScriptedLLM(['{"city": "Paris"}'])
    correct_result(llm, ASK[1:], GetWeather, parser=parser, instructions="schema")
    assert [m["role"] for m in llm.calls[0]] == ["system", "user"]


def test_no_instructions_by_default_and_unknown_values_refused(parser: Parser) -> None:
    llm = ScriptedLLM(['{"city": "Paris"}'])
    correct_result(llm, ASK, GetWeather, parser=parser)
    assert llm.calls[0] == ASK
    with pytest.raises(ConfigurationError):
        correct_result(ScriptedLLM([]), ASK, GetWeather, parser=parser, instructions="json")  # type: ignore[call-overload]


# -- LangChain chat models ----------------------------------------------------------------------------------------


def test_a_langchain_chat_model_or_its_invoke_is_called_as_a_chat_model(parser: Parser) -> None:
    fake = pytest.importorskip("langchain_core.language_models.fake_chat_models")
    messages = pytest.importorskip("langchain_core.messages")
    bad = messages.AIMessage(content="", tool_calls=[{"name": "GetWeather", "args": {"town": "Paris"}, "id": "c1"}])
    good = messages.AIMessage(content="", tool_calls=[{"name": "GetWeather", "args": {"city": "Paris"}, "id": "c2"}])
    chat = fake.GenericFakeChatModel(messages=iter([bad, good]))
    assert type(as_adapter(chat)).__name__ == type(as_adapter(chat.invoke)).__name__ == "ChatModelAdapter"
    model = fake.GenericFakeChatModel(messages=iter([bad, good]))
    result = correct_result(model.invoke, ASK, GetWeather, parser=parser)
    assert result.value == GetWeather(city="Paris") and [a.error_kind for a in result.attempts] == ["schema", None]


# -- names: a call to another real tool is never a typo of the target ----------------------------------------------


class GetUser(BaseModel):
    user_id: int


class SetUser(BaseModel):
    user_id: int
    name: str = "x"


def test_another_tool_is_a_wrong_tool_not_a_typo(lenient: Parser) -> None:
    set_user = [ToolCall("SetUser", '{"user_id": 7, "name": "evil"}')]
    for sent in ((), ("GetUser", "SetUser")):  # a whole 3-letter word changed is another name, sent or not
        with pytest.raises(SchemaMismatchError, match="wrong tool") as info:
            read_tool_calls(set_user, GetUser, lenient, sent_names=sent)
        assert info.value.details[0].kind == "tool_name_mismatch"


def test_a_sent_tool_named_exactly_is_that_tool_even_when_it_is_a_case_variant(lenient: Parser) -> None:
    class get_user(BaseModel):
        user_id: int

    call = [ToolCall("GetUser", '{"user_id": 1}')]
    assert read_tool_calls(call, get_user, lenient).repairs[0].kind == "tool_name_style"
    with pytest.raises(SchemaMismatchError, match="another tool that was sent"):
        read_tool_calls(call, get_user, lenient, sent_names={"get_user", "GetUser"})


def test_a_typo_stays_within_one_word(lenient: Parser) -> None:
    class get_weather(BaseModel):
        city: str

    result = read_tool_calls(
        [ToolCall("get_wether", '{"city": "P"}')], get_weather, lenient, sent_names={"get_weather"}
    )
    assert [(r.kind, r.before, r.after) for r in result.repairs] == [("enum_fuzzy", "get_wether", "get_weather")]
    for other in ("set_wether", "get_weather_now", "put_whether"):  # two words off, a word more, two edits in 7
        with pytest.raises(SchemaMismatchError, match="wrong tool"):
            read_tool_calls([ToolCall(other, '{"city": "P"}')], get_weather, lenient, sent_names={"get_weather"})


def test_no_typo_is_repaired_when_another_sent_tool_is_as_close(lenient: Parser) -> None:
    call = [ToolCall("GetWeathar", '{"city": "P"}')]
    assert read_tool_calls(call, GetWeather, lenient, sent_names={"GetWeather"}).repairs[0].kind == "enum_fuzzy"
    with pytest.raises(AmbiguousMatchError, match="GetWeathor"):
        read_tool_calls(call, GetWeather, lenient, sent_names={"GetWeather", "GetWeathor"})


def test_the_loop_re_asks_a_call_to_another_sent_tool(lenient: Parser) -> None:
    class Adapter(ScriptedLLM):
        tools: ClassVar[list[dict[str, Any]]] = openai_tools([GetUser, SetUser])

    llm = Adapter([calls(("SetUser", '{"user_id": 7}')), calls(("GetUser", '{"user_id": 7}'))], tool_shape="openai")
    result = correct_result(llm, ASK, GetUser, parser=lenient)
    assert result.value == GetUser(user_id=7) and result.outcome == "corrected"
    assert [d.kind for d in result.attempts[0].errors] == ["tool_name_mismatch"]


# -- targets that are not argument models ------------------------------------------------------------------------


@dataclasses.dataclass
class WeatherRecord:
    city: str


class WeatherDict(TypedDict):
    city: str


def test_an_optional_model_is_a_tool_target(parser: Parser) -> None:
    assert read_tool_calls([ToolCall("GetWeather", '{"city": "P"}')], GetWeather | None, parser).value == GetWeather(
        city="P"
    )
    for target in (GetWeather | None, list[GetWeather] | None):
        llm = ScriptedLLM([calls(("DeleteAll", '{"city": "Paris"}'))])
        with pytest.raises(CorrectionsExhaustedError) as info:
            correct_result(llm, ASK, target, parser=parser, max_corrections=0)
        assert [d.kind for d in info.value.details] == ["tool_name_mismatch"]
    listed = read_tool_calls([ToolCall("GetWeather", '{"city": "P"}')], list[GetWeather] | None, parser)
    assert listed.value == [GetWeather(city="P")]


@pytest.mark.parametrize("target", [WeatherRecord, WeatherDict, WeatherRecord | int])
def test_a_call_answers_a_dataclass_or_typeddict_only_under_its_name(parser: Parser, target: Any) -> None:
    name = "WeatherDict" if target is WeatherDict else "WeatherRecord"
    assert correct_result(ScriptedLLM([calls((name, '{"city": "P"}'))]), ASK, target, parser=parser).value in (
        WeatherRecord(city="P"),
        {"city": "P"},
    )
    with pytest.raises(CorrectionsExhaustedError) as info:
        correct_result(
            ScriptedLLM([calls(("SendEmail", '{"city": "P"}'))]), ASK, target, parser=parser, max_corrections=0
        )
    assert [d.kind for d in info.value.details] == ["tool_name_mismatch"]
    assert "SendEmail" in info.value.message and name in info.value.details[0].message


# -- text beside a call ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ['Either {"city": "Rome"} or {"city": "Oslo"}.', '{"city": "Rome", "city": "Oslo"}'])
def test_text_that_is_two_readings_itself_beside_a_call_is_ambiguous_not_prose(parser: Parser, text: str) -> None:
    both = Completion(text=text, tool_calls=(ToolCall("GetWeather", '{"city": "Paris"}'),))
    with pytest.raises(CorrectionsExhaustedError) as info:
        correct_result(ScriptedLLM([both]), ASK, GetWeather, parser=parser, max_corrections=0)
    assert isinstance(info.value.__cause__, AmbiguousMatchError)
    assert {d.kind for d in info.value.details} == {"ambiguous_answer"}


def test_null_beside_a_call_for_an_optional_target_is_a_second_answer(lenient: Parser) -> None:
    call = [ToolCall("GetWeather", '{"city": "Paris"}')]
    with pytest.raises(AmbiguousMatchError):
        read_reply_calls(call, "null", GetWeather | None, lenient)
    for said in ("Calling the weather tool now.", '{"city": "Paris"}'):  # prose, the same answer
        assert read_reply_calls(call, said, GetWeather | None, lenient).value == GetWeather(city="Paris")
    both = Completion(text="null", tool_calls=(ToolCall("GetWeather", '{"city": "Paris"}'),))
    with pytest.raises(CorrectionsExhaustedError) as info:
        correct_result(ScriptedLLM([both]), ASK, GetWeather | None, parser=lenient, max_corrections=0)
    assert isinstance(info.value.__cause__, AmbiguousMatchError)


def test_a_text_answer_that_disagrees_with_the_call_is_ambiguous(parser: Parser) -> None:
    both = Completion(text='{"city": "Rome"}', tool_calls=(ToolCall("GetWeather", '{"city": "Paris"}'),))
    with pytest.raises(CorrectionsExhaustedError) as info:
        correct_result(ScriptedLLM([both]), ASK, GetWeather, parser=parser, max_corrections=0)
    assert isinstance(info.value.__cause__, AmbiguousMatchError)
    assert "Rome" in info.value.message and "Paris" in info.value.message
    assert [d.kind for d in info.value.details] == ["ambiguous_answer"]


def test_prose_or_the_same_answer_beside_a_call_is_fine(parser: Parser) -> None:
    for text in ("Let me check the weather for you.", '{"city": "Paris"}'):
        reply = Completion(text=text, tool_calls=(ToolCall("GetWeather", '{"city": "Paris"}'),))
        assert correct_result(ScriptedLLM([reply]), ASK, GetWeather, parser=parser).value == GetWeather(city="Paris")


# -- decoded inputs ------------------------------------------------------------------------------------------------


def _anthropic_reply(tool_input: Any) -> dict[str, Any]:
    block = {"type": "tool_use", "id": "tu1", "name": "GetWeather", "input": tool_input}
    return {
        "model": "m",
        "stop_reason": "tool_use",
        "content": [block],
        "usage": {"input_tokens": 5, "output_tokens": 2},
    }


def test_a_double_encoded_anthropic_input_meets_the_same_refusal_as_openais(lenient: Parser, strict: Parser) -> None:
    inner = json.dumps({"city": "Paris"})
    (call,) = completion_from_anthropic(_anthropic_reply(inner)).tool_calls
    assert json.loads(call.arguments) == inner  # a JSON string, not the object it spells
    openai = ToolCall("GetWeather", json.dumps(inner))
    with pytest.raises(SchemaMismatchError):
        read_tool_calls([call], GetWeather, strict)
    with pytest.raises(SchemaMismatchError):
        read_tool_calls([openai], GetWeather, strict)
    assert [r.kind for r in read_tool_calls([call], GetWeather, lenient).repairs] == [
        r.kind for r in read_tool_calls([openai], GetWeather, lenient).repairs
    ]


def test_openai_argument_text_is_kept_as_written() -> None:
    reply = {
        "choices": [{"message": {"content": None, "tool_calls": [{"function": {"name": "G", "arguments": "{'a'"}}]}}]
    }
    assert completion_from_openai(reply).tool_calls[0].arguments == "{'a'"
    decoded = {
        "choices": [{"message": {"content": None, "tool_calls": [{"function": {"name": "G", "arguments": {"a": 1}}}]}}]
    }
    assert json.loads(completion_from_openai(decoded).tool_calls[0].arguments) == {"a": 1}


def _nested(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["a"] = {}
        node = node["a"]
    return root


def test_decoded_arguments_nested_too_deeply_are_a_parse_error_not_a_recursion_error() -> None:
    deep = {"city": "x", "extra": _nested(20_000)}
    with pytest.raises(ParseError) as info:
        ToolCall.decoded("GetWeather", deep)
    assert [d.kind for d in info.value.details] == ["too_deep"]
    with pytest.raises(MalformedResponseError) as malformed:
        completion_from_anthropic(_anthropic_reply(deep))
    assert malformed.value.usage == Usage(5, 2)


def test_a_chat_model_subclass_written_outside_langchain_is_a_chat_model(parser: Parser) -> None:
    fake = pytest.importorskip("langchain_core.language_models.fake_chat_models")
    messages = pytest.importorskip("langchain_core.messages")

    class MyChat(fake.GenericFakeChatModel):  # type: ignore[misc]  # a user's own class, in a user's module
        pass

    assert MyChat.__module__ == __name__
    answer = messages.AIMessage(content='{"city": "Paris"}')
    for llm in (MyChat(messages=iter([answer])), MyChat(messages=iter([answer])).invoke):
        assert type(as_adapter(llm)).__name__ == "ChatModelAdapter"
        result = correct_result(llm, ASK, GetWeather, parser=parser, max_corrections=0)
        assert result.value == GetWeather(city="Paris")


def test_a_function_returning_a_langchain_message_is_read_as_one(parser: Parser) -> None:
    messages = pytest.importorskip("langchain_core.messages")
    call = {"name": "GetWeather", "args": {"city": "Paris"}, "id": "c1"}
    reply = messages.AIMessage(content="", tool_calls=[call], usage_metadata=_usage(7, 3))
    result = correct_result(lambda m: reply, ASK, GetWeather, parser=parser, max_corrections=0)
    assert result.value == GetWeather(city="Paris") and result.attempts[0].usage == Usage(7, 3)


def _usage(prompt: int, completion: int) -> Any:
    return {"input_tokens": prompt, "output_tokens": completion, "total_tokens": prompt + completion}


# -- re-asks -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given",
    [[("call_1", 0), (None, 1)], [("a", 0), ("a", 1)], [(None, 0), (None, 0), ("call_0", 2), ("call_0_1", 3)]],
    ids=["given-and-made", "twice", "taken"],
)
def test_every_call_of_a_turn_is_answered_under_its_own_id(given: list[tuple[str | None, int]]) -> None:
    turn = [ToolCall("GetWeather", "{}", id=call_id, index=index) for call_id, index in given]
    ids = [call_id for call_id, _ in given]
    assistant, *answers = openai_tool_followup(turn, "fix it")
    made = [c["id"] for c in assistant["tool_calls"]]
    assert len(set(made)) == len(turn) and [m["tool_call_id"] for m in answers] == made
    assert [given for given in made if given in ids] == [i for i in dict.fromkeys(ids) if i]  # provider ids kept
    uses, results = anthropic_tool_followup(turn, "fix it")
    assert [b["id"] for b in uses["content"]] == [b["tool_use_id"] for b in results["content"]] == made


def test_a_tool_choice_forcing_a_tool_that_is_not_sent_is_refused_at_once() -> None:
    from resilient_parse.correction import AnthropicAdapter, LiteLLMAdapter, OpenAIAdapter

    written = {"type": "function", "function": {"name": "mine", "parameters": {"type": "object"}}}
    for make in (
        lambda choice: OpenAIAdapter(object(), model="m", tools=[GetWeather], tool_choice=choice),
        lambda choice: AnthropicAdapter(object(), model="m", tools=[GetWeather], tool_choice=choice),
        lambda choice: LiteLLMAdapter("m", tools=[GetWeather], tool_choice=choice),
    ):
        for wrong in (GetTime, "SetUser"):
            with pytest.raises(ConfigurationError, match="not among the tools sent"):
                make(wrong)
        assert make(GetWeather).tool_choice and make("auto").tool_choice and make("required").tool_choice
    assert (
        OpenAIAdapter(object(), model="m", tools=[written], tool_choice="mine").tool_choice["function"]["name"]
        == "mine"
    )
    with pytest.raises(ConfigurationError, match="'mine'"):
        OpenAIAdapter(object(), model="m", tool_choice="GetWeather", tools=[written])


def test_the_repairs_of_many_parallel_calls_are_kept_in_call_order(lenient: Parser) -> None:
    # the cost is measured in benchmarks/adversarial_timing.py (16k calls, linear); this pins what is collected
    many = [ToolCall("GetWeather", f"{{'city': 'P{i}'}}", index=i) for i in range(300)]
    result = read_tool_calls(many, list[GetWeather], lenient)
    assert [v.city for v in result.value] == [f"P{i}" for i in range(300)]
    firsts = list(dict.fromkeys(r.path.split("/")[1] for r in result.repairs))
    assert firsts == [str(i) for i in range(300)]


def test_a_re_ask_echoes_at_most_max_echo_chars_of_the_calls(lenient: Parser) -> None:
    from resilient_parse.correction.loop import MAX_ECHO_CHARS

    huge = '{"town": "' + "a" * 1_000_000 + '"}'
    first = calls(("GetWeather", huge), ("GetWeather", huge))
    llm = ScriptedLLM(
        [first, calls(("GetWeather", '{"city": "P"}'), ("GetWeather", '{"city": "Q"}'))], tool_shape="openai"
    )
    result = correct_result(llm, ASK, list[GetWeather], parser=lenient)
    assert [v.city for v in result.value] == ["P", "Q"]
    assistant, *answers = llm.calls[1][2:]
    shown = [c["function"]["arguments"] for c in assistant["tool_calls"]]
    assert sum(len(a) for a in shown) < MAX_ECHO_CHARS + 200 and all("characters cut" in a for a in shown)
    assert [a["tool_call_id"] for a in answers] == ["call_0", "call_1"]  # every call still answered


def test_models_sharing_a_tool_name_are_refused_before_a_request_when_tools_are_sent(parser: Parser) -> None:
    class First(BaseModel):
        model_config = ConfigDict(title="Weather")
        city: str

    class Second(BaseModel):
        model_config = ConfigDict(title="Weather")
        town: str

    class Adapter(ScriptedLLM):
        tools: ClassVar[list[dict[str, Any]]] = [{"type": "function", "function": {"name": "Weather"}}]

    sent = Adapter([calls(("Weather", '{"city": "x"}'))])
    with pytest.raises(ConfigurationError, match="'Weather'"):
        correct_result(sent, ASK, First | Second, parser=parser)
    assert sent.calls == []
    unsent = ScriptedLLM([calls(("Weather", '{"city": "x"}'))])  # no tools sent: found out from the reply
    with pytest.raises(ConfigurationError) as info:
        correct_result(unsent, ASK, First | Second, parser=parser)
    (attempt,) = info.value.attempts  # type: ignore[attr-defined]
    assert attempt.error_kind == "configuration_error" and attempt.usage is not None and attempt.tool_calls == 1


class ParseEvents:
    rp_name = "parse_events"

    def __init__(self) -> None:
        self.events: list[Event] = []

    @hookimpl
    def rp_on_event(self, event: Event, ctx: Any) -> None:
        if event.name.startswith("parse_"):
            self.events.append(event)


@pytest.mark.parametrize(
    ("found", "target", "truncated", "kind"),
    [
        ([ToolCall("Nope", '{"city": "x"}')], GetWeather, False, "schema"),
        ([], GetWeather, False, "no_candidate"),
        ([ToolCall("GetWeather", '{"city": "x"}')] * 2, GetWeather, False, "ambiguous"),
        ([ToolCall("GetWeather", '{"city": "x"}')], GetWeather, True, "truncated"),
        ([ToolCall("GetWeather", '{"city": "x"}')], Annotated[list[GetWeather], Field(min_length=2)], False, None),
    ],
    ids=["wrong-tool", "no-call", "two-calls", "cut-off", "whole-refused"],
)
def test_every_failed_read_of_tool_calls_fires_parse_failed(
    found: list[ToolCall], target: Any, truncated: bool, kind: str | None
) -> None:
    observer = ParseEvents()
    parser = Parser(mode="lenient", entrypoints=False)
    parser.host.add_observer(observer, name="parse-events")
    with pytest.raises(ParseError) as info:
        read_tool_calls(found, target, parser, truncated=truncated)
    failed = [e for e in observer.events if e.name == "parse_failed"]
    assert failed and failed[-1].data["kind"] == (kind or info.value.kind) == info.value.kind
    assert failed[-1].data["mode"] == "lenient" and failed[-1].data["details"] == len(info.value.details)
    assert [e.name for e in observer.events].count("parse_started") == len(observer.events) // 2


@pytest.mark.parametrize("counts", [(-5, 3), (5, -1), ("7", 3), (True, 3), (5, None)])
def test_a_count_that_is_no_count_is_unreported_usage_estimated_not_zero(
    parser: Parser, counts: tuple[Any, Any]
) -> None:
    prompt, completion = counts
    reply = {
        "choices": [{"message": {"content": '{"city": "P"}'}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion},
    }
    assert completion_from_openai(reply).usage is None
    anthropic = {"content": [{"type": "text", "text": "{}"}], "stop_reason": "end_turn"}
    assert (
        completion_from_anthropic({**anthropic, "usage": {"input_tokens": prompt, "output_tokens": completion}}).usage
        is None
    )
    result = correct_result(lambda m: reply, ASK, GetWeather, parser=parser)
    assert result.attempts[0].usage is not None and result.attempts[0].usage.estimated and result.usage.estimated


def test_an_anthropic_re_ask_shows_an_input_that_is_no_object_as_text_not_as_a_made_up_object() -> None:
    turn = [ToolCall("GetWeather", "[1, 2]", id="a"), ToolCall("GetWeather", '{"town": "P"}', id="b", index=1)]
    uses, results = anthropic_tool_followup(turn, "fix it")
    assert [b["input"] for b in uses["content"]] == [{}, {"town": "P"}]
    first, second = results["content"]
    assert "not a JSON object" in first["content"] and "[1, 2]" in first["content"] and "fix it" in first["content"]
    assert "not a JSON object" not in second["content"]


def test_an_openai_custom_tool_call_is_read_as_a_call_and_replayed_as_one(lenient: Parser) -> None:
    custom = {"id": "ct1", "type": "custom", "custom": {"name": "GetWeather", "input": '{"town": "P"}'}}
    reply = {"choices": [{"message": {"content": None, "tool_calls": [custom]}, "finish_reason": "tool_calls"}]}
    (call,) = completion_from_openai(reply).tool_calls
    assert (call.name, call.arguments, call.id, call.kind) == ("GetWeather", '{"town": "P"}', "ct1", "custom")
    fixed = Completion(text="", tool_calls=(ToolCall("GetWeather", '{"city": "P"}', kind="custom"),))
    llm = ScriptedLLM([completion_from_openai(reply), fixed], tool_shape="openai")
    assert correct_result(llm, ASK, GetWeather, parser=lenient).value == GetWeather(city="P")
    assistant, answer = llm.calls[1][2:]
    assert assistant["tool_calls"] == [custom] and answer["tool_call_id"] == "ct1"


def test_with_the_length_limit_only_a_call_that_stops_mid_value_is_blamed(parser: Parser) -> None:
    middle = [
        ToolCall("GetWeather", '{"city": "Paris"}'),
        ToolCall("GetWeather", '{"city": "Ro', index=1),
        ToolCall("GetWeather", '{"city": "Oslo"}', index=2),
    ]
    with pytest.raises(TruncatedOutputError) as cut:
        read_tool_calls(middle, list[GetWeather], parser, truncated=True)
    assert [d.path for d in cut.value.details] == ["/1"] and "were cut off" in cut.value.message
    complete = [ToolCall("GetWeather", '{"city": "Paris"}'), ToolCall("GetWeather", '{"city": "Rome"}', index=1)]
    with pytest.raises(TruncatedOutputError) as unsure:  # nothing shows the cut: more calls may be missing
        read_tool_calls(complete, list[GetWeather], parser, truncated=True)
    assert [d.path for d in unsure.value.details] == ["/1"]
    assert "its arguments are complete" in unsure.value.message and "may have been cut off" in unsure.value.message


def test_prose_beside_a_call_is_not_parsed_as_a_second_answer() -> None:
    observer = ParseEvents()
    parser = Parser(mode="lenient", entrypoints=False)
    parser.host.add_observer(observer, name="parse-events")
    reply = Completion(text="Let me check that.", tool_calls=(ToolCall("GetWeather", '{"city": "Paris"}'),))
    assert correct_result(ScriptedLLM([reply]), ASK, GetWeather, parser=parser).value == GetWeather(city="Paris")
    assert [e.name for e in observer.events] == ["parse_started", "parse_succeeded"]  # no failed parse of the prose


def test_a_wrong_tool_for_a_dataclass_target_fires_parse_failed() -> None:
    observer = ParseEvents()
    parser = Parser(mode="lenient", entrypoints=False)
    parser.host.add_observer(observer, name="parse-events")
    with pytest.raises(CorrectionsExhaustedError):
        correct_result(ScriptedLLM([calls(("SendEmail", "{}"))]), ASK, WeatherRecord, parser=parser, max_corrections=0)
    assert [(e.name, e.data.get("kind")) for e in observer.events] == [
        ("parse_started", None),
        ("parse_failed", "schema"),
    ]


def test_decoded_arguments_are_encoded_back_as_they_are_a_str_included(strict: Parser) -> None:
    assert json.loads(ToolCall.decoded("GetWeather", {"city": "P"}).arguments) == {"city": "P"}
    twice = ToolCall.decoded("GetWeather", '{"city": "Paris"}')
    assert json.loads(twice.arguments) == '{"city": "Paris"}'
    with pytest.raises(SchemaMismatchError):
        read_tool_calls([twice], GetWeather, strict)


@pytest.mark.parametrize("field", ["name", "id"])
def test_a_huge_tool_name_or_call_id_is_not_echoed_whole_in_the_re_ask(lenient: Parser, field: str) -> None:
    huge = "X" * 1_000_000
    first = ToolCall(huge, '{"city": "P"}', id="a") if field == "name" else ToolCall("GetWeather", "{}", id=huge)
    sent: list[int] = []
    replies = iter([Completion(text="", tool_calls=(first,)), Completion(text='{"city": "P"}')])

    def llm(messages: list[dict[str, Any]]) -> Completion:
        sent.append(len(json.dumps(messages)))
        return next(replies)

    assert correct_result(llm, ASK, GetWeather, parser=lenient).value == GetWeather(city="P")
    assert len(sent) == 2 and sent[1] - sent[0] < MAX_ECHO_CHARS
