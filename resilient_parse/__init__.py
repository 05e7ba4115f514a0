"""resilient_parse: turn what a language model actually says into the typed object a program needs.

from resilient_parse import parse, Parser, ParseError
call = parse(llm_text, ToolCall)
"""

from typing import TYPE_CHECKING

from resilient_parse.api import default_parser, parse, parse_result
from resilient_parse.context import (
    AliasEntry,
    CallContext,
    Candidate,
    Coercion,
    Event,
    KeyMapping,
    LoadResult,
)
from resilient_parse.errors import (
    AmbiguousMatchError,
    BudgetExhaustedError,
    ConfigurationError,
    CorrectionsExhaustedError,
    ErrorDetail,
    InputTooLargeError,
    InvalidInputError,
    ModelRefusedError,
    NoCandidateError,
    ParseError,
    PluginError,
    QuotaExhaustedError,
    RefusalError,
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
    from resilient_parse.correction import (
        AnthropicAdapter,
        CorrectionResult,
        LiteLLMAdapter,
        OpenAIAdapter,
        ToolCall,
        acorrect,
        acorrect_result,
        anthropic_tools,
        correct,
        correct_result,
        openai_tools,
        read_tool_calls,
    )
    from resilient_parse.streaming import StreamUpdate, partial_type

__version__ = "0.1.0"


_LAZY = {
    "correct": "resilient_parse.correction",
    "acorrect": "resilient_parse.correction",
    "correct_result": "resilient_parse.correction",
    "acorrect_result": "resilient_parse.correction",
    "CorrectionResult": "resilient_parse.correction",
    "OpenAIAdapter": "resilient_parse.correction",
    "AnthropicAdapter": "resilient_parse.correction",
    "LiteLLMAdapter": "resilient_parse.correction",
    "ToolCall": "resilient_parse.correction",
    "read_tool_calls": "resilient_parse.correction",
    "openai_tools": "resilient_parse.correction",
    "anthropic_tools": "resilient_parse.correction",
    "StreamUpdate": "resilient_parse.streaming",
    "partial_type": "resilient_parse.streaming",
}


def __getattr__(name: str) -> object:
    """Lazy exports of the correction loop, its adapters and tool calls, and streaming, so importing the core
    stays light."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'resilient_parse' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "LENIENT",
    "STRICT",
    "AliasEntry",
    "AmbiguousMatchError",
    "AnthropicAdapter",
    "BudgetExhaustedError",
    "CallContext",
    "Candidate",
    "Coercion",
    "ConfigurationError",
    "CorrectionResult",
    "CorrectionsExhaustedError",
    "ErrorDetail",
    "Event",
    "InputTooLargeError",
    "InvalidInputError",
    "KeyMapping",
    "LiteLLMAdapter",
    "LoadResult",
    "ModelRefusedError",
    "NoCandidateError",
    "OpenAIAdapter",
    "ParseError",
    "ParseResult",
    "Parser",
    "PluginError",
    "Policy",
    "QuotaExhaustedError",
    "RefusalError",
    "Repair",
    "SchemaMismatchError",
    "SemanticCheckError",
    "StreamUpdate",
    "ToolCall",
    "TruncatedOutputError",
    "UnrecoverableSyntaxError",
    "acorrect",
    "acorrect_result",
    "anthropic_tools",
    "correct",
    "correct_result",
    "default_parser",
    "hookimpl",
    "openai_tools",
    "parse",
    "parse_result",
    "partial_type",
    "read_tool_calls",
]
