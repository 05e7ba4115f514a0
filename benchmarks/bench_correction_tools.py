"""Calls and tokens per recovered answer when a model's *tool call* goes wrong: ours vs instructor's re-ask.

Both systems talk to the same local OpenAI-compatible HTTP server through the real `openai` SDK, and the server
answers each from the same script (what a model plausibly sends, round after round). Tokens are the server's own
count (word and punctuation tokens of each request and reply, tool definitions and tool-call arguments
included), so the figures compare what each system sends, and how many calls it needs, on equal terms.

- ours: `correct_result(OpenAIAdapter(client, tools=[Model]), messages, Model)`, lenient (the default);
- instructor: `instructor.from_openai(client, mode=Mode.TOOLS).chat.completions.create(response_model=Model,
  max_retries=3)`, its standard tool-calling re-ask.

    python -m benchmarks.bench_correction_tools      # from the repository root (needs the dev and bench extras)
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from resilient_parse import ParseError
from resilient_parse.correction import OpenAIAdapter, correct_result
from tests.fixtures.fake_openai_server import FakeLLMServer, Reply, call, chat, tool_calls

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


class GetWeather(BaseModel):
    """Current weather for a city."""

    model_config = ConfigDict(title="get_weather")
    city: str
    unit: Literal["c", "f"] = "c"
    days: int = 1


class Refund(BaseModel):
    """Refund an order."""

    model_config = ConfigDict(title="refund_order")
    order_id: str
    amount: float
    notify: bool


ASK = [{"role": "user", "content": "What is the weather in Oslo for the next 3 days, in Fahrenheit?"}]
REFUND_ASK = [{"role": "user", "content": "Refund order A-17 for 12.50 and tell the customer."}]
GOOD = '{"city": "Oslo", "unit": "f", "days": 3}'
GOOD_REFUND = '{"order_id": "A-17", "amount": 12.5, "notify": true}'


def weather(arguments: str, name: str = "get_weather", **kw: Any) -> Reply:
    return tool_calls(call(name, arguments), **kw)


def refund(arguments: str) -> Reply:
    return tool_calls(call("refund_order", arguments))


@dataclass(frozen=True)
class Case:
    name: str
    target: type[BaseModel]
    messages: list[dict[str, str]]
    script: tuple[Reply, ...]


CASES = [
    Case("valid arguments", GetWeather, ASK, (weather(GOOD),)),
    Case("trailing comma", GetWeather, ASK, (weather('{"city": "Oslo", "unit": "f", "days": 3,}'), weather(GOOD))),
    Case("single quotes", GetWeather, ASK, (weather("{'city': 'Oslo', 'unit': 'f', 'days': 3}"), weather(GOOD))),
    Case("key case", GetWeather, ASK, (weather('{"City": "Oslo", "Unit": "f", "Days": 3}'), weather(GOOD))),
    Case("enum case", GetWeather, ASK, (weather('{"city": "Oslo", "unit": "F", "days": 3}'), weather(GOOD))),
    Case(
        "number with a unit",
        GetWeather,
        ASK,
        (weather('{"city": "Oslo", "unit": "f", "days": "3 days"}'), weather(GOOD)),
    ),
    Case(
        "arguments in a fence",
        GetWeather,
        ASK,
        (weather('```json\n{"city": "Oslo", "unit": "f", "days": 3}\n```'), weather(GOOD)),
    ),
    Case("tool name typo", GetWeather, ASK, (weather(GOOD, name="get_wether"), weather(GOOD))),
    Case(
        "Python literals",
        Refund,
        REFUND_ASK,
        (refund("{'order_id': 'A-17', 'amount': 12.5, 'notify': True}"), refund(GOOD_REFUND)),
    ),
    Case(
        "required field missing",
        Refund,
        REFUND_ASK,
        (refund('{"order_id": "A-17", "notify": true}'), refund(GOOD_REFUND)),
    ),
    Case(
        "cut off by max_tokens",
        GetWeather,
        ASK,
        (weather('{"city": "Oslo", "unit": "f", "da', finish_reason="length"), weather(GOOD)),
    ),
    Case("prose instead of a call", GetWeather, ASK, (chat("It is sunny in Oslo."), weather(GOOD))),
]


@dataclass(frozen=True)
class Outcome:
    ok: bool
    calls: int
    tokens: int
    note: str = ""


def run_ours(case: Case) -> Outcome:
    import openai

    with FakeLLMServer(list(case.script)) as server:
        client = openai.OpenAI(base_url=server.openai_url, api_key="bench", max_retries=0)
        adapter = OpenAIAdapter(client, model="scripted", tools=[case.target])
        try:
            result = correct_result(adapter, case.messages, case.target, max_corrections=3)
            ok, note = True, result.outcome
        except ParseError as exc:
            ok, note = False, type(exc).__name__
        return Outcome(ok, len(server.usage), server.tokens, note)


def run_instructor(case: Case) -> Outcome:
    import instructor
    import openai

    with FakeLLMServer(list(case.script)) as server:
        client = instructor.from_openai(
            openai.OpenAI(base_url=server.openai_url, api_key="bench", max_retries=0), mode=instructor.Mode.TOOLS
        )
        try:
            client.chat.completions.create(
                model="scripted",
                messages=case.messages,  # type: ignore[arg-type]
                response_model=case.target,
                max_retries=3,
            )
            ok, note = True, ""
        except Exception as exc:  # instructor raises its own retry error, or whatever broke
            ok, note = False, type(exc).__name__
        return Outcome(ok, len(server.usage), server.tokens, note)


def _per_answer(rows: list[Outcome]) -> str:
    recovered = sum(r.ok for r in rows)
    calls, tokens = sum(r.calls for r in rows), sum(r.tokens for r in rows)
    if not recovered:
        return f"{recovered}/{len(rows)} recovered"
    return f"{recovered}/{len(rows)} recovered, {calls / recovered:.2f} calls and {tokens / recovered:.0f} tokens each"


def main(argv: list[str] | None = None) -> int:
    ours = [run_ours(c) for c in CASES]
    theirs = [run_instructor(c) for c in CASES]
    width = max(len(c.name) for c in CASES)
    print(f"{'':<{width}}  {'ours':^16}  {'instructor':^16}")
    print(f"{'case':<{width}}  {'ok calls tokens':>16}  {'ok calls tokens':>16}")
    for case, a, b in zip(CASES, ours, theirs):
        cells = [f"{'yes' if r.ok else 'no':>3} {r.calls:>5} {r.tokens:>6}" for r in (a, b)]
        print(f"{case.name:<{width}}  {cells[0]:>16}  {cells[1]:>16}")
    print(f"ours:       {_per_answer(ours)}")
    print(f"instructor: {_per_answer(theirs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
