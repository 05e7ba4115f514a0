"""Streaming: partial objects while the text arrives, then the same object the batch parser makes.

The property tests state the contract: whatever the chunking, every partial is a consistent subset of the final
object (a value once shown never changes; with `partial_strings=True` a string only grows as a prefix), and the
final object equals `Parser.parse` on the whole text.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import json
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from resilient_parse import (
    ConfigurationError,
    InputTooLargeError,
    InvalidInputError,
    NoCandidateError,
    ParseError,
    Parser,
    Policy,
    SchemaMismatchError,
    astream,
    hookimpl,
    stream,
)
from resilient_parse.plugin_api import KeyMapping
from resilient_parse.stages.read_prefix import read_prefix
from resilient_parse.stages.syntax import lossy_kinds
from resilient_parse.streaming import StreamUpdate, _Stream, partial_type


class Step(BaseModel):
    tool: str
    n: int


class Plan(BaseModel):
    action: Literal["search", "answer"]
    title: str
    steps: list[Step] = []
    score: float | None = None
    done: bool = False


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Tree(BaseModel):
    label: str
    color: Color | None = None
    children: list[Tree] = []


class Aliased(BaseModel):
    user_name: str = Field(alias="userName")
    age: int


LENIENT = Parser()
STRICT = Parser("strict")


def split(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def run(parser: Parser, chunks: Iterable[str], target: Any, **options: Any) -> list[StreamUpdate[Any]]:
    return list(parser.stream(chunks, target, **options))


def value(updates: Sequence[StreamUpdate[Any]]) -> Any:
    """The final object, which the last update must carry."""
    assert updates[-1].is_final and updates[-1].value is not None
    return updates[-1].value


def partials(updates: Sequence[StreamUpdate[Any]]) -> list[dict[str, Any]]:
    return [u.partial.model_dump(mode="json") for u in updates if not u.is_final]


async def agen(chunks: Iterable[str]) -> AsyncIterator[str]:
    for chunk in chunks:
        await asyncio.sleep(0)
        yield chunk


def consistent(part: Any, final: Any, *, strings: bool) -> bool:
    """`part` says nothing `final` contradicts: missing (None) is fine, lists may be shorter, and with `strings`
    a string may be a prefix of the final one."""
    if part is None:
        return True
    if isinstance(part, dict):
        return isinstance(final, dict) and all(
            consistent(v, final.get(k), strings=strings) for k, v in part.items() if v is not None
        )
    if isinstance(part, list):
        return (
            isinstance(final, list)
            and len(part) <= len(final)
            and all(consistent(a, b, strings=strings) for a, b in zip(part, final))
        )
    if strings and isinstance(part, str):
        return isinstance(final, str) and final.startswith(part)
    return type(part) is type(final) and bool(part == final)


# -- the basic contract ---------------------------------------------------------------------------------------------


def test_partials_then_one_final_update() -> None:
    text = '{"action": "search", "title": "weather", "steps": [{"tool": "web", "n": 3}]}'
    updates = run(LENIENT, split(text, 4), Plan)
    assert [u.is_final for u in updates] == [False] * (len(updates) - 1) + [True]
    final = updates[-1]
    assert final.value == Plan(action="search", title="weather", steps=[Step(tool="web", n=3)])
    assert final.result is not None and final.result.value == final.value
    assert final.received == len(text)
    assert partials(updates)[1:3] == [
        {"action": "search", "title": None, "steps": None, "score": None, "done": None},
        {"action": "search", "title": "weather", "steps": None, "score": None, "done": None},
    ]


def test_each_partial_shows_something_new() -> None:
    text = '{"action": "answer", "title": "t", "steps": [{"tool": "a", "n": 1}, {"tool": "b", "n": 2}]}'
    shown = partials(run(LENIENT, split(text, 1), Plan, reparse_budget=None))
    assert all(a != b for a, b in itertools.pairwise(shown))


def test_final_update_carries_the_partial_view_of_the_final_object() -> None:
    text = '{"action": "answer", "title": "t", "done": true}'
    final = run(LENIENT, [text], Plan)[-1]
    assert final.is_final
    assert final.partial.model_dump() == {
        "action": "answer",
        "title": "t",
        "steps": [],
        "score": None,
        "done": True,
    }


def test_final_partial_keeps_fields_whose_aliases_differ_by_direction() -> None:
    class Renamed(BaseModel):
        user: str = Field(validation_alias="u", serialization_alias="User")

    final = run(LENIENT, ['{"u": "ada"}'], Renamed)[-1]
    assert final.partial.user == "ada"


def test_final_object_equals_batch_parse_of_messy_text() -> None:
    text = "Sure! Here it is:\n```json\n{'action': 'search', title: \"x\", \"steps\": [],}\n```\nAnything else?"
    final = run(LENIENT, split(text, 5), Plan)[-1]
    assert final.value == LENIENT.parse(text, Plan)
    assert final.result is not None and final.result.repairs


# -- what is shown, and when -----------------------------------------------------------------------------------------


def test_numbers_are_shown_only_once_complete() -> None:
    chunks = ['{"action": "answer", "title": "t", "steps": [{"tool": "x", "n": 12', "34", "}]}"]
    seen = [s["steps"][0]["n"] for s in partials(run(LENIENT, chunks, Plan)) if s["steps"]]
    assert 12 not in seen
    assert seen[-1] == 1234


def test_a_float_cut_after_its_point_is_not_shown() -> None:
    chunks = ['{"action": "answer", "title": "t", "score": 0.', "75", "}"]
    scores = [s["score"] for s in partials(run(LENIENT, chunks, Plan))]
    assert 0.0 not in scores
    assert scores[-1] == 0.75


def test_literals_are_shown_only_once_complete() -> None:
    chunks = ['{"action": "answer", "title": "t", "done": tr', 'ue, "score": 1.5}']
    shown = partials(run(LENIENT, chunks, Plan))
    assert [s["done"] for s in shown] == [None] * (len(shown) - 1) + [True]


def test_strings_are_hidden_until_closed_by_default() -> None:
    chunks = ['{"action": "answer", "title": "hel', "lo wor", 'ld", "done": false}']
    titles = [s["title"] for s in partials(run(LENIENT, chunks, Plan))]
    assert set(titles) <= {None, "hello world"}
    assert titles[-1] == "hello world"


def test_partial_strings_grow_as_prefixes() -> None:
    chunks = ['{"action": "answer", "title": "hel', "lo wor", 'ld", "done": false}']
    titles = [s["title"] for s in partials(run(LENIENT, chunks, Plan, partial_strings=True))]
    assert titles == ["hel", "hello wor", "hello world"]


def test_half_written_choice_is_never_guessed_even_with_partial_strings() -> None:
    chunks = ['{"title": "t", "action": "sea', 'rch"}']
    actions = [s["action"] for s in partials(run(LENIENT, chunks, Plan, partial_strings=True))]
    assert actions == [None, "search"] or actions == ["search"]


def test_a_half_written_string_is_not_read_as_a_number() -> None:
    chunks = ['{"action": "answer", "title": "t", "steps": [{"tool": "a", "n": "1', '2"}]}']
    shown = partials(run(LENIENT, chunks, Plan, partial_strings=True))
    assert [s["steps"] for s in shown] == [[{"tool": "a", "n": None}], [{"tool": "a", "n": 12}]]


def test_escapes_split_across_chunks() -> None:
    chunks = ['{"action": "answer", "title": "a\\', 'u00e9\\"b', '", "done": true}']
    final = run(LENIENT, chunks, Plan, partial_strings=True)
    titles = [u.partial.title for u in final if not u.is_final]
    assert all('é"b'.startswith(t[1:]) for t in titles if t)
    assert value(final).title == 'aé"b'


def test_list_items_appear_as_they_complete() -> None:
    text = '{"action": "answer", "title": "t", "steps": [{"tool": "a", "n": 1}, {"tool": "b", "n": 2}]}'
    counts = [len(s["steps"] or []) for s in partials(run(LENIENT, split(text, 3), Plan))]
    assert counts == sorted(counts)
    assert counts[-1] == 2


# -- finding the JSON ------------------------------------------------------------------------------------------------


def test_reasoning_prose_and_fence_before_the_json_are_skipped() -> None:
    text = (
        '<think>Maybe {"action": "answer", "title": "draft"}? No.</think>\n'
        "Use the format {name}, see [1].\n"
        '```json\n{"action": "search", "title": "real"}\n```\n'
    )
    updates = run(LENIENT, split(text, 3), Plan)
    titles = {s["title"] for s in partials(updates)}
    assert "draft" not in titles
    assert "real" in titles
    assert updates[-1].value == Plan(action="search", title="real")


def test_nothing_is_shown_while_reasoning_is_still_open() -> None:
    text = '<think>{"action": "answer", "title": "draft"} hmm'
    updates = run(LENIENT, [*split(text, 4), '</think>{"action": "search", "title": "ok"}'], Plan)
    assert {s["title"] for s in partials(updates)} <= {None, "ok"}
    assert value(updates).title == "ok"


def test_a_reasoning_block_without_its_opening_tag_is_left_behind_when_it_closes() -> None:
    text = 'Drafting {"action": "answer", "title": "draft"} hmm.</think>\n{"action": "search", "title": "real"}'
    updates = run(LENIENT, split(text, 5), Plan)
    assert partials(updates)[-1]["title"] == "real"
    assert value(updates) == Plan(action="search", title="real")


def test_a_list_target_starts_at_the_bracket() -> None:
    text = 'Steps {as asked}:\n[{"tool": "a", "n": 1}, {"tool": "b", "n": 2}]'
    updates = run(LENIENT, split(text, 6), list[Step])
    shown = [[s.model_dump() for s in u.partial] for u in updates if not u.is_final]
    assert shown[-1] == [{"tool": "a", "n": 1}, {"tool": "b", "n": 2}]
    assert updates[-1].value == [Step(tool="a", n=1), Step(tool="b", n=2)]


def test_a_syntax_error_the_reader_repairs_does_not_stop_partials() -> None:
    # issue 12 ("Prefixes too"): partials once paused at the first trailing comma until the stream ended; the
    # reader now reads the prefix through it, so the fields after it show up while the text arrives
    text = '{"action": "answer", "title": "t", "steps": [{"tool": "a", "n": 1},], "done": true, "score": 2.5}'
    updates = run(LENIENT, split(text, 8), Plan)
    assert any(s["done"] is True and s["score"] is None for s in partials(updates))
    assert updates[-1].value == Plan(action="answer", title="t", steps=[Step(tool="a", n=1)], done=True, score=2.5)


# -- alignment ---------------------------------------------------------------------------------------------------------


def test_keys_are_aligned_during_the_stream() -> None:
    chunks = ['{"Action": "search", ', '"Title": "x", ', '"STEPS": [{"Tool": "web", "n": 1}', "]}"]
    updates = run(LENIENT, chunks, Plan)
    shown = partials(updates)
    assert shown[0]["action"] == "search"
    assert any(s["steps"] == [{"tool": "web", "n": 1}] for s in shown)
    assert updates[-1].value == LENIENT.parse("".join(chunks), Plan)


def test_alias_tables_apply_to_partials() -> None:
    parser = Parser(aliases={"tool_name": "action"})
    chunks = ['{"tool_name": "answer", ', '"title": "x"}']
    assert partials(run(parser, chunks, Plan))[0]["action"] == "answer"


def test_per_call_aliases_apply_to_partials_and_final() -> None:
    chunks = ['{"kind": "answer", ', '"title": "x"}']
    updates = run(LENIENT, chunks, Plan, aliases={"kind": "action"})
    assert partials(updates)[0]["action"] == "answer"
    assert value(updates).action == "answer"


def test_declared_aliases_fill_partial_fields() -> None:
    chunks = ['{"userName": "ada", ', '"age": 36}']
    updates = run(STRICT, chunks, Aliased)
    assert updates[0].partial.user_name == "ada"
    assert updates[-1].value == Aliased(userName="ada", age=36)


def test_strict_mode_does_not_rename_keys_in_partials() -> None:
    chunks = ['{"Action": "search", ', '"title": "x"}']
    with pytest.raises(SchemaMismatchError):
        for update in STRICT.stream(chunks, Plan):
            assert update.partial.action is None


def test_values_are_coerced_as_in_the_batch_path() -> None:
    chunks = ['{"action": "answer", "title": "t", "steps": [{"tool": "a", "n": "7"}', "]}"]
    updates = run(LENIENT, chunks, Plan)
    assert partials(updates)[-1]["steps"] == [{"tool": "a", "n": 7}]


# -- partial types --------------------------------------------------------------------------------------------------


def test_partial_type_makes_every_field_optional_recursively() -> None:
    partial = partial_type(Plan)
    empty = partial.model_validate({})
    assert empty.model_dump() == {"action": None, "title": None, "steps": None, "score": None, "done": None}
    half = partial.model_validate({"steps": [{"tool": "web"}]})
    assert half.steps[0].model_dump() == {"tool": "web", "n": None}


def test_partial_type_is_cached_and_handles_recursion() -> None:
    assert partial_type(Tree) is partial_type(Tree)
    node = partial_type(Tree).model_validate({"children": [{"children": [{"label": "leaf"}]}]})
    assert node.children[0].children[0].label == "leaf"
    assert node.label is None


def test_partial_type_keeps_declared_aliases() -> None:
    assert partial_type(Aliased).model_validate({"userName": "ada"}).user_name == "ada"


def test_partial_of_a_list_target_is_a_list_of_partials() -> None:
    items = partial_type(list[Step])
    assert [s.model_dump() for s in _validate(items, [{"tool": "a"}])] == [{"tool": "a", "n": None}]


def _validate(tp: Any, data: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(tp).validate_python(data)


# -- errors and options -----------------------------------------------------------------------------------------------


def test_parse_error_is_raised_after_the_partials() -> None:
    chunks = ["I'm not ", "sure what ", "you mean."]
    stream = LENIENT.stream(chunks, Plan)
    with pytest.raises(NoCandidateError):
        next(stream)


def test_bytes_chunks_may_split_a_utf8_character() -> None:
    data = '{"action": "answer", "title": "café"}'.encode()
    cut = data.index(b"\xa9")  # the second byte of "é"
    updates = list(LENIENT.stream([data[:cut], data[cut:]], Plan))  # type: ignore[list-item]  # bytes work too
    assert value(updates).title == "café"


def test_invalid_utf8_is_an_input_error() -> None:
    with pytest.raises(InvalidInputError):
        list(LENIENT.stream([b'{"title": "\xff"}'], Plan))  # type: ignore[list-item]


def test_a_chunk_that_is_not_text_is_an_input_error() -> None:
    with pytest.raises(InvalidInputError):
        list(LENIENT.stream(['{"title": ', 42], Plan))  # type: ignore[list-item]


def test_stream_longer_than_the_policy_limit_stops_early() -> None:
    parser = Parser(Policy(max_input_chars=50))
    chunks = ['{"action": "answer", ', '"title": "' + "x" * 100 + '"}']
    with pytest.raises(InputTooLargeError):
        list(parser.stream(chunks, Plan))


def test_bad_options_are_refused_when_the_stream_is_created() -> None:
    with pytest.raises(ConfigurationError):
        LENIENT.stream(["{}"], Plan, reparse_budget=0)
    with pytest.raises(ConfigurationError, match=r"a \(llm, messages\) pair"):
        stream(["{}"], Plan, parser=LENIENT, correct_with="not a pair")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match=r"resilient_parse\.stream"):  # the loop sits above the parser
        LENIENT.stream(["{}"], Plan, correct_with=(lambda m: "{}", []))
    with pytest.raises(ConfigurationError, match="no_such_option"):
        LENIENT.stream(["{}"], Plan, no_such_option=True)


def test_a_single_string_is_one_chunk() -> None:
    assert LENIENT.stream('{"action": "answer", "title": "t"}', Plan).__next__().partial.title == "t"


# -- cost -----------------------------------------------------------------------------------------------------------


def test_reread_work_stays_linear_in_the_text() -> None:
    steps = [{"tool": f"tool-{i}", "n": i} for i in range(3000)]
    text = json.dumps({"action": "answer", "title": "big", "steps": steps})
    state = _Stream(LENIENT, Plan, reparse_budget=4.0)
    for chunk in split(text, 7):
        state.feed(chunk)
    assert value([state.finish()]).steps[-1].n == 2999
    assert state.spent <= 4.0 * len(text)
    assert state.reads >= 20  # and still many updates on the way


def test_list_items_are_aligned_once_not_on_every_read() -> None:
    class Counter:
        def __init__(self) -> None:
            self.paths: list[str] = []

        @hookimpl
        def rp_propose_key_mappings(
            self, obj: Any, model: Any, unknown: list[str], path: str, ctx: Any
        ) -> list[KeyMapping]:
            self.paths.append(path)
            return []

    counter = Counter()
    parser = Parser(plugins=[counter], entrypoints=False)
    steps = [{"Tool": f"t{i}", "n": i} for i in range(200)]
    text = json.dumps({"action": "answer", "title": "t", "steps": steps})
    updates = run(parser, split(text, 5), Plan, reparse_budget=None)
    assert value(updates).steps[199] == Step(tool="t199", n=199)
    streamed = [p for p in counter.paths if p == "/steps/0"]
    assert 1 <= len(streamed) <= 4  # while it was the last item, then once complete; the final parse adds one


def test_without_a_budget_every_boundary_is_read() -> None:
    text = json.dumps({"action": "answer", "title": "t", "steps": [{"tool": "a", "n": i} for i in range(50)]})
    budgeted = run(LENIENT, split(text, 2), Plan, reparse_budget=1.0)
    unbounded = run(LENIENT, split(text, 2), Plan, reparse_budget=None)
    assert len(unbounded) >= len(budgeted)
    assert unbounded[-1].value == budgeted[-1].value


# -- async -----------------------------------------------------------------------------------------------------------


def test_async_stream_yields_the_same_updates() -> None:
    text = '<think>hmm</think>{"Action": "search", "title": "w", "steps": [{"tool": "a", "n": 1}], "done": true}'
    chunks = split(text, 5)

    async def collect() -> list[StreamUpdate[Any]]:
        return [u async for u in LENIENT.astream(agen(chunks), Plan)]

    async_updates = asyncio.run(collect())
    sync_updates = run(LENIENT, chunks, Plan)
    assert [u.partial for u in async_updates] == [u.partial for u in sync_updates]
    assert async_updates[-1].value == sync_updates[-1].value


def test_async_stream_needs_an_async_iterable() -> None:
    with pytest.raises(ConfigurationError):
        LENIENT.astream(["{}"], Plan)


# -- correction ------------------------------------------------------------------------------------------------------


def test_correct_with_re_asks_the_model_when_the_streamed_answer_is_wrong() -> None:
    asked: list[list[dict[str, str]]] = []

    def llm(messages: list[dict[str, str]]) -> str:
        asked.append(messages)
        return '{"action": "answer", "title": "fixed"}'

    messages = [{"role": "user", "content": "plan it"}]
    chunks = ['{"action": "dance", ', '"title": "t"}']
    final = list(stream(chunks, Plan, parser=LENIENT, correct_with=(llm, messages)))[-1]
    assert final.value == Plan(action="answer", title="fixed")
    assert final.correction is not None and final.correction.outcome == "corrected"
    assert len(asked) == 1
    assert asked[0][1] == {"role": "assistant", "content": '{"action": "dance", "title": "t"}'}
    assert messages == [{"role": "user", "content": "plan it"}]


def test_async_correct_with_awaits_an_async_model() -> None:
    async def llm(messages: list[dict[str, str]]) -> str:
        await asyncio.sleep(0)
        return '{"action": "search", "title": "fixed"}'

    async def collect() -> list[StreamUpdate[Any]]:
        chunks = agen(['{"action": "dance", ', '"title": "t"}'])
        pair = (llm, [{"role": "user", "content": "x"}])
        return [u async for u in astream(chunks, Plan, parser=LENIENT, correct_with=pair)]

    assert value(asyncio.run(collect())) == Plan(action="search", title="fixed")


def test_correct_with_does_not_call_the_model_when_the_answer_parses() -> None:
    def llm(messages: list[dict[str, str]]) -> str:
        raise AssertionError("the streamed answer was fine")

    final = list(stream(['{"action": "answer", "title": "t"}'], Plan, parser=LENIENT, correct_with=(llm, [])))[-1]
    assert final.value == Plan(action="answer", title="t")


# -- properties ------------------------------------------------------------------------------------------------------

_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
_step = st.fixed_dictionaries({"tool": _text, "n": st.integers(-(10**12), 10**12)})
_plan = st.fixed_dictionaries(
    {
        "action": st.sampled_from(["search", "answer"]),
        "title": _text,
    },
    optional={
        "steps": st.lists(_step, max_size=4),
        "score": st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False)),
        "done": st.booleans(),
    },
)
_prefix = st.sampled_from(["", "Here you go:\n", '<think>{"title": "no"}</think>\n', "```json\n", "Result: "])


def _recase(tree: Any) -> Any:
    if isinstance(tree, dict):
        return {k[:1].upper() + k[1:]: _recase(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_recase(v) for v in tree]
    return tree


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[str]]:
    tree = draw(_plan)
    if draw(st.booleans()):
        tree = _recase(tree)
    body = json.dumps(tree, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1])))
    prefix = draw(_prefix)
    text = prefix + body + ("\n```" if prefix == "```json\n" else "")
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=40))))
    bounds = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]


@given(documents(), st.booleans())
def test_every_partial_is_a_consistent_subset_of_the_final_object(
    doc: tuple[str, list[str]], partial_strings: bool
) -> None:
    text, chunks = doc
    updates = run(LENIENT, chunks, Plan, partial_strings=partial_strings, reparse_budget=None)
    final = updates[-1]
    assert final.is_final
    assert final.value == LENIENT.parse(text, Plan)
    expected = final.value.model_dump(mode="json")
    for shown in partials(updates):
        assert consistent(shown, expected, strings=partial_strings), (shown, expected)


@given(documents(), st.booleans())
def test_every_prefix_shows_a_consistent_subset(doc: tuple[str, list[str]], partial_strings: bool) -> None:
    text, _ = doc
    expected = LENIENT.parse(text, Plan).model_dump(mode="json")
    for end in range(1, len(text) + 1):
        state = _Stream(LENIENT, Plan, partial_strings=partial_strings, reparse_budget=None)
        update = state.feed(text[:end])
        if update is not None:
            shown = update.partial.model_dump(mode="json")
            assert consistent(shown, expected, strings=partial_strings), (text[:end], shown, expected)


@given(documents(), st.booleans())
def test_one_character_at_a_time_never_takes_anything_back(doc: tuple[str, list[str]], partial_strings: bool) -> None:
    text, _ = doc
    updates = run(LENIENT, list(text), Plan, partial_strings=partial_strings, reparse_budget=None)
    assert updates[-1].value == LENIENT.parse(text, Plan)
    shown = partials(updates)
    assert all(consistent(a, b, strings=partial_strings) for a, b in itertools.pairwise(shown))


_tree: st.SearchStrategy[dict[str, Any]] = st.recursive(
    st.fixed_dictionaries({"label": _text}, optional={"color": st.sampled_from(["red", "green", None])}),
    lambda kids: st.fixed_dictionaries(
        {"label": _text, "children": st.lists(kids, max_size=3)}, optional={"color": st.sampled_from(["red"])}
    ),
    max_leaves=8,
)


@given(_tree, st.data(), st.booleans())
def test_recursive_targets_stream_consistently(tree: dict[str, Any], data: st.DataObject, strings: bool) -> None:
    text = json.dumps(tree, indent=data.draw(st.sampled_from([None, 2])))
    size = data.draw(st.integers(1, 9))
    updates = run(LENIENT, split(text, size), Tree, partial_strings=strings, reparse_budget=None)
    expected = LENIENT.parse(text, Tree)
    assert value(updates) == expected
    for shown in partials(updates):
        assert consistent(shown, expected.model_dump(mode="json"), strings=strings)


@given(documents(), st.booleans())
def test_async_twin_agrees_with_sync(doc: tuple[str, list[str]], partial_strings: bool) -> None:
    _, chunks = doc

    async def collect() -> list[StreamUpdate[Any]]:
        return [u async for u in LENIENT.astream(agen(chunks), Plan, partial_strings=partial_strings)]

    async_updates = asyncio.run(collect())
    sync_updates = run(LENIENT, chunks, Plan, partial_strings=partial_strings)
    assert [u.partial for u in async_updates] == [u.partial for u in sync_updates]
    assert async_updates[-1].value == sync_updates[-1].value


# -- partials through the reader's repairs (issue 12, "Prefixes too") ----------------------------------------------
# pydantic-core's partial parser reads strict JSON only: past the first syntax it lacks, the reader reads the prefix
# with the repairs the policy allows. Each text has its repair before `title` and `steps`, so a partial that shows
# them was read past it.

_THROUGH_LOSSLESS = {
    "trailing comma": '{"action": "answer", "score": 1.5, "steps": [{"tool": "a", "n": 1},], "title": "t"}',
    "single quotes": "{\"action\": 'answer', 'score': 1.5, 'steps': [{'tool': 'a', 'n': 1}], 'title': 't'}",
    "python literal": '{"action": "answer", "done": True, "score": None,"steps": [{"tool": "a", "n": 1}], "title":"t"}',
    "comment": '{"action": "answer", // kind\n"score": 1.5, /* all */ "steps": [{"tool": "a", "n": 1}], "title": "t"}',
    "bare key": '{"action": "answer", score: 1.5, steps: [{tool: "a", n: 1}], title: "t", done: true}',
}


def _read_past(updates: Sequence[StreamUpdate[Any]]) -> bool:
    return any(s["title"] == "t" and s["steps"] == [{"tool": "a", "n": 1}] for s in partials(updates))


@pytest.mark.parametrize("parser", [LENIENT, STRICT], ids=["lenient", "strict"])
@pytest.mark.parametrize("name", list(_THROUGH_LOSSLESS))
def test_partials_go_on_past_a_lossless_repair(parser: Parser, name: str) -> None:
    # every one of these repairs is lossless (repairs.KINDS), so strict reads past it as lenient does
    text = _THROUGH_LOSSLESS[name]
    expected = parser.parse(text, Plan)
    for chunks in (split(text, 5), list(text)):
        updates = run(parser, chunks, Plan)
        assert _read_past(updates), (name, partials(updates))
        assert value(updates) == expected
        final = expected.model_dump(mode="json")
        assert all(consistent(s, final, strings=False) for s in partials(updates)), partials(updates)


def test_strings_as_far_as_they_go_through_the_reader() -> None:
    text = "{\"action\": 'answer', 'title': 'a long title', 'steps': []}"
    updates = run(LENIENT, list(text), Plan, partial_strings=True)
    titles = [s["title"] for s in partials(updates) if s["title"] is not None]
    assert "a long" in titles and titles[-1] == "a long title"
    assert all(b.startswith(a) for a, b in itertools.pairwise(titles))
    assert all(s["action"] in (None, "answer") for s in partials(updates))  # a half-written choice is never shown


def test_a_value_still_being_written_waits_through_the_reader() -> None:
    # past the trailing comma the reader reads: a number, a literal, a single-quoted string whose last quote may
    # be an apostrophe — each shows only once something after it says it is complete
    text = '{"action": "answer", "steps": [], "score": 12.25, "done": True, \'title\': \'it\'s done\'}'
    text = text.replace('"steps": []', '"steps": [{"tool": "a", "n": 1},]')
    updates = run(LENIENT, list(text), Plan)
    shown = partials(updates)
    assert {s["score"] for s in shown} <= {None, 12.25}
    assert {s["title"] for s in shown} <= {None, "it's done"}
    assert any(s["done"] is True for s in shown)
    assert value(updates) == LENIENT.parse(text, Plan)


# (shape, the guess lenient makes at `title`): strict may not make it, so its partials stop where it is
_GUESSES = {
    "unquoted string": ('{"action": "answer", "title": hello world, "done": true}', "hello world"),
    "inner quotes": ('{"action": "answer", "title": "a 24" screen", "done": true}', 'a 24" screen'),
    "junk word between members": ('{"action": "answer", COMMENT "title": "t", "done": true}', "t"),
    "missing closing quote": ('{"action": "answer", "title": "t, "done": true}', "t"),
}


@pytest.mark.parametrize("name", list(_GUESSES))
def test_strict_partials_never_show_a_guess_the_final_parse_refuses(name: str) -> None:
    text, guess = _GUESSES[name]
    with pytest.raises(ParseError):
        STRICT.parse(text, Plan)
    for chunks in (split(text, 4), list(text)):
        updates: list[StreamUpdate[Any]] = []
        with pytest.raises(ParseError):
            for update in STRICT.stream(chunks, Plan):
                updates.append(update)
        shown = partials(updates)
        assert any(s["action"] == "answer" for s in shown), shown  # what precedes the guess is shown
        assert all(s["title"] != guess and s["done"] is None for s in shown), shown


@pytest.mark.parametrize("name", list(_GUESSES))
def test_lenient_partials_go_on_through_its_guesses(name: str) -> None:
    text, guess = _GUESSES[name]
    updates = run(LENIENT, split(text, 4), Plan)
    assert value(updates) == LENIENT.parse(text, Plan)
    assert value(updates).title == guess
    assert any(s["done"] is True for s in partials(updates)), partials(updates)


def test_a_comment_still_open_holds_the_partials_back_until_it_closes() -> None:
    text = '{"action": "answer", "title": "t", // the steps come next\n"steps": [{"tool": "a", "n": 1}], "done": true}'
    updates = run(STRICT, list(text), Plan)
    assert any(s["done"] is True for s in partials(updates))
    assert value(updates) == STRICT.parse(text, Plan)


def test_trailing_commas_throughout_a_big_answer_stay_linear() -> None:
    # the reader's reads count against the same budget as pydantic-core's: a trailing comma in every item (the
    # parser stops at the first one for good) must not make each chunk re-read the whole answer
    steps = ", ".join(f'{{"tool": "tool-{i}", "n": {i},}}' for i in range(3000))
    text = f'{{"action": "answer", "title": "big", "steps": [{steps},], "done": true}}'
    state = _Stream(LENIENT, Plan, reparse_budget=2.0)
    shown = [u for c in split(text, 7) if (u := state.feed(c)) is not None]
    assert not state.fast_reads  # the reader did the reading
    assert state.spent <= 4.0 * len(text)  # the budget, plus the one read that passes it (up to two passes)
    assert len(shown) >= 10 and len(shown[-1].partial.steps) >= 1500  # and the partials kept coming
    assert value([state.finish()]) == LENIENT.parse(text, Plan)


def _unsafe_in_quotes(s: str) -> bool:
    return any(c in s for c in "'\"\\") or any(ord(c) < 0x20 for c in s)


_BARE_WORDS = re.compile(r"[A-Za-z][A-Za-z ]*[A-Za-z]")
_LITERAL_WORDS = {"true", "false", "null", "none", "nan", "infinity", "undefined"}


def _bare_ok(words: str) -> bool:
    """Whether unquoted words read as a string (not a literal in any case, not a Mongo-style call)."""
    return not any(w.lower() in _LITERAL_WORDS for w in words.split())


@st.composite
def loosely_written(draw: st.DrawFn, tree: Any, unquoted: bool = False) -> str:
    """`tree` written with the lossless repairs models make (repairs.KINDS): bare or single-quoted keys,
    single-quoted strings, Python literals, trailing commas, comments between members; with `unquoted`, also
    lenient's guess of a bare word value read as a string (`"k": some words,`)."""

    def gap() -> str:
        return draw(st.sampled_from(["", " ", "", " /* c */ ", " // c\n", "\n# c\n"]))

    def write(node: Any) -> str:
        if isinstance(node, dict):
            members = []
            for key, item in node.items():
                quote = draw(st.sampled_from(["double", "single", "bare"]))
                if quote == "bare" and re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", key):
                    written = key
                elif quote == "single" and not _unsafe_in_quotes(key):
                    written = f"'{key}'"
                else:
                    written = json.dumps(key)
                members.append(f"{gap()}{written}: {write(item)}")
            trailing = "," if draw(st.booleans()) and members else ""
            return "{" + ",".join(members) + trailing + gap() + "}"
        if isinstance(node, list):
            items = [gap() + write(v) for v in node]
            trailing = "," if draw(st.booleans()) and items else ""
            return "[" + ", ".join(items) + trailing + "]"
        if (
            isinstance(node, str)
            and unquoted
            and _BARE_WORDS.fullmatch(node)
            and _bare_ok(node)
            and draw(st.booleans())
        ):
            return node
        if isinstance(node, str) and not _unsafe_in_quotes(node) and draw(st.booleans()):
            return f"'{node}'"
        if isinstance(node, bool) or node is None:
            python = {True: "True", False: "False", None: "None"}[node]
            return python if draw(st.booleans()) else json.dumps(node)
        return json.dumps(node)

    body = write(tree)
    return (
        '{"action"' + body[len('{"action"') :] if body.startswith('{"action"') else '{"action": "answer", ' + body[1:]
    )


@given(_plan, st.data(), st.booleans())
def test_lossless_repairs_stream_consistently_in_both_modes(
    tree: dict[str, Any], data: st.DataObject, strings: bool
) -> None:
    """Written with lossless repairs only, a document reads the same in both modes; streamed in any chunks, every
    partial is a consistent subset of the final object, which is the batch parse."""
    text = data.draw(loosely_written({k: v for k, v in tree.items() if k != "action"}))
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=30))))
    chunks = [text[a:b] for a, b in itertools.pairwise([0, *cuts, len(text)]) if b > a]
    for parser in (LENIENT, STRICT):
        expected = parser.parse(text, Plan)
        for pieces in (chunks, list(text)):
            updates = run(parser, pieces, Plan, partial_strings=strings, reparse_budget=None)
            assert value(updates) == expected
            final = expected.model_dump(mode="json")
            for shown in partials(updates):
                assert consistent(shown, final, strings=strings), (text, shown, final)


def _asking(paths: list[list[Any]]) -> Callable[[list[Any]], bool]:
    def keep(path: list[Any]) -> bool:
        paths.append(path)
        return True

    return keep


@given(_plan, st.data(), st.sampled_from([LENIENT, STRICT]))
def test_a_read_resumed_where_the_last_left_off_reads_what_a_read_from_the_start_does(
    tree: dict[str, Any], data: st.DataObject, parser: Parser
) -> None:
    """The reader's reads of a growing answer start after the last ',' of the innermost open container the last
    read reached (`read_prefix.Resume`), not at the answer's start; for every prefix they give the same tree."""
    text = data.draw(loosely_written({k: v for k, v in tree.items() if k != "action"}))
    lossy = lossy_kinds(parser.policy)
    resume = None
    for end in range(1, len(text) + 1):
        whole_asked: list[list[Any]] = []  # the paths of strings being written, as each read sees them
        resumed_asked: list[list[Any]] = []
        whole = read_prefix(text[:end], lossy=lossy, max_depth=400, keep_string=_asking(whole_asked))
        resumed = read_prefix(text[:end], lossy=lossy, max_depth=400, keep_string=_asking(resumed_asked), resume=resume)
        assert resumed.tree == whole.tree, (text[:end], resume)
        assert resumed_asked == whole_asked, (text[:end], resume)
        assert (resumed.failure is None) == (whole.failure is None)
        resume = resumed.resume
    assert resume is None or resume.at < len(text)


def test_a_long_answer_with_a_repair_near_its_start_is_still_taken_for_the_answer() -> None:
    # a start is judged from a window of its first characters: where pydantic-core stops early in it, the reader
    # says whether it is JSON — not prose, so the partials do not go looking for the next `{"` (a step's object)
    steps = ", ".join(f'{{"tool": "t{i}", "n": {i}}}' for i in range(40))
    text = '{"action": \'answer\', "steps": [' + steps + "], \"title\": 't'}"
    assert len(text) > 1_000
    for parser in (LENIENT, STRICT):
        updates = run(parser, split(text, 9), Plan)
        shown = partials(updates)
        assert any(s["action"] == "answer" and len(s["steps"] or []) >= 20 for s in shown), shown[-1]
        assert value(updates) == parser.parse(text, Plan)


def test_a_long_comment_near_the_start_does_not_make_the_answer_look_like_prose() -> None:
    text = '{"action": /* ' + "a long note " * 40 + '*/ "answer", "title": "t", "steps": [{"tool": "a", "n": 1}]}'
    # the start is judged as soon as it is found, here from a first chunk that ends inside the comment
    updates = run(STRICT, [text[:400], *split(text[400:], 9)], Plan)
    assert _read_past(updates), partials(updates)
    assert value(updates) == STRICT.parse(text, Plan)


_json_tree: st.SearchStrategy[Any] = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), _text),
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(_text, kids, max_size=4)),
    max_leaves=12,
)


@given(st.dictionaries(_text, _json_tree, max_size=4), st.data())
def test_any_document_read_prefix_by_prefix_resumed_or_not(tree: dict[str, Any], data: st.DataObject) -> None:
    """For any document written with lossless repairs, read as it grows (at random points), every prefix reads the
    same resumed or from the start (the same tree, the same paths asked about for a string being written), and the
    whole text reads as the document."""
    text = data.draw(loosely_written(tree))
    resume = None
    last: Any = None
    ends = sorted({*data.draw(st.lists(st.integers(1, len(text)), max_size=25)), len(text)})  # reads, chunk by chunk
    for end in ends:
        whole_asked: list[list[Any]] = []
        resumed_asked: list[list[Any]] = []
        whole = read_prefix(text[:end], lossy=frozenset(), max_depth=400, keep_string=_asking(whole_asked))
        resumed = read_prefix(
            text[:end], lossy=frozenset(), max_depth=400, keep_string=_asking(resumed_asked), resume=resume
        )
        assert resumed.tree == whole.tree and resumed_asked == whole_asked, (text[:end], resume)
        resume, last = resumed.resume, resumed.tree
    assert last == json.loads(json.dumps({"action": "answer", **tree}))


_words = st.from_regex(r"[A-Za-z][A-Za-z ]{0,8}[A-Za-z]", fullmatch=True)


@given(st.dictionaries(_text, st.recursive(_words, lambda kids: st.lists(kids, max_size=3), max_leaves=6)), st.data())
def test_lenient_guesses_read_the_same_resumed_or_not(tree: dict[str, Any], data: st.DataObject) -> None:
    """The same with unquoted string values, which only lenient reads (a guess): resumed or from the start, every
    prefix gives the same tree, and the whole text the document."""
    text = data.draw(loosely_written(tree, unquoted=True))
    lossy = lossy_kinds(LENIENT.policy)
    resume = None
    ends = sorted({*data.draw(st.lists(st.integers(1, len(text)), max_size=25)), len(text)})
    for end in ends:
        whole = read_prefix(text[:end], lossy=lossy, max_depth=400)
        resumed = read_prefix(text[:end], lossy=lossy, max_depth=400, resume=resume)
        assert resumed.tree == whole.tree, (text[:end], resume)
        resume = resumed.resume
    assert resumed.tree == json.loads(json.dumps({"action": "answer", **tree}))


def test_a_repair_the_policy_forbids_stops_the_partials_as_it_stops_the_final_parse() -> None:
    # the reader makes lossless repairs whatever the policy; one the policy forbids is refused by the final parse,
    # so the partials show only what precedes it
    no_comments = Parser(Policy(allow_lossy=False, forbidden_kinds=frozenset({"comment"})))
    text = '{"action": "answer", "title": "t", /* note */ "steps": [{"tool": "a", "n": 1}], "done": true}'
    updates: list[StreamUpdate[Any]] = []
    with pytest.raises(ParseError):
        for update in no_comments.stream(split(text, 5), Plan):
            updates.append(update)
    shown = partials(updates)
    assert any(s["title"] == "t" for s in shown)
    assert all(s["steps"] is None and s["done"] is None for s in shown), shown
    assert _read_past(run(STRICT, split(text, 5), Plan))  # the same text, comments allowed


def test_a_lone_slash_after_a_single_quoted_string_is_a_comment_still_being_written() -> None:
    """`'' /` is an empty string and the first '/' of a comment; read as a string running on over the '/', the
    partial once showed the title `' /` (found by the property above)."""
    text = """{"action": "answer", "title": '' /* c */ }"""
    for parser in (LENIENT, STRICT):
        updates = run(parser, list(text), Plan, partial_strings=True, reparse_budget=None)
        assert value(updates).title == ""
        assert all(p["title"] in (None, "") for p in partials(updates))
