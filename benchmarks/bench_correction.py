"""How many LLM calls and tokens the correction loop spends on a small set of realistic failures.

Each case is a scripted model (what a real model plausibly answers, round after round); tokens are what the
scripted adapter reports (word and punctuation tokens of the prompt it was sent and of its answer), so the
figures show the loop's own cost: the feedback it writes, the candidate it re-sends, the calls it avoids.

    python -m benchmarks.bench_correction        # or: python benchmarks/bench_correction.py
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from resilient_parse import ErrorDetail, ParseError, Parser
from resilient_parse.correction import CorrectionResult, JsonPatchFeedback, ScriptedLLM, correct_result


class Step(BaseModel):
    id: int
    action: Literal["search", "summarize", "email", "calendar"]
    depends_on: list[int] = []


class Plan(BaseModel):
    goal: str
    steps: list[Step]


class Invoice(BaseModel):
    number: str
    total: float
    currency: Literal["EUR", "USD", "GBP"]
    paid: bool


def acyclic(plan: Plan) -> Iterator[ErrorDetail]:
    deps = {s.id: set(s.depends_on) for s in plan.steps}
    for i, step in enumerate(plan.steps):
        frontier, seen = set(step.depends_on), set()
        while frontier:
            node = frontier.pop()
            if node == step.id:
                yield ErrorDetail(f"/steps/{i}/depends_on", "cycle", f"step {step.id} is part of a dependency cycle")
                break
            if node not in seen:
                seen.add(node)
                frontier |= deps.get(node, set())


SYSTEM = {"role": "system", "content": "You turn requests into JSON. Answer with JSON only."}
PLAN_ASK = [SYSTEM, {"role": "user", "content": "Plan: find three papers on pluggy, summarise them, email Ana."}]
INVOICE_ASK = [SYSTEM, {"role": "user", "content": "Extract the invoice: INV-0042, 1,250.00 EUR, paid."}]
GOOD_PLAN = (
    '{"goal": "papers to Ana", "steps": [{"id": 1, "action": "search"}, '
    '{"id": 2, "action": "summarize", "depends_on": [1]}, {"id": 3, "action": "email", "depends_on": [2]}]}'
)
GOOD_INVOICE = '{"number": "INV-0042", "total": 1250.0, "currency": "EUR", "paid": true}'


def big_plan(bad_action: str | None = None) -> str:
    steps: list[dict[str, Any]] = [
        {"id": i, "action": ("search", "summarize")[i % 2], "depends_on": [i - 1] if i > 1 else []}
        for i in range(1, 41)
    ]
    if bad_action:
        steps[27]["action"] = bad_action
    return json.dumps({"goal": "weekly literature digest", "steps": steps})


@dataclass
class Case:
    name: str
    target: Any
    messages: list[dict[str, str]]
    script: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    parser: Callable[[], Parser] = lambda: Parser(entrypoints=False)


CASES = [
    Case(
        "fenced, single quotes, trailing comma",
        Invoice,
        INVOICE_ASK,
        [
            "Here is the invoice:\n```json\n"
            "{'number': 'INV-0042', 'total': 1250.0, 'currency': 'EUR', 'paid': True,}\n```"
        ],
    ),
    Case(
        "thousands separator and key case",
        Invoice,
        INVOICE_ASK,
        ['{"Number": "INV-0042", "Total": "1,250.00", "Currency": "EUR", "Paid": true}'],
    ),
    Case(
        "enum value not in the schema",
        Plan,
        PLAN_ASK,
        [GOOD_PLAN.replace('"email"', '"send_mail"'), GOOD_PLAN],
    ),
    Case(
        "required field missing",
        Invoice,
        INVOICE_ASK,
        ['{"number": "INV-0042", "total": 1250.0, "paid": true}', GOOD_INVOICE],
    ),
    Case(
        "truncated output (strict: no guessing)",
        Invoice,
        INVOICE_ASK,
        ['{"number": "INV-0042", "total": 1250.0, "curr', GOOD_INVOICE],
        parser=lambda: Parser(mode="strict", entrypoints=False),
    ),
    Case(
        "cycle in a plan (semantic validator)",
        Plan,
        PLAN_ASK,
        [
            GOOD_PLAN.replace('{"id": 1, "action": "search"}', '{"id": 1, "action": "search", "depends_on": [3]}'),
            GOOD_PLAN,
        ],
        {"validators": [acyclic]},
    ),
    Case(
        "prose instead of JSON, then JSON",
        Invoice,
        INVOICE_ASK,
        ["The invoice INV-0042 totals 1,250 euros and has been paid.", GOOD_INVOICE],
    ),
    Case(
        "two rounds: enum, then a missing field",
        Plan,
        PLAN_ASK,
        [GOOD_PLAN.replace('"search"', '"web"'), GOOD_PLAN.replace('"goal": "papers to Ana", ', ""), GOOD_PLAN],
    ),
    Case(
        "stubborn model repeats its error (stops early)",
        Plan,
        PLAN_ASK,
        [GOOD_PLAN.replace('"email"', '"fax"')] * 3,
        {"max_corrections": 2},
    ),
    Case(
        "refusal (never re-asked)",
        Plan,
        PLAN_ASK,
        ["I'm sorry, but I can't help with planning that."],
    ),
    Case(
        "weak model fails, fallback fixes it",
        Invoice,
        INVOICE_ASK,
        [
            '{"number": "INV-0042", "total": "a lot", "currency": "EUR", "paid": true}',
            '{"number": "INV-0042", "total": 1250.0, "currency": "euro", "paid": true}',
        ],
        {"max_corrections": 1, "fallbacks": [ScriptedLLM([GOOD_INVOICE], name="stronger")]},
    ),
    Case(
        "40-step plan, one bad enum: full re-send",
        Plan,
        PLAN_ASK,
        [big_plan("fax"), big_plan()],
    ),
    Case(
        "40-step plan, one bad enum: JSON Patch plugin",
        Plan,
        PLAN_ASK,
        [big_plan("fax"), '[{"op": "replace", "path": "/steps/27/action", "value": "search"}]'],
        parser=lambda: Parser(plugins=[JsonPatchFeedback(min_chars=1000)], entrypoints=False),
    ),
]


@dataclass
class Row:
    name: str
    outcome: str
    calls: int
    corrections: int
    prompt: int
    completion: int

    @property
    def total(self) -> int:
        return self.prompt + self.completion


def run_case(case: Case) -> Row:
    llm = ScriptedLLM(case.script, name="scripted")
    options = dict(case.options)
    fallbacks = [ScriptedLLM(f.replies, name=f.name) for f in options.pop("fallbacks", [])]
    try:
        result: CorrectionResult[Any] = correct_result(
            llm, case.messages, case.target, parser=case.parser(), fallbacks=fallbacks, **options
        )
        attempts, outcome = result.attempts, result.outcome
    except ParseError as exc:
        attempts, outcome = exc.attempts, type(exc).__name__
    calls = sum(1 for a in attempts if a.role != "default")
    corrections = sum(1 for a in attempts if a.role in ("correction", "fallback"))
    prompt = sum(a.usage.prompt_tokens for a in attempts if a.usage)
    completion = sum(a.usage.completion_tokens for a in attempts if a.usage)
    return Row(case.name, outcome, calls, corrections, prompt, completion)


def main(argv: list[str] | None = None) -> int:
    rows = [run_case(c) for c in CASES]
    width = max(len(r.name) for r in rows)
    header = f"{'case':<{width}}  {'outcome':<26} calls  corr  prompt  compl   total"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r.name:<{width}}  {r.outcome:<26} {r.calls:>5}  {r.corrections:>4}  {r.prompt:>6}  {r.completion:>5}"
            f"  {r.total:>6}"
        )
    print("-" * len(header))
    print(
        f"{'total (' + str(len(rows)) + ' cases)':<{width}}  {'':<26} {sum(r.calls for r in rows):>5}  "
        f"{sum(r.corrections for r in rows):>4}  {sum(r.prompt for r in rows):>6}  "
        f"{sum(r.completion for r in rows):>5}  {sum(r.total for r in rows):>6}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
