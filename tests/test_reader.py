"""The one-pass reader (issue 12): every repair kind with its path, offset and mode; the cases that used to come
back as a wrong object; honest, schema-aware truncation; duplicate keys; and a differential property — any JSON
document with any lossless mutations reads back as the document, with exactly those mutations recorded."""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from typing import Any

import pytest
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import resilient_parse.json.containers as containers_module
from resilient_parse import (
    AmbiguousMatchError,
    NoCandidateError,
    ParseError,
    Parser,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)
from resilient_parse.json.document import read
from resilient_parse.json.failure import ReadFailure
from resilient_parse.repairs import KINDS
from resilient_parse.stages.read_duplicates import find_duplicates, has_duplicate_keys
from resilient_parse.stages.syntax import load_json, lossy_kinds

MODES = ("strict", "lenient")


def ctx(mode: str, target: Any = Any) -> Any:
    return Parser(mode, entrypoints=False).context(target)


def loaded(text: str, mode: str = "lenient", target: Any = Any) -> tuple[Any, list[tuple[str, str]]]:
    result = load_json(text, ctx(mode, target))
    assert json.loads(result.json_text) == result.tree
    return result.tree, [(r.kind, r.path) for r in result.repairs]


# -- lossless repairs: the same reading in both modes ------------------------------------------------------------

LOSSLESS = [
    ('{"a" 2}', {"a": 2}, [("missing_colon", "/a")]),
    ('{"a" "b", "c" [1]}', {"a": "b", "c": [1]}, [("missing_colon", "/a"), ("missing_colon", "/c")]),
    ("{a 'b'}", {"a": "b"}, [("bare_key", "/a"), ("missing_colon", "/a"), ("single_quotes", "/a")]),
    ('("a", "b")', ["a", "b"], [("python_tuple", "")]),
    ("('x',)", ["x"], [("python_tuple", ""), ("single_quotes", "/0"), ("trailing_comma", "")]),
    ("()", [], [("python_tuple", "")]),
    ('{"t": (1, (2, 3))}', {"t": [1, [2, 3]]}, [("python_tuple", "/t"), ("python_tuple", "/t/1")]),
    ('{"n": (1), "s": ("x")}', {"n": 1, "s": "x"}, [("python_tuple", "/n"), ("python_tuple", "/s")]),
    ('{2: "b"}', {"2": "b"}, [("bare_key", "/2")]),
    ('{"a" true}', {"a": True}, [("missing_colon", "/a")]),
    ('{"n": 82_461_110}', {"n": 82461110}, [("number_underscores", "/n")]),
    ('{"n": 1_000.5}', {"n": 1000.5}, [("number_underscores", "/n")]),
    ('{"n": 0x1E}', {"n": 30}, [("hex_number", "/n")]),
    ("['hello' + 'world']", ["helloworld"], [("single_quotes", "/0"), ("string_concatenation", "/0")]),
    ('{"s": "a" + "b" + "c"}', {"s": "abc"}, [("string_concatenation", "/s"), ("string_concatenation", "/s")]),
    ('{"a": {"b": 1,}}', {"a": {"b": 1}}, [("trailing_comma", "/a")]),
    ('{"a": 1\n "b": 2}', {"a": 1, "b": 2}, [("missing_comma", "/b")]),
    ("{'ok': True, 'v': None}", {"ok": True, "v": None}, None),
    ('{"a": 1, // one\n "b": 2 # two\n}', {"a": 1, "b": 2}, [("comment", ""), ("comment", "/b")]),
    ('{"poem": "one\ntwo"}', {"poem": "one\ntwo"}, [("control_character", "/poem")]),
    ('{"re": "\\d+"}', {"re": "\\d+"}, [("invalid_escape", "/re")]),
    ("｛“a”：[1，2]｝", {"a": [1, 2]}, None),
    ("[.5, +5]", [0.5, 5], [("number_format", "/0"), ("number_format", "/1")]),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("text", "tree", "repairs"), LOSSLESS)
def test_lossless_repairs_read_the_same_in_both_modes(
    mode: str, text: str, tree: Any, repairs: list[tuple[str, str]] | None
) -> None:
    got, made = loaded(text, mode)
    assert got == tree
    if repairs is not None:
        assert made == repairs
    assert all(KINDS[kind].lossless for kind, _ in made)


def test_a_repair_records_its_offset_in_the_candidate_text() -> None:
    reading = read('{"a": [1, 2,], "b" 3}')
    assert [(r.kind, r.path, r.offset) for r in reading.repairs] == [
        ("trailing_comma", "/a", 11),
        ("missing_colon", "/b", 19),
    ]


# -- lossy repairs: lenient reads them and records them; strict refuses -------------------------------------------

LOSSY = [
    ('{"a":"b}', {"a": "b"}, "missing_quote"),
    ('{"key:value}', {"key": "value"}, "missing_quote"),
    ('{"text": "The TV has a 24" screen"}', {"text": 'The TV has a 24" screen'}, "inner_quote"),
    ('{"key": "v"alue"}', {"key": 'v"alue'}, "inner_quote"),
    ('{""answer"":""5""}', {"answer": "5"}, "doubled_quotes"),
    ('{"words": abcdef"}', {"words": "abcdef"}, "missing_quote"),
    ('{ "key": value, "key2": 1 "key3": null }', {"key": "value", "key2": 1, "key3": None}, "bare_string"),
    ('{"value_1": true, COMMENT "value_2": "data"}', {"value_1": True, "value_2": "data"}, "junk_text"),
    ('{"s": """triple"""}', {"s": "triple"}, "triple_quotes"),
    ('{"id": ObjectId("507f1f77"), "n": NumberLong(5)}', {"id": "507f1f77", "n": 5}, "mongo_wrapper"),
    ('{"key1": ["v1", "v2"}, "key2": ["v3"]}', {"key1": ["v1", "v2"], "key2": ["v3"]}, "mismatched_bracket"),
    ('{"key": "value"}, "key2": "value2"}', {"key": "value", "key2": "value2"}, "stray_closer"),
    ('{"name": "Bob, "age": 30}', {"name": "Bob", "age": 30}, "missing_quote"),
    ('{"c": undefined}', {"c": None}, "js_literal"),
    ('{"key": TRUE, "key3": Null}', {"key": True, "key3": None}, "literal_case"),
    ('{a":"foo","b":"bar"}', {"a": "foo", "b": "bar"}, "missing_quote"),
]


@pytest.mark.parametrize(("text", "tree", "kind"), LOSSY)
def test_lossy_repairs_are_read_in_lenient_and_recorded(text: str, tree: Any, kind: str) -> None:
    got, made = loaded(text, "lenient")
    assert got == tree
    assert kind in {k for k, _ in made}
    assert not KINDS[kind].lossless


@pytest.mark.parametrize(("text", "tree", "kind"), LOSSY)
def test_lossy_repairs_are_refused_in_strict(text: str, tree: Any, kind: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("strict"))


def test_strict_allows_no_lossy_reader_kind_and_lenient_all_of_them() -> None:
    assert lossy_kinds(Parser("strict", entrypoints=False).policy) == frozenset()
    assert {"inner_quote", "bare_string", "missing_quote"} <= lossy_kinds(Parser("lenient", entrypoints=False).policy)


# -- the objects that used to come back wrong: now right or an error ---------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_brace_closing_a_list_is_not_a_fragment(mode: str) -> None:
    text = '{"key1": ["value1", "value2"}, "key2": ["value3", "value4"]}'
    if mode == "strict":
        with pytest.raises(UnrecoverableSyntaxError):
            load_json(text, ctx(mode))
    else:
        assert loaded(text)[0] == {"key1": ["value1", "value2"], "key2": ["value3", "value4"]}


@pytest.mark.parametrize("mode", MODES)
def test_a_list_left_open_does_not_lose_a_nesting_level(mode: str) -> None:
    with pytest.raises(TruncatedOutputError) as info:
        load_json("[[1\n\n]", ctx(mode))
    assert info.value.errors[0]["path"] == ""


@pytest.mark.parametrize("mode", MODES)
def test_a_comment_that_may_hold_the_closers_does_not_drop_members(mode: str) -> None:
    # `# comment }, "key3": "value3" }` runs to the end: the closers (and key3) may be inside the comment
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{ "key": { "key2": "value2" # comment }, "key3": "value3" }', ctx(mode))
    assert info.value.errors[0]["kind"] == "comment_at_end"


@pytest.mark.parametrize("mode", MODES)
def test_a_bare_key_and_a_quoted_value_is_an_object_not_a_list(mode: str) -> None:
    assert loaded("{a 'b'}", mode)[0] == {"a": "b"}


def test_a_missing_quote_before_the_next_key_does_not_make_a_key_of_the_text() -> None:
    tree, made = loaded('{"a":"b,c,"d":"e"}')
    assert tree == {"a": "b,c", "d": "e"}
    assert [k for k, _ in made] == ["missing_quote", "missing_quote"]
    with pytest.raises(UnrecoverableSyntaxError):
        load_json('{"a":"b,c,"d":"e"}', ctx("strict"))


@pytest.mark.parametrize("mode", MODES)
def test_prose_after_the_object_is_not_swallowed_into_the_value(mode: str) -> None:
    text = "{a: b} is the output."
    if mode == "strict":
        with pytest.raises(UnrecoverableSyntaxError):
            load_json(text, ctx(mode))
        return
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx(mode))  # the candidate alone: trailing prose is the extractor's to cut away
    assert info.value.errors[0]["kind"] == "trailing_text"
    assert loaded("{a: b}")[0] == {"a": "b"}


def test_bare_words_on_separate_lines_are_separate_items() -> None:
    tree, made = loaded('{"array":[\na\nb\n]}')
    assert tree == {"array": ["a", "b"]}
    assert ("missing_comma", "/array/1") in made


@pytest.mark.parametrize("mode", MODES)
def test_an_object_opened_where_a_key_should_be_is_an_error_not_an_empty_list(mode: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError):
        load_json("[{{]", ctx(mode))


# -- two readings: the error says so ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_value_in_doubled_quotes_alone_has_two_readings(mode: str) -> None:
    # `""quoted""` is "quoted" in doubled quotes, or '"quoted"' with unescaped quotes
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{"name": ""quoted""}', ctx(mode))
    assert "two readings" in str(info.value)


@pytest.mark.parametrize(
    "text", ['["value1" value2", "value3"]', '["hello,"world"]', '["hello, world]', '{"a": "x, y}'], ids=str
)
def test_a_quote_that_may_be_inner_or_missing_has_two_readings(text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("lenient"))


def test_an_inner_quote_then_a_quoted_key_has_two_readings() -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{"a": "x"y": 1}', ctx("lenient"))
    assert info.value.errors[0]["kind"] == "ambiguous"


# -- truncation, judged against the schema -----------------------------------------------------------------------


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


class Review(BaseModel):
    verdict: str
    score: int
    summary: str = ""
    tags: list[str] = []


@pytest.mark.parametrize("mode", MODES)
def test_a_free_form_arguments_dict_cut_before_its_brace_is_an_error(mode: str) -> None:
    # r10: the cut may have removed a `dry_run`
    with pytest.raises(TruncatedOutputError) as info:
        load_json('{"action": "delete_files", "arguments": {"path": "/srv/cache"', ctx(mode, ToolCall))
    assert info.value.errors[0]["path"] == "/arguments"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"verdict": "ok", "score": 4', "/score"),  # a number with no terminator
        ('{"verdict": "go', "/verdict"),  # inside a string
        ('{"verdict": "ok", "score":', "/score"),  # a key with no value
        ('{"verdict": "ok", "score": 4, "tags": ["a"', "/tags"),  # a schema list
        ('{"verdict": "ok"\n', ""),  # a required field missing
    ],
)
def test_a_cut_through_what_the_schema_holds_is_an_error_naming_it(mode: str, text: str, path: str) -> None:
    with pytest.raises(TruncatedOutputError) as info:
        load_json(text, ctx(mode, Review))
    assert info.value.errors[0]["path"] == path


def test_a_number_followed_by_a_line_break_is_complete() -> None:
    result = load_json('{"verdict": "ok", "summary": "s", "tags": [], "score": 4\n', ctx("lenient", Review))
    assert result.tree == {"verdict": "ok", "summary": "s", "tags": [], "score": 4}
    assert [r.kind for r in result.repairs] == ["close_truncated"]


def test_a_cut_inside_an_extra_member_drops_the_member_and_records_it() -> None:
    text = '{"verdict": "ok", "score": 4, "summary": "s", "tags": [], "reasoning": "The reviewer said'
    result = load_json(text, ctx("lenient", Review))
    assert result.tree == {"verdict": "ok", "score": 4, "summary": "s", "tags": []}
    assert [(r.kind, r.path, r.lossless) for r in result.repairs] == [
        ("truncated_extra", "/reasoning", False),
        ("close_truncated", "", False),
    ]


def test_a_trailing_comma_after_the_last_field_is_dropped_and_recorded() -> None:
    result = load_json('{"verdict": "ok", "score": 4, "summary": "s", "tags": [],', ctx("lenient", Review))
    assert result.tree == {"verdict": "ok", "score": 4, "summary": "s", "tags": []}
    assert [r.kind for r in result.repairs] == ["truncated_extra", "close_truncated"]


def test_optional_fields_before_a_present_one_were_omitted_after_the_cut_they_take_recorded_defaults() -> None:
    # summary comes before tags in the schema and tags is present: summary was omitted, not cut
    result = load_json('{"verdict": "ok", "score": 4, "tags": ["x"]\n', ctx("lenient", Review))
    assert [r.kind for r in result.repairs] == ["close_truncated"]
    # after score, summary and tags may have been cut: one lossy repair names both
    result = load_json('{"verdict": "ok", "score": 4\n', ctx("lenient", Review))
    defaults = [r for r in result.repairs if r.kind == "truncated_defaults"]
    assert len(defaults) == 1 and defaults[0].after == ["/summary", "/tags"] and not defaults[0].lossless


@pytest.mark.parametrize(
    "text",
    [
        '{"verdict": "ok", "score": 4, "summary": "s", "tags": [], "reasoning": "The reviewer said',
        '{"verdict": "ok", "score": 4\n',
        '{"verdict": "ok", "score": 4, "summary": "s", "tags": [],',
    ],
)
def test_strict_refuses_every_cut(text: str) -> None:
    with pytest.raises(TruncatedOutputError):
        load_json(text, ctx("strict", Review))


# -- duplicate keys ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"action": "search", "action": "delete_all"}', "/action"),
        ('{"action": "pay", "arguments": {"to": "alice", "to": "mallory"}}', "/arguments/to"),
        ("{'action': 'search', action: 'delete_all',}", "/action"),
    ],
)
def test_a_key_written_twice_with_different_values_is_ambiguous(mode: str, text: str, path: str) -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        load_json(text, ctx(mode, ToolCall))
    assert info.value.errors[0]["path"] == path
    assert "search" in str(info.value) or "alice" in str(info.value)


@pytest.mark.parametrize("mode", MODES)
def test_a_key_written_twice_with_the_same_value_is_merged_losslessly(mode: str) -> None:
    result = load_json('{"action": "run", "action": "run"}', ctx(mode, ToolCall))
    assert result.tree == {"action": "run"}
    assert [(r.kind, r.path, r.lossless) for r in result.repairs] == [("duplicate_key", "/action", True)]


def test_the_cheap_duplicate_check_never_misses_and_rarely_flags() -> None:
    assert has_duplicate_keys('{"a": 1, "b": {"c": 1}, "a": 2}')
    assert has_duplicate_keys('{"a": 1, "\\u0061": 2}')
    assert not has_duplicate_keys('[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}]')
    assert not has_duplicate_keys('{"a": "x\\": 1, \\"a\\": 2"}')
    assert not has_duplicate_keys("[1, 2, 3]")
    assert has_duplicate_keys('{"a": "\\ud800", "a": "\\udfff"}')  # lone surrogates: jiter refuses, the regex decides


def test_duplicates_are_found_with_their_paths_at_any_depth() -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        find_duplicates('[{"a": [{"k": 1, "k": {"x": 1}}]}]')
    assert info.value.errors[0]["path"] == "/0/a/0/k"


# -- through the parser ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_parse_reads_a_tuple_and_a_missing_colon_in_both_modes(mode: str) -> None:
    assert Parser(mode, entrypoints=False).parse('{"action" "run", "arguments": {"ids": (1, 2)}}', ToolCall) == (
        ToolCall(action="run", arguments={"ids": [1, 2]})
    )


def test_valid_json_inside_a_fence_is_read_once_without_repairs() -> None:
    result = Parser("strict", entrypoints=False).parse_result('Here:\n```json\n{"action": "run"}\n```\nDone.', ToolCall)
    assert result.value == ToolCall(action="run")
    assert all(r.stage == "extract" for r in result.repairs)


# -- linear, and only our own errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"action": "run", "arguments": {"code": "' + 'print(\\"hi\\")\\n' * 20_000,
        '{"action": "x", ' + "/* " * 20_000,
        '{"action": ' + "\u201c" * 20_000,
        '{"action": x, "b": "' + '\\"' * 20_000,
        "[" * 300 + "1" + "]" * 299,
        '{"a": "' + '"' * 20_000,
        "[" + '"a" ' * 20_000,
        "{" + "a " * 20_000,
    ],
    ids=["escaped-quotes", "open-comments", "curly-quotes", "escaped-quote-run", "deep", "quotes", "strings", "words"],
)
@pytest.mark.parametrize("mode", MODES)
def test_hostile_text_gives_our_own_error(text: str, mode: str) -> None:
    try:
        load_json(text, ctx(mode, ToolCall))
    except ParseError as exc:
        assert exc.errors and all(e["path"] == "" or e["path"].startswith("/") for e in exc.errors)


# -- the differential property -------------------------------------------------------------------------------------

_IDENT_KEYS_RE = re.compile(r"[a-z_][a-z0-9_]{0,6}")
_IDENT_KEYS = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda k: k not in {"true", "false", "null", "None", "True", "False", "undefined", "NaN", "Infinity"}
)
_KEYS = st.one_of(_IDENT_KEYS, st.text(max_size=6))
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**8), 10**8),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=8),
)
_DOCS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=10,
)
_SIMPLE = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.!?()[]{}:,/#*" + "éü€"
)  # strings that may be single-quoted: no quotes, backslashes or control characters


def _emit(value: Any, rnd: random.Random, made: Counter[str]) -> str:
    """The value as JSON text with random lossless mutations; `made` counts each one by repair kind."""
    if value is None or isinstance(value, bool):
        if rnd.random() < 0.3:
            made["python_literal"] += 1
            return {None: "None", True: "True", False: "False"}[value]
        return json.dumps(value)
    if isinstance(value, int):
        if abs(value) >= 1000 and rnd.random() < 0.25:
            made["number_underscores"] += 1
            return f"{value:_}"
        if rnd.random() < 0.15:
            made["hex_number"] += 1
            return hex(value)
        return str(value)
    if isinstance(value, float):
        return json.dumps(value)
    if isinstance(value, str):
        if value and set(value) <= _SIMPLE and rnd.random() < 0.3:
            made["single_quotes"] += 1
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=rnd.random() < 0.5)
    is_list = isinstance(value, list)
    members: list[str] = []
    items = value if is_list else list(value.items())
    for item in items:
        if is_list:
            members.append(_emit(item, rnd, made))
            continue
        key, inner = item
        inner_text = _emit(inner, rnd, made)
        if isinstance(key, str) and _IDENT_KEYS_RE.fullmatch(key) and rnd.random() < 0.3:
            made["bare_key"] += 1
            key_text = key
        else:
            key_text = json.dumps(key)
        if inner_text[0] in '"{[-0123456789' and key_text[0] != "'" and rnd.random() < 0.2:
            made["missing_colon"] += 1
            members.append(f"{key_text} {inner_text}")
        else:
            members.append(f"{key_text}: {inner_text}")
    text = ""
    for i, member in enumerate(members):
        if i:
            if rnd.random() < 0.15:
                made["missing_comma"] += 1
                text += "\n"
            else:
                text += ", "
        text += member
    if members and rnd.random() < 0.25:
        made["trailing_comma"] += 1
        text += ","
    if rnd.random() < 0.15:
        made["comment"] += 1
        text = " /* note */ " + text
    if is_list and rnd.random() < 0.2:
        made["python_tuple"] += 1
        if len(members) == 1 and not text.endswith(","):
            made["trailing_comma"] += 1  # `(x,)`: one item needs its comma to be a tuple (`(x)` is just x)
            text += ","
        return "(" + text + ")"
    return ("[" + text + "]") if is_list else ("{" + text + "}")


@settings(max_examples=150, deadline=None)
@given(doc=_DOCS, seed=st.integers(0, 2**32 - 1))
def test_any_document_with_lossless_mutations_reads_back_with_exactly_those_repairs(doc: Any, seed: int) -> None:
    made: Counter[str] = Counter()
    text = _emit(doc, random.Random(seed), made)
    reading = read(text)
    assert reading.cut is None
    assert json.loads(reading.json_text) == doc
    assert Counter(r.kind for r in reading.repairs) == made
    assert all(r.lossless for r in reading.repairs)
    assert all(r.offset is not None and 0 <= r.offset <= len(text) for r in reading.repairs)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=list("{}[]():,\"'\\ \n\tabTrueFalsNn0123456789.-+_x/*#“”‘’…"), max_size=50))
def test_any_text_is_read_or_fails_with_a_reader_failure(text: str) -> None:
    for lossy in (frozenset(), lossy_kinds(Parser("lenient", entrypoints=False).policy)):
        try:
            reading = read(text, lossy=lossy)
        except ReadFailure as failure:
            assert failure.path == "" or failure.path.startswith("/")
            assert 0 <= failure.offset <= len(text)
            continue
        if reading.cut is None:
            json.loads(reading.json_text)
        assert all(r.lossless or r.kind in lossy for r in reading.repairs)


# -- the C scanner's window ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [10, 600, 5_000, 70_000])
def test_a_valid_value_longer_than_the_first_window_is_read_whole(size: int) -> None:
    from resilient_parse.json.tokens import valid_value_end

    value = json.dumps({"a": "x" * size, "b": [1, 2, {"c": "y" * size}]})
    text = f"[{value}, 1,]"
    assert valid_value_end(text, 1) == (1 + len(value), -1)


@pytest.mark.parametrize("size", [10, 600, 5_000])
def test_an_invalid_value_reports_where_it_stops_being_valid(size: int) -> None:
    from resilient_parse.json.tokens import valid_value_end

    text = '{"a": "' + "x" * size + '", "b": 1,}'
    end, failed_at = valid_value_end(text, 0)
    assert end == -1 and failed_at == text.index("}")


def test_a_loose_stretch_records_each_repair_with_its_path_and_offset() -> None:
    text = "{id: 1, 'name': 'Bob', ok: True, tags: ['a', 'b',], n: None}"
    reading = read(text)
    assert json.loads(reading.json_text) == {"id": 1, "name": "Bob", "ok": True, "tags": ["a", "b"], "n": None}
    got = [(r.kind, r.path, r.offset) for r in reading.repairs]
    assert ("bare_key", "/id", 1) in got
    assert ("single_quotes", "/name", 8) in got and ("single_quotes", "/name", 16) in got
    assert ("python_literal", "/ok", 27) in got
    assert ("single_quotes", "/tags/1", 45) in got
    assert ("trailing_comma", "/tags", 48) in got
    for r in reading.repairs:
        assert r.offset is not None and text[r.offset : r.offset + len(str(r.before))] == r.before


@pytest.mark.parametrize(("text", "tree"), [("＂\\＂", "\\"), ("['a\\\\']", ["a\\"]), ("{'k': 'x\\\\'}", {"k": "x\\"})])
def test_a_backslash_right_before_a_closing_quote_stays_a_backslash(text: str, tree: Any) -> None:
    assert json.loads(read(text).json_text) == tree


# -- a cut inside a key that begins a missing field ----------------------------------------------------------------


class Contact(BaseModel):
    name: str
    age: int
    email: str | None = None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ['{"name": "Bob", "age": 30, "ema', '{"name": "Bob", "age": 30, ema'])
def test_a_cut_inside_a_key_that_begins_a_missing_field_is_truncated_output(mode: str, text: str) -> None:
    """The model was writing `email`: its value was cut, not omitted, so it must not become the default."""
    with pytest.raises(TruncatedOutputError) as info:
        Parser(mode=mode).parse(text, Contact)
    assert "email" in info.value.message or mode == "strict"


def test_a_cut_inside_a_key_the_schema_does_not_have_drops_it_as_a_recorded_guess() -> None:
    result = Parser(mode="lenient").parse_result('{"name": "Bob", "age": 30, "email": "b@x.c", "no', Contact)
    assert result.value == Contact(name="Bob", age=30, email="b@x.c")
    assert [r.kind for r in result.repairs if not r.lossless] == ["truncated_extra", "close_truncated"]


# -- one value with nothing around it (issue 12's breadth on the peers' suites) ------------------------------------

PARSERS = {mode: Parser(mode, entrypoints=False) for mode in MODES}

WHOLE_VALUES_LOSSLESS = [
    ("(1, 2)", [1, 2], "python_tuple"),
    ('("a", "b", "c")', ["a", "b", "c"], "python_tuple"),
    ("((1, 2), (3, 4))", [[1, 2], [3, 4]], "python_tuple"),
    ("'abc'", "abc", "single_quotes"),
    ("'foo\\'bar'", "foo'bar", "single_quotes"),
    ("\u2018foo\u2019", "foo", "fullwidth_punctuation"),
    ("`foo\u00b4", "foo", "single_quotes"),
    (".3", 0.3, "number_format"),
    ("-.3", -0.3, "number_format"),
    ("True", True, "python_literal"),
    ("None", None, "python_literal"),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("text", "value", "kind"), WHOLE_VALUES_LOSSLESS)
def test_a_text_that_is_one_value_written_loosely_is_read_in_both_modes(
    mode: str, text: str, value: Any, kind: str
) -> None:
    result = PARSERS[mode].parse_result(text, Any)
    assert result.value == value and type(result.value) is type(value)
    assert kind in [r.kind for r in result.repairs]


@pytest.mark.parametrize("mode", MODES)
def test_a_tuple_is_read_for_a_list_target_too(mode: str) -> None:
    assert PARSERS[mode].parse("(1, 2, 3)", list[int]) == [1, 2, 3]


@pytest.mark.parametrize("text", ['NumberLong("2")', "undefined"])
def test_a_whole_value_that_takes_a_lossy_repair_is_refused_in_strict(text: str) -> None:
    assert PARSERS["lenient"].parse(text, Any) in ("2", None)
    with pytest.raises(ParseError):
        PARSERS["strict"].parse(text, Any)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ['"abc', "'abc", "\u2018abc", '"\\u2605', "-", "2e", "2e+", ".", "`abc"])
def test_a_text_cut_inside_its_one_value_is_truncated_output(mode: str, text: str) -> None:
    with pytest.raises(TruncatedOutputError):
        PARSERS[mode].parse(text, Any)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ["abc", "hello world", "Null", "TRUE", "ES2020", "trueble"])
def test_a_word_of_prose_is_not_a_value_for_an_any_target(mode: str, text: str) -> None:
    with pytest.raises(NoCandidateError):
        PARSERS[mode].parse(text, Any)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ["1\n2", "1,2,3", "(1, 2) and more"])
def test_text_after_the_one_value_is_refused_not_dropped(mode: str, text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        PARSERS[mode].parse(text, Any)
    assert info.value.errors[0]["kind"] == "trailing_text"


# -- a word that starts with a digit but is no number --------------------------------------------------------------

DIGIT_WORDS = [
    ('{"key": 10-20}', {"key": "10-20"}, "/key"),
    ('{"date": 2024-10-18T18:35:22.229Z}', {"date": "2024-10-18T18:35:22.229Z"}, "/date"),
    ("[0.0.1, 2]", ["0.0.1", 2], "/0"),
    ('{"rowId": 57eeeeb1-450b-482c}', {"rowId": "57eeeeb1-450b-482c"}, "/rowId"),
    ("[1, 2notanumber]", [1, "2notanumber"], "/1"),
    ('{"here": "now", "key": 1/3, "foo": "bar"}', {"here": "now", "key": "1/3", "foo": "bar"}, "/key"),
]


@pytest.mark.parametrize(("text", "tree", "path"), DIGIT_WORDS)
def test_a_word_that_starts_with_a_digit_is_a_bare_string_in_lenient(text: str, tree: Any, path: str) -> None:
    got, made = loaded(text)
    assert got == tree
    assert made == [("bare_string", path)]
    reading = read(text, lossy=frozenset({"bare_string"}))
    offset = reading.repairs[0].offset
    assert offset is not None and text[offset:].startswith(str(reading.repairs[0].before))
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx("strict"))
    assert info.value.errors[0]["kind"] == "bad_number"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ['{"key": 1e }', "[2e+]", "[05e]", "[1.2.3x(]"])
def test_a_number_cut_before_its_exponent_or_run_into_other_text_is_still_refused(mode: str, text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx(mode))
    assert info.value.errors[0]["kind"] == "bad_number"


def test_a_digit_word_right_after_a_number_on_one_line_has_two_readings() -> None:
    with pytest.raises(UnrecoverableSyntaxError):
        load_json("[2 0.0.1 2]", ctx("lenient"))


def test_a_digit_word_the_text_ends_inside_is_a_cut() -> None:
    with pytest.raises(TruncatedOutputError):
        load_json("[1.2.3", ctx("lenient"))


# -- strings in backticks ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_strings_in_backticks_are_strings(mode: str) -> None:
    got, made = loaded("{`a\u00b4: `b\u00b4, `c`: [`d e`]}", mode)
    assert got == {"a": "b", "c": ["d e"]}
    assert made == [
        ("single_quotes", "/a"),
        ("single_quotes", "/a"),
        ("single_quotes", "/c"),
        ("single_quotes", "/c/0"),
    ]


@pytest.mark.parametrize("mode", MODES)
def test_a_template_string_is_not_a_string_value(mode: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError):
        load_json('{"a": `x ${y}`}', ctx(mode))


# -- the kinds of refusal say what was refused ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_an_elision_after_a_comment_where_a_key_should_be_is_an_elision(mode: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{"a":2,"b":3,/*comment1*/.../*comment2*/}', ctx(mode))
    assert info.value.errors[0]["kind"] == "elided"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("quote", ['"', "'"])
@pytest.mark.parametrize("line_break", ["\n", "\r\n", "\r", "\u2028"])
def test_a_backslash_before_a_raw_line_break_continues_the_line(mode: str, quote: str, line_break: str) -> None:
    # JSON5, JavaScript and Python read it as a continued line; a model writing raw line breaks may mean the backslash
    # (`C:\\Users\\ana\\⏎D:\\work`): a guess, refused in strict
    text = f'{{"s": {quote}first \\{line_break}second{quote}}}'
    if mode == "strict":
        with pytest.raises(ParseError):
            PARSERS[mode].parse(text, Any)
        return
    got, made = loaded(text, mode)
    assert got == {"s": "first second"}
    assert ("line_continuation", "/s") in made and ("invalid_escape", "/s") not in made


@pytest.mark.parametrize("mode", MODES)
def test_a_backslash_and_line_break_that_end_the_string_stay_as_written(mode: str) -> None:
    # a path's last backslash, then the closing quote on the next line: nothing to continue
    got, _ = loaded('{"path": "C:\\temp\\\n"}', mode)
    assert got == {"path": "C:\temp\\\n"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("written", "read"),
    [("\\d+", "\\d+"), ("C:\\Users\\ana", "C:\\Users\\ana"), ("it\\'s", "it's")],
)
def test_an_escape_json_lacks_is_kept_as_text_when_no_language_reads_it_as_a_character(
    mode: str, written: str, read: str
) -> None:
    got, _ = loaded(f'{{"s": "{written}"}}', mode)
    assert got == {"s": read}


@pytest.mark.parametrize("written", ["\\x41", "a\\0b", "\\u12", "\\U0001F600", "\\N{BULLET}"])
def test_an_escape_other_languages_read_as_a_character_is_a_guess(written: str) -> None:
    # `\x41` is "A" to Python and JSON5 and four characters kept as text: two readings, refused in strict
    text = f'{{"s": "{written}"}}'
    with pytest.raises(ParseError):
        PARSERS["strict"].parse(text, Any)
    got, made = loaded(text, "lenient")
    assert got == {"s": written} and ("ambiguous_escape", "/s") in made


@pytest.mark.parametrize("mode", MODES)
def test_a_piece_of_a_broken_answer_that_starts_like_json_is_not_the_answer(mode: str) -> None:
    # `{5}` alone is json-repair's Python set [5]; out of `[{5}s ` it would lose the list around it
    with pytest.raises(ParseError):
        PARSERS[mode].parse("[{5}s ", Any)


# -- JSON copied out of a JSON string, every quote escaped ---------------------------------------------------------

ESCAPED = [
    ('\\"hello world\\"', "hello world"),
    ('{\\"a\\": [1, \\"b\\"]}', {"a": [1, "b"]}),
    ('[\\"x\\", \\"y \\\\\\"z\\\\\\"\\"]', ["x", 'y "z"']),
]


@pytest.mark.parametrize(("text", "tree"), ESCAPED)
def test_json_with_every_quote_escaped_is_read_unescaped_in_lenient(text: str, tree: Any) -> None:
    got, made = loaded(text)
    assert got == tree
    assert made[0] == ("decode_json_string", "")
    assert not KINDS["decode_json_string"].lossless
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("strict"))


@pytest.mark.parametrize("text", ['\\"hello"', '\\"bad \\q\\"'])
def test_escaped_json_with_a_quote_left_unescaped_or_a_bad_escape_is_not_unescaped(text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("lenient"))


# -- numbers past a float's range ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text", ["1e999999", "[1e999999]", '{"a": -1E+999,}', "[1, 2e400,]", "{a: 1e999}", '{"a": [{"b": 1e999}], "c": 1,}']
)
def test_a_number_past_a_floats_range_is_refused_not_read_as_infinity(mode: str, text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx(mode))
    assert info.value.errors[0]["kind"] == "number_out_of_range"


def test_a_number_past_a_floats_range_in_a_stretch_copied_whole_is_refused_after_a_lossy_repair() -> None:
    # `[{"b": 1e999}]` is valid JSON the reader copies whole; the bare word after it is read (lenient), and the
    # decode of the repaired text still refuses the number
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{"a": [{"b": 1e999}], "c": x}', ctx("lenient"))
    assert info.value.errors[0]["kind"] == "number_out_of_range"


@pytest.mark.parametrize("text", ["[1e300]", '["1e999"]', "[" + "9" * 400 + "]", "[1e-999]"])
def test_numbers_in_range_strings_and_long_integers_are_not_refused(text: str) -> None:
    assert load_json(text, ctx("strict")).tree == json.loads(text)


# -- a missing closing quote right before the closers ---------------------------------------------------------------

MISSING_QUOTE_BEFORE_CLOSERS = [
    ('{"lorem": "sic tamet, quick brown fox. }', {"lorem": "sic tamet, quick brown fox."}, "/lorem"),
    ('{"url":"https://www.bible.com/}', {"url": "https://www.bible.com/"}, "/url"),
    ('{"time":"12:20}', {"time": "12:20"}, "/time"),
    ('["https://www.bible.com/]', ["https://www.bible.com/"], "/0"),
    ('["abc  ]\n', ["abc"], "/0"),
    ('[\n[\n"abc\n]\n]\n', [["abc"]], "/0/0"),
    ('{"a": ["x\n]}', {"a": ["x"]}, "/a/0"),
]


@pytest.mark.parametrize(("text", "tree", "path"), MISSING_QUOTE_BEFORE_CLOSERS)
def test_a_quote_missing_right_before_the_closers_is_added_in_lenient(text: str, tree: Any, path: str) -> None:
    got, made = loaded(text)
    assert got == tree
    assert made == [("missing_quote", path)]
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("strict"))


@pytest.mark.parametrize(
    "text",
    [
        '{a:"b,c,}',
        '{"a": "b, c: d}',
        '["https://x.y/,2]',
        '{"a": "   }',
        '{"a": "x, y z, w}',
        '["a +]',
        '["a\nb]',
        '["a\n]\n]',
    ],
)
def test_a_missing_quote_where_a_comma_may_end_the_value_is_not_placed(text: str) -> None:
    # after `b,c,` a trailing comma, after `b, c: d` or `x, y z, w` a member, in a list another item may follow
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("lenient"))


def test_a_code_fence_inside_brackets_is_not_dropped_by_json_repair() -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('[```\n{"a":"b"}\n```]', ctx("lenient"))
    assert "backtick" in info.value.message


# -- a closer with no container of its kind open -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tree", "path"),
    [
        ('[{"key":"value"}},{"key":"value"}]', [{"key": "value"}, {"key": "value"}], ""),
        ("[1}, 2]", [1, 2], ""),
    ],
)
def test_a_closer_with_no_container_of_its_kind_open_is_stray_in_lenient(text: str, tree: Any, path: str) -> None:
    got, made = loaded(text)
    assert got == tree
    assert made == [("stray_closer", path)]
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("strict"))


@pytest.mark.parametrize(
    ("text", "tree", "path"), [("[1, 2}", [1, 2], ""), ("[1,[}]", [1, []], "/1"), ("[[1}, 2]", [[1], 2], "/0")]
)
def test_a_wrong_closer_that_may_close_the_list_is_still_the_mismatched_one(text: str, tree: Any, path: str) -> None:
    got, made = loaded(text)
    assert got == tree
    assert made == [("mismatched_bracket", path)]


# -- an inner quote after an opening parenthesis or an equals sign ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{ "content": "[LINK]("https://google.com")" }', '[LINK]("https://google.com")'),
        ('{"html": "<h3 id="aaa">Experts - "Passie"?</h3>"}', '<h3 id="aaa">Experts - "Passie"?</h3>'),
    ],
)
def test_an_inner_quote_after_a_parenthesis_or_an_equals_sign_stays_text_in_lenient(text: str, value: str) -> None:
    got, made = loaded(text)
    assert list(got.values()) == [value]
    assert [k for k, _ in made] == ["inner_quote"]
    with pytest.raises(UnrecoverableSyntaxError):
        load_json(text, ctx("strict"))


# -- strict: an object closed too early is not an object with prose after it ---------------------------------------


@pytest.mark.parametrize(
    "text", ['{"key": "value"}, "key2": "value2"}', '{"a": {"x": 1}}, "b": 2}', '{"k": 1}, "k2" "v2"}']
)
def test_strict_refuses_an_object_closed_too_early_instead_of_returning_its_front(text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        PARSERS["strict"].parse(text, Any)
    assert "closed too early" in info.value.message
    assert PARSERS["lenient"].parse_result(text, Any).repairs[-1].kind in {"stray_closer", "missing_colon"}


@pytest.mark.parametrize("mode", MODES)
def test_escaped_quotes_that_do_not_read_as_one_level_of_escaping_have_two_readings(mode: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        PARSERS[mode].parse('\\"hello"', Any)
    assert info.value.errors[0]["kind"] == "ambiguous"


# -- a text that is one string with quotes inside left unescaped ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('"The TV is 72""', 'The TV is 72"'),
        ('"the set {a, b"} more"', 'the set {a, b"} more'),
        ('"the list [1, 2"] more"', 'the list [1, 2"] more'),
    ],
)
def test_a_text_that_is_one_string_with_inner_quotes_is_read_in_lenient(text: str, value: str) -> None:
    result = PARSERS["lenient"].parse_result(text, Any)
    assert result.value == value
    assert [r.kind for r in result.repairs] == ["inner_quote"]
    with pytest.raises(UnrecoverableSyntaxError):
        PARSERS["strict"].parse(text, Any)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", ['"a""b"', '"a" "b"', '"a"\n"b"'])
def test_two_strings_side_by_side_are_not_one_string(mode: str, text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError):
        PARSERS[mode].parse(text, Any)


@pytest.mark.parametrize("mode", MODES)
def test_a_key_written_twice_in_repaired_text_is_found_when_a_string_holds_a_colon(mode: str) -> None:
    # the reader's output is checked against the tree json.loads built; a colon in a string sends it to jiter
    with pytest.raises(AmbiguousMatchError) as info:
        load_json("{'action': 'http://x:80', action: 'delete_all',}", ctx(mode, ToolCall))
    assert info.value.errors[0]["path"] == "/action"
    result = load_json("{'action': 'http://x:80', 'b': 1,}", ctx(mode, ToolCall))
    assert result.tree == {"action": "http://x:80", "b": 1}


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize(
    "text",
    ["{'a': 'x' /* c */ }", "{'a': 'x' // c\n}", "{'a': 'x' # c\n}", "['a' /* c */, 'b']", "{'a': 'x', /* c */ }"],
)
def test_a_comment_after_a_single_quoted_string_closes_it_like_a_comma(text: str, mode: str) -> None:
    """A comment is structure: the quote before it closes the string (the streaming property found the refusal)."""
    result = Parser(mode=mode, entrypoints=False).parse_result(text, Any)
    assert result.value in ({"a": "x"}, ["a", "b"])
    assert "comment" in {r.kind for r in result.repairs}


def test_an_apostrophe_before_a_hash_inside_a_single_quoted_string_stays_text() -> None:
    assert Parser(entrypoints=False).parse_result("{'a': 'it's #1'}", Any).value == {"a": "it's #1"}


# -- loose stretches: the members that are JSON already are skipped whole, the others rewritten -------------------


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_loose_stretch_rewrites_only_its_python_members_and_keeps_the_strings_that_look_like_them(mode: str) -> None:
    text = '{"a": "x: True, y: None", "b": True, "c": [1, 2], "d": "e", "f": None, "g": [True, 3,], "h": 1}'
    tree, repairs = loaded(text, mode)
    assert tree == {"a": "x: True, y: None", "b": True, "c": [1, 2], "d": "e", "f": None, "g": [True, 3], "h": 1}
    assert repairs == [
        ("python_literal", "/b"),
        ("python_literal", "/f"),
        ("python_literal", "/g/0"),
        ("trailing_comma", "/g"),
    ]


_STYLE_KNOBS = ("single_quotes", "bare_keys", "python_literals", "trailing_commas", "drop_commas", "comments")


@given(
    S.examples(),
    st.integers(0, 2**32 - 1),
    st.sets(st.sampled_from(_STYLE_KNOBS)),
    st.sampled_from([None, 2]),
    st.sampled_from(["nested", "root", "root and text after"]),
)
@settings(max_examples=300)
def test_a_flat_object_read_in_one_match_reads_as_token_by_token(
    ex: S.Example, seed: int, knobs: set[str], indent: int | None, where: str
) -> None:
    """`json.runs.FLAT_OBJECT` reads an object of scalars and flat lists in one match: the same tree and the same
    repairs (kind, pointer, offset, before, after) — or the same failure — as reading it container by container."""
    tree = {"wrapped": [ex.tree, ex.tree]} if where == "nested" else ex.tree
    text = S.Emitter(S.Style(indent=indent, **{k: 1.0 for k in knobs}), random.Random(seed)).emit(tree)
    if where == "root and text after":
        text += random.Random(seed).choice([" // done", "}", ', "x": 1}', " and more", "\n"])
    lossy = lossy_kinds(Parser("lenient", entrypoints=False).policy)

    def reading(flat: re.Pattern[str]) -> Any:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(containers_module, "FLAT_OBJECT", flat)
            try:
                got = read(text, lossy=lossy)
            except ReadFailure as failure:
                return ("failure", failure.kind, failure.path, failure.offset)
        return (
            json.loads(got.json_text) if got.cut is None else got.cut,
            [(r.kind, r.path, r.offset, r.before, r.after) for r in got.repairs],
        )

    assert reading(containers_module.FLAT_OBJECT) == reading(re.compile("(?!)"))


@pytest.mark.parametrize("mode", ["lenient", "strict"])
@pytest.mark.parametrize("text", ["{\"a\": 'x' /", "['a' /", '{"a": "x" /'])
def test_a_lone_slash_that_ends_the_text_inside_containers_is_a_comment_cut_off(text: str, mode: str) -> None:
    """Its closers may be in the comment it starts, as for `//` at the end (found by an outside attack: after a
    single-quoted string it had become a stray '/')."""
    with pytest.raises(UnrecoverableSyntaxError) as caught:
        Parser(mode, entrypoints=False).parse(text, Any)
    assert caught.value.details[0].kind == "comment_at_end"


# -- JSON5 as the reader's yardstick (json5/json5-tests' valid files that the reader missed) ---------------------

JSON5_ROWS = [
    ("+Infinity", math.inf),
    ("[+0xC8, -0xC8, +0x0]", [200, -200, 0]),
    ('{"a": +Infinity}', {"a": math.inf}),
    ("// a comment ended by CR\r{\r  a: 1 // and another\r}", {"a": 1}),
    ("/* a JavaDoc comment\n * with asterisks\n */\ntrue", True),
    ("null // nothing here", None),
    ("// the answer\n5", 5),
    ("{\n\x0c  a: true\x0b}", {"a": True}),
    ('{\n  ümlåût: "ü", 名前: "x"\n}', {"ümlåût": "ü", "名前": "x"}),
    ('{sig\\u03A3ma: "the sum"}', {"sigΣma": "the sum"}),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("text", "expected"), JSON5_ROWS)
def test_json5_documents_read_as_json5_reads_them(mode: str, text: str, expected: Any) -> None:
    assert PARSERS[mode].parse(text, Any) == expected


@pytest.mark.parametrize("mode", MODES)
def test_a_word_with_prose_after_it_is_not_a_lone_value(mode: str) -> None:
    # only comments may follow a lone literal word: `true story …` is prose, not the value true
    with pytest.raises(ParseError):
        PARSERS[mode].parse("true story, we went there", Any)
