"""Labels an outside attack found read past, in every language the lexicon covers: a value under a heading that
calls it an example, a draft or a wrong answer ("Error:", "Muster:", "仅供参考：") is never returned as the answer,
in either mode, in a fence or in the prose; the rows of the tables that catch them are data (`text/lexicon/`)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, parse

MODES = ("strict", "lenient")


class Item(BaseModel):
    name: str
    qty: int


VALUE = '{"name": "bolt", "qty": 3}'
LABELS = [
    ("en", "Made-up data:"),
    ("en", "Error:"),
    ("en", "Mistake:"),
    ("en", "Broken:"),
    ("en", "Erroneous:"),
    ("en", "Eg:"),
    ("en", "Sketch:"),
    ("en", "WIP:"),
    ("en", "Earlier attempt:"),
    ("en", "Attempt 1:"),
    ("de", "Muster:"),
    ("de", "Musterantwort:"),
    ("de", "Fehler:"),
    ("de", "Schlecht:"),
    ("de", "Probe:"),
    ("fr", "Mauvais :"),
    ("fr", "Erreur :"),
    ("fr", "Maquette :"),
    ("es", "Muestra:"),
    ("es", "Mal:"),
    ("es", "Error:"),
    ("es", "Maqueta:"),
    ("pt", "Modelo:"),
    ("pt", "Erro:"),
    ("it", "Modello:"),
    ("it", "Errore:"),
    ("ru", "Ошибка:"),
    ("ru", "Плохо:"),
    ("ru", "Пробный вариант:"),
    ("ja", "イメージ："),
    ("ja", "試しに："),
    ("ko", "참고용:"),
    ("ko", "시험용:"),
    ("zh-Hans", "仅供参考："),
    ("zh-Hans", "假如："),
    ("zh-Hans", "试写："),
    ("zh-Hant", "僅供參考："),
    ("zh-Hant", "試寫："),
]


@pytest.mark.parametrize("fenced", [False, True], ids=["prose", "fence"])
@pytest.mark.parametrize(("language", "label"), LABELS, ids=[f"{lang}-{label}" for lang, label in LABELS])
@pytest.mark.parametrize("mode", MODES)
def test_a_value_under_a_label_that_excludes_it_is_not_the_answer(
    mode: str, language: str, label: str, fenced: bool
) -> None:
    text = f"{label}\n```json\n{VALUE}\n```" if fenced else f"{label} {VALUE}"
    with pytest.raises(ParseError):
        got = parse(text, Item, mode=mode)
        pytest.fail(f"{language}: {text!r} gave {got!r}")


@pytest.mark.parametrize("mode", MODES)
def test_the_same_words_elsewhere_do_not_refuse_an_answer(mode: str) -> None:
    # the rows read a heading, not a word: prose that uses them in passing still hands the answer over
    for text in (
        f"There is no error in the data. Here is the JSON: {VALUE}",
        f"Hier ist das Muster, das du wolltest, als JSON ausgefüllt: {VALUE}",
    ):
        assert parse(text, Item, mode=mode) == Item(name="bolt", qty=3), text
