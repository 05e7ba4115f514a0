"""Property: strict mode never renames a key or fuzzily matches a value.

Over generated models (scalars, enums, Literals, lists, nested models; extra "ignore" or "forbid") and generated
documents with recased, misspelled or near-miss keys and recased or misspelled enum values, a strict parser either
raises `ParseError` or returns exactly the object the unmutated document describes — and records no lossy repair.
Only the alias table the call passes explicitly may rename a key, as a lossless `key_alias` repair.
"""

from __future__ import annotations

import enum
import json
from typing import Any, Literal

from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, create_model

from resilient_parse import ParseError, Parser

STRICT = Parser("strict", entrypoints=False)
RENAMING_KINDS = {"key_case", "key_fuzzy", "key_plugin_alias", "drop_unknown_key"}
VALUE_GUESS_KINDS = {"enum_value", "enum_fuzzy", "number_from_string", "date_from_string", "scalar_to_list"}
VALUE_GUESS_KINDS |= {"unwrap_list", "null_to_default", "number_to_string", "unwrap_wrapper", "decode_json_string"}


class Colour(enum.Enum):
    RED = "red"
    DARK_BLUE = "dark_blue"


NAMES = (
    "name",
    "title",
    "count",
    "amount",
    "status",
    "priority",
    "owner",
    "location",
    "category",
    "due_date",
    "user_id",
    "is_active",
    "description",
    "score",
    "city_name",
    "max_tokens",
    "delay_minutes",
    "start_date",
)
SCALARS: dict[str, tuple[Any, st.SearchStrategy[Any]]] = {
    "str": (str, st.text(max_size=8)),
    "int": (int, st.integers(-1000, 1000)),
    "float": (float, st.floats(-1e6, 1e6, allow_nan=False)),
    "bool": (bool, st.booleans()),
    "literal": (Literal["low", "medium", "high"], st.sampled_from(["low", "medium", "high"])),
    "enum": (Colour, st.sampled_from(["red", "dark_blue"])),
    "list": (list[str], st.lists(st.text(max_size=5), max_size=3)),
}


def _recase(key: str, how: int) -> str:
    words = key.split("_")
    return [
        key.upper(),
        words[0] + "".join(w.title() for w in words[1:]),
        "".join(w.title() for w in words),
        key.replace("_", "-"),
        key.replace("_", " "),
        key.title(),
    ][how % 6]


def _typo(key: str, at: int, how: int) -> str:
    if len(key) < 3:
        return key + key[-1]
    i = 1 + at % (len(key) - 2)
    return [key[:i] + key[i + 1 :], key[: i - 1] + key[i] + key[i - 1] + key[i + 1 :], key[:i] + key[i] + key[i:]][
        how % 3
    ]


_NEAR_MISS = {"max_tokens": "min_tokens", "delay_minutes": "delay_seconds", "start_date": "end_date"}


def _near_miss(key: str) -> str:
    return _NEAR_MISS.get(key, key + "_old")


@st.composite
def model_and_tree(draw: st.DrawFn, depth: int = 0) -> tuple[type[BaseModel], dict[str, Any], list[str]]:
    """A model, a valid document for it, and the kinds of value at each top-level key ("enum", "model" …)."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True))
    fields: dict[str, Any] = {}
    tree: dict[str, Any] = {}
    kinds: list[str] = []
    for name in names:
        kind = draw(st.sampled_from([*SCALARS, "model"] if depth == 0 else list(SCALARS)))
        if kind == "model":
            inner, inner_tree, _ = draw(model_and_tree(depth + 1))
            annotation: Any = inner
            value: Any = inner_tree
        else:
            annotation, values = SCALARS[kind]
            value = draw(values)
        required = draw(st.booleans())
        fields[name] = (annotation, ...) if required else (annotation | None, None)
        if required or draw(st.booleans()):
            tree[name] = value
        kinds.append(kind)
    extra = draw(st.sampled_from(["ignore", "forbid"]))
    model = create_model(  # type: ignore[call-overload]
        f"M{depth}_{'_'.join(names)}", __config__=ConfigDict(extra=extra), **fields
    )
    return model, tree, kinds


def _mutate_keys(tree: dict[str, Any], draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in tree.items():
        how = draw(st.integers(0, 3))
        if how == 1:
            key = _recase(key, draw(st.integers(0, 5)))
        elif how == 2:
            key = _typo(key, draw(st.integers(0, 50)), draw(st.integers(0, 2)))
        elif how == 3:
            key = _near_miss(key)
        if isinstance(value, dict) and draw(st.booleans()):
            value = _mutate_keys(value, draw)
        out[key] = value
    return out


def _mutate_values(tree: dict[str, Any], draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, str) and value in ("low", "medium", "high", "red", "dark_blue") and draw(st.booleans()):
            value = draw(
                st.sampled_from(
                    [value.upper(), value.title(), value.replace("_", " "), value[:-1], value[:3], value + value[-1]]
                )
            )
        elif isinstance(value, dict):
            value = _mutate_values(value, draw)
        out[key] = value
    return out


def _assert_strict_outcome(model: type[BaseModel], original: dict[str, Any], text: str) -> None:
    try:
        result = STRICT.parse_result(text, model)
    except ParseError as err:
        assert all(r.lossless for r in err.repairs)
        return
    kinds = {r.kind for r in result.repairs}
    assert not kinds & RENAMING_KINDS, f"strict renamed a key: {result.repairs}"
    assert not kinds & VALUE_GUESS_KINDS, f"strict guessed a value: {result.repairs}"
    assert all(r.lossless for r in result.repairs)
    assert result.value == model.model_validate(original), f"strict returned a different object for {text}"


@given(data=st.data())
def test_strict_never_renames_a_recased_misspelled_or_near_miss_key(data: st.DataObject) -> None:
    model, tree, _ = data.draw(model_and_tree())
    mutated = _mutate_keys(tree, data.draw)
    _assert_strict_outcome(model, tree, json.dumps(mutated))


@given(data=st.data())
def test_strict_never_matches_an_enum_value_fuzzily(data: st.DataObject) -> None:
    model, tree, _ = data.draw(model_and_tree())
    mutated = _mutate_values(tree, data.draw)
    _assert_strict_outcome(model, tree, json.dumps(mutated))


@given(data=st.data())
def test_strict_leaves_a_valid_document_alone(data: st.DataObject) -> None:
    model, tree, _ = data.draw(model_and_tree())
    result = STRICT.parse_result(json.dumps(tree), model)
    assert result.value == model.model_validate(tree)
    assert result.repairs == ()


@given(data=st.data())
def test_strict_renames_only_through_the_alias_table_the_call_passes(data: st.DataObject) -> None:
    model, tree, _ = data.draw(model_and_tree())
    key = data.draw(st.sampled_from(sorted(tree))) if tree else None
    if key is None:
        return
    alias = f"the_{key}_alias"
    renamed = {alias if k == key else k: v for k, v in tree.items()}
    result = STRICT.parse_result(json.dumps(renamed), model, aliases={alias: key})
    assert result.value == model.model_validate(tree)
    assert [(r.kind, r.path, r.before, r.after) for r in result.repairs] == [("key_alias", f"/{alias}", alias, key)]
    assert all(r.lossless for r in result.repairs)
