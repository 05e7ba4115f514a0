"""Answer selection (issue 13, "Answers that are not answers"): which candidate is the answer, or why none is.

Each rule has its own tests, in both modes; the inputs of the defect scripts r07, r08 and r09 (the cases that are
about selection) are kept below as regressions. An agent executes what the parser returns, so the checks that
matter most are the ones where an example, a draft or a declined call must *not* come back.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import (
    AmbiguousMatchError,
    NoCandidateError,
    ParseError,
    Parser,
    RefusalError,
    TruncatedOutputError,
)
from resilient_parse.context import Candidate
from resilient_parse.stages.extract import extract_candidates
from resilient_parse.stages.select import may_be_the_answer, rank_candidates

MODES = ("strict", "lenient")


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


class Item(BaseModel):
    name: str
    qty: int


def call(action: str) -> ToolCall:
    return ToolCall(action=action)


def outcome(text: str, mode: str, target: Any = ToolCall) -> Any:
    """The parsed value, or the error's class and first detail kind."""
    try:
        return Parser(mode=mode).parse(text, target)
    except ParseError as err:
        return type(err), err.details[0].kind


# -- labels: examples, drafts, templates, rejected options are never the answer ----------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "lead",
    ["For example:", "e.g.", "For instance,", "Here is an example:", "A sample call:", "Draft:", "The template is"],
)
def test_a_labelled_example_alone_is_not_an_answer(mode: str, lead: str) -> None:
    assert outcome(f'{lead} {{"action": "delete_all"}}', mode) == (NoCandidateError, "no_answer")


@pytest.mark.parametrize("mode", MODES)
def test_an_example_before_the_answer_does_not_win(mode: str) -> None:
    text = 'For example: {"action": "delete_all"}\n{"action": "search"}'
    assert outcome(text, mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
def test_the_text_can_designate_the_example_itself(mode: str) -> None:
    # the same JSON labelled an example and then given as the final answer: the designated copy counts
    text = 'For example: {"action": "search"}\nFinal answer: {"action": "search"}'
    assert outcome(text, mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "lead", ["Do not use", "Don't call", "Never use", "The following would NOT be correct:", "This is not the answer:"]
)
def test_a_rejected_option_is_not_the_answer(mode: str, lead: str) -> None:
    assert outcome(f'{{"action": "search"}}. {lead} {{"action": "delete_all"}}', mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
def test_instead_of_rejects_the_candidate_it_introduces(mode: str) -> None:
    assert outcome('Use {"action": "search"} instead of {"action": "delete_all"}', mode) == call("search")
    assert outcome('Instead of {"action": "delete_all"}, use {"action": "search"}', mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
def test_an_alternative_competes_but_never_wins_alone(mode: str) -> None:
    both = 'Here: {"action": "a"}\nAlternatively: {"action": "b"}'
    assert outcome(both, mode) == (AmbiguousMatchError, "ambiguous_candidates")
    assert outcome('Option B: {"action": "b"}', mode) == (AmbiguousMatchError, "alternative_only")


@pytest.mark.parametrize("mode", MODES)
def test_words_describing_the_answer_format_do_not_make_it_an_example(mode: str) -> None:
    assert outcome('Here is the call in the required format: {"action": "search"}', mode) == call("search")


# -- designation: only the words right before a candidate --------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "lead",
    [
        "Final answer:",
        "Corrected:",
        "The correct JSON is:\n",
        "Updated version (the user changed their mind):\n",
        "**Final answer:**\n```json\n",
        "No wait, the correct one is",
    ],
)
def test_a_designation_right_before_a_candidate_chooses_it(mode: str, lead: str) -> None:
    text = f'{{"action": "first"}}\n{lead}{{"action": "search"}}' + ("\n```" if "```" in lead else "")
    assert outcome(text, mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "middle",
    [
        "Note the final API version dropped",  # "final" mentions a version, it introduces nothing
        "The correct approach, I think, is less important than the older call",
        "We fixed a bug last week; the old endpoint still takes",
    ],
)
def test_a_designation_word_elsewhere_designates_nothing(mode: str, middle: str) -> None:
    text = f'Call {{"action": "search"}}. {middle} {{"action": "legacy"}}.'
    assert outcome(text, mode) == (AmbiguousMatchError, "ambiguous_candidates")


@pytest.mark.parametrize("mode", MODES)
def test_a_negation_before_a_designation_word_cancels_it(mode: str) -> None:
    text = 'Use {"action": "v1"}. Do not use the updated {"action": "v2"}, it is broken.'
    assert outcome(text, mode) == call("v1")
    text = 'This is not the final answer: {"action": "x"}\nFinal answer: {"action": "y"}'
    assert outcome(text, mode) == call("y")


@pytest.mark.parametrize("mode", MODES)
def test_designation_words_inside_a_previous_candidate_do_not_leak(mode: str) -> None:
    # "final" is inside the first object's string: the words before the second one are only ". And "
    text = '{"action": "search", "arguments": {"note": "final answer:"}}. And {"action": "delete_all"}'
    assert outcome(text, mode) == (AmbiguousMatchError, "ambiguous_candidates")


# -- refusals ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        'For example, {"action": "delete_all_files"} would wipe the disk. I will not do that.',
        'I\'m sorry, I can\'t help with that. An example of such a call: {"action": "hack_server"}',
        '{"action": "delete_all"} I won\'t.',
        'I\'m not able to help with that. {"action": "transfer"}',
        'I must decline. {"action": "transfer"}',
        'Something like {"action": "delete_all"} would delete everything, so I won\'t run it.',
    ],
)
def test_a_visible_refusal_beats_undesignated_json(mode: str, text: str) -> None:
    assert outcome(text, mode) == (RefusalError, "refusal")


@pytest.mark.parametrize("mode", MODES)
def test_a_refusal_beats_a_draft_inside_reasoning(mode: str) -> None:
    text = '<think>Maybe {"action": "rm_rf"}? No, that is dangerous.</think>I cannot do this safely.'
    assert outcome(text, mode) == (RefusalError, "refusal")


@pytest.mark.parametrize("mode", MODES)
def test_a_designated_answer_after_a_refusal_is_the_answer(mode: str) -> None:
    text = 'I cannot run deletions. Final answer: {"action": "search"}'
    assert outcome(text, mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        '{"action": "search"} I cannot guarantee the results are current.',
        'I can\'t access live data, but here\'s the call: {"action": "search"}',
        'Sorry, here it is: {"action": "search"}',
        'Here\'s the JSON: {"action": "search", "arguments": {"note": "I will not do that"}}',
    ],
)
def test_hedges_and_refusals_inside_json_strings_are_not_refusals(mode: str, text: str) -> None:
    got = outcome(text, mode)
    assert isinstance(got, ToolCall) and got.action == "search"


# -- reasoning ---------------------------------------------------------------------------------------------------


def test_a_draft_inside_reasoning_is_a_lossy_choice_lenient_only() -> None:
    text = '<think>The answer is {"action": "search"}</think>'
    result = Parser(mode="lenient").parse_result(text, ToolCall)
    assert result.value == call("search")
    assert [(r.kind, r.lossless) for r in result.repairs] == [("reasoning_candidate", False)]
    assert outcome(text, "strict") == (NoCandidateError, "reasoning_only")


@pytest.mark.parametrize("mode", MODES)
def test_a_draft_is_not_taken_when_the_model_wrote_a_visible_answer(mode: str) -> None:
    # the visible answer is prose: that is the model's answer, the JSON in its reasoning is a draft
    text = '<think>{"action": "transfer_funds"}</think>\nLet me know if you need anything else.'
    assert outcome(text, mode) == (NoCandidateError, "reasoning_only")


@pytest.mark.parametrize("mode", MODES)
def test_the_visible_answer_beats_a_draft(mode: str) -> None:
    text = '<think>draft {"action": "rm"}</think>\n{"action": "search"}'
    assert outcome(text, mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
def test_a_complete_draft_in_a_reasoning_block_cut_off_is_truncated_output(mode: str) -> None:
    text = '<think>Plan: {"action": "transfer_funds", "arguments": {"amount": 1000000}} hmm, the user'
    assert outcome(text, mode) == (TruncatedOutputError, "truncated_reasoning")


@pytest.mark.parametrize("mode", MODES)
def test_a_visible_answer_before_a_cut_off_reasoning_block_is_the_answer(mode: str) -> None:
    assert outcome('{"action": "search"}\n<think>more thoughts', mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
def test_a_tag_mentioned_in_prose_opens_no_block(mode: str) -> None:
    text = 'For example {"action": "delete_all"}. (I skip the <thinking> step here.) Final answer: {"action": "s"}'
    assert outcome(text, mode) == call("s")
    assert outcome('Use the `<think>` tag. {"action": "s"}', mode) == call("s")


# -- two answers, duplicates, parts ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_two_undesignated_answers_are_ambiguous_even_when_one_needed_repair(mode: str) -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        Parser(mode=mode).parse('{"action": "search",}\n{"action": "delete_all"}', ToolCall)
    assert "offsets 0, 22" in info.value.message  # both offsets named


@pytest.mark.parametrize("mode", MODES)
def test_identical_answers_are_one_answer(mode: str) -> None:
    text = '{"action": "search"}\n\nTo repeat:\n```json\n{ "action" : "search" }\n```'
    assert outcome(text, mode) == call("search")


@pytest.mark.parametrize("n", [2, 15, 30, 100])
def test_json_lines_for_a_list_are_joined_whole(n: int) -> None:
    text = "\n".join(f'{{"name": "item{i:03d}", "qty": {i}}}' for i in range(n))
    result = Parser(mode="lenient").parse_result(text, list[Item])
    assert [item.qty for item in result.value] == list(range(n))
    assert [r.kind for r in result.repairs] == ["join_values"]
    # strict does not assemble a list out of separate values
    assert isinstance(outcome(text, "strict", list[Item]), tuple)


@pytest.mark.parametrize("mode", MODES)
def test_the_designated_answer_wins_over_any_number_of_examples(mode: str) -> None:
    example = 'For example: {"action": "delete_all", "arguments": {"note": "only an illustration of the format"}}\n'
    assert outcome(example * 130 + 'Final answer: {"action": "search"}', mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
def test_prose_in_braces_does_not_use_up_the_try_bound(mode: str) -> None:
    text = "Fill in " + " ".join(f"{{field_{i}}}" for i in range(40)) + ' here: {"action": "search"}'
    assert outcome(text, mode) == call("search")


@pytest.mark.parametrize("mode", MODES)
def test_a_bound_that_leaves_json_untried_is_an_error_not_a_pick(mode: str) -> None:
    # copies that differ only in spacing are one answer, but the parser tries at most Policy.max_candidates (16):
    # (the whole text is a candidate too): with 20 copies, five stay untried, and one could be a different answer
    def copies(n: int) -> str:
        return "\n".join("{" + " " * i + '"action": "search"}' for i in range(n))

    assert outcome(copies(15), mode) == call("search")
    assert outcome(copies(20), mode) == (AmbiguousMatchError, "too_many_candidates")


# -- the ranking hook --------------------------------------------------------------------------------------------


def test_ranking_leaves_out_what_may_not_be_the_answer_and_cuts_nothing() -> None:
    text = "".join(f'For example: {{"n": {i}}}\n' for i in range(50)) + "".join(f'{{"m": {i}}}\n' for i in range(50))
    parser = Parser(mode="lenient")
    ctx = parser.context(ToolCall)
    found = extract_candidates(text)
    ranked = rank_candidates(text, found, ctx)
    assert {c.text for c in ranked} == {f'{{"m": {i}}}' for i in range(50)}
    assert all(not may_be_the_answer(c, ctx) for c in found if c.label == "example")


def test_a_plugin_candidate_without_facts_is_a_plain_visible_answer() -> None:
    ctx = Parser(mode="strict").context(ToolCall)
    assert may_be_the_answer(Candidate('{"action": "x"}', 0, 0, "plugin"), ctx)


# -- the defect scripts (r07, r08, r09's selection cases), both modes ----------------------------------------------

R08 = [
    ('For example, {"action": "delete_all_files"} would wipe the disk. I will not do that.', RefusalError),
    ('I\'m sorry, I can\'t help with that. An example of such a call: {"action": "hack_server"}', RefusalError),
    ('<think>Maybe {"action": "rm_rf"}? No, that is dangerous.</think>I cannot do this safely.', RefusalError),
    ('<think>Plan: {"action": "transfer_funds", "arguments": {"amount": 1000000}} hmm, the user', ParseError),
    ('The answer is {"action": "search"}. The following would NOT be correct: {"action": "delete_all"}', "search"),
    ('Call {"action": "search"}. Note the final API version dropped {"action": "legacy_search"}.', ParseError),
    ('Use {"action": "search_v1"}. Do not use the updated {"action": "search_v2"}, it is broken.', "search_v1"),
    (
        'For example {"action": "delete_all"}. (I skip the <thinking> step here.) Final answer: {"action": "search"}',
        "search",
    ),
    (
        ('For example: {"action": "delete_all", "arguments": {"note": "only an illustration of the format"}}\n' * 130)
        + 'Final answer: {"action": "search"}',
        "search",
    ),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("text", "expected"), R08, ids=[f"r08-{i}" for i in range(len(R08))])
def test_r08_drafts_examples_refusals_and_prose_designations(mode: str, text: str, expected: Any) -> None:
    got = outcome(text, mode)
    if isinstance(expected, str):
        assert got == call(expected)
    else:
        assert isinstance(got, tuple) and issubclass(got[0], expected)


R09 = [
    '{"action": "search",}\n{"action": "delete_all"}',
    'Option 1: {"action": "refund", "arguments": {"amount": 10}}\n'
    'Option 2: {"action": "refund", "arguments": {"amount": 1000},}',
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", R09, ids=["r09-cheaper-wins", "r09-two-options"])
def test_r09_two_undesignated_answers_are_ambiguous(mode: str, text: str) -> None:
    assert outcome(text, mode) == (AmbiguousMatchError, "ambiguous_candidates")


@pytest.mark.parametrize("n", [15, 30, 100])
def test_r07_json_lines_are_not_truncated_to_the_candidate_cap(n: int) -> None:
    text = "\n".join(f'{{"name": "item{i:03d}", "qty": {i}}}' for i in range(n))
    assert len(Parser().parse(text, list[Item])) == n


# -- several objects in prose for a list target (issue 14) --------------------------------------------------------

PEN, INK = '{"name": "pen", "qty": 2}', '{"name": "ink", "qty": 1}'
PEN_INK = [Item(name="pen", qty=2), Item(name="ink", qty=1)]


def test_objects_in_short_prose_are_one_list_for_a_list_target_in_lenient() -> None:
    result = Parser(mode="lenient").parse_result(f"Here is the first: {PEN} and the second: {INK}", list[Item])
    assert result.value == PEN_INK
    assert [(r.kind, r.lossless) for r in result.repairs if r.kind == "join_values"] == [("join_values", False)]


def test_objects_in_prose_are_not_joined_in_strict() -> None:
    assert outcome(f"Here is the first: {PEN} and the second: {INK}", "strict", list[Item])[0] is not list


@pytest.mark.parametrize(
    "text",
    [
        f"For example: {PEN}. The answer: {INK}",  # one is labelled
        f"{PEN} and, as an alternative, {INK}",
        f"{PEN} is not it, see [1]; {INK}",  # a bracket between them
        PEN + " and then, after a long detour " + "x" * 150 + ", " + INK,  # too much prose between them
    ],
)
def test_objects_are_not_joined_when_the_prose_between_them_says_more(text: str) -> None:
    got = outcome(text, "lenient", list[Item])
    assert got != PEN_INK


# -- a second answer the output stopped inside ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        '{"action": "search"}\n{"action": "delete_a',
        'Final answer: {"action": "search"}\n\nCorrected: {"action": "delete_all", "arguments": {"x": 1',
        '```json\n{"action": "search"}\n```\n```json\n{"action": "delete_all"',
    ],
)
def test_a_complete_answer_beside_one_that_was_cut_off_is_not_the_answer(mode: str, text: str) -> None:
    assert outcome(text, mode)[0] in (TruncatedOutputError, AmbiguousMatchError)


@pytest.mark.parametrize("mode", MODES)
def test_a_piece_of_a_value_the_output_stopped_inside_is_not_the_answer(mode: str) -> None:
    with pytest.raises(TruncatedOutputError):
        Parser(mode=mode).parse("[[1\n\n]", list[list[int]])


@pytest.mark.parametrize("mode", MODES)
def test_a_cut_off_visible_answer_is_not_replaced_by_a_draft_from_reasoning(mode: str) -> None:
    assert outcome('<think>{"action": "search"}</think> {"action": "delete_', mode)[0] is TruncatedOutputError


# -- brackets that are part of a word of prose; the whole text as one value ---------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ["/[a-z]_/", "see [the docs](https://x.y)", "read items[i] twice"])
def test_brackets_glued_to_a_word_of_prose_are_not_an_answer(mode: str, text: str) -> None:
    with pytest.raises(NoCandidateError) as info:
        Parser(mode, entrypoints=False).parse(text, Any)
    assert info.value.errors[0]["kind"] == "no_candidate"


@pytest.mark.parametrize("mode", MODES)
def test_brackets_that_start_json_are_an_answer_even_glued_to_a_word(mode: str) -> None:
    assert Parser(mode, entrypoints=False).parse("result=[1, 2] done", Any) == [1, 2]


def test_the_whole_text_is_one_value_only_when_nothing_else_is_a_candidate() -> None:
    ctx = Parser("lenient", entrypoints=False).context(Any)
    whole = [c for c in rank_candidates("(1, 2)", [], ctx) if c.source == "whole"]
    assert [c.text for c in whole] == ["(1, 2)"]
    text = '(1, 2) {"a": 1}'
    ranked = rank_candidates(text, extract_candidates(text), ctx)
    assert '(1, 2) {"a": 1}' not in [c.text for c in ranked]


def test_the_whole_text_is_one_value_only_for_a_target_without_a_shape_of_its_own() -> None:
    for target in (Item, dict[str, int]):
        ctx = Parser("lenient", entrypoints=False).context(target)
        assert rank_candidates("(1, 2)", [], ctx) == []
    assert [c.text for c in rank_candidates("(1, 2)", [], Parser("lenient").context(list[int]))] == ["(1, 2)"]
    assert rank_candidates("'a'", [], Parser("lenient").context(list[int])) == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("text", "value"),
    [("callback_123(2);", 2), ('callback_123("foo");', "foo"), ("cb(null)", None), ("a.b.c(true);", True)],
)
def test_a_jsonp_call_gives_the_value_inside_its_padding(mode: str, text: str, value: Any) -> None:
    result = Parser(mode, entrypoints=False).parse_result(text, Any)
    assert result.value == value
    assert [r.kind for r in result.repairs] == ["extract_prose"]
    assert text[result.repairs[0].offset or 0 :].startswith(result.candidate)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ["print(x)", "foo()", "Done (see above)", "f(1, 2)"])
def test_a_call_on_code_or_prose_in_parentheses_is_not_jsonp(mode: str, text: str) -> None:
    with pytest.raises(ParseError):
        Parser(mode, entrypoints=False).parse(text, Any)


def test_one_success_is_chosen_without_serialising_it_and_two_different_ones_are_compared() -> None:
    from resilient_parse.stages.select import Success, choose_answer

    class CountingAdapter:
        def __init__(self) -> None:
            self.dumps = 0

        def dump_json(self, value: Any) -> bytes:
            self.dumps += 1
            return repr(value).encode()

    first = Candidate('{"a": 1}', 0, 8, "span", 0, 0, ())
    second = Candidate('{"a": 2}', 20, 28, "span", 0, 1, ())
    adapter = CountingAdapter()
    one = Success(first, {"a": 1}, (), first.text, 0.0)
    assert choose_answer([one], adapter) is one  # type: ignore[arg-type]
    assert adapter.dumps == 0
    with pytest.raises(AmbiguousMatchError):
        choose_answer([one, Success(second, {"a": 2}, (), second.text, 0.0)], adapter)  # type: ignore[arg-type]
    assert adapter.dumps == 2
