"""Plain-text answers for scalar and choice targets: a judge's "**True**", a classifier's "The sentiment is
positive.", a scorer's "12,111", a router's "ONE", a list written as bullets or one comma-separated line.

Offered only when the target is a `bool`, a number, a `str`, an enum or Literal (or an `Optional`/`list[...]` of
one) and the visible answer holds no JSON: the reading becomes a `Candidate` whose text is the JSON it stands for
(`true`, `"12,111"`, `"positive"`, `["a", "b"]`), so selection (a refusal still wins), the reader, coercion and
Pydantic treat it like any other candidate. Where the text says more than one thing — two different members or
numbers, a hedge ("positive or neutral", "maybe"), a negated member ("not positive"), arithmetic ("1/5") — there
is no candidate, and `explain` says why (`AmbiguousMatchError` naming what was mentioned). So are a bound or a
shade ("at least 42", "<42", "42+", "~42", "mostly positive", "positive-ish"), a member glued to a negating prefix
("non-negative"), a bool after a negation anywhere in its sentence ("It is not the case that … True"), a list that
says "or" ("1, 2, or 3": a choice), and a string answer with an example line ("Example: …"): which lines are the
answer would be a guess, so it is refused rather than cut.

A number is read as its whole run of digits and separators, never cut at a comma: a plain number or digits in
thousands groups ("12,111") go to coercion (`number_from_string`), which reads or refuses them for the field; any
other comma or a second dot ("0,5", "1.234,56", "12,34", "1.2.3") is refused here (`ambiguous_number`) — in prose a
comma may also separate two numbers, so even a decimal comma is a guess.

A lone exact value (`positive`, `True`) is a lossless `plain_value`; every other reading is lossy (`plain_answer`,
`plain_text`, `plain_list`) and strict mode refuses it with an error that says so. One linear pass per reading:
word and number tokens are found by `finditer` with bounded patterns, members by a window of at most
`_MAX_MEMBER_WORDS` tokens per position.
"""

from __future__ import annotations

import bisect
import enum
import itertools
import json
import re
import threading
import weakref
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from resilient_parse.context import CallContext, Candidate
from resilient_parse.errors import (
    AmbiguousMatchError,
    ErrorDetail,
    ParseError,
    RefusalError,
    UnrecoverableSyntaxError,
)
from resilient_parse.repairs import Repair
from resilient_parse.schema import ChoiceView, ListView, ScalarView, TypeView, UnionView
from resilient_parse.stages.coerce.numbers import UNIT_WORDS
from resilient_parse.stages.extract import REFUSAL_SENTENCE, find_fences, opens_json, scan_spans, split_reasoning

SOURCE = "plain"
_MAX_MEMBER_WORDS = 8
_LISTED = 6
_NEGATION_WINDOW = 3
_BOOL_WORDS = {"true": True, "false": False, "yes": True, "no": False}
_LOSSLESS_BOOLS = frozenset({"true", "false", "True", "False"})
_NEGATIONS = frozenset(
    {"not", "never", "no", "isn't", "aren't", "wasn't", "weren't", "cannot", "neither", "nor", "without", "non"}
)
_HEDGES = frozenset(
    {
        "maybe",
        "perhaps",
        "possibly",
        "probably",
        "unsure",
        "unclear",
        "uncertain",
        "depends",
        "either",
        "partly",
        "approximately",
        "roughly",
        "around",
        "about",
        "nearly",
        "almost",
        "approx",
        "circa",
        "mostly",
        "largely",
        "mainly",
        "somewhat",
        "slightly",
        "mildly",
        "fairly",
        "borderline",
        "leaning",
        "ish",
    }
)
# words right before a number that make it a bound, not the value: "at least 42", "more than 42", "up to 42"
_COMPARATOR_WORDS = frozenset(
    {"least", "most", "than", "up", "upto", "over", "under", "above", "below", "beyond", "exceeding", "max", "min"}
)
# words right after one: "42 or more", "42 max", "42 plus"
_COMPARATOR_AFTER = frozenset({"max", "maximum", "min", "minimum", "plus", "upward", "upwards"})
_OR_BOUND = frozenset({"more", "less", "so", "fewer", "above", "below", "higher", "lower", "over", "under"})
_COMPARATOR_SIGNS = "<>\u2264\u2265~\u2248\u2272\u2273\u2260!"
_NEGATING_PREFIXES = frozenset({"non", "un", "not", "in", "im", "dis", "anti", "no"})
_NUMERIC_TYPES = (int, float, Decimal)

_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")
# the whole run of digits and the separators between them ("0,5", "1.234,56"), so no reading stops at a comma
_NUMBER = re.compile(r"(?<![\w.,])([-+]?)(\d+(?:[.,]\d+)*)(?!\w|[.,]\d)")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?")
_UNIT_AFTER = re.compile(r"[ \t]?(%|[A-Za-z]+)")
_OPERATOR = frozenset({"/", "*", "\u00d7", "+", "^", "=", "x", "\u00f7", ":"})
_SPACED_OPERATOR = frozenset({" - ", " \u2013 ", " \u2212 "})  # "10 - 2"; "2024-01-02" is a date, not a sum
_CLAUSE_BREAKS = ".!?;,\n"
# "Answer: …", "**Final answer:** …", "The answer is …", "Verdict = …": the line that designates the answer
_ANSWER_LABEL = re.compile(
    r"^[ \t>*_#-]{0,8}(?:the[ \t]+)?(?:final[ \t]+)?(?:answer|result|output|verdict|prediction|label"
    r"|classification|choice|response|decision)[ \t*_]{0,4}(?:is\b|[:=\u2013\u2014-])[ \t*_]{0,4}",
    re.IGNORECASE | re.MULTILINE,
)
_BULLET = re.compile(r"^[ \t]{0,8}(?:[-*\u2022+]|\d{1,3}[.)])[ \t]+(\S[^\n]*)$", re.MULTILINE)
_LEADING_LABEL = re.compile(r"[ \t*_]{0,4}[^\W\d_][\w-]{0,30}(?:[ \t][\w-]{1,30}){0,2}[ \t*_]{0,4}:[ \t*_]{0,4}")
_BLANK_LINE = re.compile(r"[ \t\r]*\n[ \t\r]*\n")
_LIST_SPLIT = re.compile(r"[,;]|[ \t]+and[ \t]+|[ \t]+&[ \t]+", re.IGNORECASE)
_DECORATION = " \t\r\n*_`\"'\u201c\u201d\u2018\u2019.!,;:()[]"
_MAX_ITEM_WORDS = 3
_SENTENCE_TOKEN = re.compile(r"[.!?;\n]|[^\W_]+(?:['\u2019][^\W_]+)?")
# "Example: …", "For instance - …", "e.g.: …": a line that illustrates, not part of a string answer
_EXAMPLE_LINE = re.compile(
    r"^[ \t>*_#-]{0,8}(?:for[ \t]+)?(?:examples?|instance|sample|e\.g\.?)[ \t*_]{0,4}[:=\u2013\u2014-]",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class Reading:
    """What the plain text gives for the target: candidates, or the error that explains why there is none
    (None when the text is not a plain answer at all, e.g. it holds JSON)."""

    candidates: tuple[Candidate, ...] = ()
    error: ParseError | None = None


@dataclass(frozen=True)
class _Target:
    kind: str  # "bool", "number", "str", "choice"
    view: TypeView
    nullable: bool = False


@dataclass(frozen=True)
class _Mention:
    value: Any  # what it means (numbers as Decimal, so 12,111 and 12111 are one value)
    raw: str
    start: int
    end: int
    exact: bool = False  # the JSON value's own spelling (no case change, no name)
    written: Any = None  # what the candidate writes: the JSON value, or a number's text for coercion ("12,111")


def _scalar_target(view: TypeView) -> _Target | None:
    nullable = False
    if isinstance(view, UnionView):
        if len(view.options) != 1:
            return None
        nullable, view = view.nullable, view.options[0]
    if isinstance(view, ChoiceView):
        return _Target("choice", view, nullable) if _choice_values(view) else None
    if isinstance(view, ScalarView) and view.py_type in _NUMERIC_TYPES and view.py_type is not bool:
        return _Target("number", view, nullable)
    if isinstance(view, ScalarView):
        if view.py_type is bool:
            return _Target("bool", view, nullable)
        if view.py_type is str:
            return _Target("str", view, nullable)
    return None


def _choice_values(view: ChoiceView) -> list[Any]:
    values = [v.value if isinstance(v, enum.Enum) else v for v in view.values]
    return [v for v in values if isinstance(v, str | int) and not isinstance(v, bool)]


def plain_target(view: TypeView) -> tuple[_Target, bool] | None:
    """The scalar/choice target a plain answer may be read for, and whether a list of it is wanted."""
    if isinstance(view, ListView):
        item = _scalar_target(view.item)
        return (item, True) if item is not None and not item.nullable else None
    found = _scalar_target(view)
    return (found, False) if found is not None else None


_LAST = threading.local()
"""The last reading that ended in an error, per thread, for `explain` in the same parse: the explanation hook
gets the same text and context right after extraction, and reading twice would double the cost. Keyed by a weak
reference to the call's context (which holds the text), so it keeps neither alive."""


def read_plain(text: str, ctx: CallContext) -> Reading:
    """The plain reading of `text` for `ctx.schema` (see the module docstring)."""
    reading = _read(text, ctx)
    if reading.error is not None and text is ctx.text:
        _LAST.entry = (weakref.ref(ctx), reading)
    return reading


def explain(text: str, ctx: CallContext) -> ParseError | None:
    """Why a plain answer gave no candidate (ambiguous, hedged, negated, arithmetic, not allowed), or None."""
    entry = getattr(_LAST, "entry", None)
    _LAST.entry = None
    if entry is not None and entry[0]() is ctx and text is ctx.text:
        reading: Reading = entry[1]
    else:
        reading = _read(text, ctx)
    return None if reading.candidates else reading.error


def _read(text: str, ctx: CallContext) -> Reading:
    planned = plain_target(ctx.schema)
    if planned is None:
        return Reading()
    target, as_list = planned
    zone = _answer_zone(text)
    if zone is None:
        return Reading()
    start, end = zone
    if _holds_json(text, start, end):
        return Reading()
    refusal_at = _refusal(text, start, end)
    if as_list:
        reading = _read_list(text, start, end, target, ctx, refusal_at)
    elif target.kind == "str":
        reading = _read_str(text, start, end, ctx, refusal_at)
    else:
        # every mention in the visible answer counts, a labelled line's too: "it mentions positive and negative
        # … Final answer: neutral" names three members, and picking the labelled one would be a judgement
        reading = _read_one(text, start, end, target, ctx, refusal_at)
    if refusal_at >= 0 and reading.error is not None:
        return Reading()  # a refusal outranks any verdict on the words around it: the built-in explains it
    return reading


# -- where the answer is ---------------------------------------------------------------------------------------------


def _answer_zone(text: str) -> tuple[int, int] | None:
    """The visible answer: the one non-empty stretch outside reasoning blocks, or the body of its one fence."""
    visible = [r for r in split_reasoning(text) if not r.reasoning and text[r.start : r.end].strip()]
    if len(visible) != 1:
        return None
    start, end = _strip(text, visible[0].start, visible[0].end)
    fences = find_fences(text[start:end])
    if len(fences) > 1:
        return None
    if fences:
        start, end = _strip(text, start + fences[0].body_start, start + fences[0].body_end)
    return (start, end) if start < end else None


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _holds_json(text: str, start: int, end: int) -> bool:
    """Whether the answer holds a JSON value the other extractors read (an object, an array, a whole string)."""
    body = text[start:end]
    if len(body) > 1 and body[0] == '"' and body[-1] == '"':
        return True
    return any(opens_json(text, s.start) for s in scan_spans(text, start, end))


def _refusal(text: str, start: int, end: int) -> int:
    """Where the visible answer refuses the task, or -1 (the rules of `stages/select.py`)."""
    from resilient_parse.stages.select import explain_no_candidate

    m = REFUSAL_SENTENCE.search(text, start, end)
    if m is not None:
        return m.start()
    return start if isinstance(explain_no_candidate(text[start:end]), RefusalError) else -1


def _last_label(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The rest of the last line that designates the answer ("Answer: …"), when there is one."""
    last = None
    for m in _ANSWER_LABEL.finditer(text, start, end):
        last = m
    if last is None:
        return None
    line_end = text.find("\n", last.end(), end)
    return _strip(text, last.end(), end if line_end < 0 else line_end)


# -- one value ---------------------------------------------------------------------------------------------------


def _read_one(text: str, start: int, end: int, target: _Target, ctx: CallContext, refusal_at: int) -> Reading:
    """One value from text[start:end]; lossless only when it is the whole visible answer, as written."""
    mentions, error = _mentions(text, start, end, target, "")
    if error is not None:
        return Reading(error=error)
    if not mentions:
        if target.nullable and text[start:end].strip(_DECORATION).lower() in ("none", "null", "n/a"):
            return _offer(None, text, start, end, "plain_answer", ctx, refusal_at)
        return Reading()
    first = mentions[0]
    lone = first.exact and (first.start, first.end) == (start, end)
    kind = "plain_value" if lone else "plain_answer"
    return _offer(first.written, text, first.start, first.end, kind, ctx, refusal_at)


def _mentions(text: str, start: int, end: int, target: _Target, path: str) -> tuple[list[_Mention], ParseError | None]:
    """Every mention of a value of the target in text[start:end]; an error when they say different things."""
    if target.kind == "number":
        found, unreadable = _numbers(text, start, end)
        if unreadable is not None:
            message = f"{unreadable.raw!r} could be a decimal comma, a list or a grouping; refusing to guess"
            return [], _ambiguous(message, path, "ambiguous_number", unreadable)
        error = _arithmetic(text, found, path)
        if error is not None:
            return [], error
    elif target.kind == "bool":
        found = _bools(text, start, end)
    else:
        assert isinstance(target.view, ChoiceView)
        found = _members(text, start, end, target.view)
    if not found:
        return [], None
    for m in found:
        if _negated(text, m.start, start) or _negating_prefix(text, m, start):
            message = f"{m.raw!r} is negated ({text[max(start, m.start - 20) : m.end]!r}); refusing to guess"
            return [], _ambiguous(message, path, "negated_plain_answer", m)
    if target.kind == "bool":
        negated = _negated_in_sentence(text, start, end, found)
        if negated is not None:
            message = f"{negated.raw!r} follows a negation in its sentence; refusing to guess"
            return [], _ambiguous(message, path, "negated_plain_answer", negated)
    hedge = _hedge_word(text, start, end, found) or _qualifier(text, start, end, found)
    if hedge is not None:
        return [], _ambiguous(f"the answer is hedged ({hedge!r})", path, "hedged_plain_answer", found[0])
    distinct: list[_Mention] = []
    for m in found:
        if not any(_same_value(m.value, d.value) for d in distinct):
            distinct.append(m)
            if len(distinct) > _LISTED:
                break  # enough to say it is ambiguous; comparing every value with every other would be quadratic
    if len(distinct) > 1:
        listed = ", ".join(repr(d.raw) for d in distinct[:_LISTED])
        count = f"{len(distinct)}" if len(distinct) <= _LISTED else f"more than {_LISTED}"
        message = f"{count} different values are mentioned ({listed}); the text does not say which"
        named = [d.raw for d in distinct[:_LISTED]]
        return [], _ambiguous(message, path, "ambiguous_plain_answer", distinct[0], named)
    return found, None


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, Decimal) and isinstance(b, Decimal):
        return a == b
    return type(a) is type(b) and a == b


def _bools(text: str, start: int, end: int) -> list[_Mention]:
    found: list[_Mention] = []
    for m in _WORD.finditer(text, start, end):
        word = m.group()
        value = _BOOL_WORDS.get(word.lower())
        if value is not None:
            found.append(_Mention(value, word, m.start(), m.end(), word in _LOSSLESS_BOOLS, value))
    return found


def _numbers(text: str, start: int, end: int) -> tuple[list[_Mention], _Mention | None]:
    """The numbers in text[start:end], or the first whose separators give no one reading ("0,5", "1.2.3"): a plain
    number, or digits in thousands groups, which coercion (`number_from_string`) reads or refuses for the field."""
    found: list[_Mention] = []
    for m in _NUMBER.finditer(text, start, end):
        sign, digits = m.group(1), m.group(2)
        if ("," in digits and _GROUPED.fullmatch(digits) is None) or digits.count(".") > 1:
            return [], _Mention(None, m.group(), m.start(), m.end())
        raw_start, raw_end = m.start(), m.end()
        if raw_start > start and text[raw_start - 1] in "$\u20ac\u00a3\u00a5":
            raw_start -= 1
        unit = _UNIT_AFTER.match(text, raw_end, end)
        if unit is not None and (unit.group(1) == "%" or unit.group(1).lower() in UNIT_WORDS):
            raw_end = unit.end()
        raw = text[raw_start:raw_end]
        try:
            value = Decimal(sign.replace("+", "") + digits.replace(",", ""))
        except InvalidOperation:
            continue
        exact = _JSON_NUMBER.fullmatch(raw) is not None and len(digits) <= _MAX_EXACT_DIGITS
        written: Any = (int(raw) if "." not in raw else float(raw)) if exact else raw
        found.append(_Mention(value, raw, raw_start, raw_end, exact, written))
    return found, None


_MAX_EXACT_DIGITS = 4_000
"""Longer numbers stay text (Python's int conversion stops at 4,300 digits); coercion then refuses them."""


def _arithmetic(text: str, found: list[_Mention], path: str) -> ParseError | None:
    """'1/5', '3 * 4', '10 - 2 = 8': an expression is not its value."""
    for left, right in itertools.pairwise(found):
        gap = text[left.end : right.start].strip()
        raw_gap = text[left.end : right.start]
        if gap in _OPERATOR or raw_gap in _SPACED_OPERATOR or (not gap and text[right.start] in "+-"):
            expression = text[left.start : right.end]
            message = f"{expression!r} is an expression, not a number; refusing to compute it"
            return _ambiguous(message, path, "arithmetic_plain_answer", left, [left.raw, right.raw])
    return None


@dataclass(frozen=True)
class _Spellings:
    by_key: dict[str, tuple[Any, ...]]  # joined, case-folded words -> the JSON values it names
    exact: dict[str, Any]  # the values' own spellings
    longest: int
    prefixes: frozenset[str]  # the joined words a spelling starts with, so a run stops at the first word that fits none


_SPELLINGS: weakref.WeakKeyDictionary[ChoiceView, _Spellings] = weakref.WeakKeyDictionary()
"""One table per schema view, dropped with the view (views are schema-side: model text is never a key)."""


def _spellings(view: ChoiceView) -> _Spellings:
    found = _SPELLINGS.get(view)
    if found is None:
        found = _SPELLINGS[view] = _build_spellings(view)
    return found


def _build_spellings(view: ChoiceView) -> _Spellings:
    by_key: dict[str, list[Any]] = {}
    exact: dict[str, Any] = {}
    longest = 1

    def add(spelling: str, value: Any) -> None:
        nonlocal longest
        words = _WORD.findall(spelling)
        if not words:
            return
        longest = max(longest, len(words))
        key = "".join(words).casefold()
        owners = by_key.setdefault(key, [])
        if not any(_same_value(value, o) for o in owners):
            owners.append(value)

    for value in _choice_values(view):
        add(str(value), value)
        exact[str(value)] = value
    if view.enum_cls is not None:
        for name, member in view.enum_cls.__members__.items():  # names and aliases
            if isinstance(member.value, str | int) and not isinstance(member.value, bool):
                add(name, member.value)
    prefixes = frozenset(key[:n] for key in by_key for n in range(1, len(key) + 1))
    return _Spellings({k: tuple(v) for k, v in by_key.items()}, exact, min(longest, _MAX_MEMBER_WORDS), prefixes)


def _members(text: str, start: int, end: int, view: ChoiceView) -> list[_Mention]:
    """Mentions of the choice's values, names or aliases: the longest run of at most `longest` words whose joined,
    case-folded spelling names a member, at each word (in another case or style: `In Progress`, `IN_PROGRESS`)."""
    spellings = _spellings(view)
    words = list(_WORD.finditer(text, start, end))
    folded = [w.group().casefold() for w in words]
    found: list[_Mention] = []
    i = 0
    while i < len(words):
        hit: tuple[int, tuple[Any, ...]] | None = None
        key = ""
        for j in range(i, min(len(words), i + spellings.longest)):
            key += folded[j]
            if key not in spellings.prefixes:
                break
            owners = spellings.by_key.get(key)
            if owners is not None:
                hit = (j, owners)
        if hit is None:
            i += 1
            continue
        j, owners = hit
        m_start, m_end = words[i].start(), words[j].end()
        raw = text[m_start:m_end]
        if len(owners) > 1:
            found.extend(_Mention(o, raw, m_start, m_end, False, o) for o in owners)
        else:
            found.append(_Mention(owners[0], raw, m_start, m_end, raw in spellings.exact, owners[0]))
        i = j + 1
    return found


def _negated(text: str, at: int, floor: int) -> bool:
    """Whether one of the few words right before a mention, in its clause, negates it ("not positive")."""
    window = text[max(floor, at - 40) : at]
    clause = window[max(window.rfind(c) for c in _CLAUSE_BREAKS) + 1 :]
    near = clause.lower().split()[-_NEGATION_WINDOW:]
    return any(w.strip("*_`") in _NEGATIONS or w.endswith(("n't", "n\u2019t")) for w in near)


def _negating_prefix(text: str, m: _Mention, floor: int) -> bool:
    """Whether a word mention is glued to a negating prefix ("non-negative", "un-true"): the opposite meaning."""
    hyphen = m.start - 1
    if hyphen <= floor or text[hyphen] != "-" or not m.raw[:1].isalpha():
        return False
    i = hyphen
    while i > floor and hyphen - i < 5 and text[i - 1].isalpha():
        i -= 1
    whole = i == floor or not text[i - 1].isalnum()
    return whole and text[i:hyphen].lower() in _NEGATING_PREFIXES


def _negated_in_sentence(text: str, start: int, end: int, mentions: list[_Mention]) -> _Mention | None:
    """The first mention after a negation in the same sentence ("It is not the case that … True"), in one pass."""
    starts = {o.start for o in mentions}
    pending = iter(mentions)
    current = next(pending, None)
    negated = False
    for tok in _SENTENCE_TOKEN.finditer(text, start, end):
        while current is not None and current.start <= tok.start():
            if negated:
                return current
            current = next(pending, None)
        if current is None:
            return None
        word = tok.group()
        if word in ".!?;\n":
            negated = False
        elif tok.start() not in starts:
            lowered = word.lower()
            negated = negated or lowered in _NEGATIONS or lowered.endswith(("n't", "n\u2019t"))
    return None


def _qualifier(text: str, start: int, end: int, mentions: list[_Mention]) -> str | None:
    """What makes a mention a bound or a shade rather than the value: a comparator around a number ("at least 42",
    "<42", "42+", "~42", "42 or more"), or a word glued to a word mention ("positive-ish", "semi-positive")."""
    for m in mentions:
        if m.raw[:1].isalpha() or m.raw[-1:].isalpha():
            if m.start - 1 > start and text[m.start - 1] == "-" and text[m.start - 2].isalnum():
                return text[max(start, m.start - 12) : m.end]
            if m.end + 1 < end and text[m.end] == "-" and text[m.end + 1].isalnum():
                return text[m.start : min(end, m.end + 12)]
            continue
        before = m.start
        while before > start and text[before - 1] in " \t":
            before -= 1
        if before > start and text[before - 1] == "=":
            before -= 1
        if before > start and text[before - 1] in _COMPARATOR_SIGNS:
            return text[before - 1 : m.end]
        if m.end < end and text[m.end] == "+":
            return text[m.start : m.end + 1]
        window = text[max(start, m.start - 24) : m.start]
        clause = window[max(window.rfind(c) for c in _CLAUSE_BREAKS) + 1 :]
        hit = next((w for w in clause.lower().split()[-2:] if w.strip("*_`") in _COMPARATOR_WORDS), None)
        if hit is not None:
            return f"{hit} {m.raw}"
        after = text[m.end : min(end, m.end + 24)].lower().split()[:2]
        if after and after[0].strip("*_`.,;:)") in _COMPARATOR_AFTER:
            return f"{m.raw} {after[0]}"
        if len(after) == 2 and after[0] == "or" and after[1].strip("*_`.,;:!?)") in _OR_BOUND:
            return f"{m.raw} or {after[1]}"
    return None


def _hedge_word(text: str, start: int, end: int, mentions: list[_Mention]) -> str | None:
    """A word that hedges the answer ("maybe", "approximately"), unless it is itself a mention (a member "nearly")."""
    starts = [o.start for o in mentions]  # in text order
    for m in _WORD.finditer(text, start, end):
        if m.group().lower() not in _HEDGES:
            continue
        i = bisect.bisect_right(starts, m.start()) - 1
        if i < 0 or mentions[i].end < m.end():
            return m.group()
    return None


# -- a string --------------------------------------------------------------------------------------------------


def _read_str(text: str, start: int, end: int, ctx: CallContext, refusal_at: int) -> Reading:
    """The answer text, without a leading label ("Answer: …"): a string target takes the text as written."""
    label = _ANSWER_LABEL.match(text, start, end)
    if label is not None:
        start, end = _strip(text, label.end(), end)
    if start >= end:
        return Reading()
    example = _EXAMPLE_LINE.search(text, start, end)
    if example is not None:
        line_end = text.find("\n", example.start(), end)
        shown = text[example.start() : end if line_end < 0 else line_end].strip()
        message = f"the answer holds an example ({shown[:60]!r}): which part is the string is a guess; refusing"
        detail = ErrorDetail(path="", kind="example_in_plain_answer", message=message, offset=example.start())
        return Reading(error=AmbiguousMatchError(message, [detail]))
    return _offer(text[start:end], text, start, end, "plain_text", ctx, refusal_at)


# -- a list ------------------------------------------------------------------------------------------------------


def _read_list(text: str, start: int, end: int, target: _Target, ctx: CallContext, refusal_at: int) -> Reading:
    """A bullet list (an intro line before it allowed) or one comma-separated line, each item read alone."""
    bullets = _bullets(text, start, end)
    items = bullets[0] if bullets is not None else None
    labelled = items is not None
    if bullets is not None and target.kind != "str":
        for p_start, p_end in bullets[1]:
            mentioned, error = _mentions(text, p_start, p_end, target, "")
            if mentioned or error is not None:
                return Reading()  # the prose around the list names values too: which are the answer?
    if items is None:
        label = _last_label(text, start, end) or _line_label(text, start, end)
        if label is not None:
            start, end = label
            labelled = True
        if "\n" in text[start:end]:
            return Reading()
        items = _split_line(text, start, end)
    if not items:
        return Reading()
    choice = _choice_item(text, items)
    if choice is not None:
        message = f"the list offers a choice ({text[choice[0] : choice[1]].strip()!r}), not items; refusing to pick"
        detail = ErrorDetail(path="", kind="ambiguous_plain_answer", message=message, offset=choice[0])
        return Reading(error=AmbiguousMatchError(message, [detail]))
    values: list[Any] = []
    for index, (i_start, i_end) in enumerate(items):
        i_start, i_end = _undecorate(text, i_start, i_end)
        if i_start >= i_end:
            return Reading()
        if target.kind == "str":
            words = len(text[i_start:i_end].split())
            if words > _MAX_ITEM_WORDS or (words > 1 and not labelled):
                return Reading()  # "I like it, but not much" is a sentence; "Tags: machine learning, rust" a list
            values.append(text[i_start:i_end])
            continue
        mentions, error = _mentions(text, i_start, i_end, target, f"/{index}")
        if error is not None:
            return Reading(error=error)
        if not mentions:
            return Reading()
        values.append(mentions[0].written)
    return _offer(values, text, start, end, "plain_list", ctx, refusal_at)


def _choice_item(text: str, items: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The item that says "or" ("1, 2, or 3"; "- billing or sales"), which makes the list a choice, if any."""
    for i_start, i_end in items:
        if "or" in text[i_start:i_end].lower().split():
            return i_start, i_end
    return None


def _bullets(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """The items of a bullet list, when the answer is one block of them — lines before it may introduce it and
    a paragraph after a blank line may sign off — and the stretches of prose around it."""
    found = list(_BULLET.finditer(text, start, end))
    if not found:
        return None
    if any(text[a.end() : b.start()].strip() for a, b in itertools.pairwise(found)):
        return None  # prose between the bullets
    tail = text[found[-1].end() : end]
    if tail.strip() and _BLANK_LINE.match(tail) is None:
        return None  # prose right after the last bullet, no paragraph break
    prose = [(start, found[0].start()), (found[-1].end(), end)]
    return [(m.start(1), m.end(1)) for m in found], prose


def _line_label(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The rest of a one-line answer after a short leading label ("Tags: a, b")."""
    m = _LEADING_LABEL.match(text, start, end)
    return _strip(text, m.end(), end) if m is not None else None


def _split_line(text: str, start: int, end: int) -> list[tuple[int, int]]:
    items: list[tuple[int, int]] = []
    pos = start
    for m in _LIST_SPLIT.finditer(text, start, end):
        items.append((pos, m.start()))
        pos = m.end()
    items.append((pos, end))
    return items


def _undecorate(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _DECORATION:
        start += 1
    while end > start and text[end - 1] in _DECORATION:
        end -= 1
    return start, end


# -- candidates and errors -----------------------------------------------------------------------------------------


def _offer(value: Any, text: str, start: int, end: int, kind: str, ctx: CallContext, refusal_at: int) -> Reading:
    """One candidate writing `value` as JSON, or the error saying the policy does not allow this reading."""
    before = text[start:end]
    repair = Repair.make(kind, "", before, value, offset=start)
    if not ctx.policy.allows(kind, repair.lossless):
        if refusal_at >= 0:
            return Reading()  # refused by the model before the policy had a say: the built-in explains it
        message = f"reading the plain-text answer {before[:60]!r} is a lossy repair ({kind}) the policy refuses"
        return Reading(
            error=UnrecoverableSyntaxError(
                message, [ErrorDetail(path="", kind="repair_not_allowed", message=message, offset=start)]
            )
        )
    body = json.dumps(value, ensure_ascii=False)
    return Reading((Candidate(body, start, end, SOURCE, 0, 1 << 20, (repair,), refusal_at=refusal_at),))


def _ambiguous(message: str, path: str, kind: str, at: _Mention, named: list[str] | None = None) -> ParseError:
    got = named if named is not None else at.raw
    return AmbiguousMatchError(message, [ErrorDetail(path=path, kind=kind, message=message, got=got, offset=at.start)])
