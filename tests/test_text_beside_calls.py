"""Text beside a reply's tool calls must agree with them: one owner decides (`tools.reply_signals.check_text_agrees`).

Every path that reads calls asks it — the correction loop's `read_reply_calls`, a provider envelope written as JSON
(the envelope stage for one tool, the tool-call answers for several), a provider's reply object (`answer_native`)
and a reply object's call for a target of no tool models (`reply_path`) — so the table below holds on each of them:
the same answer, prose or a draft in reasoning agrees; another answer, or text that is itself two readings, is an
`AmbiguousMatchError` of kind `ambiguous_answer`.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable
from typing import Any

import pytest
from openai.types.chat import ChatCompletion
from pydantic import BaseModel

from resilient_parse import Parser
from resilient_parse.correction import ToolCall
from resilient_parse.correction.tool_calls import read_reply_calls
from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, NoCandidateError
from resilient_parse.tools.reply_signals import check_text_agrees


class GetWeather(BaseModel):
    city: str


class SendEmail(BaseModel):
    to: str
    body: str


ARGS = '{"city": "Paris"}'
PARIS = GetWeather(city="Paris")


def _message(text: str) -> dict[str, Any]:
    call = {"id": "c0", "type": "function", "function": {"name": "GetWeather", "arguments": ARGS}}
    message = {"role": "assistant", "content": text, "tool_calls": [call]}
    return {"index": 0, "finish_reason": "tool_calls", "message": message}


def _reply(text: str) -> ChatCompletion:
    return ChatCompletion.model_validate(
        {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [_message(text)]}
    )


def _envelope(text: str) -> str:
    return json.dumps({"choices": [_message(text)]})


PATHS: dict[str, Callable[[Parser, str, Any], Any]] = {
    "correction": lambda p, text, target: read_reply_calls([ToolCall("GetWeather", ARGS)], text, target, p).value,
    "envelope": lambda p, text, target: p.parse(_envelope(text), target),
    "reply": lambda p, text, target: p.parse(_reply(text), target),
}

AGREES = [
    '{"city": "Paris"}',
    '{"City": "Paris"}',  # the same answer, in another spelling
    '{"city": "Paris"} or {"city": "Paris"}',  # the same answer twice
    "Let me check.",
    "I will check 3 cities",
    'Using {"unit": "C"}.',  # a value that is no answer of the target: prose
    '<think>{"city": "Rome"}</think>Checking.',  # a draft in reasoning is not given
]
DISAGREES = [
    '{"city": "Rome"}',
    'Either {"city": "Rome"} or {"city": "Oslo"}.',
    '{"city": "Rome", "city": "Oslo"}',
]


@pytest.mark.parametrize("target", [GetWeather, GetWeather | SendEmail], ids=["one-tool", "two-tools"])
@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_every_path_reads_text_beside_a_call_the_same_way(mode: str, path: str, target: Any) -> None:
    parser = Parser(mode=mode, entrypoints=False)
    for text in AGREES:
        assert PATHS[path](parser, text, target) == PARIS, text
    for text in DISAGREES:
        with pytest.raises(AmbiguousMatchError) as info:
            PATHS[path](parser, text, target)
        assert {d.kind for d in info.value.details} == {"ambiguous_answer"}, text


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_one_item_list_beside_a_call_is_read_as_the_mode_reads_lists(path: str) -> None:
    """The envelope stage used to let `[{"city": "Rome"}]` pass while the other paths refused it in lenient."""
    text = '[{"city": "Rome"}]'
    assert PATHS[path](Parser(mode="strict", entrypoints=False), text, GetWeather) == PARIS
    with pytest.raises(AmbiguousMatchError):
        PATHS[path](Parser(mode="lenient", entrypoints=False), text, GetWeather)


@pytest.mark.parametrize("path", sorted(PATHS))
def test_another_tools_arguments_beside_a_call_answer_a_target_of_both_tools(path: str) -> None:
    text, parser = '{"to": "a", "body": "b"}', Parser(mode="lenient", entrypoints=False)
    assert PATHS[path](parser, text, GetWeather) == PARIS  # no answer of this target: prose
    with pytest.raises(AmbiguousMatchError):
        PATHS[path](parser, text, GetWeather | SendEmail)


@pytest.mark.parametrize("path", ["correction", "reply"])
def test_null_beside_a_call_answers_an_optional_target_on_every_path(path: str) -> None:
    """The reply-object path used to let `null` beside a call pass for `GetWeather | None`."""
    parser = Parser(mode="lenient", entrypoints=False)
    with pytest.raises(AmbiguousMatchError):
        PATHS[path](parser, "null", GetWeather | None)
    assert PATHS[path](parser, "null", GetWeather) == PARIS


def test_two_readings_beside_a_call_for_a_target_of_no_tool_model_are_an_ambiguous_answer() -> None:
    """`reply_path` used to re-raise the text's own ambiguity under its kind (`ambiguous_candidates`)."""
    reply = _reply('Either {"a": 1} or {"a": 2}')
    with pytest.raises(AmbiguousMatchError) as info:
        Parser(mode="lenient", entrypoints=False).parse(reply, dict[str, str])
    assert {d.kind for d in info.value.details} == {"ambiguous_answer"}


# -- the owner itself ----------------------------------------------------------------------------------------------


def _json(text: str) -> list[tuple[Any, str]]:
    return [(json.loads(text), text)]


def _agrees(text: str, called: Any, read: Any = _json, **options: bool) -> None:
    check_text_agrees(text, called, read, operator.eq, made=json.dumps(called), candidate=None, **options)


def test_the_owner_lets_the_same_answer_and_prose_pass_and_refuses_another() -> None:
    _agrees('{"a": 1}', {"a": 1})
    _agrees("Let me check.", {"a": 1})  # no JSON: not read at all (`_json` would fail on it)
    _agrees("", {"a": 1})
    with pytest.raises(AmbiguousMatchError) as info:
        _agrees('{"a": 2}', {"a": 1})
    assert [d.kind for d in info.value.details] == ["ambiguous_answer"]
    assert '{"a": 2}' in info.value.message and '{"a": 1}' in info.value.message


def test_the_owner_reads_null_only_for_a_target_that_takes_it_and_prose_only_where_prose_answers() -> None:
    _agrees("null", {"a": 1})
    with pytest.raises(AmbiguousMatchError):
        _agrees("null", {"a": 1}, takes_null=True)
    with pytest.raises(AmbiguousMatchError):
        _agrees("7", 5, prose_answers=True)


def test_the_owner_calls_text_of_two_readings_ambiguous_and_text_of_none_prose() -> None:
    def two(text: str) -> list[tuple[Any, str]]:
        raise AmbiguousMatchError("two readings", [ErrorDetail(path="", kind="ambiguous_candidates", message="x")])

    def none(text: str) -> list[tuple[Any, str]]:
        raise NoCandidateError("nothing", [])

    with pytest.raises(AmbiguousMatchError) as info:
        _agrees("{...} or {...}", {"a": 1}, two)
    assert [d.kind for d in info.value.details] == ["ambiguous_answer"]
    _agrees("{not json}", {"a": 1}, none)


@pytest.mark.parametrize("target", [list[GetWeather], list[GetWeather | SendEmail]], ids=["one-tool", "two-tools"])
@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_one_item_beside_a_list_targets_calls_is_an_answer_in_every_mode(mode: str, path: str, target: Any) -> None:
    """Strict wraps no object into a list, and used to let `{"city": "Rome"}` beside a list of calls pass as prose
    on the correction path while the tool-call answers refused it."""
    parser = Parser(mode=mode, entrypoints=False)
    for text in ('{"city": "Paris"}', '[{"city": "Paris"}]', "Let me check."):
        assert PATHS[path](parser, text, target) == [PARIS], text
    with pytest.raises(AmbiguousMatchError):
        PATHS[path](parser, '{"city": "Rome"}', target)
