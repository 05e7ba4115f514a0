"""Properties of prose in every language the lexicon covers (English, Chinese, Japanese, Korean, Spanish, Portuguese,
French, German, Italian, Russian), in both modes:

(a) an answer among decoys — calls a cue of any supported language labels an example, a counter-example, a
    rejected option, a draft, a retracted call, an alternative, a question back, the user's quoted input or a call
    beside a refusal, the cue standing before the decoy, after it, in an aside in parentheses, as the name of a tag
    around it (`<example>`) or as a fence's info string — parses to the answer or raises a `ParseError`, never to a
    decoy, wherever the cue stands (the decoys it once returned are its first examples: `KNOWN_DECOYS_RETURNED`);
(b) an answer with only benign prose around it — hand-overs, descriptions of its form, closing remarks, written by
    hand per language as models write them — comes back in both modes.

The decoy cues are drawn from the tables themselves (`lexicon().phrases(category)`), so every phrase a table holds
is exercised in every position; the benign prose is not drawn from the tables (a table cannot vouch for itself).

Run quickly by default (the "ci" hypothesis profile); `pytest -m slow tests/test_language_properties.py` runs the
passing properties over thousands of examples, and `--hypothesis-profile=deep` raises the default ones to 10,000.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import example, given, note, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from resilient_parse import ParseError, parse
from resilient_parse.text.lexicon import lexicon

MODES = ("strict", "lenient")


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, Any] = {}


# -- benign prose, by hand, per language -----------------------------------------------------------------------------
# LEADS hand the answer over (they end where the answer starts); DESCRIPTIONS say what form it has; CLOSINGS end the
# output; DESIGNATIONS name the answer after decoys ("Final answer:").

LEADS: dict[str, list[str]] = {
    "en": [
        "No problem! Here it is:",
        "I checked the request and nothing is missing. The call:",
        "Here is the tool call:",
        "Sure! Here's the JSON you asked for:",
        "Certainly. The call is below:",
        "As requested, here is the result:",
        "Here you go:",
    ],
    "zh-Hans": [
        "没问题，我已经检查过了，调用如下：",
        "这个结果不错，以下是JSON：",
        "以下是工具调用：",
        "好的，这是你要的JSON：",
        "没问题！调用如下：",
        "根据你的要求，结果如下：",
        "当然可以，给你：",
    ],
    "zh-Hant": [
        "沒問題，我已經檢查過了，呼叫如下：",
        "這個結果不錯，以下是JSON：",
        "以下是工具呼叫：",
        "好的，這是您要的JSON：",
        "沒問題！呼叫如下：",
        "根據您的需求，結果如下：",
        "這是回傳的內容：",
    ],
    "ja": [
        "問題ありません。以下が呼び出しです：",
        "例外はありません。結果は以下の通りです：",
        "以下はツール呼び出しです：",
        "承知しました。結果は次のとおりです：",
        "こちらがご依頼のJSONです：",
        "かしこまりました。出力は以下の通りです：",
        "はい、どうぞ：",
    ],
    "ko": [
        "문제없습니다. 다음은 호출입니다:",
        "누락된 값은 없습니다. 결과는 다음과 같습니다:",
        "다음은 도구 호출입니다:",
        "네, 요청하신 JSON입니다:",
        "알겠습니다. 결과는 다음과 같습니다:",
        "물론입니다! 아래에 있습니다:",
        "요청하신 결과입니다:",
    ],
    "es": [
        "¡Sin problema! Aquí está:",
        "No falta ningún dato. La llamada es:",
        "Aquí tienes la llamada:",
        "¡Claro! Aquí está el JSON que pediste:",
        "Por supuesto, este es el resultado:",
        "A continuación, la respuesta:",
        "Te dejo la llamada a la herramienta:",
    ],
    "pt": [
        "Sem problemas! Aqui está:",
        "Não falta nenhum dado. A chamada é:",
        "Aqui está a chamada:",
        "Claro! Segue o JSON que você pediu:",
        "Com certeza, este é o resultado:",
        "Segue abaixo a resposta:",
        "Pronto, aqui está:",
    ],
    "fr": [
        "Pas de souci, voici :",
        "Il ne manque rien. Voici l’appel :",
        "Voici l’appel de l’outil :",
        "Bien sûr ! Voici le JSON demandé :",
        "Voici le résultat :",
        "Comme demandé, voici la réponse :",
        "Avec plaisir, le voici :",
    ],
    "de": [
        "Kein Problem! Hier ist er:",
        "Es fehlt nichts. Hier ist der Aufruf:",
        "Hier ist der Tool-Aufruf:",
        "Gerne! Hier ist das gewünschte JSON:",
        "Natürlich, das Ergebnis lautet:",
        "Wie gewünscht, hier die Antwort:",
        "Nachfolgend der Aufruf:",
    ],
    "it": [
        "Nessun problema, ecco:",
        "Non manca nulla. Ecco la chiamata:",
        "Ecco la chiamata:",
        "Certo! Ecco il JSON richiesto:",
        "Ecco il risultato:",
        "Come richiesto, ecco la risposta:",
        "Volentieri, eccolo:",
    ],
    "ru": [
        "Без проблем! Вот он:",
        "Ничего не упущено. Вот вызов:",
        "Вот вызов инструмента:",
        "Конечно! Вот JSON, который вы просили:",
        "Готово, результат ниже:",
        "Вот ответ:",
        "Пожалуйста, вот вызов:",
    ],
}
DESCRIPTIONS: dict[str, list[str]] = {
    "en": ["The output is valid JSON.", "It follows the requested format.", "I formatted it as JSON."],
    "zh-Hans": ["输出为标准JSON格式。", "已按照要求的格式整理。", "结果是一个JSON对象。"],
    "zh-Hant": ["輸出為標準JSON格式。", "已依照要求的格式整理。", "結果是一個JSON物件。"],
    "ja": ["出力はJSON形式です。", "ご指定の形式に沿って作成しました。", "有効なJSONで返します。"],
    "ko": ["출력은 JSON 형식입니다.", "요청하신 형식에 맞게 작성했습니다.", "유효한 JSON으로 정리했습니다."],
    "es": ["La salida está en formato JSON.", "Sigue el formato solicitado.", "Es un JSON válido."],
    "pt": ["A saída está em formato JSON.", "Segue o formato solicitado.", "É um JSON válido."],
    "fr": ["La sortie est au format JSON.", "Elle respecte le format demandé.", "C’est un JSON valide."],
    "de": ["Die Ausgabe ist im JSON-Format.", "Sie entspricht dem gewünschten Format.", "Es ist gültiges JSON."],
    "it": ["L’output è in formato JSON.", "Segue il formato richiesto.", "È un JSON valido."],
    "ru": ["Вывод в формате JSON.", "Он соответствует требуемому формату.", "Это валидный JSON."],
}
CLOSINGS: dict[str, list[str]] = {
    "en": ["Let me know if you need anything else!", "Hope this helps.", "Feel free to ask follow-up questions."],
    "zh-Hans": ["如有其他问题，请随时告诉我。", "希望对你有帮助！", "需要调整的话请告诉我。"],
    "zh-Hant": ["若有任何問題，歡迎隨時詢問。", "希望這對您有所幫助！", "如需進一步修改，請告訴我。"],
    "ja": ["他にご質問があればお気軽にどうぞ。", "お役に立てれば幸いです。", "以上です。"],
    "ko": ["도움이 되었으면 좋겠습니다.", "궁금한 점이 있으면 언제든지 말씀해 주세요.", "감사합니다."],
    "es": ["¡Espero que te sirva!", "Si tienes alguna duda, avísame.", "Quedo a tu disposición."],
    "pt": [
        "Espero ter ajudado!",
        "Qualquer dúvida, estou à disposição.",
        "Se precisar de mais alguma coisa, é só falar.",
    ],
    "fr": ["N’hésitez pas si vous avez d’autres questions.", "J’espère que cela vous aide !", "Bonne journée !"],
    "de": ["Ich hoffe, das hilft!", "Sag Bescheid, wenn du noch etwas brauchst.", "Viel Erfolg!"],
    "it": ["Spero di esserti stato utile!", "Fammi sapere se ti serve altro.", "Buon lavoro!"],
    "ru": ["Надеюсь, это поможет!", "Если будут вопросы, обращайтесь.", "Удачи!"],
}
DESIGNATIONS: dict[str, list[str]] = {
    "en": ["Final answer:", "The correct call is:"],
    "zh-Hans": ["最终答案：", "正确的调用是："],
    "zh-Hant": ["最終答案：", "正確的呼叫是："],
    "ja": ["最終的な回答：", "正しい回答："],
    "ko": ["최종 답변:", "올바른 답:"],
    "es": ["Respuesta final:", "La respuesta correcta es:"],
    "pt": ["Resposta final:", "A resposta correta é:"],
    "fr": ["Réponse finale :", "La bonne réponse est :"],
    "de": ["Endgültige Antwort:", "Die richtige Antwort lautet:"],
    "it": ["Risposta finale:", "La risposta corretta è:"],
    "ru": ["Окончательный ответ:", "Правильный ответ:"],
}
LANGUAGES = sorted(LEADS)

# -- decoy cues, from the tables -------------------------------------------------------------------------------------

# the categories whose cue before a candidate excludes it (a retraction takes back what came *before* it, and is
# drawn only after the decoy); a question is written with its question mark after the decoy
BEFORE = ("example", "counter_example", "rejected", "draft", "quoted_input", "refusal", "alternative", "question")
AFTER = (*BEFORE, "retraction")
_NAMED = re.compile(r"[A-Za-z][\w.-]{0,40}")  # what a tag name may be
_PLAIN = re.compile(r"[^`\n()（）<>{}\[\]]+")  # nothing that is markup or brackets of its own


def _pool(categories: tuple[str, ...], longest: int = 60) -> list[tuple[str, str]]:
    return [
        (category, phrase)
        for category in categories
        for phrase in lexicon().phrases(category)
        if len(phrase) <= longest and _PLAIN.fullmatch(phrase)
    ]


BEFORE_CUES = _pool(BEFORE)
AFTER_CUES = _pool(AFTER)
ASIDE_CUES = _pool(AFTER, longest=38)  # an aside holds at most 40 characters
# a tag is named by a short label (`<example>`, `<bad_example>`), not a sentence ("the template below")
TAG_CUES = [
    (c, p.replace(" ", "_"))
    for c, p in _pool(("example", "counter_example", "rejected", "draft"))
    if _NAMED.fullmatch(p.replace(" ", "_")) and len(re.split(r"[ -]", p)) <= 2
]
FENCE_CUES = _pool(("example", "counter_example", "rejected", "draft", "quoted_input"))


def _call(action: str, draw: Any) -> str:
    arguments = draw(st.sampled_from([{}, {"id": 7}, {"city": "Paris"}, {"query": "北京 天气"}]))
    return json.dumps(
        {"action": action, "arguments": arguments} if arguments else {"action": action}, ensure_ascii=False
    )


def _capital(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


POSITIONS = ("before", "after", "aside", "tag", "fence")


@st.composite
def decoy_block(draw: Any, index: int, positions: tuple[str, ...] = POSITIONS) -> tuple[str, str]:
    """One decoy call and the cue that labels it, in one of the positions; returns (text, position)."""
    decoy = _call(f"decoy_{index}", draw)
    position = draw(st.sampled_from(positions))
    if position == "before":
        category, phrase = draw(st.sampled_from(BEFORE_CUES))
        mark = "?" if category == "question" else ""
        return f"{_capital(phrase)}: {decoy}{mark}", position
    if position == "after":
        category, phrase = draw(st.sampled_from(AFTER_CUES))
        mark = "?" if category == "question" else "."
        return f"{decoy} — {phrase}{mark}", position
    if position == "aside":
        _, phrase = draw(st.sampled_from(ASIDE_CUES))
        return f"{decoy} ({phrase})", position
    if position == "tag":
        _, name = draw(st.sampled_from(TAG_CUES))
        return f"<{name}>\n{decoy}\n</{name}>", position
    _, info = draw(st.sampled_from(FENCE_CUES))
    return f"```{info}\n{decoy}\n```", position


@st.composite
def answer_among_decoys(draw: Any, positions: tuple[str, ...] = POSITIONS) -> tuple[str, ToolCall]:
    answer = ToolCall.model_validate_json(_call("the_answer", draw))
    body = answer.model_dump_json(exclude_defaults=True)
    language = draw(st.sampled_from(LANGUAGES))
    lead = draw(st.sampled_from(["", *LEADS[language], *DESIGNATIONS[language]]))
    block = f"{lead}\n{body}" if lead else body
    decoys = [draw(decoy_block(i, positions))[0] for i in range(draw(st.integers(1, 3)))]
    blocks = draw(st.permutations([*decoys, block]))
    return "\n\n".join(blocks), answer


@st.composite
def answer_in_benign_prose(draw: Any) -> tuple[str, ToolCall]:
    answer = ToolCall.model_validate_json(_call("the_answer", draw))
    body = answer.model_dump_json(exclude_defaults=True)
    language = draw(st.sampled_from(LANGUAGES))
    if draw(st.booleans()):
        body = f"```{draw(st.sampled_from(['json', '']))}\n{body}\n```"
    before = []
    if draw(st.booleans()):
        before.append(draw(st.sampled_from(DESCRIPTIONS[language])))
    if draw(st.booleans()):
        before.append(draw(st.sampled_from(LEADS[language])))
    after = draw(st.lists(st.sampled_from(CLOSINGS[language]), max_size=2, unique=True))
    joiner = draw(st.sampled_from(["\n", "\n\n", " "]))
    text = joiner.join([*before, body]) if before else body
    if after:
        text += "\n\n" + " ".join(after)
    return text, answer


def check_never_a_decoy(text: str, answer: ToolCall) -> None:
    note(f"text={text!r}")
    for mode in MODES:
        try:
            got = parse(text, ToolCall, mode=mode)
        except ParseError as err:
            note(f"{mode}: {type(err).__name__}")
            continue
        assert got == answer, f"{mode} returned {got!r}, not the answer"


def check_recovered(text: str, answer: ToolCall) -> None:
    note(f"text={text!r}")
    for mode in MODES:
        assert parse(text, ToolCall, mode=mode) == answer, mode


# -- (a) never a decoy -------------------------------------------------------------------------------------------------

ANSWER = ToolCall(action="the_answer")
# decoys the property once found returned, kept as its first examples
KNOWN_DECOYS_RETURNED = [
    # a one-word cue (hyphenated) in an aside after the decoy is not bound when a full stop follows it, and the
    # English window reads "example" in it as the label of the next candidate
    '{"action": "decoy_0"} — counter-example.\n\n{"action":"the_answer"}',
    # a comma inside an aside after the decoy splits the aside: its first half is not read as one, its second half
    # becomes the lead-in of the next candidate (a retraction there rejects the answer)
    '{"action": "decoy_0"} (ладно, неважно)\n\n{"action":"the_answer"}',
    '{"action": "decoy_0"} (算了，不用)\n\n{"action":"the_answer"}',
    # a hyphenated tag name is read with a space ("beispiel objekt"), which no phrase is, so the tag labels nothing;
    # its closing tag is then read as the words right before the next candidate, which it labels an example
    '<beispiel-objekt>\n{"action": "decoy_0"}\n</beispiel-objekt>\n\n{"action":"the_answer"}',
]


@settings(deadline=None)
@given(case=answer_among_decoys(("before", "fence")))
def test_answer_among_decoys_labelled_before_or_by_fence_is_the_answer_or_an_error(case: tuple[str, ToolCall]) -> None:
    check_never_a_decoy(*case)


@settings(deadline=None)
@given(case=answer_among_decoys())
@example(case=(KNOWN_DECOYS_RETURNED[0], ANSWER))
@example(case=(KNOWN_DECOYS_RETURNED[1], ANSWER))
@example(case=(KNOWN_DECOYS_RETURNED[2], ANSWER))
@example(case=(KNOWN_DECOYS_RETURNED[3], ANSWER))
def test_answer_among_decoys_in_any_position_is_the_answer_or_an_error(case: tuple[str, ToolCall]) -> None:
    check_never_a_decoy(*case)


# -- (b) benign prose is read past -------------------------------------------------------------------------------------


@settings(deadline=None)
@given(case=answer_in_benign_prose())
def test_answer_in_benign_prose_in_any_language_is_recovered(case: tuple[str, ToolCall]) -> None:
    check_recovered(*case)


# -- many examples at once (`pytest -m slow`) ------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=3_000, deadline=None)
@given(case=answer_among_decoys(("before", "fence")))
def test_answer_among_decoys_labelled_before_or_by_fence_over_thousands_of_examples(
    case: tuple[str, ToolCall],
) -> None:
    check_never_a_decoy(*case)


@pytest.mark.slow
@settings(max_examples=3_000, deadline=None)
@given(case=answer_in_benign_prose())
def test_answer_in_benign_prose_over_thousands_of_examples(case: tuple[str, ToolCall]) -> None:
    check_recovered(*case)


def test_the_pools_reach_every_language() -> None:
    """Every table gives decoy cues in every position it can, and every language has benign prose of each kind."""
    tables = {t.language for t in lexicon().tables if t.language != "marks"}
    assert set(LANGUAGES) == tables
    assert all(LEADS[x] and DESCRIPTIONS[x] and CLOSINGS[x] and DESIGNATIONS[x] for x in LANGUAGES)
    languages_with_cues = {c.language for _, p in BEFORE_CUES for c in lexicon().find(p)}
    assert tables <= languages_with_cues
