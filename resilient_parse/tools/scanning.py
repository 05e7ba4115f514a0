"""How the text formats scan a region [lo, hi), shared so that every format reads each character once.

Forward searches keep their match until the scan passes it (`Ahead`); `Found` holds the calls found and the
stretches the formats have taken so far; the rest are the pieces several formats share."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.json_calls import Parser
from resilient_parse.tools.spans import json_spans, strings_in_values

_FENCE_CLOSE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*$", re.MULTILINE)


class Ahead:
    """The first match of a pattern at or after a position that only moves forward. A search is made again only
    once the position has passed the match it found (or never, after one found nothing), so a scan that asks at
    every tag reads each character once instead of once per tag."""

    def __init__(
        self, pattern: re.Pattern[str], text: str, end: int, skip: Callable[[int], bool] | None = None
    ) -> None:
        self._pattern, self._text, self._end, self._skip = pattern, text, end, skip
        self._match: re.Match[str] | None = None
        self._none_from = end + 1

    def at_or_after(self, pos: int) -> re.Match[str] | None:
        if pos >= self._none_from:
            return None
        if self._match is not None and self._match.start() >= pos:
            return self._match
        self._match = self._search(pos)
        if self._match is None:
            self._none_from = pos
        return self._match

    def _search(self, pos: int) -> re.Match[str] | None:
        """The next match, past any that stands where `skip` says (inside a value's string: data)."""
        m = self._pattern.search(self._text, pos, self._end)
        while m is not None and self._skip is not None and self._skip(m.start()):
            m = self._pattern.search(self._text, m.end(), self._end)
        return m


@dataclass
class Found:
    """The calls found in one region [lo, hi) of `text`, and the stretches the formats read so far have taken (so
    that a later format does not read them again). `covers` bisects the stretches of the formats before the
    current one; `skips` also says no to a mark inside a valid JSON value's string (`spans.strings_in_values`,
    found on the first mark asked about)."""

    text: str
    lo: int
    hi: int
    names: tuple[str, ...] = ()  # the tools a call may name by key alone (`keyed_calls`)
    calls: list[RawCall] = field(default_factory=list)
    others: list[tuple[int, int]] = field(default_factory=list)  # JSON values that hold no call
    _pending: list[tuple[int, int]] = field(default_factory=list)
    _spans: list[tuple[int, int]] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)
    _reach: list[int] = field(default_factory=list)
    _data: list[tuple[int, int]] | None = None
    _data_starts: list[int] = field(default_factory=list)

    def take(self, start: int, end: int) -> None:
        self._pending.append((start, end))

    def commit(self) -> None:
        """The current format is done: its stretches now count for the next ones."""
        if not self._pending:
            return
        self._spans = sorted(self._spans + self._pending)
        self._pending = []
        self._starts = [s for s, _ in self._spans]
        reach, self._reach = 0, []
        for _, end in self._spans:
            reach = max(reach, end)
            self._reach.append(reach)

    def stretches(self) -> list[tuple[int, int]]:
        return self._spans + self._pending

    def covers(self, pos: int) -> bool:
        i = bisect_right(self._starts, pos) - 1
        return i >= 0 and self._reach[i] > pos

    def skips(self, pos: int) -> bool:
        """Whether a format's mark at `pos` is not one: taken already, or written inside a value's string."""
        return self.covers(pos) or self.in_data(pos)

    def in_data(self, pos: int) -> bool:
        if self._data is None:
            self._data = strings_in_values(self.text, self.lo, self.hi)
            self._data_starts = [s for s, _ in self._data]
        i = bisect_right(self._data_starts, pos) - 1
        return i >= 0 and self._data[i][1] > pos


def ends_of_body(closes: Ahead, opens: Ahead, body_start: int, hi: int) -> tuple[int, int]:
    """Where a tagged call's body ends and its stretch ends: at its closing tag or token, or (left open) where the
    next call or message opens, or at the end of the region."""
    close = closes.at_or_after(body_start)
    reopen = opens.at_or_after(body_start)
    if close is not None and (reopen is None or close.start() < reopen.start()):
        return close.start(), close.end()
    end = reopen.start() if reopen is not None else hi
    return end, end


def value_right_after(text: str, at: int, limit: int) -> tuple[int, int] | None:
    """The JSON value that opens at `at` after white space (its span, maybe unclosed), or None."""
    while at < limit and text[at] in " \t\r\n":
        at += 1
    if at >= limit or text[at] not in "{[":
        return None
    return next(json_spans(text, at, limit), None)


def strip_fence(text: str) -> str:
    """The body of a fenced block (``` or ~~~), or the text itself."""
    if not text.startswith(("```", "~~~")):
        return text
    newline = text.find("\n")
    if newline < 0:
        return text.strip("`~").removeprefix("json").strip()
    marker = text[: len(text) - len(text.lstrip(text[0]))]
    close = _FENCE_CLOSE.search(text, newline + 1)
    while close is not None and not close.group(1).startswith(marker):
        close = _FENCE_CLOSE.search(text, close.end())
    return text[newline + 1 : close.start() if close is not None else len(text)].strip()


Reader = Callable[[str, int, int, Found, Parser], None]
"""A text format's reader: it reads text[lo:hi], adding the calls it finds to `found` and taking their stretches."""
