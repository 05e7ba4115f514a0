"""Syntax stage: the tokenizer's lossless repairs (with JSON Pointer paths and offsets), its honest failures on cut
output, and `load_json`'s order: json fast path, tokenizer, then json-repair only where the policy allows guesses."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from resilient_parse import ParseError, Parser, TruncatedOutputError, UnrecoverableSyntaxError
from resilient_parse.context import CallContext
from resilient_parse.stages.syntax import JSON_REPAIR_MAX_CHARS, SyntaxFailure, load_json, repair_syntax


def fix(text: str, allow_close: bool = False) -> tuple[Any, list[tuple[str, str, int | None]]]:
    """The repaired tree and the (kind, path, offset) of each repair."""
    out, repairs = repair_syntax(text, allow_close=allow_close, max_depth=64)
    return json.loads(out), [(r.kind, r.path, r.offset) for r in repairs]


def failure(text: str, allow_close: bool = False) -> SyntaxFailure:
    with pytest.raises(SyntaxFailure) as info:
        repair_syntax(text, allow_close=allow_close, max_depth=64)
    return info.value


def ctx(mode: str) -> CallContext:
    return Parser(mode, entrypoints=False).context(dict[str, Any])


# -- lossless repairs, each with its path and offset -------------------------------------------------------------


def test_trailing_comma_in_object_names_the_object_and_the_comma() -> None:
    assert fix('{"a": {"b": 1,}}') == ({"a": {"b": 1}}, [("trailing_comma", "/a", 13)])


def test_trailing_comma_in_list_names_the_list() -> None:
    assert fix('{"tags": ["x", "y",]}') == ({"tags": ["x", "y"]}, [("trailing_comma", "/tags", 18)])


def test_trailing_comma_at_root() -> None:
    assert fix("[1, 2,]") == ([1, 2], [("trailing_comma", "", 5)])


def test_missing_comma_between_members_names_the_next_member() -> None:
    assert fix('{"a": 1\n "b": 2}') == ({"a": 1, "b": 2}, [("missing_comma", "/b", 9)])


def test_missing_comma_between_list_items_names_the_next_item() -> None:
    assert fix('[{"a": 1}\n{"a": 2}]') == ([{"a": 1}, {"a": 2}], [("missing_comma", "/1", 10)])


def test_missing_comma_before_a_quoted_key_on_the_same_line() -> None:
    assert fix('{"k": "v" "k2": "v2"}') == ({"k": "v", "k2": "v2"}, [("missing_comma", "/k2", 10)])


def test_missing_comma_before_a_bare_word_needs_a_line_break() -> None:
    # on one line, `"He said "hi` is an unescaped quote, not a member without its comma
    f = failure('{"q": "He said "hi" to me"}')
    assert (f.kind, f.path, f.offset) == ("syntax", "/q", 16)


def test_a_quote_right_after_a_string_is_not_a_missing_comma() -> None:
    # `""", """` is three quotes, a comma and three quotes — not the strings "", ", " and ""
    f = failure('{"a": [""", """]}')
    assert (f.kind, f.path, f.offset) == ("adjacent_quotes", "/a/1", 9)


def test_a_doubled_quote_before_a_key_is_not_a_missing_comma() -> None:
    assert failure('{"text": "He said ""hi"" to me"}').kind == "adjacent_quotes"


def test_objects_with_nothing_between_them_still_get_their_comma() -> None:
    assert fix('[{"a": 1}{"a": 2}]') == ([{"a": 1}, {"a": 2}], [("missing_comma", "/1", 9)])


def test_two_numbers_on_one_line_without_comma_are_not_split() -> None:
    # "1 500" may be one number written with a thousands space
    assert failure("[1 500]").kind == "syntax"


def test_two_numbers_on_separate_lines_get_a_comma() -> None:
    assert fix("[1\n500]") == ([1, 500], [("missing_comma", "/1", 3)])


def test_line_block_and_hash_comments() -> None:
    tree, repairs = fix('{"a": 1, // one\n /* two */ "b": 2 # three\n}')
    assert tree == {"a": 1, "b": 2}
    assert [(k, off) for k, _, off in repairs] == [("comment", 9), ("comment", 17), ("comment", 34)]


def test_comment_markers_inside_strings_are_text() -> None:
    tree, repairs = fix('{"url": "http://x.org/#top", "c": "/* no */",}')
    assert tree == {"url": "http://x.org/#top", "c": "/* no */"}
    assert [k for k, _, _ in repairs] == ["trailing_comma"]


def test_python_literals_name_their_value() -> None:
    assert fix('{"ok": True, "v": [False, None]}') == (
        {"ok": True, "v": [False, None]},
        [("python_literal", "/ok", 7), ("python_literal", "/v/0", 19), ("python_literal", "/v/1", 26)],
    )


def test_bare_keys() -> None:
    assert fix("{name: 1, $ref: 2, snake_case: 3}") == (
        {"name": 1, "$ref": 2, "snake_case": 3},
        [("bare_key", "/name", 1), ("bare_key", "/$ref", 10), ("bare_key", "/snake_case", 19)],
    )


def test_single_quoted_strings_keep_their_apostrophes() -> None:
    tree, repairs = fix("{'name': 'Bob's Diner', 'note': 'it's Bob's'}")
    assert tree == {"name": "Bob's Diner", "note": "it's Bob's"}
    assert {k for k, _, _ in repairs} == {"single_quotes"}


def test_single_quoted_string_with_double_quotes_inside() -> None:
    assert fix("""{'q': 'say "hi"'}""")[0] == {"q": 'say "hi"'}


def test_escaped_quote_inside_single_quotes() -> None:
    assert fix("{'q': 'it\\'s'}")[0] == {"q": "it's"}


def test_single_quoted_value_path_and_offset() -> None:
    _, repairs = fix('{"a": {"b": \'x\'}}')
    assert repairs == [("single_quotes", "/a/b", 12)]


def test_raw_newline_and_tab_inside_a_string_are_escaped() -> None:
    assert fix('{"poem": "line one\nline\ttwo"}') == (
        {"poem": "line one\nline\ttwo"},
        [("control_character", "/poem", 9)],
    )


def test_valid_escapes_are_never_taken_for_invalid_ones() -> None:
    tree, repairs = fix('{"path": "C:\\\\Users\\\\bob", "q": "a\\\\", "u": "\\u00e9",}')
    assert tree == {"path": "C:\\Users\\bob", "q": "a\\", "u": "é"}
    assert [k for k, _, _ in repairs] == ["trailing_comma"]


def test_invalid_escape_is_kept_as_literal_text() -> None:
    assert fix('{"re": "\\d+"}') == ({"re": "\\d+"}, [("invalid_escape", "/re", 7)])


def test_full_width_punctuation_as_syntax() -> None:
    tree, repairs = fix('｛"a"：1，"b"：［2］｝')
    assert tree == {"a": 1, "b": [2]}
    assert {k for k, _, _ in repairs} == {"fullwidth_punctuation"}


def test_curly_quotes_as_string_delimiters() -> None:
    assert fix("{“a”: “b”}")[0] == {"a": "b"}


def test_curly_single_quotes_as_string_delimiters() -> None:
    assert fix("{‘location’: ‘Cape Town’, ‘days’: 3}") == (
        {"location": "Cape Town", "days": 3},
        [
            ("fullwidth_punctuation", "/location", 1),
            ("fullwidth_punctuation", "/location", 13),
            ("fullwidth_punctuation", "/days", 26),
        ],
    )


def test_curly_apostrophe_inside_curly_single_quotes_stays_an_apostrophe() -> None:
    # ’ closes the string only where structure follows it, as ' does: "it’s" keeps its apostrophe
    assert fix("{‘note’: ‘it’s Bob’s’, ‘ok’: true}")[0] == {"note": "it’s Bob’s", "ok": True}


def test_curly_single_quote_that_never_closes_is_a_cut_string() -> None:
    f = failure("{‘note’: ‘it’s never closed")
    assert (f.kind, f.path, f.truncated) == ("truncated", "/note", True)


def test_fullwidth_quotation_marks_as_string_delimiters() -> None:
    assert fix("{＂action＂: ＂search_web＂}") == (
        {"action": "search_web"},
        [("fullwidth_punctuation", "/action", 1), ("fullwidth_punctuation", "/action", 11)],
    )


def test_fullwidth_quoted_string_keeps_ascii_double_quotes_inside() -> None:
    assert fix('{＂q＂: ＂say "hi"＂}')[0] == {"q": 'say "hi"'}


def test_bom_and_nbsp_outside_strings_are_dropped_inside_kept() -> None:
    tree, repairs = fix('\ufeff{\u00a0"a": "x\u00a0y",}')
    assert tree == {"a": "x\u00a0y"}
    assert [k for k, _, _ in repairs] == ["invisible_character", "invisible_character", "trailing_comma"]


def test_number_spellings() -> None:
    tree, repairs = fix("[.5, 5., +5, -0.25]")
    assert tree == [0.5, 5.0, 5, -0.25]
    assert [(k, p) for k, p, _ in repairs] == [("number_format", f"/{i}") for i in range(3)]


def test_leading_zeros_are_not_guessed() -> None:
    assert failure('{"zip": 01234}').path == "/zip"


def test_keys_with_slash_and_tilde_are_escaped_in_pointers() -> None:
    assert fix('{"a/b": {"c~d": [1,]}}')[1] == [("trailing_comma", "/a~1b/c~0d", 18)]


# -- honest failures ---------------------------------------------------------------------------------------------


def test_cut_inside_a_string_names_the_string() -> None:
    f = failure('{"user": {"email": "bob@exa', allow_close=True)
    assert (f.kind, f.path, f.truncated) == ("truncated", "/user/email", True)


def test_cut_inside_a_number_names_the_number() -> None:
    f = failure('{"age": 3', allow_close=True)
    assert (f.path, f.truncated) == ("/age", True)


def test_cut_inside_a_list_item_names_that_item() -> None:
    assert failure('{"v": [1, "ab', allow_close=True).path == "/v/1"
    assert failure("[1, 2", allow_close=True).path == "/1"


def test_cut_inside_a_literal() -> None:
    f = failure('{"ok": tr', allow_close=True)
    assert (f.path, f.truncated) == ("/ok", True)


def test_cut_after_a_key_names_the_key() -> None:
    assert failure('{"a": 1, "b":', allow_close=True).path == "/b"


def test_cut_inside_a_list_is_an_error_even_when_closing_is_allowed() -> None:
    f = failure('{"items": [{"a": 1}, {"a": 2}', allow_close=True)
    assert (f.path, f.truncated) == ("/items", True)


def test_cut_with_only_objects_open_is_closed_when_allowed() -> None:
    tree, repairs = fix('{"a": {"b": "x"\n', allow_close=True)
    assert tree == {"a": {"b": "x"}}
    assert repairs == [("close_truncated", "", 16)]


def test_cut_right_after_a_comma_is_never_closed() -> None:
    f = failure('{"a": {"b": "x",\n', allow_close=True)
    assert (f.kind, f.path, f.truncated) == ("truncated", "/a", True)


def test_cut_with_only_objects_open_is_an_error_when_not_allowed() -> None:
    f = failure('{"a": {"b": "x"')
    assert (f.kind, f.path, f.truncated) == ("truncated", "/a", True)


def test_unquoted_value_is_not_guessed() -> None:
    f = failure('{"name": Bob}')
    assert (f.kind, f.path, f.offset) == ("syntax", "/name", 9)


def test_undefined_is_not_read_unless_allowed() -> None:
    f = failure('{"folder": "inbox", "cursor": undefined}')
    assert (f.kind, f.path, f.offset) == ("js_literal", "/cursor", 30)


def test_undefined_reads_as_null_when_allowed_and_is_recorded_as_lossy() -> None:
    out, repairs = repair_syntax('{"cursor": undefined}', allow_close=False, max_depth=64, allow_undefined=True)
    assert json.loads(out) == {"cursor": None}
    assert [(r.kind, r.path, r.offset, r.lossless) for r in repairs] == [("js_literal", "/cursor", 11, False)]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"steps": [{"id": 1}, ...]}', "/steps"),
        ('{"steps": [ ... ]}', "/steps"),
        ("[{…}, ...]", "/0"),
        ('{"a": 1, …}', ""),
        ('{"a": ...}', "/a"),
    ],
)
def test_items_elided_with_dots_are_an_error_naming_the_container(text: str, path: str) -> None:
    f = failure(text, allow_close=True)
    assert (f.kind, f.path) == ("elided", path)
    assert "elides" in f.message


def test_dots_inside_strings_are_text() -> None:
    assert fix("{'q': 'wait...', 'r': '…'}")[0] == {"q": "wait...", "r": "…"}


def test_text_after_the_value_is_reported() -> None:
    assert failure('{"a": 1} trailing').kind == "trailing_text"


def test_nesting_limit() -> None:
    with pytest.raises(SyntaxFailure) as info:
        repair_syntax("[" * 10 + "]" * 10, allow_close=False, max_depth=5)
    assert info.value.kind == "too_deep"


def test_the_input_string_is_not_changed() -> None:
    text = "{'a': 'it's', b: True,}"
    copy = "".join(list(text))
    repair_syntax(text, allow_close=True, max_depth=64)
    assert text == copy


# -- load_json: the order of readers -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_valid_json_takes_the_fast_path_with_no_repairs(mode: str) -> None:
    loaded = load_json('{"a": [1, 2]}', ctx(mode))
    assert loaded.tree == {"a": [1, 2]}
    assert loaded.repairs == ()


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_tokenizer_repairs_are_lossless_in_both_modes(mode: str) -> None:
    loaded = load_json("{'a': [1, 2,], // c\n}", ctx(mode))
    assert loaded.tree == {"a": [1, 2]}
    assert json.loads(loaded.json_text) == loaded.tree
    assert all(r.lossless and r.stage == "syntax" for r in loaded.repairs)


def test_strict_does_not_call_json_repair() -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{"q": "He said "hi" to me"}', ctx("strict"))
    assert info.value.errors[0]["path"] == "/q"


def test_lenient_reads_unescaped_quotes_itself_and_records_a_lossy_inner_quote() -> None:
    # issue 12: the reader makes this repair itself (recorded precisely), instead of asking json-repair
    loaded = load_json('{"q": "He said "hi" to me"}', ctx("lenient"))
    assert loaded.tree == {"q": 'He said "hi" to me'}
    assert [(r.kind, r.path, r.lossless) for r in loaded.repairs] == [("inner_quote", "/q", False)]


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_cut_string_is_an_error_in_both_modes_not_a_json_repair_guess(mode: str) -> None:
    with pytest.raises(TruncatedOutputError) as info:
        load_json('{"name": "Bob", "bio": "Born in', ctx(mode))
    assert info.value.errors[0]["path"] == "/bio"
    assert info.value.errors[0]["kind"] == "truncated"


def test_lenient_does_not_close_a_free_form_object_cut_after_a_complete_member() -> None:
    # issue 12: a free-form dict cut before its '}' may have lost members (the schema cannot say): an error
    with pytest.raises(TruncatedOutputError) as info:
        load_json('{"name": "Bob", "age": 30\n', ctx("lenient"))
    assert info.value.errors[0]["path"] == ""


def test_strict_refuses_to_close_output_cut_after_a_complete_member() -> None:
    with pytest.raises(TruncatedOutputError):
        load_json('{"name": "Bob", "age": 30\n', ctx("strict"))


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize(
    "text", ['{"amount": [-', '{"amount": -', '{"amount": [1e+', '{"amount": [-.', '{"amount": [+\n']
)
def test_output_cut_before_a_numbers_digits_is_an_error_not_an_empty_list(mode: str, text: str) -> None:
    # json-repair would read `{"amount": [-` as {"amount": []}: the number that was being written is gone
    with pytest.raises(TruncatedOutputError) as info:
        load_json(text, ctx(mode))
    assert info.value.errors[0]["kind"] == "truncated"
    assert info.value.errors[0]["path"].startswith("/amount")


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_output_cut_after_a_comma_is_an_error_in_both_modes(mode: str) -> None:
    with pytest.raises(TruncatedOutputError):
        load_json('{"name": "Bob", "age": 30,', ctx(mode))


def test_lenient_reads_undefined_as_null_and_records_a_lossy_js_literal() -> None:
    loaded = load_json('{"folder": "inbox", "cursor": undefined}', ctx("lenient"))
    assert loaded.tree == {"folder": "inbox", "cursor": None}
    assert [(r.kind, r.path, r.lossless) for r in loaded.repairs] == [("js_literal", "/cursor", False)]


def test_strict_refuses_undefined_without_asking_json_repair() -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{"folder": "inbox", "cursor": undefined}', ctx("strict"))
    assert [(e["kind"], e["path"]) for e in info.value.errors] == [("js_literal", "/cursor")]


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_elided_items_are_an_error_in_both_modes(mode: str) -> None:
    text = '{"goal": "Write the report", "steps": [{"id": 1, "tool": "bigquery"}, ...]}'
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx(mode))
    assert [(e["kind"], e["path"]) for e in info.value.errors] == [("elided", "/steps")]
    assert "elides items with '...'" in str(info.value)


def test_elided_items_after_an_unreadable_spot_are_not_handed_to_json_repair() -> None:
    # the tokenizer stops at the unescaped quote first; json-repair would then drop the '…' and keep one step
    text = '{"goal": "the "annual" report", "steps": [{"id": 1}, …]}'
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx("lenient"))
    assert info.value.errors[0]["kind"] == "elided"
    assert info.value.errors[0]["offset"] == text.index("…")


def test_json_repair_output_that_drops_text_is_refused() -> None:
    # json-repair returns summary "Short" and silently loses "sweet and": not the object the model wrote
    text = '{"title": "Juno", "summary": "Short", sweet and "fun", "rating_note": "none"}'
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx("lenient"))
    err = info.value.errors[0]
    assert (err["path"], err["offset"]) == ("/sweet", 44)  # where the tokenizer stopped: "sweet" read as a key
    assert "would drop part of the text" in err["message"]


def test_json_repair_output_that_drops_a_number_is_refused() -> None:
    with pytest.raises(UnrecoverableSyntaxError, match="numbers 2024, 3, 15"):
        load_json('{"title": "Standup", "date": datetime.date(2024, 3, 15)}', ctx("lenient"))


@pytest.mark.parametrize(
    ("text", "expected", "kinds"),
    [
        ('{"q": "He said "hi" to me"}', {"q": 'He said "hi" to me'}, ["inner_quote"]),
        ('{"name": "Bob, "age": 30}', {"name": "Bob", "age": 30}, ["missing_quote", "missing_quote"]),
        ('{"action": search_web, "n": 7.50}', {"action": "search_web", "n": 7.5}, ["bare_string"]),
        ('["a",, "b"]', ["a", "b"], ["json_repair"]),
        (
            '{"s": "Jeunet\'s "feel-good" film,\nfull of pleasures."}',
            {"s": 'Jeunet\'s "feel-good" film,\nfull of pleasures.'},
            ["inner_quote"],
        ),
        ('{"note": "caf\\u00e9 "x"", "ok": True}', {"note": 'café "x"', "ok": True}, ["inner_quote", "python_literal"]),
    ],
    ids=[
        "inner-quotes",
        "missing-close-quote",
        "bare-value-and-number-format",
        "double-comma",
        "raw-newline",
        "escape",
    ],
)
def test_lenient_readings_that_keep_all_the_text_are_used(text: str, expected: Any, kinds: list[str]) -> None:
    # issue 12: the reader makes the repairs whose reading is unambiguous itself; json-repair only for the rest
    loaded = load_json(text, ctx("lenient"))
    assert loaded.tree == expected
    assert sorted(r.kind for r in loaded.repairs) == sorted(kinds)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [""", """]}',
        '{"text": "He said ""hi"" to me"}',
        # found by the lossy-mutation property: read as a cut member, it became {} and the field its default
        '{"name": "x""}',
        '{\n  "name": "x""\n}',
    ],
)
def test_adjacent_quotes_are_not_handed_to_json_repair(text: str) -> None:
    # json-repair reads them as [", ", ""] and {"text": "He said ", "hi": "to me"}: guesses, not the text
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json(text, ctx("lenient"))
    assert info.value.errors[0]["kind"] == "adjacent_quotes"


def test_json_repair_output_that_turns_an_escape_into_letters_is_refused() -> None:
    # json-repair (asked because of the doubled comma) reads the form feed `\\f` as a backslash and an f
    with pytest.raises(UnrecoverableSyntaxError, match=r"escapes \\f"):
        load_json('{"a": "x\\fy",, "b": 1}', ctx("lenient"))


def test_json_repair_output_that_drops_a_quote_is_refused() -> None:
    # `""x"` is `"x` with its quote unescaped; json-repair returns "x" — the quote the model wrote is gone
    with pytest.raises(UnrecoverableSyntaxError, match="1 quote"):
        load_json('{"a": 1, "s": ""x"}', ctx("lenient"))


def test_json_repair_output_that_drops_a_minus_sign_is_refused() -> None:
    # `- 5` (a space after the sign) is read by json-repair as 5: the sign the model wrote is gone
    with pytest.raises(UnrecoverableSyntaxError, match="1 minus sign"):
        load_json('{"a": [- 5]}', ctx("lenient"))


@pytest.mark.parametrize(
    "text",
    [
        '{"count": \u22125}',  # U+2212 MINUS SIGN: json-repair reads 5
        '{"count": \u20135}',  # an en dash written as a minus
        '{"count": \uff0d5}',  # a full-width hyphen-minus
        '{"ok": !true}',  # a negation: json-repair reads True
        '{"ok": \u00actrue}',
        '{"count": <5}',  # a bound, not a value
        '{"count": \u22655}',
        '{"count": ~5}',
        '{"count": 5+}',
        '{"t": 5%}',
        '{"count": 5?}',
        "[1,, (3)]",  # parentheses
        "[1,, 2;]",  # a semicolon
    ],
)
def test_json_repair_output_that_drops_any_character_is_refused(text: str) -> None:
    # every non-space character the text wrote outside its structure is content: a sign, a negation, a bound or a
    # unit json-repair cannot place and drops would hand back a different value
    with pytest.raises(UnrecoverableSyntaxError, match="json-repair's reading would drop part of the text"):
        load_json(text, ctx("lenient"))


def test_json_repair_output_that_drops_a_literal_word_is_refused() -> None:
    # json-repair reads `"xxxxx" true` as "xxxxx" and drops the `true` after it
    with pytest.raises(UnrecoverableSyntaxError, match="letters 'ertu'"):
        load_json('{"b": "xxxxx" true}', ctx("lenient"))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{'key1', 'key2'}", "turns the text's object into an array"),  # a Python set
        ("[1,, 2], [3]", "joins several values"),  # json-repair's [[1, 2], [3]]
        ('{"v": {5}', "drops 1 opening bracket"),  # an inner set read as [5]
    ],
)
def test_json_repair_output_that_changes_a_container_type_is_refused(text: str, why: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError, match=why):
        load_json(text, ctx("lenient"))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"a": [1, 2,, #3], "b": 2}', "numbers 3"),  # json-repair ends the comment at `]`, the reader does not
        ('{"a": [1,, 2], # note', "a comment runs to the end of the text with containers still open"),
    ],
)
def test_json_repair_output_that_reads_a_comment_otherwise_is_refused(text: str, why: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError, match=why):
        load_json(text, ctx("lenient"))


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("[/* a */,/* b */1,2,3]", [1, 2, 3]),  # comments and a leading comma
        ('{"a":\u180e"foo"}', {"a": "foo"}),  # an invisible separator, white space to JSON readers
        ("{url:https://www.bible.com/}", {"url": "https://www.bible.com/"}),  # `//` inside a bare word
        ("{'a': None,, 'b': 'None'}", {"a": None, "b": "None"}),  # None is null
        ("[1,, +5]", [1, 5]),  # a plus sign is the same number
    ],
)
def test_json_repair_output_that_keeps_every_character_is_still_used(text: str, tree: Any) -> None:
    loaded = load_json(text, ctx("lenient"))
    assert loaded.tree == tree
    assert [r.kind for r in loaded.repairs] == ["json_repair"]


def test_an_inner_quote_before_the_closing_braces_keeps_the_braces_as_structure() -> None:
    # json-repair read loc as `R"hx"}` (a bracket turned into text, refused by a guard); the reader keeps the
    # braces as structure and records the inner quote (issue 12: the reader makes this repair itself)
    loaded = load_json('{"p": {"c": null, "loc": "R"hx"}}', ctx("lenient"))
    assert loaded.tree == {"p": {"c": None, "loc": 'R"hx'}}
    assert [(r.kind, r.path) for r in loaded.repairs] == [("inner_quote", "/p/loc")]


def test_json_repair_output_that_adds_a_quote_to_a_string_is_refused() -> None:
    # json-repair (asked because of the doubled comma) reads `"\u001f["` as '\x1f["': the closing quote the text
    # wrote became part of the value
    with pytest.raises(UnrecoverableSyntaxError, match="a string the text does not hold"):
        load_json('[{"a": "",, "t": "\\u001f[", "c": null}]', ctx("lenient"))


def test_the_quote_before_a_closing_brace_closes_the_string() -> None:
    # json-repair read `"C:\q"x"}` as 'C:\\q"x"' (refused by a guard); the reader ends the string at the quote
    # before `}` and records the inner quote
    loaded = load_json('{"a": "C:\\q"x"}', ctx("lenient"))
    assert loaded.tree == {"a": 'C:\\q"x'}
    assert sorted(r.kind for r in loaded.repairs) == ["inner_quote", "invalid_escape"]


def test_json_repair_is_not_asked_to_close_a_candidate_the_text_goes_on_after() -> None:
    # the scanner ends the span at the `]` inside `""k]"`; json-repair would close `[{"a": [], "b": ""k]` as b='k'
    whole = '[{"a": [], "b": ""k]"}]'
    span = '[{"a": [], "b": ""k]'
    within = replace(ctx("lenient"), text=whole)
    with pytest.raises(UnrecoverableSyntaxError, match="a piece of a longer answer"):
        load_json(span, within)


def test_json_repair_still_reads_a_candidate_followed_by_prose() -> None:
    within = replace(ctx("lenient"), text='Here: {"q": "He said "hi" to me"} — done.')
    assert load_json('{"q": "He said "hi" to me"}', within).tree == {"q": 'He said "hi" to me'}


@pytest.mark.parametrize("opener", ["{", "[", '{"a": '])
@pytest.mark.parametrize("depth", [20_000, 100_000])
def test_deep_nesting_is_refused_naming_the_limit(depth: int, opener: str) -> None:
    # how its time grows: benchmarks/adversarial_timing.py (deep_open_braces, deep_open_brackets, deep_open_objects)
    with pytest.raises(UnrecoverableSyntaxError) as info:
        Parser(entrypoints=False).parse_result(opener * depth, Any)
    assert info.value.errors[0]["kind"] == "too_deep"
    assert "Policy.max_depth" in str(info.value)


def test_error_message_says_where() -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        load_json('{"a": [1, 2], "b": nope}', ctx("strict"))
    err = info.value
    assert "/b" in str(err)
    assert err.errors[0]["offset"] == 19
    json.dumps(err.to_dict())


# -- hostile text --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[" + "{'a': 'it\\'s', b: True, // c\n}," * 5_000 + "]",
        '{"a": "' + "\\\\" * 100_000 + '"',  # many backslashes, then the cut
        "{'a': '" + "'x" * 100_000,  # a single-quoted string that never closes
        "[" + "/*" * 100_000,  # unclosed comments
        '{"a": "' + "'" * 100_000 + '",}',
    ],
    ids=["dense-repairs", "backslashes", "open-single-quote", "open-comments", "apostrophes"],
)
def test_hostile_text_ends_in_json_or_a_syntax_failure(text: str) -> None:
    # how its time grows (linear): benchmarks/adversarial_timing.py's tokenizer_* cases, run by `make test-slow`
    try:
        out, _ = repair_syntax(text, allow_close=True, max_depth=64)
    except SyntaxFailure:
        return
    json.loads(out)


# -- properties --------------------------------------------------------------------------------------------------

JSONISH = st.text(alphabet=list("{}[]:,\"'\\ \n\tabTrueFalsNn0123456789.-+/*#｛｝：，“”‘’＂…\ufeff\u00a0"), max_size=60)


@given(JSONISH)
def test_the_tokenizer_writes_json_or_fails_with_a_syntax_failure(text: str) -> None:
    for allow_close in (False, True):
        try:
            out, repairs = repair_syntax(text, allow_close=allow_close, max_depth=64)
        except SyntaxFailure as f:
            assert f.path == "" or f.path.startswith("/")
            assert 0 <= f.offset <= len(text)
            continue
        json.loads(out)
        for r in repairs:
            assert r.path == "" or r.path.startswith("/")
            assert r.offset is not None and 0 <= r.offset <= len(text)
            assert r.lossless or (allow_close and r.kind == "close_truncated")


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=5), c),
        max_leaves=12,
    )
)
def test_the_tokenizer_reads_valid_json_unchanged(tree: Any) -> None:
    out, repairs = repair_syntax(json.dumps(tree), allow_close=False, max_depth=64)
    assert json.loads(out) == tree
    assert repairs == []


def test_json_repair_is_not_asked_to_guess_at_huge_candidates() -> None:
    # the doubled comma is what the reader cannot read (it reads bare `key: value` members itself now)
    text = '{"a": "x",, ' + "key: value, " * 2_000 + "}"
    assert len(text) > JSON_REPAIR_MAX_CHARS
    with pytest.raises(UnrecoverableSyntaxError, match="too long to guess"):
        load_json(text, ctx("lenient"))


def test_json_repair_is_not_asked_to_guess_at_many_bare_members_under_the_size_cap() -> None:
    # json-repair scans ahead to the end at each `, key: value` here: n² steps for a 19 KB candidate
    text = '{"a": "x",, ' + "key: value, " * 1_600 + "}"
    assert len(text) < JSON_REPAIR_MAX_CHARS
    with pytest.raises(UnrecoverableSyntaxError, match="too many unquoted members"):
        load_json(text, ctx("lenient"))


def test_a_long_candidate_with_inner_quotes_still_goes_to_json_repair() -> None:
    items = [f'{{"id": {i}, "text": "He said "hi" to me"}}' for i in range(400)]
    text = "[" + ", ".join(items) + "]"
    assert 10_000 < len(text) < JSON_REPAIR_MAX_CHARS
    loaded = load_json(text, ctx("lenient"))
    assert loaded.tree == [{"id": i, "text": 'He said "hi" to me'} for i in range(400)]


def test_json_repair_is_not_used_when_its_reading_splits_one_value_into_several() -> None:
    # `["x"y" ;]` has no comma: json-repair's ['x', 'y', ';'] invents one (the stray `;` is what the reader cannot
    # read; `["x"y"]` alone it reads as one string with an inner quote)
    with pytest.raises(UnrecoverableSyntaxError, match="commas the text does not have"):
        load_json('["x"y" ;]', ctx("lenient"))


def test_json_repair_still_reads_an_inner_quote_that_needs_no_new_separator() -> None:
    assert load_json('["He said "hi" there"]', ctx("lenient")).tree == ['He said "hi" there']


def test_decode_refuses_a_float_past_its_range_and_reads_everything_else_as_json_loads() -> None:
    from resilient_parse.stages.valid_json import decode, has_big_exponent

    for text in ('[1e300, "1e999", 2E-400]', '{"a": 1.5e+99}', "[" + "9" * 400 + "]"):
        assert decode(text) == json.loads(text)
    for text in ("1e999999", '{"a": [1, -2.5E+400]}', "[1e0309]"):
        assert has_big_exponent(text)
        with pytest.raises(ValueError):
            decode(text)


def test_the_lossy_kinds_a_policy_allows_are_the_same_for_equal_policies_and_differ_by_mode() -> None:
    from resilient_parse.policy import LENIENT, STRICT
    from resilient_parse.stages.syntax import lossy_kinds

    assert lossy_kinds(STRICT) == frozenset()
    assert lossy_kinds(LENIENT)  # the reader's guesses: lenient allows them
    narrowed = replace(LENIENT, forbidden_kinds=frozenset(lossy_kinds(LENIENT)))
    assert lossy_kinds(narrowed) == frozenset()
    assert lossy_kinds(replace(narrowed)) == lossy_kinds(narrowed)


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("1e999999", float),
        ('{"a": [1.5, -2E+400]}', dict[str, list[float]]),
        ("[1e0309]", Any),
        ('Here it is:\n```json\n{"a": 1e999}\n```', dict[str, float]),
    ],
)
def test_valid_json_with_a_number_past_a_float_s_range_is_refused_not_read_as_inf(
    mode: str, text: str, target: Any
) -> None:
    parser = Parser(mode, entrypoints=False)
    for call in (parser.parse, parser.parse_result):
        with pytest.raises(UnrecoverableSyntaxError) as info:
            call(text, target)
        assert info.value.errors[0]["kind"] == "number_out_of_range"


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_an_exponent_written_in_a_string_or_in_range_is_read_as_it_stands(mode: str) -> None:
    from resilient_parse.stages.valid_json import refuse_out_of_range

    parser = Parser(mode, entrypoints=False)
    text = '{"id": "4e567ab", "note": "1e999", "x": 1e300, "y": 2E-400}'
    result = parser.parse_result(text, dict[str, Any])
    assert result.value == {"id": "4e567ab", "note": "1e999", "x": 1e300, "y": 0.0}
    assert result.repairs == ()
    refuse_out_of_range(text)  # the generous test matches; the exact one finds every float finite
    refuse_out_of_range("{bad json 1e999")  # not JSON: left to the syntax stage


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_a_text_pydantic_found_not_json_is_not_scanned_by_json_loads_again(mode: str) -> None:
    from unittest import mock

    from resilient_parse.stages import syntax

    seen: list[str] = []
    real = syntax.decode

    def spy(text: str) -> Any:
        seen.append(text)
        return real(text)

    parser = Parser(mode, entrypoints=False)
    broken = '{"a": [1, 2], "b": "x",}'
    with mock.patch.object(syntax, "decode", spy):
        assert parser.parse(broken, dict[str, Any]) == {"a": [1, 2], "b": "x"}
        assert parser.parse_result(f"Here:\n```json\n{broken}\n```", dict[str, Any]).value == {"a": [1, 2], "b": "x"}
        with pytest.raises(TruncatedOutputError):
            parser.parse('{"a": [1, 2], "b": "x"', dict[str, Any])  # cut before its '}'
    assert seen and all(text.startswith('{"a": [1, 2], "b": "x"}') for text in seen)  # only the reader's output


def test_the_out_of_range_test_runs_only_for_targets_that_read_floats() -> None:
    from pydantic import BaseModel, ConfigDict, TypeAdapter

    from resilient_parse.parser import reads_floats

    class Plain(BaseModel):
        a: int
        b: list[str] = []

    class Loose(BaseModel):
        model_config = ConfigDict(extra="allow")
        a: int

    class Scored(BaseModel):
        a: int
        score: float | None = None

    floatless: list[Any] = [int, str, Plain, list[Plain], dict[str, int], tuple[int, str], int | None]
    floaty: list[Any] = [float, Any, Loose, Scored, list[Scored], dict[str, Any], complex]
    assert [reads_floats(TypeAdapter(t).core_schema) for t in floatless] == [False] * len(floatless)
    assert [reads_floats(TypeAdapter(t).core_schema) for t in floaty] == [True] * len(floaty)
    for mode in ("strict", "lenient"):
        parser = Parser(mode, entrypoints=False)
        for text, target in (('{"a": 1e999}', Plain), ('{"a": 1, "x": 1e999}', Loose), ("[1e999]", list[int])):
            with pytest.raises(ParseError):  # an int never holds it; extra members of any type may
                parser.parse(text, target)
        assert parser.parse('{"a": 1, "b": ["1e999"]}', Plain) == Plain(a=1, b=["1e999"])


def test_a_validated_value_is_probed_for_infinity_where_its_schema_holds_floats() -> None:
    from pydantic import BaseModel, TypeAdapter

    from resilient_parse.parser import inf_probe

    class Row(BaseModel):
        a: float
        b: float | None = None
        c: list[float] = []
        d: dict[str, float] = {}
        name: str = ""

    probe = inf_probe(TypeAdapter(list[Row]).core_schema)
    assert probe is not None
    inf = float("inf")
    assert not probe([Row(a=1.0), Row(a=2.0, b=3.0, c=[4.0], d={"x": 5.0})])
    for row in (Row(a=inf), Row(a=1.0, b=-inf), Row(a=1.0, c=[1.0, inf]), Row(a=1.0, d={"x": inf})):
        assert probe([Row(a=1.0), row])
    assert inf_probe(TypeAdapter(Any).core_schema) is None  # unknown shapes: the text is tested instead
    for mode in ("strict", "lenient"):
        parser = Parser(mode, entrypoints=False)
        with pytest.raises(UnrecoverableSyntaxError):
            parser.parse('[{"a": 1.5}, {"a": 2, "c": [1, 1e999]}]', list[Row])
        assert parser.parse('[{"a": 1.5, "name": "1e999"}]', list[Row]) == [Row(a=1.5, name="1e999")]
