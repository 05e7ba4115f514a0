"""One case table of tool calls, run against every path that reads them, with equal results: `parse` of the calls
written as Hermes text, the last update of `stream` over that text, `read_tool_calls` given them as native calls,
`parse` given the SDK's own reply holding them (an OpenAI ChatCompletion, a Responses object), the LangChain
output parser given an `AIMessage` holding them, and the toolcalls plugin's registry reading the text. Each row is
a list of calls (tool name and arguments as written) and, per mode, the objects every path must give or `None`
when every path must refuse."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, Parser
from resilient_parse.correction import ToolCall, read_tool_calls

MODES = ("strict", "lenient")


class GetWeather(BaseModel):
    city: str
    unit: Literal["c", "f"] = "c"


class SendEmail(BaseModel):
    to: str
    subject: str


TARGET = list[GetWeather | SendEmail]
OSLO = ("get_weather", '{"city": "Oslo"}')
MAIL = ("send_email", '{"to": "ana@example.com", "subject": "Hi"}')


@dataclass(frozen=True)
class Row:
    id: str
    calls: list[tuple[str, str]]
    lenient: list[BaseModel] | None
    strict: Any = "same"  # the lenient outcome, unless given

    def expected(self, mode: str) -> list[BaseModel] | None:
        return self.lenient if mode == "lenient" or self.strict == "same" else self.strict


W, E = GetWeather(city="Oslo"), SendEmail(to="ana@example.com", subject="Hi")
ROWS = [
    Row("one call", [OSLO], [W]),
    Row("parallel calls, in order, a repeat kept", [OSLO, MAIL, OSLO], [W, E, W]),
    Row("the name in another style", [("GetWeather", '{"city": "Oslo"}')], [W]),
    Row("a namespace prefix", [("functions.get_weather", '{"city": "Oslo"}')], [W], strict=None),
    Row("a trailing comma in the arguments", [("get_weather", '{"city": "Oslo",}')], [W]),
    Row("a first letter changed is another name", [("set_weather", '{"city": "Oslo"}')], None),
    Row("a typo and a prefix at once is two guesses too many", [("functions.get_wether", '{"city": "Oslo"}')], None),
    Row("a tool outside the target", [OSLO, ("drop_table", '{"name": "users"}')], None),
    Row("arguments that do not fit the tool", [("get_weather", '{"town": 5}')], None),
]


def _hermes(calls: list[tuple[str, str]]) -> str:
    return "\n".join(f'<tool_call>\n{{"name": "{n}", "arguments": {a}}}\n</tool_call>' for n, a in calls)


def _by_parse(mode: str, calls: list[tuple[str, str]]) -> Any:
    return Parser(mode, entrypoints=False).parse(_hermes(calls), TARGET)


def _by_stream(mode: str, calls: list[tuple[str, str]]) -> Any:
    text = _hermes(calls)
    updates = list(Parser(mode, entrypoints=False).stream([text[i : i + 9] for i in range(0, len(text), 9)], TARGET))
    return updates[-1].value


def _by_native_calls(mode: str, calls: list[tuple[str, str]]) -> Any:
    native = [ToolCall(name, arguments) for name, arguments in calls]
    return read_tool_calls(native, TARGET, Parser(mode, entrypoints=False)).value


def _by_chat_completion(mode: str, calls: list[tuple[str, str]]) -> Any:
    from openai.types.chat import ChatCompletion

    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": arguments}}
            for i, (name, arguments) in enumerate(calls)
        ],
    }
    reply = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
        }
    )
    return Parser(mode, entrypoints=False).parse(reply, TARGET)


def _by_responses(mode: str, calls: list[tuple[str, str]]) -> Any:
    from openai.types.responses import Response

    items = [
        {"type": "function_call", "call_id": f"c{i}", "name": name, "arguments": arguments}
        for i, (name, arguments) in enumerate(calls)
    ]
    reply = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1_700_000_000,
            "model": "gpt-4o-mini",
            "status": "completed",
            "output": items,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
    )
    return Parser(mode, entrypoints=False).parse(reply, TARGET)


def _by_langchain(mode: str, calls: list[tuple[str, str]]) -> Any:
    pytest.importorskip("langchain_core", reason="the langchain extra is not installed")
    from langchain_core.exceptions import OutputParserException
    from langchain_core.messages import AIMessage

    from resilient_parse.integrations.langchain import ResilientOutputParser

    good, broken = [], []
    for i, (name, arguments) in enumerate(calls):
        try:
            good.append({"name": name, "args": json.loads(arguments), "id": f"c{i}", "type": "tool_call"})
        except json.JSONDecodeError:  # LangChain keeps arguments it could not decode apart
            broken.append({"name": name, "args": arguments, "id": f"c{i}", "error": "could not decode"})
    reply = AIMessage(content="", tool_calls=good, invalid_tool_calls=broken)
    try:
        return ResilientOutputParser(target=TARGET, mode=mode).invoke(reply)
    except OutputParserException as exc:
        raise ParseError(str(exc)) from exc


def _by_registry(mode: str, calls: list[tuple[str, str]]) -> Any:
    from rp_toolcalls import ToolRegistry

    registry = ToolRegistry()

    @registry.tool()
    def get_weather(city: str, unit: Literal["c", "f"] = "c") -> str:
        return city

    @registry.tool()
    def send_email(to: str, subject: str) -> str:
        return to

    parsed = registry.parse(_hermes(calls), parser=Parser(mode, entrypoints=False))
    if not parsed or not all(call.ok for call in parsed):
        raise ParseError("a call the registry cannot run")
    models = {"get_weather": GetWeather, "send_email": SendEmail}
    return [models[str(call.tool)].model_validate(call.arguments.model_dump()) for call in parsed if call.arguments]


PATHS = {
    "parse": _by_parse,
    "stream": _by_stream,
    "read_tool_calls": _by_native_calls,
    "chat_completion": _by_chat_completion,
    "responses": _by_responses,
    "langchain": _by_langchain,
    "registry": _by_registry,
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
@pytest.mark.parametrize("mode", MODES)
def test_every_path_gives_the_same_calls(mode: str, row: Row, path: str) -> None:
    expected = row.expected(mode)
    if expected is None:
        with pytest.raises(ParseError):
            PATHS[path](mode, row.calls)
    else:
        got = PATHS[path](mode, row.calls)
        assert got == expected
        assert [type(v) for v in got] == [type(v) for v in expected]
