"""The lexicon: every prose word the library judges by, as data, one table per language, and the matcher built
from them.

A table is a module of this package (`en`, `zh_hans`, `es`, …) holding only data:

- `LANGUAGE`: its tag ("en", "zh-Hans", …); `SCRIPT`: "spaced" (phrases match as whole words) or "unspaced"
  (phrases match as substrings: Chinese, Japanese, Korean, and the shared marks table).
- `PHRASES`: cue phrases by category (`CATEGORIES` below says what each means). A phrase is lower case; `(a|b|)`
  offers alternatives (an empty one makes the group optional; groups do not nest); a space matches any run of
  white space; `'` matches ' and ’.
- `MINUS`: words that make the number after them negative; `SCALES`: words that multiply the number before them
  ("million", "万"); `DECIMAL_MARK`: "." or "," — what separates decimals in the language's numbers.
- `CLAUSE` (optional): the word lists of the language's clause rules (`text/clauses.py`; English has them).
- `WORDS` (optional): single words the stages read by kind (`WORD_KINDS` below says what each means), lower case;
  a spaced table's word matches as a whole word, an unspaced table's as a substring.

`lexicon().find(text, start, end)` finds every cue in one pass (see `Lexicon`): linear in the text. Adding a
language is adding a table (and its rows in the acceptance tests).
"""

from __future__ import annotations

import functools
import importlib
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

TABLES = ("en", "zh_hans", "zh_hant", "ja", "ko", "es", "pt", "fr", "de", "it", "ru", "marks")
"""The table modules, one per language, and `marks` for the symbols no language owns (❌, ✅)."""

CATEGORIES: dict[str, str] = {
    "lead_in": "hands the answer over right before it (Here is, Output:, 以下是)",
    "closing": "a closing remark after the answer (Let me know if, Hope this helps)",
    "description": "describes the answer's form (in JSON, as requested, in the required format)",
    "designation": "names the candidate the answer (Final answer, The correct JSON is, 最终答案)",
    "example": "offers the candidate as an example, sample or template (for example, e.g., 例如)",
    "alternative": "offers the candidate as one option among others (alternatively, Option B, 或者)",
    "counter_example": "tells the reader not to produce it (do not output, avoid, 不要输出)",
    "rejected": "judges the candidate wrong, invalid or forbidden (incorrect, wrong answer, 错误)",
    "draft": "a draft or first attempt (draft, first attempt, 草稿)",
    "correction": "what follows corrects what came before (correction, actually, wait, 更正)",
    "retraction": "takes back what came before (just kidding, scratch that, never mind, 算了)",
    "refusal": "refuses the task (I can't help with, I must decline, 抱歉，我无法)",
    "question": "asks the user back instead of answering (should I, do you want, 要不要)",
    "hedge": "hedges the claim (maybe, probably, I think, 可能)",
    "apology": "an apology: an output that opens with one and holds no answer refuses (I'm sorry, lo siento, 抱歉)",
    "bound": "a bound or comparison, not a value (at most, at least, more than, 至少)",
    "operation": "arithmetic on a value, not the value (half of, double, la mitad de, 一半)",
    "yes": "the answer yes, for a bool target (yes, sí, oui, ja, да, はい, 네)",
    "no": "the answer no, for a bool target (no, non, nein, нет, いいえ, 否)",
    "negation": "negates (not, never, no, 不, nicht)",
    "quoted_input": "introduces the user's input, not an answer (user request:, the user said, 用户请求)",
    "reference": "starts a sentence about what came before it (the above, this one, 上面的, lo anterior)",
}

WORD_KINDS: dict[str, str] = {
    "and": "joins the last item of a plain list to the others (red, green and blue; rojo, verde y azul; 및)",
    "or": "makes a plain list a choice between its items, not a list (1, 2 or 3; rot oder blau; 或)",
    "null": "answers that there is no value, for an Optional target (none, N/A, ninguno, 无, なし)",
    "negating_prefixes": "glued to a word, makes it its opposite (unapproved, in-válido, 不活跃, 비활성)",
    "key_negations": "a word of a key that negates the key (not_active, nicht_aktiv, sin_stock)",
    "not_and": "a phrase that starts with an 'and' word of some table and joins nothing (et al, et cetera)",
    "maybe_and": "joins two items or is part of a word, glued between them (绿和蓝 or 温和的, 초록과 파랑 or "
    "사과나무): an item that holds one between letters has two readings",
}


class Words(NamedTuple):
    """One kind of `WORDS`: the spaced tables' words (whole words) and the unspaced tables' (substrings)."""

    spaced: frozenset[str]
    unspaced: frozenset[str]


SCRIPTS: dict[str, tuple[tuple[int, int], ...]] = {
    "Latin": ((0x41, 0x24F), (0x1E00, 0x1EFF)),
    "Greek": ((0x370, 0x3FF), (0x1F00, 0x1FFF)),
    "Cyrillic": ((0x400, 0x52F),),
    "Armenian": ((0x530, 0x58F),),
    "Hebrew": ((0x590, 0x5FF),),
    "Arabic": ((0x600, 0x6FF), (0x750, 0x77F), (0x8A0, 0x8FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)),
    "Syriac and Thaana": ((0x700, 0x74F), (0x780, 0x7BF)),
    "Indic": ((0x900, 0xDFF),),
    "Thai and Lao": ((0xE00, 0xEFF),),
    "Tibetan": ((0xF00, 0xFFF),),
    "Myanmar": ((0x1000, 0x109F),),
    "Georgian": ((0x10A0, 0x10FF),),
    "Ethiopic": ((0x1200, 0x139F),),
    "Khmer": ((0x1780, 0x17FF),),
    "Kana": ((0x3040, 0x30FF),),
    "Han": ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF)),
    "Hangul": ((0x1100, 0x11FF), (0x3130, 0x318F), (0xAC00, 0xD7AF)),
}
"""The scripts the library can tell apart, by code point ranges: a script none of whose letters stands in any
table is prose no table reads (`Lexicon.unread`)."""
_UNREAD_WORD_LETTERS = 3  # a run this long is a word of prose, not a symbol (α, π)


class Cue(NamedTuple):
    """One phrase of one category found in the text: where it is, its category and the table it comes from."""

    start: int
    end: int
    category: str
    language: str


@dataclass(frozen=True)
class Table:
    """One language's table, read from its module."""

    language: str
    spaced: bool
    phrases: dict[str, tuple[str, ...]]
    minus: tuple[str, ...]
    scales: dict[str, int]
    decimal_mark: str
    clause: dict[str, tuple[str, ...]]
    words: dict[str, tuple[str, ...]]


def load_table(module: ModuleType) -> Table:
    """A table module's data, checked: known categories only, a decimal mark of "." or ","."""
    phrases: dict[str, tuple[str, ...]] = dict(getattr(module, "PHRASES", {}))
    unknown = set(phrases) - set(CATEGORIES)
    if unknown:
        raise ValueError(f"table {module.__name__} has unknown categories {sorted(unknown)}")
    words: dict[str, tuple[str, ...]] = dict(getattr(module, "WORDS", {}))
    if set(words) - set(WORD_KINDS):
        raise ValueError(f"table {module.__name__} has unknown word kinds {sorted(set(words) - set(WORD_KINDS))}")
    decimal = getattr(module, "DECIMAL_MARK", ".")
    if decimal not in (".", ","):
        raise ValueError(f"table {module.__name__}: DECIMAL_MARK must be '.' or ','")
    return Table(
        language=module.LANGUAGE,
        spaced=module.SCRIPT == "spaced",
        phrases=phrases,
        minus=tuple(getattr(module, "MINUS", ())),
        scales=dict(getattr(module, "SCALES", {})),
        decimal_mark=decimal,
        clause=dict(getattr(module, "CLAUSE", {})),
        words={kind: tuple(normalise(w) for w in rows) for kind, rows in words.items()},
    )


_GROUP = re.compile(r"\(([^()]*)\)")
_SPACES = re.compile(r"\s+")


def expand(phrase: str) -> list[str]:
    """Every literal phrase a table phrase stands for: `(a|b|)` groups multiplied out, white space folded."""
    parts: list[list[str]] = []
    pos = 0
    for m in _GROUP.finditer(phrase):
        parts.append([phrase[pos : m.start()]])
        parts.append(m.group(1).split("|"))
        pos = m.end()
    parts.append([phrase[pos:]])
    return [normalise("".join(choice)) for choice in itertools.product(*parts) if "".join(choice).strip()]


def normalise(words: str) -> str:
    """How a phrase and a matched stretch are compared: lower case, ’ as ', runs of white space as one space."""
    return _SPACES.sub(" ", words.replace("\u2019", "'").lower()).strip()


# letters of the scripts written without spaces: a phrase of theirs is found as a substring, never as a word
_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
# a word of a spaced script (with its inner apostrophes: "don't"), or one mark that is neither a letter nor space
_TOKEN = re.compile(f"[^\\W_{_UNSPACED}]+(?:['\u2019][^\\W_{_UNSPACED}]+)*|[^\\w\\s]")
# the same tokens in ASCII text (where \x1c-\x1f are white space, as Unicode has it), found faster by ASCII classes
_ASCII_TOKEN = re.compile("[a-zA-Z0-9]+(?:'[a-zA-Z0-9]+)*|[^\\w\\s\\x1c-\\x1f]", re.ASCII)


def _words_of(text: str) -> list[str]:
    """`_TOKEN`'s words and marks."""
    return (_ASCII_TOKEN if text.isascii() else _TOKEN).findall(text)


_NAME_DOT = re.compile(r"\w\.\w")
"""A dot between two letters or digits: where a phrase may be part of a name (`_in_a_name`)."""
_END = ""
"""The trie key under which a phrase that ends at a node keeps its categories (no token is empty)."""


def _in_a_name(text: str, at: int, to: int) -> bool:
    """Whether text[at:to] is glued by a dot to letters: part of a domain or file name ("example.com")."""
    after = to + 1 < len(text) and text[to] == "." and text[to + 1].isalnum()
    before = at >= 2 and text[at - 1] == "." and text[at - 2].isalnum()
    return after or before


def _lowered(stretch: str) -> tuple[str, bool]:
    """The stretch a matcher tokenises, and whether it is lowered already: a dotted capital I lowers to two
    characters, so such a stretch is tokenised as written and its words are lowered one by one."""
    low = stretch.lower()
    return (low, True) if len(low) == len(stretch) else (stretch, False)


def _as_matched(words: list[str], lowered: bool, curly: bool) -> list[str]:
    """Words as the phrases are written: lower case, with ’ as '."""
    if not lowered:
        words = [w.lower() for w in words]
    return [w.replace("\u2019", "'") for w in words] if curly else words


def _tokens(phrase: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(phrase))


class _Screen(NamedTuple):
    """What `Lexicon.holds_only` looks for: words, pairs and runs of three words, characters and pairs of them."""

    words: frozenset[Any]
    pairs: frozenset[Any]
    triples: frozenset[Any]
    chars: frozenset[Any]
    char_pairs: frozenset[Any]


class Lexicon:
    """All tables, and the one matcher generated from their phrases.

    A spaced phrase is a run of tokens (words and marks; white space between them does not matter), looked up by
    its first token, so a stretch of prose costs one C tokenisation and one dictionary look-up per token; an
    unspaced phrase is looked up where its first character stands (found by one C search), by its text. Either way
    the longest phrase at a position wins and matching resumes after it: linear in the text."""

    def __init__(self, tables: Iterable[Table]) -> None:
        self.tables = tuple(tables)
        spaced: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        unspaced: dict[str, list[tuple[str, str]]] = {}
        for table in self.tables:
            for category, rows in table.phrases.items():
                for row in rows:
                    for phrase in expand(row):
                        entry = (
                            spaced.setdefault(_tokens(phrase), []) if table.spaced else unspaced.setdefault(phrase, [])
                        )
                        if (category, table.language) not in entry:
                            entry.append((category, table.language))
        # a trie of tokens: each node maps the next token to its child, and `_END` to the categories of the phrase
        # that ends there; a position costs one look-up per token the longest phrase from it matches
        self._spaced: dict[str, Any] = {}
        for toks, cats in spaced.items():
            node = self._spaced
            for tok in toks:
                node = node.setdefault(tok, {})
            node[_END] = tuple(cats)
        self._phrase_runs = {toks: frozenset(c for c, _ in cats) for toks, cats in spaced.items() if toks}
        self._screens: dict[frozenset[str], _Screen] = {}
        # a trie of characters from the first of its own characters: a leading Latin word or punctuation ("JSON格式",
        # "，请勿") is checked backwards from there, so the characters looked at are the script's own, and a common
        # character (不, 我) leads only to the phrases that go on as the text does. A node keeps under `_END` the
        # phrases whose own part ends there: (the part before it, its whole length, its order, its categories)
        self._unspaced: dict[str, Any] = {}
        self._unspaced_parts: dict[str, frozenset[str]] = {}  # each phrase's own part, and its categories
        for order, (written, cats) in enumerate(unspaced.items()):
            lead = len(written) - len(_own_start(written))
            if lead < len(written):
                node = self._unspaced
                for ch in written[lead:]:
                    node = node.setdefault(ch, {})
                node.setdefault(_END, []).append((written[:lead], len(written), order, tuple(cats)))
                own = written[lead:]
                self._unspaced_parts[own] = self._unspaced_parts.get(own, frozenset()) | {c for c, _ in cats}
        firsts = "".join(sorted({re.escape(key) for key in self._unspaced}))
        self._unspaced_start = re.compile(f"[{firsts}]" if firsts else "(?!)")
        # a stretch with no letter and none of the marks that start a phrase holds no cue: one C search says so
        marks = "".join(
            sorted(
                {re.escape(t[0]) for t in self._spaced if not t[0].isalnum()}
                | {re.escape(key[0]) for key in self._unspaced if not key[0].isalpha()}
            )
        )
        self._may_hold_cue = re.compile("[^\\W\\d_]" + (f"|[{marks}]" if marks else ""))
        self.covered = _covered_scripts([*(" ".join(t) for t in spaced), *unspaced])
        ranges = "".join(
            f"\\U{lo:08x}-\\U{hi:08x}"
            for name, spans in SCRIPTS.items()
            if name not in self.covered
            for lo, hi in spans
        )
        self.unread_pattern = f"[{ranges}]{{{_UNREAD_WORD_LETTERS}}}" if ranges else "(?!)"
        """What `unread` looks for, for a caller that looks for it beside something else in one search."""
        self._unread = re.compile(self.unread_pattern)
        self.scales = {p: n for t in self.tables for w, n in t.scales.items() for p in expand(w)}
        self.minus = frozenset(normalise(w) for t in self.tables for w in t.minus)
        self.decimal_marks = {t.language: t.decimal_mark for t in self.tables}
        self._words = {
            kind: Words(
                frozenset(w for t in self.tables if t.spaced for w in t.words.get(kind, ())),
                frozenset(w for t in self.tables if not t.spaced for w in t.words.get(kind, ())),
            )
            for kind in WORD_KINDS
        }
        self.negating_prefixes = self._words["negating_prefixes"].spaced | self._words["negating_prefixes"].unspaced
        """Every table's negating prefixes (`negates`; a prefix glued by a hyphen to a choice: "un-true")."""

    def find(self, text: str, start: int = 0, end: int | None = None) -> list[Cue]:
        """Every cue in text[start:end], in order; where phrases overlap, the longest at the leftmost position wins
        (so "do not output" is a counter-example, not a negation)."""
        end = len(text) if end is None else end
        if end <= start or self._may_hold_cue.search(text, start, end) is None:
            return []
        stretch = text[start:end]
        low, lowered = _lowered(stretch)
        matches = list(_TOKEN.finditer(low))
        words = _as_matched(list(map(re.Match.group, matches)), lowered, "\u2019" in stretch)
        found: list[Cue] = []
        i = 0
        while (hit := self._next_phrase(words, i)) is not None:
            first, last, cats = hit
            at, to = start + matches[first].start(), start + matches[last].end()
            if _in_a_name(text, at, to):
                i = first + 1  # "example.com", "draft.md": a name, not a word of prose
                continue
            found.extend(Cue(at, to, category, language) for category, language in cats)
            i = last + 1
        if self._unspaced:
            found.extend(self._find_unspaced(low.replace("\u2019", "'"), start))
            found.sort()
        return found

    def categories(self, text: str, start: int = 0, end: int | None = None) -> set[str]:
        """The categories of `find`'s cues in text[start:end], cheaper where no dot joins two letters (no phrase can
        then be part of a name such as "example.com"): no position is kept."""
        end = len(text) if end is None else end
        if end <= start or self._may_hold_cue.search(text, start, end) is None:
            return set()
        if _NAME_DOT.search(text, start, end) is not None:
            return {cue.category for cue in self.find(text, start, end)}
        stretch = text[start:end]
        low, lowered = _lowered(stretch)
        words = _as_matched(_words_of(low), lowered, "\u2019" in stretch)
        found: set[str] = set()
        i = 0
        while (hit := self._next_phrase(words, i)) is not None:
            found.update(category for category, _ in hit[2])
            i = hit[1] + 1
        if self._unspaced:
            found.update(cue.category for cue in self._find_unspaced(low.replace("\u2019", "'"), start))
        return found

    def holds_only(self, allowed: frozenset[str], text: str, start: int = 0, end: int | None = None) -> bool:
        """Whether every cue in text[start:end] is of an `allowed` category.

        A screen settles most prose with a few set operations in C: every other spaced phrase of one to three
        words as it stands, and of each longer one the run of three words the phrases of `allowed` categories use
        least; every other unspaced phrase's own part of one character, and a pair of neighbouring characters of
        each longer one, chosen alike. Prose holding none of those holds no cue outside `allowed` (a phrase is
        found only where all of it stands); otherwise `categories` decides."""
        stretch = text[start:end]
        low = stretch.lower()
        if len(low) == len(stretch) and "\u2019" not in stretch:
            screen = self._screens.get(allowed)
            if screen is None:
                screen = self._screens.setdefault(allowed, self._screen(allowed))
            w = _words_of(low)
            if (
                screen.words.isdisjoint(w)
                and screen.pairs.isdisjoint(itertools.pairwise(w))
                and screen.triples.isdisjoint(zip(w, w[1:], w[2:]))
                # (an unspaced phrase starts with a character of its own script, never an ASCII one)
                and (
                    stretch.isascii()
                    or (screen.chars.isdisjoint(low) and screen.char_pairs.isdisjoint(itertools.pairwise(low)))
                )
            ):
                return True
        return self.categories(text, start, end) <= allowed

    def _screen(self, allowed: frozenset[str]) -> _Screen:
        """What `holds_only` looks for (see there)."""
        uses: dict[tuple[str, ...], int] = {}
        for toks, cats in self._phrase_runs.items():
            if cats <= allowed:
                for run in {*zip(toks, toks[1:], toks[2:])}:
                    uses[run] = uses.get(run, 0) + 1
        for own, cats in self._unspaced_parts.items():
            if cats <= allowed:
                for pair in {*itertools.pairwise(own)}:
                    uses[pair] = uses.get(pair, 0) + 1
        words: set[str] = set()
        pairs: set[tuple[str, ...]] = set()
        triples: set[tuple[str, ...]] = set()
        for toks, cats in self._phrase_runs.items():
            if cats <= allowed:
                continue
            if len(toks) == 1:
                words.add(toks[0])
            elif len(toks) == 2:
                pairs.add(toks)
            else:
                triples.add(min(zip(toks, toks[1:], toks[2:]), key=lambda run: uses.get(run, 0)))
        chars: set[str] = set()
        char_pairs: set[tuple[str, ...]] = set()
        for own, cats in self._unspaced_parts.items():
            if cats <= allowed:
                continue
            if len(own) == 1:
                chars.add(own)
            else:
                char_pairs.add(min(itertools.pairwise(own), key=lambda pair: uses.get(pair, 0)))
        return _Screen(frozenset(words), frozenset(pairs), frozenset(triples), frozenset(chars), frozenset(char_pairs))

    def _next_phrase(self, words: list[str], i: int) -> tuple[int, int, tuple[tuple[str, str], ...]] | None:
        """The first phrase at or after word `i`: its first and last word and its categories; the longest phrase
        that starts there. Each word costs one look-up per word of the longest phrase it could start."""
        root = self._spaced
        n = len(words)
        while i < n:
            node = root.get(words[i])
            if node is None:
                i += 1
                continue
            best: tuple[tuple[str, str], ...] | None = None
            last = j = i
            while True:
                cats = node.get(_END)
                if cats is not None:
                    best, last = cats, j
                j += 1
                if j == n or (node := node.get(words[j])) is None:
                    break
            if best is not None:
                return i, last, best
            i += 1
        return None

    def _find_unspaced(self, low: str, offset: int) -> Iterator[Cue]:
        """The unspaced phrases in `low`, where their first own characters stand: at each, the longest whose own
        part goes on as the text does and whose leading part stands before it (one own character only when no
        longer own part matches), the first written among equals; matching resumes after it."""
        resume = 0
        n = len(low)
        for m in self._unspaced_start.finditer(low):
            at = m.start()
            if at < resume:
                continue
            node = self._unspaced[low[at]]
            best: tuple[int, int, int, tuple[tuple[str, str], ...]] | None = None  # (length, -order, lead, cats)
            single = None
            j = at + 1
            while True:
                for lead, length, order, cats in node.get(_END, ()):
                    if at >= len(lead) and low.startswith(lead, at - len(lead)):
                        hit = (length, -order, len(lead), cats)
                        if j - at == 1:
                            single = hit if single is None or hit[:2] > single[:2] else single
                        elif best is None or hit[:2] > best[:2]:
                            best = hit
                if j == n or (node := node.get(low[j])) is None:
                    break
                j += 1
            chosen = best or single
            if chosen is not None:
                length, _, lead_len, cats = chosen
                resume = at - lead_len + length
                for category, language in cats:
                    yield Cue(offset + at - lead_len, offset + resume, category, language)

    def iter(self, text: str, start: int = 0, end: int | None = None) -> Iterator[Cue]:
        """`find`, as an iterator."""
        return iter(self.find(text, start, end))

    def first(self, categories: frozenset[str], text: str, start: int = 0, end: int | None = None) -> Cue | None:
        """The first cue of one of `categories` in text[start:end], or None."""
        return next((c for c in self.iter(text, start, end) if c.category in categories), None)

    def clause(self, language: str) -> dict[str, tuple[str, ...]]:
        """A table's clause words (its `CLAUSE`: the word lists of that language's clause rules), or {}."""
        return next((t.clause for t in self.tables if t.language == language), {})

    def unread(self, text: str, start: int = 0, end: int | None = None) -> int:
        """Where text[start:end] first holds a word in a script no table covers (Arabic, Hindi, Thai, Greek…),
        or -1: prose the library cannot read."""
        m = self._unread.search(text, start, len(text) if end is None else end)
        return m.start() if m is not None else -1

    def negates(self, a: str, b: str) -> bool:
        """Whether one word is the other behind a negating prefix (`unapproved`, `approved`): close in spelling,
        opposite in meaning."""
        longer, shorter = (a, b) if len(a) > len(b) else (b, a)
        return longer.endswith(shorter) and longer[: len(longer) - len(shorter)] in self.negating_prefixes

    def words(self, kind: str) -> Words:
        """Every table's words of one kind of `WORD_KINDS`, spaced and unspaced apart (they match differently)."""
        return self._words[kind]

    def phrases(self, category: str) -> list[str]:
        """Every literal phrase of a category, in every table (for tests and documentation)."""
        return sorted({p for t in self.tables for row in t.phrases.get(category, ()) for p in expand(row)})


def _own_start(phrase: str) -> str:
    """An unspaced phrase from its first character that is neither ASCII, white space nor punctuation."""
    i = 0
    while i < len(phrase) and (phrase[i].isascii() or unicodedata.category(phrase[i])[0] in "PZ"):
        i += 1
    return phrase[i:]


def _covered_scripts(phrases: Iterable[str]) -> frozenset[str]:
    """The scripts whose letters stand in some phrase."""
    points = {ord(ch) for ch in set("".join(phrases)) if ch.isalpha()}
    return frozenset(name for name, spans in SCRIPTS.items() if any(lo <= p <= hi for lo, hi in spans for p in points))


@functools.cache
def lexicon() -> Lexicon:
    """The lexicon of every table in `TABLES`, built on first use (compiling its matcher takes tens of
    milliseconds, which an import that never reads prose should not pay)."""
    return Lexicon(load_table(importlib.import_module(f"{__name__}.{name}")) for name in TABLES)
