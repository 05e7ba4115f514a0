"""Answer selection: which of the candidates the text offers is the answer, or why none is.

Extraction finds every piece that may hold the answer; this stage ranks them (`rp_select_candidates`), explains an
output with no candidate at all (`rp_explain_no_candidate`: a refusal, empty text, prose), and holds the rules the
pipeline applies while it tries candidates best-first: how far a failed candidate got (`progress`), that a piece cut
out of a broken whole answer is not the answer (`inside_failed_answer`), that an answer template echoed back is not
an answer (`refuse_template_echo`), and that two different answers the text does not choose between are an
ambiguity, not a pick (`choose_answer`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from resilient_parse.context import CallContext, Candidate
from resilient_parse.errors import (
    AmbiguousMatchError,
    ErrorDetail,
    NoCandidateError,
    ParseError,
    RefusalError,
    SchemaMismatchError,
)
from resilient_parse.repairs import Repair
from resilient_parse.schema import ListView, TupleView

_REFUSAL = re.compile(
    r"^\W*(?:i'?m sorry|i am sorry|sorry[,.!]|i apologi[sz]e|i can(?:no|')t|i cannot|i am unable|i'm unable|"
    r"i won'?t|as an ai|unfortunately,? i)",
    re.IGNORECASE,
)
STAGE_PROGRESS = {"syntax": 1, "truncated": 1, "schema": 2, "ambiguous": 2, "semantic": 3}
"""How far a candidate got before it failed, by error kind: read (2) outranks unreadable (1)."""
_LOOKS_LIKE_OBJECT = re.compile(r"""["']?[A-Za-z_][\w\- ]*["']?\s*:""")
_PLACEHOLDER = re.compile(r'"<([A-Za-z][A-Za-z0-9_ -]{1,40})>"')
_PLACEHOLDER_TEXT = (
    "value string str number int integer float bool boolean name text type id description answer result key "
    "date time url email tool param arg argument list array object field query content title summary"
)
_PLACEHOLDER_WORDS = frozenset(_PLACEHOLDER_TEXT.split())


@dataclass(frozen=True)
class Success:
    """A candidate that validated: the value, the repairs it took, and their total cost."""

    candidate: Candidate
    value: Any
    repairs: tuple[Repair, ...]
    json_text: str
    cost: float


@dataclass
class Failure:
    """A candidate that failed, with its error and how far it got (`progress`)."""

    candidate: Candidate
    error: ParseError
    progress: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def progress(error: ParseError, cand: Candidate) -> int:
    """How far a candidate got. A candidate that is recognisably the JSON answer but broken (truncated, bad
    syntax) counts as "read": a lower-ranked draft that happens to validate must not replace it."""
    reached = STAGE_PROGRESS.get(error.kind, 0)
    if reached == 1 and _LOOKS_LIKE_OBJECT.search(cand.text[:2000]):
        return 2
    return reached


def answer_was_read(failures: Sequence[Failure]) -> bool:
    """Whether a tier's best answer was read but is wrong: then no lower-ranked draft or example may win."""
    return any(f.progress >= STAGE_PROGRESS["schema"] for f in failures)


def inside_failed_answer(cand: Candidate, failures: Sequence[Failure]) -> bool:
    """Whether `cand` lies inside a candidate that is recognisably the whole answer (the whole text or a fence) and
    failed as one broken value: a piece cut out of a broken answer is not the answer. Several values side by side
    (the whole failed only because text follows its first value) are not one broken value."""
    for failure in failures:
        outer = failure.candidate
        if outer.source not in ("whole", "fence") or failure.progress < STAGE_PROGRESS["schema"]:
            continue
        if any(d.kind == "trailing_text" for d in failure.error.details):
            continue
        if outer.start <= cand.start and cand.end <= outer.end and (cand.start, cand.end) != (outer.start, outer.end):
            return True
    return False


def best_failure(failures: Sequence[Failure]) -> ParseError:
    """The error to report when no candidate validated: the best-ranked one that got furthest, with every
    attempt attached."""
    best = max(failures, key=lambda f: (f.candidate.tier, f.progress, -f.candidate.order))
    error = best.error
    error.attempts = tuple(
        {"source": f.candidate.source, "offset": f.candidate.start, "kind": f.error.kind, "message": f.error.message}
        for f in failures
    )
    return error


def refuse_template_echo(json_text: str) -> None:
    """An answer whose keys or values are the prompt's unfilled placeholders (`"<tool_name>"`, `"<value>"`) is the
    answer format echoed back, not an answer — even when it validates. Two distinct placeholders are needed, so a
    lone `"<unknown>"` or an HTML tag in real content passes."""
    found = {
        m.group(1)
        for m in _PLACEHOLDER.finditer(json_text)
        if any(c in m.group(1) for c in "_ -") or m.group(1).lower() in _PLACEHOLDER_WORDS
    }
    if len(found) >= 2:
        names = ", ".join(f"<{p}>" for p in sorted(found)[:5])
        raise SchemaMismatchError(
            f"the output is the answer template with its placeholders unfilled ({names})",
            [ErrorDetail(path="", kind="template_echo", message=f"placeholders instead of values: {names}")],
            candidate=json_text,
        )


def choose_answer(successes: Sequence[Success], adapter: TypeAdapter[Any]) -> Success:
    """The answer among the candidates that validated: the best tier, then the cheapest repairs. Two different
    values left after that are an ambiguity — the text does not say which one is meant."""
    top = max(s.candidate.tier for s in successes)
    group = [s for s in successes if s.candidate.tier == top]
    cheapest = min(s.cost for s in group)
    best = [s for s in group if s.cost - cheapest < 1e-9]
    if len(best) == 1:
        return best[0]
    distinct: list[Success] = []
    dumped: list[bytes] = []
    for s in best:
        key = adapter.dump_json(s.value)
        if key not in dumped:
            dumped.append(key)
            distinct.append(s)
    if len(distinct) > 1:
        offsets = ", ".join(str(s.candidate.start) for s in distinct)
        raise AmbiguousMatchError(
            f"{len(distinct)} different JSON values in the output fit the target equally well "
            f"(at offsets {offsets}); the text does not say which is the answer",
            [
                ErrorDetail(
                    path="", kind="ambiguous_candidates", message=f"equally good candidates at offsets {offsets}"
                )
            ],
            candidate=distinct[0].json_text,
        )
    return min(best, key=lambda s: s.candidate.order)


def join_json_lines(text: str, found: Sequence[Candidate]) -> Candidate | None:
    """Several objects one after another, separated only by white space or commas (JSON Lines), read as one list
    — offered only when the target is a list."""
    spans = sorted(
        (c for c in found if c.source == "span" and c.tier >= 0 and c.text.startswith("{")), key=lambda c: c.start
    )
    if len(spans) < 2:
        return None
    for left, right in itertools.pairwise(spans):
        if left.end > right.start or text[left.end : right.start].strip(" \t\r\n,"):
            return None
    body = "[" + ",".join(c.text for c in spans) + "]"
    repair = Repair.make("join_values", "", f"{len(spans)} separate values", "one list", offset=spans[0].start)
    return Candidate(body, spans[0].start, spans[-1].end, "joined", min(c.tier for c in spans), 0, (repair,))


def rank_candidates(text: str, found: Sequence[Candidate], ctx: CallContext) -> list[Candidate]:
    """The candidates to try, best-first: the extracted ones, the whole text when it is one JSON string, and the
    values of a JSON Lines answer joined for a list target; one per distinct text, the best-ranked copy kept."""
    found = list(found)
    stripped = text.strip()
    if stripped.startswith('"') and stripped.endswith('"') and len(stripped) > 2:
        found.append(Candidate(stripped, text.find('"'), len(text), "whole"))
    if isinstance(ctx.schema, ListView | TupleView) and ctx.policy.allows("join_values"):
        joined = join_json_lines(text, found)
        if joined is not None:
            found.append(joined)
    unique: dict[str, Candidate] = {}
    for cand in found:
        prev = unique.get(cand.text)
        if prev is None or (cand.tier, -cand.order) > (prev.tier, -prev.order):
            unique[cand.text] = cand
    ranked = sorted(unique.values(), key=lambda c: (-c.tier, c.order))
    return ranked[: ctx.policy.max_candidates]


def explain_no_candidate(text: str) -> ParseError:
    """Why an output holds no candidate: a refusal, nothing at all, or prose without JSON."""
    stripped = text.strip()
    if _REFUSAL.search(stripped):
        return RefusalError(
            "the model refused to answer",
            [ErrorDetail(path="", kind="refusal", message="the output is a refusal, not JSON", got=stripped[:120])],
        )
    if not stripped:
        return NoCandidateError("the output is empty", [ErrorDetail(path="", kind="empty", message="no text at all")])
    return NoCandidateError(
        "no JSON object or array found in the output",
        [ErrorDetail(path="", kind="no_candidate", message="no '{' or '[' starts a JSON value", got=stripped[:120])],
    )
