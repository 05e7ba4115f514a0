"""Extraction stage: find the pieces of a model's answer that may hold the JSON, with the facts selection needs.

Reasoning blocks (`<think>`…, also one whose opening tag was lost) are set apart; a tag opens a block only where a
block can start (a `<thinking>` mentioned in a sentence is text). Markdown fences (``` and ~~~, any length, info
string or none, unclosed at the end) and balanced `{…}`/`[…]` spans — found by one linear scan that respects
strings, so braces in prose and fences inside JSON strings do not derail it — become candidates; so do a Python
tuple in a fence, and an answer ending in a closing fence marker it never opened (without the marker). Every
candidate is returned (no cap: a dropped candidate may be the designated answer), each with its facts: whether it
is inside reasoning (and whether that block was cut off), what the words right before it call it (`label`), and
whether the visible prose refuses the task (a refusal of any language of the lexicon, `text/lexicon`), and whether
it holds prose in a script no lexicon table reads (then the answer is only assumed: a lossy `unread_prose`).
Besides the English clause rules below, every label takes what the text says after and around the candidate, and
before it in other languages (`text/cues.py`). Answer selection (`stages/select.py`) judges by those facts. A plugin
that finds candidates of its own (tool calls in vendor formats) gets the same facts for them from `candidate_facts`,
computed by the same labeller, floors and refusal search, so its candidates and the core's are judged alike.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from resilient_parse.context import Candidate
from resilient_parse.repairs import Repair
from resilient_parse.stages.read import valid_value_end
from resilient_parse.text.clauses import announces_list, label_words, list_glue, words_before
from resilient_parse.text.cues import Markup, ProseCues, label_for
from resilient_parse.text.lexicon import lexicon

REASONING_TAGS = (
    "think",
    "thinking",
    "reasoning",
    "reflection",
    "scratchpad",
    "analysis",
    "thought",
    "thoughts",
)
_REASONING_OPEN = re.compile(r"<(" + "|".join(REASONING_TAGS) + r")\b[^>\n]{0,200}>", re.IGNORECASE)
_REASONING_CLOSE = re.compile(r"</(" + "|".join(REASONING_TAGS) + r")\s*>", re.IGNORECASE)
# gpt-oss (harmony) writes its reasoning as a message on the analysis channel, ended by `<|end|>` (or cut short by
# the next message's header)
_ANALYSIS_OPEN = re.compile(r"<\|channel\|>[ \t]*+analysis[ \t]*+<\|message\|>")
_ANALYSIS_CLOSE = re.compile(r"<\|end\|>|<\|start\|>|<\|channel\|>")
_FENCE_LINE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\n]*)$", re.MULTILINE)
_FENCE_AT = re.compile(r"[ \t]{0,3}(?:`{3}|~{3})")
_FENCE_AFTER_NEWLINE = re.compile(r"\n(?=[ \t]{0,3}(?:`{3}|~{3}))")
_ASCII_OPENER = re.compile(r"[{\[]")
_OPENER = re.compile("[{\\[\uff5b\uff3b]")
# the rest of a double-quoted string, possessive: an unclosed one fails in one pass, with no backtracking stack
_STRING_END = re.compile(r'[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
# a single-quoted string, read the way the syntax stage reads it: it ends at the first unescaped `'` followed by
# structure; apostrophes inside stay text (each alternative excludes the others, so matching is linear)
_SQ_END = r"[ \t\r]*(?:[,:}\]\n\uff0c\uff1a\uff5d\uff3d]|$)"
_SQ_STRING = re.compile(r"(?:[^'\\]|\\.|'(?!" + _SQ_END + r"))*+'(?=" + _SQ_END + ")", re.DOTALL)
# the same for ‘…’, whose closing ’ is also the apostrophe of "it’s"
_CSQ_STRING = re.compile(r"(?:[^\u2019\\]|\\.|\u2019(?!" + _SQ_END + r"))*+\u2019(?=" + _SQ_END + ")", re.DOTALL)
# Inside a span, everything up to the next bracket the Python loop must see, in C: text, whole double-quoted
# strings, the simple single-quoted strings right after `{ [ , :` (no quote, backslash or line break inside, so a
# failed try costs no more than the distance to the next quote), and closed `{…}`/`[…]` groups up to two levels
# deep whose brackets pair up strictly (a failed try is re-read at most once per level, so matching stays linear).
# It stops at a bracket that does not fit such a group, or at a quote the Python loop must judge (a string that
# never closes, a single quote with apostrophes inside or a comment before it, ‘ “ ＂).
_SIMPLE_SQ = r"[ \t\r\n]*+'[^'\\\n]*+'(?=" + _SQ_END + ")"
_ATOM = (
    r"""(?:[^{}\[\]"'\u2018\u201c\uff02\uff5b\uff5d\uff3b\uff3d,:\uff0c\uff1a]++"""
    r"""|"(?:[^"\\]++|\\.)*+"|[,:\uff0c\uff1a](?:""" + _SIMPLE_SQ + r")?|(?<=[{\[\uff5b\uff3b])" + _SIMPLE_SQ + ")"
)


def _group(inner: str) -> str:
    return r"(?:\{(?:" + inner + r")*+\}|\[(?:" + inner + r")*+\])"


_GROUPS = _group(_ATOM + "|" + _group(_ATOM))
# possessive quantifiers keep these linear (the stdlib engine reads them from Python 3.11 on, the oldest supported)
_INSIDE_FAST = re.compile("(?:" + _ATOM + "|" + _GROUPS + ")*+")
_INSIDE = re.compile(_ATOM + "*+")
# where a quote opens a single-quoted JSON string rather than being an apostrophe: right after `{ [ , :`
_SQ_AFTER = frozenset("{[,:\uff5b\uff3b\uff0c\uff1a")
# what ends a value on the line before a quote that opens the next one (`[1\n '}']`)
_VALUE_END = frozenset("'\"0123456789]}\u2019\u201d\uff02")
_LITERAL_ENDS = ("true", "false", "null", "True", "False", "None")
# full-width brackets are read as JSON syntax by the syntax stage, so they open and close spans here too
_BRACKET = {"\uff5b": "{", "\uff5d": "}", "\uff3b": "[", "\uff3d": "]"}
_OPENERS = frozenset("{[\uff5b\uff3b")
_ASCII_OPENERS = frozenset("{[")
_CLOSERS = frozenset("}]\uff5d\uff3d")
# what may follow an opener that starts real JSON (a value, a quoted or bare key, a literal the reader knows), as
# opposed to prose like "[see below]" or "{first_name}"
_JSON_START = re.compile(
    r"""[\s\ufeff]*(?:[{\[\]}"'\u2018\u201c\uff02\uff5b\uff3b\-+.0-9/#]|[A-Za-z_$][\w$]*\s*[:\uff1a]"""
    r"""|(?:true|false|null|True|False|None|undefined|NaN|Infinity)\b)"""
)

_NON_SPACE = re.compile(r"\S")
_LOOK_BACK = 200

TIER_REASONING = -10
TIER_REASONING_CUT = 2 * TIER_REASONING
SOURCE_PREFERENCE = {"whole": 0, "fence": 1, "span": 2, "truncated_span": 3}
_LISTED_LABELS = frozenset({"example", "alternative", "rejected"})
LABEL_TIER = {"designated": 1, "example": -1, "rejected": -1, "alternative": 0, "": 0}
_QUOTES = frozenset("`\"'\u2018\u2019\u201c\u201d")


ANSWER, REASONING, REASONING_CUT = "answer", "reasoning", "reasoning_cut"
"""The regions a candidate can stand in (`Candidate.region`, `Region.kind`)."""


@dataclass(frozen=True)
class Region:
    """A stretch of the text: the answer, or a reasoning block whose candidates rank below the answer's; `cut`
    marks a reasoning block the output stopped in (it never closed, so no answer followed it). `body_start` and
    `body_end` bound what is written inside the block's tags (the whole stretch for the answer), so a plugin that
    reads formats of its own inside a block does not read the tags."""

    start: int
    end: int
    body_start: int
    body_end: int
    reasoning: bool
    cut: bool = False

    @property
    def kind(self) -> str:
        """ANSWER, REASONING (a closed block) or REASONING_CUT (a block the output stopped in)."""
        return REASONING_CUT if self.cut else REASONING if self.reasoning else ANSWER


def opens_reasoning_block(text: str, tag_start: int, tag_end: int) -> bool:
    """Whether an opening reasoning tag starts a block: at the start of a line (or right after another tag), or
    with the reasoning written straight after it (`<think>Maybe`, `<think>` + line break). A tag mentioned in a
    sentence ("I skip the <thinking> step") or quoted (`` `<think>` ``) is text. The look-back stops at the line
    or the previous tag, so it reads each character once."""
    if is_quoted_tag(text, tag_start, tag_end):
        return False
    i = tag_start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] in "\n>":
        return True
    return tag_end < len(text) and text[tag_end] not in " \t"


def is_quoted_tag(text: str, tag_start: int, tag_end: int) -> bool:
    """Whether the tag at text[tag_start:tag_end] is quoted (a quote or backtick right before or after it): text,
    not a tag."""
    return (tag_start > 0 and text[tag_start - 1] in _QUOTES) or (tag_end < len(text) and text[tag_end] in _QUOTES)


def split_reasoning(text: str) -> list[Region]:
    """Split text into answer and reasoning regions, in order, covering it whole. A tag written inside a JSON value
    (`{"note": "</think>"}`) is text, not a tag: tags inside closed `{…}`/`[…]` spans are ignored; so is an opening
    tag that does not start a block (`opens_reasoning_block`) and a quoted closing tag (`is_quoted_tag`)."""
    n = len(text)
    if "<" not in text:
        return [Region(0, n, 0, n, False)]
    opens = [m for m in _REASONING_OPEN.finditer(text) if opens_reasoning_block(text, m.start(), m.end())]
    closes = [m for m in _REASONING_CLOSE.finditer(text) if not is_quoted_tag(text, m.start(), m.end())]
    if "<|channel|>" in text:
        _add_analysis_messages(text, opens, closes)
    if not opens and not closes:
        return [Region(0, n, 0, n, False)]
    spans = [s for s in scan_spans(text) if s.closed]
    if spans:
        starts = [s.start for s in spans]

        def in_json(at: int) -> bool:
            i = bisect_right(starts, at) - 1
            return i >= 0 and spans[i].end > at

        opens = [m for m in opens if not in_json(m.start())]
        closes = [m for m in closes if not in_json(m.start())]
    regions: list[Region] = []
    pos = 0
    if closes and (not opens or closes[0].start() < opens[0].start()):
        # the opening tag is missing: everything before the first closing tag is reasoning
        regions.append(Region(0, closes[0].end(), 0, closes[0].start(), True))
        pos = closes[0].end()
    oi = ci = 0
    while True:
        while oi < len(opens) and opens[oi].start() < pos:
            oi += 1
        if oi >= len(opens):
            break
        opened = opens[oi]
        if opened.start() > pos:
            regions.append(Region(pos, opened.start(), pos, opened.start(), False))
        while ci < len(closes) and closes[ci].start() < opened.end():
            ci += 1
        if ci >= len(closes):
            regions.append(Region(opened.start(), n, opened.end(), n, True, cut=True))
            pos = n
            break
        regions.append(Region(opened.start(), closes[ci].end(), opened.end(), closes[ci].start(), True))
        pos = closes[ci].end()
    if pos < n:
        regions.append(Region(pos, n, pos, n, False))
    return regions


def _add_analysis_messages(text: str, opens: list[re.Match[str]], closes: list[re.Match[str]]) -> None:
    """Add each harmony analysis message's opening and the token that ends it to the tags, in order (a token
    that ends no analysis message is no tag). Each end is searched for once: later openings before it share it."""
    ends: list[re.Match[str]] = []
    end: re.Match[str] | None = None
    found = False
    for m in _ANALYSIS_OPEN.finditer(text):
        opens.append(m)
        if not found or (end is not None and end.start() < m.end()):
            end, found = _ANALYSIS_CLOSE.search(text, m.end()), True
        if end is not None and (not ends or ends[-1] is not end):
            ends.append(end)
    if found:
        opens.sort(key=lambda m: m.start())
    if ends:
        closes.extend(ends)
        closes.sort(key=lambda m: m.start())


class Span(NamedTuple):
    """A `{…}`/`[…]` span; `closed` is False for one cut off at the end. `inside` is the offset of the outermost
    opener that never closed and contains this span (-1 when there is none). A tuple: a long text has many."""

    start: int
    end: int
    closed: bool
    inside: int = -1


def scan_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Maximal balanced `{…}`/`[…]` spans in text[start:end], in one linear pass that skips JSON strings.

    A closer that does not match the innermost opener closes the nearest matching one (the ones inside it were
    left open); a closer with no opener is ignored. Spans that are only nested inside openers that never close
    still count as maximal (marked with `inside`), and the outermost unclosed opener yields a truncated span to
    the end. Full-width brackets count as brackets; strings (`"…"`, `“…”`) are skipped only inside a span, so
    quotes in prose cannot derail the scan.
    """
    end = len(text) if end is None else end
    spans, swallowed = _scan(text, start, end, fast=True)
    cut = next((s.start for s in spans if not s.closed), -1)
    if 0 <= cut < swallowed:
        # an opener never closed, and the fast pass read closed groups inside it whole: those are answers of
        # their own, so read from that opener again bracket by bracket (at most once, so still linear)
        # (the opener itself is not valid JSON: the first pass's C scanner found that out)
        spans = [s for s in spans if s.start < cut] + _scan(text, cut, end, fast=False, decode_from=cut + 1)[0]
    return spans


def _scan(text: str, start: int, end: int, fast: bool, decode_from: int = -1) -> tuple[list[Span], int]:
    """The scan itself; also returns where the last stretch the fast pattern read with a bracket in it ends
    (-1 when none did), so the caller knows whether a closed group may have been read whole. Bracket by bracket
    (`fast` False), a valid JSON value inside an opener is read by one C call too: it is one closed child, whose
    own brackets hold no maximal span. The C scanner is not tried before `decode_from`, nor again before where it
    last failed."""
    inside = _INSIDE_FAST.match if fast else _INSIDE.match
    swallowed = -1
    openers: list[str] = []  # the open brackets, innermost last
    positions: list[int] = []
    kids: list[list[Span] | None] = []  # closed direct children of each open bracket, made on first use
    open_count = {"{": 0, "[": 0}
    top_level: list[Span] = []
    pos = start
    sq_hopeless = csq_hopeless = False
    find_opener = _OPENER.search
    decode_floor = max(start, decode_from)  # the C scanner is not tried again before where it last failed
    while True:
        if not openers:  # in prose: only an opener matters
            m = find_opener(text, pos, end)
            if m is None:
                break
            at = m.start()
            ch = _BRACKET.get(m.group(), m.group())
            if at >= decode_floor and m.group() in _ASCII_OPENERS:
                # a valid JSON value is balanced, its strings skipped, nothing inside it a maximal span: one C call
                try:
                    value_end, failed_at = valid_value_end(text, at)
                except ValueError:  # an integer too long to convert: read it bracket by bracket
                    value_end, failed_at = -1, end
                if 0 <= value_end <= end:
                    top_level.append(Span(at, value_end, True))
                    pos = value_end
                    continue
                decode_floor = max(failed_at, value_end)
                if fast and failed_at >= end:
                    # valid up to the end, where it stops: cut off, so its closed children will be answers of
                    # their own — read it bracket by bracket from here at once (what `scan_spans` would do after)
                    fast, inside, decode_floor = False, _INSIDE.match, at + 1
        else:
            at = inside(text, pos, end).end()  # type: ignore[union-attr]  # (a `*+` pattern always matches)
            if fast and at > pos and _ASCII_OPENER.search(text, pos, at) is not None:
                swallowed = at
            if at >= end:
                break
            ch = text[at]
        pos = at + 1
        if ch == '"':
            s = _STRING_END.match(text, pos, end)
            pos = s.end() if s else end
            continue
        if ch == "'":
            if not sq_hopeless and _after_structure(text, at, start):
                s = _SQ_STRING.match(text, pos, end)
                if s is not None:
                    pos = s.end()
                else:
                    sq_hopeless = True  # no closing quote anywhere after here: later quotes need not look
            continue
        if ch == "\u2018":
            if not csq_hopeless and _after_structure(text, at, start):
                s = _CSQ_STRING.match(text, pos, end)
                if s is not None:
                    pos = s.end()
                else:
                    csq_hopeless = True
            continue
        if ch == "\u201c" or ch == "\uff02":
            close = text.find("\u201d" if ch == "\u201c" else ch, pos, end)
            pos = close + 1 if close >= 0 else end
            continue
        ch = _BRACKET.get(ch, ch)
        if ch in _OPENERS:
            if not fast and at >= decode_floor and text[at] in _ASCII_OPENERS:
                try:
                    value_end, failed_at = valid_value_end(text, at)
                except ValueError:  # an integer too long to convert: read it bracket by bracket
                    value_end, failed_at = -1, end
                if 0 <= value_end <= end:
                    siblings = kids[-1]
                    if siblings is None:
                        kids[-1] = siblings = []
                    siblings.append(Span(at, value_end, True))
                    pos = value_end
                    continue
                decode_floor = max(failed_at, value_end, at + 1)
            openers.append(ch)
            positions.append(at)
            kids.append(None)
            open_count[ch] += 1
            continue
        want = "{" if ch == "}" else "["
        if not open_count[want]:
            continue  # a closer with no opener (checked in O(1), so "[[[…}}}" stays linear)
        depth = len(openers) - 1
        while openers[depth] != want:
            depth -= 1
        for popped in openers[depth:]:
            open_count[popped] -= 1
        span = Span(positions[depth], at + 1, True)
        del openers[depth:], positions[depth:], kids[depth:]
        if not openers:
            top_level.append(span)
        else:
            siblings = kids[-1]
            if siblings is None:
                kids[-1] = siblings = []
            siblings.append(span)
    if openers:
        # children of openers that never closed are maximal spans too
        outer = positions[0]
        for children in kids:
            if children:
                top_level.extend(Span(c.start, c.end, True, outer) for c in children)
        top_level.append(Span(outer, end, False))
        top_level.sort(key=lambda s: s.start)
    return top_level, swallowed


def _after_structure(text: str, at: int, floor: int) -> bool:
    """Whether the quote at `at` follows `{ [ , :` — ignoring whitespace and short comments — or starts a line
    after one that ends with a value (a comma missing at the line end), i.e. opens a key or a value. Each look-back
    is bounded, so the scan stays linear."""
    i = at - 1
    limit = max(floor, at - _LOOK_BACK)
    while True:
        while i >= limit and text[i] in " \t\r\n":
            i -= 1
        if i < limit:
            return False
        if text[i] in _SQ_AFTER:
            return True
        if text[i] == "/" and i > limit and text[i - 1] == "*":  # `/* … */` just before
            opened = text.rfind("/*", limit, i - 1)
            if opened < 0:
                return False
            i = opened - 1
            continue
        if "\n" not in text[i:at]:
            return False
        if text[i] in _VALUE_END or text.endswith(_LITERAL_ENDS, max(limit, i - 4), i + 1):
            return True  # a value ends the line before and its comma is missing: this quote opens the next one
        # `: // note` on the line before: look at what precedes the comment
        line = max(limit, text.rfind("\n", limit, i) + 1)
        marks = [m for m in (text.find("//", line, i + 1), text.find("#", line, i + 1)) if m >= 0]
        if not marks:
            return False
        i = min(marks) - 1


@dataclass(frozen=True)
class Fence:
    """A markdown code fence: where its body is, where its opening marker is, and its info string ("json")."""

    body_start: int
    body_end: int
    marker_start: int
    closed: bool
    info: str


def find_fences(text: str) -> list[Fence]:
    """Markdown code fences: an opener line of 3+ backticks or tildes, closed by a line of the same character
    at least as long; an opener that never closes runs to the end of the text."""
    fences: list[Fence] = []
    lines = _fence_lines(text)
    i = 0
    while i < len(lines):
        opener = lines[i]
        marker = opener.group(1)
        info = opener.group(2).strip()
        if marker[0] == "`" and "`" in info:
            i += 1
            continue
        body_start = min(opener.end() + 1, len(text))
        j = i + 1
        while j < len(lines):
            cand = lines[j]
            cm = cand.group(1)
            if cm[0] == marker[0] and len(cm) >= len(marker) and not cand.group(2).strip():
                break
            j += 1
        if j < len(lines):
            fences.append(Fence(body_start, lines[j].start(), opener.start(), True, info))
            i = j + 1
        else:
            fences.append(Fence(body_start, len(text), opener.start(), False, info))
            break
    return fences


def _fence_lines(text: str) -> list[re.Match[str]]:
    """The lines that are fence markers, found from line starts followed by ``` or ~~~ (the search for a line
    break runs in C) rather than by trying the line pattern at every offset of a long answer."""
    found: list[re.Match[str]] = []
    starts = [0] if _FENCE_AT.match(text) else []
    starts.extend(m.end() for m in _FENCE_AFTER_NEWLINE.finditer(text))
    for line in starts:
        m = _FENCE_LINE.match(text, line)
        if m is not None:
            found.append(m)
    return found


def opens_json(text: str, opener: int) -> bool:
    """Whether the opener at `opener` starts real JSON (`[{"a"…`, `{name:`, `[True`) rather than prose (`[see`,
    `{first_name}`)."""
    return _JSON_START.match(text, opener + 1) is not None


_REFUSAL = frozenset({"refusal"})


def _refusal_in(prose: ProseCues, region: Region) -> int:
    """Where the prose of a visible region (its cues lie outside its JSON values and whatever else a reader took)
    first refuses the task, or -1."""
    cue = prose.first(_REFUSAL, region.start, region.end)
    return cue.start if cue is not None else -1


def _unread_in(text: str, region: Region, covered: list[tuple[int, int]]) -> int:
    """Where the prose of a visible region (outside the stretches in `covered`) first holds a word no lexicon
    table can read (a script none covers), or -1."""
    pos = region.start
    for start, end in covered:
        if start >= region.end:
            break
        if start > pos:
            at = lexicon().unread(text, pos, start)
            if at >= 0:
                return at
        pos = max(pos, end)
    return lexicon().unread(text, pos, region.end) if pos < region.end else -1


def _json_stretches(spans: list[Span], text: str | None = None) -> list[tuple[int, int]]:
    """The spans whose words are JSON, not prose (a span inside an unclosed opener is within that opener's); given
    the `text`, only those that start the way JSON does ("[see below]", "[example]" are prose)."""
    return [(s.start, s.end) for s in spans if s.inside < 0 and (text is None or opens_json(text, s.start))]


def _has_visible_text(text: str, regions: list[Region]) -> bool:
    return any(_NON_SPACE.search(text, r.start, r.end) is not None for r in regions if not r.reasoning)


def _floor(ends: list[int], region: Region, at: int) -> int:
    """Where the words that may label a candidate at `at` begin: after the last closed span before it (`ends`,
    sorted), within its region."""
    i = bisect_right(ends, at)
    return max(region.start, ends[i - 1]) if i else region.start


class _Labeller:
    """Labels candidates in text order: what the words before each one call it (`label_before`), and what
    carries from one to the next — after an example hand-over words designate, and list glue ("{…} or {…}")
    extends an example's, alternative's or rejection's label to the candidate listed with it."""

    def __init__(self, text: str, prose: ProseCues) -> None:
        self._text = text
        self._prose = prose
        self._example_end = -1  # where the last candidate labelled an example ends
        self._previous = ""
        self._previous_end = -1
        self._announced = False  # the words that gave the previous candidate its label announced a list
        # the words before a start and what they call it, by (start, floor, after an example): a fence body and
        # the span inside it start at the same place, and their words are read once
        self._read: dict[tuple[int, int, bool], tuple[str, bool, str]] = {}
        # what the text says around its candidates: markup (tags, comments, strike-through) and fence info strings
        self._markup = Markup.scan(text)
        self._bound: dict[tuple[str, int, int, int, int | None, bool], str] = {}
        fences = find_fences(text) if "```" in text or "~~~" in text else []
        self._fences = [(f.body_start, f.body_end, f.info) for f in fences if f.info]
        self._fence_starts = [f[0] for f in self._fences]

    def _fence_info(self, start: int, end: int) -> str:
        """The info string of the fence whose body holds text[start:end] ("" when none, or no info string)."""
        i = bisect_right(self._fence_starts, start) - 1
        if i >= 0 and self._fences[i][1] >= end:
            return self._fences[i][2]
        return ""

    def label(self, start: int, end: int, floor: int, ceiling: int | None = None) -> str:
        """The label of the candidate at text[start:end]; `floor` is where the words that may label it begin,
        `ceiling` where the next candidate starts (None: none follows)."""
        text = self._text
        after_example = 0 <= self._example_end <= start
        key = (start, floor, after_example)
        known = self._read.get(key)
        if known is None:
            words, whole = words_before(text, start, floor)
            known = self._read[key] = (words, whole, label_words(words, key[2]))
        words, whole, label = known
        listed = (
            self._previous in _LISTED_LABELS
            and 0 < floor == self._previous_end
            and list_glue(words, whole, self._announced)
        )
        if listed:
            # "For example: {…} or {…}": the second one is listed with the first (the glue's own "or" offers
            # nothing of its own)
            label = self._previous
        if label in ("", "designated") and text.startswith("?", end):
            label = "alternative"  # "Maybe {…}?", "Should I call {…}?": a question offers it, it does not answer
        # a fence body and the value inside it end at the same word: what is bound to them is read once
        last = end
        while last > start and text[last - 1] in " \t\r\n":
            last -= 1
        bound = (label, start, last, floor, ceiling, after_example)
        known_label = self._bound.get(bound)
        if known_label is None:
            known_label = self._bound[bound] = label_for(
                label,
                text,
                (start, last, floor),
                self._markup,
                self._fence_info(start, end),
                len(text) if ceiling is None else ceiling,
                ceiling is not None,
                after_example,
                self._prose,
            )
        label = known_label
        if not listed:
            self._announced = announces_list(words)
        self._previous, self._previous_end = label, end
        if label == "example":
            self._example_end = max(self._example_end, end)
        return label


@dataclass(frozen=True)
class CandidateFacts:
    """The facts answer selection judges a candidate by, as the core gives them to its own candidates: what the
    words before it call it (`label`: "designated", "example", "alternative", "rejected" or ""), the region it
    stands in, where the visible prose first refuses the task (-1: nowhere) and whether anything is written
    outside reasoning at all."""

    label: str
    region: Region
    refusal_at: int
    visible_text: bool


def candidate_facts(
    text: str, spans: Sequence[tuple[int, int]], taken: Sequence[tuple[int, int]] = ()
) -> list[CandidateFacts]:
    """The facts of each candidate a plugin found at `spans` ((start, end) offsets in `text`), in the order given,
    by the rules the core's own candidates are judged by: each is labelled by the words between the previous
    candidate or JSON value and its start, in text order (so "For example: <tool_call>{…}</tool_call> or …"
    labels both calls examples). The refusal is searched in the visible prose outside the core's JSON values, the
    spans and `taken` — the other stretches the plugin read as its own syntax (an `Action Input: I can't help
    with that` is a tool's input, not a refusal). One pass over the text for all the spans."""
    regions = split_reasoning(text)
    visible_text = _has_visible_text(text, regions)
    covered = sorted([*spans, *taken])
    bounds = [(bisect_left(covered, (r.start, -1)), bisect_left(covered, (r.end, -1))) for r in regions]
    json_spans = [scan_spans(text, r.start, r.end) for r in regions]
    prose = ProseCues(text, [*covered, *(s for found in json_spans for s in _json_stretches(found, text))])
    refusals = (_refusal_in(prose, region) for region in regions if not region.reasoning)
    refusal_at = next((at for at in refusals if at >= 0), -1)  # the first visible region that refuses, as the core
    facts: list[CandidateFacts | None] = [None] * len(spans)
    labeller = _Labeller(text, prose)
    own = sorted(range(len(spans)), key=lambda k: spans[k][0])
    own_starts = [spans[k][0] for k in own]
    k = 0
    for index, region in enumerate(regions):
        lo, hi = bounds[index]
        ends = sorted([*(s.end for s in json_spans[index] if s.closed), *(e for _, e in covered[lo:hi])])
        while k < len(own) and (index + 1 == len(regions) or spans[own[k]][0] < regions[index + 1].start):
            start, end = spans[own[k]]
            label = labeller.label(start, end, _floor(ends, region, start), _next_start(own_starts, end))
            facts[own[k]] = CandidateFacts(label, region, refusal_at, visible_text)
            k += 1
    return [f for f in facts if f is not None]


def extract_candidates(text: str, max_candidates: int | None = None) -> list[Candidate]:
    """Every candidate in the text, best-first, with the facts answer selection judges by. No cap: a candidate
    dropped here could be the one the text designates (`max_candidates` is accepted for the hook's call and
    ignored; the number of candidates *tried* is bounded in `stages/select.py`)."""
    regions = split_reasoning(text)
    lone = _lone_value(text, regions)
    if lone is not None:
        return [lone]
    return _all_candidates(text, regions)


_CLOSER_OF = {"{": "}", "[": "]"}


def _lone_value(text: str, regions: list[Region]) -> Candidate | None:
    """The one candidate of a text that is a single bracketed value with nothing else around it (no prose, fence
    or reasoning block; its brackets balance into one span), exactly as `_all_candidates` finds it; None for any
    other text. Most outputs that need a repair are this, and the full extraction costs more than reading them."""
    body = text.strip()
    if len(body) < 2 or _CLOSER_OF.get(body[0]) != body[-1] or "```" in text or "~~~" in text:
        return None
    if len(regions) != 1 or regions[0].reasoning:
        return None
    start = len(text) - len(text.lstrip())
    end = start + len(body)
    spans = scan_spans(text, 0, len(text))
    if len(spans) != 1 or spans[0] != Span(start, end, True):
        return None
    return Candidate(body, start, end, "whole")


def _all_candidates(text: str, regions: list[Region]) -> list[Candidate]:
    has_reasoning = any(r.reasoning for r in regions)
    visible_text = _has_visible_text(text, regions)
    refusal_at = unread_at = -1
    # (start, end, source, region kind, floor for designating words, demoted)
    raw: list[tuple[int, int, str, str, int, bool]] = []
    found = [scan_spans(text, region.start, region.end) for region in regions]
    prose = ProseCues(text, [s for spans in found for s in _json_stretches(spans, text)])
    for region, spans in zip(regions, found):
        kind = region.kind
        if not region.reasoning and refusal_at < 0:
            refusal_at = _refusal_in(prose, region)
        if not region.reasoning and unread_at < 0:
            unread_at = _unread_in(text, region, _json_stretches(spans))
        closed = [s for s in spans if s.closed and s.inside < 0]
        starts = [s.start for s in closed]
        ends = sorted(s.end for s in spans if s.closed)

        def floor(at: int, _ends: list[int] = ends, _region: Region = region) -> int:
            return _floor(_ends, _region, at)

        # a fence body or an answer that is one JSON string literal (JSON encoded as a string, which the later
        # stages may decode) is a candidate as a whole; the braces inside it are not spans of their own
        literals: list[tuple[int, int]] = []
        for fence in find_fences(text[region.start : region.end]):
            marker = region.start + fence.marker_start
            i = bisect_right(starts, marker) - 1
            if i >= 0 and closed[i].start < marker < closed[i].end:
                continue  # a fence written inside a JSON string or value is not a fence
            body_start, body_end = region.start + fence.body_start, region.start + fence.body_end
            source = "fence" if fence.closed else "open_fence"
            raw.append((body_start, body_end, source, kind, floor(body_start), False))
            if _is_string_literal(text[body_start:body_end].strip()):
                literals.append((body_start, body_end))
        chunk = text[region.start : region.end]
        body = chunk.strip()
        marker_cut: tuple[int, int] | None = None  # the answer before a closing fence marker with no opening one
        if not region.reasoning and (body[:1] in _OPENERS or _is_string_literal(body)):
            lead = len(chunk) - len(chunk.lstrip())
            before_ticks = body.rstrip("`")
            if len(body) - len(before_ticks) >= 3 and "```" not in before_ticks:
                # `{"key": "value"}```: a fence whose opening marker was left out; what is before its closing
                # marker is the candidate (the whole, backticks and all, is not JSON)
                end = region.start + lead + len(before_ticks.rstrip())
                raw.append((region.start + lead, end, "open_fence", kind, region.start, False))
                marker_cut = (region.start + lead, end)
            else:
                whole_end = region.start + lead + len(body)
                if body[:1] in _OPENERS and body[-1:] not in _CLOSERS:
                    whole_end = region.end  # open-ended: it keeps its trailing white space, as a cut-off span does
                raw.append((region.start + lead, whole_end, "whole", kind, region.start, False))
            if body[:1] == '"':
                literals.append((region.start + lead, region.start + lead + len(body)))
        literals.sort()
        literal_starts = [a for a, _ in literals]
        for span in spans:
            i = bisect_right(literal_starts, span.start) - 1
            if i >= 0 and span.start < literals[i][1]:
                continue
            if marker_cut is not None and span.start == marker_cut[0] and span.end > marker_cut[1]:
                continue  # the same answer with the fence marker in it
            # a span inside an unclosed opener that starts real JSON is part of a cut-off answer, not an answer
            demoted = span.inside >= 0 and opens_json(text, span.inside)
            source = "span" if span.closed else "truncated_span"
            raw.append((span.start, span.end, source, kind, floor(span.start), demoted))

    answer = "".join(text[r.start : r.end] for r in regions if not r.reasoning).strip()
    seen: dict[str, Candidate] = {}
    stripped_all = text.strip()
    labeller = _Labeller(text, prose)
    raw.sort(key=lambda r: r[0])
    # where the pieces that can be candidates start (an empty fence body is none): the words before the next one
    # speak of it, not of the one before
    raw_starts = [r[0] for r in raw if _NON_SPACE.search(text, r[0], r[1]) is not None]
    for order, (start, end, source, kind, floor_at, demoted) in enumerate(raw):
        piece = text[start:end]
        if source != "span" and piece.lstrip()[:1] == '"':
            body = piece.strip()
            if not _is_string_literal(body):
                continue
        else:
            # a cut-off piece keeps its trailing whitespace: "30\n" shows the number was complete
            open_ended = source in ("truncated_span", "open_fence") or (
                source == "whole" and piece.rstrip()[-1:] not in _CLOSERS
            )
            body = piece.lstrip() if open_ended else piece.strip()
            tuple_in_fence = source in ("fence", "open_fence") and body[:1] == "("  # a Python tuple given as the JSON
            if len(body.rstrip()) < 2 or (body[0] not in _OPENERS and not tuple_in_fence):
                continue
        label = labeller.label(start, end, floor_at, _next_start(raw_starts, end))
        base = TIER_REASONING_CUT if kind == REASONING_CUT else TIER_REASONING if kind == REASONING else 0
        tier = base + LABEL_TIER[label] - (1 if demoted else 0)
        repairs: list[Repair] = []
        if source in ("fence", "open_fence"):
            repairs.append(Repair.make("extract_fence", "", None, None, offset=start))
            source = "fence"
        elif body.strip() != stripped_all and bool(answer) and piece.strip() != answer:
            repairs.append(Repair.make("extract_prose", "", None, None, offset=start))
        if unread_at >= 0:
            # prose no table reads may refuse, retract or call this an example: the answer is assumed, not read
            repairs.append(Repair.make("unread_prose", "", None, None, offset=unread_at))
        if kind != ANSWER:
            # choosing a draft from the model's reasoning is a judgement, never lossless
            repairs.append(replace(Repair.make("reasoning_candidate", "", None, None, offset=start), lossless=False))
        elif has_reasoning:
            repairs.append(Repair.make("skip_reasoning", "", None, None, offset=start))
        cand = Candidate(body, start, end, source, tier, order, tuple(repairs), label, kind, refusal_at, visible_text)
        prev = seen.get(body)
        if prev is None or _better(cand, prev):
            seen[body] = cand
    return sorted(seen.values(), key=lambda c: (-c.tier, SOURCE_PREFERENCE.get(c.source, 9), -len(c.text)))


def _next_start(starts: list[int], end: int) -> int | None:
    """Where the first candidate that starts at or after `end` starts (`starts` sorted), or None."""
    i = bisect_left(starts, end)
    return starts[i] if i < len(starts) else None


def _is_string_literal(body: str) -> bool:
    """Whether `body` is exactly one double-quoted JSON string with something inside."""
    return len(body) > 2 and body[0] == '"' and _STRING_END.fullmatch(body, 1) is not None


def _better(new: Candidate, old: Candidate) -> bool:
    return (new.tier, -SOURCE_PREFERENCE.get(new.source, 9)) > (
        old.tier,
        -SOURCE_PREFERENCE.get(old.source, 9),
    )
