"""Drop-in use at existing call sites: a decorator on the function that returns the model's text, and a LangChain
output parser that fits into existing chains."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, Parser, SchemaMismatchError
from resilient_parse.correction import CorrectionsExhaustedError, corrected, parsed


class ToolCall(BaseModel):
    action: Literal["search", "email"]
    query: str


FENCED = "Sure:\n```json\n{'action': 'search', 'query': 'pluggy',}\n```"
CALL = ToolCall(action="search", query="pluggy")


def test_parsed_turns_a_text_function_into_an_object_function() -> None:
    @parsed(ToolCall)
    def call_model(prompt: str) -> str:
        return FENCED

    assert call_model("find pluggy") == CALL


def test_parsed_keeps_the_functions_name_and_docs() -> None:
    @parsed(ToolCall)
    def call_model(prompt: str) -> str:
        """Ask the model."""
        return FENCED

    assert (call_model.__name__, call_model.__doc__) == ("call_model", "Ask the model.")


def test_parsed_works_on_async_functions() -> None:
    @parsed(ToolCall)
    async def call_model(prompt: str) -> str:
        return FENCED

    assert asyncio.run(call_model("find pluggy")) == CALL


def test_parsed_raises_parse_errors() -> None:
    @parsed(ToolCall, mode="strict")
    def call_model(prompt: str) -> str:
        return '{"action": "serch", "query": "x"}'

    with pytest.raises(SchemaMismatchError):
        call_model("x")


def test_corrected_re_asks_the_same_function_with_the_same_extra_arguments() -> None:
    seen: list[tuple[int, float]] = []
    answers = iter(['{"action": "teleport", "query": "x"}', '{"action": "email", "query": "x"}'])

    @corrected(ToolCall, parser=Parser(entrypoints=False), max_corrections=1)
    def chat(messages: list[dict[str, str]], temperature: float = 1.0) -> str:
        seen.append((len(messages), temperature))
        return next(answers)

    assert chat([{"role": "user", "content": "mail x"}], temperature=0.0) == ToolCall(action="email", query="x")
    assert seen == [(1, 0.0), (3, 0.0)]


def test_corrected_gives_up_like_correct() -> None:
    @corrected(ToolCall, parser=Parser(entrypoints=False), max_corrections=1)
    def chat(messages: list[dict[str, str]]) -> str:
        return "no idea"

    with pytest.raises(CorrectionsExhaustedError):
        chat([{"role": "user", "content": "x"}])


def test_corrected_works_on_async_functions() -> None:
    answers = iter(['{"action": "teleport", "query": "x"}', '{"action": "email", "query": "x"}'])

    @corrected(ToolCall, parser=Parser(entrypoints=False))
    async def chat(messages: list[dict[str, str]]) -> str:
        return next(answers)

    assert asyncio.run(chat([{"role": "user", "content": "x"}])) == ToolCall(action="email", query="x")


# -- LangChain --------------------------------------------------------------------------------------------------


@pytest.fixture
def lc() -> Any:
    pytest.importorskip("langchain_core", reason="the langchain extra is not installed")
    from resilient_parse.integrations import langchain

    return langchain


def test_the_output_parser_repairs_text(lc: Any) -> None:
    assert lc.ResilientOutputParser(target=ToolCall).parse(FENCED) == CALL


def test_the_output_parser_fits_in_a_chain_after_a_chat_model(lc: Any) -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from langchain_core.prompts import ChatPromptTemplate

    prompt = ChatPromptTemplate.from_messages([("user", "{request}")])
    chain = prompt | FakeListChatModel(responses=[FENCED]) | lc.ResilientOutputParser(target=ToolCall)
    assert chain.invoke({"request": "find pluggy"}) == CALL


def test_failures_are_langchain_output_parser_exceptions_with_feedback(lc: Any) -> None:
    from langchain_core.exceptions import OutputParserException

    parser = lc.ResilientOutputParser(target=ToolCall, parser=Parser(entrypoints=False))
    with pytest.raises(OutputParserException) as info:
        parser.parse('{"action": "teleport", "query": "x"}')
    error = info.value
    assert isinstance(error, ParseError) and error.kind == "schema"
    assert error.send_to_llm and error.llm_output == '{"action": "teleport", "query": "x"}'
    assert "/action: Input should be 'search' or 'email'" in error.observation


def test_format_instructions_carry_the_schema(lc: Any) -> None:
    instructions = lc.ResilientOutputParser(target=ToolCall).get_format_instructions()
    assert '"enum": ["search", "email"]' in instructions
