"""Envelopes that name a tool beside the value, and completions with several different choices (found by an
outside attack on issue 14's envelopes): another tool's name is never unwrapped past, and two different choices
are not a pick."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from resilient_parse import AmbiguousMatchError, Parser, SchemaMismatchError

MODES = ("strict", "lenient")


class GetWeather(BaseModel):
    city: str
    units: str = "c"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        '{"function": "delete_city", "args": {"city": "Oslo"}}',
        '{"tool": "delete_city", "input": {"city": "Oslo"}}',
        '{"result": {"city": "Oslo"}, "tool": "delete_city"}',
        '{"tool_name": "DeleteCity", "parameters": {"city": "Oslo"}}',
    ],
)
def test_a_value_beside_another_tools_name_is_refused(mode: str, text: str) -> None:
    with pytest.raises(SchemaMismatchError) as info:
        Parser(mode=mode).parse(text, GetWeather)
    assert info.value.details[0].kind == "tool_name_mismatch"


def test_a_value_beside_the_targets_own_tool_name_is_read_in_lenient() -> None:
    text = '{"tool": "get_weather", "input": {"city": "Oslo"}}'
    assert Parser(mode="lenient").parse(text, GetWeather) == GetWeather(city="Oslo")


@pytest.mark.parametrize("mode", MODES)
def test_a_completion_with_two_different_choices_is_ambiguous(mode: str) -> None:
    choices = [{"message": {"content": json.dumps({"city": city})}} for city in ("Oslo", "Rome")]
    with pytest.raises(AmbiguousMatchError):
        Parser(mode=mode).parse(json.dumps({"choices": choices}), GetWeather)
