"""Another tool's call is never read as the target: names under every name key and inside wrappers (text
envelopes), envelopes refused as native calls are (several choices, a cut-off reply, text that disagrees), and a
real other tool's name never repaired as a typo (declared with `correct(..., tools=)`, or a consonant slip)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, create_model

from resilient_parse import (
    AmbiguousMatchError,
    ConfigurationError,
    CorrectionError,
    Parser,
    SchemaMismatchError,
    TruncatedOutputError,
    parse,
    parse_result,
)
from resilient_parse.correction import FunctionAdapter, OpenAIAdapter, correct, correct_result
from resilient_parse.correction.tool_calls import ToolCall, read_tool_calls

MODES = ("lenient", "strict")


class GetWeather(BaseModel):
    city: str
    days: int = 1


ARGS = {"city": "Oslo"}


# -- H11: a name under any name key, at any depth --------------------------------------------------------------

OTHER_TOOL_CALLS = [
    {"action": "delete_all", "arguments": ARGS},
    {"action": "delete_all", "input": ARGS},
    {"command": "delete_all", "args": ARGS},
    {"function_name": "delete_all", "params": ARGS},
    {"recipient_name": "functions.delete_all", "kwargs": ARGS},
    {"type": "delete_all", "input": ARGS},
    {"type": "delete_all", "tool_input": ARGS},
    {"data": {"name": "delete_all", "arguments": ARGS}},
    {"result": {"name": "delete_all", "arguments": ARGS}},
    {"result": {"tool": "delete_all", "input": ARGS}},
    {"response": {"data": {"action": "delete_all", "inputs": ARGS}}},
    {"result": [{"command": "delete_all", "args": ARGS}]},
    {"functions.delete_all": ARGS},  # a key behind a namespace prefix names a tool: never a wrapper
    {"functions.delete_all": json.dumps(ARGS)},  # (its arguments as JSON text)
    {"Functions.delete_all": ARGS},  # (a namespace in any case)
    {"default_api.delete_all": ARGS},  # (Gemini's namespace)
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", OTHER_TOOL_CALLS, ids=lambda c: json.dumps(c)[:60])
def test_another_tools_call_under_any_name_key_is_a_mismatch_naming_both(case: dict[str, Any], mode: str) -> None:
    with pytest.raises(SchemaMismatchError) as info:
        parse(json.dumps(case), GetWeather, mode=mode)
    detail = info.value.details[0]
    assert detail.kind == "tool_name_mismatch"
    assert "delete_all" in detail.message and "'GetWeather'" in detail.message  # (the name the tool goes by)


@pytest.mark.parametrize(
    "case",
    [
        {"action": "GetWeather", "arguments": ARGS},
        {"data": {"name": "get_weather", "arguments": ARGS}},
        {"type": "function", "input": ARGS},  # an envelope's own kind names no tool
        {"type": "weather", "data": ARGS},  # `type` beside no arguments is no tool's name
    ],
    ids=lambda c: json.dumps(c)[:60],
)
def test_the_targets_own_call_and_a_type_that_names_no_tool_are_still_read_in_lenient(case: dict[str, Any]) -> None:
    assert parse(json.dumps(case), GetWeather, mode="lenient") == GetWeather(city="Oslo")


# -- M04: envelopes refused as native calls are ----------------------------------------------------------------


def _call(city: str, name: str = "GetWeather") -> dict[str, Any]:
    return {"id": "c", "type": "function", "function": {"name": name, "arguments": json.dumps({"city": city})}}


def _choice(*calls: dict[str, Any], content: str | None = None, finish: str = "tool_calls") -> dict[str, Any]:
    message = {"role": "assistant", "content": content, "tool_calls": list(calls)}
    return {"index": 0, "finish_reason": finish, "message": message}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", [GetWeather, list[GetWeather]], ids=["one", "list"])
def test_several_different_choices_are_ambiguous_never_parallel_calls(target: Any, mode: str) -> None:
    envelope = {"choices": [_choice(_call("Oslo")), _choice(_call("Rome"))]}
    with pytest.raises(AmbiguousMatchError):
        parse(json.dumps(envelope), target, mode=mode)


def test_the_same_choice_sampled_twice_is_that_answer_once() -> None:
    envelope = {"choices": [_choice(_call("Oslo")), _choice(_call("Oslo"))]}
    assert parse(json.dumps(envelope), list[GetWeather], mode="lenient") == [GetWeather(city="Oslo")]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "envelope",
    [
        {"choices": [_choice(_call("Oslo"), finish="length")]},
        {
            "role": "assistant",
            "stop_reason": "max_tokens",
            "content": [{"type": "tool_use", "id": "t", "name": "GetWeather", "input": ARGS}],
        },
        {
            "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
            "output": [{"type": "function_call", "name": "GetWeather", "arguments": json.dumps(ARGS)}],
        },
    ],
    ids=["openai", "anthropic", "responses"],
)
def test_a_reply_cut_off_by_the_length_limit_is_truncated(envelope: dict[str, Any], mode: str) -> None:
    for target in (GetWeather, list[GetWeather]):
        with pytest.raises(TruncatedOutputError):
            parse(json.dumps(envelope), target, mode=mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "envelope",
    [
        {"choices": [_choice(_call("Oslo"), content='{"city": "Rome"}')]},
        {"choices": [_choice(_call("Oslo"), content='Here you go: {"City": "Rome", "days": 2}')]},
        {"output": [
            {"type": "function_call", "name": "GetWeather", "arguments": json.dumps(ARGS)},
            {"type": "message", "content": [{"type": "output_text", "text": '{"city": "Rome"}'}]},
        ]},
        {"role": "assistant", "content": [
            {"type": "text", "text": 'I will use {"city": "Rome"}.'},
            {"type": "tool_use", "id": "t", "name": "GetWeather", "input": ARGS},
        ]},
    ],
    ids=["content", "content-spelling", "responses", "anthropic"],
)  # fmt: skip
def test_text_beside_the_call_that_answers_otherwise_is_ambiguous(envelope: dict[str, Any], mode: str) -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        parse(json.dumps(envelope), GetWeather, mode=mode)
    assert info.value.details[0].kind == "ambiguous_answer"


def test_text_that_agrees_with_the_call_or_is_prose_leaves_it_read() -> None:
    for content in ('{"city": "Oslo"}', "Let me check the weather.", 'Using {"unit": "C"} as usual.'):
        envelope = {"choices": [_choice(_call("Oslo"), content=content)]}
        assert parse(json.dumps(envelope), GetWeather, mode="lenient") == GetWeather(city="Oslo")


# -- M06: another real tool's name is never a typo --------------------------------------------------------------


class ChangeCard(BaseModel):
    card_id: str
    amount: float = 0


class ChargeCard(BaseModel):
    card_id: str
    amount: float = 0


def _response(name: str) -> dict[str, Any]:
    call = {"id": "c1", "type": "function", "function": {"name": name, "arguments": '{"card_id": "c-9"}'}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"model": "m", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}]}


ASK = [{"role": "user", "content": "update my card"}]


@pytest.mark.parametrize("mode", MODES)
def test_a_function_llm_declares_its_tools_and_a_call_to_another_is_a_wrong_tool(mode: str) -> None:
    def llm(messages: Any) -> Any:
        return _response("ChargeCard")

    with pytest.raises(CorrectionError) as info:
        correct(llm, ASK, ChangeCard, max_corrections=0, mode=mode, tools=[ChangeCard, ChargeCard])
    assert any(d.kind == "tool_name_mismatch" for d in getattr(info.value, "attempts", ())[0].errors)
    adapter = FunctionAdapter(llm, tools=[ChangeCard, ChargeCard])
    with pytest.raises(CorrectionError):
        correct(adapter, ASK, ChangeCard, max_corrections=0, mode=mode)


def test_a_declared_tools_typo_is_still_repaired_and_tools_go_only_to_plain_functions() -> None:
    slip = "CahngeCard"  # two letters swapped: repaired only when the declared tools say no such tool exists
    result = correct_result(lambda m: _response(slip), ASK, ChangeCard, tools=[ChangeCard, ChargeCard])
    assert result.value == ChangeCard(card_id="c-9")
    with pytest.raises(CorrectionError):
        correct(lambda m: _response(slip), ASK, ChangeCard, max_corrections=0)
    client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=lambda **kw: None)))
    with pytest.raises(ConfigurationError, match="plain-function"):
        correct(OpenAIAdapter(client, model="m"), ASK, ChangeCard, tools=[ChangeCard])
    with pytest.raises(ConfigurationError):
        correct(lambda m: _response("ChangeCard"), ASK, ChangeCard, tools=[ChargeCard])  # the target is not sent


OTHER_WORDS = [
    ("ChargeCard", "ChangeCard"),
    ("CloseTicket", "CloneTicket"),
    ("RemoveUser", "RemoteUser"),
    ("UnlockUser", "UnblockUser"),
    ("UnblockUser", "UnlockUser"),
    ("start_timer", "stars_timer"),
]


@pytest.mark.parametrize(("called", "tool"), OTHER_WORDS)
def test_with_no_tools_declared_a_consonant_slip_is_another_tools_name(called: str, tool: str) -> None:
    target: type[BaseModel] = create_model(tool, x=(int, 0))
    with pytest.raises(SchemaMismatchError, match="wrong tool"):
        read_tool_calls([ToolCall(called, '{"x": 1}')], target, Parser(mode="lenient", entrypoints=False))

    def llm(messages: Any) -> Any:
        return _response(called)

    with pytest.raises(CorrectionError):
        correct(llm, ASK, target, max_corrections=0)


@pytest.mark.parametrize(
    ("called", "tool"),
    [
        ("GetWether", "GetWeather"),
        ("SendMessege", "SendMessage"),
        ("get_stats", "get_status"),  # a slip may be another tool's real name: get_stats, list_cases, decide
        ("list_cases", "list_causes"),
    ],
)
def test_with_no_tools_declared_no_slip_is_read_as_a_typo(called: str, tool: str) -> None:
    target: type[BaseModel] = create_model(tool, x=(int, 0))
    with pytest.raises(SchemaMismatchError):
        read_tool_calls([ToolCall(called, '{"x": 1}')], target, Parser(mode="lenient", entrypoints=False))


@pytest.mark.parametrize("mode", MODES)
def test_the_targets_tool_keyed_behind_a_namespace_is_its_call(mode: str) -> None:
    # `{"functions.get_weather": {…}}` is a call to the target's tool: read behind the prefix, a guess strict refuses
    text = json.dumps({"functions.get_weather": ARGS})
    if mode == "strict":
        with pytest.raises(SchemaMismatchError):
            parse(text, GetWeather, mode=mode)
        return
    result = parse_result(text, GetWeather, mode=mode)
    assert result.value == GetWeather(**ARGS)
    assert [r.kind for r in result.repairs] == ["read_tool_call", "tool_name_prefix"]


@pytest.mark.parametrize(
    ("called", "tool"),
    [
        ("SendEmial", "SendEmail"),  # two letters swapped: casual/causal, tried/tired are words too
        ("ChnageCard", "ChangeCard"),
        ("FlashCache", "FlushCache"),  # a vowel in a five-letter word: flash/flush, black/block, stock/stack
        ("BlackUser", "BlockUser"),
        ("CausalReply", "CasualReply"),
    ],
)
def test_with_no_tools_declared_a_swap_or_a_short_words_vowel_is_another_tool(called: str, tool: str) -> None:
    target: type[BaseModel] = create_model(tool, x=(int, 0))
    lenient = Parser(mode="lenient", entrypoints=False)
    with pytest.raises(SchemaMismatchError):
        read_tool_calls([ToolCall(called, '{"x": 1}')], target, lenient)
    # with the tools that were sent declared, a vowel slip or a swap that lands on none of them is the target's name
    result = read_tool_calls([ToolCall(called, '{"x": 1}')], target, lenient, sent_names={tool, "Other"})
    assert [r.kind for r in result.repairs] == ["enum_fuzzy"]


def test_a_sent_spelling_of_the_targets_tool_is_that_tool_and_no_rival() -> None:
    # the tool was sent as get_weather (its model GetWeather); the model calls it by the name it was sent under
    lenient = Parser(mode="lenient", entrypoints=False)
    call = [ToolCall("get_weather", '{"city": "Oslo"}')]
    assert read_tool_calls(call, GetWeather, lenient, sent_names={"get_weather"}).value == GetWeather(city="Oslo")
    typo = [ToolCall("GetWether", '{"city": "Oslo"}')]
    assert read_tool_calls(typo, GetWeather, lenient, sent_names={"get_weather"}).value == GetWeather(city="Oslo")


def test_a_chain_of_namespaces_is_no_name_and_costs_one_pass() -> None:
    # `tool.tool.…x` once recursed once per prefix (quadratic, then a RecursionError): one namespace is read past
    for mode in MODES:
        with pytest.raises(SchemaMismatchError):
            read_tool_calls([ToolCall("tool." * 2000 + "GetWeather", '{"city": "x"}')], GetWeather, Parser(mode))
    result = read_tool_calls([ToolCall("Functions.GetWeather", json.dumps(ARGS))], GetWeather, Parser("lenient"))
    assert [r.kind for r in result.repairs] == ["tool_name_prefix"]
    with pytest.raises(SchemaMismatchError):  # a lookalike letter is never an ASCII name's other case
        read_tool_calls([ToolCall("\u212aillProcess", "{}")], create_model("KillProcess"), Parser("strict"))


class SendEmail(BaseModel):
    to: str


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", [GetWeather, GetWeather | SendEmail, list[GetWeather]], ids=["one", "union", "list"])
def test_a_name_line_is_a_call_when_it_names_a_function_and_a_label_when_it_is_a_word(mode: str, target: Any) -> None:
    # GLM writes a tool's name on a line before the arguments: another tool's name there is never the target's call
    with pytest.raises(SchemaMismatchError, match="delete_all"):
        parse('delete_all\n{"city": "Oslo"}', target, mode=mode)
    called = parse('get_weather\n{"city": "Oslo"}', target, mode=mode)
    assert called == ([GetWeather(city="Oslo")] if target == list[GetWeather] else GetWeather(city="Oslo"))
    if target != list[GetWeather]:  # a lone word before the JSON is a label or a language tag, not a tool's name
        for label in ("Answer", "json", "JSON", "Result", "config.json", "v1.2", "gpt-4o", "en-US", "JavaScript"):
            assert parse(f'{label}\n{{"city": "Oslo"}}', target, mode=mode) == GetWeather(city="Oslo")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", [list[GetWeather], list[GetWeather | SendEmail]], ids=["list", "list of union"])
def test_another_tools_calls_keyed_behind_a_namespace_are_never_a_list_targets_items(mode: str, target: Any) -> None:
    with pytest.raises(SchemaMismatchError, match="delete_all"):
        parse(json.dumps({"functions.delete_all": [ARGS]}), target, mode=mode)


def test_a_consonant_changed_is_another_action_even_with_the_tools_declared() -> None:
    # charge_card and change_card are both real actions: knowing the tools sent does not say which was meant
    with pytest.raises(CorrectionError):
        correct(lambda m: _response("ChanfeCard"), ASK, ChangeCard, max_corrections=0, tools=[ChangeCard, ChargeCard])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", [GetWeather, GetWeather | SendEmail], ids=["one", "union"])
def test_a_flat_call_under_a_tool_key_is_read_by_the_one_matcher(mode: str, target: Any) -> None:
    # `{"tool": name, …its arguments beside it}`, and a call's arguments under any key of the vocabulary
    assert parse('{"tool": "get_weather", "city": "Oslo"}', target, mode=mode) == GetWeather(city="Oslo")
    with pytest.raises(SchemaMismatchError, match="delete_all"):
        parse('{"tool": "delete_all", "city": "Oslo"}', GetWeather | SendEmail, mode=mode)
    other = '{"tool": "get_wether", "input": {"city": "Oslo"}}'  # (no tools sent known: another tool's name)
    with pytest.raises(SchemaMismatchError, match="get_wether"):
        parse(other, target, mode=mode)


def test_every_path_names_a_tool_by_the_one_matcher() -> None:
    from rp_toolcalls import ToolRegistry

    registry = ToolRegistry()

    @registry.tool()
    def get_weather(city: str) -> str:
        return city

    parsed = registry.parse('[{"get_weather": {"city": "Oslo"}}]', parser=Parser(entrypoints=False))
    assert [(c.tool, c.ok) for c in parsed] == [("get_weather", True)]  # keyed calls, as the core reads them
    text = 'Action: get_weather\n{"name": "GetWeather", "arguments": {"city": "Oslo"}}'  # one tool, two styles
    assert parse(text, GetWeather) == GetWeather(city="Oslo")
    from dataclasses import dataclass

    from resilient_parse.correction.tool_calls import check_tool_name

    @dataclass
    class get_forecast:
        city: str

    check_tool_name(ToolCall("GetForecast", "{}"), get_forecast | int)  # another style: the same tool
    with pytest.raises(SchemaMismatchError):  # behind a prefix: a guess this check cannot record
        check_tool_name(ToolCall("functions.get_forecast", "{}"), get_forecast | int)


@pytest.mark.parametrize("mode", MODES)
def test_several_name_line_calls_in_a_row_are_each_their_own_call(mode: str) -> None:
    target = list[GetWeather | SendEmail]
    both = 'get_weather\n{"city": "Oslo"}\nsend_email\n{"to": "a@b.c"}'
    assert parse(both, target, mode=mode) == [GetWeather(city="Oslo"), SendEmail(to="a@b.c")]
    with pytest.raises(SchemaMismatchError, match="lookup_city"):  # never another tool's arguments joined by shape
        parse('get_weather\n{"city": "Oslo"}\nlookup_city\n{"city": "Rome"}', target, mode=mode)


def test_the_tool_words_the_core_stages_use_are_the_tools_layers() -> None:
    """Tool words live in `tools.names` (one concept, one owner); the stages, below the tools layer, get them passed
    in (the common aliases by `plugins.builtin_plugins`, the argument wrappers in the call context) and still apply
    them."""
    from resilient_parse.stages import COMMON_ALIASES
    from resilient_parse.stages.coerce.shapes import WRAPPER_KEYS
    from resilient_parse.tools.names import ARGUMENT_KEYS, ARGUMENT_WRAPPER_KEYS, NAME_KEYS, TOOL_KEY_ALIASES

    tool_words = {*ARGUMENT_KEYS, *NAME_KEYS, *TOOL_KEY_ALIASES}
    assert not tool_words & (set(COMMON_ALIASES) | set(COMMON_ALIASES.values()) | WRAPPER_KEYS)
    assert ARGUMENT_WRAPPER_KEYS.issubset(ARGUMENT_KEYS)

    class Step(BaseModel):
        action: str
        arguments: dict[str, Any]

    assert parse('{"tool": "search", "args": {"q": "x"}}', Step, mode="lenient") == Step(
        action="search", arguments={"q": "x"}
    )
    for key in sorted(ARGUMENT_WRAPPER_KEYS):
        assert parse(json.dumps({key: {"city": "Oslo"}}), GetWeather, mode="lenient") == GetWeather(city="Oslo")


def test_the_coercion_stage_reads_provider_envelopes_through_the_tools_layer() -> None:
    """`stages.coerce.shapes` does not read OpenAI or Anthropic envelopes itself: it asks the tools layer's reader
    (`tools.vocabulary.envelope_content`), which the parser puts in the call context."""
    import dataclasses

    from resilient_parse.context import NO_TOOLS
    from resilient_parse.stages.coerce.shapes import unwrap

    ctx = Parser(mode="lenient", entrypoints=False).context(GetWeather)
    for envelope in (
        {"choices": [{"message": {"content": '{"city": "Oslo"}'}}]},
        {"type": "message", "content": [{"type": "text", "text": '{"city": "Oslo"}'}]},
    ):
        got = unwrap(envelope, ctx.schema, "", ctx)
        assert got is not None and got.value == {"city": "Oslo"}
        assert unwrap(envelope, ctx.schema, "", dataclasses.replace(ctx, tools=NO_TOOLS)) is None
