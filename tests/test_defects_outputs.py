"""What leaves the library is safe to send on: an internal failure's text stays local (issue 13, r13), and every
message a plugin writes or a repair renders is valid UTF-8 (r18)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, Parser, Repair, hookimpl


class Named(BaseModel):
    name: str


class Exploding:
    """A plugin whose extractor fails with a secret in its message."""

    @hookimpl
    def rp_extract_candidates(self, text: str, ctx: Any) -> None:
        raise RuntimeError("could not reach postgres://admin:hunter2@db/prod")


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_an_internal_failure_keeps_its_text_out_of_the_message_and_the_feedback(mode: str) -> None:
    parser = Parser(mode=mode, plugins=[Exploding()], entrypoints=False)
    with pytest.raises(ParseError) as info:
        parser.parse("not json {", Named)
    error = info.value
    assert error.errors[0]["kind"] == "internal"
    assert "hunter2" not in str(error) and "hunter2" not in error.message
    assert "hunter2" not in parser.feedback(error, Named)
    assert "hunter2" in error.errors[0]["cause"]  # kept for the local log


class SurrogateFeedback:
    @hookimpl
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: Any) -> str:
        return "fix the name \ud800 please"


def test_a_plugins_feedback_is_valid_utf8() -> None:
    parser = Parser(plugins=[SurrogateFeedback()], entrypoints=False)
    with pytest.raises(ParseError) as info:
        parser.parse('{"nme": 1}', Named)
    parser.feedback(info.value, Named).encode("utf-8")


def test_a_repair_at_a_model_written_key_with_a_lone_surrogate_renders_as_utf8() -> None:
    repair = Repair.make("key_case", "/na\ud800me", "Na\ud800me", "name")
    json.dumps(repair.to_dict(), ensure_ascii=False).encode("utf-8")
    str(repair).encode("utf-8")


class Counted(BaseModel):
    n: int


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize(
    ("text", "target"),
    [
        ('{"n": ' + "1" * 5000 + "}", Counted),
        ('{"n": ' + "1" * 5000 + ",}", Counted),
        ("{'n': " + "1" * 5000 + "}", Counted),  # a stretch of members the reader rewrites in one match
        ("[{'n': " + "1" * 5000 + ", 'm': 1}, {'n': 2},]", list[Counted]),
    ],
)
def test_a_number_too_long_to_read_exactly_is_a_clear_refusal_not_an_internal_error(
    mode: str, text: str, target: Any
) -> None:
    with pytest.raises(ParseError) as info:
        Parser(mode=mode, entrypoints=False).parse(text, target)
    assert info.value.errors[0]["kind"] == "number_too_long"


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_a_bare_number_too_long_for_an_int_target_is_refused_not_an_internal_error(mode: str) -> None:
    with pytest.raises(ParseError) as info:
        Parser(mode=mode, entrypoints=False).parse("1" * 5000, int)
    assert info.value.errors[0]["kind"] != "internal"
