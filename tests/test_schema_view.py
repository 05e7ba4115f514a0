"""The schema view: what repair needs to know about a target, read once from Pydantic's declarations."""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Literal, TypedDict

import pytest
from pydantic import AliasChoices, AliasPath, BaseModel, ConfigDict, Discriminator, Field
from pydantic.alias_generators import to_camel

from resilient_parse.errors import ConfigurationError
from resilient_parse.schema import (
    AnyView,
    ChoiceView,
    DictView,
    ListView,
    ModelView,
    ScalarView,
    UnionView,
    build_view,
    normalise_key,
    schema_facts,
)


def model_view(target: Any) -> ModelView:
    view = build_view(target)
    assert isinstance(view, ModelView)
    return view


@pytest.mark.parametrize(
    ("key", "normalised"),
    [
        ("cityName", "city_name"),
        ("CityName", "city_name"),
        ("city-name", "city_name"),
        ("city name", "city_name"),
        ("CITY_NAME", "city_name"),
        ("  City.Name ", "city_name"),
        ("HTTPStatus", "http_status"),
        ("temperatureC", "temperature_c"),
    ],
)
def test_normalise_key(key: str, normalised: str) -> None:
    assert normalise_key(key) == normalised


def test_alias_is_the_only_key_without_populate_by_name() -> None:
    class M(BaseModel):
        full_name: str = Field(alias="fullName")

    fv = model_view(M).fields["full_name"]
    assert fv.input_keys == ("fullName",)
    assert fv.primary_key == "fullName"


def test_populate_by_name_accepts_the_name_too() -> None:
    class M(BaseModel):
        model_config = ConfigDict(populate_by_name=True)
        full_name: str = Field(alias="fullName")

    assert model_view(M).fields["full_name"].input_keys == ("fullName", "full_name")


def test_alias_generator_fills_in_the_alias() -> None:
    class M(BaseModel):
        model_config = ConfigDict(alias_generator=to_camel)
        city_name: str

    view = model_view(M)
    assert view.key_to_field == {"cityName": "city_name"}


def test_validation_alias_choices_are_all_keys() -> None:
    class M(BaseModel):
        email: str = Field(validation_alias=AliasChoices("email", "mail", "e_mail"))

    assert model_view(M).fields["email"].input_keys == ("email", "mail", "e_mail")


def test_alias_path_key_leads_into_a_container() -> None:
    """`{"names": ["Ada", …]}` holds the field's value inside a list: repair must not treat the list as the value."""

    class M(BaseModel):
        first: str = Field(validation_alias=AliasPath("names", 0))

    fv = model_view(M).fields["first"]
    assert fv.input_keys == ("names",)
    assert fv.path_keys == frozenset({"names"})
    assert not fv.renamable


def test_validate_by_alias_false_leaves_only_the_name() -> None:
    class M(BaseModel):
        model_config = ConfigDict(validate_by_alias=False, validate_by_name=True)
        full_name: str = Field(alias="fullName")

    assert model_view(M).fields["full_name"].input_keys == ("full_name",)


def test_enum_view_has_values_and_member_names() -> None:
    class Colour(enum.Enum):
        RED = "r"
        GREEN = "g"

    view = build_view(Colour)
    assert isinstance(view, ChoiceView)
    assert view.values == ("r", "g")
    assert view.names == ("RED", "GREEN")


def test_literal_view() -> None:
    view = build_view(Literal["a", "b"])
    assert isinstance(view, ChoiceView) and view.values == ("a", "b") and view.enum_cls is None


def test_optional_is_a_nullable_single_option() -> None:
    view = build_view(int | None)
    assert isinstance(view, UnionView) and view.nullable
    assert isinstance(view.options[0], ScalarView) and view.options[0].py_type is int


def test_field_level_discriminator() -> None:
    class A(BaseModel):
        kind: Literal["a"]

    class B(BaseModel):
        kind: Literal["b"]

    class M(BaseModel):
        item: A | B = Field(discriminator="kind")

    view = model_view(M).fields["item"].type
    assert isinstance(view, UnionView) and view.discriminator == "kind"


@pytest.mark.parametrize("marker", [Field(discriminator="kind"), Discriminator("kind")])
def test_annotated_discriminator_inside_a_list(marker: Any) -> None:
    class A(BaseModel):
        kind: Literal["a"]

    class B(BaseModel):
        kind: Literal["b"]

    view = build_view(list[Annotated[A | B, marker]])
    assert isinstance(view, ListView)
    assert isinstance(view.item, UnionView) and view.item.discriminator == "kind"


def test_free_form_dict_is_marked() -> None:
    assert isinstance(build_view(dict[str, Any]), DictView) and build_view(dict[str, Any]).free_form  # type: ignore[attr-defined]
    typed = build_view(dict[str, int])
    assert isinstance(typed, DictView) and not typed.free_form


def test_recursive_model_shares_one_view() -> None:
    class Node(BaseModel):
        children: list[Node] = []

    view = model_view(Node)
    children = view.fields["children"].type
    assert isinstance(children, ListView) and children.item is view


def test_dataclass_and_typeddict_are_models() -> None:
    @dataclasses.dataclass
    class D:
        name: str
        tags: list[str] = dataclasses.field(default_factory=list)

    class T(TypedDict, total=False):
        name: str

    d = model_view(D)
    assert d.fields["name"].required and not d.fields["tags"].required
    assert d.fields["tags"].default_value() == []
    assert not model_view(T).fields["name"].required


def test_default_value_for_the_trace() -> None:
    class M(BaseModel):
        tags: list[str] = Field(default_factory=list)
        limit: int = 10

    view = model_view(M)
    assert view.fields["tags"].default_value() == []
    assert view.fields["limit"].default_value() == 10


def test_own_alias_table_from_class_attribute_and_config() -> None:
    class A(BaseModel):
        __rp_aliases__ = {"op": "command"}
        command: str

    class B(BaseModel):
        model_config = ConfigDict(rp_aliases={"op": "command"})  # type: ignore[typeddict-unknown-key]
        command: str

    assert model_view(A).own_aliases == {"op": "command"}
    assert model_view(B).own_aliases == {"op": "command"}


def test_bad_own_alias_table_is_a_configuration_error() -> None:
    class A(BaseModel):
        __rp_aliases__ = {"op": 3}
        command: str

    with pytest.raises(ConfigurationError):
        build_view(A)


def test_spellings_flag_fields_that_normalise_alike() -> None:
    class M(BaseModel):
        cityName: str
        city_name: str

    assert model_view(M).spellings["city_name"] == ("cityName", "city_name")


def test_unknown_types_are_left_to_pydantic() -> None:
    assert isinstance(build_view(Any), AnyView)


def test_schema_facts() -> None:
    class Inner(BaseModel):
        note: str = ""

    class Outer(BaseModel):
        name: str
        inner: Inner
        meta: dict[str, Any] = {}

    facts = schema_facts(build_view(Outer))
    assert {"name", "inner", "note", "meta"} <= facts.known_keys
    assert facts.open_keys and facts.ignore_models


def test_literal_of_enum_members_holds_json_values() -> None:
    """Repair writes JSON: a coerced `Literal[Kind.A]` value must be "alpha", never the (unserialisable) member."""

    class Kind(enum.Enum):
        A = "alpha"

    view = build_view(Literal[Kind.A])
    assert isinstance(view, ChoiceView) and view.values == ("alpha",)
