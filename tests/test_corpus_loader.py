"""The corpus loader: a well-formed line becomes a Case; every malformed line is an error naming file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from resilient_parse.bench.corpus_loader import DEFAULT_CORPUS, CorpusError, load_corpus

GOOD = {
    "id": "fence-1",
    "category": "fences",
    "target": "ToolCall",
    "input": '```json\n{"action": "search"}\n```',
    "expected": {"action": "search", "arguments": {}},
}


def write(tmp_path: Path, *lines: Any, name: str = "c.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(CorpusError) as info:
        load_corpus([path])
    return str(info.value)


def test_a_well_formed_line_becomes_a_case_with_its_target_resolved(tmp_path: Path) -> None:
    from resilient_parse.bench.corpus.models import ToolCall

    [case] = load_corpus([write(tmp_path, GOOD)])
    assert (case.id, case.category, case.target) == ("fence-1", "fences", ToolCall)
    assert case.expected == {"action": "search", "arguments": {}}
    assert case.mode == "both"


def test_expected_is_canonicalised_with_defaults_filled_in(tmp_path: Path) -> None:
    [case] = load_corpus([write(tmp_path, {**GOOD, "expected": {"action": "search"}})])
    assert case.expected == {"action": "search", "arguments": {}}


def test_null_expected_means_the_input_must_be_rejected(tmp_path: Path) -> None:
    [case] = load_corpus([write(tmp_path, {**GOOD, "input": "I'm sorry, I can't do that.", "expected": None})])
    assert case.expectation("lenient") is None
    assert case.expectation(None) is None


def test_import_path_and_list_targets_resolve(tmp_path: Path) -> None:
    from resilient_parse.bench.corpus.models import ToolCall

    lines = [
        {**GOOD, "id": "a", "target": "resilient_parse.bench.corpus.models:ToolCall"},
        {**GOOD, "id": "b", "target": "list[ToolCall]", "input": "[]", "expected": []},
    ]
    a, b = load_corpus([write(tmp_path, *lines)])
    assert a.target is ToolCall
    assert b.target == list[ToolCall]


def test_expected_strict_overrides_expected_for_strict_only(tmp_path: Path) -> None:
    line = {**GOOD, "input": '{"Action": "search"}', "expected_strict": None}
    [case] = load_corpus([write(tmp_path, line)])
    assert case.expectation("strict") is None
    assert case.expectation("lenient") == {"action": "search", "arguments": {}}
    assert case.expectation(None) == {"action": "search", "arguments": {}}


def test_a_strict_mode_case_is_scored_for_strict_only(tmp_path: Path) -> None:
    [case] = load_corpus([write(tmp_path, {**GOOD, "mode": "strict"})])
    assert case.applies_to("strict")
    assert not case.applies_to("lenient")
    assert not case.applies_to(None)


def test_a_lenient_mode_case_is_scored_for_lenient_and_peers(tmp_path: Path) -> None:
    [case] = load_corpus([write(tmp_path, {**GOOD, "mode": "lenient"})])
    assert case.applies_to("lenient") and case.applies_to(None)
    assert not case.applies_to("strict")


def test_aliases_are_kept(tmp_path: Path) -> None:
    [case] = load_corpus([write(tmp_path, {**GOOD, "aliases": {"tool": "action"}})])
    assert case.aliases == {"tool": "action"}


def test_blank_lines_are_skipped(tmp_path: Path) -> None:
    cases = load_corpus([write(tmp_path, GOOD, "", "   ", {**GOOD, "id": "two"})])
    assert [c.id for c in cases] == ["fence-1", "two"]


def test_bad_json_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, '{"id": "x", "category": "fences",')
    message = load_error(path)
    assert f"{path}:2:" in message
    assert "not valid JSON" in message


def test_a_line_that_is_not_an_object_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, '["fence-1", "fences"]')
    assert f"{path}:1: a case must be a JSON object" in load_error(path)


def test_missing_fields_are_named(tmp_path: Path) -> None:
    line = {k: v for k, v in GOOD.items() if k not in ("expected", "category")}
    path = write(tmp_path, line)
    message = load_error(path)
    assert f"{path}:1:" in message
    assert "missing field(s) category, expected" in message


def test_unknown_target_is_named_with_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, {**GOOD, "id": "x", "target": "NoSuchModel"})
    message = load_error(path)
    assert f"{path}:2 (id 'x'): unknown target" in message
    assert "NoSuchModel" in message


def test_unimportable_module_is_an_unknown_target(tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, "target": "no_such_package.models:Thing"})
    assert "cannot import module 'no_such_package.models'" in load_error(path)


def test_duplicate_id_names_both_lines(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, {**GOOD, "category": "other"})
    message = load_error(path)
    assert f"{path}:2: duplicate id 'fence-1' (first at {path}:1)" in message


def test_duplicate_id_across_files_is_rejected(tmp_path: Path) -> None:
    first = write(tmp_path, GOOD, name="a.jsonl")
    second = write(tmp_path, GOOD, name="b.jsonl")
    with pytest.raises(CorpusError, match=r"b\.jsonl:1: duplicate id 'fence-1' \(first at .*a\.jsonl:1\)"):
        load_corpus([first, second])


def test_expected_that_does_not_fit_the_target_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, "expected": {"arguments": {}}})
    message = load_error(path)
    assert f"{path}:1 (id 'fence-1'): 'expected' does not validate against target 'ToolCall'" in message
    assert "/action" in message


def test_bad_mode_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, "mode": "paranoid"})
    assert "'mode' must be one of both, strict, lenient, got 'paranoid'" in load_error(path)


def test_unknown_field_is_rejected_so_typos_do_not_pass_silently(tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, "expected_stirct": None})
    assert "unknown field(s) expected_stirct" in load_error(path)


def test_non_string_input_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, "input": {"action": "search"}})
    assert "'input' must be a non-empty string" in load_error(path)


def test_aliases_must_map_strings_to_strings(tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, "aliases": {"tool": 1}})
    assert "'aliases' must be an object of string to string" in load_error(path)


def test_missing_corpus_file_is_a_corpus_error(tmp_path: Path) -> None:
    assert "cannot read the corpus" in load_error(tmp_path / "nope.jsonl")


def test_an_empty_corpus_is_an_error(tmp_path: Path) -> None:
    assert "no cases" in load_error(write(tmp_path, ""))


def test_no_argument_loads_the_bundled_default_corpus() -> None:
    cases = load_corpus()
    assert len(cases) >= 300
    assert cases[0].source.startswith(str(DEFAULT_CORPUS))
