"""Regressions from the bundled benchmark corpus that the extraction and syntax stages once got wrong.

Each case is the corpus input written out (a check below keeps it identical to
`resilient_parse/bench/corpus/default.jsonl`), with the object each mode must return, or the error it must raise.
The wrong answers they used to give are in the comments: garbage from json-repair, a silently truncated value, an
invented string "undefined".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, Parser, UnrecoverableSyntaxError
from resilient_parse.bench.corpus.models import Event, MovieReview, SentimentResult, TaskPlan, ToolCall, WeatherQuery
from resilient_parse.bench.corpus_loader import load_corpus


@dataclass(frozen=True)
class Row:
    id: str
    text: str
    target: Any
    lenient: BaseModel | type[ParseError]
    strict: BaseModel | type[ParseError]
    kind: str | None = None  # an error kind both modes must name, when they fail


ROWS = [
    # was: lenient {"location": "Cape Town’, ‘units’: ‘metric’, ‘days’: 3", "days": 1}; strict: unexpected '‘'
    Row(
        "quote-007",
        "{‘location’: ‘Cape Town’, ‘units’: ‘metric’, ‘days’: 3}",
        WeatherQuery,
        lenient=WeatherQuery(location="Cape Town", units="metric", days=3),
        strict=WeatherQuery(location="Cape Town", units="metric", days=3),
    ),
    # was: lenient {"action": "search_web＂, ＂arguments＂: {…}", "arguments": {}}
    Row(
        "unicode-012",
        "{＂action＂: ＂search_web＂, ＂arguments＂: {＂query＂: ＂東京 天気＂}}",
        ToolCall,
        lenient=ToolCall(action="search_web", arguments={"query": "東京 天気"}),
        strict=ToolCall(action="search_web", arguments={"query": "東京 天気"}),
    ),
    # was: lenient location "undefined" (json-repair's reading)
    Row(
        "literal-003",
        '{"title": "Dentist appointment", "date": "2024-06-20", "start_time": "08:15", "duration_minutes": 30, '
        '"location": undefined}',
        Event,
        lenient=Event(
            title="Dentist appointment", date=dt.date(2024, 6, 20), start_time=dt.time(8, 15), duration_minutes=30
        ),
        strict=UnrecoverableSyntaxError,
    ),
    Row(
        "strict-012",
        '{"action": "list_messages", "arguments": {"folder": "inbox", "cursor": undefined}}',
        ToolCall,
        lenient=ToolCall(action="list_messages", arguments={"folder": "inbox", "cursor": None}),
        strict=UnrecoverableSyntaxError,
    ),
    # was: lenient summary "Short" — "sweet and" dropped without a word
    Row(
        "escape-009",
        '{"title": "Juno", "year": 2007, "rating": 7.4, "recommended": true, "summary": "Short", sweet and "fun", '
        '"rating_note": "none"}',
        MovieReview,
        lenient=UnrecoverableSyntaxError,
        strict=UnrecoverableSyntaxError,
    ),
    # was: lenient a plan with one step, the '...' dropped
    Row(
        "trunc-012",
        '{"goal": "Write the annual report", "steps": [{"id": 1, "description": "Gather KPIs", "tool": "bigquery", '
        '"dependencies": []}, ...]}',
        TaskPlan,
        lenient=UnrecoverableSyntaxError,
        strict=UnrecoverableSyntaxError,
        kind="elided",
    ),
    # was: lenient the braces inside the string pulled out and read as an object with one odd key
    Row(
        "double-009",
        '```json\n"{\\"sentiment\\": \\"positive\\", \\"confidence\\": 0.77, \\"aspects\\": [\\"checkout\\"]}"\n```',
        SentimentResult,
        lenient=SentimentResult(sentiment="positive", confidence=0.77, aspects=["checkout"]),
        strict=ParseError,
    ),
    # was: AmbiguousMatchError in both modes — the template validates too
    Row(
        "multi-001",
        'A tool call has the shape {"action": "tool_name", "arguments": {}}. For your request:\n\n'
        '{"action": "search_flights", "arguments": {"from": "AMS", "to": "JFK", "date": "2024-12-20"}}',
        ToolCall,
        lenient=ToolCall(action="search_flights", arguments={"from": "AMS", "to": "JFK", "date": "2024-12-20"}),
        strict=ToolCall(action="search_flights", arguments={"from": "AMS", "to": "JFK", "date": "2024-12-20"}),
    ),
]
PARSERS = {"strict": Parser("strict", entrypoints=False), "lenient": Parser("lenient", entrypoints=False)}


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_corpus_case(row: Row, mode: str) -> None:
    expected = row.strict if mode == "strict" else row.lenient
    if isinstance(expected, BaseModel):
        result = PARSERS[mode].parse_result(row.text, row.target)
        assert result.value == expected
        if mode == "strict":
            assert all(r.lossless for r in result.repairs)
        return
    with pytest.raises(expected) as info:
        PARSERS[mode].parse_result(row.text, row.target)
    if row.kind is not None:
        assert row.kind in [e["kind"] for e in info.value.errors]


def test_undefined_read_as_null_is_recorded_as_a_lossy_js_literal() -> None:
    result = PARSERS["lenient"].parse_result(ROWS[3].text, ToolCall)
    assert [(r.kind, r.path, r.lossless) for r in result.repairs] == [("js_literal", "/arguments/cursor", False)]


def test_strict_names_the_undefined_value() -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        PARSERS["strict"].parse_result(ROWS[3].text, ToolCall)
    assert ("js_literal", "/arguments/cursor") in [(e["kind"], e["path"]) for e in info.value.errors]


def test_elided_steps_name_the_list() -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        PARSERS["lenient"].parse_result(ROWS[5].text, TaskPlan)
    assert ("elided", "/steps") in [(e["kind"], e["path"]) for e in info.value.errors]


def test_the_rows_are_the_corpus_inputs_verbatim() -> None:
    corpus = {case.id: case.input for case in load_corpus()}
    assert {row.id: row.text for row in ROWS} == {row.id: corpus[row.id] for row in ROWS}
