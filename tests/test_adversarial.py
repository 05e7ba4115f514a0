"""Hostile and huge inputs: each ends in a result or a ParseError — never a RecursionError, a hang or a crash.

How their parse time grows is measured in benchmarks/adversarial_timing.py and asserted by the slow
tests/test_adversarial_timing.py (CI runs it); here every case of that catalogue runs once at its base size in both
modes and must end in a result or a ParseError.
"""

from __future__ import annotations

import pytest
from pydantic import BaseModel

import resilient_parse
from benchmarks.adversarial_timing import CASES, Case, Item, Tiny, outcome
from resilient_parse import (
    InputTooLargeError,
    InvalidInputError,
    ParseError,
    Parser,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)
from resilient_parse.policy import LENIENT, STRICT

MODES = ("lenient", "strict")
PARSERS = {mode: Parser(mode, entrypoints=False) for mode in MODES}


def _params() -> list[object]:
    return [
        pytest.param(case, mode, id=f"{case.name}-{mode}", marks=[pytest.mark.slow] if case.slow else [])
        for case in CASES
        for mode in case.modes
    ]


@pytest.mark.parametrize(("case", "mode"), _params())
def test_hostile_input_ends_in_a_result_or_a_parse_error(case: Case, mode: str) -> None:
    result = outcome(
        Parser(mode, entrypoints=case.entrypoints), case.make(case.n), case.target, case.run
    )  # anything but a ParseError propagates
    assert result == "ok" or issubclass(getattr(resilient_parse, result), ParseError)


# -- depth -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_100k_open_brackets_is_a_parse_error_not_a_recursion_error(mode: str) -> None:
    with pytest.raises((TruncatedOutputError, UnrecoverableSyntaxError)):
        PARSERS[mode].parse_result("[" * 100_000, Item)


@pytest.mark.parametrize("mode", MODES)
def test_100k_balanced_brackets_is_a_parse_error_not_a_recursion_error(mode: str) -> None:
    with pytest.raises(ParseError) as info:
        PARSERS[mode].parse_result("[" * 100_000 + "]" * 100_000, Item)
    assert all(e["kind"] != "internal" for e in info.value.errors)


@pytest.mark.parametrize("mode", MODES)
def test_deep_nesting_inside_a_valid_object_is_a_parse_error(mode: str) -> None:
    text = '{"a": "x", "b": ' + "[" * 50_000 + "]" * 50_000 + "}"
    with pytest.raises(ParseError) as info:
        PARSERS[mode].parse_result(text, Item)
    assert all(e["kind"] != "internal" for e in info.value.errors)


@pytest.mark.parametrize("mode", MODES)
def test_nesting_past_max_depth_with_broken_syntax_is_rejected_as_too_deep(mode: str) -> None:
    text = '{"a": ' + "[" * 1_000 + "1,," + "]" * 1_000 + "}"
    with pytest.raises(ParseError) as info:
        PARSERS[mode].parse_result(text, Item)
    assert info.value.errors[0]["kind"] == "too_deep"


# -- size limits -------------------------------------------------------------------------------------------------


def test_default_limit_is_the_documented_twenty_million_characters() -> None:
    assert LENIENT.max_input_chars == STRICT.max_input_chars == 20_000_000


@pytest.mark.parametrize("mode", MODES)
def test_50_mb_input_is_rejected_up_front_over_the_default_limit(mode: str) -> None:
    text = '{"a": "' + "x" * 50_000_000 + '"}'
    with pytest.raises(InputTooLargeError) as info:  # up front: benchmarks/adversarial_timing.py times the refusal
        PARSERS[mode].parse_result(text, Item)
    assert info.value.errors[0]["kind"] == "input_too_large"


def test_50_mb_of_bytes_is_rejected_over_the_default_limit() -> None:
    with pytest.raises(InputTooLargeError):
        PARSERS["lenient"].parse_result(b"[" + b"1," * 25_000_000 + b"1]", list[int])


def test_custom_small_limit_rejects_one_character_over() -> None:
    parser = Parser(LENIENT.with_changes(max_input_chars=20), entrypoints=False)
    text = '{"a": "' + "x" * 12 + '"}'  # 21 characters
    assert len(text) == 21
    with pytest.raises(InputTooLargeError):
        parser.parse_result(text, Item)


def test_custom_small_limit_accepts_input_exactly_at_the_limit() -> None:
    parser = Parser(LENIENT.with_changes(max_input_chars=20), entrypoints=False)
    text = '{"a": "' + "x" * 11 + '"}'  # 20 characters
    assert parser.parse(text, Item) == Item(a="x" * 11)


@pytest.mark.slow
def test_50_mb_valid_document_under_a_raised_limit_parses() -> None:
    parser = Parser(LENIENT.with_changes(max_input_chars=60_000_000), entrypoints=False)
    text = '{"a": "' + "x" * 50_000_000 + '"}'
    assert parser.parse(text, Item).a == "x" * 50_000_000


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_27_mb_of_prose_under_a_raised_limit_is_a_parse_error(mode: str) -> None:
    # past the default limit (20 MB), raised: prose that opens braces and backticks everywhere is a clear error
    parser = Parser(
        (LENIENT if mode == "lenient" else STRICT).with_changes(max_input_chars=30_000_000), entrypoints=False
    )
    with pytest.raises(ParseError):
        parser.parse_result("word, { and ` more " * 1_400_000, Item)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_million_tiny_objects_with_a_trailing_comma_parse(mode: str) -> None:
    text = "[" + '{"i": 1}, ' * 1_000_000 + "]"
    result = PARSERS[mode].parse_result(text, list[Tiny])
    assert len(result.value) == 1_000_000
    assert [r.kind for r in result.repairs] == ["trailing_comma"]


# -- encodings and odd characters --------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_invalid_utf8_bytes_are_an_invalid_input_error_with_the_offset(mode: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        PARSERS[mode].parse_result(b'{"a": "\xff"}', Item)
    assert info.value.errors[0]["kind"] == "invalid_utf8"
    assert info.value.errors[0]["offset"] == 7


@pytest.mark.parametrize("mode", MODES)
def test_lone_surrogate_in_a_valid_document_is_a_result_or_parse_error(mode: str) -> None:
    try:
        value = PARSERS[mode].parse('{"a": "\ud800"}', Item)
    except ParseError as err:
        assert all(e["kind"] != "internal" for e in err.errors)
    else:
        assert value == Item(a="\ud800")


@pytest.mark.parametrize("mode", MODES)
def test_escaped_lone_surrogate_is_a_result_or_parse_error(mode: str) -> None:
    try:
        PARSERS[mode].parse('{"a": "\\ud800",}', Item)
    except ParseError as err:
        assert all(e["kind"] != "internal" for e in err.errors)


@pytest.mark.parametrize("mode", MODES)
def test_nul_byte_inside_a_string_is_escaped_losslessly(mode: str) -> None:
    result = PARSERS[mode].parse_result('{"a": "x\x00y"}', Item)
    assert result.value == Item(a="x\x00y")
    assert [r.kind for r in result.repairs] == ["control_character"]


@pytest.mark.parametrize("mode", MODES)
def test_nul_bytes_alone_are_a_no_candidate_error(mode: str) -> None:
    with pytest.raises(ParseError) as info:
        PARSERS[mode].parse_result("\x00" * 1000, Item)
    assert info.value.errors[0]["kind"] == "no_candidate"


@pytest.mark.parametrize("mode", MODES)
def test_a_non_text_input_is_an_invalid_input_error(mode: str) -> None:
    with pytest.raises(InvalidInputError):
        PARSERS[mode].parse_result(12345, Item)  # type: ignore[arg-type]


class Wide(BaseModel):
    a: str
    b: list[int] = []


@pytest.mark.parametrize("mode", MODES)
def test_unclosed_string_followed_by_fragments_is_truncated_not_guessed(mode: str) -> None:
    with pytest.raises(TruncatedOutputError):
        PARSERS[mode].parse_result('{"a": "' + "k: v, " * 10_000, Wide)
