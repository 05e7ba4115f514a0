"""r06 and its kind: streaming must stay linear in the text however it is cut (issue 13).

The old stream re-located the answer's start over the whole text on every chunk with a `{` (128 KB of reasoning in
16-character chunks took 102 s; one batch parse 0.02 s). These tests check the mechanism, not the clock: they
count the characters each part of a stream looks at while the chunks arrive — the locator's scan, the extraction
helpers (which streaming must not call on the whole text per chunk), the text handed to pydantic-core's parser, and
joins of the whole text — and hold each to a small multiple of the text's size, for r06's shape and for the other
shapes that once cost or could cost a rescan per chunk. Timing lives in benchmarks/adversarial_timing.py.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import BaseModel

from resilient_parse import ParseError, Parser, streaming
from resilient_parse.stages import extract, extract_fences, extract_reasoning, extract_spans
from resilient_parse.streaming import _Locator, _Stream
from resilient_parse.streaming import _locator as stream_locator
from resilient_parse.streaming import _state as stream_state  # where a stream reads with pydantic-core


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


class Step(BaseModel):
    tool: str
    n: int


class Plan(BaseModel):
    action: Literal["search", "answer"]
    title: str
    steps: list[Step] = []


LENIENT = Parser()
ANSWER = '{"action": "go", "arguments": {"q": "x"}}'


def split(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def big_plan(size: int) -> str:
    steps = [{"tool": f"tool-{i}", "n": i} for i in range(max(1, size // 28))]
    return json.dumps({"action": "answer", "title": "big", "steps": steps})


# name -> (chunks for a text of about n characters, target); the same builders are in the report for the
# adversarial timing catalogue
SHAPES: dict[str, tuple[Callable[[int], list[str]], Any]] = {
    "r06: reasoning full of braces, 16-char chunks": (
        lambda n: ["<think>", *["let d = {x: 1}; "] * (n // 16), "</think>", ANSWER],
        ToolCall,
    ),
    "plausible JSON drafts inside a long reasoning block, 9-char chunks": (
        lambda n: split("<think>" + 'maybe {"action": "delete"}, ' * (n // 29) + "</think>\n" + ANSWER, 9),
        ToolCall,
    ),
    "many braces in prose before the answer, 5-char chunks": (
        lambda n: split("Use {name} or [1] or {x}. " * (n // 26) + ANSWER, 5),
        ToolCall,
    ),
    "empty objects in prose, each tried and dropped, 4-char chunks": (
        lambda n: split("{} " * (n // 3) + ANSWER, 4),
        ToolCall,
    ),
    "empty objects in prose, one chunk": (lambda n: ["{} " * (n // 3) + ANSWER], ToolCall),
    "a fence opened and never closed, prose with braces inside, 11-char chunks": (
        lambda n: split("```json\n" + "see {x} and [1]\n" * (n // 16) + ANSWER, 11),
        ToolCall,
    ),
    "a big object in 7-char chunks": (lambda n: split(big_plan(n), 7), Plan),
    "a big object, one character per chunk": (lambda n: list(big_plan(n)), Plan),
    "long prose then a small answer, 3-char chunks": (
        lambda n: split("Let me think about this for a while. " * (n // 37) + ANSWER, 3),
        ToolCall,
    ),
    "a closing tag with a long run of whitespace, one character per chunk": (
        lambda n: list("<think>hmm {}</think" + " " * n + ">" + ANSWER),
        ToolCall,
    ),
    "opening tags that never finish, one character per chunk": (
        lambda n: list(("<think " + "a" * 150 + "\n") * (n // 158) + ANSWER),
        ToolCall,
    ),
    # M05: a ']' every other character, and each read builds a container per two characters (milliseconds for a
    # few KiB): the window that is re-read at every boundary is measured in work, not characters
    "nested arrays, one character per chunk": (
        lambda n: list("[" + ", ".join(["[" * 30 + "]" * 30] * (n // 62)) + "]"),
        list[Any],
    ),
    "nested objects as tool arguments, one character per chunk": (
        lambda n: list(
            '{"action": "go", "arguments": {"q": [' + ", ".join(['{"a":' * 8 + "1" + "}" * 8] * (n // 51)) + "]}}"
        ),
        ToolCall,
    ),
}


@dataclass
class Cost:
    size: int  # characters received
    examined: int  # characters the locator looked at
    helpers: int  # characters the extraction helpers read while chunks arrived
    parsed: int  # characters handed to pydantic-core (from_json, or the exact partial check) while chunks arrived
    parsed_work: int  # the same as work (`streaming._work`: characters, or containers x 16 where that is more)
    longest_read: int  # the most it was handed at once
    whole_text_joins: int  # joins of the whole text while chunks arrived
    copied: int  # characters the locator joined or sliced to hand out text
    reads: int
    spent: int  # work re-read beyond the free 4 KiB, which `reparse_budget` bounds


def measure(monkeypatch: pytest.MonkeyPatch, chunks: list[str], target: Any, **options: Any) -> tuple[Cost, Any]:
    reads: list[int] = []
    work: list[int] = []
    helpers: list[int] = []
    joins: list[int] = []
    real_from_json = stream_state.from_json  # what streaming reads with

    def counting_from_json(data: Any, **kw: Any) -> Any:
        reads.append(len(data))
        work.append(_work_of(data))
        return real_from_json(data, **kw)

    monkeypatch.setattr(stream_state, "from_json", counting_from_json)
    real_exact = _Stream._exact

    def counting_exact(self: _Stream, doc: str) -> Any:
        reads.append(len(doc))
        work.append(_work_of(doc))
        return real_exact(self, doc)

    monkeypatch.setattr(_Stream, "_exact", counting_exact)
    for name in ("split_reasoning", "find_fences", "scan_spans", "extract_candidates"):
        for module in (
            extract,
            extract_reasoning,
            extract_spans,
            extract_fences,
            streaming,
            stream_state,
            stream_locator,
        ):
            real = getattr(module, name, None)
            if real is not None:
                monkeypatch.setattr(module, name, _counting(real, helpers))
    real_text = _Stream.text

    def counting_text(self: _Stream) -> str:
        joins.append(1)
        return real_text(self)

    monkeypatch.setattr(_Stream, "text", counting_text)
    state = _Stream(LENIENT, target, **options)
    updates = [u for c in chunks if (u := state.feed(c)) is not None]
    cost = Cost(
        size=state.received,
        examined=state.locator.examined,
        helpers=sum(helpers),
        parsed=sum(reads),
        parsed_work=sum(work),
        longest_read=max(reads, default=0),
        whole_text_joins=len(joins),
        copied=state.locator.copied,
        reads=state.reads,
        spent=state.spent,
    )
    monkeypatch.undo()
    return cost, (updates, outcome(state.finish), state)


def _work_of(text: str) -> int:
    return streaming._work(len(text), text.count("[") + text.count("{"))


def outcome(make: Callable[[], Any]) -> Any:
    """The final object, or the kind of error raised instead (whether a text has an answer is the batch rules')."""
    try:
        result = make()
    except ParseError as exc:
        return type(exc)
    return getattr(result, "value", result)


def _counting(real: Callable[..., Any], seen: list[int]) -> Callable[..., Any]:
    def counting(text: str, *args: Any, **kw: Any) -> Any:
        seen.append(len(text))
        return real(text, *args, **kw)

    return counting


@pytest.mark.parametrize("name", list(SHAPES))
def test_every_chunk_costs_amortised_o_chunk(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    build, target = SHAPES[name]
    chunks = build(40_000)
    text = "".join(chunks)
    cost, (_, final, _) = measure(monkeypatch, chunks, target)
    n = cost.size
    assert n == len(text)
    assert final == outcome(lambda: LENIENT.parse(text, target))
    # finding the start: each character is scanned once and searched once (plus a held tag's few re-reads)
    assert cost.examined <= 3 * n, cost
    assert cost.helpers == 0, cost  # no whole-text extraction pass per chunk
    assert cost.whole_text_joins == 0, cost  # the whole text is joined once, for the final parse
    # reading: within the budget (2.0 x received beyond the first 4 KiB, which is read at every boundary);
    # a read hands its text to pydantic-core at most three times (exact check, tree, unfinished string)
    assert cost.spent <= 2 * _work_of(text), cost
    assert cost.parsed <= 3 * (cost.spent + _FREE * cost.reads) + 2 * n, cost
    # in work too: a read inside the free window costs at most the window, containers counted (M05)
    assert cost.parsed_work <= 3 * (cost.spent + _FREE * cost.reads) + 2 * _work_of(text), cost
    # and the text handed out is what is read: no copies beyond it
    assert cost.copied <= 2 * cost.parsed + 2 * n, cost


_FREE = streaming._FREE_CHARS


def test_r06_as_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = ["<think>", *["let d = {x: 1}; "] * 4000, "</think>", '{"action": "go"}']
    cost, (updates, final, _) = measure(monkeypatch, chunks, ToolCall)
    assert final == ToolCall(action="go")
    assert [u.partial.action for u in updates] == ["go"]
    assert cost.examined <= 3 * cost.size, cost
    assert cost.helpers == 0 and cost.whole_text_joins == 0, cost


def test_reads_start_at_the_answer_not_at_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = split("<think>" + "Let me think. " * 3000 + "</think>\nSure:\n" + ANSWER, 3)
    cost, (updates, final, _) = measure(monkeypatch, chunks, ToolCall)
    assert final == ToolCall(action="go", arguments={"q": "x"})
    assert updates and updates[-1].partial.arguments == {"q": "x"}
    assert cost.longest_read <= len(ANSWER), cost  # the 42 KB before the answer is never handed to the parser
    assert cost.copied <= 4 * len(ANSWER) * cost.reads + 2 * cost.size, cost


# -- the locator's rules, whatever the chunking --------------------------------------------------------------------


def locate(chunks: list[str], openers: str = "{", search_from: int = 0) -> tuple[int | None, bool]:
    locator = _Locator(openers)
    for chunk in chunks:
        locator.feed(chunk)
    return locator.locate(search_from)


def at(text: str, marker: str) -> int:
    return text.index(marker)


def cuts(text: str) -> Iterator[list[str]]:
    """The text whole, one character at a time, and cut at every single point."""
    yield [text]
    yield list(text)
    for i in range(1, len(text)):
        yield [text[:i], text[i:]]


@pytest.mark.parametrize(
    ("text", "marker"),
    [
        ('<think>{"a": "draft"}</think>\n{"a": "real"}', '{"a": "real"'),
        ('{"a": "draft"} hmm.</think> {"a": "real"}', '{"a": "real"'),  # the opening tag was lost
        ('Use {name}, see [1].\n```json\n{"a": 1}\n```', '{"a": 1}'),
        ('Like {"a": 0} but:\n```json\n{"a": 1}\n```', '{"a": 1}'),  # inside a fence if the answer has one
        ('<thinking level="high">{"a": 0}</thinking >{"a": 1}', '{"a": 1}'),
        ('<think>{"a": 0}</think\n\n   >{"a": 1}', '{"a": 1}'),
        ('~~~\n{x}\n~~~\n{ \n\t"a": 1}', '{ \n\t"a"'),
        ('````\n```\n{x}\n````\n{"a": 1}', '{"a": 1}'),  # a shorter marker does not close the fence
        ('``` `x`\n{"a": 1}', '{"a": 1}'),  # a backtick in the info string: not a fence
    ],
)
def test_the_start_is_found_the_same_way_however_the_text_is_cut(text: str, marker: str) -> None:
    for chunks in cuts(text):
        assert locate(chunks) == (at(text, marker), False), chunks


@pytest.mark.parametrize(
    "text",
    [
        '<think>{"a": 0} and more',  # reasoning still open
        '<think>{"a": 0}</thi',  # the closing tag is still being written
        '<think>{"a": 0}</think     ',
        "Here {x} and [1]",
    ],
)
def test_nothing_is_found_while_the_text_cannot_say(text: str) -> None:
    for chunks in cuts(text):
        assert locate(chunks) == (None, False), chunks


def test_an_opener_waits_for_its_next_character() -> None:
    assert locate(["Sure: {", "  \n"]) == (None, True)
    assert locate(["Sure: {", "  \n", ' "a": 1}']) == (6, False)
    assert locate(["Sure: {", "  \n", " name}"]) == (None, False)


def test_a_tag_being_written_holds_the_search_until_it_is_decided() -> None:
    assert locate(['<think a="{"a": 0}']) == (None, False)  # may still be an opening tag
    assert locate(['<think a="{"a": 0}', "\n"]) == (10, False)  # a line break: it was not one
    assert locate(['<think a="{"a": 0}', '">{"a": 1}']) == (None, False)  # it was: the draft is reasoning


def test_a_start_that_is_not_json_gives_way_to_the_next() -> None:
    # the partials only: which object the final parse makes of such a text is the batch rules' business
    short = '{"a" x} ' + ANSWER
    long = '{"' + "k" * 3000 + '" x} ' + ANSWER  # told apart by a read window that doubles past 256 characters
    for text, chunks in [(short, [short]), (short, split(short, 7)), (long, [long])]:
        state = _Stream(LENIENT, ToolCall)
        shown = [u.partial for c in chunks if (u := state.feed(c)) is not None]
        assert shown and shown[-1].action == "go" and shown[-1].arguments == {"q": "x"}, chunks[:2]
        assert state.start == text.index(ANSWER)


_FRAGMENTS = [
    "<think>", "</think>", "<thinking a=1>", "</reasoning >", "<thi", "</", "<", ">", "\n", "\n```json\n", "```",
    "~~~", "\n```\n", "\n````\n", "\n   ```py\n", "``` `x`\n", " ", "\t", "\r\n", "{", "}", "[", "]", '{"a": 1}',
    '["x"]', "[1]", "{}", "{name}", "prose ", '"', "{ ", '"k"', ": ", ",",
]  # fmt: skip
_TAG_FRAGMENTS = ["`", "'", "I skip the <think> step ", "x<think>y", "<think> ", "`</think>`", '"<think>"', "> <think>"]


@given(
    st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=30),
    st.lists(st.integers(1, 400), max_size=10),
    st.sampled_from(["{", "[", "{["]),
    st.booleans(),
)
def test_the_locator_does_not_depend_on_the_chunking(
    fragments: list[str], points: list[int], openers: str, follow: bool
) -> None:
    """Fed in chunks, following each start found (the search idles, then catches up) or not, the locator answers
    for every prefix what it answers for that prefix fed whole."""
    text = "".join(fragments)
    bounds = [0, *sorted({p % (len(text) + 1) for p in points}), len(text)]
    chunks = [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]
    cut = _Locator(openers)
    seen = ""
    for chunk in chunks:
        cut.feed(chunk)
        seen += chunk
        cut.unfollow()
        found = cut.locate(0)
        assert found == locate([seen], openers), (seen, chunks)
        if follow and found[0] is not None:
            cut.follow(found[0])


# -- the tag rules are the batch path's ------------------------------------------------------------------------------


def test_a_quoted_closing_tag_does_not_end_the_reasoning() -> None:
    text = '<think>I must not write `</think>` yet: {"action": "delete"}</think>\n' + ANSWER
    for chunks in (split(text, 5), list(text)):
        shown = [u.partial.action for u in LENIENT.stream(chunks, ToolCall) if not u.is_final]
        assert "delete" not in shown and shown[-1] == "go", chunks[:3]


def test_a_tag_mentioned_in_a_sentence_does_not_open_a_block() -> None:
    text = "I skip the <thinking> step here. " + ANSWER
    for chunks in (split(text, 4), list(text)):
        state = _Stream(LENIENT, ToolCall)
        shown = [u.partial for c in chunks if (u := state.feed(c)) is not None]
        assert shown and shown[-1].arguments == {"q": "x"}, chunks[:3]


def test_a_tag_the_text_ends_with_waits_for_the_next_character() -> None:
    assert locate(['{"a": 0} hmm</think>']) == (0, False)  # the draft is followed for now
    assert locate(['{"a": 0} hmm</think>', "`"]) == (0, False)  # quoted: text, the draft stays the answer
    assert locate(['{"a": 0} hmm</think>', " "]) == (None, False)  # a lost opening tag: all before was reasoning


def reference_locate(text: str, openers: str) -> tuple[int | None, bool]:
    """The start the batch path's own helpers give for the whole text (the old whole-text search, kept here as
    the reference the incremental locator must agree with)."""
    for region in extract.split_reasoning(text):
        if region.reasoning:
            continue
        body = text[region.start : region.end]
        fences = [(region.start + f.body_start, region.start + f.body_end) for f in extract.find_fences(body)]
        for a, b in [*fences, (region.start, region.end)]:
            for m in re.finditer(r"[{\[]", text[a:b]):
                if m.group() not in openers:
                    continue
                rest = text[a + m.end() :].lstrip(" \t\r\n")
                if not rest:
                    return None, True
                if rest[0] in ('"}' if m.group() == "{" else '{["]-0123456789tfn'):
                    return a + m.start(), False
    return None, False


_TAG_ANYWHERE = re.compile(r"</?(?:" + "|".join(extract.REASONING_TAGS) + r")\b[^>\n]{0,200}>", re.IGNORECASE)


@given(st.lists(st.sampled_from(_FRAGMENTS + _TAG_FRAGMENTS), min_size=1, max_size=30), st.sampled_from(["{", "["]))
def test_the_locator_reads_tags_and_fences_as_the_batch_path_does(fragments: list[str], openers: str) -> None:
    """Streaming's rules must not drift from the extraction stage's: for a whole text, the locator's start is
    the one `split_reasoning` and `find_fences` give. Left out: a tag inside a closed `{…}` (the batch path needs
    the whole span to tell, the stream counts it) and a text that ends with a tag (the stream waits for the next
    character, which the quote rule looks at)."""
    text = "".join(fragments)
    spans = [s for s in extract.scan_spans(text) if s.closed]
    assume(not text.endswith(">"))
    assume(not any(s.start < m.start() < s.end for m in _TAG_ANYWHERE.finditer(text) for s in spans))
    assert locate([text], openers) == reference_locate(text, openers)
