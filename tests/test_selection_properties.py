"""The decoy property (issue 13): a text built from one answer object and any mix of decoys — examples, drafts in
reasoning (closed or cut off), refusals, alternatives, rejected options, prose that mentions designation words —
parses to the answer or raises a `ParseError`; it never returns a decoy, in either mode.

Every decoy carries an action of its own ("decoy_…"), and some carry strings that look like designations or
tags inside their JSON, so a decoy returned by any path — a label misread, a window leaking across candidates, a
tag inside a value, a cut-off block — shows up as a wrong action.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from resilient_parse import ParseError, Parser


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


# strings a decoy (or the answer) may carry inside its JSON: they must stay text
TRICKY_VALUES = ["final answer:", "I will not do that.", "</think>", "<think>", "For example", "Corrected:", "ok"]

# lead-ins that designate the candidate right after them
DESIGNATIONS = ["Final answer: ", "Corrected:\n", "The correct JSON is:\n", "Updated version:\n", "Final answer:\n"]
# lead-ins that do not designate (the answer may still be the only valid undesignated candidate)
PLAIN = ["", "Here is the JSON: ", "Sure!\n", "Result: "]
# words between pieces
JOINERS = [" ", "\n", "\n\n", ". "]


def decoy_json(draw: Any, n: int) -> str:
    arguments: dict[str, object] = {}
    if draw(st.booleans()):
        arguments["note"] = draw(st.sampled_from(TRICKY_VALUES))
    return json.dumps({"action": f"decoy_{n}", "arguments": arguments})


def visible_decoy(draw: Any, n: int) -> str:
    body = decoy_json(draw, n)
    template: str = draw(
        st.sampled_from(
            [
                "For example: {j}",
                "For example, {j} would wipe the disk.",
                "e.g. {j}",
                "A sample call looks like {j}.",
                "Draft: {j}",
                "The template is {j}.",
                "Alternatively: {j}",
                "Option B: {j}",
                "Do not use {j}.",
                "Do not use the updated {j}, it is broken.",
                "The following would NOT be correct: {j}",
                "Note the final API version dropped {j}.",
                "The final version of the old API is {j}.",
                "The final API version dropped this: {j}",
                "Note the final API version is {j} but we do not use it.",
                'For example: {{"action": "decoy_x"}} or {j}',
                "Wrong: {j}",
                "Instead of {j}, do what follows.",
                "I'm sorry, I can't help with that. An example of such a call: {j}",
            ]
        )
    )
    return template.format(j=body)


ALL_KINDS = ("visible", "reasoning", "refusal", "prose")


@st.composite
def texts_with_decoys(
    draw: Any, kinds: tuple[str, ...] = ALL_KINDS, designate: bool | None = None, cut: bool | None = None
) -> tuple[str, ToolCall, bool]:
    """(text, the answer, whether the answer is designated): the answer plus 1-4 decoys of `kinds`, in any order,
    maybe followed by a reasoning block the output stopped in."""
    answer_args: dict[str, object] = {}
    if draw(st.booleans()):
        answer_args["note"] = draw(st.sampled_from(TRICKY_VALUES))
    answer = ToolCall(action=draw(st.sampled_from(["search", "lookup", "summarize"])), arguments=answer_args)
    body = json.dumps(answer.model_dump())
    if draw(st.booleans()):
        body = f"```json\n{body}\n```"
    designated = draw(st.booleans()) if designate is None else designate
    lead = draw(st.sampled_from(DESIGNATIONS if designated else PLAIN))
    pieces = [lead + body]
    count = draw(st.integers(min_value=1, max_value=4))
    for n in range(count):
        kind = draw(st.sampled_from(kinds))
        if kind == "visible":
            piece = visible_decoy(draw, n)
        elif kind == "example":
            piece = f"For example: {decoy_json(draw, n)}"
        elif kind == "reasoning":
            piece = f"<think>\nMaybe {decoy_json(draw, n)}? Hmm, no.\n</think>"
        elif kind == "refusal":
            piece = draw(st.sampled_from(["I will not do that.", "I cannot do this safely.", "I must decline."]))
        else:
            piece = draw(
                st.sampled_from(["(I skip the <thinking> step here.)", "The final version is below.", "Corrected."])
            )
        pieces.insert(draw(st.integers(min_value=0, max_value=len(pieces))), piece)
    text = ""
    for piece in pieces:
        text += (draw(st.sampled_from(JOINERS)) if text else "") + piece
    if draw(st.booleans()) if cut is None else cut:
        text += f"\n<think>Plan: {decoy_json(draw, 99)} hmm, the user"  # a reasoning block the output stopped in
    return text, answer, designated


def check(mode: str, case: tuple[str, ToolCall, bool]) -> None:
    text, answer, _ = case
    try:
        got = Parser(mode=mode).parse(text, ToolCall)
    except ParseError:
        return
    assert got == answer, f"{mode} returned {got!r} for {text!r}"


@settings(max_examples=150, deadline=None)
@given(case=texts_with_decoys())
def test_strict_returns_the_answer_or_raises_never_a_decoy(case: tuple[str, ToolCall, bool]) -> None:
    check("strict", case)


@settings(max_examples=150, deadline=None)
@given(case=texts_with_decoys())
def test_lenient_returns_the_answer_or_raises_never_a_decoy(case: tuple[str, ToolCall, bool]) -> None:
    check("lenient", case)


@settings(max_examples=60, deadline=None)
@given(case=texts_with_decoys(kinds=("example", "reasoning", "prose"), designate=True, cut=False))
def test_a_designated_answer_among_examples_and_drafts_is_found(case: tuple[str, ToolCall, bool]) -> None:
    # the property above must not hold by raising on everything: a designated answer among examples, closed
    # reasoning drafts and prose comes back, in both modes
    text, answer, _ = case
    for mode in ("strict", "lenient"):
        assert Parser(mode=mode).parse(text, ToolCall) == answer, text


# decoys that are not the answer even alone (a prose mention like "the final API version dropped {…}" is an
# undesignated candidate: alone, it is the answer; beside the answer, a rival)
LONE_DECOYS = [
    "For example: {j}",
    "For example, {j} would wipe the disk.",
    "e.g. {j}",
    "A sample call looks like {j}.",
    "Draft: {j}",
    "The template is {j}.",
    "Option B: {j}",
    "Do not use {j}.",
    "Do not use the updated {j}, it is broken.",
    "The following would NOT be correct: {j}",
    "Instead of {j}, do what follows.",
    "I'm sorry, I can't help with that. An example of such a call: {j}",
    "{j} I will not do that.",
    "<think>\nMaybe {j}? Hmm, no.\n</think>\nI cannot do this safely.",
    "<think>\nMaybe {j}? Hmm.\n</think>\nLet me know if you need anything else.",
    "<think>Plan: {j} hmm, the user",
]


@st.composite
def decoys_only(draw: Any) -> str:
    count = draw(st.integers(min_value=1, max_value=3))
    pieces = [draw(st.sampled_from(LONE_DECOYS)).format(j=decoy_json(draw, n)) for n in range(count)]
    return draw(st.sampled_from(JOINERS)).join(pieces)


@settings(max_examples=100, deadline=None)
@given(text=decoys_only())
def test_decoys_alone_never_parse(text: str) -> None:
    for mode in ("strict", "lenient"):
        try:
            got = Parser(mode=mode).parse(text, ToolCall)
        except ParseError:
            continue
        raise AssertionError(f"{mode} returned {got!r} for {text!r}")


# found by the strict property above on a developer's machine (kept here, as CI draws fixed examples): the answer,
# glued by one space to an example ("For example: {…} {…}"), is read as the example list's second item, and the
# only candidate left unlabelled, a mention ("the final API version dropped {…}"), comes back
@pytest.mark.xfail(
    strict=True, reason="a value glued by a space to an example is listed with it, and a mention wins alone"
)
def test_an_answer_glued_to_an_example_does_not_leave_a_mention_alone() -> None:
    text = (
        'Note the final API version dropped {"action": "decoy_0", "arguments": {}}. For example: '
        '{"action": "decoy_1", "arguments": {}} {"action": "search", "arguments": {}}'
    )
    check("strict", (text, ToolCall(action="search"), False))
