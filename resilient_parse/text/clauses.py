"""The English clause rules: what the words right before a candidate call it, read clause by clause.

Only the words after the previous candidate count (so "for example: {…}" does not also label the answer after
it), at most `CONTEXT_CHARS` of them, and a designation only in the last clause before the candidate, ending in a
way that introduces it ("Final answer:", "The correct JSON is", "Use the corrected"): "the final API version
dropped {…}" mentions a word, it does not designate. A negation before the word ("would NOT be correct:", "Do not
use the updated") turns it into a rejection. An example/draft/template word labels the candidate an example and
outweighs a designation in the same clause; so does a one-word aside that retracts it ("Final answer (example):").
A verdict that is the whole clause ("Rejected:", "Incorrect:", "Bad:") rejects. Hedging words ("Maybe", "What
about", "Or:") offer an alternative. After an example, hand-over words ("For your request:", "Here is the
result:") designate the candidate they introduce. Every pattern runs on that bounded window only.

The words themselves are the English table's `CLAUSE` lists (`text/lexicon/en.py`); the patterns and the
pre-filter that settles most prose without the clause analysis are generated from them. What every language's
table says before, after and around a candidate is read by `text/cues.py`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from resilient_parse.text.lexicon import expand, lexicon

CONTEXT_CHARS = 120
"""How many characters of words before a candidate are read (a run of white space counts as one)."""
_WHITE = frozenset(" \t\r\n\f\v")
# what `_trim_markup` trims besides white space: emphasis, fences, tags
_MARKUP_CHARS = re.compile(r"[*_#`~<>]")
_CLAUSE_BREAK = re.compile(r"[.!?;](?=\s)|\n")
# a fence's opening marker with its info string, at the end of the words before a candidate
_FENCE_TAIL = re.compile(r"(?:`{3,}|~{3,})[\w+.-]{0,30}\Z")
_PARENTHETICAL = re.compile(r"\([^()]*\)")
# a numbered list item's marker ("1.", "2)", "a.")
_LIST_NUMBER = re.compile(r"\(?(?:[0-9]{1,3}|[a-z])[.)]", re.IGNORECASE)
_MAX_INTRODUCED_WORDS = 8
_ASCII_WORD = re.compile(r"[a-z]++")
# lowered letters Python's case-insensitive matching (the clause rules' `re.IGNORECASE`) takes for ASCII ones:
# dotless ı, long ſ, and İ, which lowers to i and a combining dot (the Kelvin sign lowers to k itself)
_FOLDS_TO_ASCII = (("\u0131", "i"), ("i\u0307", "i"), ("\u017f", "s"))
# marks, not words: how a designation may end, what may stand between list items
_INTRODUCING_MARKS = (":", "=", "->", "\u2192")
_LIST_MARKS = frozenset({",", ";", "/", "|", "-", "*", "+", "\u2022"})


@dataclass(frozen=True)
class _Vocabulary:
    """The English table's clause words, as the patterns and sets the rules test."""

    example: re.Pattern[str]
    answer_described: tuple[str, ...]
    alternative: re.Pattern[str]
    designating: re.Pattern[str]
    hand_over: re.Pattern[str]
    negation: re.Pattern[str]
    use_verbs: re.Pattern[str]
    rejecting_ends: tuple[str, ...]
    answer_nouns: frozenset[str]
    introducing: tuple[str, ...]
    determiners: frozenset[str]
    trailing_verbs: frozenset[str]
    list_glue: frozenset[str]
    list_words: frozenset[str]
    announces_list: re.Pattern[str]
    retracting_asides: dict[str, str]
    rejecting_headings: frozenset[str]
    option_headings: frozenset[str]
    triggers: frozenset[str]
    hand_over_triggers: frozenset[str]


def _phrases(rows: tuple[str, ...]) -> list[str]:
    return sorted({p for row in rows for p in expand(row)}, key=len, reverse=True)


def _words(rows: tuple[str, ...]) -> re.Pattern[str]:
    """A word-bounded pattern of the phrases `rows` stand for, longest first; not inside a name ("example.com")."""
    return re.compile(r"(?<!\w\.)\b(?:" + "|".join(map(re.escape, _phrases(rows))) + r")\b(?!\.\w)", re.IGNORECASE)


def _keys(rows: tuple[str, ...]) -> set[str]:
    """One word of each phrase, its longest (the rarest, as a rule): words that hold none of them hold no phrase."""
    return {max(_ASCII_WORD.findall(phrase), key=len) for phrase in _phrases(rows) if _ASCII_WORD.search(phrase)}


@functools.cache
def _v() -> _Vocabulary:
    clause = lexicon().clause("en")
    negation = "|".join(map(re.escape, _phrases(clause["negation"])))
    endings = "|".join(map(re.escape, _phrases(clause["negating_ending"])))
    return _Vocabulary(
        example=_words(clause["example"]),
        answer_described=clause["answer_described"],
        alternative=_words(clause["alternative"]),
        designating=_words(clause["designating"]),
        hand_over=_words(clause["hand_over"]),
        negation=re.compile(rf"\b(?:{negation})\b|(?:{endings})\b", re.IGNORECASE),
        use_verbs=re.compile("(?:" + "|".join(map(re.escape, clause["use_verbs"])) + ")[:,]?", re.IGNORECASE),
        rejecting_ends=clause["rejecting_ends"],
        answer_nouns=frozenset(clause["answer_nouns"]),
        introducing=_INTRODUCING_MARKS + clause["introducing_ends"] + clause["introducing_verbs"],
        determiners=frozenset({"", *clause["determiners"]}),
        trailing_verbs=frozenset({"", "->", "\u2192", *clause["trailing_verbs"]}),
        list_glue=_LIST_MARKS | frozenset(clause["list_glue"]),
        list_words=frozenset({",", *clause["list_glue"]}),
        announces_list=_words(clause["announces_list"]),
        retracting_asides={
            **{f"({w})": "example" for w in clause["example_asides"]},
            **{f"({w})": "rejected" for w in clause["rejecting_asides"]},
        },
        rejecting_headings=frozenset(clause["rejecting_headings"]),
        option_headings=frozenset(clause["option_headings"]),
        # the pre-filter: words with none of these label nothing (generated, so it cannot fall behind the lists)
        triggers=frozenset(
            _keys(clause["example"])
            | _keys(clause["alternative"])
            | _keys(clause["designating"])
            | _keys(clause["negation"])
            # an ending is the last word the text's words split into ("couldn't": "couldn", "t")
            | {_ASCII_WORD.findall(ending)[-1] for ending in _phrases(clause["negating_ending"])}
            | _keys(clause["rejecting_headings"])
        ),
        hand_over_triggers=frozenset(_keys(clause["hand_over"])),
    )


def announces_list(words: str) -> bool:
    """Whether these words announce several candidates ("Examples:", "Here are some options:"), so the next ones
    on lines of their own are items of that list."""
    return _v().announces_list.search(words) is not None


def words_before(text: str, start: int, floor: int) -> tuple[str, bool]:
    """The words between `floor` and `start`, at most CONTEXT_CHARS of them, each run of white space shortened to
    one character (a line break if it holds one), so a long run of spaces or tabs does not push the label out of
    reach; and whether they reach back to `floor`. The walk reads each character of the stretch it covers once."""
    pieces: list[str] = []
    budget = CONTEXT_CHARS
    i = start
    while i > floor and budget > 0:
        j = i
        newline = False
        while j > floor and text[j - 1] in _WHITE:
            j -= 1
            newline = newline or text[j] == "\n"
        if j < i:
            pieces.append("\n" if newline else " ")
            i = j
            continue
        while j > floor and budget > 0 and text[j - 1] not in _WHITE:
            j -= 1
            budget -= 1
        pieces.append(text[j:i])
        i = j
    pieces.reverse()
    return "".join(pieces), i <= floor


def _labels_nothing(trimmed: str, after_example: bool) -> bool:
    """Whether the clause analysis would find no label in these words, told by their words alone (see above)."""
    if not trimmed.isascii() or "(" in trimmed:
        return False
    return _words_label_nothing(trimmed.lower(), after_example)


def _words_label_nothing(lower: str, after_example: bool) -> bool:
    words = _ASCII_WORD.findall(lower)
    v = _v()
    if not v.triggers.isdisjoint(words) or (after_example and not v.hand_over_triggers.isdisjoint(words)):
        return False
    if lower.rstrip(" \t:,-").endswith(v.rejecting_ends):
        return False
    tail = lower.rstrip(" \t*_#:-")
    return not (tail.endswith("or") and not tail[-3:-2].isalnum())  # the heading "Or:"


def labels_nothing(words: str, *, plain: bool = False) -> bool:
    """Whether the clause rules label nothing in these words, wherever a candidate stands after them and whatever
    script they mix in (their ASCII letter runs are taken as words, so "demandé" counts as "demand"): words free of
    every trigger, with no rejecting ending and no "Or:" heading. A cheap, conservative test for
    `stages/wrapped.py`, which must never pass words the full analysis would label. `plain`: the caller found no
    parenthesis and no markup in them (nothing to trim)."""
    if plain:
        return _words_label_nothing(folded(words.rstrip()), after_example=False)
    if "(" in words:
        return False
    trimmed = _trim_markup(words) if _MARKUP_CHARS.search(words) else words.rstrip()
    return _words_label_nothing(folded(trimmed), after_example=False)


def folded(words: str) -> str:
    """The words lowered as `re.IGNORECASE` compares them: "Optıon" and "ſample" are "option" and "sample"."""
    low = words.lower()
    if not low.isascii():
        for letter, ascii_letter in _FOLDS_TO_ASCII:
            low = low.replace(letter, ascii_letter)
    return low


def label_words(words: str, after_example: bool) -> str:
    trimmed = _trim_markup(words)
    if _labels_nothing(trimmed, after_example):
        return ""
    return _label_clauses(trimmed, after_example)


def _label_clauses(trimmed: str, after_example: bool) -> str:
    """What the words before a candidate (their markup trimmed) call it, clause by clause."""
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(trimmed)]
    last = trimmed[breaks[-1] :] if breaks else trimmed
    for aside in _PARENTHETICAL.finditer(last):
        retracted = _v().retracting_asides.get(aside.group().lower().replace(" ", ""))
        if retracted:
            return retracted  # "Final answer (example):", "Final answer (not):"
    # an aside in parentheses ("Final answer (not the draft):") says nothing about the candidate itself
    window = _PARENTHETICAL.sub("", trimmed)
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(window)]
    # words that end a sentence ("… we do not use it.") introduce nothing: the candidate starts a new one
    clause = "" if window.endswith((".", "!", "?")) else window[breaks[-1] :] if breaks else window
    if _labels_example(clause):
        return "example"
    heading = clause.strip(" \t*_#:-").lower()
    if heading in _v().rejecting_headings or _denies_noun(clause):
        return "rejected"  # "Rejected:", "Incorrect:", "This is not the JSON:"
    if heading in _v().option_headings:
        return "alternative"  # "Or:"
    verdict = _designation(clause, after_example)
    if verdict:
        return verdict
    if _v().alternative.search(clause):
        return "alternative"
    if clause != window and _labels_example(window):  # (the clause itself was asked above)
        return "example"
    return ""


def _labels_example(words: str) -> bool:
    """Whether an example word labels the candidate: not one that describes the answer ("in the required format"),
    nor one a negation right before denies ("this isn't a draft", "not an example")."""
    return any(
        not words[: m.start()].lower().endswith(_v().answer_described) and not _denied(words[: m.start()])
        for m in _v().example.finditer(words)
    )


def _denied(before: str) -> bool:
    """Whether the words right before a word deny it: a negation, then at most two short words ("isn't a")."""
    tail = before.split()[-3:]
    for i, word in enumerate(tail):
        if _v().negation.search(word) is not None:
            return all(len(w) <= 3 for w in tail[i + 1 :])
    return False


def _trim_markup(window: str) -> str:
    """The words before a candidate without what sits between them and it: white space, emphasis, a fence's
    opening line, a tag like `<answer>`."""
    for _ in range(4):
        window = window.rstrip(" \t\r\n*_#")
        fence = _FENCE_TAIL.search(window, max(0, len(window) - 40))
        if fence is not None:
            window = window[: fence.start()]
            continue
        if window.endswith(">"):
            lt = window.rfind("<", max(0, len(window) - 60))
            if lt >= 0 and ">" not in window[lt:-1]:
                window = window[:lt]
                continue
        break
    return window


def _designation(clause: str, after_example: bool) -> str:
    """ "designated" when a designation word in the clause introduces the candidate, "rejected" when a negation
    cancels it or the clause rejects what follows ("Do not use", "instead of"), else ""."""
    designated = rejected = False
    vocabulary = _v()
    for pattern in (vocabulary.designating, vocabulary.hand_over):
        strict = pattern is vocabulary.designating
        for m in pattern.finditer(clause):
            before, tail = clause[: m.start()], clause[m.end() :]
            negated = _negated(before) or _v().negation.search(tail) is not None
            if negated and (_ends_introducing(tail) or _introduces(before, tail, strict)):
                rejected = True  # "would NOT be correct:", "This is not the answer:", "the fix isn't ready:"
            elif not negated and (strict or after_example) and _introduces(before, tail, strict):
                designated = True
    if rejected:
        return "rejected"
    if designated:
        return "designated"
    if clause.rstrip(" \t:,-").lower().endswith(_v().rejecting_ends):
        return "rejected"
    if _v().negation.search(clause) is None:
        return ""  # no word of it negates (a negation in a word is one in the clause)
    words = clause.split()
    for i, word in enumerate(words):
        if _v().negation.search(word) is not None and any(_v().use_verbs.fullmatch(w) for w in words[i + 1 : i + 3]):
            return "rejected"  # "Do not use", "never call", "don't run"
    return ""


def _denies_noun(clause: str) -> bool:
    """Whether the clause introduces the candidate as what it is not ("This is not the JSON:", "Not the answer:")."""
    words = clause.rstrip(" \t*_").split()
    if not words or not words[-1].endswith(":") or words[-1].strip("*_:").lower() not in _v().answer_nouns:
        return False
    return _negated(" ".join(words[:-1]))


def _ends_introducing(tail: str) -> bool:
    return (" " + tail.strip()).lower().endswith(_v().introducing)


def _introduces(before: str, tail: str, strict: bool) -> bool:
    """Whether a designation word, with `before` and `tail` the clause's words before and after it, leads straight
    to the candidate. A designation word (`strict`) must be followed by nothing but the thing it designates — the
    last word before the `:`/`is` a noun like "answer", "JSON", "version" ("I corrected the age from the previous
    answer:"), so "the final API version dropped this:" designates nothing; a hand-over word after an example
    only needs the mark ("Now the actual ticket:"). Without a mark, a heading of nouns ("**Final Answer**")."""
    words = [w.lower().strip("*_") for w in tail.split()]
    if len(words) > _MAX_INTRODUCED_WORDS:
        return False
    if _ends_introducing(tail):
        core = [w.strip(":=,") for w in words]
        verb = False
        while core and core[-1] in _v().trailing_verbs:
            verb = verb or bool(core[-1])
            core.pop()
        if not strict or not core:
            return True
        if verb:  # "The correct JSON is": only the designated thing between ("the final API version is" is not)
            return all(w in _v().answer_nouns or w in _v().determiners for w in core)
        return core[-1] in _v().answer_nouns
    return len(before.strip(" \t*_#>").split()) <= 1 and all(w in _v().answer_nouns for w in words)


def _negated(before: str) -> bool:
    """Whether one of the last few words before a designation word negates it ("would NOT be correct", "Do not
    use the updated"), and no "but" turns it round after the negation. A comma ends the reach: "I can't access
    live data, so here it is:" hedges, it does not reject."""
    reach = before.rsplit(",", 1)[-1]
    if _v().negation.search(reach) is None:
        return False  # none of its words negates
    near = reach.split()[-4:]
    for i, word in enumerate(near):
        if _v().negation.search(word) is not None:
            return "but" not in (w.lower() for w in near[i + 1 :])
    return False


def list_glue(words: str, whole: bool, announced: bool) -> bool:
    """Whether the `words` between the previous candidate and this one (`whole`: all of them) are list glue and
    nothing else, so the two are items of one list: white space, `,`, "or", "and" on one line ("For example: {…}
    {…}"), list markers ("Examples:\n1. {…}\n2. {…}"), or line breaks after words that `announced` a list
    ("Here are some examples:\n\n{…}\n\n{…}"). A line break alone after "For example: {…}" may lead to the
    answer."""
    if not whole:
        return False
    glue = words.replace(",", " , ").split()
    if not all(w.lower() in _v().list_glue or _LIST_NUMBER.fullmatch(w) is not None for w in glue):
        return False
    return announced or "\n" not in words or any(w not in _v().list_words for w in glue)
