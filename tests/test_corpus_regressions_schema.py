"""Regressions from the bundled benchmark corpus that the alignment and coercion stages once got wrong.

Each case is the corpus input written out (a check below keeps it identical to
`resilient_parse/bench/corpus/default.jsonl`), with the object each mode must return, or the error it must raise.
The wrong answers they used to give are in the comments: one of two disagreeing spellings silently kept, a
comma-separated string made one tag, a currency sign after the number or a unit-named field not read.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import AmbiguousMatchError, ParseError, Parser, SchemaMismatchError
from resilient_parse.bench.corpus.models import (
    AgentStep,
    FinishAction,
    Invoice,
    Item,
    Product,
    SupportTicket,
    ToolCall,
    WeatherQuery,
)
from resilient_parse.bench.corpus_loader import load_corpus


@dataclass(frozen=True)
class Row:
    id: str
    text: str
    target: Any
    lenient: BaseModel | list[Item] | type[ParseError]
    strict: BaseModel | type[ParseError]
    kind: str | None = None  # an error kind both modes must name, when they fail
    path: str | None = None  # … at this JSON Pointer
    aliases: dict[str, str] | None = field(default=None)


ROWS = [
    # was: both modes {"action": "get_weather", …} — "Action": "get_forecast" silently dropped
    Row(
        "case-010",
        '{"action": "get_weather", "Action": "get_forecast", "arguments": {"city": "Rome"}}',
        ToolCall,
        lenient=AmbiguousMatchError,
        strict=AmbiguousMatchError,
        kind="ambiguous_key",
        path="/Action",
    ),
    # was: both modes {"action": "archive_file", …} — the plugin alias "tool" said delete_file
    Row(
        "alias-012",
        '{"tool": "delete_file", "action": "archive_file", "arguments": {"path": "/tmp/report.pdf"}}',
        ToolCall,
        lenient=AmbiguousMatchError,
        strict=AmbiguousMatchError,
        kind="ambiguous_key",
        path="/tool",
    ),
    # was: both modes ticket_id "ZD-1" — Pydantic took the first AliasChoices key and dropped "ZD-2"
    Row(
        "declared-011",
        '{"ticket_id": "ZD-1", "ticketId": "ZD-2", "category": "other", "priority": "low", "summary": "Duplicate ids"}',
        SupportTicket,
        lenient=AmbiguousMatchError,
        strict=AmbiguousMatchError,
        kind="ambiguous_key",
        path="/ticketId",
    ),
    # was: lenient "Unable to extract tag using discriminator 'type'"
    Row(
        "typo-013",
        '{"thought": "Done.", "action": {"tpye": "finish", "answer": "The capital of Australia is Canberra."}}',
        AgentStep,
        lenient=AgentStep(
            thought="Done.", action=FinishAction(type="finish", answer="The capital of Australia is Canberra.")
        ),
        strict=SchemaMismatchError,
    ),
    # was: lenient "'3 days' is in days, but the field's unit is not known"
    Row(
        "coerce-021",
        '{"location": "Tromsø", "units": "metric", "days": "3 days"}',
        WeatherQuery,
        lenient=WeatherQuery(location="Tromsø", units="metric", days=3),
        strict=SchemaMismatchError,
    ),
    # was: lenient "/action: Field required" — the envelope's arguments were taken, not the function object
    Row(
        "wrap-005",
        '{"id": "chatcmpl-abc", "object": "chat.completion", "model": "gpt-4o-mini", "choices": [{"index": 0, '
        '"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [{"id": '
        '"call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"location\\": '
        '\\"Paris\\", \\"unit\\": \\"celsius\\"}"}}]}}]}',
        ToolCall,
        lenient=ToolCall(action="get_weather", arguments={"location": "Paris", "unit": "celsius"}),
        strict=SchemaMismatchError,
        aliases={"name": "action"},
    ),
    # was: lenient "/arguments: Input should be an object" — json.loads cannot read a Python repr
    Row(
        "double-008",
        """{"action": "search_web", "arguments": "{'query': 'llm structured output'}"}""",
        ToolCall,
        lenient=ToolCall(action="search_web", arguments={"query": "llm structured output"}),
        strict=SchemaMismatchError,
    ),
    # was: lenient tags ["eco, bathroom"] — one tag made of two
    Row(
        "coerce-020",
        '{"name": "Bamboo toothbrush (4-pack)", "price": 8.5, "currency": "USD", "in_stock": true, '
        '"tags": "eco, bathroom"}',
        Product,
        lenient=AmbiguousMatchError,
        strict=SchemaMismatchError,
        path="/tags",
    ),
    # was: lenient "/total: Input should be a valid number" — a euro sign after the number was not read
    Row(
        "coerce-005",
        '{"invoice_number": "RE-2024-311", "vendor": "Müller & Söhne KG", "issue_date": "2024-03-18", '
        '"currency": "EUR", "total": "1.250,00 €"}',
        Invoice,
        lenient=Invoice(
            invoice_number="RE-2024-311",
            vendor="Müller & Söhne KG",
            issue_date=dt.date(2024, 3, 18),
            currency="EUR",
            total=1250.0,
        ),
        strict=SchemaMismatchError,
    ),
    # was: lenient "/0/quantity: Input should be a valid number" — the unit the object states was not consulted
    Row(
        "nested-011",
        '[{"name": "flour", "quantity": "2 cups", "unit": "cups"}, {"Name": "salt", "quantity": 1, "unit": "pinch"}]',
        list[Item],
        lenient=[Item(name="flour", quantity=2.0, unit="cups"), Item(name="salt", quantity=1.0, unit="pinch")],
        strict=SchemaMismatchError,
    ),
    # refused before too, but only because the field's unit was unknown; now because the object contradicts itself
    Row(
        "coerce-018",
        '{"name": "Wireless charger", "price": "12.99 EUR", "currency": "USD", "in_stock": true}',
        Product,
        lenient=SchemaMismatchError,
        strict=SchemaMismatchError,
        path="/price",
    ),
]
PARSERS = {"strict": Parser("strict", entrypoints=False), "lenient": Parser("lenient", entrypoints=False)}


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_corpus_case(row: Row, mode: str) -> None:
    expected = row.strict if mode == "strict" else row.lenient
    if not isinstance(expected, type):
        result = PARSERS[mode].parse_result(row.text, row.target, aliases=row.aliases)
        assert result.value == expected
        if mode == "strict":
            assert all(r.lossless for r in result.repairs)
        return
    with pytest.raises(expected) as info:
        PARSERS[mode].parse_result(row.text, row.target, aliases=row.aliases)
    if mode == "strict":
        assert all(r.lossless for r in info.value.repairs)
    found = [(e["kind"], e["path"]) for e in info.value.errors]
    if row.kind is not None:
        assert (row.kind, row.path) in found
    elif row.path is not None and mode == "lenient":
        assert row.path in [path for _, path in found]


@pytest.mark.parametrize("row", [r for r in ROWS if r.kind == "ambiguous_key"], ids=lambda r: r.id)
def test_the_refusal_names_both_keys_and_the_field(row: Row) -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        PARSERS["strict"].parse_result(row.text, row.target)
    (detail,) = [e for e in info.value.errors if e["kind"] == "ambiguous_key"]
    first, second = detail["got"]
    assert repr(first) in detail["message"] and repr(second) in detail["message"]
    assert "the field" in detail["message"]


def test_the_contradicting_currency_is_named() -> None:
    row = next(r for r in ROWS if r.id == "coerce-018")
    with pytest.raises(SchemaMismatchError) as info:
        PARSERS["lenient"].parse_result(row.text, row.target)
    assert [(e["kind"], e["path"]) for e in info.value.errors] == [("unit_mismatch", "/price")]
    assert "'currency' says 'USD'" in info.value.errors[0]["message"]


def test_the_misspelled_tag_key_is_a_recorded_fuzzy_rename() -> None:
    result = PARSERS["lenient"].parse_result(ROWS[3].text, AgentStep)
    assert [(r.kind, r.path, r.before, r.after) for r in result.repairs] == [
        ("key_fuzzy", "/action/tpye", "tpye", "type")
    ]


def test_the_envelope_is_unwrapped_to_the_function_and_its_arguments_decoded() -> None:
    result = PARSERS["lenient"].parse_result(ROWS[5].text, ToolCall, aliases={"name": "action"})
    assert [(r.kind, r.path) for r in result.repairs] == [
        ("unwrap_wrapper", ""),
        ("key_alias", "/name"),
        ("decode_json_string", "/arguments"),
    ]


def test_the_rows_are_the_corpus_inputs_verbatim() -> None:
    corpus = {case.id: case for case in load_corpus()}
    assert {row.id: row.text for row in ROWS} == {row.id: corpus[row.id].input for row in ROWS}
    assert {row.id: row.aliases for row in ROWS} == {row.id: corpus[row.id].aliases for row in ROWS}
