"""The common shape of a good answer that is not bare JSON: one value, in one fence or in the prose, with nothing
around it but a hand-over and a closing remark ("Here is the JSON:\n```json\n{…}\n```\nAnything else?").

The full extraction (every candidate, every label, the clause rules, the refusal search) reads such a text to that
one value; this module proves the same cheaply, so the parser can validate the value straight away: the prose holds
no mark that opens markup, an aside, a question or another value, no word in a script the lexicon cannot read, no
cue but a hand-over, a closing, a description of the format or a reference, and before the value no English clause
word. Anything else, or a value that does not validate as it stands, takes the full path. `tests/test_wrapped.py`
holds the two paths to one result.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from resilient_parse.schema import ChoiceView, ListView, ScalarView, TypeView, UnionView
from resilient_parse.text.clauses import labels_nothing
from resilient_parse.text.lexicon import lexicon

# what prose around a lone value may hold: letters, digits, white space and the marks that end or split a statement;
# any other mark can open markup (`<tag>`, `~~`, `#`, `//`), an aside, a quotation, a question or another value
_NOT_PLAIN_MARK = "[^\\w\\s.,:;!¡'\u2019\\-\u3002\uff0c\uff1a\uff1b\uff01\u3001]|_"
# the same in ASCII prose (where \x1c-\x1f are white space, as Unicode has it), found faster by ASCII classes;
# no script the lexicon cannot read is written in ASCII
_NOT_PLAIN_ASCII = re.compile("[^a-zA-Z0-9 \\t\\n\\r\\f\\v\\x1c-\\x1f.,:;!'\\-]")
# the only cues such prose may hold: they hand the answer over or close the reply, and never exclude a candidate;
# a reference ("das", "this one") only says which candidate nearby cues speak of; bounds, arithmetic and a "yes"
# judge plain answers only ("以下" is both "below" and "at most"), and a target a
# plain answer can be read for never comes this way (`reads_plain`)
_HARMLESS = frozenset({"lead_in", "closing", "description", "bound", "operation", "yes", "reference"})
_FENCE = "```"
_FENCE_INFO = frozenset({"", "json"})
_JSON_SPACE = " \t\r\n"


class Wrapped(NamedTuple):
    """Where the lone value stands in the text, and the repair that took it out."""

    start: int
    end: int
    kind: str  # "extract_fence" or "extract_prose"
    offset: int  # where the repair says the value was taken from: a fence's body, or the value itself
    prose: str  # the prose before and after it, joined by a line "|" that no phrase or format mark holds


def reads_plain(view: TypeView) -> bool:
    """Whether a value of this target may also be written as plain words (a list of numbers, choices or strings:
    `stages/plain.py`), which the full path weighs against the JSON."""
    if isinstance(view, ListView):
        view = view.item
    return isinstance(view, (ScalarView, ChoiceView, UnionView))  # (a tuple: faster than a union, on every call)


def lone_value(text: str) -> Wrapped | None:
    """The one JSON value of a text that holds nothing else but harmless prose, or None (the full path decides)."""
    opens = text.find(_FENCE)
    if opens < 0:
        found = _in_prose(text)
    else:
        closes = text.find(_FENCE, opens + 3)
        found = _fenced(text, opens, closes) if closes > 0 and text.find(_FENCE, closes + 3) < 0 else None
    if found is None:
        return None
    start, end, kind, offset, head, tail = found
    before, after = text[:head], text[tail:]
    if not _plain(before) or not _plain(after):
        return None
    # one look at both stretches: no phrase holds "|", so none runs from one into the other; the English clause
    # rules read only the words before a candidate
    prose = f"{before}\n|\n{after}"
    if not labels_nothing(before, plain=True) or not lexicon().holds_only(_HARMLESS, prose):
        return None
    return Wrapped(start, end, kind, offset, prose)


# where a lone value was found: (start, end, kind, offset) as in `Wrapped`, then where the prose before it ends and
# the prose after it starts
_Found = tuple[int, int, str, int, int, int]


def _fenced(text: str, opens: int, closes: int) -> _Found | None:
    """The text's only fence, from `opens` to `closes`, if it opens a line, is labelled json or not at all, holds
    one object or array and closes on a line of its own."""
    if opens > 0 and text[opens - 1] != "\n":
        return None
    info_end = text.find("\n", opens)
    if info_end < 0 or info_end > closes or text[opens + 3 : info_end].strip().lower() not in _FENCE_INFO:
        return None
    line_end = text.find("\n", closes)
    if text[closes + 3 : len(text) if line_end < 0 else line_end].strip(_JSON_SPACE) or text[closes - 1] != "\n":
        return None
    start, end = _body(text, info_end + 1, closes)
    if start < 0:
        return None
    return start, end, "extract_fence", info_end + 1, opens, closes + 3


def _in_prose(text: str) -> _Found | None:
    """An object or array after some words, from the first bracket to the last (the prose holds none)."""
    brace, bracket = text.find("{"), text.find("[")
    first = bracket if brace < 0 or 0 <= bracket < brace else brace
    if first < 0 or not text[:first].strip():
        return None  # a text opening with its value: the full path reads what follows it
    last = max(text.rfind("}"), text.rfind("]"))
    if last < first:
        return None
    return first, last + 1, "extract_prose", first, first, last + 1


def _body(text: str, start: int, end: int) -> tuple[int, int]:
    """The value's span inside a fence: its white space trimmed, opening with a bracket and closing with one."""
    while start < end and text[start] in _JSON_SPACE:
        start += 1
    while end > start and text[end - 1] in _JSON_SPACE:
        end -= 1
    if end - start < 2 or text[start] not in "{[" or text[end - 1] not in "}]":
        return -1, -1
    return start, end


def _plain(prose: str) -> bool:
    """Prose with no mark that can open markup, an aside, a question or another value, and no word the lexicon
    cannot read."""
    return (_NOT_PLAIN_ASCII if prose.isascii() else _not_plain()).search(prose) is None


@functools.cache
def _not_plain() -> re.Pattern[str]:
    """One search for both: a mark plain prose does not hold, or a word in a script no table covers."""
    return re.compile(f"{_NOT_PLAIN_MARK}|{lexicon().unread_pattern}")
