"""The lexicon's three ways of asking about a stretch of prose agree: `find` (every cue, where it stands),
`categories` (which categories, without positions) and `holds_only` (whether every cue is of some categories,
settled mostly by a screen of words, pairs and characters). Texts are built from the tables' own phrases in every
language, glued by the marks and spaces models write, so overlapping and adjacent phrases, names such as
"example.com", curly apostrophes and dotted capitals all come up."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from resilient_parse.text.lexicon import CATEGORIES, lexicon

_PHRASES = sorted({p for category in CATEGORIES for p in lexicon().phrases(category)})
_GLUE = (" ", "", "\n", ".", ". ", ", ", ":", "，", "。", "！", "\u2019", "'", ".com", "İ", "JSON", "x", "(", ")")
_ALLOWED = (
    frozenset({"lead_in", "closing"}),
    frozenset({"lead_in", "closing", "description", "bound", "operation", "yes", "reference"}),
    frozenset({"example", "negation"}),
)


@st.composite
def prose(draw: Any) -> str:
    parts = draw(st.lists(st.sampled_from(_PHRASES) | st.sampled_from(_GLUE), min_size=1, max_size=8))
    text = "".join(parts)
    return text.upper() if draw(st.booleans()) and draw(st.booleans()) else text


@settings(max_examples=600)
@given(text=prose(), allowed=st.sampled_from(_ALLOWED))
@example(text="N'hésitez pas si vous avez besoin d'autre chose.", allowed=_ALLOWED[0])
@example(text="see example.com for the format", allowed=_ALLOWED[0])
@example(text="以下是您要的JSON：\n|\n如果还有其他需要，请告诉我。", allowed=_ALLOWED[1])
def test_categories_and_holds_only_agree_with_find(text: str, allowed: frozenset[str]) -> None:
    words = lexicon()
    found = {cue.category for cue in words.find(text)}
    assert words.categories(text) == found
    assert words.holds_only(allowed, text) == (found <= allowed)


def test_the_screen_settles_common_hand_overs_without_the_full_match(monkeypatch: Any) -> None:
    """The screen is what makes `holds_only` cheap: hand-overs and closings as models write them pass it, so the
    full match (`categories`) is never asked."""
    words = lexicon()

    def full_match(*args: Any) -> set[str]:
        raise AssertionError(f"the screen did not settle {args[0]!r}")

    monkeypatch.setattr(words, "categories", full_match)
    for text in (
        "Here is the JSON you asked for:",
        "Let me know if you need anything else.",
        "Sure! Here is the list:",
        "Aquí tienes el JSON:",
        "Voici le JSON demandé :",
        "以下是您要的JSON：",
        "如果还有其他需要，请告诉我。",
        "Hier ist das JSON:",
    ):
        assert words.holds_only(_ALLOWED[1], text)
