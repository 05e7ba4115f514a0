"""Cues bound to a candidate: what the prose before it, after it and around it (tags, fence info, asides,
strike-through, comments) says of it, in every language the lexicon covers.

Extraction labels each candidate by the words right before it (`stages/extract.py`); this module reads the rest of
the places a model puts its verdict, by the lexicon's categories:

- **around**: an enclosing tag whose name is a cue (`<example>`, `<bad_example>`, `<rejected>`, `<draft>`), a
  fence whose info string is one (```` ```example ````), a commented-out (`<!-- … -->`) or struck-out (`~~…~~`,
  `<del>`, `<s>`) candidate;
- **after**: the rest of the candidate's own clause (`{…} (example)`, `{…} is forbidden.`, `{…} would be a
  mistake`), a short clause or line right after it (`{…} ist verboten.`, `{…}\nes solo un ejemplo`), and in the
  sentences up to the next candidate a retraction (`Final answer: {…} Just kidding!`), one pointing back (`The
  above is just an illustration.`) or a correction that opens its sentence when a corrected candidate follows;
- **before**: the clause before it, in every language, for what the English clause rules (`clauses.py`) do not
  say: a short heading is a verdict (`This one's busted:`, `Nunca mandes esto:`), a negation right before a cue
  denies it (`not an example`).

An exclusion bound anywhere excludes the candidate, whatever designates it elsewhere. Inside a longer clause one
word ("input", "wrong") is too often about something else: it binds as a heading, an aside or a short verdict.
The prose is read once per text (`ProseCues`); every window here is a look-up among its cues.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from resilient_parse.text.lexicon import Cue, lexicon

EXCLUDED_AS = {
    "example": "example",
    "draft": "example",
    "counter_example": "rejected",
    "rejected": "rejected",
    "retraction": "rejected",
    "refusal": "rejected",
    "quoted_input": "rejected",
    "question": "alternative",
    "alternative": "alternative",
}
"""The label a cue of each excluding category gives the candidate it is bound to."""
_STRENGTH = {"": 0, "designated": 1, "alternative": 2, "example": 3, "rejected": 4}
_DESIGNATING = frozenset({"designation", "correction"})
_AFTER_CHARS = 160
_BEFORE_CHARS = 120
# a clause ends at a sentence mark followed by white space (or a full-width one), or a line break
_CLAUSE_END = re.compile(r"[.!?;](?=\s|$)|[\u3002\uff01\uff1f\uff1b\n]")
# the candidate's own clause runs on over a semicolon ("{…}; that would be wrong")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[\u3002\uff01\uff1f\n]")
_LEAD_BREAK = re.compile(r"[.!?;,:](?=\s)|[\u3002\uff01\uff1f\uff1b\uff0c\uff1a\u3001\n]")
_ASIDE = re.compile(r"[(\uff08]([^()\uff08\uff09\n]{1,40})[)\uff09]")
# markup, not prose: a tag, an HTML comment, a strike-through
_TAG = re.compile(r"<(/?)([A-Za-z][\w.-]{0,40})(?:\s[^<>\n]{0,200})?>")
_STRUCK_TAGS = frozenset({"del", "s", "strike"})
_COMMENT_OPEN, _COMMENT_CLOSE = "<!--", "-->"
_NON_SPACE = re.compile(r"\S")
_STRIKE = "~~"
_STRIKE_MARK = re.compile(r"(?<!~)~~(?!~)")  # two tildes, not a ~~~ fence
_TRIM = (
    " \t\r\n*_#<>`\"'()[]-\u2014\u2013:\uff1a,\uff0c\uff08\uff09\u3010\u3011\u300c\u300d"
    "\u2190\u2b05\ufe0f\u2039\u203a\u261d\u261f\u25b2^\u203b"  # arrows and pointers at a verdict: "<- wrong"
)
# markup between the words before a candidate and the candidate: a fence's opening line, a tag
_TRAILING_WHITE = frozenset(" \t\r\n")
_SENTENCE_MARKS = ".!?\u3002\uff01\uff1f"
_QUESTION_MARKS = ("?", "\uff1f")
# what a one-word cue may be bound by in the rest of the candidate's own clause ("{…} sollte niemals …")
_ANYWHERE_AFTER = frozenset({"example", "draft", "counter_example"})
_NEGATABLE = frozenset({"example", "draft", "rejected"})  # "not an example", "not wrong": denied, not said
_EXCLUDING = frozenset({"example", "draft", "counter_example", "rejected", "retraction", "quoted_input"})
_NO_WORDS = frozenset({"negation", "no"})  # "No." before a candidate: its one word negates it
_SPEAKS_OF_THE_ONE_BEFORE = frozenset({"retraction", "reference"})
_COMMA = re.compile("[,\uff0c\u3001]")
_LAST_COMMA = re.compile("[,\uff0c\u3001](?!.*[,\uff0c\u3001])", re.DOTALL)
_ASIDE_WORDS = 2  # an aside this short is a verdict of its own ("(ладно, неважно)"); a longer one says more
_VERDICT_WORDS = 5  # a clause or line this short right after a candidate is a verdict on it
_HEADING_WORDS = 4  # a clause this short before a candidate, ending in a colon, is its heading
_INTRODUCING = frozenset({"designation", "correction", "lead_in"})
_MARKUP_TAIL = re.compile(r"(?:(?:`{3,}|~{3,})[\w+.-]{0,30}|</?[A-Za-z][\w.-]{0,40}(?:\s[^<>\n]{0,200})?>)[ \t\r\n]*\Z")
# categories whose one word labels the candidate wherever it stands in the clause before it ("Например, запрос
# может выглядеть так:"), as an example word does in English; a one-word verdict counts only as a heading
_ANYWHERE = frozenset({"example", "draft"})


class ProseCues:
    """Every cue of a text's prose, found in one pass over it: the stretches between the ones `covered` (its JSON
    values and whatever else a reader took as its own syntax) are read once, and every window a rule asks about
    (the words before or after a candidate, the visible prose a refusal may stand in) is a look-up among them."""

    def __init__(self, text: str, covered: Sequence[tuple[int, int]] = ()) -> None:
        found: list[Cue] = []
        pos = 0
        for start, end in sorted(covered):
            if start > pos:
                found.extend(lexicon().find(text, pos, start))
            pos = max(pos, end)
        if pos < len(text):
            found.extend(lexicon().find(text, pos, len(text)))
        self.cues = found
        self._starts = [c.start for c in found]

    def between(self, lo: int, hi: int) -> list[Cue]:
        """The cues that lie wholly within text[lo:hi]."""
        i = bisect_left(self._starts, lo)
        j = bisect_left(self._starts, hi, i)
        return [c for c in self.cues[i:j] if c.end <= hi]

    def first(self, categories: frozenset[str], lo: int, hi: int) -> Cue | None:
        """The first cue of one of `categories` within text[lo:hi], or None."""
        i = bisect_left(self._starts, lo)
        for cue in self.cues[i:]:
            if cue.start >= hi:
                return None
            if cue.category in categories and cue.end <= hi:
                return cue
        return None


@dataclass(frozen=True)
class Markup:
    """The markup of one text, found in one pass: tags with the stretch each encloses, comments, strike-through."""

    enclosing: tuple[tuple[int, int, str], ...]  # (inner start, inner end, what the markup says: a label or "")
    starts: tuple[int, ...]

    @classmethod
    def scan(cls, text: str) -> Markup:
        found: list[tuple[int, int, str]] = []
        if "<" in text:
            open_tags: dict[str, list[int]] = {}
            for m in _TAG.finditer(text):
                name = m.group(2).lower()
                if not m.group(1):
                    open_tags.setdefault(name, []).append(m.end())
                elif open_tags.get(name):
                    inner = open_tags[name].pop()
                    verdict = "rejected" if name in _STRUCK_TAGS else _tag_label(name)
                    if verdict:
                        found.append((inner, m.start(), verdict))
            at = text.find(_COMMENT_OPEN)
            while at >= 0:
                close = text.find(_COMMENT_CLOSE, at + 4)
                found.append((at + 4, len(text) if close < 0 else close, "rejected"))
                if close < 0:
                    break
                at = text.find(_COMMENT_OPEN, close + 3)
        if _STRIKE in text:
            marks = [m.start() for m in _STRIKE_MARK.finditer(text)]
            for at, close in zip(marks[::2], marks[1::2]):
                found.append((at + 2, close, "rejected"))
        found.sort()
        return cls(tuple(found), tuple(f[0] for f in found))

    def around(self, start: int, end: int) -> str:
        """The strongest label the markup enclosing text[start:end] gives it, or ""."""
        label = ""
        i = bisect_right(self.starts, start)
        # enclosing stretches start at or before `start`; nested ones are few, so a short walk back suffices
        for inner, outer, verdict in reversed(self.enclosing[max(0, i - 32) : i]):
            if inner <= start and end <= outer and _STRENGTH[verdict] > _STRENGTH[label]:
                label = verdict
        return label


@functools.lru_cache(maxsize=256)
def _tag_label(name: str) -> str:
    """What a tag's name calls what it encloses (`<bad_example>`: an example); a text repeats its few names."""
    words = name.replace("_", " ").replace("-", " ")
    return _exclusion(words, lexicon().find(words), 0, len(words), heading_ok=True, anywhere=_ANYWHERE)


@functools.lru_cache(maxsize=256)
def fence_label(info: str) -> str:
    """What a fence's info string calls its body (```` ```example ````, ```` ```json bad ````), or ""."""
    if not info:
        return ""
    words = info.replace("_", " ").replace("-", " ")  # a label, every word of it: "json bad", "json  # WRONG"
    return _exclusion(words, lexicon().find(words), 0, len(words), heading_ok=True, anywhere=_EXCLUDING)


def _label_of_words(words: str) -> str:
    """The label a short run of words of its own (a tag name, a fence's info string, an aside) gives: an
    excluding cue in it, a one-word cue only when it is all the words say ("(example)", but not "(don't worry,
    it's valid)")."""
    if len(words.split()) <= _ASIDE_WORDS:
        words = words.replace(",", " ").replace("\uff0c", " ")
    return _exclusion(words, lexicon().find(words), 0, len(words), heading_ok=True)


def after_label(text: str, prose: ProseCues, end: int, ceiling: int, followed: bool) -> str:
    """What the prose after a candidate ending at `end` says of it, reading up to `ceiling` (the next candidate
    or the region's end; `followed`: another candidate comes after): an excluding cue in the rest of its own
    clause or an aside right after it; in the sentences after it, a retraction, or an exclusion in a sentence
    that points back at it ("The above is just an illustration."). The clause that leads to the next candidate
    speaks of that one ("{…} instead of {…}", "This is not the answer: {…}"), except that a correction there
    supersedes this one ("{…}. Oops, the corrected version is {…}")."""
    limit = min(ceiling, end + _AFTER_CHARS)
    if limit <= end:
        return ""
    next_clause = _lead_in_start(text, end, ceiling) if followed and ceiling <= limit else limit
    clause_end = min(_clause_end(text, end, limit), next_clause)
    cues = prose.between(end, limit)
    own = [c for c in cues if c.end <= clause_end]
    short = len(text[end:clause_end].split()) <= _VERDICT_WORDS  # "{…} ist verboten.", "{…} <- invalid"
    label = _exclusion(text, own, end, clause_end, heading_ok=True, anywhere=_EXCLUDING if short else _ANYWHERE_AFTER)
    if not label and text[end:clause_end].rstrip().endswith(_QUESTION_MARKS):
        label = "alternative"  # "{…}？", "Voulez-vous que j'appelle {…} ?", "{…} – passt das so?": asked, not given
    asides = list(_ASIDE.finditer(text, end, clause_end))
    first = _NON_SPACE.search(text, end, limit)
    if first is not None and first.start() >= clause_end:
        # an aside on the lines right after it is still its own ("{…}\n（以上僅為範例）")
        below = _ASIDE.match(text, first.start(), limit)
        if below is not None:
            asides.append(below)
    for aside in asides:
        verdict = _label_of_words(aside.group(1))
        if _STRENGTH[verdict] > _STRENGTH[label]:
            label = verdict
    if not label and first is not None and first.start() >= clause_end:
        next_end = _clause_end(text, first.start(), limit)
        if next_end <= next_clause and len(text[first.start() : next_end].split()) <= _VERDICT_WORDS:
            below_cues = [c for c in cues if first.start() <= c.start and c.end <= next_end]
            label = _exclusion(text, below_cues, first.start(), next_end, heading_ok=True, anywhere=_EXCLUDING)
            if label == "alternative":
                label = ""  # a short question or option below ("Alternatively?") is not about this one alone
    if label:
        return label
    pointed_back = corrected = denied = False
    negation_end = -1
    for cue in cues[len(own) :]:
        if cue.start < clause_end:
            continue
        if cue.start >= next_clause:
            corrected = corrected or cue.category == "correction"
            denied = denied or cue.category == "negation" or cue.category in EXCLUDED_AS
            continue
        if cue.category == "retraction":
            return "rejected"
        if cue.category == "negation":
            negation_end = cue.end
            continue
        if cue.category in _NEGATABLE and 0 <= negation_end <= cue.start and _negates(text, negation_end, cue.start):
            continue  # "This searches the weather, no example needed."
        if (
            followed
            and cue.category == "correction"
            and _opens_sentence(text, cue, clause_end)
            and not _sentence_of(text, cue, clause_end, limit)
        ):
            # "{…}. Espera, me equivoqué; …: {…}" — but "{…} Corrected." confirms it, and "We fixed a bug" only
            # mentions a fix
            corrected = True
            continue
        if cue.category == "reference" and not text[_clause_start(text, clause_end, cue.start) : cue.start].strip(
            _TRIM
        ):
            pointed_back = True  # "The above is …", "Lo anterior es …": the sentence speaks of the candidate
        elif pointed_back and EXCLUDED_AS.get(cue.category, "alternative") != "alternative":
            return EXCLUDED_AS[cue.category]
    return "rejected" if corrected and not denied else ""


def _opens_sentence(text: str, cue: Cue, lo: int) -> bool:
    """Whether the cue opens its sentence (after `lo`): nothing but markup before it since the sentence began."""
    return not text[_clause_start(text, lo, cue.start) : cue.start].strip(_TRIM)


def _sentence_of(text: str, cue: Cue, lo: int, hi: int) -> bool:
    """Whether the cue is a sentence of its own ("Corrected.", "Fixed!") within text[lo:hi]."""
    return _alone(text, cue, _clause_start(text, lo, cue.start), _clause_end(text, cue.end, hi))


def _lead_in_start(text: str, end: int, ceiling: int) -> int:
    """Where the words that lead to the next candidate (at `ceiling`) begin, after the candidate ending at `end`:
    after the last clause break or comma between them ("{…} is forbidden, use {…}"), or right after the first
    candidate when there is none ("{…} instead of {…}")."""
    lo = max(end, ceiling - _BEFORE_CHARS)
    if text[lo:ceiling].rstrip(" \t\r\n*_`#>").endswith((".", "!", "\u3002", "\uff01")):
        return ceiling  # a finished sentence ("Corrected.") leads to nothing: the next candidate starts anew
    last = end
    for m in _LEAD_BREAK.finditer(text, lo, ceiling):
        if text[m.end() : ceiling].strip(_TRIM):
            last = m.end()
    return last


def before_label(text: str, prose: ProseCues, start: int, floor: int, after_example: bool) -> str:
    """What the clause right before a candidate at `start` (not before `floor`) says of it by the lexicon: an
    exclusion (also in a parenthetical aside: "Answer (wrong): {…}", or a sentence that is one negation: "No.
    {…}"), or "designated" when a designation or correction introduces it — a hand-over only after an example,
    as in English — within a few words ("Respuesta final: {…}"); a negation before the introducing cue rejects
    ("No es la respuesta final:"). Introducing cues of the English table are left to the English clause rules."""
    lo = max(floor, start - _BEFORE_CHARS)
    start = _before_markup(text, lo, start)
    window = prose.between(lo, start)
    clause_start = _clause_start(text, lo, start, window)
    if not text[clause_start:start].strip(_TRIM):
        return ""
    cues = _about_this_one(text, [c for c in window if c.start >= clause_start], clause_start, start)
    if _lone_negation(text, cues, clause_start, start):
        return "rejected"
    words = text[clause_start:start].rstrip(_TRIM)
    if words.endswith(tuple(_SENTENCE_MARKS)) and not any(c.end >= clause_start + len(words) for c in cues):
        return ""  # a finished sentence ("Done.", "Scratch that.") introduces nothing: the candidate starts anew
    # an aside right after the previous candidate is that one's ("{…} (ладно, неважно)\n\n{…}")
    asides = [a for a in _ASIDE.finditer(text, clause_start, start) if text[floor : a.start()].strip()]
    # a short heading is a verdict on what it introduces: its one-word cues count ("This one's busted:"), and so
    # does a negation that is all it says ("NO:", "Nicht so:", "Nunca mandes esto:", "これは絶対に送らないでください：")
    heading = _short_heading(text, clause_start, start)
    # an aside is read as a heading of its own below; inside the clause it says nothing ("(not the draft)")
    label = _exclusion(
        text,
        cues,
        clause_start,
        start,
        heading_ok=True,
        anywhere=_EXCLUDING if heading else _ANYWHERE,
        skip=[a.span() for a in asides],
    )
    if (
        not label
        and heading
        and any(c.category == "negation" and _COMMA.search(text, c.end, start) is None for c in cues)
        and not any(c.category in _INTRODUCING for c in cues)
    ):
        label = "rejected"
    for aside in asides:
        verdict = _label_of_words(aside.group(1))
        if _STRENGTH[verdict] > _STRENGTH[label]:
            label = verdict
    if label:
        return label
    negated = False
    english = {(c.start, c.end) for c in cues if c.language == "en"}
    last = clause_start
    for cue in cues:
        if _COMMA.search(text, last, cue.start) is not None:
            negated = False  # "No puedo estar seguro, pero la respuesta final es:" — the comma ends its reach
        last = cue.end
        if cue.category == "negation":
            negated = True
        elif (
            (cue.start, cue.end) not in english
            and (cue.category in _DESIGNATING or (after_example and cue.category == "lead_in"))
            and _introduces(text, cue, start)
        ):
            return "rejected" if negated else "designated"
    return ""


def _about_this_one(text: str, cues: list[Cue], clause_start: int, start: int) -> list[Cue]:
    """The cues of the clause before a candidate that speak of it: not a retraction (it takes back what came
    before), nor anything in a part of the clause that opens by pointing back and is followed by another part
    ("上面这个是草稿，最终版本：{…}"); the last part leads to the candidate ("This would be dangerous: {…}")."""
    kept: list[Cue] = []
    segment = clause_start
    back: list[Cue] = []  # the cues of a part that points back, kept if it turns out to be the last part
    for cue in cues:
        comma = _LAST_COMMA.search(text, segment, cue.start)
        if comma is not None:
            segment, back = comma.end(), []
        if cue.category == "reference" and not text[segment : cue.start].strip(_TRIM):
            back = [cue]
            continue
        if back:
            back.append(cue)
        elif cue.category not in _SPEAKS_OF_THE_ONE_BEFORE:
            kept.append(cue)
    if back and _COMMA.search(text, back[-1].end, start) is None:
        kept.extend(c for c in back if c.category not in _SPEAKS_OF_THE_ONE_BEFORE)
    return kept


def _short_heading(text: str, clause_start: int, start: int) -> bool:
    """Whether the clause before a candidate is a short heading: at most four words (sixteen characters of a script
    without spaces) ending in a colon or an arrow."""
    words = text[clause_start:start].rstrip(" \t\r\n*_`>")
    if not words.endswith((":", "\uff1a", "\u2192", "->", "=>", "\U0001f449")):
        return False
    core = words.strip(_TRIM + "\u2192=\U0001f449")
    return len(core.split()) <= _HEADING_WORDS and (" " in core or len(core) <= 16)


def _before_markup(text: str, lo: int, start: int) -> int:
    """Where the words before a candidate end, before the markup that leads into it (a fence's opening line, a
    tag, white space): "Por ejemplo:\n```json\n{…}" is read as "Por ejemplo:"."""
    for _ in range(4):
        while start > lo and text[start - 1] in _TRAILING_WHITE:
            start -= 1
        line = text.rfind("\n", max(lo, start - 260), start) + 1
        m = _MARKUP_TAIL.search(text, max(lo, line, start - 260), start)
        if m is None or m.start() >= start:
            break
        start = m.start()
    return start


def _lone_negation(text: str, cues: Sequence[Cue], lo: int, hi: int) -> bool:
    """Whether text[lo:hi], whose cues are `cues`, is one negation and nothing else ("No. {…}", "Nein! {…}")."""
    if hi - lo > 16 or not cues:
        return False
    return (
        len({(c.start, c.end) for c in cues}) == 1
        and all(c.category in _NO_WORDS for c in cues)
        and not text[lo : cues[0].start].strip(_TRIM)
        and not text[cues[0].end : hi].strip(_TRIM + ".!?\u3002\uff01")
    )


def _introduces(text: str, cue: Cue, start: int) -> bool:
    """Whether the cue leads straight to the candidate: nothing but markup between them, or at most two words
    and a colon ("Respuesta final: {…}", "最终答案是：{…}"); "final API version dropped {…}" does not."""
    between = text[cue.end : start]
    words = between.strip(_TRIM)
    if not words:
        return True
    return len(words.split()) <= 2 and len(words) <= 24 and between.rstrip(" \t\r\n*_`>").endswith((":", "\uff1a"))


def _exclusion(
    text: str,
    cues: Sequence[Cue],
    lo: int,
    hi: int,
    heading_ok: bool,
    anywhere: frozenset[str] = frozenset(),
    skip: Sequence[tuple[int, int]] = (),
) -> str:
    """The strongest excluding label one of `cues` (found in text[lo:hi]) gives; a one-word cue of a spaced
    language counts only when it is all the clause says (`heading_ok` and nothing else but markup around it),
    unless its category is one of `anywhere`; cues inside the `skip` stretches do not count."""
    label = ""
    negation_end = -1
    for cue in cues:
        if any(a <= cue.start < b for a, b in skip):
            continue
        if cue.category == "negation":
            negation_end = cue.end
            continue
        if cue.category in _NEGATABLE and 0 <= negation_end <= cue.start and _negates(text, negation_end, cue.start):
            continue  # "this isn't a draft", "no example needed", "不是示例"
        verdict = EXCLUDED_AS.get(cue.category, "")
        if not verdict or _STRENGTH[verdict] <= _STRENGTH[label]:
            continue
        if _one_word(text, cue) and cue.category not in anywhere and not (heading_ok and _alone(text, cue, lo, hi)):
            continue
        if cue.category == "quoted_input" and text[lo : cue.start].strip(_TRIM):
            continue  # the user's input is introduced by its own heading ("You asked: {…}"), not "as you asked:"
        label = verdict
    return label


def _negates(text: str, negation_end: int, cue_start: int) -> bool:
    """Whether a negation ending at `negation_end` denies the cue at `cue_start`: nothing or two short words between
    ("no example needed", "not an example", "no es un ejemplo", "不是示例"; not "No, for example: …", nor "Nunca
    envíes algo como …", where it denies the verb)."""
    between = text[negation_end:cue_start].split()
    return len(between) <= 2 and all(len(w) <= 3 and w.isalpha() for w in between)


def _one_word(text: str, cue: Cue) -> bool:
    """Whether the cue is one word of a spaced language ("invalid", "don't", "e.g."), not a phrase or a word of a
    script written without spaces."""
    phrase = text[cue.start : cue.end]
    return phrase[:1].isalnum() and not any(ch.isspace() or _unspaced(ch) for ch in phrase)


def _unspaced(ch: str) -> bool:
    return "\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff"


def _alone(text: str, cue: Cue, lo: int, hi: int) -> bool:
    """Whether the cue is all its clause says: nothing but markup, a determiner-free heading, around it."""
    return not text[lo : cue.start].strip(_TRIM) and not text[cue.end : hi].strip(_TRIM + _SENTENCE_MARKS)


def _clause_end(text: str, start: int, limit: int) -> int:
    m = _SENTENCE_END.search(text, start, limit)
    return m.end() if m is not None else limit


def _clause_start(text: str, lo: int, start: int, cues: Sequence[Cue] = ()) -> int:
    """Where the last clause before `start` begins (not before `lo`): after the last clause break in between that
    is not at its very end ("Invalid: {…}" keeps its colon, "Done. {…}" starts a new clause) and not a dot of a
    cue (`cues`: "z.B. {…}", "p. ej. {…}")."""
    last = lo
    for m in _CLAUSE_END.finditer(text, lo, start):
        if text[m.end() : start].strip(_TRIM) and not any(c.start < m.end() <= c.end for c in cues):
            last = m.end()
    return last


def label_for(
    english: str,
    text: str,
    span: tuple[int, int, int],
    markup: Markup,
    fence_info: str,
    ceiling: int,
    followed: bool,
    after_example: bool,
    prose: ProseCues,
) -> str:
    """The label a candidate at `span` (start, end, floor: where the words that may label it begin) gets from
    every cue bound to it. `english` is what the English clause rules call it; an exclusion anywhere — around it,
    after it, or by the lexicon before it — overrides that, a designation included ("Final answer: {…} (just
    kidding)"); where the English rules found nothing, a designation in another language counts."""
    start, end, floor = span
    label = english
    if label == "rejected":
        return label  # nothing bound to it can say more
    before = before_label(text, prose, start, floor, after_example)
    for extra in (
        before,
        markup.around(start, end),
        fence_label(fence_info),
        after_label(text, prose, end, ceiling, followed),
    ):
        if extra and extra != "designated" and _STRENGTH[extra] > _STRENGTH.get(label, 0):
            label = extra
    if label == "" and before == "designated":
        label = before
    return label


_REFUSAL = frozenset({"refusal"})


def refusal_between(text: str, start: int = 0, end: int | None = None) -> int:
    """Where text[start:end] first refuses the task ("I can't help with that", "抱歉，我无法", "Lo siento, no
    puedo"), in any language of the lexicon, or -1. Every path that reads prose beside an answer (extraction,
    plain answers, text beside a tool call) asks this."""
    cue = lexicon().first(_REFUSAL, text, start, end)
    return cue.start if cue is not None else -1
