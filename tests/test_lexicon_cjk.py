"""The Chinese (Simplified and Traditional), Japanese and Korean lexicon tables: each finds its cues over the right
span, benign answer prose in each language raises no cue that would exclude a candidate, and every table covers
every category."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from resilient_parse.text.lexicon import CATEGORIES, expand, lexicon, load_table, normalise

TABLES = {"zh-Hans": "zh_hans", "zh-Hant": "zh_hant", "ja": "ja", "ko": "ko"}

EXCLUDING = frozenset(
    {"example", "counter_example", "rejected", "draft", "retraction", "refusal", "question", "quoted_input"}
)
"""The categories whose cue takes a candidate out of the running: benign prose must raise none of them."""


def table(language: str) -> ModuleType:
    return importlib.import_module(f"resilient_parse.text.lexicon.{TABLES[language]}")


def numbered(keys: list[str]) -> list[str]:
    """Readable ASCII test ids (pytest escapes CJK in ids): each key with its running number, zh-Hans-example-2."""
    seen: dict[str, int] = {}
    ids = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        ids.append(f"{key}-{seen[key]}")
    return ids


# (language, text, the phrase the cue spans, its category)
CUES = [
    # Simplified Chinese
    ("zh-Hans", "以下是你要的JSON：", "以下是", "lead_in"),
    ("zh-Hans", "好的，这是结果：", "好的，", "lead_in"),
    ("zh-Hans", "根据你的要求，输出如下：", "如下", "lead_in"),
    ("zh-Hans", "各项比例如下：", "比例如下", "lead_in"),
    ("zh-Hans", "如有其他问题，请随时告诉我。", "如有其他问题", "closing"),
    ("zh-Hans", "希望对你有帮助！", "希望对你有帮助", "closing"),
    ("zh-Hans", "这是一个JSON对象：", "一个JSON对象", "description"),
    ("zh-Hans", "按照要求的格式返回：", "按照要求的格式", "description"),
    ("zh-Hans", "最终答案：42", "最终答案", "designation"),
    ("zh-Hans", "修正后的JSON如下：", "修正后的", "designation"),
    ("zh-Hans", '例如：{"a": 1}', "例如", "example"),
    ("zh-Hans", '示例：{"a": 1}', "示例", "example"),
    ("zh-Hans", "比如这样写：", "比如", "example"),
    ("zh-Hans", '例：{"a": 1}', "例：", "example"),
    ("zh-Hans", "或者也可以这样：", "或者", "alternative"),
    ("zh-Hans", "另一种写法是：", "另一种", "alternative"),
    ("zh-Hans", "不要输出这个JSON：", "不要输出", "counter_example"),
    ("zh-Hans", "请勿使用以下格式：", "请勿", "counter_example"),
    ("zh-Hans", "错误示例：", "错误示例", "counter_example"),
    ("zh-Hans", "这个答案是错误的。", "错误的", "rejected"),
    ("zh-Hans", "这个调用不正确。", "不正确", "rejected"),
    ("zh-Hans", "草稿：", "草稿", "draft"),
    ("zh-Hans", "第一次尝试：", "第一次尝试", "draft"),
    ("zh-Hans", "更正：正确的值是6。", "更正", "correction"),
    ("zh-Hans", "其实应该是7。", "其实", "correction"),
    ("zh-Hans", "开玩笑的，真正的答案是8。", "开玩笑的", "retraction"),
    ("zh-Hans", "算了，还是用这个吧。", "算了，还是", "retraction"),
    ("zh-Hans", "忽略上面的内容。", "忽略上面", "retraction"),
    ("zh-Hans", "抱歉，我无法完成这个请求。", "抱歉，我无法", "refusal"),
    ("zh-Hans", "很抱歉，但我不能帮你做这个。", "抱歉，但我不能", "refusal"),
    ("zh-Hans", "我无法执行该操作。", "我无法执行", "refusal"),
    ("zh-Hans", "要不要我帮你改成数组？", "要不要", "question"),
    ("zh-Hans", "是否需要添加注释？", "是否需要", "question"),
    ("zh-Hans", "抱歉。", "抱歉", "apology"),
    ("zh-Hans", "不好意思，这个我不清楚。", "不好意思", "apology"),
    ("zh-Hans", "作为一个AI助手，我来帮你。", "作为一个AI助手", "apology"),
    ("zh-Hans", "可能是42。", "可能", "hedge"),
    ("zh-Hans", "我觉得答案是5。", "我觉得", "hedge"),
    ("zh-Hans", "至少3个", "至少", "bound"),
    ("zh-Hans", "不超过10", "不超过", "bound"),
    ("zh-Hans", "不是5", "不是", "negation"),
    ("zh-Hans", "找不到文件", "找不到", "negation"),
    ("zh-Hans", "用户请求：把它转换成JSON", "用户请求", "quoted_input"),
    ("zh-Hans", "用户的问题是：", "用户的问题", "quoted_input"),
    ("zh-Hans", "上面的JSON是错误的。", "上面的", "reference"),
    # Traditional Chinese (Taiwan, Hong Kong)
    ("zh-Hant", "以下是您要的JSON：", "以下是", "lead_in"),
    ("zh-Hant", "好的，這是結果：", "這是", "lead_in"),
    ("zh-Hant", "根據您的需求，輸出如下：", "根據您的需求", "lead_in"),
    ("zh-Hant", "希望這對您有所幫助！", "希望這對您有所幫助", "closing"),
    ("zh-Hant", "如有其他問題，歡迎隨時提問。", "如有其他問題", "closing"),
    ("zh-Hant", "請依照要求的格式回傳：", "依照要求的格式", "description"),
    ("zh-Hant", "最終答案：42", "最終答案", "designation"),
    ("zh-Hant", "修正後的JSON如下：", "修正後的", "designation"),
    ("zh-Hant", '範例：{"a": 1}', "範例", "example"),
    ("zh-Hant", "舉個例子：", "舉個例子", "example"),
    ("zh-Hant", "請參考這個範本：", "範本", "example"),
    ("zh-Hant", "另一種寫法是：", "另一種", "alternative"),
    ("zh-Hant", "請勿使用以下格式：", "請勿", "counter_example"),
    ("zh-Hant", "錯誤示範：", "錯誤示範", "counter_example"),
    ("zh-Hant", "不要輸出這個：", "不要輸出", "counter_example"),
    ("zh-Hant", "這是錯誤的：", "錯誤的", "rejected"),
    ("zh-Hant", "這個值無效。", "無效", "rejected"),
    ("zh-Hant", "初稿：", "初稿", "draft"),
    ("zh-Hant", "第一次嘗試：", "第一次嘗試", "draft"),
    ("zh-Hant", "等一下，我算錯了。", "等一下", "correction"),
    ("zh-Hant", "開玩笑的，真正的答案是8。", "開玩笑的", "retraction"),
    ("zh-Hant", "當我沒說。", "當我沒說", "retraction"),
    ("zh-Hant", "抱歉，我無法完成這個請求。", "抱歉，我無法", "refusal"),
    ("zh-Hant", "很抱歉，我沒辦法協助這個要求。", "抱歉，我沒辦法", "refusal"),
    ("zh-Hant", "恕我無法提供。", "恕我無法", "refusal"),
    ("zh-Hant", "請問您是想要陣列嗎？", "請問", "question"),
    ("zh-Hant", "需不需要加上註解？", "需不需要", "question"),
    ("zh-Hant", "對不起。", "對不起", "apology"),
    ("zh-Hant", "很遺憾，這超出了範圍。", "很遺憾", "apology"),
    ("zh-Hant", "我覺得答案是5。", "我覺得", "hedge"),
    ("zh-Hant", "應該是42。", "應該是", "hedge"),
    ("zh-Hant", "超過10個", "超過", "bound"),
    ("zh-Hant", "大約100個", "大約", "bound"),
    ("zh-Hant", "並非5", "並非", "negation"),
    ("zh-Hant", "唔係呢個", "唔係", "negation"),
    ("zh-Hant", "使用者請求：把它轉成JSON", "使用者請求", "quoted_input"),
    ("zh-Hant", "用戶輸入：", "用戶輸入", "quoted_input"),
    ("zh-Hant", "上述做法是錯的。", "上述", "reference"),
    # Japanese
    ("ja", "以下がご要望のJSONです：", "以下が", "lead_in"),
    ("ja", "承知しました。結果は次のとおりです。", "承知しました", "lead_in"),
    ("ja", "以上です。", "以上です", "closing"),
    ("ja", "お役に立てれば幸いです。", "お役に立てれば", "closing"),
    ("ja", "指定された形式で出力します。", "指定された形式", "description"),
    ("ja", "最終的な回答：42", "最終的な回答", "designation"),
    ("ja", "修正版：", "修正版", "designation"),
    ("ja", '例えば：{"a": 1}', "例えば", "example"),
    ("ja", '例：{"a": 1}', "例：", "example"),
    ("ja", "以下の例を参照してください。", "以下の例", "example"),
    ("ja", "出力例：", "出力例", "example"),
    ("ja", "または、こちらでも構いません。", "または", "alternative"),
    ("ja", "次の形式は使用しないでください：", "使用しないでください", "counter_example"),
    ("ja", "悪い例：", "悪い例", "counter_example"),
    ("ja", "これは間違いです。", "間違い", "rejected"),
    ("ja", "正しくない回答", "正しくない", "rejected"),
    ("ja", "下書き：", "下書き", "draft"),
    ("ja", "訂正：正しくは6です。", "訂正", "correction"),
    ("ja", "ちょっと待って、計算し直します。", "ちょっと待って", "correction"),
    ("ja", "冗談です。本当の答えは", "冗談", "retraction"),
    ("ja", "上記の回答は無視してください。", "回答は無視", "retraction"),
    ("ja", "申し訳ありませんが、お手伝いできません。", "お手伝いできません", "refusal"),
    ("ja", "その依頼はお引き受けいたしかねます。", "いたしかねます", "refusal"),
    ("ja", "申し訳ありませんが、そのリクエストにはお応えできません。", "お応えできません", "refusal"),
    ("ja", "この形式でよろしいですか？", "よろしいですか", "question"),
    ("ja", "配列に変換しましょうか？", "ましょうか", "question"),
    ("ja", "申し訳ありません。", "申し訳ありません", "apology"),
    ("ja", "残念ながら、その情報はありません。", "残念ながら", "apology"),
    ("ja", "AI言語モデルとして、", "言語モデルとして", "apology"),
    ("ja", "おそらく42です。", "おそらく", "hedge"),
    ("ja", "たぶん5かもしれません。", "かもしれません", "hedge"),
    ("ja", "少なくとも3つ", "少なくとも", "bound"),
    ("ja", "10未満", "未満", "bound"),
    ("ja", "18歳以上です。", "以上です", "bound"),
    ("ja", "数値ではありません", "ではありません", "negation"),
    ("ja", "間違いなく5です。", "間違いなく", "negation"),
    ("ja", "ユーザーの入力：JSONに変換して", "ユーザーの入力", "quoted_input"),
    ("ja", "これは正しくありません。", "これは", "reference"),
    # Korean
    ("ko", "다음은 요청하신 JSON입니다:", "다음은", "lead_in"),
    ("ko", "네, 결과는 다음과 같습니다.", "다음과 같", "lead_in"),
    ("ko", "도움이 되었으면 좋겠습니다.", "도움이 되었으면", "closing"),
    ("ko", "궁금한 점이 있으면 말씀해 주세요.", "궁금한 점", "closing"),
    ("ko", "결과를 JSON으로 출력합니다.", "를 JSON으로", "description"),
    ("ko", "요청하신 형식으로 작성했습니다.", "요청하신 형식", "description"),
    ("ko", "최종 답변: 42", "최종 답변", "designation"),
    ("ko", "수정된 JSON은 다음과 같습니다.", "수정된 JSON", "designation"),
    ("ko", '예를 들어: {"a": 1}', "예를 들어", "example"),
    ("ko", '예: {"a": 1}', "예:", "example"),
    ("ko", "예시:", "예시", "example"),
    ("ko", "또는 이렇게 할 수도 있습니다.", "또는", "alternative"),
    ("ko", "다음 형식을 사용하지 마세요:", "사용하지 마", "counter_example"),
    ("ko", "나쁜 예:", "나쁜 예", "counter_example"),
    ("ko", "이 답변은 잘못되었습니다.", "잘못되었", "rejected"),
    ("ko", "정답이 아닙니다.", "정답이 아닙", "rejected"),
    ("ko", "초안:", "초안", "draft"),
    ("ko", "첫 번째 시도:", "첫 번째 시도", "draft"),
    ("ko", "정정: 올바른 값은 6입니다.", "정정", "correction"),
    ("ko", "잠깐, 다시 계산해 보겠습니다.", "잠깐", "correction"),
    ("ko", "농담입니다. 진짜 답은", "농담", "retraction"),
    ("ko", "위의 내용은 무시해 주세요.", "위의 내용은 무시", "retraction"),
    ("ko", "죄송하지만, 그 요청은 도와드릴 수 없습니다.", "도와드릴 수 없", "refusal"),
    ("ko", "죄송하지만 이 작업은 수행할 수 없습니다.", "수행할 수 없", "refusal"),
    ("ko", "도와드릴수 없습니다", "도와드릴수 없", "refusal"),
    ("ko", "배열로 바꿔 드릴까요?", "드릴까요", "question"),
    ("ko", "이 형식이 맞나요?", "맞나요", "question"),
    ("ko", "죄송합니다.", "죄송", "apology"),
    ("ko", "안타깝게도 해당 정보가 없습니다.", "안타깝게도", "apology"),
    ("ko", "아마 42일 것 같습니다.", "아마", "hedge"),
    ("ko", "아마 42일 것 같습니다.", "것 같습니다", "hedge"),
    ("ko", "적어도 3개", "적어도", "bound"),
    ("ko", "10 이하", "이하", "bound"),
    ("ko", "값이 없습니다", "없", "negation"),
    ("ko", "사용자 요청: JSON으로 변환해 주세요", "사용자 요청", "quoted_input"),
    ("ko", "이전 답변은 틀렸습니다.", "이전 답변", "reference"),
]


@pytest.mark.parametrize(
    ("language", "text", "phrase", "category"),
    CUES,
    ids=numbered([f"{lang}-{cat}" for lang, _, _, cat in CUES]),
)
def test_cue_found_over_its_phrase(language: str, text: str, phrase: str, category: str) -> None:
    start = text.index(phrase)
    end = start + len(phrase)
    found = [(c.start, c.end, c.category) for c in lexicon().find(text) if c.language == language]
    assert (start, end, category) in found, found


# (language, benign answer prose: a hand-over, a closing, words that contain a shorter cue)
BENIGN = [
    ("zh-Hans", "以下是你要的JSON："),
    ("zh-Hans", "当然可以！这是结果："),
    ("zh-Hans", "根据你的要求，输出如下："),
    ("zh-Hans", "最终答案：42"),
    ("zh-Hans", "希望对你有帮助！如有其他问题，请随时告诉我。"),
    ("zh-Hans", "我计算了，总和是15。"),
    ("zh-Hans", "各项比例如下："),
    ("zh-Hans", "比例：0.5"),
    ("zh-Hans", "对比如下："),
    ("zh-Hans", "用户名：张三"),
    ("zh-Hans", "这不算复杂。"),
    ("zh-Hans", "约束条件已满足。"),
    ("zh-Hans", "没错的，答案是5。"),
    ("zh-Hans", "这个不错的结果是10。"),
    ("zh-Hans", "苹果、香蕉等等，都可以。"),
    ("zh-Hans", "这个方案的效果非常好。"),
    ("zh-Hans", "作为一个AI助手，我为你生成了以下数据："),
    ("zh-Hant", "以下是您要的JSON："),
    ("zh-Hant", "好的，這是您要的資料："),
    ("zh-Hant", "希望這對您有所幫助！若有任何問題，歡迎隨時提問。"),
    ("zh-Hant", "我計算了，總和是15。"),
    ("zh-Hant", "各項比例如下："),
    ("zh-Hant", "這個程式碼的效能非常好。"),
    ("zh-Hant", "回傳格式：JSON"),
    ("ja", "以下がご要望のJSONです："),
    ("ja", "承知しました。結果は次のとおりです。"),
    ("ja", "ですから、答えは5です。"),
    ("ja", "様々な例外が発生します。"),
    ("ja", "利用可能な値は次のとおりです。"),
    ("ja", "キーは省略できません。"),
    ("ja", "比例：0.5"),
    ("ja", "設定を無効にします。"),
    ("ja", "申し訳ありませんが、先ほどの回答に誤りがありました。正しくは6です。"),
    ("ja", "以上です。ご不明な点があればお気軽にどうぞ。"),
    ("ko", "다음은 요청하신 JSON입니다:"),
    ("ko", "네, 결과는 다음과 같습니다."),
    ("ko", "요약: 총 3개"),
    ("ko", "음수는 사용할 수 없습니다."),
    ("ko", "하지만 결과는 5입니다."),
    ("ko", "예, 알겠습니다."),
    ("ko", "범위의 값은 10입니다."),
    ("ko", "예상 결과는 5입니다."),
    ("ko", "죄송하지만, 이전 답변에 오류가 있었습니다. 올바른 값은 6입니다."),
    ("ko", "문자열 또는 null"),
]


@pytest.mark.parametrize(("language", "text"), BENIGN, ids=numbered([f"{lang}-benign" for lang, _ in BENIGN]))
def test_benign_prose_excludes_nothing(language: str, text: str) -> None:
    excluding = [(text[c.start : c.end], c.category, c.language) for c in lexicon().find(text)]
    assert not [e for e in excluding if e[1] in EXCLUDING], excluding


@pytest.mark.parametrize("language", list(TABLES))
def test_every_category_has_rows(language: str) -> None:
    phrases = table(language).PHRASES
    # a cue category has three phrasings at least; the value words (yes, no, arithmetic) one
    thin = {c: len(phrases.get(c, ())) for c in CATEGORIES if len(phrases.get(c, ())) < (1 if c in VALUE_WORDS else 3)}
    assert not thin, thin


@pytest.mark.parametrize("language", list(TABLES))
def test_table_header(language: str) -> None:
    module = table(language)
    loaded = load_table(module)
    assert loaded.language == language
    assert not loaded.spaced
    assert loaded.decimal_mark == "."
    assert loaded.minus


VALUE_WORDS = frozenset({"yes", "no", "operation"})
ONE_CHARACTER_OK = VALUE_WORDS | {"negation", "bound"}


@pytest.mark.parametrize("language", list(TABLES))
def test_no_one_character_cue_outside_negation(language: str) -> None:
    """Matching is by substring: a one-character phrase fires inside unrelated words, so only negation, the value
    words (否, 倍) and bounds the plain answers need (约) may have one; every phrase is written as the matcher
    compares it (lower case, folded spaces)."""
    for category, rows in table(language).PHRASES.items():
        for row in rows:
            for phrase in expand(row):
                assert len(phrase) > 1 or category in ONE_CHARACTER_OK, (category, row)
                assert phrase == normalise(phrase), (category, row)


@pytest.mark.parametrize(
    ("word", "value"),
    [
        pytest.param("万", 10**4, id="zh-Hans-wan"),
        pytest.param("萬", 10**4, id="zh-Hant-wan"),
        pytest.param("亿", 10**8, id="zh-Hans-yi"),
        pytest.param("億", 10**8, id="zh-Hant-ja-yi-oku"),
        pytest.param("兆", 10**12, id="zh-ja-zhao-cho"),
        pytest.param("千", 10**3, id="zh-ja-qian-sen"),
        pytest.param("百", 100, id="zh-ja-bai-hyaku"),
        pytest.param("百万", 10**6, id="zh-ja-million"),
        pytest.param("ダース", 12, id="ja-dozen"),
        pytest.param("만", 10**4, id="ko-man"),
        pytest.param("억", 10**8, id="ko-eok"),
        pytest.param("천", 10**3, id="ko-cheon"),
        pytest.param("백", 100, id="ko-baek"),
    ],
)
def test_scales(word: str, value: int) -> None:
    assert lexicon().scales[word] == value


@pytest.mark.parametrize(
    "word",
    [
        pytest.param("负", id="zh-Hans"),
        pytest.param("負", id="zh-Hant"),
        pytest.param("マイナス", id="ja"),
        pytest.param("마이너스", id="ko"),
    ],
)
def test_minus(word: str) -> None:
    assert word in lexicon().minus
