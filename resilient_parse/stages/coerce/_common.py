"""What a coercion hands back, and the comparisons every coercion module shares.

A coercion answers with one repair (`_changed`), with a refusal that says why (`_refuse`), or with None.
`_changed` is where the policy is asked about the repair's kind and where a "repair" that changes nothing becomes
None, so no module can record a no-op. The edit-distance helpers wrap rapidfuzz, imported on first use rather
than with this module, so that importing the library and building the first parser stay light.
"""

from __future__ import annotations

from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.errors import ErrorDetail
from resilient_parse.repairs import Repair


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type (True is not 1, "1" is not 1)."""
    return type(a) is type(b) and a == b


def _unique(values: Any) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if not any(_same(v, o) for o in out):
            out.append(v)
    return out


def _changed(before: Any, after: Any, kind: str, path: str, ctx: CallContext, **extra: Any) -> Coercion | None:
    """A coercion recording `kind`, or None when the policy refuses the kind or nothing would change."""
    if _same(before, after) or not ctx.policy.allows(kind):
        return None
    return Coercion(after, (Repair.make(kind, path, before, after, **extra),))


def _refuse(path: str, kind: str, message: str, got: Any) -> Coercion:
    return Coercion(error=ErrorDetail(path=path, kind=kind, message=message, got=got))


def edit_similarity(a: str, b: str) -> float:
    """How close two spellings are, 0..1: normalised optimal-string-alignment distance (Levenshtein that counts an
    adjacent swap as one edit)."""
    from rapidfuzz.distance import OSA

    return OSA.normalized_similarity(a, b)


def edit_distance(a: str, b: str) -> int:
    """The number of edits (insert, delete, substitute, swap two neighbours) between two spellings."""
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b)
