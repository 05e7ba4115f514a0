"""What a user writes, type-checked by tests/test_typing.py with `mypy --strict`: the types flow to the user."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Literal

from pydantic import BaseModel
from typing_extensions import assert_type

from resilient_parse import (
    CorrectionResult,
    ParseError,
    Parser,
    ParseResult,
    StreamUpdate,
    acorrect,
    correct,
    parse,
    parse_result,
    stream,
)
from resilient_parse.batch import parse_many
from resilient_parse.correction import (
    Attempt,
    CorrectionsExhaustedError,
    ScriptedLLM,
    acorrect_result,
    correct_result,
    corrected,
    parsed,
)
from resilient_parse.errors import CandidateAttempt
from resilient_parse.integrations.langchain import ResilientOutputParser


class Plan(BaseModel):
    goal: str
    status: Literal["draft", "final"] = "final"


class Step(BaseModel):
    title: str


TEXT = '{"goal": "x"}'
MESSAGES = [{"role": "user", "content": "plan"}]


def sync_calls(llm: ScriptedLLM) -> None:
    parser = Parser(mode="strict")
    assert_type(parse(TEXT, Plan), Plan)
    assert_type(parser.parse(TEXT, Plan), Plan)
    assert_type(parse_result(TEXT, Plan), ParseResult[Plan])
    assert_type(parser.parse_result(TEXT, Plan).value, Plan)
    assert_type(parse(TEXT, list[Plan]), list[Plan])
    assert_type(parse(TEXT, Literal["a", "b"]), Literal["a", "b"])  # a type form, not only a class
    assert_type(parse(TEXT, Plan | Step), Plan | Step)  # a union follows the target
    assert_type(parse_result(TEXT, Plan | None).value, Plan | None)
    assert_type(parse(TEXT, dict[str, int]), dict[str, int])
    assert_type(parser.parse(TEXT, Plan | Step), Plan | Step)
    assert_type(parser.parse_result(TEXT, Plan | None).value, Plan | None)
    for record in parse_many([TEXT], Plan, workers=0):
        assert_type(record.value, Plan | None)
    for either in stream([TEXT], Plan | Step):
        assert_type(either.value, Plan | Step | None)

    updates = parser.stream([TEXT], Plan)
    assert_type(updates, Iterator[StreamUpdate[Plan]])
    for update in updates:
        assert_type(update.value, Plan | None)
        if update.result is not None:
            assert_type(update.result.value, Plan)

    assert_type(correct(llm, MESSAGES, Plan), Plan)
    result = correct_result(llm, MESSAGES, Plan, max_corrections=1)
    assert_type(result, CorrectionResult[Plan])
    assert_type(result.value, Plan)

    @parsed(Plan)
    def call_model(prompt: str) -> str:
        return TEXT

    assert_type(call_model("go"), Plan)

    @corrected(Plan, max_corrections=2)
    def chat(messages: list[dict[str, str]], temperature: float = 0.0) -> str:
        return TEXT

    assert_type(chat(MESSAGES, temperature=0.5), Plan)

    output_parser = ResilientOutputParser(target=Plan)
    assert_type(output_parser, ResilientOutputParser[Plan])
    assert_type(output_parser.parse(TEXT), Plan)

    try:
        correct(llm, MESSAGES, Plan)
    except CorrectionsExhaustedError as exc:
        assert_type(exc.attempts, tuple[Attempt, ...])
    except ParseError as exc:
        assert_type(exc.attempts, tuple[CandidateAttempt | Attempt, ...])


async def async_calls(llm: ScriptedLLM, chunks: AsyncIterator[str]) -> None:
    parser = Parser()
    assert_type(await acorrect(llm, MESSAGES, Plan), Plan)
    assert_type((await acorrect_result(llm, MESSAGES, Plan)).value, Plan)
    assert_type(parser.astream(chunks, Plan), AsyncIterator[StreamUpdate[Plan]])

    @parsed(Plan)
    async def call_model(prompt: str) -> str:
        return TEXT

    assert_type(await call_model("go"), Plan)
