"""LangChain at real call sites, with langchain-core's own fake chat models and message classes: the output parser
reads tool calls (decoded and invalid), streams partials and declares its output type; `ChatModelAdapter` lets the
correction loop call a chat model, answering tool calls with tool messages."""

from __future__ import annotations

import asyncio
from typing import Any, Literal
from uuid import UUID

import pytest
from pydantic import BaseModel

from resilient_parse import ConfigurationError, Parser
from resilient_parse.correction import CorrectionsExhaustedError, Usage, correct_result
from resilient_parse.streaming import partial_type

pytest.importorskip("langchain_core", reason="the langchain extra is not installed")

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_core.runnables import RunnableLambda
from langchain_core.utils.function_calling import convert_to_openai_tool

from resilient_parse.integrations.langchain import (
    ChatModelAdapter,
    LangChainParseError,
    ResilientOutputParser,
    message_tool_calls,
)


class GetWeather(BaseModel):
    """Current weather for a city."""

    city: str
    unit: Literal["c", "f"] = "c"


class SendEmail(BaseModel):
    to: str
    body: str


class Plan(BaseModel):
    goal: str
    steps: list[str]


def _model(*replies: AIMessage | str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter(replies))


def _call(name: str, args: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def _broken(name: str, args: str, call_id: str = "c1") -> dict[str, Any]:
    return {"name": name, "args": args, "id": call_id, "error": "could not decode"}


class Recorder(BaseCallbackHandler):
    """LangChain's own callback: the messages each chat-model call received."""

    def __init__(self) -> None:
        self.sent: list[list[BaseMessage]] = []
        self.params: list[dict[str, Any]] = []

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], *, run_id: UUID, **kwargs: Any
    ) -> None:
        self.sent.append(messages[0])
        self.params.append(kwargs.get("invocation_params") or {})


class ToolCallingFake(GenericFakeChatModel):
    """langchain-core's fake with `bind_tools` done the way provider models do it (`self.bind(tools=...)`)."""

    def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kwargs: Any) -> Any:
        return self.bind(tools=tools, tool_choice=tool_choice, **kwargs)


# -- the output parser reads tool calls ---------------------------------------------------------------------------


def test_broken_arguments_langchain_could_not_decode_are_repaired_from_invalid_tool_calls() -> None:
    reply = AIMessage(content="", invalid_tool_calls=[_broken("GetWeather", "{'city': 'Paris', unit: 'f',}")])
    chain = _model(reply) | ResilientOutputParser(target=GetWeather)
    assert chain.invoke("weather?") == GetWeather(city="Paris", unit="f")


def test_decoded_tool_calls_are_read_with_key_repairs_and_text_is_ignored_beside_them() -> None:
    reply = AIMessage(content="Let me check.", tool_calls=[_call("GetWeather", {"City": "Oslo"})])
    assert ResilientOutputParser(target=GetWeather).invoke(reply) == GetWeather(city="Oslo")


def test_parallel_calls_fill_a_list_of_a_union_in_the_providers_order() -> None:
    reply = AIMessage(
        content="",
        tool_calls=[_call("GetWeather", {"city": "Oslo"}, "b")],
        invalid_tool_calls=[_broken("SendEmail", '{"to": "a@b.c", "body": "hi"', "a")],
        additional_kwargs={"tool_calls": [{"id": "a"}, {"id": "b"}]},
    )
    assert [c.id for c in message_tool_calls(reply)] == ["a", "b"]
    parsed = ResilientOutputParser(target=list[GetWeather | SendEmail]).invoke(reply)
    assert parsed == [SendEmail(to="a@b.c", body="hi"), GetWeather(city="Oslo")]


def test_a_tool_name_typo_is_repaired_in_lenient_and_refused_in_strict_with_feedback_for_the_model() -> None:
    reply = AIMessage(content="", tool_calls=[_call("GetWether", {"city": "Oslo"})])
    with pytest.raises(LangChainParseError):  # the bound tools unknown: the slip may be another tool's real name
        ResilientOutputParser(target=GetWeather | SendEmail).invoke(reply)
    lenient = ResilientOutputParser(target=GetWeather | SendEmail, tools=[GetWeather, SendEmail])
    assert lenient.invoke(reply) == GetWeather(city="Oslo")
    strict = ResilientOutputParser(
        target=GetWeather | SendEmail, tools=[GetWeather, SendEmail], parser=Parser(mode="strict", entrypoints=False)
    )
    with pytest.raises(OutputParserException) as info:
        strict.invoke(reply)
    error = info.value
    assert isinstance(error, LangChainParseError) and error.send_to_llm
    assert "GetWether" in error.llm_output and "GetWeather" in error.observation


def test_a_wrong_tool_for_the_target_is_refused() -> None:
    reply = AIMessage(content="", tool_calls=[_call("SendEmail", {"to": "x", "body": "y"})])
    with pytest.raises(LangChainParseError) as info:
        ResilientOutputParser(target=GetWeather).invoke(reply)
    assert info.value.details[0].kind == "tool_name_mismatch"


def test_arguments_cut_off_by_the_length_limit_are_refused_not_completed() -> None:
    reply = AIMessage(
        content="",
        invalid_tool_calls=[_broken("GetWeather", '{"city": "Par')],
        response_metadata={"finish_reason": "length"},
    )
    with pytest.raises(LangChainParseError) as info:
        ResilientOutputParser(target=GetWeather).invoke(reply)
    assert info.value.kind == "truncated"


def test_the_calls_are_the_answer_when_a_message_makes_any_never_the_text_beside_a_wrong_call() -> None:
    reply = AIMessage(content='{"goal": "g", "steps": []}', tool_calls=[_call("GetWeather", {"city": "x"})])
    with pytest.raises(LangChainParseError):
        ResilientOutputParser(target=Plan).invoke(reply)
    assert ResilientOutputParser(target=dict[str, Any]).invoke(reply) == {"goal": "g", "steps": []}


def _as_openai_sends(name: str, arguments: str, call_id: str = "c1") -> AIMessage:
    """An `AIMessage` as langchain-openai builds it: the raw call in `additional_kwargs`, decoded by LangChain's
    own `parse_tool_call` into `tool_calls`."""
    raw = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    decoded = parse_tool_call(raw, return_id=True)
    assert decoded is not None
    return AIMessage(content="", tool_calls=[decoded], additional_kwargs={"tool_calls": [raw]})


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_key_written_twice_with_two_values_is_refused_not_read_as_langchains_last(mode: str) -> None:
    reply = _as_openai_sends("GetWeather", '{"city": "Paris", "city": "Rome"}')
    assert reply.tool_calls[0]["args"] == {"city": "Rome"}  # what LangChain's decoding kept
    with pytest.raises(LangChainParseError) as info:
        ResilientOutputParser(target=GetWeather, parser=Parser(mode=mode, entrypoints=False)).invoke(reply)
    assert info.value.kind == "ambiguous" and info.value.details[0].path == "/city"
    assert "Paris" in info.value.observation and "Rome" in info.value.observation


def test_the_adapter_reads_the_arguments_as_written_and_re_asks_on_a_key_written_twice() -> None:
    first = _as_openai_sends("GetWeather", '{"city": "Paris", "city": "Rome"}', "call_1")
    second = _as_openai_sends("GetWeather", '{"city": "Oslo"}', "call_2")
    result = correct_result(ChatModelAdapter(_model(first, second)), ASK, GetWeather)
    assert result.value == GetWeather(city="Oslo") and result.calls == 2
    assert message_tool_calls(first)[0].arguments == '{"city": "Paris", "city": "Rome"}'


def test_decoded_arguments_changed_since_the_raw_call_are_read_as_they_are_now() -> None:
    reply = _as_openai_sends("GetWeather", '{"city": "Paris", "city": "Rome"}')
    edited = reply.model_copy(update={"tool_calls": [_call("GetWeather", {"city": "Lima"})]})
    assert ResilientOutputParser(target=GetWeather).invoke(edited) == GetWeather(city="Lima")


def _nested(depth: int) -> dict[str, Any]:
    deep: dict[str, Any] = {}
    for _ in range(depth):
        deep = {"a": deep}
    return deep


def test_decoded_arguments_nested_too_deeply_are_refused_with_our_exception_not_a_recursion_error() -> None:
    reply = AIMessage(content="", tool_calls=[_call("GetWeather", {"city": "x", "extra": _nested(3000)})])
    parser = ResilientOutputParser(target=GetWeather)
    with pytest.raises(LangChainParseError) as info:
        parser.invoke(reply)
    assert info.value.details[0].kind == "too_deep" and info.value.send_to_llm
    with pytest.raises(LangChainParseError) as streamed:
        list(parser.transform(iter([reply])))
    assert streamed.value.details[0].kind == "too_deep"
    beside = AIMessage(content='{"goal": "g"}', tool_calls=reply.tool_calls)
    assert ResilientOutputParser(target=dict[str, Any]).invoke(beside) == {"goal": "g"}  # its calls are not read


def test_the_adapter_counts_a_reply_nested_too_deeply_as_unreadable_and_asks_again() -> None:
    deep = AIMessage(content="", tool_calls=[_call("GetWeather", {"city": "x", "extra": _nested(3000)})])
    good = AIMessage(content="", tool_calls=[_call("GetWeather", {"city": "Oslo"})])
    result = correct_result(ChatModelAdapter(_model(deep, good)), ASK, GetWeather)
    assert result.value == GetWeather(city="Oslo") and result.calls == 2
    assert result.attempts[0].error_kind == "malformed_response"


def test_text_that_answers_differently_beside_the_call_is_ambiguous_and_names_both() -> None:
    reply = AIMessage(content='{"city": "Rome"}', tool_calls=[_call("GetWeather", {"city": "Paris"})])
    parser = ResilientOutputParser(target=GetWeather)
    with pytest.raises(LangChainParseError) as info:
        parser.invoke(reply)
    error = info.value
    assert error.kind == "ambiguous" and error.details[0].kind == "ambiguous_answer"
    assert "Rome" in error.message and "Paris" in error.message and error.send_to_llm
    chunks = [
        AIMessageChunk(content='{"city": '),
        AIMessageChunk(
            content='"Rome"}',
            tool_call_chunks=[{"name": "GetWeather", "args": '{"city": "Paris"}', "id": "c1", "index": 0}],
        ),
    ]
    with pytest.raises(LangChainParseError) as streamed:
        list(parser.transform(iter(chunks)))
    assert streamed.value.details[0].kind == "ambiguous_answer"


def test_text_beside_the_call_that_gives_the_same_answer_or_only_prose_is_fine() -> None:
    parser = ResilientOutputParser(target=GetWeather)
    same = AIMessage(content='Calling with {"city": "Paris"}.', tool_calls=[_call("GetWeather", {"city": "Paris"})])
    assert parser.invoke(same) == GetWeather(city="Paris")
    prose = AIMessage(
        content="Checking the weather in Rome for you.", tool_calls=[_call("GetWeather", {"city": "Paris"})]
    )
    assert parser.invoke(prose) == GetWeather(city="Paris")
    listed = AIMessage(content='[{"city": "Oslo"}]', tool_calls=[_call("GetWeather", {"city": "Lima"})])
    with pytest.raises(LangChainParseError):
        ResilientOutputParser(target=list[GetWeather]).invoke(listed)


@pytest.mark.parametrize("text", ['Either {"city": "Rome"} or {"city": "Oslo"}.', '{"city": "Rome", "city": "Oslo"}'])
def test_text_that_is_two_readings_itself_beside_the_call_is_ambiguous_not_prose(text: str) -> None:
    reply = AIMessage(content=text, tool_calls=[_call("GetWeather", {"city": "Paris"})])
    with pytest.raises(LangChainParseError) as info:
        ResilientOutputParser(target=GetWeather).invoke(reply)
    assert info.value.kind == "ambiguous" and info.value.details[0].kind == "ambiguous_answer"


def test_streamed_chunks_with_a_new_id_at_the_same_index_are_another_call_never_spliced() -> None:
    pieces = [("Paris", "a"), ("Rome", "b")]
    chunks = [
        AIMessageChunk(
            content="", tool_call_chunks=[{"name": "GetWeather", "args": f'{{"city": "{c}"}}', "id": i, "index": 0}]
        )
        for c, i in pieces
    ]
    parsed = list(ResilientOutputParser(target=list[GetWeather]).transform(iter(chunks)))
    assert parsed[-1] == [GetWeather(city="Paris"), GetWeather(city="Rome")]
    with pytest.raises(LangChainParseError) as info:
        list(ResilientOutputParser(target=GetWeather).transform(iter(chunks)))
    assert info.value.kind == "ambiguous"


def test_a_call_to_another_bound_tool_is_a_wrong_tool_not_a_typo_of_the_target() -> None:
    other = {"type": "function", "function": {"name": "GetWeathar", "parameters": {"type": "object"}}}
    reply = AIMessage(content="", tool_calls=[_call("GetWeathar", {"city": "Oslo"})])
    guessed = ResilientOutputParser(target=GetWeather, tools=[GetWeather])
    assert guessed.invoke(reply) == GetWeather(city="Oslo")  # one vowel off, the one tool bound
    bound = ResilientOutputParser(target=GetWeather, tools=[GetWeather, other])
    with pytest.raises(LangChainParseError) as info:
        bound.invoke(reply)
    assert info.value.details[0].kind == "tool_name_mismatch"
    assert bound.invoke(AIMessage(content="", tool_calls=[_call("GetWeather", {"city": "Oslo"})])) == GetWeather(
        city="Oslo"
    )


# -- output type and streaming ------------------------------------------------------------------------------------


def _is_partial_plan(obj: Any) -> bool:
    """A partial view of Plan. (Not `isinstance(obj, partial_type(Plan))`: partials validated on the stream's fast
    path are instances of a twin class that forbids extra keys — reported to the streaming module's owner.)"""
    return type(obj).__name__ == "PartialPlan" and set(type(obj).model_fields) == set(partial_type(Plan).model_fields)


def test_the_parser_and_the_chain_declare_the_target_as_their_output_type() -> None:
    parser = ResilientOutputParser(target=Plan)
    chain = _model("{}") | parser
    assert parser.OutputType is Plan
    assert chain.get_output_jsonschema() == Plan.model_json_schema()


def test_chain_stream_yields_growing_partials_then_the_validated_object() -> None:
    text = '```json\n{"goal": "ship it", "steps": ["build", "test", "release"]}\n```'
    out = list((_model(text) | ResilientOutputParser(target=Plan)).stream("plan"))
    partials, final = out[:-1], out[-1]
    assert final == Plan(goal="ship it", steps=["build", "test", "release"])
    assert partials and all(_is_partial_plan(p) for p in partials)
    steps = [len(p.steps or []) for p in partials]
    assert steps == sorted(steps) and steps[0] < 3  # the list grows as the text arrives
    assert partials[0].goal == "ship it" or partials[0].goal is None


def test_chain_astream_yields_the_same_updates() -> None:
    text = '{"goal": "g", "steps": ["a", "b"]}'

    async def run() -> list[Any]:
        return [x async for x in (_model(text) | ResilientOutputParser(target=Plan)).astream("plan")]

    out = asyncio.run(run())
    assert out[-1] == Plan(goal="g", steps=["a", "b"]) and _is_partial_plan(out[0])


def test_a_streamed_answer_that_does_not_parse_raises_the_langchain_exception_with_the_streamed_text() -> None:
    text = '{"goal": 1, "steps": "none"}'
    parser = ResilientOutputParser(target=Plan, parser=Parser(mode="strict", entrypoints=False))
    with pytest.raises(LangChainParseError) as info:
        list((_model(text) | parser).stream("plan"))
    assert info.value.llm_output == text


def test_streamed_tool_call_chunks_are_read_once_the_message_is_complete() -> None:
    chunks = [
        AIMessageChunk(content="", tool_call_chunks=[{"name": "GetWeather", "args": "{'ci", "id": "c1", "index": 0}]),
        AIMessageChunk(content="", tool_call_chunks=[{"name": None, "args": "ty': 'Rome',", "id": None, "index": 0}]),
        AIMessageChunk(content="", tool_call_chunks=[{"name": None, "args": "}", "id": None, "index": 0}]),
    ]
    out = list(ResilientOutputParser(target=GetWeather).transform(iter(chunks)))
    assert out == [GetWeather(city="Rome")]


# -- the chat-model adapter ---------------------------------------------------------------------------------------


ASK = [{"role": "system", "content": "You call tools."}, {"role": "user", "content": "Weather in Paris?"}]


def test_correct_with_a_chat_model_repairs_broken_tool_arguments_in_one_call() -> None:
    reply = AIMessage(
        content="",
        invalid_tool_calls=[_broken("GetWeather", '{"city": "Paris",}')],
        usage_metadata={"input_tokens": 21, "output_tokens": 9, "total_tokens": 30},
    )
    result = correct_result(ChatModelAdapter(_model(reply)), ASK, GetWeather)
    assert result.value == GetWeather(city="Paris") and result.calls == 1 and result.outcome == "repaired"
    assert result.usage.prompt_tokens == 21 and result.usage.completion_tokens == 9 and not result.usage.estimated


def test_a_re_ask_answers_the_tool_call_with_a_tool_message_and_usage_is_counted_on_every_call() -> None:
    first = AIMessage(content="", tool_calls=[_call("GetWeather", {"town": "Paris", "unit": "kelvin"}, "call_9")])
    second = AIMessage(content="", tool_calls=[_call("GetWeather", {"city": "Paris"}, "call_10")])
    recorder = Recorder()
    chat_model = GenericFakeChatModel(messages=iter([first, second]), callbacks=[recorder])
    result = correct_result(ChatModelAdapter(chat_model), ASK, GetWeather, parser=Parser(entrypoints=False))
    assert result.value == GetWeather(city="Paris") and result.calls == 2
    reask = recorder.sent[1]
    assert [type(m).__name__ for m in reask] == ["SystemMessage", "HumanMessage", "AIMessage", "ToolMessage"]
    assert isinstance(reask[2], AIMessage) and reask[2].tool_calls[0]["id"] == "call_9"
    tool_reply = reask[3]
    assert isinstance(tool_reply, ToolMessage) and tool_reply.tool_call_id == "call_9"
    assert "city" in str(tool_reply.content)
    assert all(a.usage is not None and a.usage.estimated and a.usage.prompt_tokens > 0 for a in result.attempts)


def test_broken_arguments_sent_back_in_a_re_ask_stay_as_the_model_wrote_them() -> None:
    first = AIMessage(content="", invalid_tool_calls=[_broken("GetWeather", '{"unit": "kelvin"')])
    second = AIMessage(content="", tool_calls=[_call("GetWeather", {"city": "Oslo"})])
    recorder = Recorder()
    chat_model = GenericFakeChatModel(messages=iter([first, second]), callbacks=[recorder])
    assert correct_result(ChatModelAdapter(chat_model), ASK, GetWeather).value == GetWeather(city="Oslo")
    echoed = recorder.sent[1][2]
    assert isinstance(echoed, AIMessage) and echoed.invalid_tool_calls[0]["args"] == '{"unit": "kelvin"'


def test_tools_are_bound_with_the_models_bind_tools_and_count_in_the_estimate() -> None:
    reply = AIMessage(content="", tool_calls=[_call("get_weather", {"city": "Rome"})])
    recorder = Recorder()
    chat_model = ToolCallingFake(messages=iter([reply]), callbacks=[recorder])

    class Weather(GetWeather):
        model_config = {"title": "get_weather"}

    adapter = ChatModelAdapter(chat_model, tools=[Weather], tool_choice=Weather)
    result = correct_result(adapter, ASK, Weather)
    assert result.value == Weather(city="Rome")
    sent = recorder.params[0]
    assert sent["tools"][0]["function"]["name"] == "get_weather" and sent["tool_choice"] == "get_weather"
    bare = correct_result(ChatModelAdapter(_model(reply)), ASK, Weather)
    assert result.usage.prompt_tokens > bare.usage.prompt_tokens  # the tool definitions were counted


class ReadFile(BaseModel):
    path: str


class ReadFiles(BaseModel):
    path: str


def test_the_tools_a_bound_model_sends_are_sent_names_and_count_in_the_estimate() -> None:
    reply = AIMessage(content="", tool_calls=[_call("ReadFiles", {"path": "a"})])
    bound = ToolCallingFake(messages=iter([reply])).bind_tools(
        [convert_to_openai_tool(ReadFile), convert_to_openai_tool(ReadFiles)]
    )
    adapter = ChatModelAdapter(bound)
    assert adapter.tools is not None and {t["function"]["name"] for t in adapter.tools} == {"ReadFile", "ReadFiles"}
    with pytest.raises(CorrectionsExhaustedError) as info:
        correct_result(adapter, ASK, ReadFile, max_corrections=0)
    assert [d.kind for d in info.value.details] == ["tool_name_mismatch"]
    assert "another tool that was sent" in info.value.message
    plain = ChatModelAdapter(_model(AIMessage(content='{"path": "a"}')))
    with_tools = ChatModelAdapter(
        ToolCallingFake(messages=iter([AIMessage(content='{"path": "a"}')])).bind_tools([ReadFile, ReadFiles])
    )
    assert (
        correct_result(with_tools, ASK, ReadFile).usage.prompt_tokens
        > correct_result(plain, ASK, ReadFile).usage.prompt_tokens
    )


def test_tools_on_a_model_that_cannot_bind_them_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="cannot bind tools"):
        ChatModelAdapter(_model("{}"), tools=[GetWeather])


def test_a_runnable_that_is_no_chat_model_is_a_plain_function_of_the_messages() -> None:
    chain = _model(AIMessage(content='{"goal": "g", "steps": []}')) | StrOutputParser()
    result = correct_result(chain, ASK, Plan)
    assert result.value == Plan(goal="g", steps=[]) and result.calls == 1 and result.attempts[0].adapter == "function"
    assert correct_result(RunnableLambda(lambda _: '{"goal": "h", "steps": []}'), ASK, Plan).value.goal == "h"


def test_correct_accepts_a_langchain_chat_model_directly() -> None:
    reply = AIMessage(content='{"goal": "g", "steps": ["a"],}')
    result = correct_result(_model(reply), [{"role": "user", "content": "plan"}], Plan)
    assert result.value == Plan(goal="g", steps=["a"]) and result.attempts[0].adapter.startswith("langchain")


def test_correct_accepts_a_chat_models_invoke_and_reads_its_ai_message() -> None:
    first = AIMessage(content="I think the plan is a good one.")
    second = AIMessage(content='{"goal": "g", "steps": []}')
    recorder = Recorder()
    chat_model = GenericFakeChatModel(messages=iter([first, second]), callbacks=[recorder])
    result = correct_result(chat_model.invoke, [{"role": "user", "content": "plan"}], Plan)
    assert result.value == Plan(goal="g", steps=[]) and result.calls == 2
    assert [type(m).__name__ for m in recorder.sent[1]] == ["HumanMessage", "AIMessage", "HumanMessage"]


def test_the_async_path_calls_ainvoke() -> None:
    from resilient_parse.correction import acorrect_result

    reply = AIMessage(content="", tool_calls=[_call("GetWeather", {"city": "Lima"})])
    result = asyncio.run(acorrect_result(ChatModelAdapter(_model(reply)), ASK, GetWeather))
    assert result.value == GetWeather(city="Lima")


def test_a_chat_models_odd_token_counts_are_unreported_usage_not_free_calls() -> None:
    """A negative count is no count: the loop estimates the call (marked) rather than booking it as 0 tokens."""
    from resilient_parse.integrations.langchain import completion_from_message

    message = AIMessage(content="{}", usage_metadata={"input_tokens": -5, "output_tokens": 3, "total_tokens": -2})
    assert completion_from_message(message).usage is None
    fine = AIMessage(content="{}", usage_metadata={"input_tokens": 5, "output_tokens": 3, "total_tokens": 8})
    assert completion_from_message(fine).usage == Usage(5, 3)


def test_tool_choice_must_force_a_tool_that_is_bound() -> None:
    class Other(BaseModel):
        x: int

    with pytest.raises(ConfigurationError):
        ChatModelAdapter(ToolCallingFake(messages=iter([])), tools=[GetWeather], tool_choice=Other)


# -- the caller's messages in shapes LangChain cannot take -----------------------------------------------------------

_ASK = {"role": "user", "content": "weather?"}


@pytest.mark.parametrize(
    "messages",
    [
        [_ASK, {"role": "assistant", "content": None, "tool_calls": {"id": "1"}}],  # a dict, not a list
        [_ASK, {"role": "assistant", "content": None, "tool_calls": ["call_1"]}],  # a call that is a string
        [_ASK, {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "function": "GetWeather"}]}],
        [_ASK, {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "function": {"name": None}}]}],
        [_ASK, {"role": "assistant", "content": None, "tool_calls": 5}],
        [{"role": "user", "content": 5}],
        [{"role": "user", "content": {"text": "weather?"}}],
        [{"role": "user", "content": [5]}],
        [{"role": "system", "content": 1.5}, _ASK],
        [_ASK, {"role": "tool", "content": {"ok": True}, "tool_call_id": "1"}],
    ],
)
def test_messages_langchain_cannot_take_are_a_configuration_error(messages: list[dict[str, Any]]) -> None:
    # the loop accepts them (each has role and content); LangChain's message models would raise their own
    # ValidationError or AttributeError out of correct()
    with pytest.raises(ConfigurationError, match="message"):
        correct_result(_model('{"city": "Oslo"}'), messages, GetWeather)


def test_messages_in_langchains_shapes_still_go_through() -> None:
    call = {"id": 7, "type": "function", "function": {"name": "GetWeather", "arguments": {"city": "Oslo"}}}
    messages = [
        {"role": "system", "content": None},
        {"role": "user", "content": [{"type": "text", "text": "weather?"}]},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "content": "sunny", "tool_call_id": 7},
    ]
    recorder = Recorder()
    chat_model = GenericFakeChatModel(messages=iter([AIMessage(content='{"city": "Oslo"}')]), callbacks=[recorder])
    assert correct_result(chat_model, messages, GetWeather).value == GetWeather(city="Oslo")
    sent = recorder.sent[0][2]
    assert isinstance(sent, AIMessage) and sent.tool_calls[0]["args"] == {"city": "Oslo"}
    assert sent.tool_calls[0]["id"] == "7"


def test_format_instructions_show_the_schema_without_defaults_examples_or_extensions() -> None:
    from pydantic import Field

    class Transfer(BaseModel):
        to: str
        api_key: str = "sk-live-SECRET"
        note: str = Field("x", examples=["ex-SECRET"], json_schema_extra={"x-internal": "extra-SECRET"})

    shown = ResilientOutputParser(target=Transfer).get_format_instructions()
    assert "SECRET" not in shown and "x-internal" not in shown
    assert '"required": ["to"]' in shown
