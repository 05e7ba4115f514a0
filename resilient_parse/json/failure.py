"""How the reader says it could not read a text: `ReadFailure`, and the library's error for one.

Apart from the reader so that the fast path (which refuses a number past a float's range as the reader would)
and the fallback can raise the reader's errors without loading the reader.
"""

from __future__ import annotations

from resilient_parse.errors import ErrorDetail, TruncatedOutputError, UnrecoverableSyntaxError

__all__ = ["ReadFailure", "as_error"]


class ReadFailure(Exception):
    """The reader could not read the text within the repairs it may make: where, why, and what kind of failure."""

    def __init__(self, message: str, offset: int, path: str, kind: str = "syntax", truncated: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.path = path
        self.kind = kind
        self.truncated = truncated


def as_error(failure: ReadFailure) -> UnrecoverableSyntaxError:
    """The library's error for a reader failure: its message, path, kind and offset."""
    cls = TruncatedOutputError if failure.truncated else UnrecoverableSyntaxError
    where = f" at {failure.path}" if failure.path else ""
    detail = ErrorDetail(path=failure.path, kind=failure.kind, message=failure.message, offset=failure.offset)
    return cls(f"{failure.message}{where} (offset {failure.offset})", [detail])
