"""Balanced `{…}`/`[…]` spans, found by one linear scan that respects strings, and where real JSON opens."""

from __future__ import annotations

import re
from typing import NamedTuple

from resilient_parse.json.tokens import valid_value_end

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
_QUOTES = frozenset("\"'\u2018\u201c\uff02")
# what may follow an opener that starts real JSON (a value, a quoted or bare key, a literal the reader knows), as
# opposed to prose like "[see below]" or "{first_name}"
_JSON_START = re.compile(
    r"""[\s\ufeff]*(?:[{\[\]}"'\u2018\u201c\uff02\uff5b\uff3b\-+.0-9/#]|[A-Za-z_$][\w$]*\s*[:\uff1a]"""
    r"""|(?:true|false|null|True|False|None|undefined|NaN|Infinity)\b)"""
)
_LOOK_BACK = 200


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
    hopeless: set[str] = set()  # the single quotes that no longer open a string here
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
                value_end, failed_at = _valid_end(text, at, end)
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
        if ch in _QUOTES:
            pos = _after_quoted(text, ch, at, start, end, hopeless)
            continue
        ch = _BRACKET.get(ch, ch)
        if ch in _OPENERS:
            if not fast and at >= decode_floor and text[at] in _ASCII_OPENERS:
                value_end, failed_at = _valid_end(text, at, end)
                if 0 <= value_end <= end:
                    _add_child(kids, Span(at, value_end, True))
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
            _add_child(kids, span)
    if openers:
        _add_unclosed(top_level, positions[0], kids, end)
    return top_level, swallowed


def _valid_end(text: str, at: int, end: int) -> tuple[int, int]:
    """Where the valid JSON value opening at `at` ends and where reading it failed (`valid_value_end`); one C call
    instead of a scan bracket by bracket."""
    try:
        return valid_value_end(text, at)
    except ValueError:  # an integer too long to convert: read it bracket by bracket
        return -1, end


def _add_child(kids: list[list[Span] | None], span: Span) -> None:
    """Record a closed span as a direct child of the innermost open bracket (its list made on first use, since
    most brackets have none)."""
    siblings = kids[-1]
    if siblings is None:
        kids[-1] = siblings = []
    siblings.append(span)


def _add_unclosed(top_level: list[Span], outer: int, kids: list[list[Span] | None], end: int) -> None:
    """Add what openers that never closed leave: their closed children are maximal spans too (marked as inside
    the outermost, at `outer`), and that opener is a truncated span to the end."""
    for children in kids:
        if children:
            top_level.extend(Span(c.start, c.end, True, outer) for c in children)
    top_level.append(Span(outer, end, False))
    top_level.sort(key=lambda s: s.start)


def _after_quoted(text: str, ch: str, at: int, start: int, end: int, hopeless: set[str]) -> int:
    """Where the scan goes on after the quote `ch` at `at` inside a span: past the string it opens, or right after
    it when it is an apostrophe. `hopeless` holds the single quotes that no closing quote follows any more, so
    later ones need not look (kept across calls, which keeps the scan linear)."""
    pos = at + 1
    if ch == '"':
        s = _STRING_END.match(text, pos, end)
        return s.end() if s else end
    if ch == "\u201c" or ch == "\uff02":
        close = text.find("\u201d" if ch == "\u201c" else ch, pos, end)
        return close + 1 if close >= 0 else end
    if ch in hopeless or not _after_structure(text, at, start):
        return pos
    s = (_SQ_STRING if ch == "'" else _CSQ_STRING).match(text, pos, end)
    if s is None:
        hopeless.add(ch)  # no closing quote anywhere after here: later quotes need not look
        return pos
    return s.end()


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


def opens_json(text: str, opener: int) -> bool:
    """Whether the opener at `opener` starts real JSON (`[{"a"…`, `{name:`, `[True`) rather than prose (`[see`,
    `{first_name}`)."""
    return _JSON_START.match(text, opener + 1) is not None
