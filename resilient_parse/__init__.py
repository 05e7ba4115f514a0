"""resilient_parse: turn what a language model actually says into the typed object a program needs.

    from resilient_parse import parse
    call = parse(llm_text, ToolCall)

The top level holds what a caller of `parse`, `stream` and `correct` needs. The rest lives in namespaces:
`resilient_parse.correction` (adapters, tool calls, the loop's errors), `resilient_parse.plugin_api` (what hooks
see and return), `resilient_parse.streaming` and `resilient_parse.testing` (a scripted LLM).
"""

import importlib
import warnings
from typing import TYPE_CHECKING

from resilient_parse.api import parse, parse_result
from resilient_parse.errors import (
    AmbiguousMatchError,
    ConfigurationError,
    CorrectionError,
    ErrorDetail,
    InputTooLargeError,
    InvalidInputError,
    NoCandidateError,
    ParseError,
    RefusalError,
    ResilientParseError,
    SchemaMismatchError,
    SemanticCheckError,
    TruncatedOutputError,
    UnrecoverableSyntaxError,
)
from resilient_parse.hookspecs import hookimpl
from resilient_parse.parser import Parser, ParseResult
from resilient_parse.policy import LENIENT, STRICT, Policy
from resilient_parse.repairs import Repair

if TYPE_CHECKING:  # the lazy exports below, visible to type checkers
    from resilient_parse.correction import CorrectionResult, acorrect, correct
    from resilient_parse.stream_api import astream, stream
    from resilient_parse.streaming import StreamUpdate

__version__ = "0.1.0"

_LAZY = {
    "correct": "resilient_parse.correction",
    "acorrect": "resilient_parse.correction",
    "CorrectionResult": "resilient_parse.correction",
    "stream": "resilient_parse.stream_api",
    "astream": "resilient_parse.stream_api",
    "StreamUpdate": "resilient_parse.streaming",
}

_MOVED = {
    **dict.fromkeys(
        (
            "AnthropicAdapter",
            "LiteLLMAdapter",
            "OpenAIAdapter",
            "ToolCall",
            "read_tool_calls",
            "openai_tools",
            "anthropic_tools",
            "correct_result",
            "acorrect_result",
            "CorrectionsExhaustedError",
            "BudgetExhaustedError",
            "ModelRefusedError",
            "QuotaExhaustedError",
        ),
        "resilient_parse.correction",
    ),
    **dict.fromkeys(
        ("AliasEntry", "CallContext", "Candidate", "Coercion", "Event", "KeyMapping", "LoadResult", "PluginError"),
        "resilient_parse.plugin_api",
    ),
    "partial_type": "resilient_parse.streaming",
    "default_parser": "resilient_parse.api",
}


def __getattr__(name: str) -> object:
    """The correction loop and streaming load on first use, so importing the core stays light; names that moved
    to a namespace still resolve, with a DeprecationWarning naming their home."""
    module = _LAZY.get(name)
    if module is None:
        module = _MOVED.get(name)
        if module is None:
            raise AttributeError(f"module 'resilient_parse' has no attribute {name!r}")
        warnings.warn(f"resilient_parse.{name} moved: import it from {module}", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    """The names `__getattr__` loads on first use are listed like the rest (moved names are not)."""
    return sorted({*globals(), *_LAZY})


__all__ = [
    "LENIENT",
    "STRICT",
    "AmbiguousMatchError",
    "ConfigurationError",
    "CorrectionError",
    "CorrectionResult",
    "ErrorDetail",
    "InputTooLargeError",
    "InvalidInputError",
    "NoCandidateError",
    "ParseError",
    "ParseResult",
    "Parser",
    "Policy",
    "RefusalError",
    "Repair",
    "ResilientParseError",
    "SchemaMismatchError",
    "SemanticCheckError",
    "StreamUpdate",
    "TruncatedOutputError",
    "UnrecoverableSyntaxError",
    "acorrect",
    "astream",
    "correct",
    "hookimpl",
    "parse",
    "parse_result",
    "stream",
]
