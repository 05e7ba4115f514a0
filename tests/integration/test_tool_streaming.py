"""Streamed tool calls with the real `openai` SDK (`stream=True`, its SSE decoder and chunk models) against a local
HTTP server that streams scripted chunks: partial argument objects per call, then the parsed calls."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, Literal

import pytest
from fixtures.sse_tool_server import SSEToolServer, tool_call_stream
from pydantic import BaseModel

from resilient_parse import (
    AmbiguousMatchError,
    ConfigurationError,
    ParseError,
    Parser,
    SchemaMismatchError,
    TruncatedOutputError,
)
from resilient_parse.llm.tool_defs import openai_tools
from resilient_parse.policy import LENIENT
from resilient_parse.tool_streaming import ToolStreamUpdate, astream_tool_calls, stream_tool_calls

openai = pytest.importorskip("openai", reason="the openai extra is not installed")


class GetWeather(BaseModel):
    """Current weather for a city."""

    city: str
    unit: Literal["c", "f"] = "c"


class SendEmail(BaseModel):
    to: str
    body: str


ASK = [{"role": "user", "content": "Weather in Paris?"}]


@pytest.fixture
def parser() -> Parser:
    return Parser(entrypoints=False)


def _create(server: SSEToolServer, tools: list[Any]) -> Any:
    client = openai.OpenAI(base_url=server.openai_url, api_key="test", max_retries=0)
    return client.chat.completions.create(
        model="m", messages=ASK, tools=openai_tools(tools), stream=True, stream_options={"include_usage": True}
    )


def _updates(parser: Parser, script: list[Any], target: Any, tools: list[Any]) -> list[ToolStreamUpdate[Any]]:
    with SSEToolServer([script]) as server:  # (the tools the request sent are told to the reader too)
        return list(stream_tool_calls(parser, _create(server, tools), target, tools=tools))


def test_partials_grow_per_call_and_the_final_update_holds_the_parsed_call(parser: Parser) -> None:
    pieces = ['{"ci', 'ty": "Pa', 'ris", ', '"unit"', ': "f"}']
    with SSEToolServer([tool_call_stream([("GetWeather", pieces)])]) as server:
        updates = list(stream_tool_calls(parser, _create(server, [GetWeather]), GetWeather))
        sent = server.received[0]
    assert sent["stream"] is True and sent["tools"][0]["function"]["name"] == "GetWeather"
    partials, final = updates[:-1], updates[-1]
    shown = [(u.partial.city, u.partial.unit) for u in partials]
    assert shown[0] == (None, None) and ("Paris", None) in shown and shown[-1] == ("Paris", "f")
    assert len(set(shown)) == len(shown)  # an update only when something new is complete
    assert all(u.index == 0 and u.name == "GetWeather" and u.id == "call_0" and not u.is_final for u in partials)
    assert final.is_final and final.value == GetWeather(city="Paris", unit="f")
    assert final.calls[0].arguments == "".join(pieces) and final.calls[0].id == "call_0"
    assert final.finish_reason == "tool_calls" and final.usage.prompt_tokens == 12


def test_broken_arguments_are_repaired_in_the_final_read_with_the_repair_recorded(parser: Parser) -> None:
    updates = _updates(
        parser, tool_call_stream([("GetWeather", ["{'city': 'Paris',", " 'unit': 'c',}"])]), GetWeather, [GetWeather]
    )
    final = updates[-1]
    assert final.value == GetWeather(city="Paris", unit="c")
    assert final.result is not None and final.result.repairs


def test_a_union_target_picks_each_calls_model_by_its_tool_name_for_partials_and_the_final_list(
    parser: Parser,
) -> None:
    script = tool_call_stream(
        [("SendEmail", ['{"to": "a@b.c", ', '"body": "hi"}']), ("GetWeather", ['{"city": ', '"Oslo"}'])],
        interleave=True,
    )
    updates = _updates(parser, script, list[GetWeather | SendEmail], [GetWeather, SendEmail])
    by_call: dict[int, list[Any]] = {}
    for u in updates[:-1]:
        assert u.index is not None
        by_call.setdefault(u.index, []).append(u.partial)
    assert type(by_call[0][-1]).__name__ == "PartialSendEmail" and by_call[0][-1].to == "a@b.c"
    assert type(by_call[1][-1]).__name__ == "PartialGetWeather" and by_call[1][-1].city == "Oslo"
    assert updates[-1].value == [SendEmail(to="a@b.c", body="hi"), GetWeather(city="Oslo")]


def test_a_tool_name_typo_shows_no_partials_and_is_repaired_in_lenient_refused_in_strict() -> None:
    script = tool_call_stream([("GetWether", ['{"city": "Oslo"}'])])
    lenient = _updates(Parser(entrypoints=False), script, GetWeather | SendEmail, [GetWeather, SendEmail])
    assert len(lenient) == 1 and lenient[0].value == GetWeather(city="Oslo")
    assert lenient[0].result is not None and any(r.kind == "enum_fuzzy" for r in lenient[0].result.repairs)
    with pytest.raises(SchemaMismatchError):
        _updates(Parser(mode="strict", entrypoints=False), script, GetWeather | SendEmail, [GetWeather, SendEmail])


def test_a_wrong_tool_for_the_target_is_refused_after_the_partials(parser: Parser) -> None:
    script = tool_call_stream([("SendEmail", ['{"to": "x@y.z", "body": "b"}'])])
    with pytest.raises(SchemaMismatchError) as info:
        _updates(parser, script, GetWeather, [GetWeather, SendEmail])
    assert info.value.details[0].kind == "tool_name_mismatch"


def _partials_then_error(parser: Parser, script: list[Any], target: Any) -> tuple[list[Any], ParseError]:
    shown: list[Any] = []
    with pytest.raises(ParseError) as info:
        for update in stream_tool_calls(parser, iter(script), target):
            shown.append(update)
    return shown, info.value


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_call_of_another_tool_shows_no_partials_for_a_single_model_target(mode: str) -> None:
    # Its arguments happen to fit GetWeather; streamed as GetWeather partials they would pass for the target's.
    script = tool_call_stream([("DeleteAllFiles", ['{"city": "/ho', 'me"}'])])
    shown, error = _partials_then_error(Parser(mode=mode, entrypoints=False), script, GetWeather)
    assert shown == [] and error.details[0].kind == "tool_name_mismatch"


def test_a_misspelt_tool_name_shows_no_partials_for_a_single_model_target_and_the_final_read_settles_it() -> None:
    script = tool_call_stream([("GetWether", ['{"city": ', '"Oslo"}'])])
    lenient = list(stream_tool_calls(Parser(entrypoints=False), iter(script), GetWeather, tools=[GetWeather]))
    assert len(lenient) == 1 and lenient[0].value == GetWeather(city="Oslo")
    assert lenient[0].result is not None and [r.kind for r in lenient[0].result.repairs] == ["enum_fuzzy"]
    shown, error = _partials_then_error(Parser(mode="strict", entrypoints=False), script, GetWeather)
    assert shown == [] and error.details[0].kind == "tool_name_mismatch"
    # with the tools sent unknown, a slip may be another tool's real name: no guess, in either mode
    shown, error = _partials_then_error(Parser(entrypoints=False), script, GetWeather)
    assert shown == [] and error.details[0].kind == "tool_name_mismatch"


def test_a_call_to_another_tool_the_request_sent_is_a_wrong_tool_not_a_typo_of_the_target() -> None:
    other = {"type": "function", "function": {"name": "GetWeathar", "parameters": {"type": "object"}}}
    script = tool_call_stream([("GetWeathar", ['{"city": "Oslo"}'])])
    guessed = list(stream_tool_calls(Parser(entrypoints=False), iter(script), GetWeather, tools=[GetWeather]))
    assert guessed[-1].result is not None and [r.kind for r in guessed[-1].result.repairs] == ["enum_fuzzy"]
    with pytest.raises(SchemaMismatchError) as info:
        list(stream_tool_calls(Parser(entrypoints=False), iter(script), GetWeather, tools=[GetWeather, other]))
    assert info.value.details[0].kind == "tool_name_mismatch"


def test_arguments_cut_off_by_the_length_limit_are_refused_not_completed(parser: Parser) -> None:
    script = tool_call_stream([("GetWeather", ['{"city": "Par'])], finish_reason="length")
    gen = stream_tool_calls(parser, iter(script), GetWeather)
    with pytest.raises(TruncatedOutputError):
        list(gen)


class Trip(BaseModel):
    city: str
    days: int = 1


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_length_cut_is_refused_even_where_the_cut_text_reads_as_a_whole_object(mode: str) -> None:
    # '{"city": "Paris"' is one '}' short: read alone, lenient closes it and fills days=1 — invented data, since
    # the provider said the arguments were cut off. The same reply non-streamed is a TruncatedOutputError.
    script = tool_call_stream([("Trip", ['{"city": ', '"Paris"'])], finish_reason="length")
    with pytest.raises(TruncatedOutputError) as info:
        _updates(Parser(mode=mode, entrypoints=False), script, Trip, [Trip])
    assert info.value.details[0].kind == "truncated"


def test_a_length_cut_refuses_the_last_of_parallel_calls_at_its_path(parser: Parser) -> None:
    script = tool_call_stream([("Trip", ['{"city": "Oslo"}']), ("Trip", ['{"city": "Rome"'])], finish_reason="length")
    with pytest.raises(TruncatedOutputError) as info:
        _updates(parser, script, list[Trip], [Trip])
    assert [(d.path, d.kind) for d in info.value.details] == [("/1", "truncated")]


def test_a_stream_without_tool_calls_is_read_as_a_text_answer(parser: Parser) -> None:
    script = tool_call_stream([], text=['Here: {"city": ', '"Rome"}'], finish_reason="stop")
    assert _updates(parser, script, GetWeather, [GetWeather])[-1].value == GetWeather(city="Rome")


def test_the_async_twin_reads_an_async_openai_stream(parser: Parser) -> None:
    script = tool_call_stream([("GetWeather", ['{"city": ', '"Lima"}'])])

    async def run(server: SSEToolServer) -> list[ToolStreamUpdate[GetWeather]]:
        client = openai.AsyncOpenAI(base_url=server.openai_url, api_key="test", max_retries=0)
        response = await client.chat.completions.create(
            model="m", messages=ASK, tools=openai_tools([GetWeather]), stream=True
        )
        return [u async for u in astream_tool_calls(parser, response, GetWeather)]

    with SSEToolServer([script]) as server:
        updates = asyncio.run(run(server))
    assert updates[-2].partial.city == "Lima" and updates[-1].value == GetWeather(city="Lima")


def test_a_target_tool_calls_cannot_answer_is_a_configuration_error(parser: Parser) -> None:
    with pytest.raises(ConfigurationError):
        stream_tool_calls(parser, iter(()), dict[str, int])


def test_hostile_argument_text_past_the_policy_limit_is_refused() -> None:
    parser = Parser(dataclasses.replace(LENIENT, max_input_chars=1_000), entrypoints=False)
    script = tool_call_stream([("GetWeather", ['{"city": "', "x" * 600, "y" * 600, '"}'])])
    with pytest.raises(ParseError) as info:
        list(stream_tool_calls(parser, iter(script), GetWeather))
    assert info.value.details[0].kind == "input_too_large"


def _chunk(text: str = "", calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    delta: dict[str, Any] = {"content": text} if text else {}
    if calls:
        delta["tool_calls"] = calls
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


def _piece(index: int, arguments: str, name: str | None = None, id: str | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    if name:
        function["name"] = name
    return {"index": index, "id": id, "type": "function", "function": function}


@pytest.mark.parametrize(
    "text", ['{"city": "Rome"}', 'Either {"city": "Rome"} or {"city": "Oslo"}.', '{"city": "Rome", "city": "Oslo"}']
)
def test_text_beside_a_streamed_call_that_answers_otherwise_is_ambiguous(parser: Parser, text: str) -> None:
    chunks = [_chunk(text), _chunk(calls=[_piece(0, '{"city": "Paris"}', "GetWeather", "c1")])]
    with pytest.raises(AmbiguousMatchError) as info:
        list(stream_tool_calls(parser, iter(chunks), GetWeather))
    assert {d.kind for d in info.value.details} == {"ambiguous_answer"}
    same = [_chunk('Calling it: {"city": "Paris"}'), chunks[1]]
    assert list(stream_tool_calls(parser, iter(same), GetWeather))[-1].value == GetWeather(city="Paris")


def test_a_new_id_at_an_index_holding_another_call_starts_another_call_never_spliced(parser: Parser) -> None:
    chunks = [
        _chunk(calls=[_piece(0, '{"city": "Paris"}', "GetWeather", "a")]),
        _chunk(calls=[_piece(0, '{"city": "Rome"}', "GetWeather", "b")]),
    ]
    final = list(stream_tool_calls(parser, iter(chunks), list[GetWeather]))[-1]
    assert final.value == [GetWeather(city="Paris"), GetWeather(city="Rome")]
    assert [c.id for c in final.calls] == ["a", "b"]
    with pytest.raises(AmbiguousMatchError):  # two calls for a target that takes one, not one spliced object
        list(stream_tool_calls(parser, iter(chunks), GetWeather))
