"""Acceptance table for plain-text answers (issue 14): scalar and choice targets answered in prose — a judge's
"**True**", a classifier's "The sentiment is positive.", a scorer's "12,111", a router's "TECH_SUPPORT", a list
written as bullets or one comma-separated line — and every refusal: two members, a hedge, a negation, arithmetic,
several numbers, a refusal to answer, and strict mode, which allows only a lone exact value.

Each row gives the output as it came and, for each mode, either the value with the exact repairs (kind, JSON
Pointer) that produce it, or the error class and error kind it must raise.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, Parser
from resilient_parse.errors import (
    AmbiguousMatchError,
    NoCandidateError,
    RefusalError,
    SchemaMismatchError,
    UnrecoverableSyntaxError,
)

# -- targets, as call sites declare them -----------------------------------------------------------------------------

Sentiment = Literal["positive", "negative", "neutral"]
Rating = Literal[1, 2, 3, 4, 5]


class Route(enum.Enum):
    BILLING = "billing"
    TECH_SUPPORT = "tech_support"
    SALES = "sales"
    ACCOUNT = "account"


class Num(enum.Enum):
    ONE = "one"
    TWO = "two"


class Priority(enum.IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3


class Item(BaseModel):
    name: str
    quantity: int


class Color(enum.Enum):
    RED = "red"
    CRIMSON = "red"  # an alias of RED
    BLUE = "blue"


# -- the table -------------------------------------------------------------------------------------------------------

R = tuple[str, str]  # (repair kind, JSON Pointer)


@dataclass(frozen=True)
class Got:
    value: Any
    repairs: tuple[R, ...] = ()


@dataclass(frozen=True)
class Refused:
    cls: type[ParseError]
    kind: str


Outcome = Got | Refused
SAME: Any = None  # strict: the same outcome as lenient
NOT_IN_STRICT = Refused(UnrecoverableSyntaxError, "repair_not_allowed")
"""A lossy plain reading in strict mode: refused, saying which repair the policy does not allow."""


@dataclass(frozen=True)
class Row:
    id: str
    target: Any
    text: str
    lenient: Outcome
    strict: Outcome
    pending: str = ""  # why the lenient outcome waits for a change outside this files (an xfail until then)

    def outcome(self, mode: str) -> Outcome:
        return self.lenient if mode == "lenient" else self.strict


def row(id: str, target: Any, text: str, lenient: Outcome, strict: Outcome | None = SAME, pending: str = "") -> Row:
    return Row(id, target, text, lenient, lenient if strict is None else strict, pending)


def got(value: Any, *kinds: str | R) -> Got:
    """The value and its repairs; a bare kind means a repair at the root ("")."""
    return Got(value, tuple(k if isinstance(k, tuple) else (k, "") for k in kinds))


def refused(cls: type[ParseError], kind: str) -> Refused:
    return Refused(cls, kind)


AMBIGUOUS = refused(AmbiguousMatchError, "ambiguous_plain_answer")
HEDGED = refused(AmbiguousMatchError, "hedged_plain_answer")
NEGATED = refused(AmbiguousMatchError, "negated_plain_answer")
ARITHMETIC = refused(AmbiguousMatchError, "arithmetic_plain_answer")
REFUSAL = refused(RefusalError, "refusal")
NOTHING = refused(NoCandidateError, "no_candidate")
UNCLEAR_NUMBER = refused(AmbiguousMatchError, "ambiguous_number")
PLAIN = "plain_answer"

BOOLS = [
    row("a lone Python-style True", bool, "True", got(True, "plain_value")),
    row("a lone False with a period", bool, "False.", got(False, PLAIN), NOT_IN_STRICT),
    row("yes in bold", bool, "**Yes**", got(True, PLAIN), NOT_IN_STRICT),
    row("a lone no", bool, "no", got(False, PLAIN), NOT_IN_STRICT),
    row("NO in capitals", bool, "NO", got(False, PLAIN), NOT_IN_STRICT),
    row("labelled: Answer: True", bool, "Answer: True", got(True, PLAIN), NOT_IN_STRICT),
    row("a bold final answer", bool, "Final answer: **false**", got(False, PLAIN), NOT_IN_STRICT),
    row("true in a sentence", bool, "The statement is true.", got(True, PLAIN), NOT_IN_STRICT),
    row("yes leading a sentence", bool, "Yes, the claim holds.", got(True, PLAIN), NOT_IN_STRICT),
    row("yes and true agree", bool, "Yes, that is true.", got(True, PLAIN), NOT_IN_STRICT),
    row("a fenced false", bool, "```\nfalse\n```", got(False, "plain_value")),
    row("after a reasoning block", bool, "<think>it could be yes</think>\nNo", got(False, PLAIN), NOT_IN_STRICT),
    row("a lone True after reasoning", bool, "<think>hmm</think>\nTrue", got(True, "plain_value")),
    row("an explanation after the answer", bool, "true\n\nThe text says so.", got(True, PLAIN), NOT_IN_STRICT),
    row("'so no' after a clause", bool, "The date has passed, so no.", got(False, PLAIN), NOT_IN_STRICT),
    row(
        "a wrapped yes",
        bool,
        '{"answer": "yes"}',
        got(True, "unwrap_wrapper"),
        refused(SchemaMismatchError, "bool_type"),
    ),
    row("yes and no", bool, "yes and no", AMBIGUOUS),
    row("true for one, false for another", bool, "True for A, false for B", AMBIGUOUS),
    row("yes on one line, no on the next", bool, "Yes\nNo", AMBIGUOUS),
    row("yes or no?", bool, "Yes or no?", AMBIGUOUS),
    row("not true", bool, "Not true", NEGATED),
    row("isn't true", bool, "It isn't true.", NEGATED),
    row("maybe yes", bool, "Maybe yes", HEDGED),
    row("probably false", bool, "Probably false.", HEDGED),
    row("it depends, without a value", bool, "It depends.", NOTHING),
    row("a refusal", bool, "I cannot answer that.", REFUSAL),
    row("a refusal beside a yes", bool, "I can't help with that. Yes, I know.", REFUSAL),
    row("a negation far back in the sentence", bool, "It is not the case that the answer is True.", NEGATED),
    row(
        "a negation in the sentence before does not count",
        bool,
        "It is not hard. Yes.",
        got(True, PLAIN),
        NOT_IN_STRICT,
    ),
]

NUMBERS = [
    row("thousands separators", int, "12,111", got(12111, PLAIN, "number_from_string"), NOT_IN_STRICT),
    row("separators and decimals", float, "12,111.123", got(12111.123, PLAIN, "number_from_string"), NOT_IN_STRICT),
    row("a number in a sentence", int, "The total is 42.", got(42, PLAIN), NOT_IN_STRICT),
    row("a bold labelled float", float, "Answer: **3.5**", got(3.5, PLAIN), NOT_IN_STRICT),
    row("a price in dollars", float, "Total: $1,299.99", got(1299.99, PLAIN, "number_from_string"), NOT_IN_STRICT),
    row("the same number twice", int, "It is 42, definitely 42.", got(42, PLAIN), NOT_IN_STRICT),
    row("a number before a noun", int, "12 apples", got(12, PLAIN), NOT_IN_STRICT),
    row("a negative number and a word", int, "-5 degrees", got(-5, PLAIN), NOT_IN_STRICT),
    row("a Decimal", Decimal, "Rate: 0.10", got(Decimal("0.10"), PLAIN), NOT_IN_STRICT),
    row("an Optional number, labelled", int | None, "Answer: 7", got(7, PLAIN), NOT_IN_STRICT),
    row("None for an Optional number", int | None, "None", got(None, PLAIN), NOT_IN_STRICT),
    row("a fenced number", int, "```\n12,111\n```", got(12111, PLAIN, "number_from_string"), NOT_IN_STRICT),
    row("a fraction is not computed", float, "1/5", ARITHMETIC),
    row("a score out of ten", int, "Score: 8/10", ARITHMETIC),
    row("a product", int, "3 * 4", ARITHMETIC),
    row("a difference", int, "10 - 2", ARITHMETIC),
    row("x over x is still arithmetic", int, "1/1", ARITHMETIC),
    row("two numbers", int, "The answer is 42 out of 100", AMBIGUOUS),
    row("a range", int, "between 10 and 12", AMBIGUOUS),
    row("one number or another", int, "42 or 43", AMBIGUOUS),
    row("a date is not a number", int, "2024-01-02", AMBIGUOUS),
    row("approximately", int, "approximately 40", HEDGED),
    row(
        "a decimal comma is a guess for a float",
        float,
        "1,234",
        refused(AmbiguousMatchError, "ambiguous_number"),
        NOT_IN_STRICT,
    ),
    row("a decimal comma is not cut", float, "0,5", UNCLEAR_NUMBER),
    row("a decimal comma above one is not cut", float, "3,5", UNCLEAR_NUMBER),
    row("a decimal comma with a unit is not cut", float, "1,5 kg", UNCLEAR_NUMBER),
    row("European grouping is not cut at the comma", float, "1.234,56", UNCLEAR_NUMBER),
    row("a two-digit group is no thousands group", int, "12,34", UNCLEAR_NUMBER),
    row("a four-digit group is no thousands group", int, "1,2345", UNCLEAR_NUMBER),
    row("a version-like number is not cut at the second dot", float, "1.2.3", UNCLEAR_NUMBER),
    row("a lower bound", int, "at least 42", HEDGED),
    row("more than", int, "more than 42", HEDGED),
    row("an upper bound", int, "up to 42", HEDGED),
    row("a less-than sign", int, "<42", HEDGED),
    row("a greater-or-equal sign", int, ">= 42", HEDGED),
    row("a trailing plus", int, "42+", HEDGED),
    row("a tilde", int, "~42", HEDGED),
    row("approx. in brackets", int, "42 (approx.)", HEDGED),
    row("or more", int, "42 or more", HEDGED),
    row("a number in words", int, "three", NOTHING),
    row("a version tag holds no number", int, "v2", NOTHING),
    row("a refusal for a number", int, "I won't do that.", REFUSAL),
]

CHOICES = [
    row("the exact value", Sentiment, "positive", got("positive", "plain_value")),
    row("another case", Sentiment, "Positive", got("positive", PLAIN), NOT_IN_STRICT),
    row("bold, capitals, period", Sentiment, "**NEUTRAL**.", got("neutral", PLAIN), NOT_IN_STRICT),
    row("in a sentence", Sentiment, "The sentiment is negative.", got("negative", PLAIN), NOT_IN_STRICT),
    row("after a label", Sentiment, "Sentiment: positive", got("positive", PLAIN), NOT_IN_STRICT),
    row("a value: description line", Sentiment, "positive: praises the product", got("positive", PLAIN), NOT_IN_STRICT),
    row("in backticks", Sentiment, "`negative`", got("negative", PLAIN), NOT_IN_STRICT),
    row(
        "a labelled line does not outvote the members mentioned before it",
        Sentiment,
        "Reasoning: it mentions positive and negative aspects.\nFinal answer: neutral",
        AMBIGUOUS,
    ),
    row("an enum value with a space", Route, "tech support", got(Route.TECH_SUPPORT, PLAIN), NOT_IN_STRICT),
    row("an enum value in PascalCase", Route, "TechSupport", got(Route.TECH_SUPPORT, PLAIN), NOT_IN_STRICT),
    row("an enum name", Route, "TECH_SUPPORT", got(Route.TECH_SUPPORT, PLAIN), NOT_IN_STRICT),
    row("a route in a sentence", Route, "Send it to sales.", got(Route.SALES, PLAIN), NOT_IN_STRICT),
    row("a route after a label", Route, "Route: billing", got(Route.BILLING, PLAIN), NOT_IN_STRICT),
    row("an enum name in capitals", Num, "ONE", got(Num.ONE, PLAIN), NOT_IN_STRICT),
    row("an enum value as written", Num, "two", got(Num.TWO, "plain_value")),
    row("an IntEnum by name", Priority, "HIGH", got(Priority.HIGH, PLAIN), NOT_IN_STRICT),
    row("an IntEnum name in a label", Priority, "Priority: medium", got(Priority.MEDIUM, PLAIN), NOT_IN_STRICT),
    row("an enum alias", Color, "crimson", got(Color.RED, PLAIN), NOT_IN_STRICT),
    row("an alias and its value agree", Color, "Crimson, i.e. red.", got(Color.RED, PLAIN), NOT_IN_STRICT),
    row("a rating after a label", Rating, "Rating: 4", got(4, PLAIN), NOT_IN_STRICT),
    row("a rating before a noun", Rating, "4 stars", got(4, PLAIN), NOT_IN_STRICT),
    row("an Optional choice", Sentiment | None, "Neutral.", got("neutral", PLAIN), NOT_IN_STRICT),
    row("a hedge between two members", Sentiment, "positive or neutral", AMBIGUOUS),
    row("two members with a slash", Sentiment, "positive/negative", AMBIGUOUS),
    row("two members in a sentence", Sentiment, "Somewhere between positive and neutral.", AMBIGUOUS),
    row("mostly one, partly another", Sentiment, "Mostly positive, partly negative", HEDGED),
    row("maybe a member", Sentiment, "I'd say maybe positive", HEDGED),
    row("a negated member", Sentiment, "The review is not positive.", NEGATED),
    row("a negated member without a subject", Sentiment, "not negative", NEGATED),
    row("two routes", Route, "billing or sales", AMBIGUOUS),
    row("two IntEnum members", Priority, "2 or 3", AMBIGUOUS),
    row("a member and the alias of another", Color, "red and blue", AMBIGUOUS),
    row("a rating as a fraction names two ratings", Rating, "4/5", AMBIGUOUS),
    row("a negating prefix is the opposite", Sentiment, "non-negative", NEGATED),
    row("un- glued to a member", Sentiment, "un-positive", NEGATED),
    row("mostly", Sentiment, "mostly positive", HEDGED),
    row("a suffix glued to a member", Sentiment, "positive-ish", HEDGED),
    row("a rating bound", Rating, "at least 4", HEDGED),
    row("no member at all", Sentiment, "happy", NOTHING),
    row("a refusal for a choice", Sentiment, "I'm sorry, I can't classify this.", REFUSAL),
]

STRINGS = [
    row("a bare word", str, "hello", got("hello", "plain_text"), NOT_IN_STRICT),
    row("a labelled answer", str, "Answer: Paris", got("Paris", "plain_text"), NOT_IN_STRICT),
    row("a fenced answer", str, "```\nSELECT 1;\n```", got("SELECT 1;", "plain_text"), NOT_IN_STRICT),
    row(
        "a sentence after a reasoning block",
        str,
        "<think>the capital…</think>\nThe capital is Paris.",
        got("The capital is Paris.", "plain_text"),
        NOT_IN_STRICT,
    ),
    row("a JSON string is decoded, in both modes", str, '"hello"', got("hello")),
    row("a refusal is not the string", str, "I'm sorry, I can't help with that.", REFUSAL),
    row("an apology is not the string", str, "I apologize, but as an AI I cannot share that.", REFUSAL),
    row("an empty answer", str, "   ", refused(NoCandidateError, "empty")),
    row(
        "an example line is not part of the string",
        str,
        "Answer: hello\nExample: bye",
        refused(AmbiguousMatchError, "example_in_plain_answer"),
    ),
]

LISTS = [
    row("bullets of enum values", list[Num], "- one\n- two", got([Num.ONE, Num.TWO], "plain_list"), NOT_IN_STRICT),
    row("a comma line of enum values", list[Num], "one, two", got([Num.ONE, Num.TWO], "plain_list"), NOT_IN_STRICT),
    row(
        "a labelled tag line",
        list[str],
        "Tags: red, blue, green",
        got(["red", "blue", "green"], "plain_list"),
        NOT_IN_STRICT,
    ),
    row("a comma line of numbers", list[int], "1, 2, 3", got([1, 2, 3], "plain_list"), NOT_IN_STRICT),
    row(
        "numbered choices",
        list[Sentiment],
        "1. positive\n2. negative",
        got(["positive", "negative"], "plain_list"),
        NOT_IN_STRICT,
    ),
    row(
        "bullets after an intro line",
        list[Route],
        "Here are the routes:\n- billing\n- sales",
        got([Route.BILLING, Route.SALES], "plain_list"),
        NOT_IN_STRICT,
    ),
    row(
        "words joined by and",
        list[str],
        "red, blue and green",
        got(["red", "blue", "green"], "plain_list"),
        NOT_IN_STRICT,
    ),
    row("booleans in a line", list[bool], "yes, no, yes", got([True, False, True], "plain_list"), NOT_IN_STRICT),
    row("a hedged item", list[Sentiment], "- positive\n- maybe negative", HEDGED),
    row("an item naming two members", list[Sentiment], "positive or negative", AMBIGUOUS),
    row("an item that is no number", list[int], "- 1\n- two", NOTHING),
    row("prose after the bullets", list[Route], "- billing\n- sales\nHope this helps!", NOTHING),
    row(
        "a sign-off after a blank line",
        list[Route],
        "- billing\n- sales\n\nHope this helps!",
        got([Route.BILLING, Route.SALES], "plain_list"),
        NOT_IN_STRICT,
    ),
    row("prose around the bullets naming another value", list[Route], "- billing\n\nor maybe sales", NOTHING),
    row("prose between the bullets", list[Route], "- billing\nand also\n- sales", NOTHING),
    row("a member spelled like a hedge word", Literal["nearly", "far"], "Nearly.", got("nearly", PLAIN), NOT_IN_STRICT),
    row("a sentence with commas is not a list", list[str], "I like it, but not much", NOTHING),
    row("a refusal for a list", list[str], "I must decline this request.", REFUSAL),
    row("'or' makes a list a choice", list[int], "1, 2, or 3", AMBIGUOUS),
]

PEN, INK = '{"name": "pen", "quantity": 2}', '{"name": "ink", "quantity": 1}'
PEN_INK = [Item(name="pen", quantity=2), Item(name="ink", quantity=1)]
NOT_A_LIST = refused(SchemaMismatchError, "list_type")
OBJECTS_IN_PROSE = [
    row(
        "the first and the second",
        list[Item],
        f"Here is the first: {PEN} and the second: {INK}",
        got(PEN_INK, "join_values"),
        NOT_A_LIST,
    ),
    row(
        "one object per labelled line",
        list[Item],
        f"First item: {PEN}\nSecond item: {INK}",
        got(PEN_INK, "join_values"),
        NOT_A_LIST,
    ),
    row(
        "objects joined by 'then'",
        list[Item],
        f"Items: {PEN}, then {INK}.",
        got(PEN_INK, "join_values"),
        NOT_A_LIST,
    ),
    row(
        "JSON Lines",
        list[Item],
        f"{PEN}\n{INK}",
        got(PEN_INK, "join_values"),
        refused(UnrecoverableSyntaxError, "trailing_text"),
    ),
    row(
        "an example is not one of the items",
        list[Item],
        f"For example: {PEN}. The items are: {INK}",
        got(PEN_INK[1:], "extract_prose", "scalar_to_list"),
        NOT_A_LIST,
    ),
    row(
        "a corrected object replaces the draft",
        list[Item],
        f"The first draft was {PEN}. Corrected: {INK}",
        got(PEN_INK[1:], "extract_prose", "scalar_to_list"),
        NOT_A_LIST,
    ),
    row(
        "a rejected object is not one of the items",
        list[Item],
        f"Do not use {PEN}. Use {INK}",
        got(PEN_INK[1:], "extract_prose", "scalar_to_list"),
        NOT_A_LIST,
    ),
    row(
        "an alternative is no second item",
        list[Item],
        f"{PEN} or maybe {INK}",
        refused(AmbiguousMatchError, "ambiguous_candidates"),
        refused(UnrecoverableSyntaxError, "trailing_text"),
    ),
]

ROWS = BOOLS + NUMBERS + CHOICES + STRINGS + LISTS + OBJECTS_IN_PROSE
PARSERS = {"lenient": Parser("lenient", entrypoints=False), "strict": Parser("strict", entrypoints=False)}
CASES = [
    pytest.param(r, mode, marks=pytest.mark.xfail(strict=True, reason=r.pending))
    if r.pending and mode == "lenient"
    else (r, mode)
    for r in ROWS
    for mode in PARSERS
]


def test_the_table_is_big_enough_and_refuses_visibly() -> None:
    assert len({r.id for r in ROWS}) == len(ROWS), "row ids must be unique"
    refusals = [r for r in ROWS if isinstance(r.lenient, Refused)]
    assert len(ROWS) >= 100
    assert len(refusals) * 3 >= len(ROWS)


@pytest.mark.parametrize(("case", "mode"), CASES, ids=lambda c: c if isinstance(c, str) else c.id)
def test_plain_answer(case: Row, mode: str) -> None:
    check(PARSERS[mode], case.text, case.target, case.outcome(mode), mode)


def check(parser: Parser, text: str, target: Any, expected: Outcome, mode: str) -> None:
    """The parse gives exactly the expected value and repairs, or the expected error (class and kind)."""
    if isinstance(expected, Got):
        result = parser.parse_result(text, target)
        assert result.value == expected.value
        assert type(result.value) is type(expected.value)
        assert sorted((r.kind, r.path) for r in result.repairs) == sorted(expected.repairs)
        if mode == "strict":
            assert all(r.lossless for r in result.repairs)
        return
    with pytest.raises(expected.cls) as info:
        parser.parse_result(text, target)
    kinds = [e["kind"] for e in info.value.errors]
    assert expected.kind in kinds, kinds


def test_an_ambiguity_names_what_was_mentioned() -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        PARSERS["lenient"].parse_result("positive or neutral", Sentiment)
    assert info.value.errors[0]["got"] == ["positive", "neutral"]
    assert "'positive'" in str(info.value) and "'neutral'" in str(info.value)


def test_every_plain_repair_says_what_it_read() -> None:
    result = PARSERS["lenient"].parse_result("The sentiment is **Negative**.", Sentiment)
    (repair,) = result.repairs
    assert (repair.kind, repair.before, repair.after, repair.lossless) == (
        "plain_answer",
        "Negative",
        "negative",
        False,
    )
    assert repair.offset == "The sentiment is **".__len__()


def test_json_in_the_text_is_read_as_json_not_as_words() -> None:
    """An answer that holds JSON for the target is the JSON's: the words around it are not a second reading."""
    result = PARSERS["lenient"].parse_result('The label is negative, as JSON: ["positive"]', list[Sentiment])
    assert result.value == ["positive"]
    assert "plain_list" not in [r.kind for r in result.repairs]


@pytest.mark.parametrize("mode", PARSERS)
def test_a_float_out_of_range_is_refused(mode: str) -> None:
    with pytest.raises(ParseError):
        PARSERS[mode].parse_result("1e999999", float)


# -- a number past a float's range is refused, never read as infinity or zero ----------------------------------------


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize(
    "text",
    ["-" + "1" * 5000, "1" * 5000 + ".5", "The value is " + "1" * 400 + ".", "about 1e-400", "1.8e308"],
)
def test_a_plain_number_past_a_floats_range_is_refused(mode: str, text: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        Parser(mode=mode, entrypoints=False).parse(text, float)
    assert info.value.details[0].kind == "number_out_of_range"


@pytest.mark.parametrize(("text", "value"), [("1.7e308", 1.7e308), ("5e-324", 5e-324), ("-2.5e300", -2.5e300)])
def test_a_plain_number_at_a_floats_edge_is_read(text: str, value: float) -> None:
    assert Parser(mode="lenient", entrypoints=False).parse(f"{text} is the answer", float) == value
