"""A LangChain output parser, so resilient parsing drops into existing chains (optional extra: langchain-core).

    from resilient_parse.correction.langchain import ResilientOutputParser
    chain = prompt | chat_model | ResilientOutputParser(target=Plan)

On failure it raises `LangChainParseError`, which is both our `ParseError` (errors with JSON Pointers, repairs) and
LangChain's `OutputParserException` with `send_to_llm=True` and the feedback message as `observation`, so
LangChain's own retry and fixing parsers work unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

try:
    from langchain_core.exceptions import OutputParserException
    from langchain_core.output_parsers import BaseOutputParser
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from resilient_parse.errors import ConfigurationError

    raise ConfigurationError(
        "ResilientOutputParser needs langchain-core: pip install 'resilient-parse[langchain]'"
    ) from exc

from pydantic import ConfigDict

from resilient_parse.api import default_parser
from resilient_parse.errors import ParseError
from resilient_parse.parser import Parser

T = TypeVar("T")


class LangChainParseError(ParseError, OutputParserException):
    """A `ParseError` that LangChain recognises as an output-parsing failure it may send back to the model."""

    def __init__(self, error: ParseError, llm_output: str, observation: str) -> None:
        ParseError.__init__(
            self,
            error.message,
            error.details,
            candidate=error.candidate,
            repairs=error.repairs,
            attempts=error.attempts,
        )
        self.kind = error.kind
        self.observation = observation
        self.llm_output = llm_output
        self.send_to_llm = True


class ResilientOutputParser(BaseOutputParser[T]):
    """Parse a model's text into `target` with local repair; `mode`, `aliases` or a ready `parser` configure it.
    `ResilientOutputParser(target=Plan)` is a parser of `Plan` for type checkers and for LangChain (`OutputType`)."""

    target: Any
    mode: str = "lenient"
    aliases: Mapping[str, str] | None = None
    parser: Parser | None = None

    model_config = ConfigDict(arbitrary_types_allowed=True)

    if TYPE_CHECKING:

        @overload
        def __init__(
            self: ResilientOutputParser[T],
            *,
            target: type[T],
            mode: str = ...,
            aliases: Mapping[str, str] | None = ...,
            parser: Parser | None = ...,
        ) -> None: ...
        @overload
        def __init__(
            self: ResilientOutputParser[Any],
            *,
            target: Any,
            mode: str = ...,
            aliases: Mapping[str, str] | None = ...,
            parser: Parser | None = ...,
        ) -> None: ...
        def __init__(self, **data: Any) -> None: ...

    @property
    def OutputType(self) -> type[T]:
        return cast("type[T]", self.target)

    def _use(self) -> Parser:
        return self.parser if self.parser is not None else default_parser(self.mode)

    def parse(self, text: str) -> T:
        parser = self._use()
        try:
            return cast(T, parser.parse_result(text, self.target, aliases=self.aliases).value)
        except ParseError as exc:
            raise LangChainParseError(exc, text, parser.feedback(exc, self.target)) from exc

    def get_format_instructions(self) -> str:
        import json

        schema = self._use().plan(self.target).adapter.json_schema()
        return "Answer with a single JSON value that matches this JSON Schema, and nothing else:\n" + json.dumps(
            schema, ensure_ascii=False
        )

    @property
    def _type(self) -> str:
        return "resilient_parse"
