"""Acceptance table for prose in every language the lexicon covers: English, Chinese (zh-Hans, zh-Hant), Japanese,
Korean, Spanish, Portuguese, French, German, Italian and Russian.

Each row is an output as a model writes it in that language — a lead-in or hand-over with the answer, a designation
("final answer") after an example, an example or counter-example ("do not output") beside the answer, a refusal
with the refused call beside it, a draft, a correction, a retraction, options, a question back, the user's quoted
input, and plain answers (a bool, a number or a Literal read from prose) — and what `parse` must give for it:
the value, or the `ParseError` class it must raise (exactly that class). Every row runs in both modes; where the
two rightly differ (a plain answer read from prose is a lossy `plain_answer` that strict mode refuses), the row
says `modes(strict=…, lenient=…)`.

A row the library gets wrong stays in the table, marked `xfail(strict=True)` with what is wrong, so a fix shows up
as an unexpected pass; `broken(reason, mode=…)` marks a row that is wrong in one mode only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, parse
from resilient_parse.errors import (
    AmbiguousMatchError,
    NoCandidateError,
    RefusalError,
    UnrecoverableSyntaxError,
)

MODES = ("strict", "lenient")


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, Any] = {}


Verdict = Literal["approve", "reject"]


def tc(action: str, **arguments: Any) -> ToolCall:
    """The tool call a row expects: `tc("search", query="cats")` is ToolCall(action="search", arguments={...})."""
    return ToolCall(action=action, arguments=arguments)


@dataclass(frozen=True)
class modes:
    """An expectation that differs by mode (lower case: it reads as a call in the rows, modes(strict=…, lenient=…))."""

    strict: Any
    lenient: Any


LOSSY = "strict mode refuses a lossy plain_answer"
_MODE_PREFIX = " mode: "


def broken(reason: str, mode: str | None = None) -> pytest.MarkDecorator:
    """A strict xfail for a row the library gets wrong; `mode` when only that mode is wrong."""
    return pytest.mark.xfail(strict=True, reason=reason if mode is None else f"{mode}{_MODE_PREFIX}{reason}")


# -- what the library gets wrong, by mechanism (the rows marked with them below) ------------------------------------

# a wrong value is returned
ONE_WORD_RETRACTION_AFTER = (
    "a one-word retraction right after the candidate, in its own sentence ('{…} Kidding!', 'Bromeaba.', 'Scherz!', "
    "'Scherzavo!', 'Шучу!'), is not bound: one-word cues bind only as a heading, so the retracted call is returned"
)
PROHIBITION_AFTER = (
    "a prohibition after the call in its own sentence ('{…} must never be sent', 'nunca deve ser enviada', "
    "'ne doit jamais être envoyé', 'darf niemals gesendet werden', 'non va mai inviata') is not bound: no table "
    "phrase covers a modal/passive prohibition after the candidate, and 'never' alone binds only as a heading"
)
# an error where the text gives the answer, or the wrong error
OPENS_WITH_JSON = (
    "an output that opens with the JSON and goes on in prose ('{…} は絶対に実行しないでください。'): the whole-text "
    "candidate takes no label from the prose after it and its trailing_text failure is reported "
    "(UnrecoverableSyntaxError) instead of the exclusion (NoCandidateError)"
)
ANNOTATION_BINDS_FORWARD = (
    "a sentence about the previous candidate ('{…} — bad example.') is read as the clause before the next one "
    "when nothing else stands between them, so the answer after it is excluded too"
)
YES_WORDS_ENGLISH_ONLY = (
    "plain bool answers know only the English words true/false/yes/no: 是, はい, 예, sí, sim, oui, ja, sì, да are "
    "not read"
)
NUMBER_LANGUAGE_FROM_CUES_ONLY = (
    "the decimal mark is known only from cue phrases: 'El total es 1.000.' holds no cue, so its language (and that "
    "'1.000' is a thousand) is unknown and the number is refused"
)
SPACE_GROUPED_THOUSANDS = "thousands grouped by a space ('1 000', French and Russian) are read as two numbers"


# -- English ---------------------------------------------------------------------------------------------------------

EN = [
    (
        "en-lead-in",
        'Here is the tool call:\n{"action": "get_weather", "arguments": {"city": "Paris"}}',
        ToolCall,
        tc("get_weather", city="Paris"),
    ),
    (
        "en-fence-hand-over",
        'Sure! I will look that up for you.\n```json\n{"action": "search", "arguments": '
        '{"query": "flights to Rome"}}\n```',
        ToolCall,
        tc("search", query="flights to Rome"),
    ),
    (
        "en-closing",
        '{"action": "send_email", "arguments": {"to": "ana@example.com"}}\nLet me know if you need anything else!',
        ToolCall,
        tc("send_email", to="ana@example.com"),
    ),
    (
        "en-final-after-example",
        'A call looks like this, for example: {"action": "noop"}\nFinal answer: '
        '{"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    ("en-example-tag", '<example>{"action": "noop"}</example>\nAnswer: {"action": "ping"}', ToolCall, tc("ping")),
    (
        "en-example-fence-info",
        '```example\n{"action": "noop"}\n```\nHere is the real one:\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "en-example-only",
        'For example, a call could be {"action": "get_weather", "arguments": {"city": "Berlin"}}. '
        "Tell me the city and I will make it.",
        ToolCall,
        NoCandidateError,
    ),
    (
        "en-counter-example",
        'Do not output {"action": "delete_all"}. The correct call is {"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "en-counter-example-only",
        'Never send something like {"action": "drop_table"} to the API.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "en-refusal-beside-call",
        "I can't help with deleting all files. If you really wanted to, the call would be "
        '{"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "en-refusal-decline",
        'I must decline this request.\n```json\n{"action": "transfer_funds", "arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "en-apology-then-designated",
        "I cannot be fully certain about the rubric's intent. Therefore I would score "
        'this as follows: {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "en-apology-then-corrected",
        'I apologize for the confusion earlier. The corrected call is: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "en-draft-then-final",
        'Draft: {"action": "search"}\nFinal version: {"action": "search", "arguments": {"query": "cats"}}',
        ToolCall,
        tc("search", query="cats"),
    ),
    ("en-draft-only", 'Here is a first draft, not final yet: {"action": "search"}', ToolCall, NoCandidateError),
    (
        "en-correction",
        '{"action": "get_weather", "arguments": {"city": "Pari"}}\nCorrection: {"action": '
        '"get_weather", "arguments": {"city": "Paris"}}',
        ToolCall,
        tc("get_weather", city="Paris"),
    ),
    (
        "en-correction-actually",
        'Call {"action": "lights_on"}. Actually, wait, you asked me to turn them off: {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    ("en-retraction-after", 'Final answer: {"action": "reboot"} Just kidding!', ToolCall, NoCandidateError),
    (
        "en-retraction-then-answer",
        'Try this: {"action": "restart"}\nScratch that.\n{"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("en-options", 'Option A: {"action": "a"}\nOption B: {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "en-alternative-beside-final",
        'Final answer: {"action": "archive"}\n(Alternatively, you could call {"action": "delete"}.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "en-question-back",
        'Should I call {"action": "delete_user", "arguments": {"id": 7}}? Please confirm.',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "en-quoted-input",
        'The user said: {"action": "pay"}\nHere is the call: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    (
        "en-quoted-input-only",
        'You asked: {"action": "pay"}. Which account should I use?',
        ToolCall,
        NoCandidateError,
    ),
    ("en-wrong-then-correct", 'Wrong: {"action": "a"}\nCorrect: {"action": "b"}', ToolCall, tc("b")),
    (
        "en-counter-example-after-call",
        'The call {"action": "drop_table"} must never be sent.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "en-retraction-one-word-after",
        'Final answer: {"action": "reboot"} Kidding!',
        ToolCall,
        NoCandidateError,
    ),
    ("en-replacement-instead-of", 'Use {"action": "stop"} instead of {"action": "restart"}.', ToolCall, tc("stop")),
    (
        "en-uncertain-but-final",
        'I can\'t be fully certain, but the final answer is: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    ("en-marks", '\u274c {"action": "delete"}\n\u2705 {"action": "archive"}', ToolCall, tc("archive")),
    pytest.param(
        "en-annotated-then-answer",
        'Here: {"action": "restart"} — bad example.\n\n{"action": "stop"}',
        ToolCall,
        tc("stop"),
        marks=broken(ANNOTATION_BINDS_FORWARD),
    ),
    (
        "en-example-tag-then-bare-answer",
        '<example>{"action": "noop"}</example>\n\n{"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    ("en-plain-int", "The answer is 42.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    ("en-plain-lone-int", "42", int, 42),
    ("en-plain-bool", "Answer: yes", bool, modes(strict=UnrecoverableSyntaxError, lenient=True)),
    ("en-plain-literal", "Verdict: approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    ("en-plain-thousands", "The total is 1,000.", int, modes(strict=UnrecoverableSyntaxError, lenient=1000)),
    ("en-plain-negated", "The answer is not 5.", int, AmbiguousMatchError),
    ("en-plain-hedged", "Probably 12.", int, AmbiguousMatchError),
    ("en-plain-example", "For example: 42", int, AmbiguousMatchError),
    ("en-plain-refusal", "I'm sorry, I can't answer that.", int, RefusalError),
]

# -- Simplified Chinese ----------------------------------------------------------------------------------------------

ZH_HANS = [
    (
        "zh_hans-lead-in",
        '以下是工具调用：\n{"action": "get_weather", "arguments": {"city": "北京"}}',
        ToolCall,
        tc("get_weather", city="北京"),
    ),
    (
        "zh_hans-fence-hand-over",
        '好的，我来帮你查一下。\n```json\n{"action": "search", "arguments": {"query": "去上海的航班"}}\n```',
        ToolCall,
        tc("search", query="去上海的航班"),
    ),
    (
        "zh_hans-closing",
        '{"action": "send_email", "arguments": {"to": "li@example.com"}}\n如有其他问题，请随时告诉我。',
        ToolCall,
        tc("send_email", to="li@example.com"),
    ),
    (
        "zh_hans-issue-example-then-answer",
        '示例：{"action": "noop"}\n答案：{"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    ("zh_hans-final-after-example", '例如：{"action": "noop"}\n最终答案：{"action": "ping"}', ToolCall, tc("ping")),
    (
        "zh_hans-example-fence-info",
        '```示例\n{"action": "noop"}\n```\n下面是实际的调用：\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "zh_hans-example-aside",
        '{"action": "noop"}（仅供参考的示例）\n实际调用：{"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "zh_hans-example-only",
        '比如，调用可以写成 {"action": "get_weather", "arguments": {"city": "上海"}}，请告诉我具体城市。',
        ToolCall,
        NoCandidateError,
    ),
    (
        "zh_hans-counter-example",
        '不要输出 {"action": "delete_all"}。正确的调用是：{"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    ("zh_hans-counter-example-only", '请勿调用 {"action": "drop_table"}，这会删除整张表。', ToolCall, NoCandidateError),
    (
        "zh_hans-issue-refusal-beside-call",
        '抱歉，我无法执行删除所有文件的操作。如果真的要执行，调用格式是：{"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "zh_hans-refusal-decline",
        '我必须拒绝这个请求。\n```json\n{"action": "transfer_funds", "arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "zh_hans-refusal-after-call",
        '{"action": "transfer_funds", "arguments": {"amount": 10000}}\n这个操作我不能帮你执行，风险太大。',
        ToolCall,
        RefusalError,
    ),
    ("zh_hans-apology-then-designated", '抱歉让你久等了。最终答案：{"action": "ping"}', ToolCall, tc("ping")),
    (
        "zh_hans-uncertain-then-designated",
        '我无法完全确定评分标准的意图，因此我给出如下评分：{"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "zh_hans-draft-then-final",
        '草稿：{"action": "search"}\n最终版本：{"action": "search", "arguments": {"query": "猫"}}',
        ToolCall,
        tc("search", query="猫"),
    ),
    ("zh_hans-draft-only", '这是初稿，还没定下来：{"action": "search"}', ToolCall, NoCandidateError),
    (
        "zh_hans-correction",
        '{"action": "get_weather", "arguments": {"city": "背景"}}\n更正：{"action": '
        '"get_weather", "arguments": {"city": "北京"}}',
        ToolCall,
        tc("get_weather", city="北京"),
    ),
    (
        "zh_hans-correction-wait",
        '调用 {"action": "lights_on"}。等等，我看错了，你要的是关灯：{"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    ("zh_hans-retraction-after", '最终答案：{"action": "reboot"} 开玩笑的，别执行。', ToolCall, NoCandidateError),
    (
        "zh_hans-retraction-then-answer",
        '先试试这个：{"action": "restart"}\n算了，还是用这个吧：{"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("zh_hans-options", '方案A：{"action": "a"}\n方案B：{"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "zh_hans-alternative-beside-final",
        '最终答案：{"action": "archive"}\n（或者也可以调用 {"action": "delete"}。）',
        ToolCall,
        tc("archive"),
    ),
    (
        "zh_hans-question-back",
        '要不要我调用 {"action": "delete_user", "arguments": {"id": 7}}？请确认。',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "zh_hans-quoted-input",
        '用户的请求：{"action": "pay"}\n以下是调用：{"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    ("zh_hans-quoted-input-only", '你刚才说：{"action": "pay"}。请问要用哪个账户？', ToolCall, NoCandidateError),
    ("zh_hans-wrong-then-correct", '错误的写法：{"action": "a"}\n正确的写法：{"action": "b"}', ToolCall, tc("b")),
    (
        "zh_hans-wrong-then-corrected",
        '答案：{"action": "restart"}\n不对，应该是：{"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("zh_hans-not-but", '不是 {"action": "restart"}，而是 {"action": "stop"}。', ToolCall, tc("stop")),
    ("zh_hans-counter-example-after-call", '调用 {"action": "drop_table"} 千万不要执行。', ToolCall, NoCandidateError),
    (
        "zh_hans-reference-format",
        '以下是一个参考格式：{"action": "get_weather", "arguments": {"city": "城市名"}}',
        ToolCall,
        NoCandidateError,
    ),
    ("zh_hans-refusal-meifa", '我没法帮你删除所有文件。{"action": "delete_all_files"}', ToolCall, RefusalError),
    (
        "zh_hans-uncertain-but-final",
        '我无法完全确定评分标准的意图，但最终答案是：{"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    ("zh_hans-uncertain-buguo-final", '我不能百分之百肯定，不过最终答案：{"action": "ping"}', ToolCall, tc("ping")),
    (
        "zh_hans-negation-before-but-final",
        '我不记得具体的格式了，但最终答案是：{"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "zh_hans-question-mark-after-call",
        '调用 {"action": "delete_user", "arguments": {"id": 7}}？',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "zh_hans-draft-pointed-back-then-final",
        '{"action": "search"}\n上面这个是草稿，最终版本：{"action": "search", "arguments": {"query": "猫"}}',
        ToolCall,
        tc("search", query="猫"),
    ),
    ("zh_hans-plain-int", "答案是42。", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    pytest.param(
        "zh_hans-plain-bool",
        "答案是：是",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
        marks=broken(YES_WORDS_ENGLISH_ONLY),
    ),
    ("zh_hans-plain-literal", "结论：approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    ("zh_hans-plain-scale", "总共3万", int, modes(strict=UnrecoverableSyntaxError, lenient=30000)),
    ("zh_hans-plain-negated", "答案不是5。", int, AmbiguousMatchError),
    ("zh_hans-plain-hedged", "大概12个。", int, AmbiguousMatchError),
    ("zh_hans-plain-example", "例如：42", int, AmbiguousMatchError),
    ("zh_hans-plain-refusal", "抱歉，我无法回答这个问题。", int, RefusalError),
]

# -- Traditional Chinese (Taiwan, Hong Kong) -------------------------------------------------------------------------

ZH_HANT = [
    (
        "zh_hant-lead-in",
        '以下是工具呼叫：\n{"action": "get_weather", "arguments": {"city": "臺北"}}',
        ToolCall,
        tc("get_weather", city="臺北"),
    ),
    (
        "zh_hant-fence-hand-over",
        '好的，我來幫你查詢。\n```json\n{"action": "search", "arguments": {"query": "飛往高雄的航班"}}\n```',
        ToolCall,
        tc("search", query="飛往高雄的航班"),
    ),
    (
        "zh_hant-closing",
        '{"action": "send_email", "arguments": {"to": "chen@example.com"}}\n若有任何問題，歡迎隨時詢問。',
        ToolCall,
        tc("send_email", to="chen@example.com"),
    ),
    (
        "zh_hant-example-then-answer",
        '範例：{"action": "noop"}\n答案：{"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    ("zh_hant-final-after-example", '例如：{"action": "noop"}\n最終答案：{"action": "ping"}', ToolCall, tc("ping")),
    (
        "zh_hant-example-fence-info",
        '```範例\n{"action": "noop"}\n```\n下面是實際的呼叫：\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "zh_hant-example-aside",
        '{"action": "noop"}（僅供參考的範例）\n實際呼叫：{"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "zh_hant-example-only",
        '比如，呼叫可以寫成 {"action": "get_weather", "arguments": {"city": "臺中"}}，請告訴我是哪個城市。',
        ToolCall,
        NoCandidateError,
    ),
    (
        "zh_hant-counter-example",
        '不要輸出 {"action": "delete_all"}。正確的呼叫是：{"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "zh_hant-counter-example-only",
        '請勿呼叫 {"action": "drop_table"}，這會刪除整張資料表。',
        ToolCall,
        NoCandidateError,
    ),
    (
        "zh_hant-refusal-beside-call",
        '抱歉，我無法執行刪除所有檔案的操作。如果真的要執行，呼叫格式是：{"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "zh_hant-refusal-cantonese",
        '唔好意思，我唔可以幫你刪除所有檔案。格式係 {"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "zh_hant-refusal-after-call",
        '{"action": "transfer_funds", "arguments": {"amount": 10000}}\n這個操作我不能幫你執行，風險太大。',
        ToolCall,
        RefusalError,
    ),
    ("zh_hant-apology-then-designated", '抱歉讓你久等了。最終答案：{"action": "ping"}', ToolCall, tc("ping")),
    (
        "zh_hant-uncertain-then-designated",
        '我無法完全確定評分標準的意圖，因此我給出如下評分：{"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "zh_hant-draft-then-final",
        '草稿：{"action": "search"}\n最終版本：{"action": "search", "arguments": {"query": "貓"}}',
        ToolCall,
        tc("search", query="貓"),
    ),
    ("zh_hant-draft-only", '這是初稿，還沒定案：{"action": "search"}', ToolCall, NoCandidateError),
    (
        "zh_hant-correction",
        '{"action": "get_weather", "arguments": {"city": "台被"}}\n更正：{"action": '
        '"get_weather", "arguments": {"city": "臺北"}}',
        ToolCall,
        tc("get_weather", city="臺北"),
    ),
    (
        "zh_hant-correction-wait",
        '呼叫 {"action": "lights_on"}。等等，我看錯了，你要的是關燈：{"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    ("zh_hant-retraction-after", '最終答案：{"action": "reboot"} 開玩笑的，別執行。', ToolCall, NoCandidateError),
    (
        "zh_hant-retraction-then-answer",
        '先試試這個：{"action": "restart"}\n算了，還是用這個吧：{"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("zh_hant-options", '方案A：{"action": "a"}\n方案B：{"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "zh_hant-alternative-beside-final",
        '最終答案：{"action": "archive"}\n（或者也可以呼叫 {"action": "delete"}。）',
        ToolCall,
        tc("archive"),
    ),
    (
        "zh_hant-question-back",
        '需不需要我呼叫 {"action": "delete_user", "arguments": {"id": 7}}？請確認。',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "zh_hant-quoted-input",
        '使用者的請求：{"action": "pay"}\n以下是呼叫：{"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    ("zh_hant-quoted-input-only", '你剛剛說：{"action": "pay"}。請問要用哪個帳戶？', ToolCall, NoCandidateError),
    ("zh_hant-wrong-then-correct", '錯誤的寫法：{"action": "a"}\n正確的寫法：{"action": "b"}', ToolCall, tc("b")),
    (
        "zh_hant-wrong-then-corrected",
        '答案：{"action": "restart"}\n不對，應該是：{"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("zh_hant-not-but", '不是 {"action": "restart"}，而是 {"action": "stop"}。', ToolCall, tc("stop")),
    (
        "zh_hant-reference-format",
        '以下是一個參考格式：{"action": "get_weather", "arguments": {"city": "城市名稱"}}',
        ToolCall,
        NoCandidateError,
    ),
    ("zh_hant-refusal-meifa", '我沒法幫你刪除所有檔案。{"action": "delete_all_files"}', ToolCall, RefusalError),
    (
        "zh_hant-uncertain-but-final",
        '我無法完全確定評分標準的意圖，但最終答案是：{"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "zh_hant-question-mark-after-call",
        '呼叫 {"action": "delete_user", "arguments": {"id": 7}}？',
        ToolCall,
        AmbiguousMatchError,
    ),
    ("zh_hant-plain-int", "答案是42。", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    pytest.param(
        "zh_hant-plain-bool",
        "答案是：是",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
        marks=broken(YES_WORDS_ENGLISH_ONLY),
    ),
    ("zh_hant-plain-literal", "結論：approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    ("zh_hant-plain-scale", "總共3萬", int, modes(strict=UnrecoverableSyntaxError, lenient=30000)),
    ("zh_hant-plain-negated", "答案不是5。", int, AmbiguousMatchError),
    ("zh_hant-plain-hedged", "大概12個。", int, AmbiguousMatchError),
    ("zh_hant-plain-example", "例如：42", int, AmbiguousMatchError),
    ("zh_hant-plain-refusal", "抱歉，我無法回答這個問題。", int, RefusalError),
]

# -- Japanese --------------------------------------------------------------------------------------------------------

JA = [
    (
        "ja-lead-in",
        '以下はツール呼び出しです：\n{"action": "get_weather", "arguments": {"city": "東京"}}',
        ToolCall,
        tc("get_weather", city="東京"),
    ),
    (
        "ja-fence-hand-over",
        'はい、調べますね。\n```json\n{"action": "search", "arguments": {"query": "大阪行きの便"}}\n```',
        ToolCall,
        tc("search", query="大阪行きの便"),
    ),
    (
        "ja-closing",
        '{"action": "send_email", "arguments": {"to": "tanaka@example.com"}}\n他に何かあればお気軽にお知らせください。',
        ToolCall,
        tc("send_email", to="tanaka@example.com"),
    ),
    ("ja-final-after-example", '例：{"action": "noop"}\n最終的な回答：{"action": "ping"}', ToolCall, tc("ping")),
    (
        "ja-answer-after-example",
        '例えば {"action": "noop"} のように書きます。\n回答：{"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "ja-example-fence-info",
        '```サンプル\n{"action": "noop"}\n```\n実際の呼び出しはこちらです：\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "ja-example-after-call",
        '{"action": "noop"} は入力例です。\n実際の呼び出し：{"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "ja-example-only",
        '例えば、{"action": "get_weather", "arguments": {"city": "大阪"}} のように呼び出せます。'
        "都市名を教えてください。",
        ToolCall,
        NoCandidateError,
    ),
    (
        "ja-counter-example-after-call",
        '{"action": "delete_all"} は出力しないでください。正しい呼び出しは '
        '{"action": "archive", "arguments": {"days": 30}} です。',
        ToolCall,
        tc("archive", days=30),
    ),
    pytest.param(
        "ja-counter-example-only",
        '{"action": "drop_table"} は絶対に実行しないでください。',
        ToolCall,
        NoCandidateError,
        marks=broken(OPENS_WITH_JSON),
    ),
    (
        "ja-refusal-beside-call",
        "申し訳ありませんが、すべてのファイルを削除する操作はお手伝いできません。"
        'どうしても実行する場合の呼び出し形式は {"action": "delete_all_files"} です。',
        ToolCall,
        RefusalError,
    ),
    (
        "ja-refusal-after-call",
        '{"action": "transfer_funds", "arguments": {"amount": 10000}} の実行はお断りします。',
        ToolCall,
        RefusalError,
    ),
    (
        "ja-apology-then-designated",
        'お待たせして申し訳ありません。最終的な回答：{"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "ja-uncertain-then-designated",
        "評価基準の意図を完全には確信できませんが、次のように採点します："
        '{"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "ja-draft-then-final",
        '下書き：{"action": "search"}\n完成版：{"action": "search", "arguments": {"query": "猫"}}',
        ToolCall,
        tc("search", query="猫"),
    ),
    ("ja-draft-only", 'とりあえず下書きです：{"action": "search"}', ToolCall, NoCandidateError),
    (
        "ja-correction",
        '{"action": "get_weather", "arguments": {"city": "東今日"}}\n訂正：{"action": '
        '"get_weather", "arguments": {"city": "東京"}}',
        ToolCall,
        tc("get_weather", city="東京"),
    ),
    (
        "ja-correction-actually",
        '{"action": "lights_on"} を呼び出します。いや、消灯でしたね。正しくは {"action": "lights_off"} です。',
        ToolCall,
        tc("lights_off"),
    ),
    (
        "ja-retraction-after",
        '最終的な回答：{"action": "reboot"}\n冗談です、実行しないでください。',
        ToolCall,
        NoCandidateError,
    ),
    (
        "ja-retraction-then-answer",
        '{"action": "restart"}\n今のはなしで。こちらを使ってください：{"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("ja-options", '案1：{"action": "a"}\n案2：{"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "ja-alternative-beside-final",
        '最終的な回答：{"action": "archive"}\n（または {"action": "delete"} でも構いません。）',
        ToolCall,
        tc("archive"),
    ),
    (
        "ja-question-after-call",
        '{"action": "delete_user", "arguments": {"id": 7}} を実行してもよろしいですか？',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "ja-quoted-input",
        'ユーザーの入力：{"action": "pay"}\n呼び出しは次のとおりです：{"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    (
        "ja-quoted-input-only",
        'いただいたご依頼は {"action": "pay"} ですが、どの口座を使いますか？',
        ToolCall,
        NoCandidateError,
    ),
    ("ja-wrong-then-correct", '間違った呼び出し：{"action": "a"}\n正しい呼び出し：{"action": "b"}', ToolCall, tc("b")),
    ("ja-not-but", '{"action": "restart"} ではなく {"action": "stop"} を使ってください。', ToolCall, tc("stop")),
    ("ja-instead-of", '{"action": "restart"} の代わりに {"action": "stop"} を使ってください。', ToolCall, tc("stop")),
    ("ja-quoted-input-after-call", 'ユーザーから「{"action": "pay"}」と言われました。', ToolCall, NoCandidateError),
    (
        "ja-refusal-this-operation",
        '申し訳ございませんが、この操作は実行できません。{"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "ja-uncertain-but-final",
        '完全には確信できませんが、最終的な回答は：{"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "ja-pattern-after-call",
        '呼び出しは {"action": "get_weather", "arguments": {"city": "都市名"}} のような形式で行ってください。',
        ToolCall,
        NoCandidateError,
    ),
    ("ja-plain-int", "答えは42です。", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    (
        "ja-plain-bool",
        "答え：はい",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
    ),
    ("ja-plain-literal", "判定：approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    ("ja-plain-scale", "合計は3万です。", int, modes(strict=UnrecoverableSyntaxError, lenient=30000)),
    ("ja-plain-negated", "答えは5ではありません。", int, AmbiguousMatchError),
    ("ja-plain-hedged", "たぶん12です。", int, AmbiguousMatchError),
    ("ja-plain-example", "例：42", int, AmbiguousMatchError),
    ("ja-plain-refusal", "申し訳ありませんが、その質問にはお答えできません。", int, RefusalError),
]

# -- Korean ----------------------------------------------------------------------------------------------------------

KO = [
    (
        "ko-lead-in",
        '다음은 도구 호출입니다:\n{"action": "get_weather", "arguments": {"city": "서울"}}',
        ToolCall,
        tc("get_weather", city="서울"),
    ),
    (
        "ko-fence-hand-over",
        '네, 찾아볼게요.\n```json\n{"action": "search", "arguments": {"query": "부산행 항공편"}}\n```',
        ToolCall,
        tc("search", query="부산행 항공편"),
    ),
    (
        "ko-closing",
        '{"action": "send_email", "arguments": {"to": "kim@example.com"}}\n'
        "더 필요한 것이 있으면 언제든지 말씀해 주세요.",
        ToolCall,
        tc("send_email", to="kim@example.com"),
    ),
    ("ko-final-after-example", '예시: {"action": "noop"}\n최종 답변: {"action": "ping"}', ToolCall, tc("ping")),
    (
        "ko-result-after-example",
        '예를 들어 {"action": "noop"}처럼 작성합니다.\n결과: {"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "ko-example-fence-info",
        '```예시\n{"action": "noop"}\n```\n실제 호출은 다음과 같습니다:\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "ko-example-after-call",
        '{"action": "noop"}은 예시일 뿐입니다.\n실제 호출: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "ko-example-only",
        '예를 들어 {"action": "get_weather", "arguments": {"city": "부산"}}처럼 호출할 수 있습니다. '
        "도시 이름을 알려 주세요.",
        ToolCall,
        NoCandidateError,
    ),
    (
        "ko-counter-example-after-call",
        '{"action": "delete_all"}은 출력하지 마세요. 올바른 호출은 '
        '{"action": "archive", "arguments": {"days": 30}}입니다.',
        ToolCall,
        tc("archive", days=30),
    ),
    pytest.param(
        "ko-counter-example-only",
        '{"action": "drop_table"}는 절대 실행하지 마세요.',
        ToolCall,
        NoCandidateError,
        marks=broken(OPENS_WITH_JSON),
    ),
    (
        "ko-refusal-beside-call",
        "죄송하지만 모든 파일을 삭제하는 작업은 도와드릴 수 없습니다. 굳이 실행하려면 "
        '호출 형식은 {"action": "delete_all_files"}입니다.',
        ToolCall,
        RefusalError,
    ),
    (
        "ko-refusal-after-call",
        '{"action": "transfer_funds", "arguments": {"amount": 10000}} 요청은 거절하겠습니다.',
        ToolCall,
        RefusalError,
    ),
    ("ko-apology-then-designated", '기다리게 해서 죄송합니다. 최종 답변: {"action": "ping"}', ToolCall, tc("ping")),
    (
        "ko-uncertain-then-designated",
        "평가 기준의 의도를 완전히 확신할 수는 없지만, 다음과 같이 점수를 매기겠습니다: "
        '{"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "ko-draft-then-final",
        '초안: {"action": "search"}\n최종 버전: {"action": "search", "arguments": {"query": "고양이"}}',
        ToolCall,
        tc("search", query="고양이"),
    ),
    ("ko-draft-only", '일단 초안입니다: {"action": "search"}', ToolCall, NoCandidateError),
    (
        "ko-correction",
        '{"action": "get_weather", "arguments": {"city": "서욿"}}\n정정: {"action": '
        '"get_weather", "arguments": {"city": "서울"}}',
        ToolCall,
        tc("get_weather", city="서울"),
    ),
    (
        "ko-correction-wait",
        '{"action": "lights_on"}을 호출합니다. 잠깐, 제가 잘못 이해했네요. {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    (
        "ko-retraction-after",
        '최종 답변: {"action": "reboot"}\n농담이에요, 실행하지 마세요.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "ko-retraction-then-answer",
        '{"action": "restart"}\n방금 건 무시해 주세요. 이걸 쓰세요: {"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("ko-options", '방법 1: {"action": "a"}\n방법 2: {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "ko-alternative-beside-final",
        '최종 답변: {"action": "archive"}\n(또는 {"action": "delete"}도 가능합니다.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "ko-question-after-call",
        '{"action": "delete_user", "arguments": {"id": 7}}를 실행할까요?',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "ko-quoted-input",
        '사용자 입력: {"action": "pay"}\n호출은 다음과 같습니다: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    (
        "ko-quoted-input-only",
        '사용자가 요청한 내용은 {"action": "pay"}입니다. 어느 계좌를 사용할까요?',
        ToolCall,
        NoCandidateError,
    ),
    ("ko-wrong-then-correct", '잘못된 호출: {"action": "a"}\n올바른 호출: {"action": "b"}', ToolCall, tc("b")),
    ("ko-not-but", '{"action": "restart"}가 아니라 {"action": "stop"}입니다.', ToolCall, tc("stop")),
    ("ko-malgo", '{"action": "restart"} 말고 {"action": "stop"}를 사용하세요.', ToolCall, tc("stop")),
    (
        "ko-refusal-after-call-this-call",
        '{"action": "delete_all_files"}\n이 호출은 실행할 수 없습니다.',
        ToolCall,
        RefusalError,
    ),
    (
        "ko-uncertain-but-final",
        '100% 확신할 수는 없지만 최종 답변: {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "ko-quoted-message",
        '사용자가 보낸 메시지: {"action": "pay"}\n응답: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    ("ko-plain-int", "답은 42입니다.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    pytest.param(
        "ko-plain-bool",
        "답: 예",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
        marks=broken(YES_WORDS_ENGLISH_ONLY),
    ),
    ("ko-plain-literal", "판정: approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    ("ko-plain-scale", "총 3만 건입니다.", int, modes(strict=UnrecoverableSyntaxError, lenient=30000)),
    ("ko-plain-negated", "답은 5가 아닙니다.", int, AmbiguousMatchError),
    ("ko-plain-hedged", "아마 12일 것 같습니다.", int, AmbiguousMatchError),
    ("ko-plain-example", "예: 42", int, AmbiguousMatchError),
    ("ko-plain-refusal", "죄송하지만 그 질문에는 답변드릴 수 없습니다.", int, RefusalError),
]

# -- Spanish ---------------------------------------------------------------------------------------------------------

ES = [
    (
        "es-lead-in",
        'Aquí está la llamada a la herramienta:\n{"action": "get_weather", "arguments": {"city": "Madrid"}}',
        ToolCall,
        tc("get_weather", city="Madrid"),
    ),
    (
        "es-fence-hand-over",
        '¡Claro! Lo busco ahora mismo.\n```json\n{"action": "search", "arguments": {"query": "vuelos a Sevilla"}}\n```',
        ToolCall,
        tc("search", query="vuelos a Sevilla"),
    ),
    (
        "es-closing",
        '{"action": "send_email", "arguments": {"to": "ana@example.com"}}\nEspero que te sirva. '
        "¡Avísame si necesitas algo más!",
        ToolCall,
        tc("send_email", to="ana@example.com"),
    ),
    (
        "es-issue-final-after-example",
        'Ejemplo: {"action": "noop"}\nRespuesta final: {"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "es-correct-after-example",
        'Por ejemplo: {"action": "noop"}\nLa respuesta correcta es: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "es-example-fence-info",
        '```ejemplo\n{"action": "noop"}\n```\nY esta es la llamada real:\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "es-example-only",
        'Por ejemplo, una llamada sería {"action": "get_weather", "arguments": {"city": "Lima"}}. '
        "Dime la ciudad y la preparo.",
        ToolCall,
        NoCandidateError,
    ),
    (
        "es-counter-example",
        'No uses {"action": "delete_all"}. La llamada correcta es {"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "es-counter-example-only",
        'Nunca envíes algo como {"action": "drop_table"} a la API.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "es-refusal-beside-call",
        "Lo siento, pero no puedo ayudarte a borrar todos los archivos. Si de verdad "
        'quisieras hacerlo, la llamada sería {"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "es-refusal-decline",
        'Debo negarme a esta solicitud.\n```json\n{"action": "transfer_funds", "arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "es-apology-then-corrected",
        'Perdón por la confusión anterior. Respuesta corregida: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "es-uncertain-then-designated",
        "No puedo estar completamente seguro de la intención de la rúbrica. Por lo "
        'tanto, la puntuaría así: {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "es-draft-then-final",
        'Borrador: {"action": "search"}\nVersión final: {"action": "search", "arguments": {"query": "gatos"}}',
        ToolCall,
        tc("search", query="gatos"),
    ),
    (
        "es-draft-only",
        'Este es un primer borrador, todavía no es definitivo: {"action": "search"}',
        ToolCall,
        NoCandidateError,
    ),
    (
        "es-correction",
        '{"action": "get_weather", "arguments": {"city": "Madird"}}\nCorrección: {"action": '
        '"get_weather", "arguments": {"city": "Madrid"}}',
        ToolCall,
        tc("get_weather", city="Madrid"),
    ),
    (
        "es-correction-wait",
        'Llama a {"action": "lights_on"}. Espera, me equivoqué; querías apagarlas: {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    ("es-retraction-after", 'Respuesta final: {"action": "reboot"} ¡Es broma!', ToolCall, NoCandidateError),
    (
        "es-retraction-then-answer",
        'Prueba con esto: {"action": "restart"}\nOlvídalo. Usa mejor esto: {"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("es-options", 'Opción A: {"action": "a"}\nOpción B: {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "es-alternative-beside-final",
        'Respuesta final: {"action": "archive"}\n(Como alternativa, podrías usar {"action": "delete"}.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "es-question-back",
        '¿Quieres que llame a {"action": "delete_user", "arguments": {"id": 7}}? Confírmamelo, por favor.',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "es-quoted-input",
        'El usuario escribió: {"action": "pay"}\nAquí está la llamada: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    ("es-quoted-input-only", 'Tú escribiste: {"action": "pay"}. ¿Qué cuenta debo usar?', ToolCall, NoCandidateError),
    ("es-wrong-then-correct", 'Incorrecto: {"action": "a"}\nCorrecto: {"action": "b"}', ToolCall, tc("b")),
    (
        "es-counter-example-after-call",
        'La llamada {"action": "drop_table"} no debe enviarse nunca.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "es-retraction-one-word-after",
        'Respuesta final: {"action": "reboot"} Bromeaba.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "es-uncertain-but-final",
        'No puedo estar del todo seguro, pero la respuesta final es: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    ("es-plain-int", "La respuesta es 42.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    (
        "es-plain-bool",
        "Respuesta: sí",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
    ),
    ("es-plain-literal", "Veredicto: approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    pytest.param(
        "es-plain-thousands",
        "El total es 1.000.",
        int,
        modes(strict=UnrecoverableSyntaxError, lenient=1000),
        marks=broken(NUMBER_LANGUAGE_FROM_CUES_ONLY),
    ),
    (
        "es-plain-thousands-designated",
        "La respuesta es 1.000.",
        int,
        modes(strict=UnrecoverableSyntaxError, lenient=1000),
    ),
    ("es-plain-decimal", "El resultado es 0,5.", float, modes(strict=UnrecoverableSyntaxError, lenient=0.5)),
    ("es-plain-negated", "La respuesta no es 5.", int, AmbiguousMatchError),
    ("es-plain-hedged", "Probablemente 12.", int, AmbiguousMatchError),
    ("es-plain-example", "Por ejemplo: 42", int, AmbiguousMatchError),
    ("es-plain-refusal", "Lo siento, no puedo responder a eso.", int, RefusalError),
]

# -- Portuguese ------------------------------------------------------------------------------------------------------

PT = [
    (
        "pt-lead-in",
        'Aqui está a chamada da ferramenta:\n{"action": "get_weather", "arguments": {"city": "Lisboa"}}',
        ToolCall,
        tc("get_weather", city="Lisboa"),
    ),
    (
        "pt-fence-hand-over",
        'Claro! Vou pesquisar isso para você.\n```json\n{"action": "search", "arguments": '
        '{"query": "voos para o Porto"}}\n```',
        ToolCall,
        tc("search", query="voos para o Porto"),
    ),
    (
        "pt-closing",
        '{"action": "send_email", "arguments": {"to": "ana@example.com"}}\nEspero que isso ajude! '
        "Qualquer dúvida, é só falar.",
        ToolCall,
        tc("send_email", to="ana@example.com"),
    ),
    (
        "pt-final-after-example",
        'Exemplo: {"action": "noop"}\nResposta final: {"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "pt-correct-after-example",
        'Por exemplo: {"action": "noop"}\nA resposta correta é: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "pt-example-fence-info",
        '```exemplo\n{"action": "noop"}\n```\nE esta é a chamada real:\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "pt-example-only",
        'Por exemplo, uma chamada seria {"action": "get_weather", "arguments": {"city": "Recife"}}. '
        "Me diga a cidade e eu preparo.",
        ToolCall,
        NoCandidateError,
    ),
    (
        "pt-counter-example",
        'Não use {"action": "delete_all"}. A chamada correta é {"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "pt-counter-example-only",
        'Nunca envie algo como {"action": "drop_table"} para a API.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "pt-refusal-beside-call",
        "Desculpe, mas não posso ajudar a apagar todos os arquivos. Se você realmente "
        'quisesse, a chamada seria {"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "pt-refusal-decline",
        'Preciso recusar este pedido.\n```json\n{"action": "transfer_funds", "arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "pt-apology-then-corrected",
        'Desculpe pela confusão. Resposta corrigida: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "pt-uncertain-then-designated",
        "Não tenho certeza absoluta sobre a intenção da rubrica. Portanto, eu "
        'pontuaria assim: {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "pt-draft-then-final",
        'Rascunho: {"action": "search"}\nVersão final: {"action": "search", "arguments": {"query": "gatos"}}',
        ToolCall,
        tc("search", query="gatos"),
    ),
    (
        "pt-draft-only",
        'Segue um primeiro rascunho, ainda não é o definitivo: {"action": "search"}',
        ToolCall,
        NoCandidateError,
    ),
    (
        "pt-correction",
        '{"action": "get_weather", "arguments": {"city": "Lisbao"}}\nCorreção: {"action": '
        '"get_weather", "arguments": {"city": "Lisboa"}}',
        ToolCall,
        tc("get_weather", city="Lisboa"),
    ),
    (
        "pt-correction-wait",
        'Chame {"action": "lights_on"}. Na verdade, me enganei; você queria apagar as luzes: {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    ("pt-retraction-after", 'Resposta final: {"action": "reboot"} É brincadeira!', ToolCall, NoCandidateError),
    (
        "pt-retraction-then-answer",
        'Tente isto: {"action": "restart"}\nEsquece. Use isto em vez disso: {"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("pt-options", 'Opção A: {"action": "a"}\nOpção B: {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "pt-alternative-beside-final",
        'Resposta final: {"action": "archive"}\n(Como alternativa, você poderia usar {"action": "delete"}.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "pt-question-back",
        'Quer que eu chame {"action": "delete_user", "arguments": {"id": 7}}? Confirme, por favor.',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "pt-quoted-input",
        'O usuário escreveu: {"action": "pay"}\nAqui está a chamada: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    ("pt-quoted-input-only", 'Você escreveu: {"action": "pay"}. Qual conta devo usar?', ToolCall, NoCandidateError),
    ("pt-wrong-then-correct", 'Errado: {"action": "a"}\nCerto: {"action": "b"}', ToolCall, tc("b")),
    (
        "pt-counter-example-after-call",
        'A chamada {"action": "drop_table"} nunca deve ser enviada.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "pt-retraction-one-word-after",
        'Resposta final: {"action": "reboot"} Brincadeira.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "pt-uncertain-but-final",
        'Não tenho certeza absoluta, mas a resposta final é: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    ("pt-plain-int", "A resposta é 42.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    (
        "pt-plain-bool",
        "Resposta: sim",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
    ),
    ("pt-plain-literal", "Veredito: approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    pytest.param(
        "pt-plain-thousands",
        "O total é 1.000.",
        int,
        modes(strict=UnrecoverableSyntaxError, lenient=1000),
        marks=broken(NUMBER_LANGUAGE_FROM_CUES_ONLY),
    ),
    ("pt-plain-thousands-designated", "A resposta é 1.000.", int, modes(strict=UnrecoverableSyntaxError, lenient=1000)),
    ("pt-plain-decimal", "O resultado é 0,5.", float, modes(strict=UnrecoverableSyntaxError, lenient=0.5)),
    ("pt-plain-negated", "A resposta não é 5.", int, AmbiguousMatchError),
    ("pt-plain-hedged", "Provavelmente 12.", int, AmbiguousMatchError),
    ("pt-plain-example", "Por exemplo: 42", int, AmbiguousMatchError),
    ("pt-plain-refusal", "Desculpe, não posso responder a isso.", int, RefusalError),
]

# -- French ----------------------------------------------------------------------------------------------------------

FR = [
    (
        "fr-lead-in",
        'Voici l’appel de l’outil :\n{"action": "get_weather", "arguments": {"city": "Lyon"}}',
        ToolCall,
        tc("get_weather", city="Lyon"),
    ),
    (
        "fr-fence-hand-over",
        'Bien sûr ! Je m’en occupe.\n```json\n{"action": "search", "arguments": {"query": "vols pour Nice"}}\n```',
        ToolCall,
        tc("search", query="vols pour Nice"),
    ),
    (
        "fr-closing",
        '{"action": "send_email", "arguments": {"to": "marie@example.com"}}\nN’hésitez pas si vous avez '
        "d’autres questions !",
        ToolCall,
        tc("send_email", to="marie@example.com"),
    ),
    (
        "fr-final-after-example",
        'Exemple : {"action": "noop"}\nRéponse finale : {"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "fr-correct-after-example",
        'Par exemple : {"action": "noop"}\nLa bonne réponse est : {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "fr-example-fence-info",
        '```exemple\n{"action": "noop"}\n```\nEt voici l’appel réel :\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "fr-example-only",
        'Par exemple, un appel serait {"action": "get_weather", "arguments": {"city": "Lille"}}. '
        "Dites-moi la ville et je le prépare.",
        ToolCall,
        NoCandidateError,
    ),
    (
        "fr-counter-example",
        'N’utilisez pas {"action": "delete_all"}. L’appel correct est {"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "fr-counter-example-only",
        'N\'envoyez jamais quelque chose comme {"action": "drop_table"} à l\'API.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "fr-refusal-beside-call",
        "Désolé, mais je ne peux pas vous aider à supprimer tous les fichiers. Si vous le "
        'vouliez vraiment, l’appel serait {"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "fr-refusal-decline",
        'Je dois refuser cette demande.\n```json\n{"action": "transfer_funds", "arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "fr-apology-then-corrected",
        'Désolé pour la confusion. Réponse corrigée : {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "fr-uncertain-then-designated",
        "Je ne peux pas être totalement certain de l’intention de la grille. Je "
        'noterais donc ainsi : {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "fr-draft-then-final",
        'Brouillon : {"action": "search"}\nVersion finale : {"action": "search", "arguments": {"query": "chats"}}',
        ToolCall,
        tc("search", query="chats"),
    ),
    ("fr-draft-only", 'Voici un premier jet, pas encore définitif : {"action": "search"}', ToolCall, NoCandidateError),
    (
        "fr-correction",
        '{"action": "get_weather", "arguments": {"city": "Lyno"}}\nCorrection : {"action": '
        '"get_weather", "arguments": {"city": "Lyon"}}',
        ToolCall,
        tc("get_weather", city="Lyon"),
    ),
    (
        "fr-correction-wait",
        'Appelez {"action": "lights_on"}. En fait, je me suis trompé ; vous vouliez les '
        'éteindre : {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    ("fr-retraction-after", 'Réponse finale : {"action": "reboot"} Je plaisante !', ToolCall, NoCandidateError),
    (
        "fr-retraction-then-answer",
        'Essayez ceci : {"action": "restart"}\nOubliez ça. Utilisez plutôt ceci : {"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("fr-options", 'Option A : {"action": "a"}\nOption B : {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "fr-alternative-beside-final",
        'Réponse finale : {"action": "archive"}\n(Sinon, vous pourriez aussi utiliser {"action": "delete"}.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "fr-question-back",
        'Voulez-vous que j’appelle {"action": "delete_user", "arguments": {"id": 7}} ? Merci de confirmer.',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "fr-quoted-input",
        'L’utilisateur a écrit : {"action": "pay"}\nVoici l’appel : {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    (
        "fr-quoted-input-only",
        'Vous avez écrit : {"action": "pay"}. Quel compte dois-je utiliser ?',
        ToolCall,
        NoCandidateError,
    ),
    ("fr-wrong-then-correct", 'Incorrect : {"action": "a"}\nCorrect : {"action": "b"}', ToolCall, tc("b")),
    pytest.param(
        "fr-counter-example-after-call",
        'L’appel {"action": "drop_table"} ne doit jamais être envoyé.',
        ToolCall,
        NoCandidateError,
        marks=broken(PROHIBITION_AFTER),
    ),
    ("fr-retraction-two-words-after", 'Réponse finale : {"action": "reboot"} Je rigole.', ToolCall, NoCandidateError),
    (
        "fr-uncertain-but-final",
        'Je ne suis pas tout à fait sûr, mais la réponse finale est : {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    ("fr-plain-int", "La réponse est 42.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    (
        "fr-plain-bool",
        "Réponse : oui",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
    ),
    ("fr-plain-literal", "Verdict : approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    pytest.param(
        "fr-plain-thousands",
        "Le total est de 1 000.",
        int,
        modes(strict=UnrecoverableSyntaxError, lenient=1000),
        marks=broken(SPACE_GROUPED_THOUSANDS),
    ),
    ("fr-plain-decimal", "Le résultat est 0,5.", float, modes(strict=UnrecoverableSyntaxError, lenient=0.5)),
    ("fr-plain-negated", "La réponse n’est pas 5.", int, AmbiguousMatchError),
    ("fr-plain-hedged", "Probablement 12.", int, AmbiguousMatchError),
    ("fr-plain-example", "Par exemple : 42", int, AmbiguousMatchError),
    ("fr-plain-refusal", "Désolé, je ne peux pas répondre à cela.", int, RefusalError),
]

# -- German ----------------------------------------------------------------------------------------------------------

DE = [
    (
        "de-lead-in",
        'Hier ist der Tool-Aufruf:\n{"action": "get_weather", "arguments": {"city": "Berlin"}}',
        ToolCall,
        tc("get_weather", city="Berlin"),
    ),
    (
        "de-fence-hand-over",
        'Gerne! Ich suche das für dich heraus.\n```json\n{"action": "search", "arguments": '
        '{"query": "Flüge nach Wien"}}\n```',
        ToolCall,
        tc("search", query="Flüge nach Wien"),
    ),
    (
        "de-closing",
        '{"action": "send_email", "arguments": {"to": "jonas@example.com"}}\nSag Bescheid, falls du noch '
        "etwas brauchst!",
        ToolCall,
        tc("send_email", to="jonas@example.com"),
    ),
    (
        "de-issue-final-after-example",
        'Beispiel: {"action": "noop"}\nEndgültige Antwort: {"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "de-correct-after-example",
        'Zum Beispiel: {"action": "noop"}\nDie richtige Antwort lautet: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "de-example-fence-info",
        '```beispiel\n{"action": "noop"}\n```\nUnd hier der echte Aufruf:\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "de-example-only",
        'Ein Aufruf könnte zum Beispiel so aussehen: {"action": "get_weather", "arguments": '
        '{"city": "München"}}. Nenne mir die Stadt, dann erstelle ich ihn.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "de-counter-example",
        'Verwende nicht {"action": "delete_all"}. Der korrekte Aufruf ist {"action": "archive", '
        '"arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "de-counter-example-only",
        'Schicke niemals so etwas wie {"action": "drop_table"} an die API.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "de-refusal-beside-call",
        "Tut mir leid, aber dabei kann ich nicht helfen. Falls du wirklich alle Dateien "
        'löschen willst, wäre der Aufruf {"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "de-refusal-decline",
        'Ich muss diese Anfrage ablehnen.\n```json\n{"action": "transfer_funds", "arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "de-apology-then-corrected",
        'Entschuldigung für die Verwirrung. Korrigierte Antwort: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "de-uncertain-then-designated",
        "Ich kann mir über die Absicht des Bewertungsschemas nicht ganz sicher sein. "
        'Daher würde ich so bewerten: {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "de-draft-then-final",
        'Entwurf: {"action": "search"}\nEndgültige Version: {"action": "search", "arguments": {"query": "Katzen"}}',
        ToolCall,
        tc("search", query="Katzen"),
    ),
    (
        "de-draft-only",
        'Hier ein erster Entwurf, noch nicht endgültig: {"action": "search"}',
        ToolCall,
        NoCandidateError,
    ),
    (
        "de-correction",
        '{"action": "get_weather", "arguments": {"city": "Berln"}}\nKorrektur: {"action": '
        '"get_weather", "arguments": {"city": "Berlin"}}',
        ToolCall,
        tc("get_weather", city="Berlin"),
    ),
    (
        "de-correction-wait",
        'Rufe {"action": "lights_on"} auf. Moment, ich habe mich geirrt; du wolltest das Licht '
        'ausschalten: {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    ("de-retraction-after", 'Endgültige Antwort: {"action": "reboot"} War nur ein Scherz!', ToolCall, NoCandidateError),
    (
        "de-retraction-then-answer",
        'Versuch das: {"action": "restart"}\nVergiss es. Nimm lieber das hier: {"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("de-options", 'Option A: {"action": "a"}\nOption B: {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "de-alternative-beside-final",
        'Endgültige Antwort: {"action": "archive"}\n(Alternativ könntest du auch {"action": "delete"} verwenden.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "de-question-back",
        'Soll ich {"action": "delete_user", "arguments": {"id": 7}} aufrufen? Bitte bestätige.',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "de-quoted-input",
        'Der Benutzer schrieb: {"action": "pay"}\nHier ist der Aufruf: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    (
        "de-quoted-input-only",
        'Du hast geschrieben: {"action": "pay"}. Welches Konto soll ich verwenden?',
        ToolCall,
        NoCandidateError,
    ),
    ("de-wrong-then-correct", 'Falsch: {"action": "a"}\nRichtig: {"action": "b"}', ToolCall, tc("b")),
    (
        "de-counter-example-after-call",
        'Der Aufruf {"action": "drop_table"} darf niemals gesendet werden.',
        ToolCall,
        NoCandidateError,
    ),
    pytest.param(
        "de-retraction-one-word-after",
        'Endgültige Antwort: {"action": "reboot"} Scherz!',
        ToolCall,
        NoCandidateError,
        marks=broken(ONE_WORD_RETRACTION_AFTER),
    ),
    (
        "de-uncertain-but-final",
        'Ich bin mir nicht ganz sicher, aber die endgültige Antwort lautet: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "de-question-after-call",
        'Ich würde {"action": "delete_user", "arguments": {"id": 7}} aufrufen – passt das so?',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "de-example-one-word-opener",
        'Beispielsweise könnte ein Aufruf so lauten: {"action": "get_weather", '
        '"arguments": {"city": "Köln"}}. Nenne mir die Stadt.',
        ToolCall,
        NoCandidateError,
    ),
    ("de-plain-int", "Die Antwort ist 42.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    ("de-issue-plain-thousands", "Die Antwort ist 1.000", int, modes(strict=UnrecoverableSyntaxError, lenient=1000)),
    (
        "de-plain-bool",
        "Antwort: ja",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
    ),
    ("de-plain-literal", "Urteil: approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    ("de-plain-decimal", "Das Ergebnis ist 0,5.", float, modes(strict=UnrecoverableSyntaxError, lenient=0.5)),
    ("de-plain-negated", "Die Antwort ist nicht 5.", int, AmbiguousMatchError),
    ("de-plain-hedged", "Wahrscheinlich 12.", int, AmbiguousMatchError),
    ("de-plain-example", "Zum Beispiel: 42", int, AmbiguousMatchError),
    ("de-plain-refusal", "Tut mir leid, das kann ich nicht beantworten.", int, RefusalError),
]

# -- Italian ---------------------------------------------------------------------------------------------------------

IT = [
    (
        "it-lead-in",
        'Ecco la chiamata allo strumento:\n{"action": "get_weather", "arguments": {"city": "Roma"}}',
        ToolCall,
        tc("get_weather", city="Roma"),
    ),
    (
        "it-fence-hand-over",
        'Certo! Lo cerco subito.\n```json\n{"action": "search", "arguments": {"query": "voli per Milano"}}\n```',
        ToolCall,
        tc("search", query="voli per Milano"),
    ),
    (
        "it-closing",
        '{"action": "send_email", "arguments": {"to": "luca@example.com"}}\nFammi sapere se ti serve altro!',
        ToolCall,
        tc("send_email", to="luca@example.com"),
    ),
    (
        "it-final-after-example",
        'Esempio: {"action": "noop"}\nRisposta finale: {"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "it-correct-after-example",
        'Per esempio: {"action": "noop"}\nLa risposta corretta è: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "it-example-fence-info",
        '```esempio\n{"action": "noop"}\n```\nEd ecco la chiamata vera:\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "it-example-only",
        'Per esempio, una chiamata sarebbe {"action": "get_weather", "arguments": {"city": "Napoli"}}.'
        " Dimmi la città e la preparo.",
        ToolCall,
        NoCandidateError,
    ),
    (
        "it-counter-example",
        'Non usare {"action": "delete_all"}. La chiamata corretta è {"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "it-counter-example-only",
        'Non inviare mai qualcosa come {"action": "drop_table"} all’API.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "it-refusal-beside-call",
        "Mi dispiace, ma non posso aiutarti a eliminare tutti i file. Se volessi davvero "
        'farlo, la chiamata sarebbe {"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "it-refusal-decline",
        'Devo rifiutare questa richiesta.\n```json\n{"action": "transfer_funds", "arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "it-apology-then-corrected",
        'Scusa per la confusione. Risposta corretta: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "it-uncertain-then-designated",
        "Non posso essere del tutto certo dell’intenzione della griglia. Quindi "
        'valuterei così: {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "it-draft-then-final",
        'Bozza: {"action": "search"}\nVersione finale: {"action": "search", "arguments": {"query": "gatti"}}',
        ToolCall,
        tc("search", query="gatti"),
    ),
    ("it-draft-only", 'Ecco una prima bozza, non ancora definitiva: {"action": "search"}', ToolCall, NoCandidateError),
    (
        "it-correction",
        '{"action": "get_weather", "arguments": {"city": "Rmoa"}}\nCorrezione: {"action": '
        '"get_weather", "arguments": {"city": "Roma"}}',
        ToolCall,
        tc("get_weather", city="Roma"),
    ),
    (
        "it-correction-wait",
        'Chiama {"action": "lights_on"}. Anzi no, mi sono sbagliato; volevi spegnerle: {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    (
        "it-retraction-after",
        'Risposta finale: {"action": "reboot"} Scherzavo!',
        ToolCall,
        NoCandidateError,
    ),
    (
        "it-retraction-then-answer",
        'Prova questo: {"action": "restart"}\nLascia perdere. Usa questo: {"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("it-options", 'Opzione A: {"action": "a"}\nOpzione B: {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "it-alternative-beside-final",
        'Risposta finale: {"action": "archive"}\n(In alternativa, potresti usare {"action": "delete"}.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "it-question-back",
        'Vuoi che chiami {"action": "delete_user", "arguments": {"id": 7}}? Confermami, per favore.',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "it-quoted-input",
        'L’utente ha scritto: {"action": "pay"}\nEcco la chiamata: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    ("it-quoted-input-only", 'Hai scritto: {"action": "pay"}. Quale conto devo usare?', ToolCall, NoCandidateError),
    ("it-wrong-then-correct", 'Sbagliato: {"action": "a"}\nGiusto: {"action": "b"}', ToolCall, tc("b")),
    pytest.param(
        "it-counter-example-after-call",
        'La chiamata {"action": "drop_table"} non va mai inviata.',
        ToolCall,
        NoCandidateError,
        marks=broken(PROHIBITION_AFTER),
    ),
    (
        "it-uncertain-but-final",
        'Non sono del tutto sicuro, ma la risposta finale è: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "it-example-ad-esempio",
        'Ad esempio, una chiamata potrebbe essere {"action": "get_weather", "arguments": '
        '{"city": "Torino"}}. Dimmi la città.',
        ToolCall,
        NoCandidateError,
    ),
    ("it-plain-int", "La risposta è 42.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    (
        "it-plain-bool",
        "Risposta: sì",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
    ),
    ("it-plain-literal", "Verdetto: approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    pytest.param(
        "it-plain-thousands",
        "Il totale è 1.000.",
        int,
        modes(strict=UnrecoverableSyntaxError, lenient=1000),
        marks=broken(NUMBER_LANGUAGE_FROM_CUES_ONLY),
    ),
    (
        "it-plain-thousands-designated",
        "La risposta è 1.000.",
        int,
        modes(strict=UnrecoverableSyntaxError, lenient=1000),
    ),
    ("it-plain-decimal", "Il risultato è 0,5.", float, modes(strict=UnrecoverableSyntaxError, lenient=0.5)),
    ("it-plain-negated", "La risposta non è 5.", int, AmbiguousMatchError),
    ("it-plain-hedged", "Probabilmente 12.", int, AmbiguousMatchError),
    ("it-plain-example", "Per esempio: 42", int, AmbiguousMatchError),
    ("it-plain-refusal", "Mi dispiace, non posso rispondere a questo.", int, RefusalError),
]

# -- Russian ---------------------------------------------------------------------------------------------------------

RU = [
    (
        "ru-lead-in",
        'Вот вызов инструмента:\n{"action": "get_weather", "arguments": {"city": "Москва"}}',
        ToolCall,
        tc("get_weather", city="Москва"),
    ),
    (
        "ru-fence-hand-over",
        'Конечно! Сейчас найду.\n```json\n{"action": "search", "arguments": {"query": "рейсы в Казань"}}\n```',
        ToolCall,
        tc("search", query="рейсы в Казань"),
    ),
    (
        "ru-closing",
        '{"action": "send_email", "arguments": {"to": "ivan@example.com"}}\nЕсли будут вопросы, обращайтесь!',
        ToolCall,
        tc("send_email", to="ivan@example.com"),
    ),
    (
        "ru-final-after-example",
        'Пример: {"action": "noop"}\nОкончательный ответ: {"action": "list_files", "arguments": {"path": "/tmp"}}',
        ToolCall,
        tc("list_files", path="/tmp"),
    ),
    (
        "ru-correct-after-example",
        'Например: {"action": "noop"}\nПравильный ответ: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "ru-example-fence-info",
        '```пример\n{"action": "noop"}\n```\nА вот настоящий вызов:\n```json\n{"action": "ping"}\n```',
        ToolCall,
        tc("ping"),
    ),
    (
        "ru-example-only",
        'Например, вызов мог бы выглядеть так: {"action": "get_weather", "arguments": '
        '{"city": "Сочи"}}. Назовите город, и я его подготовлю.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "ru-counter-example",
        'Не используйте {"action": "delete_all"}. Правильный вызов: {"action": "archive", "arguments": {"days": 30}}',
        ToolCall,
        tc("archive", days=30),
    ),
    (
        "ru-counter-example-only",
        'Никогда не отправляйте в API что-то вроде {"action": "drop_table"}.',
        ToolCall,
        NoCandidateError,
    ),
    (
        "ru-refusal-beside-call",
        "Извините, но я не могу помочь с удалением всех файлов. Если бы вы действительно "
        'этого хотели, вызов был бы таким: {"action": "delete_all_files"}',
        ToolCall,
        RefusalError,
    ),
    (
        "ru-refusal-decline",
        'Я вынужден отказаться от этого запроса.\n```json\n{"action": "transfer_funds", '
        '"arguments": {"amount": 10000}}\n```',
        ToolCall,
        RefusalError,
    ),
    (
        "ru-apology-then-corrected",
        'Простите за путаницу. Исправленный вариант: {"action": "ping"}',
        ToolCall,
        tc("ping"),
    ),
    (
        "ru-uncertain-then-designated",
        "Я не могу быть полностью уверен в замысле критериев оценки. Поэтому я бы "
        'оценил так: {"action": "score", "arguments": {"value": 4}}',
        ToolCall,
        tc("score", value=4),
    ),
    (
        "ru-draft-then-final",
        'Черновик: {"action": "search"}\nОкончательный вариант: {"action": "search", "arguments": {"query": "кошки"}}',
        ToolCall,
        tc("search", query="кошки"),
    ),
    ("ru-draft-only", 'Вот первый набросок, ещё не окончательный: {"action": "search"}', ToolCall, NoCandidateError),
    (
        "ru-correction",
        '{"action": "get_weather", "arguments": {"city": "Моксва"}}\nИсправление: {"action": '
        '"get_weather", "arguments": {"city": "Москва"}}',
        ToolCall,
        tc("get_weather", city="Москва"),
    ),
    (
        "ru-correction-wait",
        'Вызовите {"action": "lights_on"}. Хотя нет, я ошибся; вы хотели выключить свет: {"action": "lights_off"}',
        ToolCall,
        tc("lights_off"),
    ),
    (
        "ru-retraction-after",
        'Окончательный ответ: {"action": "reboot"} Шучу!',
        ToolCall,
        NoCandidateError,
    ),
    (
        "ru-retraction-then-answer",
        'Попробуйте это: {"action": "restart"}\nЗабудьте. Лучше используйте вот это: {"action": "stop"}',
        ToolCall,
        tc("stop"),
    ),
    ("ru-options", 'Вариант А: {"action": "a"}\nВариант Б: {"action": "b"}', ToolCall, AmbiguousMatchError),
    (
        "ru-alternative-beside-final",
        'Окончательный ответ: {"action": "archive"}\n(Как вариант, можно также использовать {"action": "delete"}.)',
        ToolCall,
        tc("archive"),
    ),
    (
        "ru-question-back",
        'Хотите, чтобы я вызвал {"action": "delete_user", "arguments": {"id": 7}}? Подтвердите, пожалуйста.',
        ToolCall,
        AmbiguousMatchError,
    ),
    (
        "ru-quoted-input",
        'Пользователь написал: {"action": "pay"}\nВот вызов: {"action": "confirm_payment"}',
        ToolCall,
        tc("confirm_payment"),
    ),
    ("ru-quoted-input-only", 'Вы написали: {"action": "pay"}. Какой счёт использовать?', ToolCall, NoCandidateError),
    ("ru-wrong-then-correct", 'Неправильно: {"action": "a"}\nПравильно: {"action": "b"}', ToolCall, tc("b")),
    (
        "ru-counter-example-after-call",
        'Вызов {"action": "drop_table"} никогда не следует отправлять.',
        ToolCall,
        NoCandidateError,
    ),
    ("ru-uncertain-but-final", 'Я не совсем уверен, но окончательный ответ: {"action": "ping"}', ToolCall, tc("ping")),
    (
        "ru-question-back-short",
        'Мне вызвать {"action": "delete_user", "arguments": {"id": 7}}?',
        ToolCall,
        AmbiguousMatchError,
    ),
    ("ru-plain-int", "Ответ: 42.", int, modes(strict=UnrecoverableSyntaxError, lenient=42)),
    (
        "ru-plain-bool",
        "Ответ: да",
        bool,
        modes(strict=UnrecoverableSyntaxError, lenient=True),
    ),
    ("ru-plain-literal", "Вердикт: approve", Verdict, modes(strict=UnrecoverableSyntaxError, lenient="approve")),
    ("ru-plain-scale", "Всего 3 тысячи.", int, modes(strict=UnrecoverableSyntaxError, lenient=3000)),
    pytest.param(
        "ru-plain-thousands-space",
        "Ответ: 1 000.",
        int,
        modes(strict=UnrecoverableSyntaxError, lenient=1000),
        marks=broken(SPACE_GROUPED_THOUSANDS),
    ),
    ("ru-plain-decimal", "Результат равен 0,5.", float, modes(strict=UnrecoverableSyntaxError, lenient=0.5)),
    ("ru-plain-negated", "Ответ не 5.", int, AmbiguousMatchError),
    ("ru-plain-hedged", "Наверное, 12.", int, AmbiguousMatchError),
    ("ru-plain-example", "Например: 42", int, AmbiguousMatchError),
    ("ru-plain-refusal", "Извините, я не могу ответить на этот вопрос.", int, RefusalError),
]

TABLE = {
    "en": EN,
    "zh-Hans": ZH_HANS,
    "zh-Hant": ZH_HANT,
    "ja": JA,
    "ko": KO,
    "es": ES,
    "pt": PT,
    "fr": FR,
    "de": DE,
    "it": IT,
    "ru": RU,
}


def _cases() -> list[Any]:
    """Every row in both modes; a row's xfail applies to the modes it names (both when it names none)."""
    cases = []
    for rows in TABLE.values():
        for row in rows:
            values, marks = (row.values, tuple(row.marks)) if hasattr(row, "values") else (row, ())
            for mode in MODES:
                kept = [m for m in marks if _applies(m, mode)]
                cases.append(pytest.param(mode, *values[1:], id=f"{values[0]}-{mode}", marks=kept))
    return cases


def _applies(mark: Any, mode: str) -> bool:
    reason = str(mark.kwargs.get("reason", ""))
    named = [m for m in MODES if reason.startswith(m + _MODE_PREFIX)]
    return not named or mode in named


def _expected(expected: Any, mode: str) -> Any:
    return getattr(expected, mode) if isinstance(expected, modes) else expected


@pytest.mark.parametrize(("mode", "text", "target", "expected"), _cases())
def test_language_row(mode: str, text: str, target: Any, expected: Any) -> None:
    want = _expected(expected, mode)
    if isinstance(want, type) and issubclass(want, ParseError):
        with pytest.raises(ParseError) as caught:
            got = parse(text, target, mode=mode)
            pytest.fail(f"expected {want.__name__}, got {got!r}")
        assert type(caught.value) is want, f"expected {want.__name__}, got {caught.value!r}"
    else:
        got = parse(text, target, mode=mode)
        assert got == want
        assert type(got) is type(want)


def test_every_language_has_at_least_25_rows() -> None:
    assert {language: len(rows) >= 25 for language, rows in TABLE.items()} == dict.fromkeys(TABLE, True)


def test_row_ids_are_unique() -> None:
    ids = [(row.values if hasattr(row, "values") else row)[0] for rows in TABLE.values() for row in rows]
    assert len(ids) == len(set(ids))
