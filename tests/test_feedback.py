"""The feedback message a model gets back: condensed errors as JSON Pointers, its previous output, the schema of
the failing paths only, one plain instruction. Typical failures are pinned as snapshots in tests/snapshots/
(regenerate deliberately with RP_UPDATE_SNAPSHOTS=1 and review the diff)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import ErrorDetail, ParseError, Parser, SchemaMismatchError, SemanticCheckError
from resilient_parse.feedback import condense, format_feedback, schema_for_paths

SNAPSHOTS = Path(__file__).parent / "snapshots"


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("RP_UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}; create it with RP_UPDATE_SNAPSHOTS=1 and review it"
    assert text == path.read_text(encoding="utf-8")


class Step(BaseModel):
    id: int
    action: Literal["search", "summarize", "email"]
    depends_on: list[int] = []


class Plan(BaseModel):
    goal: str
    steps: list[Step]


def no_cycles(plan: Plan) -> Iterator[ErrorDetail]:
    """A semantic validator: the dependency graph of a plan must be acyclic."""
    deps = {s.id: s.depends_on for s in plan.steps}
    index = {s.id: i for i, s in enumerate(plan.steps)}
    for start in deps:
        stack, seen = list(deps[start]), set()
        while stack:
            node = stack.pop()
            if node == start:
                yield ErrorDetail(
                    path=f"/steps/{index[start]}/depends_on",
                    kind="cycle",
                    message=f"step {start} depends on itself through its dependencies (a cycle)",
                    got=deps[start],
                )
                break
            if node not in seen:
                seen.add(node)
                stack.extend(deps.get(node, []))


@pytest.fixture
def parser() -> Parser:
    return Parser(entrypoints=False)


def failure_for(parser: Parser, text: str, target: Any = Plan, **kwargs: Any) -> ParseError:
    with pytest.raises(ParseError) as info:
        parser.parse_result(text, target, **kwargs)
    return info.value


def test_missing_field_snapshot(parser: Parser) -> None:
    error = failure_for(parser, '{"steps": [{"id": 1, "action": "search"}]}')
    assert isinstance(error, SchemaMismatchError)
    assert_snapshot("feedback_missing_field", parser.feedback(error, Plan))


def test_wrong_enum_snapshot(parser: Parser) -> None:
    error = failure_for(parser, '{"goal": "g", "steps": [{"id": 1, "action": "teleport"}]}')
    assert_snapshot("feedback_wrong_enum", parser.feedback(error, Plan))


def test_plan_cycle_snapshot(parser: Parser) -> None:
    text = (
        '{"goal": "g", "steps": [{"id": 1, "action": "search", "depends_on": [2]},'
        ' {"id": 2, "action": "email", "depends_on": [1]}]}'
    )
    error = failure_for(parser, text, validators=[no_cycles])
    assert isinstance(error, SemanticCheckError)
    assert_snapshot("feedback_plan_cycle", parser.feedback(error, Plan))


def test_errors_are_pointers_with_short_offending_values() -> None:
    error = ParseError("bad", [ErrorDetail("/steps/0/action", "literal_error", "not allowed", got="fly")])
    assert condense(error.details) == ['/steps/0/action: not allowed (got "fly")']


def test_long_offending_values_are_left_out() -> None:
    error = ParseError("bad", [ErrorDetail("/goal", "string_type", "not a string", got=["x" * 100])])
    assert condense(error.details) == ["/goal: not a string"]


def test_missing_fields_do_not_quote_the_parent_object() -> None:
    details = [ErrorDetail("/goal", "missing", "Field required", got={"steps": []})]
    assert condense(details) == ["/goal: Field required"]


def test_identical_errors_are_listed_once() -> None:
    details = [ErrorDetail("/a", "missing", "Field required")] * 3
    assert condense(details) == ["/a: Field required"]


def test_at_most_ten_errors_then_a_count() -> None:
    details = [ErrorDetail(f"/steps/{i}/id", "missing", "Field required") for i in range(14)]
    lines = condense(details)
    assert lines[:2] == ["/steps/0/id: Field required", "/steps/1/id: Field required"]
    assert len(lines) == 11
    assert lines[-1] == "(+4 more)"


def test_schema_only_for_the_failing_paths() -> None:
    schema = schema_for_paths(Plan, ["/steps/3/action"])
    assert schema == {"/steps/3/action": {"enum": ["search", "summarize", "email"], "type": "string"}}


def test_schema_shown_once_for_the_same_field_in_many_list_items() -> None:
    schema = schema_for_paths(Plan, ["/steps/0/id", "/steps/7/id"])
    assert schema == {"/steps/0/id": {"type": "integer"}}


def test_schema_keeps_a_field_named_title() -> None:
    class Doc(BaseModel):
        title: str

    assert schema_for_paths(Doc, [""]) == {
        "/": {"properties": {"title": {"type": "string"}}, "required": ["title"], "type": "object"}
    }


def test_the_previous_output_is_the_repaired_candidate(parser: Parser) -> None:
    error = failure_for(parser, "Sure! ```json\n{'goal': 'g', 'steps': [{'id': 1, 'action': 'fly',}]}\n```")
    message = parser.feedback(error, Plan)
    assert error.candidate is not None and error.candidate in message
    assert "Sure!" not in message and "```" not in message


def test_ends_with_one_plain_instruction(parser: Parser) -> None:
    error = failure_for(parser, '{"goal": "g"}')
    last = parser.feedback(error, Plan).rsplit("\n\n", 1)[-1]
    assert last == "Reply with the complete corrected JSON object only, no prose and no code fences."


def test_a_list_target_asks_for_an_array() -> None:
    error = ParseError("bad", [ErrorDetail("/0/id", "missing", "Field required")])
    assert format_feedback(error, None, list[Step]).endswith(
        "Reply with the complete corrected JSON array only, no prose and no code fences."
    )


def test_a_plugin_replaces_the_builtin_feedback() -> None:
    from resilient_parse import hookimpl

    class Terse:
        @hookimpl
        def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: Any) -> str:
            return "fix: " + ", ".join(d.path for d in failure.details)

    parser = Parser(plugins=[Terse()], entrypoints=False)
    error = failure_for(parser, '{"steps": []}')
    assert parser.feedback(error, Plan) == "fix: /goal"
