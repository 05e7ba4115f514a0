"""rp_toolcalls under hostile and tricky text (issue 13, r17): scans that read each character once, `ast` kept to
small inputs with every failure a ParseError, a call inside reasoning never the answer beside a visible one, a
call beside a refusal or labelled an example never made, and `Action:` followed by a JSON call to another tool an
ambiguity. Work is counted, never timed (timing lives in benchmarks/adversarial_timing.py)."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from typing import Any

import pytest
from pydantic import BaseModel
from rp_toolcalls import ToolCall, ToolRegistry, extract_calls, python_call

from resilient_parse import AmbiguousMatchError, ParseError, Parser, RefusalError, UnrecoverableSyntaxError
from resilient_parse.tools import formats, prose_formats, pycall, scanning, token_formats

MODES = ("strict", "lenient")
GOOD = '{"name": "search", "arguments": {"q": "x"}}'


class _NoArguments(BaseModel):
    pass


def registry_of(*names: str) -> ToolRegistry:
    registry = ToolRegistry()
    for name in names:
        registry.register(name, f"the {name} tool", _NoArguments)
    return registry


SEARCH = ToolCall(name="search", arguments={"q": "x"})


def parse(text: str, mode: str, target: Any = ToolCall) -> Any:
    return Parser(mode).parse(text, target)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How far each forward search of the format readers reads: from where it starts to where its match starts
    (or to the end of the stretch when there is none)."""
    read: list[int] = []

    class Counted(scanning.Ahead):
        def _search(self, pos: int) -> re.Match[str] | None:
            found = super()._search(pos)
            read.append((found.start() if found is not None else self._end) - pos)
            return found

    for readers in (token_formats, prose_formats):
        monkeypatch.setattr(readers, "Ahead", Counted)
    return read


# -- linear scans --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Action: a\n" * 3000 + GOOD,
        "<tool_call>" * 3000 + GOOD,
        "<tool_call>{}" * 1500 + "</tool_call >x" * 1500,
        "<|python_tag|>" * 3000 + GOOD,
        "Action: a\nAction Input: " * 1500 + GOOD,
    ],
    ids=["react_lines", "hermes_never_closed", "hermes_close_without_gt", "python_tags", "react_inputs"],
)
def test_forward_searches_read_each_character_once_per_pattern(text: str, counted: list[int]) -> None:
    extract_calls(text, Parser(entrypoints=False))
    patterns = 3 + 3 + 1 + 2  # hermes (open, close, reopen per tag), python_tag ends, ReAct stops and inputs
    assert counted, "the scan made no forward search: the counter measures nothing"
    assert sum(counted) <= patterns * len(text)


def test_the_taken_stretches_are_bisected_and_overlaps_still_cover() -> None:
    found = scanning.Found("", 0, 0)
    found.take(0, 100)
    found.take(10, 20)
    found.take(150, 160)
    found.commit()
    assert [found.covers(p) for p in (0, 50, 99, 100, 149, 155, 160)] == [True, True, True, False, False, True, False]


@pytest.mark.parametrize("mode", MODES)
def test_many_action_lines_before_a_json_call_to_another_tool_are_ambiguous(mode: str) -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        parse("Action: a\n" * 2000 + GOOD, mode)
    assert "'a'" in info.value.message and "'search'" in info.value.message


@pytest.mark.parametrize("mode", MODES)
def test_think_tags_without_a_closing_bracket_are_text(mode: str) -> None:
    assert parse("<think " * 8000 + GOOD, mode) == SEARCH


@pytest.mark.parametrize("mode", MODES)
def test_hundreds_of_tagged_calls_are_all_read_and_a_later_plain_call_too(mode: str) -> None:
    text = '<tool_call>{"name": "a"}</tool_call>' * 300 + "\n" + GOOD
    calls = parse(text, mode, list[ToolCall])
    assert len(calls) == 301 and calls[-1] == SEARCH and {c.name for c in calls[:300]} == {"a"}


def test_consecutive_python_tags_are_each_a_call() -> None:
    text = '<|python_tag|>{"name": "a", "parameters": {}}<|python_tag|>{"name": "b", "parameters": {}}<|eom_id|>'
    assert [c.name for c in extract_calls(text, Parser(entrypoints=False))] == ["a", "b"]


def test_no_backtracking_regex_is_left_in_the_plugin() -> None:
    scan = subprocess.run(
        [sys.executable, ".ci/redos_scan.py", "plugins/toolcalls/src"], capture_output=True, text=True, check=False
    )
    if scan.returncode != 0 and "No module named" in scan.stderr:
        pytest.fail(f"the ReDoS scanner cannot run: {scan.stderr.strip()[-200:]}")
    assert scan.returncode == 0, scan.stdout[-2000:]


# -- ast on model text ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "call",
    ["f(x=" + "-" * 100_000 + "1)", "f(x=0x" + "f" * 100_000 + ")", "f(x=" + "1+" * 900 + "1)", "f(x=" + "(" * 5000],
    ids=["unary_chain", "huge_hex", "deep_sum", "open_parens"],
)
def test_a_hostile_python_call_is_an_unreadable_call_not_an_internal_error(mode: str, call: str) -> None:
    with pytest.raises(UnrecoverableSyntaxError) as info:
        parse(GOOD + "\n<|python_tag|>" + call, mode)
    assert info.value.errors[0]["kind"] == "unreadable_call"
    parsed = registry_of("f").parse("<|python_tag|>" + call, parser=Parser(mode))
    assert [p.error.code if p.error else None for p in parsed] == ["unreadable_call"]


def test_ast_is_never_handed_more_than_the_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    import ast

    seen: list[int] = []
    real = ast.parse

    def recording(source: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(len(source))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", recording)
    assert python_call("f(x=" + "-" * 100_000 + "1)") is None
    assert python_call("f(x='" + "a" * (pycall.MAX_PY_CALL_CHARS + 1) + "')") is None
    assert seen == []
    assert python_call("f(x='" + "a" * 50_000 + "')") == ("f", {"x": "a" * 50_000})  # long strings are leaves
    assert seen and max(seen) <= pycall.MAX_PY_CALL_CHARS + 3


@pytest.mark.parametrize("literal", ["1j", "b'x'", "{1, 2}", "float('nan')", "1e999", "..."])
def test_python_literals_json_cannot_hold_are_refused(literal: str) -> None:
    assert python_call(f"f(x={literal})") is None


# -- drafts in reasoning, refusals and examples --------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        '<think><tool_call>{"name": "delete_all"}</tool_call></think>Nothing to do.',
        "<think>\nAction: delete_all\nAction Input: {}\n</think>\nNothing to do.",
        "<think><|python_tag|>delete_all.call(force=True)</think>Done, no call needed.",
        '<thinking>[TOOL_CALLS]delete_all[ARGS]{"force": true}</thinking>\nAll good.',
        '<think>Let me call <tool_call>{"name": "delete_all", "arguments": {}}</tool_call>',
    ],
    ids=["hermes", "react", "python_tag", "mistral", "cut_off"],
)
def test_a_call_inside_reasoning_is_never_the_answer_beside_a_visible_one(mode: str, text: str) -> None:
    with pytest.raises(ParseError):
        parse(text, mode)
    with pytest.raises(ParseError):
        parse(text, mode, list[ToolCall])
    assert extract_calls(text, Parser(mode, entrypoints=False)) == []


@pytest.mark.parametrize("mode", MODES)
def test_a_draft_with_no_visible_answer_is_judged_as_the_core_judges_a_json_draft(mode: str) -> None:
    """The same rule for a call as for the JSON draft it stands for: strict never takes it; where the core takes
    its JSON draft (lenient, nothing visible), the call is taken too, and only as a lossy choice."""
    as_call = '<think>\nAction: delete_all\nAction Input: {"force": true}\n</think>'
    as_json = '<think>\n{"name": "delete_all", "arguments": {"force": true}}\n</think>'
    core = Parser(mode, blocked_plugins=["toolcalls"])
    try:
        expected = core.parse_result(as_json, ToolCall).value
    except ParseError:
        expected = None
    if mode == "strict":
        assert expected is None
    try:
        result = Parser(mode).parse_result(as_call, ToolCall)
    except ParseError:
        assert expected is None
    else:
        assert result.value == expected == ToolCall(name="delete_all", arguments={"force": True})
        assert ("reasoning_candidate", False) in [(r.kind, r.lossless) for r in result.repairs]
    assert extract_calls(as_call, Parser(mode, entrypoints=False)) == []  # the registry never runs a draft


@pytest.mark.parametrize("mode", MODES)
def test_a_reasoning_tag_inside_a_json_argument_is_text(mode: str) -> None:
    text = '<tool_call>{"name": "note", "arguments": {"text": "a <think>b</think> c"}}</tool_call>'
    assert parse(text, mode) == ToolCall(name="note", arguments={"text": "a <think>b</think> c"})


def test_a_visible_call_after_reasoning_is_the_answer() -> None:
    text = '<think><tool_call>{"name": "delete_all"}</tool_call></think>\n<tool_call>' + GOOD + "</tool_call>"
    for mode in MODES:
        assert parse(text, mode) == SEARCH
        assert [c.name for c in extract_calls(text, Parser(mode, entrypoints=False))] == ["search"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        'I will not do that.\n<tool_call>{"name": "delete_all"}</tool_call>',
        'For example, <tool_call>{"name": "delete_all"}</tool_call> would wipe the disk. I will not do that.',
        "I can't help with that.\nAction: delete_all\nAction Input: now",
    ],
    ids=["refusal_then_call", "example_then_refusal", "refusal_then_react"],
)
def test_a_call_beside_a_visible_refusal_is_not_made(mode: str, text: str) -> None:
    with pytest.raises(RefusalError):
        parse(text, mode)
    assert extract_calls(text, Parser(mode, entrypoints=False)) == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("Action: reply\nAction Input: I am sorry, I cannot help with that.", "reply"),
        ("I am sorry, that failed. Let me retry.\nAction: search\nAction Input: x", "search"),
    ],
    ids=["refusal_as_a_tool_input", "apology_then_call"],
)
def test_a_refusal_is_read_in_the_prose_outside_the_calls(mode: str, text: str, call: str) -> None:
    assert [c.name for c in extract_calls(text, Parser(mode, entrypoints=False))] == [call]


@pytest.mark.parametrize("mode", MODES)
def test_a_call_labelled_an_example_is_not_made(mode: str) -> None:
    text = 'For example, <tool_call>{"name": "delete_all", "arguments": {}}</tool_call> is how a call looks.'
    with pytest.raises(ParseError):
        parse(text, mode)
    assert extract_calls(text, Parser(mode, entrypoints=False)) == []


# -- ReAct `Action:` and the JSON after it -------------------------------------------------------------------

TRANSFER = '{"name": "transfer", "arguments": {"to": "bob", "amount": 5}}'


@pytest.mark.parametrize("mode", MODES)
def test_an_action_line_followed_by_a_json_call_to_another_tool_is_ambiguous(mode: str) -> None:
    text = "Action: lookup\n" + TRANSFER
    with pytest.raises(AmbiguousMatchError) as info:
        parse(text, mode)
    assert "'lookup'" in info.value.message and "'transfer'" in info.value.message
    assert info.value.errors[0]["got"] == ["lookup", "transfer"]
    parsed = registry_of("lookup", "transfer").parse(text, parser=Parser(mode))
    assert [(p.tool, p.error.code if p.error else None) for p in parsed] == [(None, "ambiguous_call")]


@pytest.mark.parametrize("mode", MODES)
def test_an_action_line_naming_the_tool_of_the_json_after_it_is_one_call(mode: str) -> None:
    assert parse("Action: transfer\n" + TRANSFER, mode) == ToolCall(
        name="transfer", arguments={"to": "bob", "amount": 5}
    )


def test_json_naming_no_tool_after_an_action_line_is_its_input_only_as_a_lossy_guess() -> None:
    text = 'Action: transfer\n{"to": "bob", "amount": 5}'
    with pytest.raises(UnrecoverableSyntaxError):
        parse(text, "strict")
    result = Parser("lenient").parse_result(text, ToolCall)
    assert result.value == ToolCall(name="transfer", arguments={"to": "bob", "amount": 5})
    assert [(r.kind, r.path, r.lossless) for r in result.repairs] == [(formats.IMPLIED_INPUT_KIND, "/arguments", False)]


@pytest.mark.parametrize("mode", MODES)
def test_action_with_action_input_is_read_as_react(mode: str) -> None:
    text = 'Thought: pay bob\nAction: transfer\nAction Input: {"to": "bob", "amount": 5}\nObservation: done'
    assert parse(text, mode) == ToolCall(name="transfer", arguments={"to": "bob", "amount": 5})


# -- the contract: only ParseErrors escape, and importing stays light ----------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        "<tool_call>" + "[" * 50_000,
        "Action: a[" + "]" * 10_000,
        "[TOOL_CALLS]" + "x[ARGS]{" * 5_000,
        "<|python_tag|>f(x='''" + "'" * 9_999,
        "Action: a\nAction Input: ```" + "`" * 10_000,
        "<think>" * 5_000 + "</think>" * 5_000 + GOOD,
    ],
)
def test_only_parse_errors_escape(mode: str, text: str) -> None:
    for target in (ToolCall, list[ToolCall]):
        with contextlib.suppress(ParseError):
            parse(text, mode, target)
    registry_of("a").parse(text, parser=Parser(mode))  # an envelope per call, never an exception


def test_a_plain_parser_imports_no_format_reader() -> None:
    code = (
        "import sys, resilient_parse\n"
        "resilient_parse.Parser().parse('{\"a\": 1}', dict)\n"
        "heavy = [m for m in sys.modules if m.startswith(('rp_toolcalls.formats', 'rp_toolcalls.spans',"
        " 'rp_toolcalls.calls', 'rp_toolcalls.hooks', 'rapidfuzz'))]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    [
        "For example:\nAction: delete_all\nAction Input: {}",
        "For example: <|python_tag|>delete_all.call(force=True)",
        'Do not use this: [TOOL_CALLS]delete_all[ARGS]{"force": true}',
        'For example, <tool_call>{"name": "a"}</tool_call> or <tool_call>{"name": "delete_all"}</tool_call>',
    ],
    ids=["react", "python_tag", "mistral_rejected", "listed_with_an_example"],
)
def test_every_format_is_labelled_by_the_words_before_it_as_the_core_labels_json(mode: str, text: str) -> None:
    """The labels are the core's (`plugin_api.candidate_facts`), read at each call whatever its format, not only
    where a JSON value of the core's stands."""
    calls = formats.read_calls(text, Parser(mode, entrypoints=False)).calls
    assert calls and all(c.label in formats.NOT_ANSWERS for c in calls)
    assert extract_calls(text, Parser(mode, entrypoints=False)) == []


@pytest.mark.parametrize("mode", MODES)
def test_hand_over_words_after_an_example_call_designate_the_next_call(mode: str) -> None:
    text = 'For example: <tool_call>{"name": "delete_all"}</tool_call>\nFor your request:\n<tool_call>' + GOOD
    calls = extract_calls(text + "</tool_call>", Parser(mode, entrypoints=False))
    assert [(c.name, c.label) for c in calls] == [("search", "designated")]
