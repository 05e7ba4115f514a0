"""The reader: one pass over a candidate's text that writes strict JSON text and records every repair it makes.

Linear by construction: an explicit stack (no recursion), each character is looked at by one token match or one
C-speed search that moves forward, and a complete, already valid nested value is read by the json module's C
scanner in one call (after it fails once at an offset, it is not tried again before that offset, so nothing is
scanned twice). Python works per token, never per character.

Every `Repair` carries its JSON Pointer (tracked on the stack during the pass) and its offset in the candidate
text the reader was given — the one reference point for offsets everywhere in the reader.

Lossless repairs are always made. A lossy repair (a guess about quotes, a bare word read as a string, …) is made
only when its kind is in `lossy`, the set the policy allows; otherwise the reader stops with a `ReadFailure`
naming the place. Where two readings are plausible the failure says so (kind "ambiguous"). When the text ends
with containers still open, the reader does not decide how to close them: it returns the state as a `Cut` for
the schema-aware rules of `read_truncation`."""

from __future__ import annotations

from collections.abc import Callable

from resilient_parse.json.containers import (
    after_the_end,
    closing_bracket,
    colon,
    comma,
    comment,
    copy_runs,
    open_bracket,
    python_tuple,
)
from resilient_parse.json.frames import Cut, Reading, path_of
from resilient_parse.json.runs import ITEM_RUN, LOOSE_ITEM_RUN, LOOSE_MEMBER_RUN, MEMBER_RUN
from resilient_parse.json.state import Reader, add, expecting_key, fail
from resilient_parse.json.strings import (
    backtick_quoted,
    curly_double_quoted,
    curly_single_quoted,
    double_quoted,
    single_quoted,
)
from resilient_parse.json.tokens import (
    COLON,
    DIGIT_START,
    DONE,
    FULLWIDTH,
    INVISIBLE,
    KEY,
    KEY_ESCAPE,
    KEY_OR_END,
    RUN_STARTS,
    VALUE,
    VALUE_OR_END,
    WORD_START,
    WS,
)
from resilient_parse.json.words import elided, number, word

TokenReader = Callable[[Reader, int, str], int]
"""A grammar function for a token: it takes the reader, where the token starts and its first character, and
returns where reading goes on."""


def read(text: str, *, lossy: frozenset[str] = frozenset(), max_depth: int = 400) -> Reading:
    """Read `text` into strict JSON text in one pass. Raises `ReadFailure` where it cannot read within the
    lossless repairs and the lossy kinds in `lossy`. A text that ends with containers open gives a `Reading`
    with a `Cut` for `read_truncation` to judge."""
    r = Reader(text, lossy, max_depth)
    n, stack = r.n, r.stack
    by_first_character = _BY_FIRST_CHARACTER
    pos = 0
    while pos < n:
        c = text[pos]
        if c in " \t\r\n":
            pos = WS.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                break
            c = text[pos]
        if c in RUN_STARTS:
            # a stretch of members or items, copied whole when valid or rewritten in one match when loose
            state = r.state
            runs = (
                (MEMBER_RUN, LOOSE_MEMBER_RUN)
                if state in (KEY, KEY_OR_END)
                else (ITEM_RUN, LOOSE_ITEM_RUN)
                if state == VALUE_OR_END or (state == VALUE and stack and not stack[-1].is_object)
                else None
            )
            if runs is not None:
                end = copy_runs(r, pos, *runs)
                if end is not None:
                    pos = end
                    continue
            c = text[pos]
            if c in " \t\r\n":
                continue
        if r.state == DONE and c != '"':
            pos = after_the_end(r, pos, c)
        else:
            pos = by_first_character.get(c, _other)(r, pos, c)
    return _end_of_text(r)


def _fullwidth(r: Reader, at: int, c: str) -> int:
    """A fullwidth bracket, colon or comma (｛ ［ ： ，, the ideographic comma 、): read as its ASCII twin."""
    add(r, "fullwidth_punctuation", c, FULLWIDTH[c], at)
    return _BY_FIRST_CHARACTER[FULLWIDTH[c]](r, at, FULLWIDTH[c])


def _other(r: Reader, at: int, c: str) -> int:
    """A token no table row names: a key in another script or with `\\u` escapes, an ellipsis, an invisible
    character, a backslash before a quote (two readings), or text that is no JSON at all."""
    if expecting_key(r) and (c.isalpha() or KEY_ESCAPE.match(r.text, at) is not None):
        return word(r, at, c)
    if c == "\u2026":
        raise elided(r, at, c)
    if c in INVISIBLE:
        add(r, "invisible_character", c, "", at)
        return at + 1
    if c == "\\" and r.text.startswith('\\"', at):
        # `\"hello"`: JSON copied out of a JSON string, but not every quote or escape reads as one level of
        # escaping (those that do are unescaped before the reader sees them)
        raise fail(
            r,
            "a backslash-escaped quote outside any string: escaped JSON whose escapes do not all read as one "
            "level (unescape it, or drop the backslash?) — two readings",
            at,
            "ambiguous",
        )
    raise fail(r, f"unexpected character {c!r}", at)


# the grammar function for each first character of a token; a character no row names goes to `_other`
_BY_FIRST_CHARACTER: dict[str, TokenReader] = {
    **dict.fromkeys(DIGIT_START, number),
    **dict.fromkeys(WORD_START, word),
    **dict.fromkeys(FULLWIDTH, _fullwidth),
    '"': double_quoted,
    "{": open_bracket,
    "[": open_bracket,
    "}": closing_bracket,
    "]": closing_bracket,
    ")": closing_bracket,
    ",": comma,
    ":": colon,
    "(": python_tuple,
    "/": comment,
    "#": comment,
    "'": single_quoted,
    "\u2018": curly_single_quoted,
    "\u201c": curly_double_quoted,
    "\uff02": curly_double_quoted,
    "`": backtick_quoted,
}


def _end_of_text(r: Reader) -> Reading:
    """The reading once the text has ended: whole, or cut with containers open (a `Cut` saying where)."""
    out, repairs, stack, n = r.out, r.repairs, r.stack, r.n
    if r.cut is not None:
        return Reading(out, repairs, stack, r.cut)
    if r.state == DONE:
        return Reading(out, repairs, stack)
    if not stack:
        raise fail(r, "no JSON value found", n, "empty")
    top = stack[-1]
    if r.state in (COLON, VALUE) and top.is_object:
        return Reading(out, repairs, stack, Cut("value", path_of(stack), n, "the output ends before this key's value"))
    if r.state in (KEY, VALUE):
        return Reading(
            out,
            repairs,
            stack,
            Cut("member", top.prefix, n, "the output ends after a ',': the next member was cut off"),
        )
    lists = [f for f in stack if not f.is_object]
    where = lists[-1].prefix if lists else top.prefix
    kind = "open" if r.state in (KEY_OR_END, VALUE_OR_END) else "complete"
    return Reading(out, repairs, stack, Cut(kind, where, n, "the output ends before its closing bracket"))
