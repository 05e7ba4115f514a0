"""Finding the answer's start incrementally: the extraction stage's rules kept as state between chunks."""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right

from resilient_parse.stages.extract_reasoning import REASONING_TAGS, is_quoted_tag, opens_reasoning_block

_TAG_NAMES = "|".join(REASONING_TAGS)
# the extraction stage's tag syntax (stages/extract_reasoning.py), matched here one tag at a time as the text arrives
_REASONING_OPEN = re.compile(r"<(?:" + _TAG_NAMES + r")\b[^>\n]{0,200}>", re.IGNORECASE)
_REASONING_CLOSE = re.compile(r"</(?:" + _TAG_NAMES + r")\s*>", re.IGNORECASE)
# a tag still being written at the end of the text: only more text can say whether it is one
_OPEN_UNFINISHED = re.compile(r"<(?:" + _TAG_NAMES + r")\b[^>\n]{0,200}\Z", re.IGNORECASE)
_CLOSE_UNFINISHED = re.compile(r"</(?:" + _TAG_NAMES + r")\s*\Z", re.IGNORECASE)
_NAME_UNFINISHED = re.compile(r"<(/?)([A-Za-z]*)\Z")
_NAME_PREFIXES = frozenset(tag[:i] for tag in REASONING_TAGS for i in range(len(tag) + 1))
_OPEN_TAG_MAX = 2 + max(map(len, REASONING_TAGS)) + 200
_ANSWER_EVENT = re.compile(r"[<\n]")  # in the answer only a tag or a line break (a fence line) changes the state
_CLOSE_START = re.compile(r"</|<\Z")  # in reasoning only a closing tag does
_NON_SPACE = re.compile(r"[^ \t\r\n]")
_NOT_BLANK = re.compile(r"\S")
_SPACE_OR_TAB = " \t"
_PROSE, _FENCE, _REASONING = 0, 1, 2
_HELD_OTHER, _HELD_SPACES, _HELD_ATTRS = 0, 1, 2  # a tag being held: its name, or the whitespace / attributes after it
_WAIT = "wait"


def _starts_json(opener: str, follower: str) -> bool:
    """Whether a bracket followed by `follower` (the next character that is not whitespace) starts JSON: `{` must
    be followed by a key or `}`, `[` by a value or `]` — so "{name}" or "[1]" in prose are not taken for the answer."""
    if opener == "{":
        return follower in '"}'
    return follower in '{["]-0123456789tfn'


def _tag_match(buf: str, at: int, reasoning: bool) -> tuple[bool, int] | str | None:
    """The reasoning tag written at `buf[at]` (a `<`): (opens, end), None when there is none, `_WAIT` when the text
    ends inside what may still become one. Inside reasoning only a closing tag counts."""
    m = _REASONING_CLOSE.match(buf, at)
    if m is not None:
        return False, m.end()
    if not reasoning:
        m = _REASONING_OPEN.match(buf, at)
        if m is not None:
            return True, m.end()
    name = _NAME_UNFINISHED.match(buf, at)  # "<", "</", "<thi": a tag name still being written
    if name is not None and name.group(2).lower() in _NAME_PREFIXES:
        closing, written = bool(name.group(1)), bool(name.group(2))
        if closing or not reasoning or not written:  # inside reasoning, "<thi" can only be text; "<" may be "</"
            return _WAIT
    if _CLOSE_UNFINISHED.match(buf, at) or (not reasoning and _OPEN_UNFINISHED.match(buf, at)):
        return _WAIT
    return None


class _Locator:
    """Where the JSON answer starts — the first plausible opener outside reasoning, inside a fence if the answer
    region has one — found as the text arrives, each character looked at a bounded number of times.

    It follows the extraction stage's reading of a text (`<think>`…`</think>` blocks, also one whose opening tag
    was lost; markdown fences, per answer region) with the state kept between chunks instead of re-read: whether
    the text is inside reasoning, the open fence and the fence line being written, a tag still being written, the
    opener whose next character has not arrived. A structure pass records where answer prose, fence bodies and
    reasoning begin (`bounds`); a search pass records the plausible openers in the answer (`hits`) — while the
    stream follows a start it is idle, and on a restart it catches up once over what it skipped.

    It also keeps the text from where a start may still be needed (`text_from`), joined only when read, so no chunk
    copies the text received so far. `examined` and `copied` count characters for the tests of that promise."""

    def __init__(self, openers: str) -> None:
        self.openers = re.compile("[" + re.escape(openers) + "]")
        self.parts: list[str] = []  # the text from `parts_at` on
        self.parts_at = 0
        self.held: list[str] = []  # the text from `held_at` on, not read yet: a tag still being written
        self.held_at = 0
        self.held_len = 0
        self.held_kind = _HELD_OTHER
        self.reasoning = False
        self.seen_tag = False  # a closing tag before any other tag ends a block whose opening tag was lost
        self.last_char = ""  # the last character before the text being scanned ("" at the start)
        self.last_solid = ""  # the last one that is not a space or tab
        self.no_open_before = 0  # an opening tag read as text covers this far: no other one starts inside it
        self.closed_at = -1  # where the last closing tag that counts ends
        self.region = 0
        self.fence: tuple[str, int] | None = None  # the open fence: marker character and length
        self._new_line()
        self.bounds: list[tuple[int, int, int]] = [(0, 0, _PROSE)]  # (from, region, kind), in order
        self.following: int | None = None  # the start the stream follows: no search, the text kept from there
        self.cursor = 0  # openers are recorded up to here
        self.hits: list[int] = []
        self.hit_regions: list[int] = []
        self.fence_hits: list[int] = []
        self.fence_regions: list[int] = []
        self.pending: tuple[int, str, int, bool] | None = None  # an opener waiting for its next character
        self.examined = 0
        self.copied = 0

    # -- the structure pass -------------------------------------------------------------------------------------

    def _new_line(self) -> None:
        self.line_phase = 0  # 0 indent, 1 fence marker, 2 info string, 3 not a fence line
        self.line_indent = 0
        self.line_char = ""
        self.line_marker = 0
        self.line_backtick = False
        self.line_blank = True

    def _line_text(self, buf: str, i: int, j: int) -> None:
        """Read `buf[i:j]` (no line break inside) as part of the current line: is it a fence line, and which."""
        while i < j and self.line_phase < 2:
            if self.line_phase == 0:
                ch = buf[i]
                if ch in _SPACE_OR_TAB and self.line_indent < 3:
                    self.line_indent += 1
                    i += 1
                    continue
                if ch not in "`~":
                    self.line_phase = 3
                    return
                self.line_phase, self.line_char = 1, ch
            k = i
            while k < j and buf[k] == self.line_char:
                k += 1
            self.line_marker += k - i
            i = k
            if i < j:
                self.line_phase = 2 if self.line_marker >= 3 else 3
        if self.line_phase == 2 and i < j:
            self.line_backtick = self.line_backtick or buf.find("`", i, j) >= 0
            self.line_blank = self.line_blank and _NOT_BLANK.search(buf, i, j) is None

    def _line_end(self, at: int) -> None:
        """A line break at `at`: a fence line opens a fence (its body starts on the next line) or closes one."""
        if self.line_phase in (1, 2) and self.line_marker >= 3:
            if self.fence is None:
                if not (self.line_char == "`" and self.line_backtick):
                    self.fence = (self.line_char, self.line_marker)
                    self._bound(at + 1, _FENCE)
            elif self.line_char == self.fence[0] and self.line_marker >= self.fence[1] and self.line_blank:
                self.fence = None  # the closing line holds no opener, so the body may as well end at its end
                self._bound(at, _PROSE)
        self._new_line()

    def _bound(self, at: int, kind: int) -> None:
        if self.bounds[-1][0] == at:
            self.bounds.pop()
        self.bounds.append((at, self.region, kind))

    def _new_region(self, at: int, kind: int) -> None:
        self.region += 1
        self.fence = None
        self._new_line()
        self._bound(at, kind)

    def _scan(self, buf: str, at: int) -> None:
        """The structure pass over `buf` (the text from `at`): tags, fence lines. Stops at a tag being written."""
        i, n = 0, len(buf)
        while i < n:
            if self.reasoning:
                m = _CLOSE_START.search(buf, i)
                if m is None:
                    break
                tag = self._tag_at(buf, at, m.start(), reasoning=True)
                if tag is _WAIT:
                    self._hold(buf, at, m.start())
                    return
                if tag is None:
                    i = m.start() + 1
                    continue
                assert isinstance(tag, tuple)
                self.reasoning = False
                self.closed_at = at + tag[1]
                self._new_region(at + tag[1], _PROSE)
                i = tag[1]
                continue
            m = _ANSWER_EVENT.search(buf, i)
            j = n if m is None else m.start()
            self._line_text(buf, i, j)
            if m is None:
                break
            if buf[j] == "\n":
                self._line_end(at + j)
                i = j + 1
                continue
            tag = self._tag_at(buf, at, j, reasoning=False)
            if tag is _WAIT:
                self._hold(buf, at, j)
                return
            if isinstance(tag, tuple) and not tag[0]:
                self.closed_at = at + tag[1]
            if tag is None or (isinstance(tag, tuple) and not tag[0] and self.seen_tag):
                self._line_text(buf, j, j + 1)  # a `<` that is text, or a closing tag with no block to close
                i = j + 1
                continue
            assert isinstance(tag, tuple)
            opens, end = tag
            self.seen_tag = True
            if opens:
                self.reasoning = True
                self._new_region(at + j, _REASONING)
            else:  # a closing tag before any other: everything so far was reasoning whose opening tag was lost
                self.bounds = [(0, self.region, _REASONING)]
                self._forget_openers()
                self._new_region(at + end, _PROSE)
            i = end
        self._remember_tail(buf, n)
        self.held, self.held_at, self.held_len = [], at + n, 0

    def _tag_at(self, buf: str, at: int, j: int, reasoning: bool) -> tuple[bool, int] | str | None:
        """`_tag_match`, then the extraction stage's rules on which tags count: a quoted tag is text, and an
        opening tag must start a block (`stages.extract.opens_reasoning_block`). They look at the character after
        the tag, so a tag the text ends with waits for it, and back along the line, which `_context` hands them
        whole."""
        tag = _tag_match(buf, j, reasoning)
        if not isinstance(tag, tuple):
            return tag
        opens, end = tag
        if end >= len(buf):
            return _WAIT
        if opens and at + j < self.no_open_before:
            return None  # inside an opening tag read as text (the batch path's finditer never starts one there)
        window, shift = self._context(buf, j, end)
        if opens and not opens_reasoning_block(window, j - shift, end - shift):
            self.no_open_before = at + end
            return None
        if not opens and is_quoted_tag(window, j - shift, end - shift):
            return None
        return tag

    def _context(self, buf: str, j: int, end: int) -> tuple[str, int]:
        """The tag at `buf[j:end]` with what the rules look at around it: the next character, the one before and
        the last one before it that is not a space or tab — from earlier chunks when `buf` starts too late. The
        window and the offset of `buf` in it."""
        k = j - 1
        while k >= 0 and buf[k] in _SPACE_OR_TAB:
            k -= 1
        if k >= 0:
            return buf[k : end + 1], k
        before = self.last_solid + (self.last_char if self.last_char in _SPACE_OR_TAB else "")
        if j > 0:  # only spaces and tabs between the chunk's start and the tag
            before = self.last_solid + buf[j - 1]
        return before + buf[j : end + 1], j - len(before)

    def _remember_tail(self, buf: str, stop: int) -> None:
        """Keep what `_context` needs of the text before `buf[stop:]`: its last character and last solid one."""
        if stop <= 0:
            return
        self.last_char = buf[stop - 1]
        k = stop - 1
        while k >= 0 and buf[k] in _SPACE_OR_TAB:
            k -= 1
        if k >= 0:
            self.last_solid = buf[k]

    def _hold(self, buf: str, at: int, i: int) -> None:
        self._remember_tail(buf, i)
        rest = buf[i:]
        self.held, self.held_at, self.held_len = [rest], at + i, len(rest)
        self.held_kind = _HELD_OTHER
        if not _NAME_UNFINISHED.match(rest):  # the name is complete
            if _CLOSE_UNFINISHED.match(rest):
                self.held_kind = _HELD_SPACES
            elif not self.reasoning and _OPEN_UNFINISHED.match(rest):
                self.held_kind = _HELD_ATTRS

    def _still_held(self, piece: str) -> bool:
        """Whether `piece` cannot decide the tag being held (so it need not be read again): more whitespace after
        `</think`, or more of an opening tag's attributes that neither end it nor pass its length."""
        if self.held_kind == _HELD_SPACES:
            return piece.isspace()
        return (
            self.held_kind == _HELD_ATTRS
            and self.held_len + len(piece) < _OPEN_TAG_MAX
            and ">" not in piece
            and "\n" not in piece
        )

    # -- the search pass ----------------------------------------------------------------------------------------

    def _forget_openers(self) -> None:
        self.hits, self.hit_regions, self.fence_hits, self.fence_regions = [], [], [], []
        self.pending = None

    def _record(self, at: int, region: int, in_fence: bool) -> None:
        self.hits.append(at)
        self.hit_regions.append(region)
        if in_fence:
            self.fence_hits.append(at)
            self.fence_regions.append(region)

    def _search(self, text: str, text_at: int, hi: int) -> bool:
        """Record the plausible openers in the answer between the cursor and `hi`; `text` holds the text from
        `text_at` to the end (an opener's next character may lie past `hi`). True when any turned up."""
        lo = self.cursor
        self.examined += hi - lo
        recorded = len(self.hits)
        if self.pending is not None:
            follower = _NON_SPACE.search(text, lo - text_at)
            if follower is not None:
                at, opener, region, in_fence = self.pending
                self.pending = None
                if _starts_json(opener, follower.group()):
                    self._record(at, region, in_fence)
        bounds = self.bounds
        k = max(0, bisect_right(bounds, (lo, sys.maxsize, 0)) - 1)
        while k < len(bounds) and bounds[k][0] < hi:
            start, region, kind = bounds[k]
            end = bounds[k + 1][0] if k + 1 < len(bounds) else hi
            k += 1
            if kind == _REASONING or end <= lo:
                continue
            for m in self.openers.finditer(text, max(start, lo) - text_at, min(end, hi) - text_at):
                follower = _NON_SPACE.search(text, m.end())
                if follower is None:
                    self.pending = (text_at + m.start(), m.group(), region, kind == _FENCE)
                elif _starts_json(m.group(), follower.group()):
                    self._record(text_at + m.start(), region, kind == _FENCE)
        self.cursor = hi
        keep = max(0, bisect_right(bounds, (hi, sys.maxsize, 0)) - 1)
        if keep:
            del bounds[:keep]
        return len(self.hits) > recorded or self.pending is not None

    # -- what the stream asks -----------------------------------------------------------------------------------

    def feed(self, piece: str) -> bool:
        """Read one more chunk. True when it brought an opener that may start the answer (or left one undecided)."""
        self.parts.append(piece)
        self._trim()
        if self.following is None and self.cursor < self.held_at:
            self._catch_up()
        if (
            not self.held
            and (self.pending is None or self.following is not None)  # an opener waiting matters to the search only
            and "<" not in piece
            and (self.reasoning or (self.line_phase == 3 and "\n" not in piece))
        ):
            # reasoning without a tag, or more of a line that is not a fence line: nothing here changes the state
            self._remember_tail(piece, len(piece))
            at, self.held_at = self.held_at, self.held_at + len(piece)
            self.examined += len(piece)
            if self.following is not None:
                return False
            if self.reasoning or self.openers.search(piece) is None:
                self.cursor = self.held_at
                return False
            return self._search(piece, at, self.held_at)
        if self.held and self._still_held(piece):
            self.held.append(piece)
            self.held_len += len(piece)
            return False
        at = self.held_at
        buf = "".join([*self.held, piece]) if self.held else piece
        self.examined += len(buf)
        self._scan(buf, at)
        if self.following is not None:
            return False
        return self._search(buf, at, self.held_at)

    def _trim(self) -> None:
        """Let go of the text no start can lie in any more: before the tag being held, the opener waiting for its
        next character and the start being followed. Whole chunks only, so nothing is copied."""
        if len(self.parts) < 2:
            return
        keep = self.cursor if self.pending is None else min(self.cursor, self.pending[0])
        if self.following is not None:
            keep = min(keep, self.following)
        drop = 0
        at = self.parts_at
        while drop < len(self.parts) - 1 and at + len(self.parts[drop]) <= keep:
            at += len(self.parts[drop])
            drop += 1
        if drop:
            del self.parts[:drop]
            self.parts_at = at

    def _catch_up(self) -> None:
        """The stream followed a start that turned out not to be the answer: record the openers it skipped."""
        self._search(self._joined(), self.parts_at, self.held_at)

    def follow(self, start: int) -> None:
        """The stream reads from `start` now: stop searching, keep the text from there."""
        self.following = start

    def unfollow(self) -> None:
        self.following = None

    def locate(self, search_from: int) -> tuple[int | None, bool]:
        """The first plausible opener at or after `search_from` — in the first answer region that has one, inside
        one of its fences if any — and whether an opener that needs more text to judge stands in the way."""
        if self.cursor < self.held_at:
            self._catch_up()
        i = bisect_left(self.hits, search_from)
        hit_region = self.hit_regions[i] if i < len(self.hits) else None
        pending = self.pending if self.pending is not None and self.pending[0] >= search_from else None
        if hit_region is None and pending is None:
            self._forget_openers()  # all behind the search now
            return None, False
        region = hit_region if hit_region is not None else pending[2]  # type: ignore[index]
        j = bisect_left(self.fence_hits, search_from)
        if j < len(self.fence_hits) and self.fence_regions[j] == region:
            return self.fence_hits[j], False
        if pending is not None and pending[2] == region and pending[3]:
            return None, True
        if hit_region == region:
            return self.hits[i], False
        return None, True

    def _joined(self) -> str:
        if len(self.parts) != 1:
            self.parts = ["".join(self.parts)]
            self.copied += len(self.parts[0])
        return self.parts[0]

    def text_from(self, start: int, size: int | None = None) -> str:
        """The text from `start` (at most `size` characters of it)."""
        text = self._joined()
        begin = start - self.parts_at
        out = text[begin:] if size is None else text[begin : begin + size]
        self.copied += len(out)
        return out
