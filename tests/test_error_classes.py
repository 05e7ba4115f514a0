"""Errors that say what happened (issue 23): input no one can read, a limit, a cut literal and a target of the
wrong shape each get their own class and kind, and the order of a union's error details follows the union."""

from __future__ import annotations

from typing import Any, Union

import pytest
from pydantic import BaseModel

from resilient_parse import (
    InvalidInputError,
    ParseError,
    Parser,
    SchemaMismatchError,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)

MODES = ("lenient", "strict")


class A(BaseModel):
    a: int


class B(BaseModel):
    b: int


def error_of(mode: str, text: str, target: Any) -> ParseError:
    with pytest.raises(ParseError) as info:
        Parser(mode, entrypoints=False).parse(text, target)
    return info.value


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("text", "target", "path"),
    [('{"a": "\\ud800"}', dict[str, str], "/a"), ('"\\udc00"', str, ""), ('["x", "\\ud800y"]', Any, "/1")],
)
def test_a_lone_surrogate_is_invalid_input_not_a_schema_mismatch(mode: str, text: str, target: Any, path: str) -> None:
    err = error_of(mode, text, target)
    assert type(err) is InvalidInputError
    assert err.errors[0]["kind"] == "lone_surrogate"
    assert err.errors[0]["path"] == path
    assert "lone surrogate" in err.message
    err.to_dict()["message"].encode("utf-8")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("target", [Any, list[Any]])
def test_nesting_past_the_validators_limit_is_too_deep_not_a_schema_mismatch(mode: str, target: Any) -> None:
    err = error_of(mode, "[" * 300 + "]" * 300, target)
    assert type(err) is UnrecoverableSyntaxError
    assert err.errors[0]["kind"] == "too_deep"
    assert "levels deep" in err.message


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("text", "literal"), [("nul", "null"), ("  tru\n", "true"), ("fals", "false"), ("nu", "null")])
def test_a_cut_literal_is_truncated_output(mode: str, text: str, literal: str) -> None:
    err = error_of(mode, text, Any)
    assert type(err) is TruncatedOutputError
    assert err.errors[0]["kind"] == "truncated"
    assert f"the front of `{literal}`" in err.message


@pytest.mark.parametrize("text", ["n", "nulx", "null and more"])
def test_more_or_less_than_a_cut_literal_is_not_called_one(text: str) -> None:
    assert not isinstance(error_of("lenient", text, A), TruncatedOutputError)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ['"a", "b"', '"x", "y"'])
def test_values_that_do_not_fit_the_targets_shape_are_a_schema_mismatch(mode: str, text: str) -> None:
    err = error_of(mode, text, A)
    assert type(err) is SchemaMismatchError
    assert "unexpected text" not in err.message
    assert "2 JSON values separated by commas" in err.message
    assert err.errors[0]["kind"] == "model_type"


def test_lists_for_an_object_in_strict_are_a_schema_mismatch() -> None:
    err = error_of("strict", '[{"a": 1}], [{"a": 2}]', A)
    assert type(err) is SchemaMismatchError
    assert err.errors[0]["kind"] == "model_type"


def test_a_list_target_without_brackets_in_strict_is_still_a_syntax_error() -> None:
    err = error_of("strict", '{"a": 1}, {"a": 2}', list[A])
    assert type(err) is UnrecoverableSyntaxError
    assert err.errors[0]["kind"] == "trailing_text"


@pytest.mark.parametrize("mode", MODES)
def test_values_that_each_fit_stay_ambiguous(mode: str) -> None:
    assert error_of(mode, '{"a": 1}, {"a": 2}', A).errors[0]["kind"] == "ambiguous_candidates"


def test_union_orders_do_not_share_a_plan() -> None:
    parser = Parser("lenient", entrypoints=False)
    assert parser.plan(Union[A, B]) is not parser.plan(Union[B, A])  # noqa: UP007
    assert parser.plan(list[Union[A, B]]) is not parser.plan(list[Union[B, A]])  # noqa: UP007
    assert parser.plan(Union[A, B]) is parser.plan(Union[A, B])  # noqa: UP007
    with pytest.raises(SchemaMismatchError) as first:
        parser.parse('{"c": 1}', Union[A, B])  # noqa: UP007
    with pytest.raises(SchemaMismatchError) as second:
        parser.parse('{"c": 1}', Union[B, A])  # noqa: UP007
    assert [e["path"] for e in first.value.errors] == ["/a", "/b"]
    assert [e["path"] for e in second.value.errors] == ["/b", "/a"]
