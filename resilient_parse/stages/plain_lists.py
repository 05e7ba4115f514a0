"""A plain answer that is a list: bullets or one comma-separated line, judged by its label and its prose."""

from __future__ import annotations

import functools
import itertools
import re
from typing import Any

from resilient_parse.context import CallContext
from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, ParseError
from resilient_parse.stages.plain_mentions import _mentions
from resilient_parse.stages.plain_prose import (
    _EXCLUDING,
    _LABEL_DECORATION,
    _LIST_PROSE_REFUSES,
    _Label,
    _leading_label,
    _Prose,
    _strip,
)
from resilient_parse.stages.plain_reading import Reading, _offer, _Target
from resilient_parse.text.lexicon import lexicon

_DECORATION = " \t\r\n*_`\"'\u201c\u201d\u2018\u2019.!,;:()[]"

_BULLET = re.compile(r"^[ \t]{0,8}(?:[-*\u2022+]|\d{1,3}[.)])[ \t]+(\S[^\n]*)$", re.MULTILINE)
_BULLETS_END = re.compile(r"[ \t\r]*\n[ \t\r]*\n")
_SEPARATORS = "[,;\uff0c\uff1b\u3001]"
_MAX_ITEM_WORDS = 3
_PROSE_KIND = {
    "negation": "negated_plain_answer",
    "hedge": "hedged_plain_answer",
    "question": "question_plain_answer",
    "retraction": "retracted_plain_answer",
    **_EXCLUDING,
}


def _read_list(text: str, prose: _Prose, start: int, end: int, target: _Target, ctx: CallContext) -> Reading:
    """A bullet list (an intro line before it allowed) or one comma-separated line, each item read alone. The
    prose around the items — a label, an intro, a sign-off — may hand the list over, never judge it."""
    bullets = _bullets(text, start, end)
    zone_start, zone_end = start, end
    items = bullets[0] if bullets is not None else None
    labelled = items is not None
    if bullets is not None:
        outside = bullets[1]
        if target.kind != "str":
            for p_start, p_end in outside:
                mentioned, error = _mentions(text, prose, p_start, p_end, target, "")
                if mentioned or error is not None:
                    return Reading()  # the prose around the list names values too: which are the answer?
    else:
        label = _last_designation(text, prose, start) or _leading_label(prose, start)
        if label is not None:
            start, end = _strip(text, label.content_start, label.content_end)
            labelled = True
        if start >= end or "\n" in text[start:end]:
            return Reading()
        outside = [(zone_start, start), (end, zone_end)]
        items = _split_line(text, start, end)
    if not items:
        return Reading()
    judged = _judge_prose(text, prose, outside)
    if judged is not None:
        return Reading(error=judged)
    choice = _choice_item(text, items)
    if choice is not None:
        message = f"the list offers a choice ({text[choice[0] : choice[1]].strip()!r}), not items; refusing to pick"
        detail = ErrorDetail(path="", kind="ambiguous_plain_answer", message=message, offset=choice[0])
        return Reading(error=AmbiguousMatchError(message, [detail]))
    joined = _maybe_joined(text, items)
    if joined is not None:
        said = text[joined[0] : joined[1]].strip()
        message = f"{said!r} holds {joined[2]!r}, which may join two items or be part of one word; refusing to pick"
        detail = ErrorDetail(path="", kind="ambiguous_plain_answer", message=message, offset=joined[0])
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
            judged = _judge_prose(text, prose, [(i_start, i_end)], frozenset({"retraction", *_EXCLUDING}))
            if judged is not None:
                return Reading(error=judged)
            values.append(text[i_start:i_end])
            continue
        mentions, error = _mentions(text, prose, i_start, i_end, target, f"/{index}")
        if error is not None:
            return Reading(error=error)
        if not mentions:
            return Reading()
        values.append(mentions[0].written)
    asked = next((b for b in prose.breaks if zone_start <= b < zone_end and text[b] in "?\uff1f"), None)
    if asked is not None:
        message = f"the list is asked, not given ({text[max(zone_start, asked - 40) : asked + 1]!r}); refusing"
        detail = ErrorDetail(path="", kind="question_plain_answer", message=message, offset=asked)
        return Reading(error=AmbiguousMatchError(message, [detail]))
    return _offer(values, text, start, end, "plain_list", ctx, prose.refusal_at)


def _judge_prose(
    text: str, prose: _Prose, stretches: list[tuple[int, int]], refusing: frozenset[str] = _LIST_PROSE_REFUSES
) -> ParseError | None:
    """The error for the first cue in `stretches` that judges the list (an example label, a negation, a hedge,
    a question, a retraction), or None."""
    for s_start, s_end in stretches:
        for c in prose.cues_in(s_start, s_end):
            if c.category in refusing:
                said = text[c.start : c.end]
                message = f"the list is introduced or judged by {c.category.replace('_', ' ')} ({said!r}); refusing"
                detail = ErrorDetail(path="", kind=_PROSE_KIND[c.category], message=message, got=said, offset=c.start)
                return AmbiguousMatchError(message, [detail])
    return None


def _last_designation(text: str, prose: _Prose, start: int) -> _Label | None:
    """The last label that designates the answer at the start of its line ("Answer: a, b")."""
    for lb in reversed(prose.labels):
        if lb.designating and (lb.start == start or _line_start(text, lb.start)):
            return lb
    return None


def _line_start(text: str, pos: int) -> bool:
    """Whether only decoration stands between the line's start and `pos` (at most a few characters)."""
    i = pos
    while i > 0 and pos - i < 8 and text[i - 1] in _LABEL_DECORATION and text[i - 1] != "\n":
        i -= 1
    return i == 0 or text[i - 1] == "\n"


def _alternatives(words: frozenset[str]) -> str:
    """The words as one alternation, longest first (so "ed" is tried before "e")."""
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


@functools.cache
def _list_split() -> re.Pattern[str]:
    """The separators of a one-line list: a comma or semicolon, and each table's word for "and" ("a, b and c",
    "a, b y c", "a、b および c"). A spaced word stands between spaces; a one-letter one ("y", "e", "и") is also a
    letter, so it joins only lower case, after a word of two letters or more or a number and before one ("x y z"
    is no list; "1, 2 y 3" is)."""
    words = lexicon().words("and")
    short = frozenset(w for w in words.spaced if len(w) == 1 and w.isalpha())
    long = words.spaced - short
    parts = [_SEPARATORS]
    if long:
        parts.append(rf"(?<![ \t])[ \t]++(?:{_alternatives(long)})(?!{_not_and()})[ \t]++")
    if short:
        between = rf"[ \t]++(?-i:{_alternatives(short)})[ \t]++(?=[^\W\d_]{{2}}|\d)"
        parts.append(rf"(?:(?<=[^\W\d_]{{2}})|(?<=\d)){between}")
    if words.unspaced:
        parts.append(f"(?:{_alternatives(words.unspaced)})")
    return re.compile("|".join(parts), re.IGNORECASE)


def _not_and() -> str:
    """What may not follow an "and" word for it to join items: the rest of a phrase that joins nothing ("et al",
    "et cetera"), as a pattern (one that never matches when no table has such a phrase)."""
    rests = sorted({p.split(" ", 1)[1] for p in lexicon().words("not_and").spaced if " " in p}, key=lambda r: -len(r))
    return rf"[ \t]++(?:{'|'.join(re.escape(r) for r in rests)})\b" if rests else "(?!)"


@functools.cache
def _glued_and() -> re.Pattern[str]:
    """A `maybe_and` word with a letter right before it and one after it (spaces between allowed)."""
    words = lexicon().words("maybe_and")
    alternatives = _alternatives(words.spaced | words.unspaced) or "(?!)"
    return re.compile(rf"(?<=[^\W\d_])(?:{alternatives})(?=[ \t]*+[^\W\d_])")


def _maybe_joined(text: str, items: list[tuple[int, int]]) -> tuple[int, int, str] | None:
    """The first item that holds a word which joins two items or is part of a word (`maybe_and`: "绿和蓝" is two
    colours, "温和" one word), with letters on both sides, and the word; None when no item does. One search an
    item."""
    glued = _glued_and()
    for i_start, i_end in items:
        m = glued.search(text[i_start:i_end].strip())
        if m is not None:
            return i_start, i_end, m.group()
    return None


@functools.cache
def _said_or() -> re.Pattern[str]:
    """An "or" word of a table: a spaced one as a word of its own between spaces (any case, but for a one-letter
    word, which counts only in lower case), an unspaced one anywhere."""
    words = lexicon().words("or")
    short = frozenset(w for w in words.spaced if len(w) == 1 and w.isalpha())
    parts = []
    if words.spaced - short:
        parts.append(rf"(?<!\S)(?i:{_alternatives(words.spaced - short)})(?!\S)")
    if short:
        parts.append(rf"(?<!\S)(?:{_alternatives(short)})(?!\S)")
    if words.unspaced:
        parts.append(f"(?:{_alternatives(words.unspaced)})")
    return re.compile("|".join(parts) or "(?!)")


def _choice_item(text: str, items: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The item that says "or" in a table's language ("1, 2, or 3"; "- billing or sales"; "赤または青"), which
    makes the list a choice, if any. The word alone is an item, not a choice; a one-letter word ("o", "u") counts
    only as written, in lower case (the blood group "O negative" is no choice). One search an item."""
    said_or = _said_or()
    words = lexicon().words("or")
    for i_start, i_end in items:
        item = text[i_start:i_end]
        if said_or.search(item) is None:
            continue
        alone = item.strip()
        if len(alone.split()) == 1 and alone.lower() in words.spaced | words.unspaced:
            continue
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
    if tail.strip() and _BULLETS_END.match(tail) is None:
        return None  # prose right after the last bullet, no paragraph break
    prose = [(start, found[0].start()), (found[-1].end(), end)]
    return [(m.start(1), m.end(1)) for m in found], prose


def _split_line(text: str, start: int, end: int) -> list[tuple[int, int]]:
    items: list[tuple[int, int]] = []
    pos = start
    for m in _list_split().finditer(text, start, end):
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
