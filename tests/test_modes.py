"""Modes are frozen policies: strict allows exactly the lossless repair kinds, lenient allows everything and says
so in the trace, and users build their own policy from the same switches."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import pytest
from pydantic import BaseModel

import resilient_parse as rp
from resilient_parse import (
    LENIENT,
    STRICT,
    ConfigurationError,
    InputTooLargeError,
    Parser,
    Policy,
    SchemaMismatchError,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)
from resilient_parse.repairs import KINDS


class Person(BaseModel):
    name: str
    age: int


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, Any] = {}


class Ticket(BaseModel):
    title: str
    priority: Literal["low", "medium", "high"]


def parser(mode: str | Policy) -> Parser:
    return Parser(mode, entrypoints=False)


# -- the two named policies --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_strict_allows_exactly_the_lossless_kinds(kind: str) -> None:
    assert STRICT.allows(kind) is KINDS[kind].lossless


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_lenient_allows_every_kind(kind: str) -> None:
    assert LENIENT.allows(kind)


def test_unknown_repair_kinds_count_as_lossy() -> None:
    assert not STRICT.allows("some_plugin_guess")
    assert LENIENT.allows("some_plugin_guess")


@pytest.mark.parametrize(("mode", "policy"), [("strict", STRICT), ("lenient", LENIENT), ("STRICT", STRICT)])
def test_mode_names_resolve_to_the_frozen_policies(mode: str, policy: Policy) -> None:
    assert parser(mode).policy is policy


def test_policies_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        STRICT.allow_lossy = True  # type: ignore[misc]


def test_the_result_names_its_mode() -> None:
    assert parser("strict").parse_result('{"name": "A", "age": 1,}', Person).mode == "strict"
    assert parser("lenient").parse_result('{"name": "A", "age": 1,}', Person).mode == "lenient"


# -- strict versus lenient on the same text ----------------------------------------------------------------------


def test_both_modes_apply_and_record_lossless_syntax_repairs() -> None:
    text = "```json\n{'name': 'Bob', age: 30, // years\n}\n```"
    for mode in ("strict", "lenient"):
        result = parser(mode).parse_result(text, Person)
        assert result.value == Person(name="Bob", age=30)
        kinds = {r.kind for r in result.repairs}
        assert {"extract_fence", "single_quotes", "bare_key", "comment", "trailing_comma"} <= kinds
        assert all(r.lossless for r in result.repairs)
        assert all(r.path in ("", "/name", "/age") for r in result.repairs)


def test_key_case_is_lenient_only() -> None:
    text = '{"Name": "Bob", "Age": 30}'
    result = parser("lenient").parse_result(text, Person)
    assert result.value == Person(name="Bob", age=30)
    assert {(r.kind, r.path, r.lossless) for r in result.repairs} == {
        ("key_case", "/Name", False),
        ("key_case", "/Age", False),
    }
    with pytest.raises(SchemaMismatchError):
        parser("strict").parse(text, Person)


def test_enum_case_is_lenient_only() -> None:
    text = '{"title": "Crash", "priority": "High"}'
    assert parser("lenient").parse(text, Ticket) == Ticket(title="Crash", priority="high")
    with pytest.raises(SchemaMismatchError) as info:
        parser("strict").parse(text, Ticket)
    assert "/priority" in [e["path"] for e in info.value.errors]


def test_plugin_aliases_are_lenient_only_but_explicit_aliases_apply_in_strict() -> None:
    text = '{"tool": "search"}'
    assert parser("lenient").parse(text, ToolCall) == ToolCall(action="search")
    with pytest.raises(SchemaMismatchError):
        parser("strict").parse(text, ToolCall)
    explicit = Parser("strict", aliases={"tool": "action"}, entrypoints=False).parse_result(text, ToolCall)
    assert explicit.value == ToolCall(action="search")
    assert [(r.kind, r.lossless) for r in explicit.repairs] == [("key_alias", True)]


def test_closing_truncated_output_is_lenient_only() -> None:
    text = '{"name": "Bob", "age": 30\n'
    result = parser("lenient").parse_result(text, Person)
    assert result.value == Person(name="Bob", age=30)
    assert [r.kind for r in result.repairs if not r.lossless] == ["close_truncated"]
    with pytest.raises(TruncatedOutputError):
        parser("strict").parse(text, Person)


def test_json_repair_is_lenient_only() -> None:
    text = '{"name": "Bob "the builder" Smith", "age": 30}'
    result = parser("lenient").parse_result(text, Person)
    assert result.value == Person(name='Bob "the builder" Smith', age=30)
    assert [r.kind for r in result.repairs if not r.lossless] == ["inner_quote"]  # issue 12: read, not json-repair
    with pytest.raises(UnrecoverableSyntaxError):
        parser("strict").parse(text, Person)


def test_api_parse_takes_the_mode() -> None:
    assert rp.parse('{"Name": "Bob", "Age": 30}', Person) == Person(name="Bob", age=30)
    with pytest.raises(SchemaMismatchError):
        rp.parse('{"Name": "Bob", "Age": 30}', Person, mode="strict")


# -- custom policies ---------------------------------------------------------------------------------------------


def test_forbidden_kind_is_refused_even_though_lossless() -> None:
    no_single = Policy(name="no-single-quotes", forbidden_kinds=frozenset({"single_quotes"}))
    with pytest.raises(UnrecoverableSyntaxError) as info:
        parser(no_single).parse("{'name': 'Bob', 'age': 30}", Person)
    assert info.value.errors[0]["kind"] == "repair_not_allowed"
    assert parser(no_single).parse('{"name": "Bob", "age": 30,}', Person) == Person(name="Bob", age=30)


def test_forbidden_lossy_kind_in_an_otherwise_lenient_policy() -> None:
    no_case = LENIENT.with_changes(name="no-case", forbidden_kinds=frozenset({"key_case"}))
    with pytest.raises(SchemaMismatchError):
        parser(no_case).parse('{"Name": "Bob", "Age": 30}', Person)
    assert parser(no_case).parse('{"name": "Bob", "age": 30\n', Person) == Person(name="Bob", age=30)


def test_forbidding_json_repair_keeps_the_rest_of_lenient() -> None:
    no_guess = Policy(name="no-json-repair", forbidden_kinds=frozenset({"json_repair", "inner_quote"}))
    with pytest.raises(UnrecoverableSyntaxError):
        parser(no_guess).parse('{"name": "Bob "B" Smith", "age": 30}', Person)
    assert parser(no_guess).parse('{"Name": "Bob", "Age": 30}', Person) == Person(name="Bob", age=30)


def test_extra_allowed_kind_in_an_otherwise_strict_policy() -> None:
    strict_but_close = STRICT.with_changes(name="strict+close", extra_allowed_kinds=frozenset({"close_truncated"}))
    assert parser(strict_but_close).parse('{"name": "Bob", "age": 30\n', Person) == Person(name="Bob", age=30)
    with pytest.raises(SchemaMismatchError):
        parser(strict_but_close).parse('{"Name": "Bob", "Age": 30}', Person)


def test_input_size_limit() -> None:
    small = Policy(name="small", max_input_chars=20)
    with pytest.raises(InputTooLargeError):
        parser(small).parse('{"name": "Bob", "age": 30}', Person)


def test_depth_limit_is_a_clear_error() -> None:
    shallow = Policy(name="shallow", max_depth=3)
    with pytest.raises(UnrecoverableSyntaxError) as info:
        parser(shallow).parse('{"name": "x", "age": 1, "extra": [[[[1]]]],}', Person)
    assert "too_deep" in [e["kind"] for e in info.value.errors]


# -- configuration errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["relaxed", "", "Strict mode", 1, None, object()])
def test_bad_mode_is_a_configuration_error(mode: Any) -> None:
    with pytest.raises(ConfigurationError):
        Parser(mode, entrypoints=False)


def test_bad_mode_in_the_api_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError):
        rp.parse('{"name": "Bob", "age": 30}', Person, mode="fuzzy")


def test_configuration_error_is_a_value_error_not_a_parse_error() -> None:
    assert issubclass(ConfigurationError, ValueError)
    assert not issubclass(ConfigurationError, rp.ParseError)


@pytest.mark.parametrize(
    "changes",
    [
        {"fuzzy_key_threshold": 1.5},
        {"fuzzy_value_threshold": -0.1},
        {"unknown_keys": "ignore"},
        {"max_depth": 0},
        {"max_input_chars": 0},
        {"max_candidates": 0},
        {"max_corrections": -1},
    ],
)
def test_bad_policy_values_are_configuration_errors(changes: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError):
        Policy(**changes)


def test_bad_alias_table_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError):
        Parser(aliases={"tool": 1}, entrypoints=False)  # type: ignore[dict-item]
