"""The members of an enum or Literal a plain answer names: their spellings, and where they are mentioned."""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Any

from resilient_parse.schema import ChoiceView
from resilient_parse.stages.plain_numbers import _SIGNS, _UNSURE_SIGNS, _free_before, _number_words, _NumberWords
from resilient_parse.stages.plain_prose import _WORD, _Prose
from resilient_parse.stages.plain_reading import _ambiguous, _choice_values, _Mention, _Refused, _same_value
from resilient_parse.text.lexicon import lexicon

_MAX_MEMBER_WORDS = 16


@dataclass(frozen=True)
class _Spellings:
    by_key: dict[str, tuple[Any, ...]]  # joined, case-folded words -> the JSON values it names
    exact: dict[str, Any]  # the values' own spellings
    longest: int
    prefixes: frozenset[str]  # the joined words a spelling starts with, so a run stops at the first word that fits none
    numeric: bool  # some member is spelled with digits only ("4", "-1"): a number's sign and scale matter


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

    def own(key: str, value: Any) -> None:
        owners = by_key.setdefault(key, [])
        if not any(_same_value(value, o) for o in owners):
            owners.append(value)

    def add(spelling: str, value: Any) -> None:
        nonlocal longest
        words = _WORD.findall(spelling)
        if not words:
            return
        longest = max(longest, len(words))
        own("".join(words).casefold(), value)

    for value in _choice_values(view):
        if isinstance(value, int):
            own(str(value), value)  # "-1" and "1" are two members
        else:
            add(value, value)
        exact[str(value)] = value
    if view.enum_cls is not None:
        for name, member in view.enum_cls.__members__.items():  # names and aliases
            if isinstance(member.value, str | int) and not isinstance(member.value, bool):
                add(name, member.value)
    prefixes = frozenset(key[:n] for key in by_key for n in range(1, len(key) + 1))
    numeric = any(key.lstrip("-").isdigit() for key in by_key)
    return _Spellings(
        {k: tuple(v) for k, v in by_key.items()}, exact, min(longest, _MAX_MEMBER_WORDS), prefixes, numeric
    )


def _members(text: str, prose: _Prose, start: int, end: int, view: ChoiceView, path: str) -> list[_Mention]:
    """Mentions of the choice's values, names or aliases: the longest run of at most `longest` words whose joined,
    case-folded spelling names a member, at each word (in another case or style: `In Progress`, `IN_PROGRESS`).
    A number keeps its sign ("-1" is not 1) and refuses a scale after it ("4 thousand" is not 4)."""
    spellings = _spellings(view)
    numbers = _number_words()
    words = list(_WORD.finditer(text, start, end))
    folded = [w.group().casefold() for w in words]
    found: list[_Mention] = []
    i = 0
    while i < len(words):
        if spellings.numeric and folded[i].isdigit():
            mention = _numeric_member(text, prose, start, end, words[i], spellings, numbers, path)
            if mention is not None:
                found.append(mention)
                i += 1
                continue
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


def _numeric_member(
    text: str,
    prose: _Prose,
    start: int,
    end: int,
    word: re.Match[str],
    spellings: _Spellings,
    numbers: _NumberWords,
    path: str,
) -> _Mention | None:
    """A number written for a choice: its member with the sign it is written with, or refused (`_Refused`) when
    the choices have no such member or a scale word multiplies it."""
    w_start, w_end = word.span()
    first = w_start
    if first > start and text[first - 1] in _UNSURE_SIGNS and _free_before(text, first - 1, start):
        raw = text[first - 1 : w_end]
        message = f"{raw!r} starts with a dash that may or may not be a minus; refusing to guess its sign"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, first - 1, w_end)))
    if first > start and text[first - 1] in _SIGNS and _free_before(text, first - 1, start):
        first -= 1
    minus_word = numbers.minus_before(text, first, start)
    negative = _SIGNS.get(text[first], 1) < 0 if first < w_start else False
    if minus_word is not None and prose.covers(minus_word, first):
        raw = text[minus_word:w_end]
        message = f"{raw!r} may or may not be negative; refusing to guess its sign"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, minus_word, w_end)))
    if minus_word is not None:
        first, negative = minus_word, True
    at = w_end
    while at < end and at - w_end < 3 and text[at] in " \t\u00a0":
        at += 1
    scaled = numbers.scale_at(text, at, end)
    raw = text[first : scaled[0] if scaled is not None else w_end]
    if scaled is not None:
        message = f"{raw!r} is not one of the choices' numbers; refusing to drop its scale"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, first, scaled[0])))
    if not negative:
        return None  # the digits as written: the word reading finds them
    owners = spellings.by_key.get("-" + word.group())
    if owners is None:
        message = f"{raw!r} is negative and no choice is; refusing to drop its sign"
        raise _Refused(_ambiguous(message, path, "ambiguous_plain_answer", _Mention(None, raw, first, w_end)))
    return _Mention(owners[0], raw, first, w_end, raw in spellings.exact, owners[0], True, True)


def _negating_prefix(text: str, prose: _Prose, m: _Mention, floor: int) -> bool:
    """Whether a word mention is glued by a hyphen to a negating prefix of a table ("un-true", "in-válido") or to a
    word the lexicon calls a negation ("non-negative", "not-positive"): the opposite meaning."""
    hyphen = m.start - 1
    if hyphen <= floor or text[hyphen] != "-" or not m.raw[:1].isalpha():
        return False
    i = hyphen
    while i > floor and hyphen - i < 5 and text[i - 1].isalpha():
        i -= 1
    if i > floor and text[i - 1].isalnum():
        return False  # a longer word
    if text[i:hyphen].lower() in lexicon().negating_prefixes:
        return True
    return any(c.start == i and c.end == hyphen and c.category == "negation" for c in prose.cues_in(i, hyphen))
