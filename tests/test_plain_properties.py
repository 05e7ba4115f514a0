"""Properties of plain-text answers (issue 14): for any choice target and any of its members, and for any bool or
int value, the plain renderings — bare, emphasised, labelled, alone in a sentence, in another case — parse to it;
a text that mentions two different members (or values) never parses, in either mode."""

from __future__ import annotations

import enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resilient_parse import ParseError, Parser
from resilient_parse.errors import AmbiguousMatchError

LENIENT = Parser("lenient", entrypoints=False)
STRICT = Parser("strict", entrypoints=False)

RENDERINGS = (
    "{}",
    "{}.",
    "**{}**",
    "*{}*.",
    "`{}`",
    "Answer: {}",
    "Final answer: **{}**",
    "The answer is {}.",
    "It is {}.",
    "{}\n\nThat is my answer.",
)
TWO_MEMBERS = (
    "{} or {}",
    "{}/{}",
    "{}, {}",
    "Either {} or {}.",
    "It is {}. Or maybe {}.",
    "Answer: {}\nSecond answer: {}",
    "**{}** and **{}**",
)
# words the renderings use, and words that mean something to the reader (bools, hedges, negations): a member
# spelled like one would be mentioned by the template itself
_TEMPLATE_WORDS = frozenset(
    [
        "answer",
        "final",
        "the",
        "is",
        "it",
        "that",
        "my",
        "second",
        "either",
        "or",
        "maybe",
        "and",
        "true",
        "false",
        "yes",
        "no",
        "not",
        "none",
        "null",
    ]
)
_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9).filter(
    lambda w: w not in _TEMPLATE_WORDS
)
_members = st.lists(_word, min_size=2, max_size=5, unique=True)


def _choice(words: list[str], as_enum: bool) -> Any:
    if as_enum:
        return enum.Enum("Drawn", {w.upper(): w for w in words})  # type: ignore[misc]
    from typing import Literal

    return Literal[tuple(words)]  # type: ignore[valid-type]


def _member(target: Any, word: str) -> Any:
    return target(word) if isinstance(target, type) and issubclass(target, enum.Enum) else word


@settings(max_examples=60, deadline=None)
@given(words=_members, pick=st.integers(0, 4), style=st.sampled_from(RENDERINGS), as_enum=st.booleans(), data=st.data())
def test_a_rendered_member_parses_to_it(words: list[str], pick: int, style: str, as_enum: bool, data: Any) -> None:
    target = _choice(words, as_enum)
    word = words[pick % len(words)]
    spelling = data.draw(st.sampled_from([word, word.upper(), word.title()] + ([word.upper()] if as_enum else [])))
    result = LENIENT.parse_result(style.format(spelling), target)
    assert result.value == _member(target, word)


@settings(max_examples=60, deadline=None)
@given(words=_members, style=st.sampled_from(TWO_MEMBERS), as_enum=st.booleans(), data=st.data())
def test_two_members_never_parse(words: list[str], style: str, as_enum: bool, data: Any) -> None:
    target = _choice(words, as_enum)
    first, second = data.draw(st.permutations(words))[:2]
    text = style.format(data.draw(st.sampled_from([first, first.upper()])), second)
    with pytest.raises(AmbiguousMatchError):
        LENIENT.parse_result(text, target)
    with pytest.raises(ParseError):
        STRICT.parse_result(text, target)


_BOOL_SPELLINGS = {True: ("true", "True", "TRUE", "yes", "Yes", "YES"), False: ("false", "False", "no", "No", "NO")}


@settings(max_examples=40, deadline=None)
@given(value=st.booleans(), style=st.sampled_from(RENDERINGS), data=st.data())
def test_a_rendered_bool_parses_to_it(value: bool, style: str, data: Any) -> None:
    spelling = data.draw(st.sampled_from(_BOOL_SPELLINGS[value]))
    assert LENIENT.parse(style.format(spelling), bool) is value


@settings(max_examples=40, deadline=None)
@given(value=st.integers(-(10**9), 10**9), grouped=st.booleans(), style=st.sampled_from(RENDERINGS))
def test_a_rendered_int_parses_to_it(value: int, grouped: bool, style: str) -> None:
    written = f"{value:,}" if grouped else str(value)
    assert LENIENT.parse(style.format(written), int) == value


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.integers(0, 10**6), min_size=2, max_size=2, unique=True),
    style=st.sampled_from(TWO_MEMBERS),
)
def test_two_different_numbers_never_parse(values: list[int], style: str) -> None:
    with pytest.raises(AmbiguousMatchError):
        LENIENT.parse_result(style.format(*values), int)
    with pytest.raises(ParseError):
        STRICT.parse_result(style.format(*values), int)


@settings(max_examples=30, deadline=None)
@given(words=_members, as_enum=st.booleans())
def test_a_lone_exact_value_is_the_only_reading_strict_allows(words: list[str], as_enum: bool) -> None:
    target = _choice(words, as_enum)
    assert STRICT.parse(words[0], target) == _member(target, words[0])
    with pytest.raises(ParseError):
        STRICT.parse_result(f"The answer is {words[0]}.", target)


@given(number=st.floats(allow_nan=False, allow_infinity=False), mode=st.sampled_from(["strict", "lenient"]))
@settings(max_examples=150)
def test_a_number_in_scientific_notation_is_never_another_number(number: float, mode: str) -> None:
    # `1e+22` once read as 22: the digits of an exponent are never a number of their own
    parser = Parser(mode, entrypoints=False)
    for text in (repr(number), f"The answer is {number!r}.", f"{number:e}"):
        for target in (int, float, list[int], list[float]):
            try:
                got = parser.parse(text, target)
            except ParseError:
                continue
            read = got[0] if isinstance(got, list) else got
            if not isinstance(got, list) or len(got) == 1:
                assert float(read) == float(text.removeprefix("The answer is ").rstrip(".")), (text, target, got)
