"""The public contract in a few lines: parse, Parser, ParseError, parse_result."""

from pydantic import BaseModel

import resilient_parse as rp


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


def test_parse_valid_json_returns_the_model() -> None:
    assert rp.parse('{"action": "search"}', ToolCall) == ToolCall(action="search")


def test_parse_result_records_repairs_for_fenced_trailing_comma() -> None:
    result = rp.Parser(entrypoints=False).parse_result('```json\n{"action": "search",}\n```', ToolCall)
    assert result.value == ToolCall(action="search")
    assert [r.kind for r in result.repairs] == ["extract_fence", "trailing_comma"]


def test_parse_error_is_structured() -> None:
    try:
        rp.parse("no json here", ToolCall)
    except rp.ParseError as err:
        assert err.errors[0]["kind"] == "no_candidate"
        assert {"path", "kind", "message"} <= set(err.errors[0])
    else:  # pragma: no cover
        raise AssertionError("expected ParseError")
