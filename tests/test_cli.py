"""The `resilient-parse` command, run as a real subprocess (the console script and `python -m resilient_parse`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(sys.executable).with_name("resilient-parse")

MODELS = """
from typing import Literal
from pydantic import BaseModel

class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}

class Review(BaseModel):
    title: str
    rating: int
    verdict: Literal["watch", "skip"]
"""


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "models_for_cli.py").write_text(MODELS, encoding="utf-8")
    return tmp_path


def cli(*args: str, stdin: str = "", cwd: Path, module: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "resilient_parse", *args] if module else [str(SCRIPT), *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=cwd, timeout=120)


def one_message(stderr: str, prefix: str) -> str:
    """A usage error is one message, wrapped to 80 columns with its continuation lines indented (no traceback):
    the message joined back into one line."""
    lines = stderr.splitlines()
    assert lines and lines[0].startswith(prefix), stderr
    assert all(line.startswith("  ") for line in lines[1:]), stderr
    assert all(len(line) <= 80 or len(line.split()) == 1 for line in lines), stderr  # a long path stays whole
    assert "Traceback" not in stderr
    return " ".join(line.strip() for line in lines)


def test_the_console_script_is_installed() -> None:
    assert SCRIPT.exists(), f"{SCRIPT} missing: install the project (pip install -e .)"


def test_parse_prints_the_recovered_object_from_stdin(workdir: Path) -> None:
    reply = 'Sure!\n```json\n{"action": "search", "arguments": {"q": "cats",},}\n```'
    done = cli("parse", "--target", "models_for_cli:ToolCall", stdin=reply, cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"action": "search", "arguments": {"q": "cats"}}


def test_python_dash_m_runs_the_same_command_on_a_file(workdir: Path) -> None:
    (workdir / "reply.txt").write_text("{'action': 'search', 'arguments': {'q': 'dogs'}} // done", encoding="utf-8")
    done = cli("parse", "reply.txt", "--target", "models_for_cli:ToolCall", cwd=workdir, module=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"action": "search", "arguments": {"q": "dogs"}}


def test_report_lists_every_repair_on_stderr_and_keeps_stdout_pure_json(workdir: Path) -> None:
    reply = '```json\n{"action": "search", "arguments": {},}\n```'
    done = cli("parse", "-", "--target", "models_for_cli:ToolCall", "--report", stdin=reply, cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"action": "search", "arguments": {}}
    assert "extract_fence" in done.stderr
    assert "trailing_comma" in done.stderr


def test_report_on_valid_json_says_nothing_was_repaired(workdir: Path) -> None:
    done = cli("parse", "--target", "models_for_cli:ToolCall", "--report", stdin='{"action": "x"}', cwd=workdir)
    assert done.returncode == 0
    assert "no repairs" in done.stderr


def test_a_failure_prints_the_errors_as_json_and_exits_1(workdir: Path) -> None:
    done = cli("parse", "--target", "models_for_cli:ToolCall", stdin="I'm sorry, I can't help with that.", cwd=workdir)
    assert done.returncode == 1
    error: dict[str, Any] = json.loads(done.stdout)
    assert error["error"] == "RefusalError"
    assert {"path", "kind", "message"} <= set(error["errors"][0])


def test_strict_mode_refuses_what_lenient_repairs(workdir: Path) -> None:
    reply = '{"Title": "Heat", "Rating": 8, "Verdict": "watch"}'
    lenient = cli("parse", "--target", "models_for_cli:Review", stdin=reply, cwd=workdir)
    strict = cli("parse", "--target", "models_for_cli:Review", "--mode", "strict", stdin=reply, cwd=workdir)
    assert lenient.returncode == 0, lenient.stdout
    assert json.loads(lenient.stdout) == {"title": "Heat", "rating": 8, "verdict": "watch"}
    assert strict.returncode == 1
    assert json.loads(strict.stdout)["errors"]


def test_an_aliases_file_maps_keys_the_model_writes(workdir: Path) -> None:
    (workdir / "aliases.json").write_text('{"tool": "action"}', encoding="utf-8")
    reply = '{"tool": "search"}'
    done = cli(
        "parse", "--target", "models_for_cli:ToolCall", "--mode", "strict", "--aliases", "aliases.json",
        stdin=reply, cwd=workdir,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == {"action": "search", "arguments": {}}


def test_a_list_target_is_accepted(workdir: Path) -> None:
    done = cli("parse", "--target", "list[models_for_cli:ToolCall]", stdin='[{"action": "a"},]', cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"action": "a", "arguments": {}}]


SCHEMA = {
    "title": "Person",
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": ["integer", "null"]},
        "first-name": {"type": "string"},
        "role": {"enum": ["admin", "user"]},
        "address": {"$ref": "#/$defs/Address"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["name", "role"],
    "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
}


def test_a_json_schema_file_is_a_target(workdir: Path) -> None:
    (workdir / "person.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    reply = "{'name': 'Ann', 'age': None, 'first-name': 'A', 'role': 'admin', 'address': {'city': 'Oslo'},}"
    done = cli("parse", "--target", "person.json", stdin=reply, cwd=workdir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == {
        "name": "Ann",
        "age": None,
        "first-name": "A",
        "role": "admin",
        "address": {"city": "Oslo"},
    }


def test_a_json_schema_target_enforces_required_and_enum(workdir: Path) -> None:
    (workdir / "person.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    done = cli(
        "parse", "--target", "person.json", "--mode", "strict", stdin='{"name": "Ann", "role": "root"}', cwd=workdir
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["errors"][0]["path"] == "/role"


def test_an_unsupported_json_schema_construct_is_a_usage_error(workdir: Path) -> None:
    schema = {"type": "object", "properties": {"x": {"allOf": [{"type": "string"}]}}}
    (workdir / "odd.json").write_text(json.dumps(schema), encoding="utf-8")
    done = cli("parse", "--target", "odd.json", stdin="{}", cwd=workdir)
    assert done.returncode == 2
    assert "/properties/x: unsupported JSON Schema keyword(s) allOf" in one_message(done.stderr, "resilient-parse")


def test_missing_target_is_a_usage_error(workdir: Path) -> None:
    done = cli("parse", stdin="{}", cwd=workdir)
    assert done.returncode == 2
    assert "--target" in one_message(done.stderr, "resilient-parse parse: error:")  # like every usage error


def test_an_unimportable_target_is_a_usage_error(workdir: Path) -> None:
    done = cli("parse", "--target", "no_such_module:Thing", stdin="{}", cwd=workdir)
    assert done.returncode == 2
    assert "cannot import module 'no_such_module'" in one_message(done.stderr, "resilient-parse")


def test_a_missing_input_file_is_a_usage_error(workdir: Path) -> None:
    done = cli("parse", "nope.txt", "--target", "models_for_cli:ToolCall", cwd=workdir)
    assert done.returncode == 2
    assert "cannot read 'nope.txt'" in done.stderr


def test_no_command_prints_help_and_exits_2(workdir: Path) -> None:
    done = cli(cwd=workdir)
    assert done.returncode == 2
    assert "parse" in done.stderr and "bench" in done.stderr


# -- bench and speed ------------------------------------------------------------------------------------------------


def write_corpus(path: Path, *lines: Any) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


CASES: list[dict[str, Any]] = [
    {"id": "valid", "category": "valid", "target": "ToolCall", "input": '{"action": "a"}', "expected": {"action": "a"}},
    {
        "id": "fence",
        "category": "fences",
        "target": "ToolCall",
        "input": '```json\n{"action": "a",}\n```',
        "expected": {"action": "a"},
    },
    {"id": "refusal", "category": "rejects", "target": "ToolCall", "input": "I can't help.", "expected": None},
]


def test_bench_prints_the_comparison_and_writes_json_and_html(tmp_path: Path) -> None:
    path = write_corpus(tmp_path / "mine.jsonl", *CASES)
    done = cli(
        "bench", str(path), "--systems", "resilient_parse,json", "--json", "out.json", "--html", "out.html",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "resilient_parse:strict" in done.stdout and "resilient_parse:lenient" in done.stdout
    assert "correct % by category" in done.stdout
    figures = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert figures["summary"]["resilient_parse:lenient"]["correct"] == 2
    assert figures["summary"]["json"]["rejected"] == 1
    assert "<svg" in (tmp_path / "out.html").read_text(encoding="utf-8")


def test_bench_mode_strict_runs_only_our_strict_parser_next_to_peers(tmp_path: Path) -> None:
    path = write_corpus(tmp_path / "mine.jsonl", *CASES)
    done = cli(
        "bench", str(path), "--systems", "resilient_parse,json", "--mode", "strict", "--json", "o.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert list(json.loads((tmp_path / "o.json").read_text())["summary"]) == ["resilient_parse:strict", "json"]


def test_bench_rejects_a_malformed_corpus_naming_the_line(tmp_path: Path) -> None:
    path = write_corpus(tmp_path / "bad.jsonl", CASES[0], '{"id": "x"')
    done = cli("bench", str(path), cwd=tmp_path)
    assert done.returncode == 2
    assert f"{path}:2: not valid JSON" in one_message(done.stderr, "resilient-parse bench: error:")


def test_bench_rejects_an_unknown_system(tmp_path: Path) -> None:
    done = cli("bench", "--systems", "jsonn", cwd=tmp_path)
    assert done.returncode == 2
    assert "unknown system 'jsonn'" in done.stderr


def test_speed_measures_small_documents_quickly(tmp_path: Path) -> None:
    done = cli("speed", "--sizes", "2KB", "--budget", "0.02", "--json", "speed.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "validate_json" in done.stdout and "json_repair" in done.stdout
    rows = json.loads((tmp_path / "speed.json").read_text())["rows"]
    assert rows[0]["size"] == 2048
    assert rows[0]["valid:ours"]["median"] > 0


# -- the JSON Schema subset (in process: the translation itself) ----------------------------------------------------


def schema_type(schema: dict[str, Any]) -> Any:
    from resilient_parse.targets import model_from_json_schema

    return model_from_json_schema(schema)


def validate(schema: dict[str, Any], document: str) -> Any:
    from pydantic import TypeAdapter

    tp = schema_type(schema)
    return TypeAdapter(tp).dump_python(TypeAdapter(tp).validate_json(document), mode="json", by_alias=True)


def test_schema_nullable_via_any_of_accepts_null() -> None:
    schema = {"type": "object", "properties": {"x": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}
    assert validate(schema, '{"x": null}') == {"x": None}
    assert validate(schema, '{"x": 3}') == {"x": 3}


def test_schema_optional_property_without_default_may_be_absent_but_not_null() -> None:
    from pydantic import ValidationError

    schema = {"type": "object", "properties": {"x": {"type": "integer"}}}
    assert validate(schema, "{}") == {"x": None}
    with pytest.raises(ValidationError):
        validate(schema, '{"x": null}')


def test_schema_default_fills_a_missing_property() -> None:
    schema = {"type": "object", "properties": {"units": {"type": "string", "default": "metric"}}}
    assert validate(schema, "{}") == {"units": "metric"}


def test_schema_additional_properties_false_forbids_extra_keys() -> None:
    from pydantic import ValidationError

    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    with pytest.raises(ValidationError):
        validate(schema, '{"a": "x", "b": 1}')


def test_schema_constraints_are_enforced() -> None:
    from pydantic import ValidationError

    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 5}}}
    assert validate(schema, '{"n": 5}') == {"n": 5}
    with pytest.raises(ValidationError):
        validate(schema, '{"n": 6}')


def test_schema_root_array_and_map_types() -> None:
    assert validate({"type": "array", "items": {"type": "number"}}, "[1, 2.5]") == [1.0, 2.5]
    assert validate({"type": "object", "additionalProperties": {"type": "integer"}}, '{"a": 1}') == {"a": 1}


def test_schema_property_names_that_are_not_identifiers_keep_their_names() -> None:
    schema = {"type": "object", "properties": {"first-name": {"type": "string"}, "class": {"type": "string"}}}
    assert validate(schema, '{"first-name": "A", "class": "B"}') == {"first-name": "A", "class": "B"}


def test_schema_recursive_ref_is_read_as_a_recursive_model() -> None:
    # issue 15: JSON Schema targets accept what Pydantic writes, recursion included (this test used to expect a
    # SchemaError "recursive reference ... is not supported")
    schema = {
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}},
    }
    assert validate(schema, '{"child": {"child": {}}}') == {"child": {"child": {"child": None}}}
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        validate(schema, '{"child": {"child": 3}}')


def test_schema_remote_ref_is_refused_clearly() -> None:
    from resilient_parse.targets import SchemaError

    with pytest.raises(SchemaError, match="only local references into \\$defs"):
        schema_type({"$ref": "https://example.com/schema.json"})


# -- issue 15: one-line usage errors, the working directory, --version, 80 columns, the default HTML report ---------


def test_a_target_module_with_a_syntax_error_is_a_one_line_usage_error(workdir: Path) -> None:
    (workdir / "broken_models.py").write_text("class A(BaseModel)\n    a: int\n", encoding="utf-8")
    done = cli("parse", "--target", "broken_models:A", stdin="{}", cwd=workdir)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    line = one_message(done.stderr, "resilient-parse parse: error:")
    assert "broken_models.py:1: syntax error" in line


def test_a_target_module_that_raises_while_importing_is_a_one_line_usage_error(workdir: Path) -> None:
    (workdir / "raising_models.py").write_text("raise RuntimeError('no config\\nfound')\n", encoding="utf-8")
    done = cli("parse", "--target", "raising_models:A", stdin="{}", cwd=workdir)
    assert done.returncode == 2
    line = one_message(done.stderr, "resilient-parse parse: error:")
    assert "RuntimeError: no config found" in line


def test_a_target_pydantic_cannot_validate_is_a_one_line_usage_error(workdir: Path) -> None:
    done = cli("parse", "--target", "os:path", stdin="{}", cwd=workdir)
    assert done.returncode == 2
    one_message(done.stderr, "resilient-parse parse: error:")


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    done = cli("--version", cwd=Path.cwd())
    assert done.returncode == 0
    assert done.stdout.strip() == f"resilient-parse {version('resilient-parse')}"


def test_report_lines_say_what_an_extraction_did_instead_of_none_to_none(workdir: Path) -> None:
    reply = 'Here it is:\n```json\n{"action": "search"}\n```'
    done = cli("parse", "--target", "models_for_cli:ToolCall", "--report", stdin=reply, cwd=workdir)
    assert done.returncode == 0, done.stderr
    [fence] = [line for line in done.stderr.splitlines() if "extract_fence" in line]
    assert "None -> None" not in fence
    assert "fence" in fence.split(":", 1)[1]


def test_bench_imports_corpus_targets_from_the_working_directory(workdir: Path) -> None:
    line = {**CASES[0], "target": "models_for_cli:ToolCall"}
    path = write_corpus(workdir / "mine.jsonl", line)
    done = cli("bench", str(path), "--systems", "json", cwd=workdir)  # the console script
    assert done.returncode == 0, done.stderr
    assert "1 cases in 1 categories" in done.stdout


def test_bench_output_fits_80_columns_and_wide_adds_latency(tmp_path: Path) -> None:
    path = write_corpus(tmp_path / "mine.jsonl", *CASES)
    narrow = cli("bench", str(path), cwd=tmp_path)
    assert narrow.returncode == 0, narrow.stderr
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    wide = cli("bench", str(path), "--wide", cwd=tmp_path)
    header = next(line for line in wide.stdout.splitlines() if line.startswith("system") and "cases" in line)
    assert "median ms" in header and len(header) > 80


def test_bench_writes_the_html_report_where_asked_and_prints_its_path(tmp_path: Path) -> None:
    path = write_corpus(tmp_path / "mine.jsonl", *CASES)
    done = cli("bench", str(path), "--systems", "json", "--html", "reports/bench.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = tmp_path / "reports" / "bench.html"
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "wrote the HTML report: reports/bench.html" in done.stdout


def test_bench_says_the_bundled_corpus_is_ours(tmp_path: Path) -> None:
    done = cli("bench", "--systems", "json", "--category", "valid", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "The bundled corpus is our own" in done.stdout


def test_bench_peer_suites_folder_without_a_suite_is_a_usage_error(tmp_path: Path) -> None:
    path = write_corpus(tmp_path / "mine.jsonl", *CASES)
    done = cli("bench", str(path), "--systems", "json", "--peer-suites", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert "no peer suite found" in one_message(done.stderr, "resilient-parse bench: error:")


def test_report_on_a_failure_describes_each_attempt_in_words(workdir: Path) -> None:
    reply = '```json\n{"action": 3}\n```'
    done = cli("parse", "--target", "models_for_cli:ToolCall", "--report", "--mode", "strict", stdin=reply, cwd=workdir)
    assert done.returncode == 1
    [attempt] = [line for line in done.stderr.splitlines() if line.startswith("attempt:")]
    assert attempt.startswith("attempt: fence at @")
    assert "{" not in attempt.split(":", 2)[1]  # words, not a dict's repr
