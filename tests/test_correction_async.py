"""`acorrect` is the same loop as `correct`: for any script, both make the same calls and end the same way."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import replace
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import ConfigurationError, CorrectionError, ParseError, Parser, acorrect, correct
from resilient_parse.correction import (
    Attempt,
    CorrectionsExhaustedError,
    ModelRefusedError,
    QuotaExhaustedError,
    ScriptedLLM,
    acorrect_result,
    correct_result,
)


class Step(BaseModel):
    id: int
    action: Literal["search", "summarize", "email"]


class Plan(BaseModel):
    goal: str
    steps: list[Step]


GOOD = '{"goal": "g", "steps": [{"id": 1, "action": "search"}]}'
BAD_ENUM = '{"goal": "g", "steps": [{"id": 1, "action": "teleport"}]}'
MISSING_GOAL = '{"steps": [{"id": 1, "action": "search"}]}'
ASK = [{"role": "user", "content": "Plan a literature search."}]


class QuotaError(Exception):
    code = "insufficient_quota"


SCRIPTS: dict[str, list[Any]] = {
    "valid": [GOOD],
    "repaired": ["```json\n{'goal': 'g', 'steps': [{'id': 1, 'action': 'search'},]}\n```"],
    "corrected": [BAD_ENUM, GOOD],
    "two corrections": [BAD_ENUM, MISSING_GOAL, GOOD],
    "exhausted": [BAD_ENUM, MISSING_GOAL, BAD_ENUM],
    "repeated": [BAD_ENUM, BAD_ENUM],
    "refusal": ["I'm sorry, I can't help with that."],
    "quota": [BAD_ENUM, QuotaError("insufficient_quota")],
}


def comparable(attempts: tuple[Attempt, ...]) -> list[Attempt]:
    return [replace(a, latency_s=0.0) for a in attempts]


def outcome(run: Any) -> tuple[str, Any, list[Attempt]]:
    try:
        result = run()
    except CorrectionError as exc:
        return type(exc).__name__, exc.errors, comparable(exc.attempts)
    return result.outcome, result.value, comparable(result.attempts)


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_sync_and_async_agree(name: str) -> None:
    parser = Parser(entrypoints=False)
    sync_llm, async_llm = ScriptedLLM(SCRIPTS[name]), ScriptedLLM(SCRIPTS[name])
    sync = outcome(lambda: correct_result(sync_llm, ASK, Plan, parser=parser))
    asynchronous = outcome(lambda: asyncio.run(acorrect_result(async_llm, ASK, Plan, parser=parser)))
    assert sync == asynchronous
    assert sync_llm.calls == async_llm.calls


def test_an_async_function_is_an_llm() -> None:
    answers = iter([BAD_ENUM, GOOD])

    async def model(messages: list[dict[str, str]]) -> str:
        await asyncio.sleep(0)
        return next(answers)

    plan = asyncio.run(acorrect(model, ASK, Plan, parser=Parser(entrypoints=False)))
    assert plan == Plan(goal="g", steps=[Step(id=1, action="search")])


def test_acorrect_never_mutates_the_callers_messages() -> None:
    before = copy.deepcopy(ASK)

    async def model(messages: list[dict[str, str]]) -> str:
        messages.clear()
        return GOOD

    asyncio.run(acorrect(model, ASK, Plan, parser=Parser(entrypoints=False)))
    assert before == ASK


def test_async_fallbacks_and_an_async_default() -> None:
    async def weak(messages: list[dict[str, str]]) -> str:
        return BAD_ENUM

    async def last_resort(error: ParseError) -> Plan:
        return Plan(goal="ask a human", steps=[])

    result = asyncio.run(
        acorrect_result(weak, ASK, Plan, parser=Parser(entrypoints=False), fallbacks=[weak], on_exhausted=last_resort)
    )
    assert result.outcome == "default"
    assert [a.role for a in result.attempts] == ["initial", "correction", "fallback", "correction", "default"]


def test_an_async_llm_in_sync_correct_is_a_configuration_error() -> None:
    async def model(messages: list[dict[str, str]]) -> str:
        return GOOD

    with pytest.raises(ConfigurationError, match="acorrect"):
        correct(model, ASK, Plan)


def test_an_async_default_in_sync_correct_is_a_configuration_error() -> None:
    async def last_resort(error: ParseError) -> None:
        return None

    with pytest.raises(ConfigurationError, match="acorrect"):
        correct(ScriptedLLM([BAD_ENUM, BAD_ENUM]), ASK, Plan, on_exhausted=last_resort)


def test_async_errors_are_the_same_types() -> None:
    parser = Parser(entrypoints=False)
    with pytest.raises(ModelRefusedError):
        asyncio.run(acorrect(ScriptedLLM(SCRIPTS["refusal"]), ASK, Plan, parser=parser))
    with pytest.raises(QuotaExhaustedError):
        asyncio.run(acorrect(ScriptedLLM(SCRIPTS["quota"]), ASK, Plan, parser=parser))
    with pytest.raises(CorrectionsExhaustedError):
        asyncio.run(acorrect(ScriptedLLM(SCRIPTS["exhausted"]), ASK, Plan, parser=parser))


def test_a_configuration_error_from_the_default_leaves_sync_and_async_alike() -> None:
    def sync_default(error: ParseError) -> None:
        raise ConfigurationError("the default is misconfigured")

    async def async_default(error: ParseError) -> None:
        raise ConfigurationError("the default is misconfigured")

    with pytest.raises(ConfigurationError, match="misconfigured") as sync_info:
        correct(ScriptedLLM([BAD_ENUM, BAD_ENUM]), ASK, Plan, on_exhausted=sync_default)
    with pytest.raises(ConfigurationError, match="misconfigured") as async_info:
        asyncio.run(acorrect(ScriptedLLM([BAD_ENUM, BAD_ENUM]), ASK, Plan, on_exhausted=async_default))
    assert type(sync_info.value) is type(async_info.value)
    assert getattr(sync_info.value, "attempts", None) == getattr(async_info.value, "attempts", None)
