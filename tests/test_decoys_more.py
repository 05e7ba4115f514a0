"""Decoys an outside tester found returned as the answer: examples across list items and white space, rejected
or questioned options, and refusals worded in ways the refusal search missed. Each must not come back as the
call it shows, in either mode, and extraction must give the candidate the fact that keeps it out."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, Parser, RefusalError
from resilient_parse.stages.extract import extract_candidates

MODES = ("strict", "lenient")
CALL = '{"action": "delete_all"}'


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


def labels(text: str) -> set[str]:
    return {c.label for c in extract_candidates(text)}


def assert_not_returned(text: str, mode: str) -> ParseError:
    with pytest.raises(ParseError) as err:
        Parser(mode=mode).parse(text, ToolCall)
    return err.value


EXAMPLES = [
    f"Examples:\n1. {CALL}\n2. {CALL}",
    f'Examples:\n1. {CALL}\n2. {{"action": "list"}}',
    f"Examples:\n- {CALL}\n- {CALL}",
    f'Examples:\n* {{"action": "list"}}\n* {CALL}',
    f"Here are some examples:\n\n{CALL}\n\n{CALL}",
    f'Here are some examples:\n\n{{"action": "list"}}\n\n{CALL}',
    "Example:" + " " * 200 + CALL,
    "Example:" + "\t" * 120 + CALL,
    "Example:" + "\n" * 300 + CALL,
    "Example: this is the call to the tool that wipes every record in the table, and the agent sends it as " + CALL,
    f'For example: {{"action": "a"}} {CALL}',
    f"**Final answer (example):** {CALL}",
    f"Final answer: (example) {CALL}",
    f"Final answer (draft): {CALL}",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", EXAMPLES)
def test_examples_are_never_the_answer(mode: str, text: str) -> None:
    assert labels(text) == {"example"}
    assert_not_returned(text, mode)


REJECTED = [
    f"Rejected: {CALL}",
    f"Incorrect: {CALL}",
    f"Bad: {CALL}",
    f"Don't do {CALL}",
    f"This is not the JSON: {CALL}",
    f"Final answer (not): {CALL}",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", REJECTED)
def test_rejected_options_are_never_the_answer(mode: str, text: str) -> None:
    assert labels(text) == {"rejected"}
    assert_not_returned(text, mode)


QUESTIONED = [
    f"Maybe {CALL}?",
    f"Should I call {CALL}?",
    f"What about {CALL}?",
    f"Perhaps: {CALL}",
    f"One possibility: {CALL}",
    f"You might try {CALL}",
    f"Or: {CALL}",
    f"If I were to do it: {CALL}",
    f"{CALL}?",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", QUESTIONED)
def test_questioned_options_alone_are_not_the_answer(mode: str, text: str) -> None:
    assert {c.label for c in extract_candidates(text) if c.text == CALL} == {"alternative"}
    assert_not_returned(text, mode)


REFUSALS = [
    "I must respectfully decline.",
    "I cannot and will not comply.",
    "I shall not do that.",
    "I'd prefer not to.",
    "No can do.",
    "Request denied.",
    "That's not something I can help with.",
    "I'm afraid that is not possible.",
    "I am not comfortable doing this.",
    "Nope, not doing that.",
    "Sorry, but no.",
    "Refusing.",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("prefix", REFUSALS)
def test_refusals_win_over_the_call(mode: str, prefix: str) -> None:
    text = f"{prefix} {CALL}"
    assert all(0 <= c.refusal_at < len(prefix) for c in extract_candidates(text))
    assert isinstance(assert_not_returned(text, mode), RefusalError)


HEDGES = [
    "I cannot guarantee this is complete, but here it is:",
    "I can't access live data, so this uses the cached list:",
    "Sorry for the delay, here it is:",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("prefix", HEDGES)
def test_hedges_are_not_refusals(mode: str, prefix: str) -> None:
    text = f"{prefix} {CALL}"
    assert all(c.refusal_at < 0 for c in extract_candidates(text))
    assert Parser(mode=mode).parse(text, ToolCall) == ToolCall(action="delete_all")


@pytest.mark.parametrize("mode", MODES)
def test_the_answer_after_a_list_of_examples_is_still_found(mode: str) -> None:
    text = f'Examples:\n1. {CALL}\n2. {CALL}\n\nFinal answer: {{"action": "list"}}'
    assert Parser(mode=mode).parse(text, ToolCall) == ToolCall(action="list")
