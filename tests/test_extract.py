"""Extraction stage: reasoning blocks, fences, the balanced-span scanner, and candidate ranking."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from resilient_parse.stages.extract import (
    TIER_REASONING,
    Span,
    _all_candidates,
    _lone_value,
    extract_candidates,
    find_fences,
    scan_spans,
    split_reasoning,
)
from resilient_parse.stages.extract_spans import _scan
from resilient_parse.text.clauses import _label_clauses, _trim_markup
from resilient_parse.text.clauses import label_words as _label_words


def texts(text: str, spans: list[Span]) -> list[str]:
    return [text[s.start : s.end] for s in spans]


def candidate_texts(text: str, limit: int = 16) -> list[str]:
    return [c.text for c in extract_candidates(text, limit)]


# -- split_reasoning ---------------------------------------------------------------------------------------------


def test_text_without_tags_is_one_answer_region() -> None:
    regions = split_reasoning('{"a": 1}')
    assert [(r.start, r.end, r.reasoning) for r in regions] == [(0, 8, False)]


def test_think_block_is_reasoning_and_the_rest_is_answer() -> None:
    text = "<think>draft</think>\n{}"
    regions = split_reasoning(text)
    assert [(text[r.start : r.end], r.reasoning) for r in regions] == [
        ("<think>draft</think>", True),
        ("\n{}", False),
    ]


@pytest.mark.parametrize("tag", ["think", "thinking", "reasoning", "THINKING", "scratchpad"])
def test_reasoning_tag_names_and_case(tag: str) -> None:
    text = f"<{tag}>x</{tag}>answer"
    regions = split_reasoning(text)
    assert [r.reasoning for r in regions] == [True, False]
    assert text[regions[1].start : regions[1].end] == "answer"


def test_closing_tag_without_opening_makes_everything_before_it_reasoning() -> None:
    text = 'drafting {"a": 0}\n</think>\n{"a": 1}'
    regions = split_reasoning(text)
    assert [(text[r.start : r.end], r.reasoning) for r in regions] == [
        ('drafting {"a": 0}\n</think>', True),
        ('\n{"a": 1}', False),
    ]


def test_unclosed_think_runs_to_the_end() -> None:
    text = 'ok <think>still thinking {"a": 1}'
    regions = split_reasoning(text)
    assert [(text[r.start : r.end], r.reasoning) for r in regions] == [
        ("ok ", False),
        ('<think>still thinking {"a": 1}', True),
    ]


def test_opening_tag_with_attributes() -> None:
    regions = split_reasoning('<think mode="deep">x</think>{}')
    assert [r.reasoning for r in regions] == [True, False]


def test_html_like_tags_are_not_reasoning() -> None:
    assert [r.reasoning for r in split_reasoning("<b>bold</b> {}")] == [False]


# -- scan_spans --------------------------------------------------------------------------------------------------


def test_scanner_finds_one_object() -> None:
    text = 'Here: {"a": 1} done'
    assert texts(text, scan_spans(text)) == ['{"a": 1}']


def test_braces_inside_json_strings_do_not_close_the_span() -> None:
    text = '{"a": "}", "b": "{[", "c": "\\"}"}'
    spans = scan_spans(text)
    assert texts(text, spans) == [text]
    assert spans[0].closed


def test_braces_in_prose_are_their_own_spans_and_do_not_swallow_the_json() -> None:
    text = 'Use {name} and {age}: {"name": "Bob", "age": 30}'
    assert texts(text, scan_spans(text)) == ["{name}", "{age}", '{"name": "Bob", "age": 30}']


def test_quotes_in_prose_do_not_start_strings() -> None:
    text = 'He said "look {here} and then {"a": 1}'
    assert texts(text, scan_spans(text)) == ["{here}", '{"a": 1}']


def test_apostrophes_in_prose_do_not_derail_the_scanner() -> None:
    text = "Bob's data (it's fine): {\"name\": \"Bob's\"} and that's it"
    assert texts(text, scan_spans(text)) == ['{"name": "Bob\'s"}']


def test_stray_closer_before_json_is_ignored() -> None:
    text = ':) } ] {"a": [1, 2]}'
    assert texts(text, scan_spans(text)) == ['{"a": [1, 2]}']


def test_mismatched_closer_closes_the_nearest_matching_opener() -> None:
    text = '{"a": [1, 2}'
    spans = scan_spans(text)
    assert texts(text, spans) == [text]
    assert spans[0].closed


def test_unclosed_opener_gives_a_truncated_span_to_the_end() -> None:
    text = 'x {"a": {"b": 1}, "c": "d'
    spans = scan_spans(text)
    truncated = [s for s in spans if not s.closed]
    assert texts(text, truncated) == ['{"a": {"b": 1}, "c": "d']


def test_children_of_an_unclosed_opener_are_marked_inside_it() -> None:
    text = '[{"a": 1}, {"b": 2}'
    spans = scan_spans(text)
    inner = [s for s in spans if s.closed]
    assert texts(text, inner) == ['{"a": 1}', '{"b": 2}']
    assert all(s.inside == 0 for s in inner)


def test_full_width_brackets_are_brackets() -> None:
    text = "结果：｛“name”：“张三”｝"
    assert texts(text, scan_spans(text)) == ["｛“name”：“张三”｝"]


def test_children_read_whole_by_the_fast_pass_are_still_found_when_the_list_is_cut() -> None:
    # closed groups two levels deep are read in one regex call; a cut list must still offer each of them
    text = "[{'id': 1, 'tags': ['a']}, {'id': 2, 'tags': []}, {'id': 3, 'ta"
    inner = [s for s in scan_spans(text) if s.closed]
    assert texts(text, inner) == ["{'id': 1, 'tags': ['a']}", "{'id': 2, 'tags': []}"]
    assert all(s.inside == 0 for s in inner)


def test_closed_spans_before_a_cut_one_are_kept() -> None:
    text = '{"a": [1]} then [{"b": 2}, {"c'
    spans = scan_spans(text)
    assert [(text[s.start : s.end], s.closed, s.inside) for s in spans] == [
        ('{"a": [1]}', True, -1),
        ('[{"b": 2}, {"c', False, -1),
        ('{"b": 2}', True, 16),
    ]


def test_deeply_nested_json_is_one_span() -> None:
    text = 'ok: {"a": {"b": {"c": {"d": [[["}"]]]}}}} done'
    assert texts(text, scan_spans(text)) == ['{"a": {"b": {"c": {"d": [[["}"]]]}}}}']


def test_braces_inside_curly_single_quoted_strings_do_not_close_the_span() -> None:
    text = "Here: {‘note’: ‘it’s {fine}’, ‘close’: ‘}’} done"
    assert texts(text, scan_spans(text)) == ["{‘note’: ‘it’s {fine}’, ‘close’: ‘}’}"]


def test_braces_inside_fullwidth_quoted_strings_do_not_close_the_span() -> None:
    text = "{＂a＂: ＂}＂} done"
    assert texts(text, scan_spans(text)) == ["{＂a＂: ＂}＂}"]


def test_scan_respects_start_and_end() -> None:
    text = '{"a": 1} {"b": 2}'
    assert texts(text, scan_spans(text, 8, len(text))) == ['{"b": 2}']


# -- find_fences -------------------------------------------------------------------------------------------------


def fence_bodies(text: str) -> list[tuple[str, str, bool]]:
    return [(text[f.body_start : f.body_end], f.info, f.closed) for f in find_fences(text)]


def test_json_fence() -> None:
    assert fence_bodies('```json\n{"a": 1}\n```') == [('{"a": 1}\n', "json", True)]


def test_bare_and_tilde_fences() -> None:
    assert fence_bodies("```\n[1]\n```\n~~~\n[2]\n~~~") == [("[1]\n", "", True), ("[2]\n", "", True)]


def test_longer_fence_holds_shorter_fence_lines() -> None:
    text = '````markdown\n```json\n{"a": 1}\n```\n````'
    assert fence_bodies(text) == [('```json\n{"a": 1}\n```\n', "markdown", True)]


def test_closing_fence_must_use_the_same_character() -> None:
    text = "```json\n[1]\n~~~\n[2]\n```"
    assert fence_bodies(text) == [("[1]\n~~~\n[2]\n", "json", True)]


def test_unclosed_fence_runs_to_the_end() -> None:
    assert fence_bodies('Here:\n```json\n{"a": 1}\n') == [('{"a": 1}\n', "json", False)]


def test_inline_triple_backticks_are_not_a_fence() -> None:
    assert fence_bodies("Use ```code``` inline") == []
    assert fence_bodies("```py print(1)```") == []


def test_fence_indented_up_to_three_spaces() -> None:
    assert fence_bodies("   ```json\n[1]\n   ```") == [("[1]\n", "json", True)]


# -- extract_candidates ------------------------------------------------------------------------------------------


def test_fenced_json_is_a_candidate_with_an_extract_fence_repair() -> None:
    cands = extract_candidates('Sure!\n```json\n{"a": 1}\n```\nBye', 16)
    fenced = [c for c in cands if c.source == "fence"]
    assert [c.text for c in fenced] == ['{"a": 1}']
    assert [r.kind for r in fenced[0].repairs] == ["extract_fence"]


def test_whole_text_json_has_no_extraction_repairs() -> None:
    cands = extract_candidates('  {"a": 1}\n', 16)
    assert cands[0].text == '{"a": 1}'
    assert cands[0].repairs == ()


def test_json_in_prose_records_extract_prose() -> None:
    cands = extract_candidates('Result: {"a": 1} (done)', 16)
    assert [c.text for c in cands] == ['{"a": 1}']
    assert [r.kind for r in cands[0].repairs] == ["extract_prose"]


def test_a_fence_written_inside_a_json_string_is_not_a_fence() -> None:
    text = '{"code": "run:\n```\nls\n```\n", "ok": true}'
    cands = extract_candidates(text, 16)
    assert {c.source for c in cands} <= {"whole", "span"}
    assert text in [c.text for c in cands]
    assert "ls" not in [c.text.strip() for c in cands]


def test_answer_after_reasoning_outranks_a_draft_inside_it() -> None:
    text = '<think>draft {"a": 0}</think>\n{"a": 1}'
    cands = extract_candidates(text, 16)
    by_text = {c.text: c for c in cands}
    assert by_text['{"a": 1}'].tier > by_text['{"a": 0}'].tier
    assert by_text['{"a": 0}'].tier <= TIER_REASONING
    assert "reasoning_candidate" in [r.kind for r in by_text['{"a": 0}'].repairs]
    assert "skip_reasoning" in [r.kind for r in by_text['{"a": 1}'].repairs]


def test_example_is_demoted_and_does_not_demote_the_answer_after_it() -> None:
    text = 'For example: {"a": 0}\nThe result is {"a": 1}'
    by_text = {c.text: c.tier for c in extract_candidates(text, 16)}
    assert by_text['{"a": 0}'] < 0 < by_text['{"a": 1}']  # "result" after an example hands over to the answer


def test_a_fenced_json_string_is_one_candidate_and_its_inner_braces_are_not_spans() -> None:
    text = '```json\n"{\\"sentiment\\": \\"positive\\", \\"aspects\\": [\\"checkout\\"]}"\n```'
    assert candidate_texts(text) == ['"{\\"sentiment\\": \\"positive\\", \\"aspects\\": [\\"checkout\\"]}"']
    assert extract_candidates(text, 16)[0].source == "fence"


def test_a_whole_answer_that_is_a_json_string_offers_no_spans_from_inside_it() -> None:
    text = '  "{\\"a\\": 1}"\n'
    assert [(c.text, c.source) for c in extract_candidates(text, 16)] == [('"{\\"a\\": 1}"', "whole")]


def test_a_fence_holding_a_string_and_more_is_not_a_string_candidate() -> None:
    # two strings are not one literal: the object after them is the candidate
    assert candidate_texts('```\n"a" "b" {"c": 1}\n```') == ['{"c": 1}']


def test_braces_in_prose_quotes_are_still_spans() -> None:
    # a quoted phrase in prose is not a JSON string literal standing alone
    assert candidate_texts('He wrote "use {"a": 1}" yesterday') == ['{"a": 1}']


@pytest.mark.parametrize(
    "lead",
    [
        "A tool call has the shape",
        "The format is",
        "The expected structure looks like",
        "It follows the schema",
        "Use the following format:",
    ],
)
def test_words_describing_the_shape_demote_the_candidate_after_them(lead: str) -> None:
    text = f'{lead} {{"action": "tool_name"}}. For your request:\n\n{{"action": "search"}}'
    by_text = {c.text: c.tier for c in extract_candidates(text, 16)}
    assert by_text['{"action": "tool_name"}'] < by_text['{"action": "search"}']


def test_json_format_in_a_sentence_does_not_demote_the_answer() -> None:
    assert tiers('Here is the answer in JSON format: {"a": 1}') == [0]


def test_hand_over_words_promote_only_after_an_example() -> None:
    assert tiers('Here is the result: {"a": 1}\nand also {"b": 2}') == [0, 0]
    assert tiers('For example {"a": 0}. Here is the result: {"a": 1}') == [-1, 1]


def test_corrected_and_final_answer_are_promoted() -> None:
    text = '{"a": 0}\nCorrected: {"a": 1}\nFinal answer: {"a": 2}'
    by_text = {c.text: c.tier for c in extract_candidates(text, 16) if c.source == "span"}
    # the value a correction replaces is superseded, not a rival
    assert by_text == {'{"a": 0}': -1, '{"a": 1}': 1, '{"a": 2}': 1}


def test_inner_spans_of_a_cut_off_list_rank_below_the_cut_off_answer() -> None:
    text = '[{"a": 1}, {"a": 2}, {"a": 3'
    cands = extract_candidates(text, 16)
    (whole,) = [c for c in cands if c.text == text]
    assert all(c.tier < whole.tier for c in cands if c.source == "span")


def test_unclosed_bracket_in_prose_does_not_demote_the_json_after_it() -> None:
    text = 'Results [see below: {"a": 1}'
    by_text = {c.text: c.tier for c in extract_candidates(text, 16)}
    assert by_text['{"a": 1}'] == 0


def test_cut_off_candidate_keeps_its_trailing_newline() -> None:
    cands = extract_candidates('```json\n{"a": 30\n', 16)
    assert {c.text for c in cands} == {'{"a": 30\n'}


def test_full_width_json_is_a_candidate() -> None:
    assert candidate_texts("好的：｛“a”：1｝") == ["｛“a”：1｝"]


def test_identical_candidates_are_deduplicated() -> None:
    text = 'One: {"a": 1}\n```json\n{"a": 1}\n```'
    assert candidate_texts(text) == ['{"a": 1}']


def test_no_candidate_is_cut_before_ranking() -> None:
    # issue 13: a cap here dropped the designated answer (or JSON Lines after the 15th); selection bounds the tries
    text = " ".join(f'{{"a": {i}}}' for i in range(100))
    assert {c.text for c in extract_candidates(text, 5) if c.source == "span"} == {f'{{"a": {i}}}' for i in range(100)}


def test_no_braces_no_candidates() -> None:
    assert extract_candidates("Bob is 30 years old.", 16) == []


def test_the_input_text_is_not_changed() -> None:
    text = 'Sure ```json\n{"a": 1,}\n```'
    copy = "".join(list(text))
    extract_candidates(text, 16)
    assert text == copy


# -- linear time -------------------------------------------------------------------------------------------------


# how extraction's time grows on these shapes (linear, judged as t(8n)/(8·t(n)), never against the wall clock):
# benchmarks/adversarial_timing.py's extract_* cases, run by `make test-slow`
@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "}" * 100_000,  # closers that match no opener, with a deep stack
        "[1] " * 50_000,  # thousands of tiny spans
        '{"a": "' + "x" * 200_000,  # an unterminated string inside a span
        "```\n" * 50_000,  # fences everywhere
        "<think>" * 30_000 + "</think>" * 30_000,
        "{'a" * 60_000,
        "[" + "{'a': 'it's', " * 20_000,  # a cut list: the fast pass, then a second read from the '['
        "[" + "{[" * 60_000,  # groups the fast pass tries and gives up on at every opener
        "x ``` y " * 40_000,  # backtick runs in the middle of lines
    ],
    ids=["closers", "tiny-spans", "open-string", "fences", "tags", "open-objects", "cut-list", "deep-open", "ticks"],
)
def test_hostile_text_ends_in_candidates(text: str) -> None:
    assert isinstance(extract_candidates(text, 16), list)


def test_reasoning_tags_inside_json_strings_are_text() -> None:
    text = '{"note": "</think>", "b": "<think>"}'
    assert [r.reasoning for r in split_reasoning(text)] == [False]


def test_reasoning_tag_after_json_with_tag_text_still_counts() -> None:
    text = '{"note": "<think>"} is a draft</think>{"a": 1}'
    regions = split_reasoning(text)
    assert [(text[r.start : r.end], r.reasoning) for r in regions] == [
        ('{"note": "<think>"} is a draft</think>', True),
        ('{"a": 1}', False),
    ]


@given(st.text(alphabet=list("{}[]\"'`~<>/thinkg \n:,ab\\｛｝"), max_size=80))
def test_candidates_are_pieces_of_the_text(text: str) -> None:
    for cand in extract_candidates(text, 16):
        assert cand.text == text[cand.start : cand.end].strip() or text[cand.start : cand.end].lstrip() == cand.text
        # a bracketed piece, or a fence body or whole answer that is one JSON string (JSON encoded in a string)
        assert cand.text[:1] in "{[｛［" or (cand.source in ("fence", "whole") and cand.text[0] == cand.text[-1] == '"')


def tiers(text: str) -> list[int]:
    return [c.tier for c in sorted(extract_candidates(text, 16), key=lambda c: c.start) if c.source == "span"]


def test_a_correction_word_promotes_even_beside_a_judgement_word() -> None:
    # the correction promotes the candidate it introduces and supersedes the one before it
    assert tiers('{"a": 0}\nI corrected the age from the previous answer: {"a": 1}') == [-1, 1]


def test_the_correct_json_is_promoted() -> None:
    # "Wait, I made a mistake" between them supersedes the first
    assert tiers('{"a": 0}\nWait, I made a mistake. The correct JSON is:\n{"a": 1}') == [-1, 1]


def test_judgement_words_alone_designate_nothing() -> None:
    # "the previous one was invalid: {…}" may point at either candidate: a guess, so neither is labelled
    assert tiers('{"a": 0}\nOops, the previous JSON was invalid. Here it is again:\n{"a": 1}') == [0, 0]
    # "Wrong:" alone as a heading is a verdict on the candidate it introduces
    assert tiers('Wrong: {"a": 0}\nOther: {"a": 1}') == [-1, 0]


def test_an_example_word_outweighs_a_correction_word() -> None:
    assert tiers('Here is an example of the final format: {"a": 0}\nAnswer: {"a": 1}')[0] == -1


def test_braces_inside_single_quoted_strings_do_not_close_the_span() -> None:
    text = "Here: {'open': '{', 'close': '}', 'list': '[x'} done"
    assert texts(text, scan_spans(text)) == ["{'open': '{', 'close': '}', 'list': '[x'}"]


def test_apostrophes_inside_prose_braces_are_not_strings() -> None:
    text = "Fill {the user's name} here: {'name': 'Bob', 'age': 30}"
    assert texts(text, scan_spans(text)) == ["{the user's name}", "{'name': 'Bob', 'age': 30}"]


def test_apostrophe_inside_single_quoted_value_with_brace() -> None:
    text = "{'note': 'it's {fine}', 'b': 1}"
    assert texts(text, scan_spans(text)) == [text]


def test_unclosed_single_quote_does_not_swallow_the_rest() -> None:
    text = "{'a': 'x} {\"b\": 1}"
    assert '{"b": 1}' in texts(text, scan_spans(text))


def test_single_quote_starting_a_line_after_a_value_opens_a_string() -> None:
    # the comma after 1 is missing at the line end; '}' on the next line is a value, not an apostrophe and a brace
    text = "Result: {'a': [1\n '}']} done"
    assert texts(text, scan_spans(text)) == ["{'a': [1\n '}']}"]


def test_think_tag_inside_single_quotes_after_a_line_break_stays_inside_the_json() -> None:
    text = "{'a': ['x'\n'\"', '</think>']}"
    assert [r.reasoning for r in split_reasoning(text)] == [False]


def test_single_quoted_value_after_a_comment_is_a_string() -> None:
    text = "Here:\n{\n  /**/'name':  // note\n'{'\n} (as requested)"
    assert texts(text, scan_spans(text)) == ["{\n  /**/'name':  // note\n'{'\n}"]


# -- the facts selection judges by (issue 13) --------------------------------------------------------------------


def facts(text: str) -> list[tuple[str, str, str]]:
    """(text, label, region) of each span candidate, in text order."""
    return [(c.text, c.label, c.region) for c in sorted(extract_candidates(text), key=lambda c: c.start)]


@pytest.mark.parametrize(
    ("lead", "label"),
    [
        ("For example:", "example"),
        ("Draft:", "example"),
        ("Use the following format:", "example"),
        ("Here it is in the required format:", ""),
        ("Final answer:", "designated"),
        ("**Corrected:**\n```json\n", "designated"),
        ("Updated version (moved to 2 pm):\n", "designated"),
        ("The following would NOT be correct:", "rejected"),
        ("Do not use the updated", "rejected"),
        ("Never call", "rejected"),
        ("instead of", "rejected"),
        ("This is not the answer:", "rejected"),
        ("Alternatively:", "alternative"),
        ("Option B:", "alternative"),
        ("Note the final API version dropped", ""),
        ("I can't access live data, but here's the call:", ""),
        ("Wrong:", "rejected"),  # a verdict that is its own heading judges what follows it
        ("Something like", "example"),
        ("A call such as", "example"),
        ("Final answer (not the draft):", "designated"),
        ("The corrected version isn't ready:", "rejected"),
        ("The final version of the old API is", ""),
        ("The final API version dropped this:", ""),
        ("Note the final API version is", ""),
        ("I corrected the age from the previous answer:", "designated"),
        ("The correct tool call would be:", "designated"),
        ("**Final Answer**\n", "designated"),
    ],
)
def test_the_words_right_before_a_candidate_label_it(lead: str, label: str) -> None:
    text = f'{lead}{{"a": 1}}' + ("\n```" if "```" in lead else "")
    (cand,) = [c for c in extract_candidates(text) if c.text == '{"a": 1}']
    assert cand.label == label


def test_a_designation_word_in_an_earlier_sentence_designates_nothing() -> None:
    assert facts('{"a": 0} The final step matters. Then {"a": 1}')[1][1] == ""


def test_a_label_does_not_reach_past_the_previous_candidate() -> None:
    assert [label for _, label, _ in facts('For example: {"a": 0}\n{"a": 1}')] == ["example", ""]
    assert [label for _, label, _ in facts('For example: {"a": 0}. Then {"a": 1}')] == ["example", ""]


def test_candidates_listed_after_a_labelled_one_share_its_label() -> None:
    text = 'For example: {"a": 0}, {"a": 1} or {"a": 2}\nDo not use {"b": 0} or {"b": 1}'
    assert [label for _, label, _ in facts(text)] == ["example"] * 3 + ["rejected"] * 2
    # white space alone between them lists them too (changed from ["example", ""]: the tester's decoy
    # 'For example: {"action": "a"} {"action": "delete_all"}' returned the second example as the answer)
    assert [label for _, label, _ in facts('For example: {"a": 0} {"a": 1}')] == ["example", "example"]
    assert [label for _, label, _ in facts('Examples:\n{"a": 0}\n{"a": 1}')] == ["example", "example"]


def test_candidates_inside_closed_and_cut_off_reasoning_are_marked() -> None:
    text = '<think>{"a": 0}</think>\n{"a": 1}\n<think>then {"a": 2}'
    assert [(t, region) for t, _, region in facts(text)] == [
        ('{"a": 0}', "reasoning"),
        ('{"a": 1}', "answer"),
        ('{"a": 2}', "reasoning_cut"),
    ]
    assert [(r.reasoning, r.cut) for r in split_reasoning(text)] == [(True, False), (False, False), (True, True)]


def test_a_draft_from_reasoning_is_recorded_as_a_lossy_choice() -> None:
    (cand,) = extract_candidates('<think>{"a": 0}</think>')
    assert [(r.kind, r.lossless) for r in cand.repairs] == [("reasoning_candidate", False)]
    assert cand.visible_text is False


@pytest.mark.parametrize(
    "text",
    [
        "(I skip the <thinking> step here.) {}",
        "Use the `<think>` tag. {}",
        'He wrote "<think>" once. {}',
        "a <reasoning> block helps {}",
    ],
)
def test_a_reasoning_tag_mentioned_in_a_sentence_opens_no_block(text: str) -> None:
    assert [r.reasoning for r in split_reasoning(text)] == [False]


@pytest.mark.parametrize("text", ["<think>x</think>{}", "ok\n  <think>\nx", "ok <think>still thinking {}"])
def test_a_reasoning_tag_that_starts_a_block_opens_one(text: str) -> None:
    assert any(r.reasoning for r in split_reasoning(text))


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ('I will not do that. {"a": 1}', True),
        ('{"a": 1} I can\'t help with that.', True),
        ('I must decline. {"a": 1}', True),
        ('{"a": 1} I cannot guarantee the values are current.', False),
        ('{"note": "I will not do that"}', False),  # inside a JSON string
        ('<think>I will not do that.</think>{"a": 1}', False),  # inside reasoning
    ],
)
def test_a_refusal_in_the_visible_prose_is_found(text: str, refused: bool) -> None:
    cands = extract_candidates(text)
    assert cands and all((c.refusal_at >= 0) is refused for c in cands)


def test_a_python_tuple_in_a_fence_is_a_candidate() -> None:
    text = "Here is the tuple payload:\n\n```json\n(1, 2)\n```\n"
    assert "(1, 2)" in candidate_texts(text)


def test_prose_in_parentheses_outside_a_fence_is_not_a_candidate() -> None:
    assert all(not t.startswith("(") for t in candidate_texts("I think (1, 2) is it."))


def test_a_python_tuple_in_a_fence_reads_as_a_list_in_both_modes() -> None:
    from typing import Any

    from resilient_parse import Parser

    for mode in ("strict", "lenient"):
        result = Parser(mode, entrypoints=False).parse_result("Payload:\n\n```json\n(1, 2)\n```\n", Any)
        assert result.value == [1, 2]
        assert [r.kind for r in result.repairs] == ["extract_fence", "python_tuple"]


def test_a_closing_fence_marker_with_no_opening_one_ends_the_candidate() -> None:
    from typing import Any

    from resilient_parse import Parser, TruncatedOutputError

    assert candidate_texts('{"a": 1}```') == ['{"a": 1}']
    for mode in ("strict", "lenient"):
        result = Parser(mode, entrypoints=False).parse_result('{"a": 1}\n```', Any)
        assert result.value == {"a": 1}
        assert [r.kind for r in result.repairs] == ["extract_fence"]
    assert Parser("lenient", entrypoints=False).parse('{"key": "value}```', Any) == {"key": "value"}
    with pytest.raises(TruncatedOutputError):  # cut before its '}': the marker does not close the object
        Parser("lenient", entrypoints=False).parse('{"key": "value, value2"```', Any)


def _walked(text: str) -> list[tuple[int, int, bool, int]]:
    """The spans the bracket-by-bracket walk finds (the C scanner's shortcut for valid values switched off)."""
    from unittest import mock

    from resilient_parse.stages import extract_spans

    with mock.patch.object(extract_spans, "valid_value_end", lambda _text, _at: (-1, len(_text))):
        return [tuple(s) for s in extract_spans.scan_spans(text)]


@pytest.mark.parametrize(
    "text",
    [
        'Here: {"a": "}{", "b": [1, {"c": "]\\"["}]} and [1, 2] then {"x": 1',
        'x [1, 2] {bad} {"a": [1, 2}, "b": 3} [{"k": "v"}]',
        '[1, 2]\n\n{"a": 1e999}\n[' + '{"n": 1}, ' * 50 + "]",
        '{"a": "b"}{"c": "d"}',
        '[{"a": 1}, {"b": 2}',
    ],
)
def test_valid_values_read_in_one_call_are_the_spans_the_walk_finds(text: str) -> None:
    assert [tuple(s) for s in scan_spans(text)] == _walked(text)


def test_an_open_ended_answer_with_trailing_white_space_is_one_candidate_not_two() -> None:
    from typing import Any

    from pydantic import BaseModel

    from resilient_parse import Parser, TruncatedOutputError

    class Counted(BaseModel):
        records: list[int]
        count: int

    text = '{"records": [1, 2], "count": 30\n'
    # kept whole, newline and all ("30\n" is a complete number), once: not again as the span cut off at the end
    assert [t for t in candidate_texts(text) if t.startswith("{")] == [text]
    parser = Parser("lenient", entrypoints=False)
    calls: list[str] = []
    original = Parser._attempt

    def spy(self: Parser, cand: Any, *args: Any) -> Any:
        calls.append(cand.text)
        return original(self, cand, *args)

    from unittest import mock

    with mock.patch.object(Parser, "_attempt", spy):
        assert parser.parse(text, Counted) == Counted(records=[1, 2], count=30)
        assert calls.count(text) == 1
        calls.clear()
        with pytest.raises(TruncatedOutputError):
            parser.parse('{"records": [1, 2], "note": "cut\n', dict[str, list[int]])
        assert calls == ['{"records": [1, 2], "note": "cut\n']


# -- the lone value: a text that is one bracketed value and nothing else -----------------------------------------

_LONE_ALPHABET = list("{}[]\"'`~<>/#*thinkg \n\t:,ab1\\｛｝?(")


@given(
    st.text(alphabet=_LONE_ALPHABET, max_size=60).map(lambda s: "{" + s + "}")
    | st.text(alphabet=_LONE_ALPHABET, max_size=60).map(lambda s: " [" + s + "]\n")
    | st.text(alphabet=_LONE_ALPHABET, max_size=60)
)
def test_the_lone_value_shortcut_finds_what_the_full_extraction_finds(text: str) -> None:
    regions = split_reasoning(text)
    lone = _lone_value(text, regions)
    if lone is not None:
        assert _all_candidates(text, regions) == [lone]


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1,}',
        " [1, 2, 3,]\n",
        "{'a': 'b'}",
        '{"a": "[not a span"}',
        '[{"a": 1}, {"b": 2}]',
        '{"a": 1 // see [note\n}',
        '{"a": [1}',  # the `[` is left open inside the one span
    ],
)
def test_a_lone_value_is_its_own_only_candidate(text: str) -> None:
    regions = split_reasoning(text)
    lone = _lone_value(text, regions)
    assert lone is not None and lone.text == text.strip() and lone.source == "whole"
    assert _all_candidates(text, regions) == [lone]


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1} {"b": 2}',  # two values
        "[1] and [2]",
        '<think>x</think>{"a": 1}',
        '```json\n{"a": 1}\n```',
        '{"a": 1',  # cut off
        '{"a": 1}]',  # a closer that closes nothing: two spans' worth of brackets
    ],
)
def test_other_texts_take_the_full_extraction(text: str) -> None:
    assert _lone_value(text, split_reasoning(text)) is None


# -- the label triggers: words without any label nothing, exactly as the clause analysis finds ---------------------

_LABEL_VOCABULARY = [
    *[
        "for",
        "example",
        "e.g.",
        "such",
        "as",
        "sample",
        "draft",
        "template",
        "final",
        "corrected",
        "answer",
        "here",
        "is",
        "here's",
        "result",
        "output",
        "not",
        "don't",
        "never",
        "avoid",
        "cannot",
        "Pinot",
        "whenever",
        "instead",
        "of",
        "rather",
        "than",
        "maybe",
        "option",
        "or",
        "and",
        "rejected",
        "incorrect",
        "bad",
        "wrong",
        "use",
        "call",
        "the",
        "JSON",
        "is:",
        "->",
        "below",
        "this",
        "(example)",
        "(not)",
        "```",
        "json",
        "<answer>",
        "**",
        "_",
        "#",
        "?",
        ".",
        ";",
        ",",
        "\n",
    ],
    "",
]


_LABEL_VOCABULARY += ["knot", "_BAD_", "**Or:**", "xinstead of", "whenever", "(e. g.)", "not this one", "wrong answer"]


@given(st.lists(st.sampled_from(_LABEL_VOCABULARY), max_size=12), st.sampled_from([" ", "", "\n", "_"]), st.booleans())
def test_the_label_triggers_decide_what_the_clause_analysis_would(
    words: list[str], glue: str, after_example: bool
) -> None:
    text = glue.join(words)
    assert _label_words(text, after_example) == _label_clauses(_trim_markup(text), after_example)


@pytest.mark.parametrize(
    ("words", "label"),
    [
        ("Here is the JSON you asked for:\n```json\n", ""),
        ("Pinot:", "rejected"),  # the rejecting ending, as the clause analysis reads it
        ("For example:", "example"),
        ("Final answer:", "designated"),
    ],
)
def test_label_words_with_and_without_triggers(words: str, label: str) -> None:
    assert _label_words(words, False) == label


_SCAN_ALPHABET = [*"{}[]\"':,1 \n\\", "［", "｝", "“", "”", '{"k": [1, 2]}', '"x[y"', "true", "// c\n"]


@given(st.lists(st.sampled_from(_SCAN_ALPHABET), max_size=30).map("".join))
def test_the_shortcuts_of_the_span_scan_give_the_spans_a_bracket_by_bracket_scan_gives(text: str) -> None:
    """Bracket by bracket, a valid JSON value inside an opener is read in one C call (a cut-off answer's closed
    children); with the C scanner never tried (`decode_from` past the end) the spans are the same."""
    n = len(text)
    by_brackets = _scan(text, 0, n, fast=False, decode_from=n)[0]
    assert _scan(text, 0, n, fast=False)[0] == by_brackets
    # and the public scan — a fast pass that turns bracket by bracket where a value is cut off — agrees
    assert scan_spans(text) == by_brackets


def test_a_cut_off_answer_keeps_its_closed_children_as_spans() -> None:
    text = '{"records": [{"id": 1}, {"id": 2}], "summary": "all'
    assert [(text[s.start : s.end], s.closed, s.inside) for s in scan_spans(text)] == [
        (text, False, -1),
        ('[{"id": 1}, {"id": 2}]', True, 0),
    ]
