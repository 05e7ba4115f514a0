"""resilient_parse: turn what a language model actually says into the typed object a program needs.

from resilient_parse import parse, Parser, ParseError
call = parse(llm_text, ToolCall)
"""

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

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """Lazy exports of the correction loop, so importing the core stays light."""
    if name in ("correct", "acorrect"):
        from resilient_parse import correction

        return getattr(correction, name)
    raise AttributeError(f"module 'resilient_parse' has no attribute {name!r}")

__all__ = [
    "LENIENT",
    "STRICT",
    "AliasEntry",
    "AmbiguousMatchError",
    "BudgetExhaustedError",
    "CallContext",
    "Candidate",
    "Coercion",
    "ConfigurationError",
    "CorrectionsExhaustedError",
    "ErrorDetail",
    "Event",
    "InputTooLargeError",
    "InvalidInputError",
    "KeyMapping",
    "LoadResult",
    "ModelRefusedError",
    "NoCandidateError",
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
    "TruncatedOutputError",
    "UnrecoverableSyntaxError",
    "acorrect",
    "correct",
    "default_parser",
    "hookimpl",
    "parse",
    "parse_result",
]
