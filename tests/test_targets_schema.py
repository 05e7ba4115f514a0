"""JSON Schema targets read back what Pydantic writes: every model of the test suite -> `model_json_schema()` ->
`model_from_json_schema` -> a type that accepts and rejects the same documents and gives the same object.

Documents are drawn from the schema itself (mostly conforming values, with wrong-typed values, missing and extra
keys mixed in), so both acceptance and rejection are exercised. A model whose own validators say more than its
schema can (a `field_validator`, a `model_validator`, a custom type, a `Decimal`) is outside what any schema
can carry: `_says_more_than_its_schema` names that rule, and the count of models left is asserted.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import AliasChoices, AliasPath, BaseModel, TypeAdapter, ValidationError

from resilient_parse.targets import SchemaError, model_from_json_schema

TESTS = Path(__file__).resolve().parent
# modules that cannot be imported in this process on their own (they need the repository root on sys.path)
_NOT_IMPORTABLE_ALONE = {"test_adversarial"}


def _suite_models() -> Iterator[type[BaseModel]]:
    """Every non-generic BaseModel class defined in a test module (and the bundled corpus models)."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    names = [
        "resilient_parse.bench.corpus.models",
        *sorted(
            p.stem
            for p in TESTS.glob("test_*.py")
            if p.stem not in _NOT_IMPORTABLE_ALONE and p.stem != Path(__file__).stem and "BaseModel" in p.read_text()
        ),
    ]
    for name in names:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseModel)
                and value.__module__ == module.__name__
                and not value.__pydantic_generic_metadata__["parameters"]
            ):
                yield value


def _says_more_than_its_schema(model: type[BaseModel]) -> bool:
    """Whether validating the model does what no JSON Schema reader can know: it runs the model's own code
    (validators, custom types), uses `Decimal`, which Pydantic writes as `anyOf [number, string]`, exactly as
    it writes `float | str`, or reads a field through an `AliasPath` (`first_name` from `names[0]`), which the
    schema writes as a plain `first_name` property."""
    decorators = model.__pydantic_decorators__
    if decorators.field_validators or decorators.model_validators or decorators.validators:
        return True
    if any(isinstance(f.validation_alias, AliasPath) for f in model.model_fields.values()):
        return True
    if any(
        isinstance(f.validation_alias, AliasChoices)
        and any(isinstance(c, AliasPath) for c in f.validation_alias.choices)
        for f in model.model_fields.values()
    ):
        return True
    core = repr(model.__pydantic_core_schema__)
    return "function-" in core or "'custom_error'" in core or "'type': 'decimal'" in core


MODELS = sorted(
    {m for m in _suite_models() if not _says_more_than_its_schema(m)}, key=lambda m: f"{m.__module__}.{m.__name__}"
)


def test_the_suite_supplies_many_models_and_every_schema_translates() -> None:
    assert len(MODELS) >= 100
    failures = []
    for model in MODELS:
        try:
            model_from_json_schema(model.model_json_schema())
        except SchemaError as exc:
            failures.append(f"{model.__module__}.{model.__name__}: {exc}")
    assert failures == []


# -- documents drawn from a schema ----------------------------------------------------------------------------------

_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=3), st.just([]), st.just({}))
_FORMAT_SAMPLES = {
    "date-time": ["2024-05-01T10:00:00Z", "2024-05-01", "yesterday"],
    "date": ["2024-05-01", "2024-13-01", "05/01/2024"],
    "time": ["10:30:00", "25:00"],
    "uuid": ["12345678-1234-5678-1234-567812345678", "not-a-uuid"],
    "uri": ["https://example.com/a", "not a url"],
    "email": ["a@example.com", "nope"],
}


def documents(node: Any, defs: Mapping[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values for a schema: mostly conforming, sometimes junk (wrong type), so that both verdicts occur."""
    if depth > 4 or node is True or node == {} or not isinstance(node, Mapping):
        return _JUNK
    fitting = _fitting(node, defs, depth)
    return st.one_of(fitting, fitting, fitting, _JUNK)


def _fitting(node: Mapping[str, Any], defs: Mapping[str, Any], depth: int) -> st.SearchStrategy[Any]:
    if "$ref" in node:
        key = node["$ref"].split("/")[-1]
        return st.deferred(lambda: documents(defs[key], defs, depth + 1))
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    for combinator in ("anyOf", "oneOf"):
        if combinator in node:
            return st.one_of([documents(o, defs, depth + 1) for o in node[combinator]])
    kind = node.get("type", "object" if "properties" in node else None)
    if isinstance(kind, list):
        return st.one_of([_fitting({**node, "type": k}, defs, depth) for k in kind])
    if kind == "object":
        props = node.get("properties", {})
        if not props:
            values = documents(node.get("additionalProperties", True), defs, depth + 1)
            return st.dictionaries(st.sampled_from(["a", "b", "c"]), values, max_size=3)
        required = set(node.get("required", []))
        body = st.fixed_dictionaries(
            {k: documents(v, defs, depth + 1) for k, v in props.items() if k in required},
            optional={k: documents(v, defs, depth + 1) for k, v in props.items() if k not in required},
        )
        extra = st.dictionaries(st.sampled_from(["zz_extra", "other"]), _JUNK, max_size=1)
        return st.builds(lambda b, e: {**e, **b}, body, st.one_of(st.just({}), extra))
    if kind == "array":
        if "prefixItems" in node:
            return st.tuples(*(documents(s, defs, depth + 1) for s in node["prefixItems"])).map(list)
        return st.lists(documents(node.get("items", True), defs, depth + 1), max_size=3)
    if kind == "string":
        samples = _FORMAT_SAMPLES.get(node.get("format", ""))
        return st.sampled_from(samples) if samples else st.text(max_size=6)
    if kind == "integer":
        return st.integers(-20, 120)
    if kind == "number":
        return st.one_of(st.integers(-20, 120), st.floats(-1e3, 1e3, allow_nan=False))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return _JUNK


def _accepts(adapter: TypeAdapter[Any], document: Any) -> Any:
    """The validated value, or None when the document is rejected (no model here validates to None)."""
    try:
        return adapter.validate_json(json.dumps(document))
    except ValidationError:
        return None


@pytest.mark.parametrize("model", MODELS, ids=lambda m: f"{m.__module__.removeprefix('test_')}.{m.__name__}")
def test_a_model_and_the_target_from_its_schema_validate_the_same_documents(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    original: TypeAdapter[Any] = TypeAdapter(model)
    translated: TypeAdapter[Any] = TypeAdapter(model_from_json_schema(schema))
    defs = {**schema.get("definitions", {}), **schema.get("$defs", {})}

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(documents(schema, defs))
    def same_verdict(document: Any) -> None:
        ours, theirs = _accepts(translated, document), _accepts(original, document)
        assert (ours is None) == (theirs is None), json.dumps(document)
        if ours is not None:  # the same object: what the CLI prints for ours, read back by the model, is theirs
            printed = translated.dump_python(ours, mode="json", by_alias=True, exclude_unset=True, warnings=False)
            assert original.validate_python(printed) == theirs, json.dumps(document)

    same_verdict()


# -- the constructs Pydantic writes, one by one ---------------------------------------------------------------------


def validate(schema: Mapping[str, Any], document: str) -> Any:
    adapter: TypeAdapter[Any] = TypeAdapter(model_from_json_schema(schema))
    return adapter.dump_python(adapter.validate_json(document), mode="json", by_alias=True, exclude_unset=True)


TREE = {
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "default": []},
            },
            "required": ["value"],
        }
    },
    "$ref": "#/$defs/Node",
}


def test_a_recursive_reference_validates_at_every_depth() -> None:
    deep = '{"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}'
    assert validate(TREE, deep) == json.loads(deep)
    with pytest.raises(ValidationError):
        validate(TREE, '{"value": 1, "children": [{"value": 2, "children": [{"value": "three"}]}]}')


def test_mutual_recursion_through_two_definitions() -> None:
    schema = {
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "null"}]}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]},
        },
        "$ref": "#/$defs/A",
    }
    assert validate(schema, '{"b": {"a": {"b": null}}}') == {"b": {"a": {"b": None}}}
    with pytest.raises(ValidationError):
        validate(schema, '{"b": {"a": 5}}')


def test_recursion_that_no_object_breaks_is_a_schema_error() -> None:
    schema = {"$defs": {"L": {"type": "array", "items": {"$ref": "#/$defs/L"}}}, "$ref": "#/$defs/L"}
    with pytest.raises(SchemaError, match="recursive"):
        model_from_json_schema(schema)


PETS = {
    "$defs": {
        "Cat": {
            "type": "object",
            "properties": {"pet_type": {"const": "cat", "type": "string"}, "lives": {"type": "integer"}},
            "required": ["pet_type", "lives"],
        },
        "Dog": {
            "type": "object",
            "properties": {"pet_type": {"const": "dog", "type": "string"}, "bark": {"type": "string"}},
            "required": ["pet_type"],
        },
    },
    "type": "object",
    "properties": {
        "pet": {
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            "discriminator": {"propertyName": "pet_type", "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}},
        }
    },
    "required": ["pet"],
}


def test_a_discriminated_union_picks_the_member_its_tag_names() -> None:
    assert validate(PETS, '{"pet": {"pet_type": "cat", "lives": 9}}') == {"pet": {"pet_type": "cat", "lives": 9}}
    assert validate(PETS, '{"pet": {"pet_type": "dog"}}') == {"pet": {"pet_type": "dog"}}
    with pytest.raises(ValidationError):
        validate(PETS, '{"pet": {"pet_type": "cow"}}')
    with pytest.raises(ValidationError):
        validate(PETS, '{"pet": {"pet_type": "cat"}}')  # a cat needs its lives


def test_a_malformed_discriminator_is_a_schema_error() -> None:
    with pytest.raises(SchemaError, match="discriminator"):
        model_from_json_schema({"oneOf": [{"type": "string"}], "discriminator": "kind"})


def test_unique_items_refuses_a_repeat_instead_of_collapsing_it() -> None:
    schema = {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    assert validate(schema, '["a", "b"]') == ["a", "b"]
    with pytest.raises(ValidationError, match="repeats"):
        validate(schema, '["a", "a"]')
    objects = {"type": "array", "items": {"type": "object"}, "uniqueItems": True}
    assert validate(objects, '[{"a": 1}, {"a": true}]') == [{"a": 1}, {"a": True}]  # true is not 1
    with pytest.raises(ValidationError, match="repeats"):
        validate(objects, '[{"a": 1, "b": 2}, {"b": 2, "a": 1}]')  # the same object, keys in another order


def test_a_fixed_length_tuple_and_string_formats() -> None:
    pair = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2}
    assert validate(pair, '[1, "x"]') == [1, "x"]
    with pytest.raises(ValidationError):
        validate(pair, '[1, "x", 3]')
    stamp = {"type": "string", "format": "date-time"}
    assert validate(stamp, '"2024-05-01T10:00:00Z"') == "2024-05-01T10:00:00Z"
    with pytest.raises(ValidationError):
        validate(stamp, '"yesterday"')


def test_an_open_tuple_is_refused_rather_than_closed() -> None:
    with pytest.raises(SchemaError, match="fixed-length tuple"):
        model_from_json_schema({"type": "array", "prefixItems": [{"type": "integer"}]})


def test_additional_properties_written_as_true_keeps_the_extra_keys() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": True}
    assert validate(schema, '{"a": 1, "b": 2}') == {"a": 1, "b": 2}
