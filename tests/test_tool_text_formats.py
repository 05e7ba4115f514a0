"""Tool calls written in text, as open models served without a tool parser write them, parsed into a union of the
caller's tool models (`tools/answer.py`): one case table per behaviour, run for every format, in both modes.

Formats: Hermes/Qwen `<tool_call>`, granite `<function_call>`, Mistral `[TOOL_CALLS]` (a JSON list, and
`name[ARGS]{…}`), Llama `<|python_tag|>` (JSON, and a Python call), xLAM `{"tool_calls": […]}`, plain JSON
envelopes, Python calls alone (`[f(a=1), g(b=2)]`, the "pythonic" format), DeepSeek V3 and V3.1 call
tokens, functionary's `<function=name>` and `>>>name`, and GLM's name line (then JSON, or GLM-4.5's pairs).
Behaviours: one call; parallel calls kept in order with a repeat; a call to a tool outside the union; a name in
another style; a name behind `functions.`; arguments with a lossless slip; arguments cut off; a call given as an
example; a refusal beside the call; several calls for one model; two tools with the same fields; a call named in
prose.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from resilient_parse import (
    AmbiguousMatchError,
    ParseError,
    Parser,
    RefusalError,
    SchemaMismatchError,
    TruncatedOutputError,
    hookimpl,
    parse,
    parse_result,
)

MODES = ("strict", "lenient")


class Sum(BaseModel):
    a: int
    b: int


class Neg(BaseModel):
    x: int


class ReadFile(BaseModel):
    path: str


class DeleteFile(BaseModel):
    path: str


Call = tuple[str, str]  # (tool name as written, arguments JSON as written)
TOOLS = Sum | Neg


def hermes(calls: list[Call]) -> str:
    return "\n".join(f'<tool_call>\n{{"name": "{n}", "arguments": {a}}}\n</tool_call>' for n, a in calls)


def granite(calls: list[Call]) -> str:
    return "".join(f'<function_call>{{"name": "{n}", "arguments": {a}}}</function_call>' for n, a in calls)


def mistral(calls: list[Call]) -> str:
    return "[TOOL_CALLS][" + ", ".join(f'{{"name": "{n}", "arguments": {a}}}' for n, a in calls) + "]"


def mistral_named(calls: list[Call]) -> str:
    return "".join(f"[TOOL_CALLS]{n}[ARGS]{a}" for n, a in calls)


def llama(calls: list[Call]) -> str:
    return "; ".join(f'<|python_tag|>{{"name": "{n}", "parameters": {a}}}' for n, a in calls) + "<|eom_id|>"


def xlam(calls: list[Call]) -> str:
    return '{"tool_calls": [' + ", ".join(f'{{"name": "{n}", "arguments": {a}}}' for n, a in calls) + "]}"


def plain_json(calls: list[Call]) -> str:
    return "[" + ", ".join(f'{{"name": "{n}", "arguments": {a}}}' for n, a in calls) + "]"


_DS = {
    part: f"<\uff5ctool\u2581{part}\uff5c>"
    for part in ("calls\u2581begin", "calls\u2581end", "call\u2581begin", "call\u2581end", "sep")
}


def deepseek_v3(calls: list[Call]) -> str:
    one = "{call\u2581begin}function{sep}{n}\n```json\n{a}\n```{call\u2581end}"
    body = "".join(one.format(n=n, a=a, **_DS) for n, a in calls)
    return _DS["calls\u2581begin"] + body + _DS["calls\u2581end"]


def deepseek_v31(calls: list[Call]) -> str:
    one = "{call\u2581begin}{n}{sep}{a}{call\u2581end}"
    body = "".join(one.format(n=n, a=a, **_DS) for n, a in calls)
    return _DS["calls\u2581begin"] + body + _DS["calls\u2581end"]


def function_tag(calls: list[Call]) -> str:
    return "".join(f"<function={n}>{a}</function>" for n, a in calls)


def functionary(calls: list[Call]) -> str:
    return "\n".join(f">>>{n}\n{a}" for n, a in calls)


def functionary_v2(calls: list[Call]) -> str:
    return "".join(f"<|from|>assistant\n<|recipient|>{n}\n<|content|>{a}<|stop|>" for n, a in calls)


def kimi(calls: list[Call]) -> str:
    one = "<|tool_call_begin|>functions.{n}:{i}<|tool_call_argument_begin|>{a}<|tool_call_end|>"
    body = "".join(one.format(n=n, i=i, a=a) for i, (n, a) in enumerate(calls))
    return f"<|tool_calls_section_begin|>{body}<|tool_calls_section_end|>"


def harmony(calls: list[Call]) -> str:
    one = "<|start|>assistant<|channel|>commentary to=functions.{n} <|constrain|>json<|message|>{a}<|call|>"
    return "<|channel|>analysis<|message|>I will call the tools.<|end|>" + "".join(
        one.format(n=n, a=a) for n, a in calls
    )


def glm(calls: list[Call]) -> str:
    return "\n".join(f"<tool_call>{n}\n{a}\n</tool_call>" for n, a in calls)


def glm45(calls: list[Call]) -> str:
    def pairs(arguments: str) -> str:
        return "".join(
            f"<arg_key>{k}</arg_key><arg_value>{json.dumps(v)}</arg_value>" for k, v in json.loads(arguments).items()
        )

    return "\n".join(f"<tool_call>{n}\n{pairs(a)}\n</tool_call>" for n, a in calls)


def pythonic(calls: list[Call]) -> str:
    def one(name: str, arguments: str) -> str:
        kwargs = ", ".join(f"{k}={v!r}" for k, v in json.loads(arguments).items())
        return f"{name}({kwargs})"

    return "[" + ", ".join(one(n, a) for n, a in calls) + "]"


FORMATS: dict[str, Callable[[list[Call]], str]] = {
    "hermes": hermes,
    "granite": granite,
    "mistral": mistral,
    "mistral_named": mistral_named,
    "llama": llama,
    "xlam": xlam,
    "json": plain_json,
    "pythonic": pythonic,
    "deepseek_v3": deepseek_v3,
    "deepseek_v31": deepseek_v31,
    "function_tag": function_tag,
    "functionary": functionary,
    "functionary_v2": functionary_v2,
    "kimi": kimi,
    "harmony": harmony,
    "glm": glm,
    "glm45": glm45,
}
JSON_ARGUMENTS = [f for f in FORMATS if f not in ("pythonic", "glm45")]  # formats that write arguments as JSON

SUM = ("sum", '{"a": 1, "b": 2}')
NEG = ("neg", '{"x": 3}')


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", MODES)
def test_one_call_is_its_tool(mode: str, fmt: str) -> None:
    assert parse(FORMATS[fmt]([NEG]), TOOLS, mode=mode) == Neg(x=3)
    assert parse(FORMATS[fmt]([SUM]), TOOLS, mode=mode) == Sum(a=1, b=2)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", MODES)
def test_parallel_calls_are_kept_in_order_with_repeats(mode: str, fmt: str) -> None:
    text = FORMATS[fmt]([NEG, SUM, NEG])
    assert parse(text, list[TOOLS], mode=mode) == [Neg(x=3), Sum(a=1, b=2), Neg(x=3)]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", MODES)
def test_a_call_to_a_tool_outside_the_union_names_it(mode: str, fmt: str) -> None:
    with pytest.raises(SchemaMismatchError, match="delete_all"):
        parse(FORMATS[fmt]([NEG, ("delete_all", '{"x": 1}')]), list[TOOLS], mode=mode)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", MODES)
def test_a_name_in_another_style_is_the_same_tool(mode: str, fmt: str) -> None:
    result = parse_result(FORMATS[fmt]([("Neg", '{"x": 3}')]), TOOLS, mode=mode)
    assert result.value == Neg(x=3)
    assert all(r.lossless for r in result.repairs)


@pytest.mark.parametrize("fmt", JSON_ARGUMENTS)
def test_a_name_behind_a_namespace_is_a_lossy_reading(fmt: str) -> None:
    text = FORMATS[fmt]([("functions.neg", '{"x": 3}')])
    result = parse_result(text, TOOLS, mode="lenient")
    assert result.value == Neg(x=3)
    assert [r.kind for r in result.repairs if not r.lossless] == ["tool_name_prefix"]
    with pytest.raises(ParseError):
        parse(text, TOOLS, mode="strict")


@pytest.mark.parametrize("fmt", JSON_ARGUMENTS)
@pytest.mark.parametrize("mode", MODES)
def test_arguments_with_a_lossless_slip_are_read(mode: str, fmt: str) -> None:
    result = parse_result(FORMATS[fmt]([("sum", '{"a": 1, "b": 2,}')]), TOOLS, mode=mode)
    assert result.value == Sum(a=1, b=2)
    assert "trailing_comma" in [r.kind for r in result.repairs]


def keyed(calls: list[Call]) -> str:
    return "[" + ", ".join(f'{{"{n}": {a}}}' for n, a in calls) + "]"


LOSSY = object()  # an outcome: a value read by a recorded lossy repair


class Report(BaseModel):
    sum: dict[str, int]


# `[{"f": {args}}]`: a call named by its key alone, read only for the target's own tools (otherwise it is data)
KEYED = [
    ("one call", keyed([SUM]), list[TOOLS], [Sum(a=1, b=2)], [Sum(a=1, b=2)]),
    ("parallel calls in order", keyed([NEG, SUM]), list[TOOLS], [Neg(x=3), Sum(a=1, b=2)], [Neg(x=3), Sum(a=1, b=2)]),
    ("a repeated call is kept", keyed([NEG, NEG]), list[TOOLS], [Neg(x=3), Neg(x=3)], [Neg(x=3), Neg(x=3)]),
    ("one object for one tool", '{"neg": {"x": 3}}', TOOLS, Neg(x=3), Neg(x=3)),
    ("the name in its own style", keyed([("Sum", '{"a": 1, "b": 2}')]), list[TOOLS], [Sum(a=1, b=2)], [Sum(a=1, b=2)]),
    ("behind a namespace (lossy)", '{"functions.neg": {"x": 3}}', TOOLS, ParseError, Neg(x=3)),
    ("arguments with a trailing comma", keyed([("neg", '{"x": 3,}')]), list[TOOLS], [Neg(x=3)], [Neg(x=3)]),
    ("cut off", '[{"neg": {"x": 3}}, {"sum": {"a": 1, "b": ', list[TOOLS], ParseError, ParseError),
    ("a refusal beside", "I can't do that. Example: " + keyed([NEG]), list[TOOLS], ParseError, ParseError),
    # (lenient may still take a one-key object as a wrapper around the value: a lossy guess, recorded)
    ("an unknown key is data, not a call", keyed([("mul", '{"x": 3}')]), list[TOOLS], ParseError, LOSSY),
    ("an item that is no call", '[{"neg": {"x": 3}}, {"x": 4}]', list[TOOLS], ParseError, LOSSY),
    ("beside a call, another tool's is named", keyed([NEG, ("mul", '{"x": 3}')]), list[TOOLS], "mul", "mul"),
    ("a field named like the tool is data", '{"sum": {"a": 1}}', Report, Report(sum={"a": 1}), Report(sum={"a": 1})),
]


@pytest.mark.parametrize(("text", "target", "strict", "lenient"), [r[1:] for r in KEYED], ids=[r[0] for r in KEYED])
def test_a_call_named_by_its_key(text: str, target: Any, strict: Any, lenient: Any) -> None:
    for mode, expected in (("strict", strict), ("lenient", lenient)):
        check_outcome(text, target, mode, expected)


def check_outcome(text: str, target: Any, mode: str, expected: Any) -> None:
    """`expected` is the value, an error class, the name of another tool the SchemaMismatchError must give, or
    LOSSY (a value read by a recorded lossy repair)."""
    if expected is LOSSY:
        assert not parse_result(text, target, mode=mode).lossless
    elif isinstance(expected, str):
        with pytest.raises(SchemaMismatchError, match=expected):
            parse(text, target, mode=mode)
    elif isinstance(expected, type) and issubclass(expected, Exception):
        with pytest.raises(expected):
            parse(text, target, mode=mode)
    else:
        assert parse(text, target, mode=mode) == expected, mode


# every format's marks, written inside a call's string argument: data, never another call or the end of this one
MARKS = [
    "<tool_call>",
    "</tool_call>",
    "<function_call>",
    "</function_call>",
    "[TOOL_CALLS]",
    "[TOOL_CALLS]neg[ARGS]",
    "<|python_tag|>",
    "<|eom_id|>",
    "<function=neg>",
    "</function>",
    *_DS.values(),
]


@pytest.mark.parametrize("fmt", JSON_ARGUMENTS)
@pytest.mark.parametrize("mode", MODES)
def test_marks_inside_a_calls_strings_are_data(mode: str, fmt: str) -> None:
    tools = ReadFile | DeleteFile
    for mark in MARKS:
        one = FORMATS[fmt]([("read_file", json.dumps({"path": f"a{mark}b"}))])
        assert parse(one, tools, mode=mode) == ReadFile(path=f"a{mark}b"), (mark, one)
        two = FORMATS[fmt]([("read_file", json.dumps({"path": mark})), ("delete_file", '{"path": "x"}')])
        assert parse(two, list[tools], mode=mode) == [ReadFile(path=mark), DeleteFile(path="x")], (mark, two)


@pytest.mark.parametrize("mode", MODES)
def test_marks_inside_a_lone_values_strings_are_data(mode: str) -> None:
    for mark in MARKS:
        text = f'Here is the list:\n```json\n{json.dumps([{"path": mark}])}\n```\nAnd {{"path": "x"}} is another.'
        with pytest.raises(AmbiguousMatchError, match="2 different JSON values"):  # (not a tool call's answer)
            parse(text, list[ReadFile], mode="lenient")
        assert parse(f"Here: {json.dumps({'path': mark})}", ReadFile, mode=mode) == ReadFile(path=mark)


@pytest.mark.parametrize(
    "fmt",
    [
        "hermes",
        "granite",
        "mistral_named",
        "llama",
        "deepseek_v3",
        "deepseek_v31",
        "function_tag",
        "glm",
        "functionary_v2",
        "kimi",
        "harmony",
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_a_cut_call_among_good_ones_is_an_error_never_skipped(mode: str, fmt: str) -> None:
    text = FORMATS[fmt]([NEG, ("sum", '{"a": 1, "b": ')])
    with pytest.raises(ParseError):
        parse(text, list[TOOLS], mode=mode)


@pytest.mark.parametrize(
    "fmt", ["hermes", "granite", "llama", "deepseek_v31", "function_tag", "glm", "glm45", "functionary_v2", "kimi"]
)
@pytest.mark.parametrize("mode", MODES)
def test_a_call_given_as_an_example_is_not_made(mode: str, fmt: str) -> None:
    text = (
        "For example: " + FORMATS[fmt]([("sum", '{"a": 9, "b": 9}')]) + "\n\nNow the real one:\n" + FORMATS[fmt]([NEG])
    )
    assert parse(text, list[TOOLS], mode=mode) == [Neg(x=3)]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", MODES)
def test_a_refusal_beside_the_call_is_no_answer(mode: str, fmt: str) -> None:
    text = "I'm sorry, I can't help with that.\n" + FORMATS[fmt]([NEG])
    with pytest.raises(ParseError):
        parse(text, list[TOOLS], mode=mode)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", MODES)
def test_several_calls_for_one_model_are_ambiguous(mode: str, fmt: str) -> None:
    with pytest.raises(AmbiguousMatchError):
        parse(FORMATS[fmt]([NEG, SUM]), TOOLS, mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_a_python_call_in_prose_is_not_a_call(mode: str) -> None:
    # only a text that is nothing but calls is read as calls: a mention in a sentence is prose
    with pytest.raises(ParseError):
        parse("You could call neg(x=3) here.", list[TOOLS], mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_tools_with_the_same_fields_are_told_apart_by_name(mode: str) -> None:
    # by shape alone, a delete is a read: the name decides
    text = hermes([("delete_file", '{"path": "/tmp/a"}'), ("read_file", '{"path": "/tmp/b"}')])
    got = parse(text, list[ReadFile | DeleteFile], mode=mode)
    assert [type(v) for v in got] == [DeleteFile, ReadFile]
    assert [v.path for v in got] == ["/tmp/a", "/tmp/b"]


def _outcome(text: str, target: Any, mode: str) -> Any:
    try:
        return parse(text, target, mode=mode)
    except ParseError as exc:
        return type(exc)


@pytest.mark.parametrize("arguments", ['{"x": 3, "y": 4}', "{'x': 3}", '{"x": "3"}', '{"X": 3}', '{"x": 3.5}'])
@pytest.mark.parametrize("mode", MODES)
def test_a_calls_arguments_are_judged_as_the_same_object_alone(mode: str, arguments: str) -> None:
    # an unknown key, single quotes, a number as a string, a key in another case, a fraction for an int: whatever
    # each mode does with the object alone, it does with it as a call's arguments
    alone = _outcome(arguments, Neg, mode)
    called = _outcome(hermes([("neg", arguments)]), list[TOOLS], mode)
    assert called == ([alone] if isinstance(alone, Neg) else alone)


_ARGS = {
    "sum": st.fixed_dictionaries({"a": st.integers(), "b": st.integers()}),
    "neg": st.fixed_dictionaries({"x": st.integers()}),
}


@st.composite
def rendered_calls(draw: Any) -> tuple[str, list[BaseModel], str]:
    names = draw(st.lists(st.sampled_from(["sum", "neg"]), min_size=1, max_size=5))
    calls: list[Call] = []
    models: list[BaseModel] = []
    for name in names:
        args = draw(_ARGS[name])
        written = draw(st.sampled_from([name, name.upper(), name.capitalize()]))
        calls.append((written, json.dumps(args)))
        models.append(Sum(**args) if name == "sum" else Neg(**args))
    rendered = {**FORMATS, "keyed": keyed}  # (keyed calls name only the target's tools: no other-tool rows above)
    fmt = draw(st.sampled_from(sorted(rendered)))
    return rendered[fmt](calls), models, fmt


@settings(max_examples=200)
@given(case=rendered_calls(), mode=st.sampled_from(MODES))
def test_any_calls_in_any_format_parse_as_exactly_those_calls(
    case: tuple[str, list[BaseModel], str], mode: str
) -> None:
    text, models, _ = case
    assert parse(text, list[TOOLS], mode=mode) == models


def _check(text: str, target: Any, mode: str, expected: Any) -> None:
    """The row's outcome: its objects (of the same types), or its error."""
    if isinstance(expected, type) and issubclass(expected, Exception):
        with pytest.raises(expected):
            parse(text, target, mode=mode)
    else:
        got = parse(text, target, mode=mode)
        assert got == expected
        assert type(got) is type(expected)
        if isinstance(got, list):
            assert [type(v) for v in got] == [type(v) for v in expected]


# a provider's completion written out as JSON text: judged as the envelope stage judges it
def _openai_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def _completion(choices: list[list[dict[str, Any]]], **message: Any) -> str:
    finish = message.pop("finish_reason", "tool_calls")
    return json.dumps(
        {
            "choices": [
                {"message": {"role": "assistant", **message, "tool_calls": calls}, "finish_reason": finish}
                for calls in choices
            ]
        }
    )


NEG_CALL = _openai_call("neg", {"x": 3})
SUM_CALL = _openai_call("sum", {"a": 1, "b": 2})
COMPLETIONS = [
    ("one choice, two calls", _completion([[SUM_CALL, NEG_CALL]]), [Sum(a=1, b=2), Neg(x=3)]),
    ("one answer sampled twice", _completion([[NEG_CALL], [NEG_CALL]]), [Neg(x=3)]),
    ("two choices that differ", _completion([[NEG_CALL], [SUM_CALL]]), AmbiguousMatchError),
    ("cut by the length limit", _completion([[NEG_CALL]], finish_reason="length"), TruncatedOutputError),
    ("the provider's refusal", _completion([[NEG_CALL]], refusal="I can't do that."), RefusalError),
    (
        "a refusal beside the call",
        _completion([[NEG_CALL]], content="I'm sorry, I can't help with that."),
        RefusalError,
    ),
    ("prose beside the call", _completion([[NEG_CALL]], content="Sure, calling it now."), [Neg(x=3)]),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in COMPLETIONS], ids=[c[0] for c in COMPLETIONS])
@pytest.mark.parametrize("mode", MODES)
def test_a_completion_written_as_json_is_judged_as_an_envelope(mode: str, text: str, expected: Any) -> None:
    _check(text, list[TOOLS], mode, expected)


BESIDE = [
    ("an answer beside the call", '{"x": 5}\n' + hermes([NEG]), AmbiguousMatchError),
    ("an answer with a slip beside the call", "{'x': 5}\n" + hermes([NEG]), AmbiguousMatchError),
    ("a list of answers beside the call", '[{"x": 5}]\n' + hermes([NEG]), AmbiguousMatchError),
    (
        "a completion whose text answers too",
        _completion([[NEG_CALL]], content='{"a": 1, "b": 2}'),
        AmbiguousMatchError,
    ),
    ("an example beside the call", 'For example: {"x": 5}\n\n' + hermes([NEG]), [Neg(x=3)]),
    ("data no tool takes", 'The data: {"y": 5}\n' + hermes([NEG]), [Neg(x=3)]),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in BESIDE], ids=[c[0] for c in BESIDE])
@pytest.mark.parametrize("mode", MODES)
def test_json_beside_the_calls_that_answers_too_is_ambiguous(mode: str, text: str, expected: Any) -> None:
    _check(text, list[TOOLS], mode, expected)


@pytest.mark.parametrize("mode", MODES)
def test_the_calls_aliases_apply_to_every_calls_arguments(mode: str) -> None:
    text = hermes([("neg", '{"value": 3}'), ("sum", '{"a": 1, "second": 2}')])
    got = parse(text, list[TOOLS], mode=mode, aliases={"value": "x", "second": "b"})
    assert got == [Neg(x=3), Sum(a=1, b=2)]


def test_observers_hear_of_the_parse_not_of_each_call() -> None:
    heard: list[tuple[str, Any]] = []

    class Observer:
        @hookimpl
        def rp_on_event(self, event: Any, ctx: Any) -> None:
            heard.append((event.name, event.data.get("source")))

    parser = Parser("lenient", plugins=[Observer()], entrypoints=False)
    assert parser.parse(hermes([NEG, SUM]), list[TOOLS]) == [Neg(x=3), Sum(a=1, b=2)]
    assert heard == [("parse_started", None), ("parse_succeeded", "tool_calls")]


# found by an outside attack on the tool path: each was a wrong object returned without a word
class Buy(BaseModel):
    action: Literal["buy"]
    qty: int


class Hold(BaseModel):
    action: Literal["hold"] = "hold"
    reason: str = ""


FILES = ReadFile | DeleteFile
R_CALL = '{"name": "read_file", "arguments": {"path": "a"}}'
D_CALL = '{"name": "delete_file", "arguments": {"path": "/"}}'
ATTACKS = [
    (
        "a marker before a tag is one call",
        f"[TOOL_CALLS]<tool_call>{D_CALL}</tool_call>",
        list[FILES],
        [DeleteFile(path="/")],
    ),
    (
        "a marker's value ends its stretch",
        f'[TOOL_CALLS][{R_CALL}]\n<|python_tag|>delete_file.call(path="/")',
        list[FILES],
        [ReadFile(path="a"), DeleteFile(path="/")],
    ),
    (
        "two fenced python calls",
        '```\nread_file(path="a")\n```\n```\ndelete_file(path="/")\n```',
        list[FILES],
        ParseError,
    ),
    ("a chained python call", 'read_file(path="notes.txt").delete_file(path="/")', FILES, ParseError),
    ("a keyword given twice", 'read_file(path="a", path="b")', FILES, ParseError),
    ("a name ast would fold", '[ｄｅｌｅｔｅ_ｆｉｌｅ(path="/")]', list[FILES], ParseError),
    (
        "a union tagged by action is data",
        'Decision: {"action": "hold", "reason": "volatile"}',
        Buy | Hold,
        Hold(reason="volatile"),
    ),
    (
        "two calls for an optional model",
        f"<tool_call>{R_CALL}</tool_call>\n<tool_call>{D_CALL}</tool_call>",
        ReadFile | None,
        AmbiguousMatchError,
    ),
    ("an item that is no call", f'[{R_CALL}, {{"path": "b"}}]', list[FILES], ParseError),
    (
        "two names for one call",
        '{"name": "read_file", "tool": "delete_file", "arguments": {"path": "a"}}',
        FILES,
        AmbiguousMatchError,
    ),
    (
        "two sets of arguments",
        '{"name": "read_file", "arguments": {"path": "a"}, "parameters": {"path": "b"}}',
        FILES,
        ParseError,
    ),
    ("a question beside the call", f"<tool_call>{D_CALL}</tool_call>\nShould I run this?", list[FILES], RefusalError),
    (
        "a retraction between calls",
        f"<tool_call>{R_CALL}</tool_call>\nActually, no, scratch that:\n<tool_call>{D_CALL}</tool_call>",
        list[FILES],
        RefusalError,
    ),
]


@pytest.mark.parametrize(("text", "target", "expected"), [a[1:] for a in ATTACKS], ids=[a[0] for a in ATTACKS])
@pytest.mark.parametrize("mode", MODES)
def test_what_an_outside_attack_found_stays_fixed(mode: str, text: str, target: Any, expected: Any) -> None:
    _check(text, target, mode, expected)


class Click(BaseModel):
    type: Literal["click"] = "click"
    x: int
    y: int


class DoubleClick(BaseModel):
    type: Literal["double_click"] = "double_click"
    x: int
    y: int


class Open(BaseModel):
    path: str
    mode: str = "r"


class Write(BaseModel):
    path: str
    mode: str


class AsText(BaseModel):
    v: str


class AsNumber(BaseModel):
    v: int


class Bash(BaseModel):
    command: str


class SetLevel(BaseModel):
    value: float


SHAPE_ONLY = [
    ("bare arguments two tools take alike", '{"path": "/"}', FILES, AmbiguousMatchError),
    ("the same, in prose", 'Sure: {"path": "/"}', FILES, AmbiguousMatchError),
    ("the same, as list items", '[{"path": "/"}]', list[FILES], AmbiguousMatchError),
    ("a python call with **kwargs names its tool", 'delete_file(**{"path": "/"})', FILES, DeleteFile(path="/")),
    ("a python call with one object names its tool", 'delete_file({"path": "/"})', ReadFile | Sum, SchemaMismatchError),
    ("tags given only by defaults", '{"x": 10, "y": 20}', Click | DoubleClick, AmbiguousMatchError),
    ("a default does not make a rival", '{"path": "/etc/hosts"}', Open | Write, Open(path="/etc/hosts")),
    ("a string is no int, read strictly", '{"v": "5"}', AsText | AsNumber, AsText(v="5")),
    ("a model with a naming field keeps its data", '{"command": "ls"}', FILES | Bash, Bash(command="ls")),
    (
        "beside it, calls still name their tool",
        hermes([("delete_file", '{"path": "/"}')]),
        FILES | Bash,
        DeleteFile(path="/"),
    ),
    (
        "a key written twice in a call",
        '{"name": "delete_file", "arguments": {"path": "/x", "path": "/"}}',
        FILES,
        ParseError,
    ),
    (
        "a number past a float's range in a call",
        hermes([("set_level", '{"value": 1e999}')]),
        SetLevel | Neg,
        ParseError,
    ),
    ("arguments only one tool takes", '{"a": 1, "b": 2}', TOOLS, Sum(a=1, b=2)),
    ("a tagged union's data", '{"action": "buy", "qty": 3}', Buy | Hold, Buy(action="buy", qty=3)),
]


@pytest.mark.parametrize(("text", "target", "expected"), [c[1:] for c in SHAPE_ONLY], ids=[c[0] for c in SHAPE_ONLY])
@pytest.mark.parametrize("mode", MODES)
def test_a_value_no_call_names_is_one_members_or_ambiguous(mode: str, text: str, target: Any, expected: Any) -> None:
    # read by its shape, a value that fits two members alike would be Pydantic's first pick: a guess
    _check(text, target, mode, expected)


# gpt-oss's harmony messages: only a message whose own header names a recipient is a call
HARMONY = [
    ("a final message is text", "<|start|>assistant<|channel|>final<|message|>Done.<|return|>", list[TOOLS], None),
    (
        "a recipient in an earlier header is that message's",
        '<|channel|>commentary to=functions.neg<|message|>{"x": 3}<|call|>'
        "<|start|>assistant<|channel|>final<|message|>Checking it now.<|return|>",
        list[TOOLS],
        [Neg(x=3)],
    ),
    (
        "a final message that answers otherwise is ambiguous",
        '<|channel|>commentary to=functions.neg<|message|>{"x": 3}<|call|>'
        '<|start|>assistant<|channel|>final<|message|>{"x": 4}<|return|>',
        list[TOOLS],
        AmbiguousMatchError,
    ),
    (
        "a tool's result, addressed to the assistant, is no call",
        '<|start|>functions.neg to=assistant<|channel|>commentary<|message|>{"temperature": 20}<|end|>',
        list[TOOLS],
        None,
    ),
    (
        "a built-in tool is another tool",
        '<|channel|>analysis to=browser.search<|message|>{"query": "x"}<|call|>',
        TOOLS,
        SchemaMismatchError,
    ),
    (
        "the recipient written before the channel",
        '<|start|>assistant to=functions.sum<|channel|>commentary json<|message|>{"a": 1, "b": 2}<|call|>',
        TOOLS,
        Sum(a=1, b=2),
    ),
]


@pytest.mark.parametrize(("text", "target", "expected"), [r[1:] for r in HARMONY], ids=[r[0] for r in HARMONY])
@pytest.mark.parametrize("mode", MODES)
def test_harmony_messages(mode: str, text: str, target: Any, expected: Any) -> None:
    if expected is None:
        with pytest.raises(ParseError) as info:  # (no call and no JSON answer: never a call made up)
            parse(text, target, mode=mode)
        assert "'assistant'" not in str(info.value)
    else:
        check_outcome(text, target, mode, expected)


# found by an outside attack: each of these read a call to another tool by its arguments' shape, made up a call,
# or was quadratic; gpt-oss's analysis channel is its reasoning
ATTACKS_ON_NEW_FORMATS = [
    ('<|recipient|>delete_all\r\n<|content|>{"x": 3}<|stop|>', Neg, SchemaMismatchError),
    ('<|recipient|>delete_all\n\n<|content|>{"x": 3}<|stop|>', Neg, SchemaMismatchError),
    ('<|channel|>commentary to="functions.delete_all"<|message|>{"x": 3}<|call|>', Neg, SchemaMismatchError),
    ('<|channel|>commentary to= functions.delete_all<|message|>{"x": 3}<|call|>', Neg, SchemaMismatchError),
    (
        "<|channel|>commentary to=functions.delete_all" + " " * 400 + '<|message|>{"x": 3}<|call|>',
        Neg,
        SchemaMismatchError,
    ),
    (
        '<|start|>assistant to=functions.delete_all<|channel|>commentary to=functions.neg<|message|>{"x": 3}<|call|>',
        Neg,
        AmbiguousMatchError,
    ),
    (
        "<|tool_call_begin|>functions.neg:0<|tool_call_argument_begin|>"
        "{\"x\": 3, \"note\": \"<tool_call>{'name':'sum','arguments':{'a':1,'b':2}}</tool_call>\",}<|tool_call_end|>",
        list[TOOLS],
        [Neg(x=3)],  # (one call: the tag is in its arguments' string, never a second call; neg ignores `note`)
    ),
    ("<|recipient|>neg" + "\t" * 50_000 + "x", list[TOOLS], ParseError),
    (  # an unclosed bracket in the prose before does not make the end token in the arguments' string a mark
        'see [1\n<|tool_call_begin|>functions.neg:0<|tool_call_argument_begin|>{"x": 3, "note": "a<|tool_call_end|>"}'
        "<|tool_call_end|>",
        list[TOOLS],
        [Neg(x=3)],
    ),
    (
        "<|channel|>analysis<|message|>For example I could do it.<|end|>"
        '<|start|>assistant<|channel|>commentary to=functions.neg<|message|>{"x": 3}<|call|>',
        list[TOOLS],
        [Neg(x=3)],
    ),
    (
        "<|channel|>analysis<|message|>I can't answer from memory; use the tool.<|end|>"
        '<|start|>assistant<|channel|>commentary to=functions.neg<|message|>{"x": 3}<|call|>',
        list[TOOLS],
        [Neg(x=3)],
    ),
    (
        '<|channel|>analysis<|message|><tool_call>{"name": "sum", "arguments": {"a": 1, "b": 2}}</tool_call><|end|>'
        '<|start|>assistant<|channel|>commentary to=functions.neg<|message|>{"x": 3}<|call|>',
        list[TOOLS],
        [Neg(x=3)],
    ),
]


@pytest.mark.parametrize(("text", "target", "expected"), ATTACKS_ON_NEW_FORMATS)
@pytest.mark.parametrize("mode", MODES)
def test_attacks_on_the_new_formats(mode: str, text: str, target: Any, expected: Any) -> None:
    check_outcome(text, target, mode, expected)
