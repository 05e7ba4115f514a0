"""The bulk lossless pass must agree with the precise tokenizer: same JSON, same repair kinds — or step aside."""

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from resilient_parse.stages.syntax import SyntaxFailure, repair_syntax
from resilient_parse.stages.syntax_bulk import MAX_INDIVIDUAL, bulk_repair, resolve_paths

AGREEING = [
    '{"a": 1,}',
    "{a: 1, b: True, c: None}",
    '{"a": 1 // c\n, "b": [1,2,],}',
    '/* x */ {"a": "line\nbreak"}',
    '{"a": 1\n "b": 2}',
    '｛"a"：1，"b"：2｝',
    "{“a”: “b”}",
    '\ufeff{"a":\u00a01}',
    '{"a": "tab\there"}',
    '{"a": "\\\\d+"}',
    '# c\n{"a": [ {"b": 1}, {"c": 2}, ]}',
    '{"k": "v"\n "k2": "v2"}',
    '["a" "b", 1\n2]',
    '{"a": {"b": {"c": [1, 2, {"d": 3,},],},},}',
    '{"url": "http://x.y/z", "n": 1,}',
    "{'url': 'http://x.y/z', 'n': 1}",
]


def _precise(text: str) -> tuple[object, Counter[str]]:
    fixed, repairs = repair_syntax(text, allow_close=False, max_depth=400)
    return json.loads(fixed), Counter(r.kind for r in repairs)


@pytest.mark.parametrize("text", AGREEING)
def test_bulk_and_precise_read_the_same_json_with_the_same_repair_kinds(text: str) -> None:
    fixed, raws, more = bulk_repair(text)
    assert not more
    assert (json.loads(fixed), Counter(r.kind for r in raws)) == _precise(text)


def test_a_comment_marker_inside_a_string_is_text_not_a_comment() -> None:
    fixed, raws, _ = bulk_repair('{"url": "http://example.com/#top", "n": 1,}')
    assert json.loads(fixed) == {"url": "http://example.com/#top", "n": 1}
    assert [r.kind for r in raws] == ["trailing_comma"]


def test_a_comment_ending_in_a_digit_does_not_look_like_a_value() -> None:
    fixed, raws, _ = bulk_repair('[\n  // step 1\n  {"a": 1}\n]')
    assert json.loads(fixed) == [{"a": 1}]
    assert [r.kind for r in raws] == ["comment"]


def test_a_missing_comma_on_one_line_before_a_key_is_left_to_the_precise_tokenizer() -> None:
    fixed, _, _ = bulk_repair('{"a": "He said "hi": "x"}')
    with pytest.raises(ValueError):
        json.loads(fixed)


@pytest.mark.parametrize("text", ["{'a': 'Bob\\'s', 'b': 1}", "{'name': 'Bob's cafe', 'n': 1}", "['\\''\n'']"])
def test_single_quoted_strings_with_escapes_or_apostrophes_are_left_to_the_precise_tokenizer(text: str) -> None:
    fixed, _, _ = bulk_repair(text)
    with pytest.raises(ValueError):
        json.loads(fixed)


@pytest.mark.parametrize("text", ["{,}", "[,]", "{\u00a0,}", "[1,,]"])
def test_a_comma_with_no_value_before_it_is_not_a_trailing_comma(text: str) -> None:
    fixed, _, _ = bulk_repair(text)
    with pytest.raises(ValueError):
        json.loads(fixed)


def test_two_numbers_separated_by_a_space_are_left_to_the_precise_tokenizer() -> None:
    fixed, _, _ = bulk_repair("[1 2]")
    with pytest.raises(ValueError):
        json.loads(fixed)


def test_paths_point_at_the_repaired_places() -> None:
    fixed, raws, _ = bulk_repair("{'a': {'b': [1, 2,], c: True}}")
    paths = resolve_paths(fixed, [r.fixed_offset for r in raws])
    assert list(zip([r.kind for r in raws], paths)) == [
        ("single_quotes", "/a"),
        ("single_quotes", "/a/b"),
        ("trailing_comma", "/a/b/1"),
        ("bare_key", "/a/c"),
        ("python_literal", "/a/c"),
    ]


def test_many_repairs_are_summarised_after_the_first_hundred() -> None:
    text = "[" + ",".join(f"{{'k': {i}}}" for i in range(300)) + "]"
    fixed, raws, more = bulk_repair(text)
    assert json.loads(fixed) == [{"k": i} for i in range(300)]
    assert len(raws) == MAX_INDIVIDUAL
    assert sum(count for _, count in more.values()) == 300 - MAX_INDIVIDUAL


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@given(_values, st.sampled_from(["", ",", " // note\n", "\n"]))
def test_bulk_never_disagrees_with_the_precise_tokenizer(value: object, noise: str) -> None:
    text = json.dumps(value, indent=1).replace("\n]", noise + "\n]").replace("\n}", noise + "\n}")
    fixed, _, _ = bulk_repair(text)
    try:
        bulk_tree = json.loads(fixed)
    except ValueError:
        return  # the bulk pass stepped aside: the precise tokenizer decides
    try:
        precise_tree, _ = _precise(text)
    except SyntaxFailure:
        pytest.fail(f"bulk pass accepted what the precise tokenizer rejects: {text!r}")
    assert bulk_tree == precise_tree
