"""What the correction loop's state machine and its drivers exchange: requests, replies, an llm's error."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from resilient_parse.correction.types import CorrectionResult
from resilient_parse.errors import CorrectionError
from resilient_parse.llm.base import LLMAdapter
from resilient_parse.llm.types import Messages

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class _Call:
    adapter: LLMAdapter
    messages: Messages


@dataclass(frozen=True)
class _Callback:
    fn: Callable[..., Any]
    error: CorrectionError


@dataclass(frozen=True)
class _Reply:
    value: Any = None
    error: Exception | None = None
    latency_s: float = 0.0


Request = _Call | _Callback
Engine = Generator[Request, _Reply, CorrectionResult[Any]]


class _Raised(Exception):
    """The llm's (or on_exhausted's) own exception on its way out of the loop's generator. Raised there as it is, a
    `StopIteration` would turn into `RuntimeError("generator raised StopIteration")` (PEP 479) and lose its
    `.attempts`; the drivers raise `error` itself once they are out of the generator."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error


def _message(exc: BaseException) -> str:
    """`str(exc)`, or a placeholder for an exception whose `__str__` raises: describing the llm's error must never
    raise an error of its own in its place."""
    try:
        return str(exc)
    except Exception:
        return f"<the message of {type(exc).__name__} could not be read>"
