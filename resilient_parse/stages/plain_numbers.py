"""Numbers in a plain answer: digits, signs, scales and separators read whole, or refused where unclear."""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation, localcontext
from typing import Any

from resilient_parse.errors import ErrorDetail, ParseError, UnrecoverableSyntaxError
from resilient_parse.schema import ScalarView
from resilient_parse.stages.coerce.numbers import _FLOAT_EXPONENT_RANGE, UNIT_WORDS
from resilient_parse.stages.plain_prose import _UNSPACED, _Prose
from resilient_parse.stages.plain_reading import _ambiguous, _Mention, _Refused, _Target
from resilient_parse.text.lexicon import expand, lexicon

_COMPARATOR_SIGNS = "<>\u2264\u2265~\u2248\u2272\u2273\u2260!\u00b1\u2213\u223c"
_OPERATOR = frozenset({"/", "*", "\u00d7", "+", "^", "=", "x", "\u00f7", ":", "\u2212"})
_SPACED_OPERATOR = frozenset({" - ", " \u2013 ", " \u2212 "})  # "10 - 2"; "2024-01-02" is a date, not a sum

# numbers: the whole run of digits and the separators between them ("0,5", "1.234,56"), and an exponent ("1e+22":
# its digits are never a number of their own), so no reading stops at one
_DIGIT_RUN = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+|[\u00a0\u202f\u2009]\d{3}(?!\d))*(?:[eE][+-]?\d+)?")
_SPACE_GROUPS = re.compile(r"[1-9]\d{0,2}(?:[\u00a0\u202f\u2009]\d{3})+(?:[.,]\d+)?")
"""Thousands grouped by a no-break or thin space ("1 000", "12 500,5"): one number in any language, whose one
other separator is its decimal mark."""
_GROUPED = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")
_DOT_GROUPED = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")
_DOT_GROUPED_DECIMAL = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+,\d+")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?")
_UNIT_AFTER = re.compile(r"[ \t]?(%|[A-Za-z]+)")
_SIGNS = {
    "-": -1,
    "\u2212": -1,  # minus sign
    "\u2010": -1,  # hyphen
    "\u2011": -1,  # non-breaking hyphen
    "\u2013": -1,  # en dash, right before the digits
    "\uff0d": -1,  # full-width hyphen-minus
    "\ufe63": -1,  # small hyphen-minus
    "+": 1,
    "\uff0b": 1,
    "\ufe62": 1,
}
_UNSURE_SIGNS = "\u2012\u2014\u2015\ufe58\u207b\u208b\u02d7\u2796"
"""Dashes and minus-like marks right before digits that may or may not make them negative: refused."""
_CURRENCY_SIGNS = "$\u20ac\u00a3\u00a5"
_MAX_SCALE_WORDS = 4
_MAX_EXACT_DIGITS = 4_000
"""Longer numbers stay text (Python's int conversion stops at 4,300 digits); coercion then refuses them."""


def _glued(ch: str) -> bool:
    """Whether a character joins a number to a word ("v2", "4km"): a letter, digit or underscore of a spaced
    script (a number may touch Chinese, Japanese or Korean letters: "答案是42个")."""
    return (ch.isalnum() or ch == "_") and _UNSPACED.match(ch) is None


@dataclass(frozen=True)
class _NumberWords:
    """The lexicon's MINUS and SCALES words, as two bounded patterns."""

    scale: re.Pattern[str] | None  # a scale word at a position ("million", "dozen", "万")
    factors: dict[str, int]
    minus: re.Pattern[str] | None  # a minus word right before a position ("minus ", "menos ", "负")

    def scale_at(self, text: str, pos: int, end: int) -> tuple[int, int] | None:
        """Where the scale word at `pos` ends and its factor, if one starts there."""
        m = self.scale.match(text, pos, end) if self.scale is not None else None
        if m is None:
            return None
        factor = self.factors.get(" ".join(m.group().lower().split()))
        return (m.end(), factor) if factor else None

    def minus_before(self, text: str, pos: int, start: int) -> int | None:
        """Where the minus word that ends right before `pos` (spaces between allowed) starts, if there is one."""
        m = self.minus.search(text, max(start, pos - 40), pos) if self.minus is not None else None
        return m.start() if m is not None else None


def _alternatives(words: set[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=lambda w: (-len(w), w)))


@functools.cache
def _number_words() -> _NumberWords:
    factors: dict[str, int] = {}
    spaced_scales: set[str] = set()
    unspaced_scales: set[str] = set()
    spaced_minus: set[str] = set()
    unspaced_minus: set[str] = set()
    for table in lexicon().tables:
        for word, factor in table.scales.items():
            for key in expand(word):
                factors[key] = factor
                (spaced_scales if table.spaced else unspaced_scales).add(key)
        for word in table.minus:
            (spaced_minus if table.spaced else unspaced_minus).add(" ".join(word.lower().split()))
    scale_parts = []
    if spaced_scales:
        scale_parts.append(f"(?:{_alternatives(spaced_scales)})(?![^\\W_])")
    if unspaced_scales:
        scale_parts.append(f"(?:{_alternatives(unspaced_scales)})")
    minus_parts = []
    if spaced_minus:
        minus_parts.append(f"(?<![^\\W_])(?:{_alternatives(spaced_minus)})[ \\t\\u00a0]+")
    if unspaced_minus:
        minus_parts.append(f"(?:{_alternatives(unspaced_minus)})[ \\t\\u00a0]*")
    scale = re.compile("|".join(scale_parts), re.IGNORECASE) if scale_parts else None
    minus = re.compile("(?:" + "|".join(minus_parts) + r")\Z", re.IGNORECASE) if minus_parts else None
    return _NumberWords(scale, factors, minus)


def _numbers(text: str, prose: _Prose, start: int, end: int, target: _Target, path: str) -> list[_Mention]:
    """The numbers in text[start:end], each read whole — sign, digits, scale words, unit — or refused
    (`_Refused`) when its separators or its sign give no one reading. A plain number, or digits in English
    thousands groups, goes to coercion as written (`number_from_string` reads or refuses it for the field);
    what needed the text's language, a sign other than '-', a minus word or a scale is written as its value."""
    words = _number_words()
    py_type = target.view.py_type if isinstance(target.view, ScalarView) else float
    found: list[_Mention] = []
    for m in _DIGIT_RUN.finditer(text, start, end):
        s, e = m.span()
        if s > start and _glued(text[s - 1]):
            continue  # "v2", "A1"
        digits = m.group()
        pos, factor = e, 1
        for _ in range(_MAX_SCALE_WORDS):
            at = pos
            while at < end and at - pos < 3 and text[at] in " \t\u00a0":
                at += 1
            scaled = words.scale_at(text, at, end)
            if scaled is None:
                break
            pos, factor = scaled[0], factor * scaled[1]
        if pos == e and e < end and _glued(text[e]):
            continue  # "4km", "3rd": a word, not a number
        first, sign_char, currency, doubt = s, "", "", False
        if first > start and text[first - 1] in _SIGNS and _free_before(text, first - 1, start):
            first, sign_char = first - 1, text[first - 1]
        if first > start and text[first - 1] in _CURRENCY_SIGNS:
            first, currency = first - 1, text[first - 1]
            if not sign_char and first > start and text[first - 1] in _SIGNS and _free_before(text, first - 1, start):
                first, sign_char = first - 1, text[first - 1]
        if (
            not sign_char
            and first > start
            and text[first - 1] in _UNSURE_SIGNS
            and _free_before(text, first - 1, start)
        ):
            raw = text[first - 1 : pos]
            message = f"{raw!r} starts with a dash that may or may not be a minus; refusing to guess its sign"
            raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, first - 1, pos)))
        minus_word = words.minus_before(text, first, start)
        raw_end = pos
        unit = _UNIT_AFTER.match(text, pos, end)
        if unit is not None and (unit.group(1) == "%" or unit.group(1).lower() in UNIT_WORDS):
            raw_end = unit.end()
        if minus_word is not None and prose.covers(minus_word, first):
            minus_word, doubt = None, True  # "al menos 42", "au moins 42": part of a phrase, not a sign
        if minus_word is not None:
            if sign_char:
                raw = text[minus_word:raw_end]
                message = f"{raw!r} has two signs; refusing to guess which it means"
                raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, minus_word, raw_end)))
            first = minus_word
        raw = text[first:raw_end]
        value, how = _read_digits(digits, prose.decimal_mark)
        if value is None:
            message = f"{raw!r} {how}; refusing to guess"
            raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, first, raw_end)))
        negative = _SIGNS.get(sign_char, 1) < 0 or minus_word is not None
        if negative:
            value = value.copy_negate()
        if factor != 1:
            with localcontext() as exact:
                exact.prec = len(digits) + 40
                value = value * factor
        simple = how != "normalised" and factor == 1 and minus_word is None and sign_char in ("", "-", "+")
        simple = simple and not (sign_char and currency)  # "-$5": coercion reads the sign after the symbol
        _check_float_range(py_type, value, raw, path, first)
        if simple or len(digits) > _MAX_EXACT_DIGITS:
            exact_json = _JSON_NUMBER.fullmatch(raw) is not None and len(digits) <= _MAX_EXACT_DIGITS
            written: Any = (int(raw) if "." not in raw else float(raw)) if exact_json else raw
        else:
            exact_json = False
            if raw_end > pos or currency:  # a unit, a percent sign or a currency: coercion reads it for the field
                written = f"{currency}{format(value, 'f')}{text[pos:raw_end]}"
            else:
                written = _json_number(value, py_type, raw, first, raw_end, path)
        mention = _Mention(value, raw, first, raw_end, exact_json, written, bool(sign_char or minus_word), True, doubt)
        found.append(mention)
    return found


def _check_float_range(py_type: type, value: Decimal, raw: str, path: str, offset: int) -> None:
    """A float target refuses a number a float would read as infinity or zero (`number_out_of_range`)."""
    if py_type is float and _past_a_float(value):
        raise _Refused(_out_of_range(raw, path, offset))


def _past_a_float(value: Decimal) -> bool:
    """Whether a float would read the number as infinity or zero: a value the text never wrote."""
    if not value:
        return False
    if not -_FLOAT_EXPONENT_RANGE < value.adjusted() < 309:  # decided without converting a huge number
        return True
    as_float = float(value)
    return not math.isfinite(as_float) or as_float == 0


def _out_of_range(raw: str, path: str, offset: int) -> ParseError:
    shown = raw if len(raw) <= 40 else f"{raw[:20]}…{raw[-8:]} ({len(raw)} characters)"
    message = f"the number {shown} is out of a float's range: read as a float it would be infinity or zero"
    return UnrecoverableSyntaxError(
        message, [ErrorDetail(path=path, kind="number_out_of_range", message=message, offset=offset)]
    )


def _free_before(text: str, at: int, start: int) -> bool:
    """Whether the sign at `at` stands free, not between two parts of a word or a date ("2024-01", "A-1")."""
    return at == start or not _glued(text[at - 1])


def _read_digits(digits: str, mark: str | None) -> tuple[Decimal | None, str]:
    """The number a run of digits and separators writes, with "." or "," as its decimal mark (None: not known),
    and how it was read: "plain" (as JSON writes it), "grouped" (English thousands groups), "normalised" (needed
    the language); or None and why it cannot be read."""
    try:
        return _digits_value(digits, mark)
    except InvalidOperation:
        return None, "is not a number Python reads"


def _digits_value(digits: str, mark: str | None) -> tuple[Decimal | None, str]:
    if any(space in digits for space in "\u00a0\u202f\u2009"):
        if _SPACE_GROUPS.fullmatch(digits) is None:
            return None, "groups its digits in no way a language writes"
        return Decimal(re.sub("[\u00a0\u202f\u2009]", "", digits).replace(",", ".")), "normalised"
    dots, commas = digits.count("."), digits.count(",")
    if not dots and not commas:
        return Decimal(digits), "plain"
    if mark == ",":
        if commas and dots:
            if _DOT_GROUPED_DECIMAL.fullmatch(digits) is None:
                return None, "mixes separators in no way its language writes"
            return Decimal(digits.replace(".", "").replace(",", ".")), "normalised"
        if commas:
            if commas > 1:
                return None, "could be a list or a grouping"
            if _GROUPED.fullmatch(digits) is not None:
                return None, "could be a decimal comma or a thousands comma as English writes it"
            return Decimal(digits.replace(",", ".")), "normalised"
        if _DOT_GROUPED.fullmatch(digits) is not None:
            return Decimal(digits.replace(".", "")), "normalised"
        if dots > 1:
            return None, "could be a version, a list or a grouping"
        return Decimal(digits), "plain"
    if commas:
        if _GROUPED.fullmatch(digits) is None:
            return None, "could be a decimal comma, a list or a grouping"
        return Decimal(digits.replace(",", "")), "grouped"
    if dots > 1:
        return None, "could be a version, a list or a grouping"
    if mark is None and _DOT_GROUPED.fullmatch(digits) is not None:
        return None, "could be a thousands separator or a decimal point, and the text's language does not say"
    return Decimal(digits), "plain"


def _json_number(value: Decimal, py_type: type, raw: str, start: int, end: int, path: str) -> Any:
    """The JSON value a number read exactly becomes for the target: refused for an int when it is not whole."""
    whole = value == value.to_integral_value()
    if py_type is int and not whole:
        message = f"{raw!r} is {format(value, 'f')}, not a whole number; refusing to round it"
        raise _Refused(_ambiguous(message, path, "ambiguous_number", _Mention(None, raw, start, end)))
    if whole:
        return int(value)
    return format(value, "f") if py_type is Decimal else float(value)


def _arithmetic(text: str, found: list[_Mention], path: str) -> ParseError | None:
    """'1/5', '3 * 4', '10 - 2 = 8', '10 minus 2': an expression is not its value."""
    for left, right in itertools.pairwise(found):
        raw_gap = text[left.end : right.start]
        gap = raw_gap.strip()
        if gap in _OPERATOR or raw_gap in _SPACED_OPERATOR or (not gap and right.signed):
            expression = text[left.start : right.end]
            message = f"{expression!r} is an expression, not a number; refusing to compute it"
            return _ambiguous(message, path, "arithmetic_plain_answer", left, [left.raw, right.raw])
    return None


def _qualifier(text: str, start: int, end: int, m: _Mention) -> str | None:
    """What makes a mention a bound or a shade rather than the value, written as symbols: a comparator around a
    number ("<42", ">= 42", "42+", "~42", "3.14..."), or a word glued to a word mention ("positive-ish",
    "semi-positive"). Bounds in words are the lexicon's (`bound`)."""
    if m.raw[:1].isalpha() or m.raw[-1:].isalpha():
        if m.start - 1 > start and text[m.start - 1] == "-" and text[m.start - 2].isalnum():
            return text[max(start, m.start - 12) : m.end]
        if m.end + 1 < end and text[m.end] == "-" and text[m.end + 1].isalnum():
            return text[m.start : min(end, m.end + 12)]
        return None
    before = m.start
    while before > start and text[before - 1] in " \t":
        before -= 1
    if before > start and text[before - 1] == "=":
        before -= 1
    if before > start and text[before - 1] in _COMPARATOR_SIGNS:
        return text[before - 1 : m.end]
    if m.end < end and text[m.end] in "+\uff0b":
        return text[m.start : m.end + 1]
    if text.startswith("...", m.end, end) or text.startswith("\u2026", m.end, end):
        return text[m.start : min(end, m.end + 3)]
    return None
