"""Answer selection: which of the candidates the text offers is the answer, or why none is.

Extraction finds every piece that may hold the answer, with its facts (where it is, what the words right before it
call it, whether it is inside reasoning, whether the visible prose refuses). This stage holds the rules:

- A candidate labelled an example, a draft, a template or a rejected option is never the answer (a designated
  copy of the same text is); one offered as an alternative competes with the others but never wins alone.
- A refusal in the visible prose beats every candidate the text does not designate ("I will not do that").
- A draft inside a closed reasoning block is the answer only when nothing at all is written outside reasoning,
  and only where lossy choices are allowed (never in strict). A reasoning block the output stopped in holds no
  answer in any mode: the model never got to answer, so a draft there is reported as truncated output.
- Candidates are tried best tier first; two different values in the best tier are an ambiguity whatever their
  repairs cost (`AmbiguousMatchError` names both offsets); identical values are one answer; a piece that lies
  inside a candidate that validated is part of that answer, not a rival.
- Brackets that do not start JSON and are glued to a word of prose (`/[a-z]_/`, `items[i]`, `[text](url)`) are
  no candidate. When nothing else is, a text that is one value with nothing around it (`(1, 2)`, `'abc'`, `.5`,
  `True`, an unclosed `"abc`, a JSONP call's value) is one for a target with no shape of its own (`Any`; a tuple
  also for a list): the reader reads it or says why not; a word of prose is not a value.
- Nothing is dropped before ranking. `Policy.max_candidates` bounds how many candidates are *tried*; when it
  leaves JSON-looking candidates of the deciding tier untried, the result is an error, never a pick.

`rank_candidates` and `explain_no_candidate` are the built-in `rp_select_candidates`/`rp_explain_no_candidate`;
`select_answer` is the pipeline's try loop; `refuse_template_echo` refuses an answer template echoed back.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
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
    TruncatedOutputError,
)
from resilient_parse.repairs import Repair
from resilient_parse.schema import AnyView, ListView, TupleView
from resilient_parse.stages.extract import opens_json
from resilient_parse.text.cues import refusal_between
from resilient_parse.text.lexicon import lexicon

STAGE_PROGRESS = {"syntax": 1, "truncated": 1, "schema": 2, "ambiguous": 2, "semantic": 3}
"""How far a candidate got before it failed, by error kind: read (2) outranks unreadable (1)."""
_LOOKS_LIKE_OBJECT = re.compile(r"""["']?[A-Za-z_][\w\- ]*["']?\s*:""")
_PLACEHOLDER = re.compile(r'"<([A-Za-z][A-Za-z0-9_ -]{1,40})>"')
_PLACEHOLDER_TEXT = (
    "value string str number int integer float bool boolean name text type id description answer result key "
    "date time url email tool param arg argument list array object field query content title summary"
)
_PLACEHOLDER_WORDS = frozenset(_PLACEHOLDER_TEXT.split())
NOT_ANSWERS = frozenset({"example", "rejected"})
"""Labels that keep a candidate from being the answer (the text would have to designate another copy of it)."""


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
    """Whether `cand` lies inside a candidate that is recognisably the whole answer (the whole text or a fence: it
    was read that far, or it starts the way JSON does) and failed as one broken value: a piece cut out of a broken
    answer is not the answer (`{5}` out of `[{5}s `). Several values side by side (the whole failed only because
    text follows its first value) are not one broken value."""
    for failure in failures:
        outer = failure.candidate
        if outer.source not in ("whole", "fence") or (
            failure.progress < STAGE_PROGRESS["schema"] and not _looks_like_json(outer)
        ):
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


def choose_answer(successes: Sequence[Success], adapter: TypeAdapter[Any], untried: int = 0) -> Success:
    """The answer among the candidates that validated: the best tier's one value. Two different values there are
    an ambiguity, whatever their repairs cost; so are `untried` JSON-looking candidates of that tier left by the
    try bound (one of them could be a rival). A value offered only as an alternative is not chosen, and a draft
    from a reasoning block the output stopped in is reported as truncated output."""
    top = max(s.candidate.tier for s in successes)
    group = [s for s in successes if s.candidate.tier == top]
    group = [s for s in group if not any(_contains(o.candidate, s.candidate) for o in group)]
    distinct: list[Success] = group[:1]
    if len(group) > 1:  # one success needs no comparison (a dump of a large value costs a full serialisation)
        distinct = []
        dumped: list[bytes] = []
        for s in group:
            key = adapter.dump_json(s.value)
            if key not in dumped:
                dumped.append(key)
                distinct.append(s)
    if len(distinct) > 1:
        offsets = ", ".join(str(s.candidate.start) for s in distinct)
        raise AmbiguousMatchError(
            f"{len(distinct)} different JSON values in the output fit the target "
            f"(at offsets {offsets}); the text does not say which is the answer",
            [
                ErrorDetail(
                    path="", kind="ambiguous_candidates", message=f"different valid candidates at offsets {offsets}"
                )
            ],
            candidate=distinct[0].json_text,
        )
    chosen = min(group, key=lambda s: (s.cost, s.candidate.order))
    if untried:
        raise AmbiguousMatchError(
            f"{untried} more candidates of the same rank were not tried (Policy.max_candidates); one of them could "
            f"be a different answer than the one at offset {chosen.candidate.start}",
            [
                ErrorDetail(
                    path="",
                    kind="too_many_candidates",
                    message=f"{untried} candidates left untried by the limit",
                    offset=chosen.candidate.start,
                )
            ],
            candidate=chosen.json_text,
        )
    if all(s.candidate.label == "alternative" for s in group):
        raise AmbiguousMatchError(
            f"the only valid JSON (at offset {chosen.candidate.start}) is offered as an alternative; the text does "
            "not say it is the answer",
            [ErrorDetail(path="", kind="alternative_only", message="offered as an alternative, not as the answer")],
            candidate=chosen.json_text,
        )
    if chosen.candidate.region == "reasoning_cut":
        raise TruncatedOutputError(
            "the output was cut off inside a reasoning block: the JSON there is a draft, the model never gave its "
            "answer",
            [
                ErrorDetail(
                    path="",
                    kind="truncated_reasoning",
                    message="cut off inside a reasoning block; a draft is not an answer",
                    offset=chosen.candidate.start,
                )
            ],
            candidate=chosen.json_text,
        )
    return chosen


def _contains(outer: Candidate, inner: Candidate) -> bool:
    """Whether `inner` is a piece of `outer` (a line of a joined JSON Lines answer, a span inside a fence)."""
    return (
        inner.end > inner.start
        and outer.start <= inner.start
        and inner.end <= outer.end
        and (outer.start, outer.end) != (inner.start, inner.end)
    )


def select_answer(
    candidates: Sequence[Candidate],
    attempt: Callable[[Candidate], Success],
    adapter: TypeAdapter[Any],
    budget: int,
) -> Success:
    """Try the ranked candidates tier by tier (each tier in its ranked order) and choose the answer; raise the
    best failure when none validates. At most `budget` attempts: the work is bounded, and a bound that leaves a
    JSON-looking candidate of the deciding tier untried ends in an error. A candidate inside one of the tier's
    successes is part of that answer and is not tried. A tier whose best answer was read but is wrong stops the
    search: a lower-ranked draft that happens to validate must not replace it."""
    failures: list[Failure] = []
    tried = 0
    for tier in sorted({c.tier for c in candidates}, reverse=True):
        successes: list[Success] = []
        tier_failures: list[Failure] = []
        untried = 0
        for cand in (c for c in candidates if c.tier == tier):
            if any(_contains(s.candidate, cand) for s in successes):
                continue
            if tried >= budget:
                untried += _looks_like_json(cand)
                continue
            tried += 1
            try:
                successes.append(attempt(cand))
            except ParseError as exc:
                tier_failures.append(Failure(cand, exc, progress(exc, cand)))
        failures.extend(tier_failures)
        # a piece of an answer that failed, in this tier or a better one (a demoted span inside a cut-off whole)
        successes = [s for s in successes if not inside_failed_answer(s.candidate, failures)]
        if successes:
            _refuse_beside_a_cut_off_answer(successes, failures)  # this tier's and the better-ranked ones
            return choose_answer(successes, adapter, untried)
        if answer_was_read(tier_failures) or untried:
            break
    error = best_failure(failures)
    if tried >= budget and len(candidates) > tried:
        error.details = (
            *error.details,
            ErrorDetail(
                path="",
                kind="too_many_candidates",
                message=f"only {tried} of {len(candidates)} candidates were tried (Policy.max_candidates)",
            ),
        )
    raise error


def _refuse_beside_a_cut_off_answer(successes: Sequence[Success], failures: Sequence[Failure]) -> None:
    """A second answer the output stopped inside (`{"action": "search"}` then `Corrected: {"action": "delete_…`)
    may have been the one meant: the complete one is not the answer just because the other was cut. Unless it lies
    inside a success (a piece of it), such a cut-off JSON value in this or a better-ranked tier (a visible answer cut
    off beside a draft in reasoning) is `TruncatedOutputError`; and a
    success that is a piece of the cut-off value (`[1]` out of `[[1\n\n]`) is not the answer either."""
    for failure in failures:
        cand = failure.candidate
        if not isinstance(failure.error, TruncatedOutputError) or not _looks_like_json(cand):
            continue
        if any(_contains(s.candidate, cand) for s in successes):
            continue
        if any(_contains(cand, s.candidate) for s in successes):
            raise failure.error  # the success is a piece cut out of the value the output stopped inside
        where = ", ".join(str(s.candidate.start) for s in successes)
        raise TruncatedOutputError(
            f"the output holds an answer at offset {where} and another one, at offset {cand.start}, that was cut "
            "off; the text does not say the complete one is the answer",
            [
                *failure.error.details,
                ErrorDetail(
                    path="",
                    kind="cut_off_candidate",
                    message=f"a JSON value at offset {cand.start} was cut off beside the answer at offset {where}",
                    offset=cand.start,
                ),
            ],
            candidate=cand.text,
        )


def _looks_like_json(cand: Candidate) -> bool:
    return cand.text[:1] == '"' or opens_json(cand.text, 0)


MAX_JOIN_GAP = 120
"""The most prose between two objects that are read as one list ("Here is the first: {…} and the second: {…}")."""


def join_json_lines(text: str, found: Sequence[Candidate]) -> Candidate | None:
    """Several objects one after another read as one list — offered only when the target is a list. Separated
    only by white space or commas (JSON Lines) they are one list as written; separated by short prose ("Here is the
    first: {…} and the second: {…}") they are joined only when every one is in the visible answer, none is labelled
    (an example, an alternative, a rejected or a designated value), and no bracket stands between them. Either way
    one lossy `join_values` is recorded. Tried before its parts (order -1): when it validates, the parts are its
    pieces, not rivals."""
    spans = sorted(
        (c for c in found if c.source == "span" and c.tier >= 0 and c.text.startswith("{")), key=lambda c: c.start
    )
    if len(spans) < 2:
        return None
    prose = False
    for left, right in itertools.pairwise(spans):
        if left.end > right.start:
            return None
        gap = text[left.end : right.start]
        if not gap.strip(" \t\r\n,"):
            continue
        if len(gap) > MAX_JOIN_GAP or any(c in gap for c in "{}[]"):
            return None
        prose = True
    if prose and any(c.label or c.region != "answer" for c in spans):
        return None
    body = "[" + ",".join(c.text for c in spans) + "]"
    before = f"{len(spans)} separate values" + (" with prose between them" if prose else "")
    repair = Repair.make("join_values", "", before, "one list", offset=spans[0].start)
    return Candidate(body, spans[0].start, spans[-1].end, "joined", min(c.tier for c in spans), -1, (repair,))


def may_be_the_answer(cand: Candidate, ctx: CallContext) -> bool:
    """Whether the rules let a candidate be tried as the answer at all (see the module docstring). A draft from a
    reasoning block that was cut off is tried too, only so that its error (or its being a draft) is reported."""
    if cand.label in NOT_ANSWERS:
        return False
    if cand.region == "answer":
        return cand.refusal_at < 0 or cand.label == "designated"
    if cand.region == "reasoning":
        return not cand.visible_text and ctx.policy.allows("reasoning_candidate", lossless=False)
    return True


def rank_candidates(text: str, found: Sequence[Candidate], ctx: CallContext) -> list[Candidate]:
    """The candidates to try, best-first: the extracted ones the rules let be the answer, the whole text when it is
    one JSON string, and the values of a JSON Lines answer joined for a list target; one per distinct text, the
    best-ranked copy kept. Within a tier, JSON-looking candidates come before prose in braces ("{first_name}"),
    then text order. Nothing is cut: `select_answer` bounds the tries."""
    found = list(found)
    stripped = text.strip()
    if stripped.startswith('"') and stripped.endswith('"') and len(stripped) > 2:
        found.append(Candidate(stripped, text.find('"'), len(text), "whole"))
    elif not found and isinstance(ctx.schema, AnyView) and (padding := _jsonp_padding(stripped)) is not None:
        # `callback_123(2);`: JSONP, the value inside the call its padding wraps
        lead = text.find(stripped[0])
        inner = stripped[padding[0] : len(stripped) - padding[1]]
        at = lead + padding[0] + (len(inner) - len(inner.lstrip()))
        repair = Repair.make("extract_prose", "", None, None, offset=at, note="took the value out of a JSONP call")
        found.append(Candidate(inner.strip(), at, at + len(inner.strip()), "whole", repairs=(repair,)))
    elif not found and _one_value(stripped, ctx):
        # nothing else in the text could be the answer, and it starts the way one value does (`(1, 2)`, `'abc'`,
        # `.5`, `True`, `NumberLong(2)`, an unclosed `"abc`): the reader reads it, or says why it cannot (text
        # after the value, a cut, an elision); a word of prose is not a value
        found.append(Candidate(stripped, text.find(stripped[0]), len(text.rstrip()), "whole"))
    unique: dict[str, Candidate] = {}
    for cand in found:
        prev = unique.get(cand.text)
        if prev is None or (cand.tier, -cand.order) > (prev.tier, -prev.order):
            unique[cand.text] = cand
    eligible = [c for c in unique.values() if may_be_the_answer(c, ctx) and not _glued_prose(text, c)]
    if isinstance(ctx.schema, ListView | TupleView) and ctx.policy.allows("join_values"):
        joined = join_json_lines(text, eligible)
        if joined is not None and joined.text not in unique:
            eligible.append(joined)
    return sorted(eligible, key=lambda c: (-c.tier, not _looks_like_json(c), c.order))


_GLUE = frozenset("/\\_(")


def _glued_prose(text: str, cand: Candidate) -> bool:
    """Whether a span that does not start like JSON is part of a word of prose: written right against a letter, a
    digit, `_`, `/` or `\\` before it, or such a character or `(` after it (`/[a-z]_/`, `items[i]`, a link
    `[text](url)`). Brackets that start real JSON (`x=[1, 2]`, `id:{"a": 1}`) are never glued."""
    if cand.source not in ("span", "truncated_span") or _looks_like_json(cand):
        return False
    before = text[cand.start - 1] if cand.start > 0 else " "
    after = text[cand.end] if cand.end < len(text) else " "
    return before.isalnum() or (before in _GLUE and before != "(") or after.isalnum() or after in _GLUE


# how a text that is one value with nothing around it starts, besides `{` and `[` (which extraction finds)
_VALUE_STARTS = frozenset("{[(\"'`\u2018\u201c\uff02-+.0123456789")
# a lone word that is a value: a JSON, Python or JavaScript literal (`TRUE`, `Null` and other words are prose)
_VALUE_WORDS = frozenset({"true", "false", "null", "True", "False", "None", "undefined", "NaN", "Infinity"})
_LEAD_WORD = re.compile(r"[A-Za-z]++")
_SPACE_RUN = re.compile(r"\s++")
_LINE_END = re.compile(r"[\r\n\u2028\u2029]")
_MONGO_CALL = re.compile(r"(?:ObjectId|ISODate|NumberLong|NumberInt|NumberDecimal|UUID|Timestamp|BinData)\(")


_CALLBACK_NAME = re.compile(r"[A-Za-z_$][\w$]*+(?:\.[A-Za-z_$][\w$]*+)*+")


def _jsonp_padding(stripped: str) -> tuple[int, int] | None:
    """How many characters of JSONP padding stand before and after the value (`callback_123(` and `);`), when the
    whole text is one call of a named function on something (not a Mongo-shell wrapper, which the reader reads
    with its own repair); None otherwise. Linear: one search for '(' and one identifier match."""
    tail = 2 if stripped.endswith(");") else 1 if stripped.endswith(")") else 0
    opener = stripped.find("(")
    if not tail or opener <= 0 or _MONGO_CALL.match(stripped) is not None:
        return None
    inner = stripped[opener + 1 : len(stripped) - tail].strip()
    if _CALLBACK_NAME.fullmatch(stripped, 0, opener) is None or not _starts_a_value(inner):
        return None  # `print(x)`: a call on a name is code, not a value
    return opener + 1, tail


def _one_value(stripped: str, ctx: CallContext) -> bool:
    """Whether the whole text may be read as one JSON value written loosely: only for a target with no shape of
    its own (`Any`), or a list or tuple written as a Python tuple; and only when the text starts the way a value
    does, or is one literal word, or a Mongo-shell wrapper."""
    schema = ctx.schema
    if not stripped or not (
        isinstance(schema, AnyView) or (isinstance(schema, ListView | TupleView) and stripped[0] == "(")
    ):
        return False
    return _starts_a_value(stripped)


def _starts_a_value(stripped: str) -> bool:
    """Whether a text starts the way one JSON value written loosely does, or is one literal word or a Mongo-shell
    wrapper — after any comments it opens with (`/* config */ null`, JSON5), and a word only with nothing but
    comments after it (`null // none`)."""
    head = stripped[_past_comments(stripped, 0) :]
    if not head:
        return False
    word = _LEAD_WORD.match(head)
    return (
        head[0] in _VALUE_STARTS
        or head.startswith('\\"')  # JSON copied out of a JSON string, its quotes escaped
        or (word is not None and word.group() in _VALUE_WORDS and _past_comments(head, word.end()) == len(head))
        or _MONGO_CALL.match(head) is not None
    )


def _past_comments(text: str, at: int) -> int:
    """Where the white space and `//` or `/* */` comments from `at` end (each skipped once: linear)."""
    n = len(text)
    while True:
        space = _SPACE_RUN.match(text, at)
        at = space.end() if space is not None else at
        if text.startswith("/*", at):
            close = text.find("*/", at + 2)
            at = n if close < 0 else close + 2
        elif text.startswith("//", at):
            line_end = _LINE_END.search(text, at)
            at = n if line_end is None else line_end.start()
        else:
            return at


def explain_no_answer(text: str, found: Sequence[Candidate], ctx: CallContext) -> ParseError:
    """Why candidates were found but none may be the answer: a refusal in the visible prose, drafts inside
    reasoning only, or values the text labels examples or rejected options."""
    refusal = min((c.refusal_at for c in found if c.refusal_at >= 0), default=-1)
    if refusal >= 0:
        return RefusalError(
            "the model refused to answer; the JSON in the output is not given as the answer",
            [
                ErrorDetail(
                    path="",
                    kind="refusal",
                    message="the visible answer declines the task",
                    got=text[refusal : refusal + 120],
                    offset=refusal,
                )
            ],
        )
    drafts = [c for c in found if c.region != "answer" and c.label not in NOT_ANSWERS]
    if drafts:
        where = ", ".join(str(c.start) for c in sorted(drafts, key=lambda c: c.start)[:5])
        why = (
            "a draft is a lossy choice the policy does not allow"
            if not ctx.policy.allows("reasoning_candidate", lossless=False)
            else "the visible answer holds no JSON"
        )
        return NoCandidateError(
            f"the only JSON in the output is inside a reasoning block (at offsets {where}); {why}",
            [ErrorDetail(path="", kind="reasoning_only", message=f"JSON only inside reasoning; {why}")],
        )
    labelled = sorted((c for c in found if c.label in NOT_ANSWERS), key=lambda c: c.start)
    if not labelled:
        return explain_no_candidate(text)  # the brackets found are part of words of prose (`/[a-z]_/`)
    where = ", ".join(f"{c.start} ({c.label or 'reasoning'})" for c in labelled[:5])
    return NoCandidateError(
        f"every JSON value in the output is labelled an example, a draft or a rejected option (at offsets {where})",
        [ErrorDetail(path="", kind="no_answer", message="no JSON value is given as the answer")],
    )


_APOLOGY = frozenset({"apology"})
_APOLOGY_REACH = 8  # an apology this close to the start opens the output ("**Sorry**, …", "抱歉")


def _opens_with_apology(text: str) -> bool:
    """Whether an output opens with an apology ("I'm sorry, I don't know that.", "Lo siento…"): with no answer in
    it, that is a refusal."""
    cue = lexicon().first(_APOLOGY, text, 0, min(len(text), _APOLOGY_REACH + 40))
    return cue is not None and cue.start <= _APOLOGY_REACH


def explain_no_candidate(text: str) -> ParseError:
    """Why an output holds no candidate: a refusal, nothing at all, or prose without JSON."""
    stripped = text.strip()
    if refusal_between(stripped, 0, len(stripped)) >= 0 or _opens_with_apology(stripped):
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
