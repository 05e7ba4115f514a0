"""An answer that is the prompt's template with its placeholders unfilled is refused, even when it validates."""

import pytest
from pydantic import BaseModel

from resilient_parse import Parser, SchemaMismatchError


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, str] = {}


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_unfilled_placeholders_are_refused(mode: str) -> None:
    echo = '{"action": "<tool_name>", "arguments": {"<param_name>": "<value>"}}'
    with pytest.raises(SchemaMismatchError) as caught:
        Parser(mode, entrypoints=False).parse(echo, ToolCall)
    assert caught.value.errors[0]["kind"] == "template_echo"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"action": "<unknown>"}', ToolCall(action="<unknown>")),
        (
            '{"action": "render", "arguments": {"open": "<b>", "close": "<div>"}}',
            ToolCall(action="render", arguments={"open": "<b>", "close": "<div>"}),
        ),
    ],
)
def test_a_lone_placeholder_or_html_tags_in_content_pass(text: str, expected: ToolCall) -> None:
    assert Parser(entrypoints=False).parse(text, ToolCall) == expected
