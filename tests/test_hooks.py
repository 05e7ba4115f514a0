"""The hook chain: every hook documented and listed, plugins registered per parser, overriding and extending the
built-ins, blocking them by name, no shared state between parsers, thread safety, and observers that cannot break
a parse."""

from __future__ import annotations

import inspect
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import Parser, SchemaMismatchError, hookimpl, hookspecs
from resilient_parse.plugin_api import CallContext, Candidate, Event, LoadResult, PluginError


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, Any] = {}


class Person(BaseModel):
    name: str
    age: int


def spec_functions() -> dict[str, Any]:
    marker = f"{hookspecs.PROJECT}_spec"
    return {name: fn for name, fn in vars(hookspecs).items() if callable(fn) and hasattr(fn, marker)}


# -- the hookspecs module ----------------------------------------------------------------------------------------


def test_every_hookspec_is_listed_in_hook_names() -> None:
    assert list(spec_functions()) == list(hookspecs.HOOK_NAMES)  # every spec, in declaration order
    assert all(name.startswith("rp_") for name in hookspecs.HOOK_NAMES) and len(hookspecs.HOOK_NAMES) >= 11


@pytest.mark.parametrize("name", hookspecs.HOOK_NAMES)
def test_every_hook_has_a_docstring(name: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, name))
    assert doc and len(doc.split()) >= 8, f"{name} needs a docstring for plugin authors"


@pytest.mark.parametrize("name", hookspecs.HOOK_NAMES)
def test_every_hook_name_is_prefixed(name: str) -> None:
    assert name.startswith("rp_")


def test_firstresult_hooks_say_so_in_their_docstring() -> None:
    marker = f"{hookspecs.PROJECT}_spec"
    for name, fn in spec_functions().items():
        if getattr(fn, marker).get("firstresult"):
            assert "first non-None" in (inspect.getdoc(fn) or ""), name


# -- registration ------------------------------------------------------------------------------------------------


class Misspelled:
    @hookimpl
    def rp_parze(self, text: str, ctx: CallContext) -> LoadResult | None:  # "rp_parse" misspelled
        return None


def test_a_misspelled_hook_fails_at_parser_construction() -> None:
    with pytest.raises(PluginError, match="rp_parze"):
        Parser(plugins=[Misspelled()], entrypoints=False)


class WrongArgument:
    @hookimpl
    def rp_parse(self, txt: str, ctx: CallContext) -> LoadResult | None:  # "text" misspelled
        return None


def test_a_hook_with_an_unknown_argument_fails_at_construction() -> None:
    with pytest.raises(PluginError):
        Parser(plugins=[WrongArgument()], entrypoints=False)


def test_builtin_stages_are_registered_by_name() -> None:
    names = Parser(entrypoints=False).host.names
    assert {"rp.extract", "rp.syntax", "rp.align", "rp.common_aliases", "rp.coerce", "rp.feedback"} <= set(names)


# -- overriding and extending ------------------------------------------------------------------------------------


class UpperCaseLoader:
    """Overrides the firstresult `rp_parse`: reads `KEY=value` lines instead of JSON."""

    rp_name = "test.kv_loader"

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def rp_parse(self, text: str, ctx: CallContext) -> LoadResult | None:
        self.calls += 1
        if "=" not in text:
            return None  # let the built-in loader try
        tree = dict(line.split("=", 1) for line in text.strip("{}").split(";"))
        return LoadResult(tree=tree, json_text=json.dumps(tree))


def test_a_user_plugin_overrides_a_firstresult_hook() -> None:
    loader = UpperCaseLoader()
    parser = Parser(plugins=[loader], entrypoints=False)
    assert parser.parse("{action=search}", ToolCall) == ToolCall(action="search")
    assert loader.calls >= 1


def test_a_plugin_returning_none_falls_through_to_the_builtin() -> None:
    loader = UpperCaseLoader()
    parser = Parser(plugins=[loader], entrypoints=False)
    assert parser.parse('{"action": "search",}', ToolCall) == ToolCall(action="search")
    assert loader.calls >= 1


class ToolTagExtractor:
    """Adds candidates: `<tool name="search"/>` tags become `{"action": "search"}`."""

    @hookimpl
    def rp_extract_candidates(self, text: str, ctx: CallContext) -> list[Candidate]:
        start = text.find('<tool name="')
        if start < 0:
            return []
        end = text.index('"', start + 12)
        name = text[start + 12 : end]
        return [Candidate(json.dumps({"action": name}), start, end, "tool_tag")]


def test_a_plugin_can_add_candidates() -> None:
    parser = Parser(plugins=[ToolTagExtractor()], entrypoints=False)
    result = parser.parse_result('Calling <tool name="search"/> now.', ToolCall)
    assert result.value == ToolCall(action="search")
    assert result.candidate == '{"action": "search"}'


def test_without_the_plugin_the_same_text_has_no_candidate() -> None:
    with pytest.raises(Exception) as info:
        Parser(entrypoints=False).parse('Calling <tool name="search"/> now.', ToolCall)
    assert info.value.kind == "no_candidate"  # type: ignore[attr-defined]


# -- blocking ----------------------------------------------------------------------------------------------------


def test_blocking_a_builtin_plugin_by_name() -> None:
    text = '{"tool": "search"}'
    assert Parser(entrypoints=False).parse(text, ToolCall) == ToolCall(action="search")
    blocked = Parser(entrypoints=False, blocked_plugins=["rp.common_aliases"])
    with pytest.raises(SchemaMismatchError):
        blocked.parse(text, ToolCall)


def test_a_blocked_plugin_is_not_listed_as_registered() -> None:
    blocked = Parser(entrypoints=False, blocked_plugins=["rp.common_aliases"])
    assert "rp.common_aliases" not in blocked.host.names
    assert "rp.extract" in blocked.host.names


# -- per-parser state --------------------------------------------------------------------------------------------


def test_two_parsers_with_different_aliases_coexist() -> None:
    to_name = Parser(aliases={"who": "name", "years": "age"}, entrypoints=False)
    plain = Parser(entrypoints=False)
    text = '{"who": "Bob", "years": 30}'
    assert to_name.parse(text, Person) == Person(name="Bob", age=30)
    with pytest.raises(SchemaMismatchError):
        plain.parse(text, Person)
    assert to_name.parse(text, Person) == Person(name="Bob", age=30)


def test_two_parsers_with_different_plugins_coexist() -> None:
    with_tags = Parser(plugins=[ToolTagExtractor()], entrypoints=False)
    without = Parser(entrypoints=False)
    text = '<tool name="search"/>'
    assert with_tags.parse(text, ToolCall) == ToolCall(action="search")
    with pytest.raises(Exception, match="no JSON"):
        without.parse(text, ToolCall)
    assert with_tags.parse(text, ToolCall) == ToolCall(action="search")


def test_a_plugin_instance_is_not_shared_between_parsers() -> None:
    a, b = UpperCaseLoader(), UpperCaseLoader()
    Parser(plugins=[a], entrypoints=False).parse("{action=x}", ToolCall)
    assert (a.calls, b.calls) == (1, 0)


THREAD_CASES = [
    ('```json\n{"action": "search", "arguments": {"q": "a"},}\n```', ToolCall),
    ("{'name': 'Bob', 'age': 30}", Person),
    ('{"tool": "open", "args": {"path": "/tmp"}}', ToolCall),
    ('<think>{"name": "x", "age": 1}</think>\n{"name": "Ann", "age": 41}', Person),
    ('{"Name": "Eve", "AGE": "52"}', Person),
    ("no json", Person),
    ('{"name": "Bob", "age": 3', Person),
]


def outcome(parser: Parser, text: str, target: Any) -> Any:
    try:
        result = parser.parse_result(text, target)
    except Exception as err:  # compared, not raised
        return (type(err).__name__, str(err))
    return (result.value, [r.to_dict() for r in result.repairs])


def test_one_parser_shared_across_threads_matches_sequential() -> None:
    shared = Parser(entrypoints=False)
    work = THREAD_CASES * 30
    sequential = [outcome(Parser(entrypoints=False), t, tg) for t, tg in work]
    barrier = threading.Barrier(4)

    def run(i: int) -> Any:
        if i < 4:
            barrier.wait()
        text, target = work[i]
        return outcome(shared, text, target)

    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(run, range(len(work))))
    assert parallel == sequential


# -- observers ---------------------------------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.events: list[str] = []

    @hookimpl
    def rp_on_event(self, event: Event, ctx: CallContext | None) -> None:
        self.events.append(event.name)


class Exploder:
    @hookimpl
    def rp_on_event(self, event: Event, ctx: CallContext | None) -> None:
        raise RuntimeError("observer bug")


def test_observers_see_the_parse() -> None:
    recorder = Recorder()
    Parser(plugins=[recorder], entrypoints=False).parse('{"name": "Bob", "age": 30,}', Person)
    assert "parse_started" in recorder.events
    assert "parse_succeeded" in recorder.events


def test_an_observer_that_raises_does_not_break_parsing() -> None:
    recorder = Recorder()
    parser = Parser(plugins=[Exploder(), recorder], entrypoints=False)
    assert parser.parse('{"name": "Bob", "age": 30,}', Person) == Person(name="Bob", age=30)
    assert "parse_succeeded" in recorder.events


def test_an_observer_that_raises_does_not_change_a_failure() -> None:
    parser = Parser(plugins=[Exploder()], entrypoints=False)
    with pytest.raises(SchemaMismatchError):
        parser.parse('{"name": "Bob"}', Person)


class _GuessingExtractor:
    """A plugin offering a candidate that carries a lossy repair of its own."""

    @hookimpl
    def rp_extract_candidates(self, text: str, ctx: Any) -> list[Any]:
        from resilient_parse import Repair
        from resilient_parse.plugin_api import Candidate

        guess = Repair.make("plugin_guess", "", text, '{"name": "guessed"}')  # a kind no registry knows: lossy
        return [Candidate('{"name": "guessed"}', 0, len(text), "guesser", repairs=(guess,))]


class _Named(BaseModel):
    name: str


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_a_plugin_candidates_own_lossy_repair_is_checked_against_the_policy(mode: str) -> None:
    from resilient_parse import ParseError

    parser = Parser(mode=mode, plugins=[_GuessingExtractor()], entrypoints=False)
    if mode == "strict":
        with pytest.raises(ParseError) as info:
            parser.parse_result("the name is guessed", _Named)
        assert any(d["kind"] == "repair_not_allowed" for d in info.value.errors)
    else:
        result = parser.parse_result("the name is guessed", _Named)
        assert result.value == _Named(name="guessed")
        assert [(r.kind, r.lossless) for r in result.repairs] == [("plugin_guess", False)]


# -- events on every parse (issue 15) ------------------------------------------------------------------------------


class DataRecorder:
    """Keeps each event's name and data, and whether a call context came with it."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    @hookimpl
    def rp_on_event(self, event: Event, ctx: CallContext | None) -> None:
        self.events.append((event.name, dict(event.data)))

    def names(self) -> list[str]:
        return [name for name, _ in self.events]

    def last(self, name: str) -> dict[str, Any]:
        return [data for n, data in self.events if n == name][-1]


@pytest.mark.parametrize("mode", ["strict", "lenient"])
@pytest.mark.parametrize("call", ["parse", "parse_result"])
def test_a_valid_parse_on_the_fast_path_is_observed(mode: str, call: str) -> None:
    recorder = DataRecorder()
    parser = Parser(mode=mode, plugins=[recorder], entrypoints=False)
    text = '{"name": "Bob", "age": 30}'
    got = getattr(parser, call)(text, Person)
    assert (got if call == "parse" else got.value) == Person(name="Bob", age=30)
    assert recorder.names() == ["parse_started", "parse_succeeded"]
    assert recorder.last("parse_started") == {"length": len(text)}
    done = recorder.last("parse_succeeded")
    assert {k: done[k] for k in ("repairs", "lossy", "source", "path", "target", "mode")} == {
        "repairs": 0,
        "lossy": 0,
        "source": "whole",
        "path": "fast",
        "target": "Person",
        "mode": mode,
    }
    assert isinstance(done["duration_s"], float) and done["duration_s"] >= 0


def test_a_repaired_parse_reports_its_repairs_and_the_lossy_ones() -> None:
    recorder = DataRecorder()
    parser = Parser(plugins=[recorder], entrypoints=False)
    result = parser.parse_result('{"Name": "Bob", "age": 30,}', Person)  # a trailing comma and a key in another case
    lossy = sum(1 for r in result.repairs if not r.lossless)
    assert lossy >= 1 and len(result.repairs) > lossy
    done = recorder.last("parse_succeeded")
    assert (done["path"], done["repairs"], done["lossy"], done["target"]) == (
        "repaired",
        len(result.repairs),
        lossy,
        "Person",
    )
    assert recorder.names() == ["parse_started", "parse_succeeded"]


def test_a_semantic_failure_on_valid_json_is_observed() -> None:
    from resilient_parse import ErrorDetail, SemanticCheckError

    def adults_only(person: Person) -> list[ErrorDetail]:
        return [] if person.age >= 18 else [ErrorDetail(path="/age", kind="too_young", message="under 18")]

    recorder = DataRecorder()
    parser = Parser(plugins=[recorder], entrypoints=False, validators=[adults_only])
    with pytest.raises(SemanticCheckError):
        parser.parse('{"name": "Tim", "age": 9}', Person)
    assert recorder.names() == ["parse_started", "parse_failed"]
    failed = recorder.last("parse_failed")
    assert {k: failed[k] for k in ("kind", "details", "repairs", "target", "mode")} == {
        "kind": "semantic",
        "details": 1,
        "repairs": 0,
        "target": "Person",
        "mode": "lenient",
    }
    assert failed["duration_s"] >= 0


def test_a_failed_read_and_bad_input_are_observed_with_the_errors_kind() -> None:
    recorder = DataRecorder()
    parser = Parser(mode="strict", plugins=[recorder], entrypoints=False)
    with pytest.raises(SchemaMismatchError):
        parser.parse('{"name": "Bob"}', Person)
    assert recorder.last("parse_failed")["kind"] == "schema"
    from resilient_parse import InvalidInputError

    with pytest.raises(InvalidInputError):
        parser.parse(b"\xff\xfe", Person)
    assert recorder.names()[-2:] == ["parse_started", "parse_failed"]
    assert recorder.last("parse_started") == {"length": 2}
    assert recorder.last("parse_failed")["kind"] == "invalid_input"


def test_event_data_never_holds_the_text() -> None:
    recorder = DataRecorder()
    secret = "a-secret-value-9f3"
    Parser(plugins=[recorder], entrypoints=False).parse(f'{{"name": "{secret}", "age": 30,}}', Person)
    assert secret not in json.dumps([data for _, data in recorder.events], default=str)


def test_the_target_is_named_shortly() -> None:
    from resilient_parse.parser import type_name

    assert type_name(list[Person]) == "list[Person]"
    assert type_name(Person | None) == "Person | None"
    assert type_name(dict[str, list[int]]) == "dict[str, list[int]]"
    assert len(type_name(tuple[tuple[tuple[tuple[tuple[tuple[int, ...], ...], ...], ...], ...], ...])) <= 80
