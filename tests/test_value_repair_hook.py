"""rp_value_repairers: plugins fix what Pydantic accepts but is semantically off — recorded, policy-checked, on
every path, before the semantic validators."""

from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import ErrorDetail, Parser, Repair, SemanticCheckError, hookimpl
from resilient_parse.context import CallContext

TOOLS = {"web_search", "read_file"}


class Step(BaseModel):
    tool: str


class FixToolTypos:
    """Renames a tool one letter away from exactly one registered tool (a test stand-in for the planner's rule)."""

    rp_name = "fix-tool-typos"

    @hookimpl
    def rp_value_repairers(self, target: Any, ctx: CallContext) -> list[Any] | None:
        return [self.fix] if target is Step else None

    @staticmethod
    def fix(value: Any) -> tuple[Any, list[Repair]] | None:
        if not isinstance(value, Step) or value.tool in TOOLS:
            return None
        near = [t for t in TOOLS if len(t) == len(value.tool) and sum(a != b for a, b in zip(t, value.tool)) == 1]
        if len(near) != 1:
            return None
        fix = Repair.make("semantic_fix", "/tool", value.tool, near[0], confidence=0.9)
        return value.model_copy(update={"tool": near[0]}), [fix]


class ToolWhitelist:
    @hookimpl
    def rp_semantic_validators(self, target: Any, ctx: CallContext) -> list[Any]:
        def check(value: Any) -> list[ErrorDetail]:
            if isinstance(value, Step) and value.tool not in TOOLS:
                return [ErrorDetail(path="/tool", kind="unknown_tool", message=f"{value.tool!r} is not a tool")]
            return []

        return [check]


def _parser(mode: str) -> Parser:
    return Parser(mode, plugins=[ToolWhitelist(), FixToolTypos()], entrypoints=False)


def test_a_valid_document_gets_its_value_repaired_on_the_fast_path_and_the_repair_is_recorded() -> None:
    result = _parser("lenient").parse_result('{"tool": "web_seerch"}', Step)
    assert result.value == Step(tool="web_search")
    assert [(r.kind, r.path, r.before, r.after) for r in result.repairs] == [
        ("semantic_fix", "/tool", "web_seerch", "web_search")
    ]


def test_the_repair_runs_after_syntax_repair_too() -> None:
    result = _parser("lenient").parse_result("{'tool': 'read_fyle',}", Step)
    assert result.value == Step(tool="read_file")
    assert [r.kind for r in result.repairs] == ["single_quotes", "single_quotes", "trailing_comma", "semantic_fix"]


def test_strict_ignores_a_lossy_value_repair_and_the_validator_reports() -> None:
    with pytest.raises(SemanticCheckError) as caught:
        _parser("strict").parse('{"tool": "web_seerch"}', Step)
    assert caught.value.errors[0]["kind"] == "unknown_tool"


def test_the_callers_value_is_not_mutated_and_unrelated_values_pass_untouched() -> None:
    result = _parser("lenient").parse_result('{"tool": "read_file"}', Step)
    assert result.value == Step(tool="read_file") and result.repairs == ()


class Other(BaseModel):
    tool: str


def test_targets_the_plugin_does_not_ask_for_get_no_repairers() -> None:
    parser = _parser("lenient")
    assert parser.plan(Other).repairers == ()
    assert parser.parse('{"tool": "web_seerch"}', Other) == Other(tool="web_seerch")
