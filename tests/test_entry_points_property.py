"""Property: whatever valid JSON document reaches a public entry point — `parse`, `parse_result`,
`Parser.stream` over any chunking (text or bytes), `parse_many` and the correction loop `correct` — in either
mode and for any target, nothing but the library's own errors (`ResilientParseError`, `ConfigurationError`: see
`resilient_parse.errors`) leaves it. For `typing.Any` the value is exactly `json.loads` of the document (types
included: `true` stays a bool, `1.0` a float) with no repairs, and a document Pydantic reads as the target comes
back as Pydantic reads it, with no repairs, through every entry point; any other document is recovered by all
of them, as the same value, or by none."""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter, ValidationError

from resilient_parse import ConfigurationError, Parser, ResilientParseError, correct, parse, parse_result
from resilient_parse.batch import parse_many
from resilient_parse.correction import ScriptedLLM

MODES = ("strict", "lenient")
PARSERS = {mode: Parser(mode) for mode in MODES}
ASK = [{"role": "user", "content": "Answer with JSON."}]
MAX_CORRECTIONS = 2
LIBRARY_ERRORS = (ResilientParseError, ConfigurationError)
ENTRY_POINTS = ("parse", "parse_result", "stream", "parse_many", "correct")


class Item(BaseModel):
    name: str
    count: int = 0


TARGETS: dict[str, Any] = {
    "any": Any,
    "dict": dict[str, Any],
    "list-int": list[int],
    "model": Item,
    "int": int,
    "str": str,
}

# strings that look like something else to an extractor or a key matcher
TRICKY = ["", "```json\n{}\n```", "</think>", '{"a": 1}', "[1, 2]", "}]", "null", "true", "42", "It's", 'say "hi"']
texts = st.one_of(st.sampled_from(TRICKY), st.text(max_size=12))  # no lone surrogates: not valid Unicode text
numbers = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.one_of(texts, st.sampled_from(["name", "count"])), children)
    ),
    max_leaves=12,
)
# documents that fit the typed targets, so their success paths are drawn too
fitting = st.one_of(
    st.lists(st.integers(min_value=-(2**63), max_value=2**63), max_size=5),
    st.fixed_dictionaries({"name": texts}, optional={"count": st.integers(min_value=-(2**31), max_value=2**31)}),
    st.dictionaries(texts, scalars, max_size=4),
)
white = st.text(alphabet=" \t\r\n", max_size=3)


@st.composite
def documents(draw: st.DrawFn) -> str:
    """A JSON value serialised with `json.dumps`: any indentation, white space around the separators and the
    document, `ensure_ascii` on or off."""
    tree = draw(st.one_of(scalars, json_values, fitting), label="tree")
    indent = draw(st.sampled_from([None, 0, 1, 2, "\t", " \r\n"]))
    separators = (draw(white).replace("\n", "") + "," + draw(white), draw(white) + ":" + draw(white))
    body = json.dumps(tree, indent=indent, separators=separators, ensure_ascii=draw(st.booleans()))
    return draw(white) + body + draw(white)


def same(got: Any, expected: Any) -> bool:
    """Equal, and of the same JSON types all the way down (`True == 1` and `1 == 1.0` do not count)."""
    if type(got) is not type(expected):
        return False
    if isinstance(expected, dict):
        return list(got) == list(expected) and all(same(got[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return len(got) == len(expected) and all(same(g, e) for g, e in zip(got, expected))
    return bool(got == expected)


def pydantic_reads(text: str, target: Any) -> tuple[bool, Any]:
    """Whether Pydantic reads the document as the target, and what it reads."""
    try:
        return True, TypeAdapter(target).validate_json(text)
    except ValidationError:
        return False, None


def chunked(data: str | bytes, cuts: list[int]) -> list[Any]:
    bounds = [0, *sorted({c % (len(data) + 1) for c in cuts}), len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(TARGETS))
@given(doc=documents(), cuts=st.lists(st.integers(min_value=0), max_size=6), as_bytes=st.booleans())
def test_every_entry_point_returns_the_document_or_raises_only_library_errors(
    mode: str, name: str, doc: str, cuts: list[int], as_bytes: bool
) -> None:
    target = TARGETS[name]
    loaded = json.loads(doc)
    note(f"document: {doc!r}")
    fits, expected = (True, loaded) if target is Any else pydantic_reads(doc, target)
    values: dict[str, Any] = {}

    with contextlib.suppress(*LIBRARY_ERRORS):
        values["parse"] = parse(doc, target, mode=mode)

    try:
        result = parse_result(doc, target, mode=mode)
    except LIBRARY_ERRORS:
        pass
    else:
        values["parse_result"] = result.value
        if fits:
            assert result.repairs == (), f"repairs on a valid document: {result.repairs}"

    chunks = chunked(doc.encode("utf-8", "surrogatepass") if as_bytes else doc, cuts)
    try:
        updates = list(PARSERS[mode].stream(chunks, target))
    except LIBRARY_ERRORS:
        pass
    else:
        assert [u.is_final for u in updates].count(True) == 1 and updates[-1].is_final
        final = updates[-1]
        assert final.result is not None
        values["stream"] = final.value
        if fits:
            assert final.result.repairs == (), f"repairs on a valid document: {final.result.repairs}"

    [record] = parse_many([doc], target, mode=mode, workers=0)
    assert record.index == 0 and record.outcome in ("recovered", "repaired", "refused"), record
    if record.ok:
        values["parse_many"] = record.value
    if fits:
        assert record.outcome == "recovered", record

    llm = ScriptedLLM([doc] * (1 + MAX_CORRECTIONS))
    try:
        values["correct"] = correct(llm, ASK, target, mode=mode, max_corrections=MAX_CORRECTIONS)
    except LIBRARY_ERRORS:
        pass
    else:
        if fits:
            assert len(llm.calls) == 1, "a valid answer was asked again"

    if fits:  # every entry point recovered it, as json.loads (Any) or Pydantic reads it
        assert set(values) == set(ENTRY_POINTS), values
        for entry, value in values.items():
            if target is Any:
                assert same(value, expected), (entry, value)
            else:
                assert value == expected and type(value) is type(expected), (entry, value)
    else:  # the entry points agree with each other on what the document means
        assert set(values) in (set(), set(ENTRY_POINTS)), values  # all recover it, or none
        for value in values.values():
            assert value == values["parse_result"], values
