"""The update a stream yields: its own module so the stream's state and its drivers share it without a cycle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from resilient_parse.parser import ParseResult

T = TypeVar("T")


@dataclass(frozen=True)
class StreamUpdate(Generic[T]):
    """One step of a stream.

    - `partial`: an instance of `partial_type(target)` — every field optional, filled with what is complete so far
      (None means "not arrived yet"; `partial.model_fields_set` says which fields did). On the final update it is
      the partial view of the final object, so a UI can always render `update.partial`.
    - `is_final`: True exactly once, on the last update.
    - `value`: the validated target object (final update only).
    - `result`: the `ParseResult` (value, repairs, candidate) behind `value` (final update only).
    - `correction`: the correction loop's `CorrectionResult` when `correct_with` was given (final update only).
    - `received`: characters received so far.
    """

    partial: Any
    is_final: bool = False
    value: T | None = None
    result: ParseResult[T] | None = None
    correction: Any = None
    received: int = 0
