"""`parse(reply, Target)` takes the reply objects of the providers' SDKs, not only text (issue 24).

The objects are the SDKs' own (`model_validate` of the JSON the API sends, LangChain's `AIMessage`), and one test
goes through the real OpenAI client over HTTP to a local server. Each reply is read by `tools/replies.py`: its text
as text, its tool calls by name, its refusal, truncation and several choices as the module docstring says.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
from typing import Any

import anthropic
import openai
import pytest
from fixtures.fake_openai_server import FakeLLMServer, call, chat, tool_calls
from langchain_core.messages import AIMessage
from openai.types.chat import ChatCompletion
from openai.types.responses import Response
from pydantic import BaseModel

from resilient_parse import Parser, parse, parse_result
from resilient_parse.context import CallContext
from resilient_parse.correction.types import MalformedResponseError
from resilient_parse.errors import (
    AmbiguousMatchError,
    InvalidInputError,
    ParseError,
    RefusalError,
    SchemaMismatchError,
    TruncatedOutputError,
)
from resilient_parse.hookspecs import Event, hookimpl
from resilient_parse.llm.anthropic import completion_from_anthropic
from resilient_parse.llm.openai import completion_from_openai


class Weather(BaseModel):
    city: str
    temp: int


class GetWeather(BaseModel):
    city: str


class SendEmail(BaseModel):
    to: str
    body: str


WEATHER = '{"city": "Paris", "temp": 21}'


def completion(
    content: str | None = WEATHER,
    *,
    finish_reason: str = "stop",
    calls: tuple[tuple[str, str], ...] = (),
    refusal: str | None = None,
    choices: int = 1,
    contents: list[str] | None = None,
) -> ChatCompletion:
    """A real `openai` ChatCompletion, as the SDK builds it from the API's JSON."""
    texts: list[str | None] = list(contents) if contents is not None else [content] * choices
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "gpt-4o-mini",
            "choices": [
                {
                    "index": i,
                    "finish_reason": finish_reason,
                    "message": {
                        "role": "assistant",
                        "content": text,
                        "refusal": refusal,
                        "tool_calls": [
                            {"id": f"call_{j}", "type": "function", "function": {"name": n, "arguments": a}}
                            for j, (n, a) in enumerate(calls)
                        ]
                        or None,
                    },
                }
                for i, text in enumerate(texts)
            ],
        }
    )


def claude(blocks: list[dict[str, Any]], stop_reason: str = "end_turn") -> anthropic.types.Message:
    return anthropic.types.Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-3-5-haiku-latest",
            "content": blocks,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }
    )


def responses(output: list[dict[str, Any]], *, status: str = "completed", reason: str | None = None) -> Response:
    return Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1_700_000_000,
            "model": "gpt-4o-mini",
            "status": status,
            "incomplete_details": {"reason": reason} if reason else None,
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
    )


def output_text(text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def kinds(result: Any) -> list[str]:
    return [r.kind for r in result.repairs]


# -- text ---------------------------------------------------------------------------------------------------------


def test_a_chat_completion_is_read_from_its_message_content() -> None:
    result = parse_result(completion(WEATHER), Weather)
    assert result.value == Weather(city="Paris", temp=21)
    assert kinds(result) == ["read_reply"]
    assert result.repairs[0].lossless
    assert "choices[0].message.content" in result.repairs[0].note


def test_a_choice_and_a_message_read_as_the_completion_does() -> None:
    reply = completion(WEATHER)
    expected = Weather(city="Paris", temp=21)
    assert parse(reply.choices[0], Weather) == parse(reply.choices[0].message, Weather) == expected


def test_the_content_is_parsed_as_text_is_with_its_repairs() -> None:
    result = parse_result(completion("Here you go:\n```json\n{'city': 'Paris', 'temp': 21,}\n```"), Weather)
    assert result.value == Weather(city="Paris", temp=21)
    assert kinds(result)[0] == "read_reply"
    assert {"extract_fence", "single_quotes", "trailing_comma"} <= set(kinds(result))


def test_strict_reads_a_reply_whose_content_strict_reads() -> None:
    assert Parser(mode="strict").parse(completion(WEATHER), Weather) == Weather(city="Paris", temp=21)


def test_an_anthropic_message_is_read_from_its_text_blocks() -> None:
    message = claude([{"type": "text", "text": WEATHER}])
    result = parse_result(message, Weather)
    assert result.value == Weather(city="Paris", temp=21)
    assert "content[].text" in result.repairs[0].note


def test_a_responses_api_response_is_read_from_its_output_text() -> None:
    assert parse(responses([output_text(WEATHER)]), Weather) == Weather(city="Paris", temp=21)


def test_a_langchain_ai_message_is_read_from_its_content() -> None:
    assert parse(AIMessage(content=WEATHER), Weather) == Weather(city="Paris", temp=21)


def test_a_reply_types_as_its_target() -> None:
    weather: Weather = parse(completion(WEATHER), Weather)  # mypy checks this line: Weather, not Any
    assert weather.temp == 21


# -- tool calls ---------------------------------------------------------------------------------------------------


def test_a_tool_call_is_read_from_its_arguments() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("GetWeather", '{"city": "Paris"}'),))
    result = parse_result(reply, GetWeather)
    assert result.value == GetWeather(city="Paris")
    assert kinds(result) == ["read_reply", "read_tool_call"]
    assert result.lossless


def test_a_union_of_tools_is_chosen_by_the_calls_name() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("SendEmail", '{"to": "a@b.c", "body": "hi"}'),))
    assert parse(reply, GetWeather | SendEmail) == SendEmail(to="a@b.c", body="hi")


def test_a_union_member_is_not_chosen_by_shape_against_the_name() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("GetWeather", '{"to": "a@b.c", "body": "hi"}'),))
    with pytest.raises(SchemaMismatchError, match="to 'GetWeather'") as info:
        parse(reply, GetWeather | SendEmail)
    assert info.value.details[0].path == "/city"


def test_a_list_target_takes_every_call_in_order() -> None:
    two = (("GetWeather", '{"city": "Paris"}'), ("GetWeather", '{"city": "Rome"}'))
    reply = completion(None, finish_reason="tool_calls", calls=two)
    assert parse(reply, list[GetWeather]) == [GetWeather(city="Paris"), GetWeather(city="Rome")]


def test_two_calls_for_one_model_are_ambiguous() -> None:
    two = (("GetWeather", '{"city": "Paris"}'), ("GetWeather", '{"city": "Rome"}'))
    reply = completion(None, finish_reason="tool_calls", calls=two)
    with pytest.raises(AmbiguousMatchError) as info:
        parse(reply, GetWeather)
    assert info.value.details[0].kind == "ambiguous_tool_calls"


def test_a_misspelt_tool_name_is_repaired_and_recorded() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("GetWether", '{"city": "Paris"}'),))
    result = parse_result(reply, GetWeather | SendEmail)
    assert result.value == GetWeather(city="Paris")
    renamed = [r for r in result.repairs if r.before == "GetWether"]
    assert [(r.after, r.lossless) for r in renamed] == [("GetWeather", False)]


def test_strict_refuses_a_misspelt_tool_name() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("GetWether", '{"city": "Paris"}'),))
    with pytest.raises(SchemaMismatchError, match="does not rename tools"):
        Parser(mode="strict").parse(reply, GetWeather)


def test_a_call_to_another_tool_is_refused() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("DeleteFile", '{"city": "Paris"}'),))
    with pytest.raises(SchemaMismatchError) as info:
        parse(reply, GetWeather)
    assert info.value.details[0].kind == "tool_name_mismatch"


def test_broken_call_arguments_are_repaired_as_text_is() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("GetWeather", "{'city': 'Paris',}"),))
    result = parse_result(reply, GetWeather)
    assert result.value == GetWeather(city="Paris")
    assert {"single_quotes", "trailing_comma"} <= set(kinds(result))


def test_an_anthropic_tool_use_block_is_read_by_name() -> None:
    message = claude(
        [{"type": "tool_use", "id": "toolu_1", "name": "SendEmail", "input": {"to": "a@b.c", "body": "hi"}}],
        stop_reason="tool_use",
    )
    assert parse(message, GetWeather | SendEmail) == SendEmail(to="a@b.c", body="hi")


def test_a_responses_function_call_is_read_by_name() -> None:
    item = {"type": "function_call", "call_id": "c1", "name": "GetWeather", "arguments": '{"city": "Oslo"}'}
    assert parse(responses([item]), GetWeather | SendEmail) == GetWeather(city="Oslo")


def test_a_langchain_tool_call_is_read_by_name() -> None:
    message = AIMessage(content="", tool_calls=[{"name": "GetWeather", "args": {"city": "Oslo"}, "id": "c1"}])
    assert parse(message, GetWeather | SendEmail) == GetWeather(city="Oslo")


def test_a_langchain_call_langchain_could_not_decode_is_repaired() -> None:
    message = AIMessage(
        content="",
        invalid_tool_calls=[{"name": "GetWeather", "args": "{'city': 'Oslo',}", "id": "c1", "error": None}],
    )
    result = parse_result(message, GetWeather)
    assert result.value == GetWeather(city="Oslo")
    assert {"single_quotes", "trailing_comma"} <= set(kinds(result))


def test_a_langchain_refusal_kept_in_additional_kwargs_is_a_refusal() -> None:
    message = AIMessage(content=WEATHER, additional_kwargs={"refusal": "I won't share the weather."})
    with pytest.raises(RefusalError, match="I won't share the weather"):
        parse(message, Weather)


def test_text_beside_the_call_that_answers_otherwise_is_ambiguous() -> None:
    reply = completion('{"city": "Rome"}', finish_reason="tool_calls", calls=(("GetWeather", '{"city": "Paris"}'),))
    with pytest.raises(AmbiguousMatchError) as info:
        parse(reply, GetWeather)
    assert info.value.details[0].kind == "ambiguous_answer"


def test_prose_beside_the_call_is_no_second_answer() -> None:
    reply = completion("Let me look that up.", finish_reason="tool_calls", calls=(("GetWeather", '{"city": "Paris"}'),))
    assert parse(reply, GetWeather) == GetWeather(city="Paris")


def test_one_call_answers_a_target_of_no_tool_model_by_its_arguments() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("lookup", '{"city": "Paris"}'),))
    assert parse(reply, dict[str, str]) == {"city": "Paris"}


# -- truncation ---------------------------------------------------------------------------------------------------


def test_lenient_marks_a_cut_off_reply_with_a_lossy_repair() -> None:
    result = parse_result(completion(WEATHER, finish_reason="length"), Weather)
    assert result.value == Weather(city="Paris", temp=21)
    assert kinds(result) == ["read_reply", "truncated_reply"]
    assert not result.lossless


def test_strict_refuses_a_cut_off_reply() -> None:
    with pytest.raises(TruncatedOutputError) as info:
        Parser(mode="strict").parse(completion(WEATHER, finish_reason="length"), Weather)
    assert info.value.details[0].kind == "truncated_reply"


def test_a_cut_off_anthropic_message_and_an_incomplete_response_are_cut_too() -> None:
    strict = Parser(mode="strict")
    with pytest.raises(TruncatedOutputError):
        strict.parse(claude([{"type": "text", "text": WEATHER}], stop_reason="max_tokens"), Weather)
    with pytest.raises(TruncatedOutputError):
        strict.parse(responses([output_text(WEATHER)], status="incomplete", reason="max_output_tokens"), Weather)


def test_a_cut_off_value_is_refused_in_lenient_as_cut_text_is() -> None:
    with pytest.raises(TruncatedOutputError):
        parse(completion('{"city": "Par', finish_reason="length"), Weather)


def test_a_cut_off_tool_call_is_refused_in_every_mode() -> None:
    """Whole arguments too: the turn may have had more calls than it shows (as `read_tool_calls` refuses them)."""
    reply = completion(None, finish_reason="length", calls=(("GetWeather", '{"city": "Paris"}'),))
    for mode in ("lenient", "strict"):
        with pytest.raises(TruncatedOutputError, match="may have been cut off"):
            parse(reply, GetWeather, mode=mode)


# -- refusals -----------------------------------------------------------------------------------------------------


def test_an_openai_refusal_is_a_refusal_error_with_the_providers_words() -> None:
    with pytest.raises(RefusalError, match="I can't help with that"):
        parse(completion(None, refusal="I can't help with that."), Weather)


def test_a_content_filter_stop_is_a_refusal() -> None:
    with pytest.raises(RefusalError, match="content filter"):
        parse(completion(WEATHER, finish_reason="content_filter"), Weather)


def test_an_anthropic_refusal_stop_is_a_refusal_even_beside_json() -> None:
    with pytest.raises(RefusalError, match="refusal"):
        parse(claude([{"type": "text", "text": WEATHER}], stop_reason="refusal"), Weather)


def test_a_responses_refusal_part_is_a_refusal() -> None:
    item = output_text("")
    item["content"] = [{"type": "refusal", "refusal": "No, I won't."}]
    with pytest.raises(RefusalError, match="No, I won't"):
        parse(responses([item]), Weather)


def test_a_refusal_beside_a_tool_call_refuses_the_call() -> None:
    reply = completion(
        "I'm sorry, I can't do that.", finish_reason="tool_calls", calls=(("GetWeather", '{"city": "Paris"}'),)
    )
    with pytest.raises(RefusalError):
        parse(reply, GetWeather)


# -- several choices ----------------------------------------------------------------------------------------------


def test_identical_choices_are_one_answer() -> None:
    result = parse_result(completion(WEATHER, choices=3), Weather)
    assert result.value == Weather(city="Paris", temp=21)
    assert "3 choices agree" in result.repairs[0].note


def test_choices_that_differ_are_ambiguous_and_named() -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        parse(completion(contents=[WEATHER, WEATHER, '{"city": "Rome", "temp": 30}']), Weather)
    assert [(d.kind, d.path) for d in info.value.details] == [("ambiguous_choices", "")]
    assert "choices[2]" in info.value.details[0].message
    assert "choices[2] differ" in info.value.message and "choices[1]" not in info.value.message


# -- anything else ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("given", [42, None, {"choices": []}, object(), AIMessage(content="x").model_dump()])
def test_anything_else_is_invalid_input_naming_what_is_accepted(given: Any) -> None:
    with pytest.raises(InvalidInputError, match="ChatCompletion") as info:
        parse(given, Weather)
    assert info.value.details[0].kind == "invalid_input"


def test_a_completion_without_choices_is_invalid_input() -> None:
    empty = ChatCompletion.model_validate(
        {"id": "x", "object": "chat.completion", "created": 1, "model": "m", "choices": []}
    )
    with pytest.raises(InvalidInputError, match="no choices"):
        parse(empty, Weather)


# -- observers ----------------------------------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    @hookimpl
    def rp_on_event(self, event: Event, ctx: CallContext | None) -> None:
        self.events.append((event.name, dict(event.data)))


@pytest.mark.parametrize(
    ("reply", "source"),
    [
        (completion(WEATHER), "whole"),
        (completion(None, finish_reason="tool_calls", calls=(("Weather", WEATHER),)), "tool_calls"),
    ],
)
def test_observers_hear_one_parse_of_a_reply(reply: ChatCompletion, source: str) -> None:
    recorder = Recorder()
    Parser(plugins=[recorder], entrypoints=False).parse(reply, Weather)
    names = [name for name, _ in recorder.events]
    assert names.count("parse_started") == 1
    assert [data["source"] for name, data in recorder.events if name == "parse_succeeded"] == [source]


def test_observers_hear_a_reply_that_fails() -> None:
    recorder = Recorder()
    with pytest.raises(RefusalError):
        Parser(plugins=[recorder], entrypoints=False).parse(completion(None, refusal="No."), Weather)
    assert [name for name, _ in recorder.events] == ["parse_started", "parse_failed"]
    assert recorder.events[-1][1]["kind"] == "refusal"


# -- one reader for parse and the correction adapters ---------------------------------------------------------------


def test_the_adapters_read_replies_as_parse_does() -> None:
    reply = completion("beside", finish_reason="length", calls=(("GetWeather", '{"city": "Paris"}'),))
    read = completion_from_openai(reply)
    assert (read.text, read.finish_reason, [c.name for c in read.tool_calls]) == ("beside", "length", ["GetWeather"])
    message = claude([{"type": "text", "text": "hi"}], stop_reason="refusal")
    assert completion_from_anthropic(message).refusal == "the model refused (stop_reason 'refusal')"
    with pytest.raises(MalformedResponseError):
        completion_from_openai({"choices": [{"message": {"tool_calls": [{"function": {}}]}}]})


# -- end to end: the real client over HTTP ------------------------------------------------------------------------


def test_parse_what_the_openai_client_returned_from_a_server() -> None:
    with FakeLLMServer([chat(WEATHER), tool_calls(call("SendEmail", '{"to": "a@b.c", "body": "hi"}'))]) as server:
        client = openai.OpenAI(base_url=server.openai_url, api_key="test", max_retries=0)
        ask = [{"role": "user", "content": "Weather in Paris?"}]
        text_reply = client.chat.completions.create(model="gpt-4o-mini", messages=ask)  # type: ignore[arg-type]
        call_reply = client.chat.completions.create(model="gpt-4o-mini", messages=ask)  # type: ignore[arg-type]
    assert parse(text_reply, Weather) == Weather(city="Paris", temp=21)
    assert parse(call_reply, GetWeather | SendEmail) == SendEmail(to="a@b.c", body="hi")


def test_a_valid_parse_of_a_reply_imports_no_sdk_nor_the_reader() -> None:
    program = textwrap.dedent(
        """
        import sys
        from types import SimpleNamespace as O
        from pydantic import BaseModel
        from resilient_parse import parse

        class Weather(BaseModel):
            city: str

        message = O(role="assistant", content='{"city": "Paris"}', tool_calls=None, refusal=None)
        reply = O(object="chat.completion", choices=[O(index=0, finish_reason="stop", message=message)])
        assert parse(reply, Weather) == Weather(city="Paris")
        heavy = ("openai", "anthropic", "langchain_core", "json_repair", "rapidfuzz", "resilient_parse.json.document")
        print(sorted(m for m in heavy if m in sys.modules) + [m for m in sys.modules if ".text." in m])
        """
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- found by an outside attack: each reading follows the reply, never a field's look-alike ---------------------


class CallShaped(BaseModel):
    action: str
    arguments: dict[str, object] = {}


def test_a_native_call_into_a_call_shaped_model_keeps_the_calls_name() -> None:
    """The call's arguments are not the whole answer: their own `action` key must not replace the tool's name."""
    sneaky = '{"action": "delete_all", "arguments": {"force": true}}'
    for mode in ("strict", "lenient"):
        try:
            value = parse(
                completion(None, finish_reason="tool_calls", calls=(("run_job", sneaky),)), CallShaped, mode=mode
            )
        except ParseError:
            continue
        assert value.action == "run_job"
    plain = completion(None, finish_reason="tool_calls", calls=(("search", '{"q": "x"}'),))
    assert parse(plain, CallShaped) == CallShaped(action="search", arguments={"q": "x"})
    with pytest.raises(ParseError):  # naming the call's field `action` is a rename strict does not make
        parse(plain, CallShaped, mode="strict")


def test_two_native_calls_fill_a_list_of_call_shaped_models() -> None:
    reply = completion(None, finish_reason="tool_calls", calls=(("a", '{"x": 1}'), ("b", '{"y": 2}')))
    assert [c.action for c in parse(reply, list[CallShaped])] == ["a", "b"]


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_text_and_a_call_that_answer_a_plain_target_differently_are_ambiguous(mode: str) -> None:
    reply = completion('{"a": 1}', finish_reason="tool_calls", calls=(("f", '{"a": 2}'),))
    with pytest.raises(AmbiguousMatchError):
        parse(reply, dict[str, int], mode=mode)
    same = completion('{"a": 2}', finish_reason="tool_calls", calls=(("f", '{"a": 2}'),))
    assert parse(same, dict[str, int], mode=mode) == {"a": 2}


@pytest.mark.parametrize("stop", ["max_tokens", "model_context_window_exceeded"])
def test_every_anthropic_cut_is_refused_in_strict(stop: str) -> None:
    with pytest.raises(TruncatedOutputError):
        parse(claude([{"type": "text", "text": "12"}], stop), int, mode="strict")


def test_a_gemini_cut_through_langchain_is_refused_in_strict() -> None:
    message = AIMessage(content="12", response_metadata={"finish_reason": "MAX_TOKENS"})
    with pytest.raises(TruncatedOutputError):
        parse(message, int, mode="strict")


def test_call_arguments_count_against_the_input_limit() -> None:
    from resilient_parse import InputTooLargeError, Policy
    from resilient_parse.policy import LENIENT

    small = Parser(mode=Policy(**{**LENIENT.__dict__, "max_input_chars": 1_000}))
    big = '{"city": "' + "x" * 5_000 + '"}'
    with pytest.raises(InputTooLargeError):
        small.parse(completion(None, finish_reason="tool_calls", calls=(("GetWeather", big),)), GetWeather)


def test_odd_reply_objects_end_in_library_errors_only() -> None:
    from openai.types.chat.chat_completion import Choice

    from resilient_parse import ResilientParseError

    odd: list[Any] = [
        Choice.model_construct(index=0, finish_reason=["length"], message=completion().choices[0].message),
        AIMessage.model_construct(content="", tool_calls=[{"args": {}}], invalid_tool_calls=[], response_metadata={}),
        AIMessage.model_construct(content="", tool_calls=[], invalid_tool_calls=[object()], response_metadata={}),
    ]
    for reply in odd:  # anything else (TypeError, KeyError, AttributeError) fails the test
        with contextlib.suppress(ResilientParseError):
            parse(reply, GetWeather)


def test_choices_that_differ_only_in_json_spacing_are_one_answer() -> None:
    reply = completion(contents=['{"city": "Paris", "temp": 21}', '{"city":"Paris","temp":21}'])
    assert parse(reply, Weather) == Weather(city="Paris", temp=21)


def test_a_function_llm_may_return_a_responses_object_or_several_choices() -> None:
    from resilient_parse import correct
    from resilient_parse.correction import CorrectionsExhaustedError

    assert correct(lambda m: responses([output_text(WEATHER)]), [], Weather) == Weather(city="Paris", temp=21)
    two = completion(contents=[WEATHER, '{"city": "Rome", "temp": 30}'])
    with pytest.raises(CorrectionsExhaustedError) as info:  # never silently choices[0]
        correct(lambda m: two, [], Weather, max_corrections=0)
    assert info.value.attempts[0].error_kind == "malformed_response"


def test_a_text_beside_the_call_that_is_itself_two_answers_is_ambiguous() -> None:
    said = 'Either {"city": "Rome"} or {"city": "Oslo"}'
    reply = completion(said, finish_reason="tool_calls", calls=(("lookup", '{"city": "Paris"}'),))
    with pytest.raises(AmbiguousMatchError):
        parse(reply, dict[str, str])


def test_a_target_that_fails_while_dumping_is_our_error_not_pydantics() -> None:
    from pydantic import field_serializer

    class Touchy(BaseModel):
        city: str

        @field_serializer("city")
        def _boom(self, value: str) -> str:
            raise RuntimeError("serializer broke")

    reply = completion(None, finish_reason="tool_calls", calls=(("Touchy", '{"city": "Paris"}'),))
    with pytest.raises(ParseError) as info:
        parse(reply, Touchy)
    assert info.value.details[0].kind == "internal"
