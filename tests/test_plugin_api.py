"""The plugin surface gives a plugin the core's own judgement of its candidates: the reasoning splitter with each
block's body bounds, and `candidate_facts`, which labels a plugin's spans and finds the refusal by the very rules
the core's candidates get."""

from __future__ import annotations

import pytest

from resilient_parse import plugin_api
from resilient_parse.plugin_api import (
    ANSWER,
    REASONING,
    REASONING_CUT,
    REASONING_TAGS,
    candidate_facts,
    split_reasoning,
)
from resilient_parse.stages.extract import extract_candidates


def test_every_exported_name_exists() -> None:
    missing = [name for name in plugin_api.__all__ if not hasattr(plugin_api, name)]
    assert missing == []


@pytest.mark.parametrize("tag", REASONING_TAGS)
def test_a_region_gives_what_is_written_inside_the_tags(tag: str) -> None:
    text = f"<{tag} mode='x'>draft</{tag} >\nanswer <{tag}>cut off"
    regions = split_reasoning(text)
    assert [r.kind for r in regions] == [REASONING, ANSWER, REASONING_CUT]
    assert [text[r.body_start : r.body_end] for r in regions] == ["draft", "\nanswer ", "cut off"]


def test_a_lost_opening_tag_leaves_the_closing_tag_out_of_the_body() -> None:
    text = "drafting\n</think>\nanswer"
    first = split_reasoning(text)[0]
    assert (first.kind, text[first.start : first.end], text[first.body_start : first.body_end]) == (
        REASONING,
        "drafting\n</think>",
        "drafting\n",
    )


@pytest.mark.parametrize(
    "text",
    [
        'For example: {"a": 1} or {"a": 2}. Final answer: {"a": 3}',
        'Do not use {"a": 1}. Here is an alternative: {"a": 2}\nThe correct JSON is {"a": 3}',
        'A draft: {"a": 1}\nFor your request: {"a": 2}',
        '<think>Maybe {"a": 1}</think>\nThe updated version: {"a": 2}, or else {"a": 3}',
    ],
)
def test_a_plugin_span_gets_the_label_the_core_gives_its_candidate_there(text: str) -> None:
    core = sorted(extract_candidates(text), key=lambda c: c.start)
    facts = candidate_facts(text, [(c.start, c.end) for c in core])
    assert [f.label for f in facts] == [c.label for c in core]
    assert [f.region.kind for f in facts] == [c.region for c in core]
    assert {(f.refusal_at, f.visible_text) for f in facts} == {(c.refusal_at, c.visible_text) for c in core}
    assert len({c.label for c in core}) > 1  # the texts tell candidates apart


def test_the_facts_come_back_in_the_order_the_spans_were_given() -> None:
    text = 'For example: {"a": 1}\nFinal answer: {"a": 2}'
    first, second = (text.index('{"a": 1}'), text.index('{"a": 1}') + 8), (text.index('{"a": 2}'), len(text))
    assert [f.label for f in candidate_facts(text, [second, first])] == ["designated", "example"]


def test_a_refusal_inside_a_stretch_the_plugin_took_is_not_prose() -> None:
    text = "Action: search\nAction Input: I cannot help with that\nDone."
    call = (0, text.index("\nDone"))
    assert candidate_facts(text, [call])[0].refusal_at == -1
    assert candidate_facts(text, [(0, 0)])[0].refusal_at == text.index("I cannot")
    assert candidate_facts(text, [(0, 0)], [call])[0].refusal_at == -1


def test_a_refusal_after_the_calls_is_found() -> None:
    text = '<tool_call>{"name": "rm"}</tool_call>\nI will not do that.'
    facts = candidate_facts(text, [(text.index("{"), text.index("</tool_call>"))], [(0, text.index("\n"))])
    assert facts[0].refusal_at == text.index("I will not")


def test_a_span_inside_reasoning_stands_in_that_region() -> None:
    text = "<think>\nAction: rm\n</think>"
    facts = candidate_facts(text, [(text.index("Action"), text.index("\n</think>"))])
    assert (facts[0].region.kind, facts[0].visible_text) == (REASONING, False)
