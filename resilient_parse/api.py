"""The one-call entry point: `parse(text, Target)`.

`text` is the model's output as str or bytes, or the reply object its SDK returned (an OpenAI `ChatCompletion`,
`Choice` or `ChatCompletionMessage`, a Responses-API `Response`, an Anthropic `Message`, a LangChain `AIMessage`):
its text, or its tool calls, are read as `tools/replies.py` says.

`parse` uses a default `Parser` per mode, built on first use with the installed entry-point plugins. The cache
holds immutable configuration only; build your own `Parser` for custom plugins, aliases or policies.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TypeVar, overload

from typing_extensions import TypeForm

from resilient_parse.parser import Parser, ParseResult
from resilient_parse.policy import Policy

T = TypeVar("T")


@lru_cache(maxsize=8)
def default_parser(mode: str | Policy = "lenient") -> Parser:
    """The shared parser for a mode (plugins from entry points included)."""
    return Parser(mode=mode)


@overload
def parse(
    text: str | bytes | object,
    target: type[T],
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
) -> T: ...
@overload
def parse(
    text: str | bytes | object,
    target: TypeForm[T],
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
) -> T: ...
def parse(
    text: str | bytes | object,
    target: Any,
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
) -> Any:
    """Turn a model's output (text, or an SDK reply object) into `target` (any type Pydantic v2 validates), or raise
    `ParseError`."""
    return default_parser(mode).parse(text, target, aliases=aliases)


@overload
def parse_result(
    text: str | bytes | object,
    target: type[T],
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
) -> ParseResult[T]: ...
@overload
def parse_result(
    text: str | bytes | object,
    target: TypeForm[T],
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
) -> ParseResult[T]: ...
def parse_result(
    text: str | bytes | object,
    target: Any,
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
) -> ParseResult[Any]:
    """Like `parse`, but returns the object together with every repair that produced it."""
    return default_parser(mode).parse_result(text, target, aliases=aliases)
