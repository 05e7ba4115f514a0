"""The error taxonomy: every failure is data (path, kind, message, got) that serves logs, APIs and models alike.

Only these types leave the library::

    ValueError
    └── ConfigurationError          the library was called or set up wrongly (bad target, unknown mode)
        └── PluginError             a plugin could not be loaded or implements an unknown hook
    ResilientParseError             a failure told as data: details (path, kind, message), candidate, repairs
    ├── ParseError                  the text gave no honest object; its kinds say which stage gave up
    │   ├── InvalidInputError       not text we can read
    │   ├── InputTooLargeError      past the policy's size limit
    │   ├── NoCandidateError        nothing in the text is an answer
    │   │   └── RefusalError        the text is a refusal
    │   ├── UnrecoverableSyntaxError
    │   │   └── TruncatedOutputError
    │   ├── SchemaMismatchError     read, but not the target's shape
    │   ├── AmbiguousMatchError     two readings are plausible
    │   ├── SemanticCheckError      a semantic validator said no
    │   ├── CorrectionsExhaustedError*  the loop asked as often as allowed; no answer parsed
    │   └── ModelRefusedError*          the model refused; asking again burns tokens
    └── CorrectionError             the correction loop stopped without an object (`attempts` holds each call)
        ├── BudgetExhaustedError        the token budget or deadline ran out
        └── QuotaExhaustedError         the provider says the quota is gone

* also a `CorrectionError`. A budget or a quota stops the conversation, not the reading of a reply: those are
not `ParseError`s. When the loop ends because no answer parsed or the model refused, the error is both. Catch
`ResilientParseError` for all. Namespaces add kinds: `MalformedResponseError` (an adapter could not read the
provider's reply), `PatchFailedError` (the JSON Patch plugin) and `LangChainParseError` are `ParseError`s; the
test helper's `ScriptExhaustedError` is an `AssertionError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from resilient_parse.feedback import format_feedback
from resilient_parse.safe_text import escape_surrogates, json_safe, shorten, utf8_safe

if TYPE_CHECKING:  # for annotations only: the correction loop's record of a model call
    from resilient_parse.correction.types import Attempt


class _Missing:
    """`ErrorDetail.got` when nothing was got: one object, kept as itself by pickle and copy."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<missing>"

    def __reduce__(self) -> str:
        return "_MISSING"


_MISSING: Any = _Missing()
_MAX_CAUSE_CHARS = 500


@dataclass(frozen=True)
class ErrorDetail:
    """One thing that is wrong, at one place: `path` is a JSON Pointer into the candidate ("" is the root).

    `message` may be sent to the model (it is the feedback), so it holds only what the parser or a validator means
    the model to read. `cause` is for the local error and logs only (`to_dict`, never the feedback): the text of
    an exception a validator raised, which may hold anything (a DSN with its password, an internal hostname).
    """

    path: str
    kind: str
    message: str
    got: Any = _MISSING
    offset: int | None = None
    cause: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "kind": self.kind, "message": self.message}
        if self.got is not _MISSING:
            out["got"] = json_safe(self.got)
        if self.offset is not None:
            out["offset"] = self.offset
        if self.cause is not None:
            out["cause"] = shorten(self.cause, _MAX_CAUSE_CHARS)
        return utf8_safe(out)  # type: ignore[no-any-return]

    @property
    def has_got(self) -> bool:
        return self.got is not _MISSING


def as_detail(item: ErrorDetail | Mapping[str, Any]) -> ErrorDetail:
    """An `ErrorDetail`, or the mapping `to_dict()` gives (`path`, `kind`, `message`, `got`, ...) as one."""
    if isinstance(item, ErrorDetail):
        return item
    return ErrorDetail(
        path=str(item.get("path", "")),
        kind=str(item.get("kind", "error")),
        message=str(item.get("message", "")),
        got=item.get("got", _MISSING),
        offset=item.get("offset"),
        cause=None if item.get("cause") is None else str(item.get("cause")),
    )


class CandidateAttempt(TypedDict):
    """One candidate a parse tried and why it failed; a failed parse lists them all in `ParseError.attempts`."""

    source: str
    offset: int
    kind: str
    message: str


class ConfigurationError(ValueError):
    """The library was called or configured wrongly (unknown mode, bad target, broken plugin)."""


class PluginError(ConfigurationError):
    """A plugin could not be loaded or implements a hook that does not exist."""


class ResilientParseError(Exception):
    """A failure told as data: the root of `ParseError` and `CorrectionError`.

    `errors` is a list of JSON-serialisable dicts with at least `path`, `kind` and `message`; `details` holds the
    same as `ErrorDetail` objects. `candidate` is the best JSON text we got to (repaired), when there was one.
    """

    kind = "error"

    def __init__(
        self,
        message: str,
        errors: Iterable[ErrorDetail | Mapping[str, Any]] = (),
        *,
        candidate: str | None = None,
        repairs: Sequence[Any] = (),
        attempts: Sequence[CandidateAttempt | Attempt] = (),
    ) -> None:
        message = escape_surrogates(message)
        super().__init__(message)
        self.message = message
        self.details: tuple[ErrorDetail, ...] = tuple(as_detail(e) for e in errors)
        if not self.details:
            self.details = (ErrorDetail(path="", kind=self.kind, message=message),)
        self.candidate = candidate  # escaped: see the property
        self.repairs = tuple(repairs)
        self.attempts: tuple[CandidateAttempt | Attempt, ...] = tuple(attempts)
        self.stop_reason: str | None = None  # set by the correction loop: why it stopped asking

    @property
    def candidate(self) -> str | None:
        """The best JSON text we got to, with lone surrogates escaped (the same JSON value, and valid UTF-8)."""
        return self._candidate

    @candidate.setter
    def candidate(self, text: str | None) -> None:
        self._candidate = None if text is None else escape_surrogates(text)

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [d.to_dict() for d in self.details]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable summary for logs and APIs; every string in it encodes as UTF-8."""
        summary = {
            "error": type(self).__name__,
            "kind": self.kind,
            "message": self.message,
            "errors": self.errors,
            "candidate": self.candidate,
            "repairs": [r.to_dict() for r in self.repairs if hasattr(r, "to_dict")],
            "attempts": [dict(a) if isinstance(a, dict) else a.to_dict() for a in self.attempts],
            "stop_reason": self.stop_reason,
        }
        return utf8_safe(summary)  # type: ignore[no-any-return]

    def feedback(self) -> str:
        """The message to send back to the model so it can fix its answer."""
        return format_feedback(self, self.candidate)

    def __str__(self) -> str:
        lines = [self.message]
        if len(self.details) < 2:
            return self.message
        for d in self.details[:10]:
            where = d.path or "(root)"
            lines.append(f"  {where}: {d.message}")
        if len(self.details) > 10:
            lines.append(f"  (+{len(self.details) - 10} more)")
        return escape_surrogates("\n".join(lines))


class ParseError(ResilientParseError):
    """The text could not be turned into the target honestly."""

    kind = "parse_error"


class InvalidInputError(ParseError):
    """The input was not text we can read (not a str, invalid UTF-8 bytes, a lone surrogate escape: `\\ud800`)."""

    kind = "invalid_input"


class InputTooLargeError(ParseError):
    """The input is larger than the policy's limit; rejected before any work is done."""

    kind = "input_too_large"


class NoCandidateError(ParseError):
    """The text holds nothing that looks like a JSON value."""

    kind = "no_candidate"


class RefusalError(NoCandidateError):
    """The model declined to answer ("I'm sorry, I can't …"); re-asking with errors will not help."""

    kind = "refusal"


class UnrecoverableSyntaxError(ParseError):
    """A candidate's syntax cannot be repaired within the policy."""

    kind = "syntax"


class TruncatedOutputError(UnrecoverableSyntaxError):
    """The output stops mid-value; completing it would invent data."""

    kind = "truncated"


class SchemaMismatchError(ParseError):
    """The JSON was read, but does not fit the target (missing fields, wrong types, out of range)."""

    kind = "schema"


class AmbiguousMatchError(ParseError):
    """Two equally good readings exist (keys, enum values, or candidates); picking one would be a coin toss."""

    kind = "ambiguous"


class SemanticCheckError(ParseError):
    """The object fits the schema but a semantic validator rejected it (e.g. a cycle in a plan).

    A validator tells the model something only on purpose: by returning (or yielding) `ErrorDetail`s, or by
    raising a `ParseError` (e.g. `SemanticCheckError("...", [ErrorDetail(...)])`), whose details are used as
    written. Any other exception becomes "the validator <name> rejected the value"; its text is kept in the
    detail's `cause`, for the local error and logs only.
    """

    kind = "semantic"


class CorrectionError(ResilientParseError):
    """The correction loop stopped without a valid object; `attempts` records every model call."""

    kind = "correction_error"
    attempts: tuple[Attempt, ...]


class CorrectionsExhaustedError(CorrectionError, ParseError):
    """The correction loop asked the model again as often as allowed and still has no valid object."""

    kind = "corrections_exhausted"
    attempts: tuple[Attempt, ...]


class BudgetExhaustedError(CorrectionError):
    """The correction loop stopped because its token budget or deadline ran out."""

    kind = "budget_exhausted"
    attempts: tuple[Attempt, ...]


class ModelRefusedError(CorrectionError, ParseError):
    """The model refused during the correction loop; asking again would burn tokens for nothing."""

    kind = "model_refused"
    attempts: tuple[Attempt, ...]


class QuotaExhaustedError(CorrectionError):
    """The LLM provider says the quota is exhausted: stop now."""

    kind = "quota_exhausted"
    attempts: tuple[Attempt, ...]
