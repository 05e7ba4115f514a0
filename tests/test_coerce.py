"""Value coercion, function by function: what each coercion offers, what it refuses, and that a value which
already fits (the error-driven second pass offers those too) gets nothing rather than a no-op repair."""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from resilient_parse import Parser, Policy
from resilient_parse.context import CallContext, Coercion
from resilient_parse.errors import SchemaMismatchError
from resilient_parse.schema import ChoiceView, FieldView, ListView, ModelView, ScalarView, TypeView, build_view
from resilient_parse.stages.coerce import coerce
from resilient_parse.stages.coerce.choices import match_choice
from resilient_parse.stages.coerce.embedded import decode_json_string
from resilient_parse.stages.coerce.numbers import number_from_string
from resilient_parse.stages.coerce.shapes import unwrap

LENIENT = Parser("lenient", entrypoints=False)
STRICT = Parser("strict", entrypoints=False)


class Mood(enum.Enum):
    HAPPY = "happy"
    VERY_SAD = "very_sad"


class Fields(BaseModel):
    count: int = 0
    value: float = 0.0
    delay_minutes: int = 0
    weight_kg: float = 0.0
    price_usd: float = 0.0
    ratio: float = Field(0.0, le=1)
    score_percent: float = 0.0
    when: dt.date | None = None
    at: dt.datetime | None = None
    label: str = ""
    tags: list[str] = []
    days: int = 1
    total: float = 0.0


class Item(BaseModel):
    name: str


def ctx(parser: Parser = LENIENT, target: Any = Fields) -> CallContext:
    return parser.context(target)


def field(name: str) -> FieldView:
    view = build_view(Fields)
    assert isinstance(view, ModelView)
    return view.fields[name]


def offer(value: Any, name: str, parser: Parser = LENIENT) -> Coercion | None:
    fv = field(name)
    return coerce(value, fv.type, fv, f"/{name}", ctx(parser))


def value_of(result: Coercion | None) -> Any:
    assert result is not None and result.error is None, result
    return result.value


def error_kind(result: Coercion | None) -> str:
    assert result is not None and result.error is not None, result
    return result.error.kind


# -- enums and Literals -----------------------------------------------------------------------------------------

MOOD = ChoiceView(values=("happy", "very_sad"), enum_cls=Mood)
LEVEL = ChoiceView(values=("low", "medium", "high"))


@pytest.mark.parametrize(
    ("given", "expected", "kind"),
    [
        ("HAPPY", "happy", "enum_value"),
        ("Very Sad", "very_sad", "enum_value"),
        ("very-sad", "very_sad", "enum_value"),
        ("VERY_SAD", "very_sad", "enum_value"),  # the member name
        ("hapy", "happy", "enum_fuzzy"),
        ("very", "very_sad", "enum_fuzzy"),  # a unique prefix
    ],
)
def test_enum_matches(given: str, expected: str, kind: str) -> None:
    result = match_choice(given, MOOD, "/mood", ctx())
    assert value_of(result) == expected
    assert result is not None
    (repair,) = result.repairs
    assert (repair.kind, repair.path, repair.before, repair.after) == (kind, "/mood", given, expected)


@pytest.mark.parametrize(
    ("given", "kind"),
    [
        ("low or medium", "hedged_choice"),
        ("low/high", "hedged_choice"),
        ("medium, maybe high", "hedged_choice"),
    ],
)
def test_enum_refusals_list_the_allowed_values(given: str, kind: str) -> None:
    result = match_choice(given, LEVEL, "/level", ctx())
    assert error_kind(result) == kind
    assert result is not None and result.error is not None
    assert all(repr(v) in result.error.message for v in LEVEL.values)
    assert result.error.got == given


def test_ambiguous_prefix_is_refused() -> None:
    view = ChoiceView(values=("high_priority", "high_volume"))
    assert error_kind(match_choice("high", view, "", ctx())) == "ambiguous_choice"


def test_equally_close_typo_is_refused() -> None:
    view = ChoiceView(values=("stage", "state"))
    assert error_kind(match_choice("stawe", view, "", ctx())) == "ambiguous_choice"


def test_negation_is_refused() -> None:
    view = ChoiceView(values=("complete", "pending"))
    assert error_kind(match_choice("incomplete", view, "", ctx())) == "negated_choice"


def test_a_value_already_allowed_gets_nothing() -> None:
    assert match_choice("low", LEVEL, "", ctx()) is None


def test_too_short_to_guess() -> None:
    assert match_choice("hi", LEVEL, "", ctx()) is None


def test_strict_gets_no_enum_coercion() -> None:
    assert coerce("LOW", LEVEL, None, "", ctx(STRICT)) is None


def test_policy_without_enum_fuzzy_still_folds_case() -> None:
    no_fuzzy = Parser(Policy(name="no-fuzzy", forbidden_kinds=frozenset({"enum_fuzzy"})), entrypoints=False)
    assert value_of(match_choice("LOW", LEVEL, "", ctx(no_fuzzy))) == "low"
    assert match_choice("lo w", LEVEL, "", ctx(no_fuzzy)) is not None
    assert match_choice("loww", LEVEL, "", ctx(no_fuzzy)) is None


# -- numbers --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "name", "expected"),
    [
        ("1,234", "count", 1234),
        ("1,234,567", "count", 1234567),
        ("1 234", "count", 1234),
        ("1.234.567", "count", 1234567),
        ("1,234.5", "value", 1234.5),
        ("1.234,5", "value", 1234.5),
        ("0,75", "value", 0.75),
        ("45 minutes", "delay_minutes", 45),
        ("45 mins", "delay_minutes", 45),
        ("45m", "delay_minutes", 45),
        ("2.5kg", "weight_kg", 2.5),
        ("$1,200", "price_usd", 1200.0),
        ("45%", "ratio", 0.45),
        ("33.3%", "ratio", 0.333),
        ("45%", "score_percent", 45.0),
        ("1.250,00 €", "total", 1250.0),
        ("€1.250,00", "total", 1250.0),
        ("EUR 1,250.00", "total", 1250.0),
        ("1 250,00 €", "total", 1250.0),
        ("12.50 $", "price_usd", 12.5),
        ("3 days", "days", 3),
        ("3d", "days", 3),
    ],
)
def test_numbers_from_strings(given: str, name: str, expected: float) -> None:
    got = value_of(offer(given, name))
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(
    ("given", "name", "kind"),
    [
        ("1,234", "value", "ambiguous_number"),
        ("1,5", "count", "ambiguous_number"),
        ("30 seconds", "delay_minutes", "unit_mismatch"),
        ("2 lb", "weight_kg", "unit_mismatch"),
        ("€5", "price_usd", "unit_mismatch"),
        ("12 seconds", "count", "unit_mismatch"),
        ("45%", "value", "ambiguous_number"),
        ("1.250 €", "total", "ambiguous_number"),
        ("5 €", "price_usd", "unit_mismatch"),
        ("12.99 EUR", "total", "unit_mismatch"),
        ("2 weeks", "days", "unit_mismatch"),
    ],
)
def test_number_refusals(given: str, name: str, kind: str) -> None:
    assert error_kind(offer(given, name)) == kind


@pytest.mark.parametrize(
    "given", ["12", " 12 ", "12.5", "-3", "about 12", "twelve", "12 apples", "ABC 12", "€12 $", "EUR 12 €"]
)
def test_numbers_pydantic_reads_or_nobody_should_get_nothing(given: str) -> None:
    """Plain numbers are Pydantic's to read (if one still failed, a constraint did); words are not numbers."""
    fv = field("count")
    assert isinstance(fv.type, ScalarView)
    assert number_from_string(given, fv.type, fv, "/count", ctx()) is None


# -- dates ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("June 7, 2024", "2024-06-07"),
        ("Jun 7 2024", "2024-06-07"),
        ("7th of June 2024", "2024-06-07"),
        ("Sept. 3, 2024", "2024-09-03"),
        ("2024/06/07", "2024-06-07"),
        ("2024.6.7", "2024-06-07"),
        ("31/12/2024", "2024-12-31"),
        ("12/31/2024", "2024-12-31"),
        ("07/07/2024", "2024-07-07"),
    ],
)
def test_unambiguous_dates(given: str, expected: str) -> None:
    assert value_of(offer(given, "when")) == expected


@pytest.mark.parametrize("given", ["06/07/2024", "1/2/2024", "06/07/24"])
def test_ambiguous_dates_are_refused(given: str) -> None:
    assert error_kind(offer(given, "when")) == "ambiguous_date"


@pytest.mark.parametrize("given", ["2024-06-07", "June 31, 2024", "next Tuesday", "Junk 7, 2024"])
def test_dates_pydantic_reads_or_nobody_should_get_nothing(given: str) -> None:
    assert offer(given, "when") is None


def test_datetime_field_gets_an_iso_date() -> None:
    assert value_of(offer("7 June 2024", "at")) == "2024-06-07"


# -- shapes -----------------------------------------------------------------------------------------------------------


def test_scalar_to_list() -> None:
    result = offer("urgent", "tags")
    assert value_of(result) == ["urgent"]


@pytest.mark.parametrize("given", ["eco, bathroom", "eco; bathroom", "salt and pepper", "red/blue", "a\nb", "R&D & QA"])
def test_a_string_that_reads_as_several_items_is_not_wrapped(given: str) -> None:
    assert error_kind(offer(given, "tags")) == "ambiguous_list"


@pytest.mark.parametrize("given", ["urgent", "New York", "src/main.py", "https://example.com/a/b", "/tmp/x"])
def test_a_string_that_reads_as_one_item_is_wrapped(given: str) -> None:
    assert value_of(offer(given, "tags")) == [given]


def test_number_to_string() -> None:
    assert value_of(offer(42, "label")) == "42"


def test_bool_is_not_turned_into_a_string() -> None:
    assert offer(True, "label") is None


def test_one_element_list_to_scalar() -> None:
    assert value_of(offer(["x"], "label")) == "x"


def test_two_element_list_is_not_unwrapped() -> None:
    assert offer(["x", "y"], "label") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        (" [1, 2] ", [1, 2]),
        ('"{\\"a\\": 1}"', {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ("hello", None),
        ('{"a": ', None),
        ('"just a string"', None),
        ("42", None),
        ("{'query': 'llm', 'n': None, 'ok': True}", {"query": "llm", "n": None, "ok": True}),
        ("[1, 2,]", [1, 2]),
        ("{query: llm}", None),
        ("{'a': 1", None),
        ('"not json \\q"', None),
    ],
)
def test_decode_json_string(text: str, expected: Any) -> None:
    assert decode_json_string(text) == expected


def test_unwrap_needs_the_inner_value_to_fit() -> None:
    view = build_view(Item)
    assert isinstance(view, ModelView)
    c = ctx(target=Item)
    assert value_of(unwrap({"result": {"name": "x"}}, view, "", c)) == {"name": "x"}
    assert unwrap({"result": {"other": "x"}}, view, "", c) is None
    assert unwrap({"result": {"name": "x"}, "data": {"name": "y"}}, view, "", c) is None  # two candidates: no guess


def test_unwrap_leaves_an_object_that_has_its_own_fields() -> None:
    view = build_view(Item)
    assert isinstance(view, ModelView)
    assert unwrap({"name": "x", "data": {"name": "y"}}, view, "", ctx(target=Item)) is None


class Person(BaseModel):
    owner: str


class Team(BaseModel):
    owner: Person


def test_unwrap_leaves_a_key_an_alias_table_names_as_a_field() -> None:
    """`assignee` -> `owner` (a call alias): `{"assignee": {"owner": "B"}}` is Team's field written under another
    name, not a wrapper around `{"owner": "B"}` (which would make `"B"` the Person)."""
    view = build_view(Team)
    assert isinstance(view, ModelView)
    c = LENIENT.context(Team, aliases={"assignee": "owner"})
    assert unwrap({"assignee": {"owner": "B"}}, view, "", c) is None


def test_an_alias_onto_a_model_field_renames_the_outer_key_and_keeps_the_inner_object() -> None:
    value = LENIENT.parse('{"assignee": {"owner": "B"}}', Team, aliases={"assignee": "owner"})
    assert value == Team(owner=Person(owner="B"))


def test_unwrap_a_list_from_a_single_key_object() -> None:
    view = build_view(list[Item])
    assert isinstance(view, ListView)
    c = ctx(target=list[Item])
    assert value_of(unwrap({"items": [{"name": "x"}]}, view, "", c)) == [{"name": "x"}]


def test_union_coercion_picks_the_only_member_a_coercion_fits() -> None:
    view: TypeView = build_view(Literal["low", "high"] | None)
    assert value_of(coerce("HIGH", view, None, "", ctx())) == "high"


def test_union_refusal_is_reported() -> None:
    view: TypeView = build_view(dt.date | None)
    assert error_kind(coerce("06/07/2024", view, None, "/d", ctx())) == "ambiguous_date"


def test_nothing_for_a_value_that_fits_and_failed_a_constraint() -> None:
    """The second pass offers values Pydantic rejected for a constraint (a pattern, a bound): no rewrite helps."""
    assert offer("abc", "label") is None
    assert offer(5, "count") is None
    assert offer(["a"], "tags") is None
    assert offer({"name": "x"}, "tags") is None


def test_a_literal_of_enum_members_is_an_honest_error_not_a_crash() -> None:
    class Kind(enum.Enum):
        A = "alpha"
        B = "beta"

    class Tagged(BaseModel):
        k: Literal[Kind.A, Kind.B]

    with pytest.raises(SchemaMismatchError) as info:
        LENIENT.parse('{"k": "BETA"}', Tagged)
    assert all(e["kind"] != "internal" for e in info.value.errors)


class Ref(BaseModel):
    id: str = Field("", pattern=r"^S\d+$")
    code: str = Field("", pattern=r"^[a-z]+$|^[A-Z]+$")


def ref_field(name: str) -> FieldView:
    view = build_view(Ref)
    assert isinstance(view, ModelView)
    return view.fields[name]


@pytest.mark.parametrize(("given", "expected"), [("s2", "S2"), (" S12", "S12"), ("s2 ", "S2")])
def test_pattern_case_fixes_case_and_spaces(given: str, expected: str) -> None:
    fv = ref_field("id")
    result = coerce(given, fv.type, fv, "/id", ctx(target=Ref))
    assert value_of(result) == expected
    assert result is not None and result.repairs[0].kind == "pattern_case"


@pytest.mark.parametrize("given", ["S2", "x2", "s-2"])
def test_pattern_case_offers_nothing_when_it_matches_or_cannot(given: str) -> None:
    fv = ref_field("id")
    assert coerce(given, fv.type, fv, "/id", ctx(target=Ref)) is None


def test_pattern_case_refuses_when_two_spellings_match() -> None:
    fv = ref_field("code")
    assert coerce("Abc", fv.type, fv, "/code", ctx(target=Ref)) is None


def test_union_best_fit_prefers_a_value_that_fits_all_the_way_down() -> None:
    """`"1,234"` for `int | list[int]`: 1234 fits; `["1,234"]` is a list whose item still does not."""
    view: TypeView = build_view(int | list[int])
    assert value_of(coerce("1,234", view, None, "", ctx())) == 1234
