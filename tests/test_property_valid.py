"""Property: a valid JSON document of the target comes back exactly as `TypeAdapter(T).validate_json` returns it,
in both modes, with no repairs recorded — whatever the whitespace, and whatever the strings hold (fences, braces,
`<think>` tags, quotes, keys that look like other fields)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, Literal

import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter
from typing_extensions import TypedDict

from resilient_parse import Parser


class Color(str, Enum):
    RED = "red"
    GREEN = "green"
    DARK_BLUE = "dark blue"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


class Tag(BaseModel):
    name: str
    weight: float


class Inner(BaseModel):
    label: Literal["a", "b", "c"]
    values: list[int]
    note: str | None = None


class Outer(BaseModel):
    id: int
    color: Color
    level: Level
    inner: Inner
    tags: list[Tag] = []
    maybe: Inner | None = None
    flags: dict[str, bool] = {}
    kind: Literal["x", "y"] = "x"


class Movie(TypedDict):
    title: str
    year: int


@dataclass
class Point:
    x: float
    y: float


PARSERS = {mode: Parser(mode, entrypoints=False) for mode in ("strict", "lenient")}

# strings that would mislead an extractor or a key matcher if the fast path were skipped
TRICKY = [
    "```json\n{}\n```",
    "</think>",
    "<think>{}",
    '{"a": 1}',
    "}]",
    "It's Bob's",
    'say "hi"',
    "// not a comment",
    "# nor this",
    "True",
    "None",
    "ｅ｛：｝“”",
    "\ufeff\u00a0",
    "line\nbreak\ttab",
    "C:\\Users\\bob",
    'label": "z',
    "",
]
texts = st.one_of(st.sampled_from(TRICKY), st.text(max_size=30))
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
ints = st.integers(min_value=-(2**53), max_value=2**53)

tags = st.fixed_dictionaries({"name": texts, "weight": finite})
inners = st.fixed_dictionaries(
    {"label": st.sampled_from(["a", "b", "c"]), "values": st.lists(ints, max_size=5)},
    optional={"note": st.none() | texts},
)
outers = st.fixed_dictionaries(
    {
        "id": ints,
        "color": st.sampled_from([c.value for c in Color]),
        "level": st.sampled_from([1, 2]),
        "inner": inners,
    },
    optional={
        "tags": st.lists(tags, max_size=4),
        "maybe": st.none() | inners,
        "flags": st.dictionaries(texts, st.booleans(), max_size=4),
        "kind": st.sampled_from(["x", "y"]),
    },
)
movies = st.fixed_dictionaries({"title": texts, "year": ints})
points = st.fixed_dictionaries({"x": finite, "y": finite})

DOCUMENTS: dict[str, tuple[Any, st.SearchStrategy[Any]]] = {
    "nested-model": (Outer, outers),
    "list-of-models": (list[Tag], st.lists(tags, max_size=6)),
    "list-of-nested": (list[Outer], st.lists(outers, max_size=3)),
    "optional-model": (Inner | None, st.none() | inners),
    "typeddict": (Movie, movies),
    "dataclass": (Point, points),
}


@st.composite
def layouts(draw: st.DrawFn, tree: Any) -> str:
    """The same document, serialised the ways a model or a library may lay it out."""
    indent = draw(st.sampled_from([None, 0, 1, 2, 4, "\t"]))
    compact = draw(st.booleans())
    separators = (",", ":") if compact else None
    ascii_only = draw(st.booleans())
    body = json.dumps(tree, indent=indent, separators=separators, ensure_ascii=ascii_only)
    before = draw(st.sampled_from(["", " ", "\n", "\r\n", "\t\n  "]))
    after = draw(st.sampled_from(["", " ", "\n", "\n\n", " \t"]))
    return before + body + after


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize("name", list(DOCUMENTS))
@given(data=st.data())
def test_valid_document_is_what_pydantic_returns_with_no_repairs(mode: str, name: str, data: st.DataObject) -> None:
    target, trees = DOCUMENTS[name]
    tree = data.draw(trees, label="tree")
    text = data.draw(layouts(tree), label="text")
    note(repr(text))
    expected = TypeAdapter(target).validate_json(text)
    result = PARSERS[mode].parse_result(text, target)
    assert result.value == expected
    assert type(result.value) is type(expected)
    assert result.repairs == ()
