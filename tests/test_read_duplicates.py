"""The fast path's duplicate-key guard (`read_duplicates.key_counter` + `members_match`, then jiter) refuses every
duplicate on the valid path, for targets whose members it can count and for those it cannot; the loose rewrite
counts numbers as list items."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, model_validator

from resilient_parse import AmbiguousMatchError, Parser
from resilient_parse.stages.read_duplicates import key_counter


class Inner(BaseModel):
    a: int = 0
    b: int = 0


class Outer(BaseModel):
    inner: Inner
    items: list[Inner] = []
    name: str = ""


class Aliased(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    x: int = Field(0, alias="X")


class Checked(BaseModel):
    a: int = 0

    @model_validator(mode="after")
    def same(self) -> Checked:
        return self


class TagA(BaseModel):
    kind: Literal["a"]
    v: int = 0


class TagB(BaseModel):
    kind: Literal["b"]
    w: dict[str, Any] = {}


Tagged = Annotated[TagA | TagB, Field(discriminator="kind")]


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize(
    ("target", "text"),
    [
        (Outer, '{"inner": {"a": 1, "a": 2}, "name": "x"}'),
        (Outer, '{"inner": {"a": 1}, "items": [{"b": 1, "b": 2}]}'),
        (Outer, '{"inner": {"a": 1}, "name": "http://x:80", "name": "y"}'),  # a colon in a string
        (Outer, '{"inner": {"a": 1}, "name" : "q", "name": "y"}'),  # a space before a colon
        (Outer, '{"inner": {"a": 1, "\\u0061": 2}}'),  # one key spelled with an escape
        (Any, '{"a": {"b": [1, {"c": 1, "c": 2}]}}'),
        (dict[str, int], '{"a": 1, "a": 2}'),
        (Aliased, '{"X": 1, "X": 2}'),
        (Checked, '{"a": 1, "a": 2}'),  # a model validator: no count, jiter decides
        (Tagged, '{"kind": "a", "v": 1, "v": 2}'),
        (Tagged, '{"kind": "b", "w": {"x": 1, "x": 2}}'),
    ],
)
def test_a_duplicate_key_in_valid_json_is_refused_on_the_fast_path(mode: str, target: Any, text: str) -> None:
    with pytest.raises(AmbiguousMatchError):
        Parser(mode=mode, entrypoints=False).parse(text, target)


def test_valid_json_without_duplicates_is_read_as_it_stands() -> None:
    parser = Parser(entrypoints=False)
    assert parser.parse('{"inner": {"a": 1}, "name": "http://x:80"}', Outer) == Outer(
        inner=Inner(a=1), name="http://x:80"
    )
    assert parser.parse_result('{"kind": "b", "w": {"x": 1, "y": 1}}', Tagged).repairs == ()


def test_members_are_counted_only_where_no_code_runs_on_containers() -> None:
    from pydantic import TypeAdapter

    assert key_counter(TypeAdapter(list[Outer]).core_schema) is not None
    assert key_counter(TypeAdapter(Checked).core_schema) is None  # model_validator
    assert key_counter(TypeAdapter(Tagged).core_schema) is not None


def test_a_repair_after_a_number_in_a_loose_list_names_the_right_index() -> None:
    result = Parser(entrypoints=False).parse_result("{'x': [1, 'a', True,]}", Any)
    assert [(r.kind, r.path) for r in result.repairs] == [
        ("single_quotes", "/x"),
        ("single_quotes", "/x/1"),
        ("python_literal", "/x/2"),
        ("trailing_comma", "/x"),
    ]
