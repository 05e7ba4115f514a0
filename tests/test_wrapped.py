"""The short way for one value wrapped in harmless prose (`stages/wrapped.py`) gives what the full extraction gives.

(a) A property: an object or array in a fence or in the prose, with prose around it drawn from every category of
    every table (hand-overs and closings, but also examples, refusals, questions, negations…), joined by the marks
    models write; whenever the short way answers, the repair path gives the same value, repairs, candidate and
    source, in both modes, and `parse` the same value. Where the repair path raises, the short way must not answer.
(b) Rows in each language the lexicon covers: a fenced or prose-wrapped answer with a hand-over and a closing
    takes the short way (an observer sees the path "fast") and comes back; prose that labels the value, refuses,
    or holds markup does not take it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from resilient_parse import ParseError, Parser, hookimpl
from resilient_parse.text.lexicon import CATEGORIES, lexicon

MODES = ("strict", "lenient")


class Item(BaseModel):
    name: str
    qty: int


class Recorder:
    """An observer: the path each successful parse took."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    @hookimpl
    def rp_on_event(self, event: Any, ctx: Any) -> None:
        if event.name == "parse_succeeded":
            self.paths.append(event.data["path"])


def _outcome(parser: Parser, text: str, target: Any, *, short: bool) -> Any:
    """What one path gives: (value, repairs, candidate, json_text, source), or the error's class; None when the
    short way declines."""
    plan = parser.plan(target)
    try:
        if short:
            got = parser._wrapped_path(text, plan, plan.validators)
            if got is None:
                return None
        else:  # (the short way is taken before the calls, as the fast path is: a lone value's strings are data)
            got = parser._slow_path(text, plan, plan.validators, {}, {})
    except ParseError as exc:
        return type(exc).__name__
    result, source, _ = got
    return (result.value, result.repairs, result.candidate, result.json_text, source)


_PHRASES = sorted({p for category in CATEGORIES for p in lexicon().phrases(category) if len(p) <= 40})
_JOINS = (" ", "\n", ": ", ". ", "! ", "? ", ", ", "\n\n", "：", "。", "，", "! 😀 ", " (", ") ", " - ", " * ", '"')
_VALUES = ('{"name": "bolt", "qty": 3}', '[{"name": "nut", "qty": 1}, {"name": "bolt", "qty": 2}]')


@st.composite
def wrapped_text(draw: Any) -> tuple[str, Any]:
    def prose() -> str:
        parts = draw(st.lists(st.sampled_from(_PHRASES) | st.sampled_from(_JOINS), max_size=6))
        return "".join(parts)

    index = draw(st.integers(0, 1))
    value = _VALUES[index]
    before, after = prose(), prose()
    if draw(st.booleans()):
        info = draw(st.sampled_from(("json", "", "JSON", "json example", "text")))
        text = f"{before}\n```{info}\n{value}\n```\n{after}"
    else:
        text = f"{before} {value} {after}"
    return text, Item if index == 0 else list[Item]


PARSERS = {mode: Parser(mode, entrypoints=False) for mode in MODES}


@settings(max_examples=400)
@given(case=wrapped_text())
# found by an outside attack: white space JSON does not count (it is no prose), blank lines inside a fence
@example(case=('\u3000{"name": "bolt", "qty": 3}', Item))
@example(case=('Here\n```json\n\n{"name": "bolt", "qty": 3}\n\n```', Item))
# the short way is taken before the calls, as a bare document is: call keys or markup in a value's strings are data
@example(case=('Here it is: {"name": "get_weather", "qty": 3} Done.', Item))
@example(case=('Here:\n```json\n[{"name": "<tool_call>{\\"name\\": \\"x\\"}", "qty": 1}]\n```', list[Item]))
@example(case=('Sure: {"name": "\\"arguments\\": {}", "qty": 2}', Item))
def test_the_short_way_gives_what_the_full_path_gives(case: tuple[str, Any]) -> None:
    text, target = case
    for parser in PARSERS.values():
        short = _outcome(parser, text, target, short=True)
        if short is not None:
            assert short == _outcome(parser, text, target, short=False)
            if not isinstance(short, str):  # `parse` takes the value straight from the short way
                assert parser.parse(text, target) == short[0]


@pytest.mark.slow
@settings(max_examples=2_000, deadline=None)
@given(case=wrapped_text())
def test_the_short_way_gives_what_the_full_path_gives_over_many_examples(case: tuple[str, Any]) -> None:
    test_the_short_way_gives_what_the_full_path_gives.hypothesis.inner_test(case)  # type: ignore[attr-defined]


# (language, hand-over, closing): as models write them
HARMLESS = [
    ("en", "Here is the JSON you asked for:", "Let me know if you need anything else."),
    ("zh-Hans", "以下是您要的JSON：", "如果还有其他需要，请告诉我。"),
    ("zh-Hant", "以下是您要的JSON：", "如有其他需要，請告訴我。"),
    ("ja", "以下がJSONです。", "他に必要なことがあればお知らせください。"),
    ("ko", "요청하신 JSON입니다.", "더 필요한 것이 있으면 알려주세요."),
    ("es", "Aquí tienes el JSON:", "¡Avísame si necesitas algo más!"),
    ("pt", "Aqui está o JSON:", "Me avise se precisar de mais alguma coisa."),
    ("fr", "Voici le JSON demandé :", "N'hésitez pas si vous avez besoin d'autre chose."),
    ("de", "Hier ist das JSON:", "Sag Bescheid, wenn du noch etwas brauchst."),
    ("it", "Ecco il JSON:", "Fammi sapere se ti serve altro."),
    ("ru", "Вот JSON:", "Дайте знать, если нужно что-то ещё."),
]


@pytest.mark.parametrize("fenced", [True, False], ids=["fence", "prose"])
@pytest.mark.parametrize(("language", "before", "after"), HARMLESS, ids=[row[0] for row in HARMLESS])
@pytest.mark.parametrize("mode", MODES)
def test_harmless_prose_takes_the_short_way(mode: str, language: str, before: str, after: str, fenced: bool) -> None:
    recorder = Recorder()
    parser = Parser(mode, plugins=[recorder], entrypoints=False)
    value = _VALUES[0]
    text = f"{before}\n```json\n{value}\n```\n{after}" if fenced else f"{before} {value} {after}"
    assert parser.parse(text, Item) == Item(name="bolt", qty=3)
    assert recorder.paths == ["fast"], f"{language}: {text!r} took the full path"


# prose the short way must leave to the full path: it labels, refuses, asks, hedges or holds markup
LABELLING = [
    "Here is an example:",
    "For example:",
    "Do not output this:",
    "I can't help with that, but here is a sample:",
    "Should I use this?",
    "以下是示例：",
    "例如：",
    "Aquí tienes un ejemplo:",
    "Voici un exemple :",
    "Hier ist ein Beispiel:",
    "Ecco un esempio:",
    "Вот пример:",
    "<example>",
    "~~Old:~~",
    "Here it is (draft):",
    "// sample",
    "هذا هو الملف:",
    # letters Python's case-insensitive matching takes for ASCII ones: the clause rules read these words
    "Optıon:",
    "ſample:",
    "ALTERNATİVELY:",
    # a call the text makes in prose (ReAct, a function's name on a line): the value may be its arguments, and the
    # calls decide (a lone word on a line, `delete`, `config.json` or `JavaScript`, is a label)
    "Action: delete\n",
    "delete_file\n",
    "tools.delete_file\n",
]


@pytest.mark.parametrize("before", LABELLING)
@pytest.mark.parametrize("mode", MODES)
def test_prose_that_may_label_the_value_takes_the_full_path(mode: str, before: str) -> None:
    parser = PARSERS[mode]
    for text in (f"{before}\n```json\n{_VALUES[0]}\n```\n", f"{before} {_VALUES[0]}"):
        assert _outcome(parser, text, Item, short=True) is None, text


class Search(BaseModel):
    query: str
    parameters: dict[str, Any] = {}


@pytest.mark.parametrize(
    "text",
    [
        'Action: delete\n{"query": "x", "parameters": {}}',
        'Action: search\n{"query": "x"}',
        'Here it is: {"query": "x"}\nAction: delete',
        'Here:\n```json\n{"query": "x", "parameters": {}}\n```\nAction: delete',
        'delete\n{"query": "x", "parameters": {}}',
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_a_call_made_in_the_prose_decides_on_every_path(mode: str, text: str) -> None:
    """Found by an outside attack: the short way, taken before the calls, must leave a text that makes a call in
    its prose to them, so that the outcome does not depend on the path."""
    parser = PARSERS[mode]
    plan = parser.plan(Search)
    try:
        full: Any = parser._guarded(text, plan, plan.validators, {}, short_failed=True)[0].value
    except ParseError as exc:
        full = type(exc).__name__
    try:
        got: Any = parser.parse(text, Search)
    except ParseError as exc:
        got = type(exc).__name__
    assert got == full
