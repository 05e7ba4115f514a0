"""Integrity of the bundled benchmark corpus (resilient_parse/bench/corpus/default.jsonl).

These tests check the corpus as data: every line is a well-formed case whose expectation is a valid object of its
target. They deliberately say nothing about how our parser scores on it; that is what `resilient-parse bench`
measures.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

import resilient_parse.bench.corpus.models as corpus_models
from resilient_parse.bench.corpus_loader import load_corpus

CORPUS = Path(__file__).resolve().parent.parent / "resilient_parse" / "bench" / "corpus" / "default.jsonl"
REQUIRED = {"id": str, "category": str, "target": str, "input": str}
OPTIONAL = {"expected_strict", "aliases", "note", "mode"}
CATEGORIES = {
    "plain_answers",
    "envelopes",
    "lists_in_prose",
    "fences",
    "prose",
    "reasoning",
    "several_objects",
    "commas",
    "quotes",
    "literals",
    "comments",
    "unescaped",
    "truncation",
    "key_case",
    "key_typos",
    "key_aliases",
    "enums",
    "type_coercion",
    "nested_errors",
    "wrappers",
    "double_encoding",
    "declared_aliases",
    "strict_mode",
    "unicode",
    "multilingual",
    "tool_text",
    "rejects",
    "valid",
}
MIN_PER_CATEGORY = 8
MIN_TOTAL = 300


def resolve(spec: str) -> Any:
    """The type a corpus target names: a bare model name, `list[Name]`, or `module:Name`."""
    if spec.startswith("list[") and spec.endswith("]"):
        return list[resolve(spec[5:-1])]  # type: ignore[misc]
    if ":" in spec:
        module, _, name = spec.partition(":")
        return getattr(importlib.import_module(module), name)
    return getattr(corpus_models, spec)


def load_lines() -> list[tuple[int, str]]:
    text = CORPUS.read_text(encoding="utf-8")
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


def load_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for _, line in load_lines()]


CASES = load_cases()


def canonical(target: str, expected: Any) -> Any:
    """Validate an expectation (written with field names) and dump it back in the corpus's canonical form."""
    adapter = TypeAdapter(resolve(target))
    value = adapter.validate_python(expected, by_alias=True, by_name=True)
    return adapter.dump_python(value, mode="json", by_alias=False)


def test_every_line_is_a_json_object() -> None:
    for number, line in load_lines():
        assert isinstance(json.loads(line), dict), f"line {number} is not a JSON object"


def test_every_case_has_the_required_fields_with_the_right_types() -> None:
    for case in CASES:
        for key, kind in REQUIRED.items():
            assert isinstance(case.get(key), kind), f"{case.get('id')}: {key!r} missing or not a {kind.__name__}"
        assert "expected" in case, f"{case['id']}: 'expected' missing (use null for a required rejection)"


def test_no_case_has_unknown_fields() -> None:
    for case in CASES:
        unknown = set(case) - set(REQUIRED) - {"expected"} - OPTIONAL
        assert not unknown, f"{case['id']}: unknown fields {sorted(unknown)}"


def test_ids_are_unique() -> None:
    counts = Counter(case["id"] for case in CASES)
    assert [i for i, n in counts.items() if n > 1] == []


def test_every_target_resolves_to_a_type_pydantic_validates() -> None:
    for target in {case["target"] for case in CASES}:
        TypeAdapter(resolve(target))


def test_every_expected_object_validates_against_its_target_unchanged() -> None:
    for case in CASES:
        if case["expected"] is not None:
            assert canonical(case["target"], case["expected"]) == case["expected"], case["id"]


def test_every_strict_expectation_validates_and_differs_from_the_lenient_one() -> None:
    for case in (c for c in CASES if "expected_strict" in c):
        strict = case["expected_strict"]
        assert strict != case["expected"], f"{case['id']}: expected_strict repeats expected; omit it"
        if strict is not None:
            assert canonical(case["target"], strict) == strict, case["id"]


def test_aliases_map_strings_to_field_names_of_the_target() -> None:
    for case in (c for c in CASES if "aliases" in c):
        aliases = case["aliases"]
        assert isinstance(aliases, dict) and aliases, case["id"]
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in aliases.items()), case["id"]


def test_rejections_explain_themselves() -> None:
    for case in CASES:
        if case["expected"] is None and case["category"] != "rejects":
            assert case.get("note"), f"{case['id']}: a rejection outside 'rejects' needs a note saying why"


def test_categories_are_the_documented_ones() -> None:
    assert {case["category"] for case in CASES} == CATEGORIES


@pytest.mark.parametrize("category", sorted(CATEGORIES))
def test_each_category_has_enough_cases(category: str) -> None:
    assert sum(case["category"] == category for case in CASES) >= MIN_PER_CATEGORY


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= MIN_TOTAL


def test_the_benchmark_loader_accepts_the_corpus() -> None:
    """The CLI's own loader is the corpus's real consumer; it must read every line."""
    assert len(load_corpus([CORPUS])) == len(CASES)
