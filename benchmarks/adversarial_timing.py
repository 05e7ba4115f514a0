"""Hostile inputs and how parse time grows with their size: each must end in a result or a ParseError, in time
linear in the input, in both modes.

Each `Case` builds an input from a size n. `measure` first grows n until one parse takes at least `FLOOR_S`
(10 ms of CPU time: below that a ratio is scheduler noise), then times n, 2n, 4n and 8n (after one untimed run at
each size, best of a few runs with the garbage collector paused as timeit does, in this process's CPU time, which
other processes on a shared machine inflate far less than wall time) and reports
t(8n) / (8 · t(n)): 1.0 is linear, 8.0 quadratic. A case that more than quadruples per doubling stops early (an
exponential shape must not hang the run) and reports the ratio its last step implies. `tests/
test_adversarial_timing.py` (marked slow; CI runs it) asserts every ratio stays under a generous bound; this script
prints the table:

    python benchmarks/adversarial_timing.py [--reps 3] [--case NAME ...] [--mode strict|lenient]
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import gc
import json
import multiprocessing as mp
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from resilient_parse import ParseError, Parser


class Item(BaseModel):
    """The target for most cases: small, with an optional field so partial objects could validate."""

    a: str
    b: int = 0


class Tiny(BaseModel):
    i: int


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


class Slug(BaseModel):
    slug: Annotated[str, Field(pattern=r"^([a-z0-9]+-?)+$")]


class Count(BaseModel):
    count: int


class Color(str, enum.Enum):
    red = "red"
    green = "green"


class Paint(BaseModel):
    color: Color


class Ref(BaseModel):
    id: Annotated[str, Field(pattern=r"^S\d+$")]


Input = str | bytes | Sequence[str]
"""A whole text, or the chunks of a stream (for cases run with `run=stream`)."""


def parse(parser: Parser, text: Input, target: Any) -> None:
    assert isinstance(text, str | bytes)
    parser.parse_result(text, target)


def stream(parser: Parser, chunks: Input, target: Any) -> None:
    assert not isinstance(chunks, str | bytes)
    for _ in parser.stream(chunks, target):
        pass


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[int], Input]
    n: int  # the base size; the timing runs n, 2n, 4n, 8n
    target: Any = Item
    modes: tuple[str, ...] = ("lenient", "strict")
    run: Callable[[Parser, Input, Any], None] = parse
    entrypoints: bool = False  # True: the installed plugins take part (their own shapes)
    slow: bool = False  # left out of the default run (minutes, not seconds): `--all` includes it
    max_chars: int | None = None  # calibration grows n only while the 8n input stays this short (None: no cap)


CASES: tuple[Case, ...] = (
    Case("deep_open_brackets", lambda n: "[" * n, 12_500),
    Case("deep_balanced_brackets", lambda n: "[" * n + "]" * n, 12_500),
    Case("deep_open_objects", lambda n: '{"a": ' * n, 12_500),
    Case("deep_mixed_unclosed", lambda n: "[{" * n + "x", 6_000),
    Case("many_empty_objects_in_prose", lambda n: "{} " * n, 2_000),
    Case("many_distinct_objects_in_prose", lambda n: " ".join(f'{{"a": "{i}"}}' for i in range(n)), 1_000),
    Case("many_open_braces_in_prose", lambda n: "see { " * n, 2_000),
    Case("many_close_braces_in_prose", lambda n: "} ] " * n + '{"a": "x"}', 5_000),
    Case("many_fences", lambda n: "```\n{}\n" * n, 2_000),
    Case("many_json_fences", lambda n: '```json\n{"a": "x"}\n```\n' * n, 1_000),
    Case("many_think_tags", lambda n: "<think>" * n + '{"a": "x"}', 5_000),
    Case("many_close_think_tags", lambda n: "</think>" * n + '{"a": "x",}', 5_000),
    Case("backslash_run_in_string", lambda n: '{"a": "' + "\\" * (2 * n) + '"}', 50_000),
    Case("backslash_run_odd_unclosed", lambda n: '{"a": "' + "\\" * (2 * n + 1) + '"}', 100_000),
    Case("backslash_run_bare", lambda n: "\\" * n, 50_000),
    Case("quote_run", lambda n: '"' * n, 50_000),
    Case("single_quote_run_as_value", lambda n: "{'a': " + "'" * n + "}", 20_000),
    Case("unclosed_string_then_fragments", lambda n: '{"a": "' + "k: v, " * n, 5_000),
    # json-repair's quadratic shape; 8n stays under syntax.JSON_REPAIR_MAX_CHARS (20,000) so json-repair really runs
    Case("json_repair_bare_key_value_fragments", lambda n: '{"a": "x", ' + "key: value, " * n + "}", 200),
    Case("json_repair_fragments_past_its_cap", lambda n: '{"a": "x", ' + "key: value, " * n + "}", 2_000),
    Case("json_repair_unquoted_words", lambda n: '{"a": ' + "word " * n + "}", 2_000),
    Case("json_repair_inner_quotes", lambda n: '{"a": "' + 'b, "c": "d", ' * n + '"}', 2_000),
    Case("comment_opener_run", lambda n: '{"a": "x" ' + "/*" * n + "}", 20_000),
    Case("long_line_comment", lambda n: '{"a": "x", // ' + "c" * n + "\n}", 50_000),
    Case("nul_bytes", lambda n: "\x00" * n, 50_000),
    Case("nul_bytes_in_string", lambda n: '{"a": "' + "\x00" * n + '"}', 20_000),
    Case("lone_surrogates", lambda n: '{"a": "' + "\ud800" * n + '"}', 20_000),
    Case("invalid_utf8_bytes", lambda n: b'{"a": "' + b"\xff" * n + b'"}', 50_000),
    Case("trailing_comma_long_list", lambda n: "[" + '{"i": 1}, ' * n + "]", 5_000, target=list[Tiny]),
    Case("long_string_value", lambda n: '{"a": "' + "x" * n + '",}', 100_000),
    Case("many_keys_unknown", lambda n: "{" + ", ".join(f'"k{i}": {i}' for i in range(n)) + ', "a": "x",}', 2_000),
    Case("many_keys_typos", lambda n: "{" + ", ".join(f'"A{i}": {i}' for i in range(n)) + ', "A": "x"}', 1_000),
    Case(
        "million_tiny_objects_valid",
        lambda n: "[" + ", ".join(['{"i": 1}'] * n) + "]",
        125_000,
        list[Tiny],
        slow=True,
    ),
    # the shapes of ../shared/defects (r01-r06, r16, r17), each one mechanism
    Case("r01_pattern_backtracking", lambda n: '{"slug": "%s!"}' % ("a" * n), 1_000, Slug),
    Case("r02_number_then_spaces", lambda n: '{"count": "1%s!"}' % (" " * n), 1_000, Count),
    Case(
        "r03_unclosed_string_escaped_quotes",
        lambda n: '{"action": "run", "arguments": {"code": "' + 'print(\\"hi\\")\\n' * n,
        1_000,
        ToolCall,
    ),
    Case("r03_unclosed_comments", lambda n: '{"action": "x", ' + "/* " * n, 2_000, ToolCall),
    Case("r03_curly_quote_run", lambda n: '{"action": ' + "\u201c" * n, 2_000, ToolCall),
    Case("r04_enum_value_with_space_run", lambda n: '{"color": "re%sdx"}' % (" " * n), 1_000, Paint),
    Case("r05_unclosed_string_after_bad_value", lambda n: '{"action": x, "b": "' + '\\"' * n, 2_000, ToolCall),
    Case(
        "r06_stream_braces_in_reasoning",
        lambda n: ["<think>", *(["let d = {x: 1}; "] * n), "</think>", '{"action": "go"}'],
        500,
        ToolCall,
        run=stream,
    ),
    Case(
        "stream_one_char_chunks",
        lambda n: list('{"action": "go", "arguments": {"q": "' + "x" * n + '"}}'),
        5_000,
        ToolCall,
        run=stream,
    ),
    Case(
        "r16_rejected_values_in_a_list",
        lambda n: "[" + ", ".join(f'{{"id": "s{i}"}}' for i in range(n)) + "]",
        1_000,
        list[Ref],
    ),
    Case("million_tiny_objects_repaired", lambda n: "[" + '{"i": 1}, ' * n + "]", 125_000, list[Tiny], slow=True),
)


Sentiment = Literal["positive", "negative", "neutral"]


class Status(str, enum.Enum):
    in_progress = "in_progress"
    done = "done"


class City(BaseModel):
    city: str


class Zone(BaseModel):
    zone: str


def _completion_with_calls(n: int) -> str:
    call = '{"type": "function", "function": {"name": "city", "arguments": "{\\"city\\": \\"x\\"}"}}'
    return '{"choices": [{"message": {"tool_calls": [' + ", ".join([call] * n) + "]}}]}"


_SEARCH = '{"action": "search"}'
CASES += (
    # answer selection (issue 13)
    Case(
        "select_examples_then_final",
        lambda n: 'For example: {"action": "x"}\n' * n + "Final answer: " + _SEARCH,
        2_000,
        ToolCall,
    ),
    Case(
        "select_json_lines",
        lambda n: "\n".join(f'{{"a": "i{i}", "b": {i}}}' for i in range(n)),
        2_000,
        list[Item],
        modes=("lenient",),
    ),
    Case("select_tiny_spans", lambda n: "[1] " * n, 6_000, list[int]),
    # visible answers that each start with a key (the '{' missing check reads each region once, to its end)
    Case("select_regions_starting_with_a_key", lambda n: '"city": 1 <think>x</think>' * n + "}", 2_000, City),
    Case("select_prose_braces", lambda n: "{name} " * n + _SEARCH, 2_000, ToolCall),
    Case("select_tag_mentions", lambda n: "the <think> step " * n + _SEARCH, 2_000, ToolCall),
    Case("select_refusal_words", lambda n: "i cannot guarantee we can " * n + _SEARCH, 2_000, ToolCall),
    Case("select_designation_words", lambda n: ("final not correct " * 8 + _SEARCH + " ") * n, 500, ToolCall),
    Case("select_list_glue", lambda n: "For example: " + " or ".join([_SEARCH] * n), 2_000, ToolCall),
    Case("select_closers_in_prose", lambda n: "</think> " * n + _SEARCH, 5_000, ToolCall),
    # plain answers and envelopes (issue 14)
    Case("plain_hedged_mentions", lambda n: "positive maybe " * n, 20_000, Sentiment, modes=("lenient",)),
    Case("plain_many_numbers", lambda n: " ".join(str(i) for i in range(n)), 20_000, int, modes=("lenient",)),
    Case("plain_grouped_number", lambda n: "1" + ",111" * n, 50_000, int, modes=("lenient",)),
    Case("plain_bullets", lambda n: "- a\n" * n, 50_000, list[str], modes=("lenient",)),
    Case("plain_comma_members", lambda n: "positive, " * n, 20_000, list[Sentiment], modes=("lenient",)),
    Case("plain_prefix_run", lambda n: "in " * n, 50_000, Status, modes=("lenient",)),
    Case("plain_negations", lambda n: "not done, " * n, 20_000, Status, modes=("lenient",)),
    Case("plain_long_str", lambda n: "Answer: " + "word " * n, 50_000, str),
    Case(
        "env_nested_wrappers", lambda n: '{"result": ' * n + '{"city": "x"}' + "}" * n, 2_000, City, modes=("lenient",)
    ),
    Case("env_many_calls", _completion_with_calls, 5_000, City, modes=("lenient",)),
    # tool calls written in text, into a union of tools (issue 22)
    Case("tools_react_actions_on_one_line", lambda n: ">Action: a" * n, 5_000, list[City | Zone]),
    Case(
        "tools_many_hermes_calls",
        lambda n: '<tool_call>{"name": "city", "arguments": {"city": "x"}}</tool_call>' * n,
        1_000,
        list[City | Zone],
        max_chars=200_000,
    ),
    # linear, but each unclosed tag is read as a call through the whole parser (about 16 µs a character): minutes
    Case("tools_unclosed_hermes_tags", lambda n: "<tool_call>{" * n, 2_000, list[City | Zone], slow=True),
    Case("tools_many_mistral_markers", lambda n: "[TOOL_CALLS]" * n, 5_000, list[City | Zone], max_chars=120_000),
    Case(
        "tools_deepseek_begins_unclosed",
        lambda n: "<\uff5ctool\u2581call\u2581begin\uff5c>x" * n,
        5_000,
        list[City | Zone],
    ),
    Case("tools_function_tags_unclosed", lambda n: "<function=city>{" * n, 2_000, list[City | Zone]),
    Case("tools_recipient_lines", lambda n: ">>>city\n" * n, 5_000, list[City | Zone], max_chars=120_000),
    Case("tools_content_tags_unclosed", lambda n: "<|recipient|>city\n<|content|>{" * n, 1_000, list[City | Zone]),
    Case("tools_kimi_begins_unclosed", lambda n: "<|tool_call_begin|>functions.city:0" * n, 5_000, list[City | Zone]),
    Case(  # a cut call's object handed to its tool's model must not be read for calls again, once per nested call
        "tools_kimi_cut_strings",
        lambda n: '<|tool_call_begin|>functions.city:0<|tool_call_argument_begin|>{"city": "' * n,
        250,
        City,
    ),
    Case("tools_marks_in_strings_of_an_open_list", lambda n: '[{"a": "<tool_call>"}, ' * n, 2_000, list[City | Zone]),
    Case("tools_harmony_messages", lambda n: "to=functions.city<|message|>" * n, 5_000, list[City | Zone]),
    Case("tools_harmony_headers", lambda n: " to=x" * n + "<|message|>{}" * n, 2_500, list[City | Zone]),
    Case(
        "tools_pythonic_list",
        lambda n: "[" + ", ".join(['city(city="x")'] * n) + "]",
        1_000,
        list[City | Zone],
        max_chars=60_000,
    ),
)


class Total(BaseModel):
    total: float


class Note(BaseModel):
    s: str


CASES += (
    # the reader (issue 12)
    Case("read_failing_containers", lambda n: "[" + "{'a': 1,}, " * n + "]", 2_000, list[dict[str, int]]),
    Case("read_inner_quote_search", lambda n: '{"action": "x' + '" y' * n + '"}', 4_000, ToolCall, modes=("lenient",)),
    Case("read_unclosed_with_commas", lambda n: '{"action": "' + "x, " * n + "}", 4_000, ToolCall),
    Case("read_doubled_quote_members", lambda n: "{" + '""a"": ""b"", ' * n + "}", 2_000, ToolCall, modes=("lenient",)),
    Case(
        "read_cut_at_end_nested",
        lambda n: '{"action": "x", "arguments": ' + '{"a": ' * 300 + "1" + "}" * 299 + ", " + '"b": 1, ' * n,
        2_000,
        ToolCall,
    ),
    # values and keys (issue 13)
    Case(
        "fence_newline_run_in_arguments",
        lambda n: '{"action": "x", "arguments": "```' + "\n" * n + 'x"}',
        5_000,
        ToolCall,
    ),
    Case("float_digit_run_then_letter", lambda n: '{"total": "' + "1" * n + 'x"}', 20_000, Total),
    Case("number_code_then_nbsp_run", lambda n: '{"count": "EUR ' + "\u00a0" * n + 'x"}', 5_000, Count),
    Case(
        "floats_into_str_fields",
        lambda n: "[" + ", ".join(f'{{"s": {i}.50}}' for i in range(n)) + "]",
        2_000,
        list[Note],
        modes=("lenient",),
    ),
    Case("mixed_case_long_unknown_key", lambda n: '{"action": "x", "' + "aB" * n + '": 1}', 20_000, ToolCall),
    Case("hedge_separator_run", lambda n: '{"color": "' + "red or " * n + 'x"}', 2_000, Paint),
)


def chunked(text: str, size: int) -> list[str]:
    """`text` as a stream of chunks of `size` characters."""
    return [text[i : i + size] for i in range(0, len(text), size)]


_CALL = '{"action": "go", "arguments": {"q": "x"}}'
_STREAMS: tuple[tuple[str, Callable[[int], Input], int], ...] = (
    (
        "stream_json_drafts_in_reasoning",
        lambda n: chunked("<think>" + 'maybe {"action": "delete"}, ' * n + "</think>\n" + _CALL, 9),
        500,
    ),
    ("stream_braces_in_prose", lambda n: chunked("Use {name} or [1] or {x}. " * n + _CALL, 5), 500),
    ("stream_unclosed_fence_with_braces", lambda n: chunked("```json\n" + "see {x} and [1]\n" * n + _CALL, 11), 500),
    ("stream_broken_long_keys_one_chunk", lambda n: [('{"' + "k" * 300 + '" x} ') * n + _CALL], 100),
    ("stream_empty_objects_tried_in_turn", lambda n: chunked("{} " * n + _CALL, 4), 2_000),
    ("stream_empty_objects_one_chunk", lambda n: ["{} " * n + _CALL], 2_000),
    (
        "stream_big_object_small_chunks",
        lambda n: chunked('{"action": "go", "arguments": {' + ", ".join(f'"k{i}": {i}' for i in range(n)) + "}}", 7),
        1_000,
    ),
    ("stream_long_prose_small_answer", lambda n: chunked("Let me think about this for a while. " * n + _CALL, 3), 500),
    ("stream_close_tag_whitespace_run", lambda n: list("<think>hmm {}</think" + " " * n + ">" + _CALL), 5_000),
    ("stream_unfinished_open_tags", lambda n: list(("<think " + "a" * 150 + "\n") * n + _CALL), 50),
    ("stream_spaces_before_tags_in_prose", lambda n: list(("   " * 30 + "x <think> ") * n + _CALL), 50),
    (
        "stream_quoted_close_tags_in_reasoning",
        lambda n: chunked("<think>" + 'say `</think>` {"a": 1} ' * n + "</think>" + _CALL, 6),
        200,
    ),
)
CASES += tuple(Case(name, make, n, ToolCall, run=stream) for name, make, n in _STREAMS)


def _toolcall_target() -> Any:
    from rp_toolcalls import ToolCall as PluginToolCall  # the first-party plugin's own target

    return PluginToolCall


_GOOD_CALL = '{"name": "search", "arguments": {"q": "x"}}'
CASES += (
    Case(
        "r17_react_action_lines", lambda n: "Action: a\n" * n + _GOOD_CALL, 4_000, _toolcall_target(), entrypoints=True
    ),
    Case("r17_think_without_close", lambda n: "<think " * n + _GOOD_CALL, 8_000, _toolcall_target(), entrypoints=True),
    Case(
        "r17_hermes_tags",
        lambda n: '<tool_call>{"name": "a"}</tool_call>' * n,
        2_000,
        _toolcall_target(),
        entrypoints=True,
    ),
    Case(
        "r17_hermes_never_closed", lambda n: "<tool_call>" * n + _GOOD_CALL, 2_000, _toolcall_target(), entrypoints=True
    ),
    Case("r17_python_tags", lambda n: "<|python_tag|>" * n + _GOOD_CALL, 2_000, _toolcall_target(), entrypoints=True),
    Case(
        "r17_python_call_unary_chain",
        lambda n: _GOOD_CALL + "\n<|python_tag|>f(x=" + "-" * n + "1)",
        20_000,
        _toolcall_target(),
        entrypoints=True,
    ),
    Case(
        "r17_react_action_inputs",
        lambda n: "Action: a\nAction Input: " * n + _GOOD_CALL,
        1_000,
        _toolcall_target(),
        entrypoints=True,
    ),
    Case(
        "r17_hermes_close_without_gt",
        lambda n: "<tool_call>" + "</tool_call " * n,
        2_000,
        _toolcall_target(),
        entrypoints=True,
    ),
    Case(
        "r18_example_react_calls",
        lambda n: "For example:\nAction: a\nAction Input: {}\n" * n,
        250,  # (about 11 µs a character: 0.1 s at n already)
        _toolcall_target(),
        entrypoints=True,
    ),
    Case(
        "r18_hermes_list_glue",
        lambda n: "For example, " + '<tool_call>{"name": "a"}</tool_call> or ' * n + _GOOD_CALL,
        2_000,
        _toolcall_target(),
        entrypoints=True,
    ),
    Case(
        "r18_regions_with_calls",
        lambda n: "<think>x</think>\nAction: a\n" * n + _GOOD_CALL,
        2_000,
        _toolcall_target(),
        entrypoints=True,
    ),
    Case("r17_mistral_named_markers", lambda n: "[TOOL_CALLS]a[ARGS]" * n, 1_000, _toolcall_target(), entrypoints=True),
    Case(
        "r17_think_blocks_with_calls",
        lambda n: "<think>Action: a</think>\n" * n + _GOOD_CALL,
        500,
        _toolcall_target(),
        entrypoints=True,
    ),
)

# issue 12's new reader paths (each a repair made once per item, so a rescan would show at once); target Any
CASES += tuple(
    Case(name, make, n, Any)
    for name, make, n in (
        ("h4_digit_words", lambda n: "[" + "1.2.3, " * n + "1]", 2_000),
        ("h4_backtick_strings", lambda n: "[" + "`a\u00b4, " * n + "`b\u00b4]", 2_000),
        ("h4_unclosed_backticks", lambda n: "[" + "`a, " * n, 2_000),
        ("h4_missing_quote_commas", lambda n: '{"a": "' + "quick brown, fox " * n + "end}", 4_000),
        ("h4_stray_closers", lambda n: "[" + "{}}, " * n + "1]", 2_000),
        ("h4_inner_quote_paren", lambda n: '{"a": "x("' + 'y") z(" ' * n + 'w")"}', 4_000),
        ("h4_escaped_json", lambda n: '{\\"a\\": [' + '\\"b\\", ' * n + "1]}", 4_000),
        ("h4_whole_tuple", lambda n: "(" + "1, " * n + "2)", 4_000),
        ("h4_big_exponents", lambda n: "[" + "1.5e100, " * n + "1,]", 4_000),
        ("h4_glued_spans", lambda n: "x[a]y " * n, 1_000),
        ("h4_top_string_inner_quotes", lambda n: '"a {b"} ' + "c " * n + '"', 4_000),
        ("h4_jsonp_unclosed", lambda n: "cb(" * n + "1", 1_000),
    )
)


class Weather(BaseModel):
    city: str
    unit: Literal["c", "f"] = "c"


def tool_calls(parser: Parser, text: Input, target: Any) -> None:
    """A chat completion's JSON as the SDK would hand it over: its tool calls read into `target`."""
    from resilient_parse.correction.tool_calls import read_tool_calls
    from resilient_parse.llm.openai import completion_from_openai

    assert isinstance(text, str)
    read_tool_calls(completion_from_openai(json.loads(text)).tool_calls, target, parser)


def streamed_tool_calls(parser: Parser, chunks: Input, target: Any) -> None:
    """Streamed chunks (each one chunk's JSON, as the SDK reads it off the wire) through `stream_tool_calls`."""
    from resilient_parse.tool_streaming import stream_tool_calls

    assert not isinstance(chunks, str | bytes)
    for _ in stream_tool_calls(parser, (json.loads(c) for c in chunks), target):
        pass


def _completion(calls: str) -> str:
    return '{"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [' + calls + "]}}]}"


def _call(i: int, arguments: str, name: str = "Weather") -> str:
    return json.dumps({"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": arguments}})


def _delta(i: int, name: str | None = None, arguments: str = "") -> str:
    function: dict[str, str] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    call = {"index": i, "id": f"c{i}", "type": "function", "function": function}
    return json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})


# issue 15: tool calls read from completions and from streamed deltas (attack and helpers' shapes)
CASES += (
    Case(
        "tool_parallel_repaired_calls",
        lambda n: _completion(", ".join(_call(i, "{'City': 'x', 'unit': 'C',}") for i in range(n))),
        50,
        list[Weather],
        modes=("lenient",),
        run=tool_calls,
    ),
    Case(
        "tool_huge_arguments",
        lambda n: _completion(_call(0, '{"city": "' + "a" * n + '",}')),
        200_000,
        Weather,
        run=tool_calls,
    ),
    Case("tool_long_name", lambda n: _completion(_call(0, '{"city": "a"}', "x" * n)), 200_000, Weather, run=tool_calls),
    Case(
        "tool_stream_one_char_deltas",
        lambda n: [_delta(0, "Weather")] + [_delta(0, arguments=c) for c in '{"city": "' + "a" * n + '"}'],
        4_000,
        Weather,
        run=streamed_tool_calls,
    ),
    Case(
        "tool_stream_parallel_interleaved",
        lambda n: (
            [_delta(i, "Weather") for i in range(n)]
            + [_delta(i, arguments=c) for c in '{"city": "p"}' for i in range(n)]
        ),
        100,
        list[Weather],
        modes=("lenient",),
        run=streamed_tool_calls,
    ),
)
# issue 12's cheaper duplicate-key guard and loose-list rewrite (H5's shapes)
CASES += (
    Case(
        "dup_guard_colons",
        lambda n: "[" + ", ".join(['{"a": "' + ":" * 50 + '", "b": 1}'] * n) + "]",
        2_000,
        list[dict[str, Any]],
    ),
    Case("loose_list_numbers", lambda n: "{'x': [" + ", ".join(["1", "'a'"] * n) + ",]}", 2_500, Any, ("lenient",)),
    Case(
        "wide_single_quoted",
        lambda n: "{" + ", ".join(f"'k{i}': 'v'" for i in range(n)) + "}",
        2_500,
        dict[str, str],
    ),
)

# the reader's one-match flat objects (json.runs.FLAT_OBJECT): a match that fails late in every sibling (a raw
# line break in the last string), and one long flat object that fails at its very end (a nested value)
CASES += (
    Case(
        "flat_object_fails_late",
        lambda n: "[" + ", ".join(["{'a': 1, 'b': True, 'c': [1, 2,], 'd': \"x\ny\"}"] * n) + "]",
        1_000,
        list[dict[str, Any]],
        ("lenient",),
    ),
    # extraction reads a cut-off answer's valid children with the C scanner: children that fail early, and
    # openers that never close, each tried once
    Case("cut_list_of_broken_children", lambda n: "[" + ", ".join(['{"a": 1, "b": x}'] * n), 2_000, Any),
    Case("cut_nested_openers", lambda n: '{"a": ' + '[{"b": ' * n + "1", 2_000, Any),
    Case(
        "flat_object_long_then_nested",
        lambda n: '[{"x": {' + ", ".join(f"'k{i}': True" for i in range(n)) + ', "z": {}}}]',
        2_000,
        Any,
    ),
)


class StreamStep(BaseModel):
    tool: str
    n: int


class StreamPlan(BaseModel):
    action: str
    title: str
    steps: list[StreamStep] = []


def _streamed_items(n: int, head: str, item: str) -> list[str]:
    """`head` + n items in 7-character chunks, then the closers."""
    return [*chunked(head + ", ".join(item.format(i=i) for i in range(n)), 7), "]}"]


# issue 12's "prefixes too": streaming partials read through the reader's repairs (H6's shapes), 7-char chunks
_HEAD = '{"action": "a", "title": "t", "steps": ['
CASES += tuple(
    Case(name, make, n, StreamPlan, run=stream)
    for name, make, n in (
        ("stream_trailing_comma_items", lambda n: _streamed_items(n, _HEAD, '{{"tool": "t{i}", "n": {i},}}'), 1_000),
        (
            "stream_single_quoted_items",
            lambda n: _streamed_items(n, "{\"action\": 'a', 'title': 't', 'steps': [", "{{'tool': 't{i}', 'n': {i}}}"),
            1_000,
        ),
        (
            "stream_refused_word_then_items",
            lambda n: _streamed_items(n, _HEAD.replace('"t"', "hello"), '{{"tool": "t{i}", "n": {i}}}'),
            1_000,
        ),
        ("stream_comment_never_closed", lambda n: chunked('{"action": "a", "title": "t", /* ' + "x" * n, 7), 20_000),
    )
)
# issue 12's cheaper extraction (S2's shapes): valid values read whole in prose, a failing scan never retried
CASES += (
    Case("prose_brackets_failing_scanner", lambda n: "[x] " * n, 5_000, Any, ("lenient",)),
    Case("many_valid_values_in_prose", lambda n: 'see {"k": [1, 2]} and ' * n, 1_000, Any, ("lenient",)),
    Case("valid_list_cut_in_prose", lambda n: "Here: [" + "1, " * n, 5_000, list[int], ("lenient",)),
    Case(
        "valid_big_exponent_lookalikes",
        lambda n: "[" + ", ".join(['{"a": 1.5e10, "s": "e123 4e567"}'] * n) + "]",
        1_000,
        list[dict[str, Any]],
        ("strict",),
    ),
)


def text_beside_a_call(parser: Parser, text: Input, target: Any) -> None:
    """One tool call with `text` beside it, through the correction loop (which compares the two answers)."""
    from resilient_parse.correction import Completion, ToolCall, correct_result

    assert isinstance(text, str)
    reply = Completion(text=text, tool_calls=(ToolCall("Weather", '{"city": "Rome"}'),))
    with contextlib.suppress(ParseError):  # the shape times the comparison, whatever it concludes
        correct_result(lambda messages: reply, [{"role": "user", "content": "?"}], target, parser=parser)


# issue 15: text beside a call is read and compared with the call's answer
CASES += (
    Case("tool_text_beside_call", lambda n: "word " * n + '{"city": "Rome"}', 5_000, Weather, run=text_beside_a_call),
)


def repair_only(parser: Parser, text: Input, target: Any) -> None:
    """The tokenizer alone (`repair_syntax`, allowed to close what was cut), as tests/test_syntax.py calls it."""
    from resilient_parse.stages.syntax import SyntaxFailure, repair_syntax

    assert isinstance(text, str)
    with contextlib.suppress(SyntaxFailure):
        repair_syntax(text, allow_close=True, max_depth=64)


def load_only(parser: Parser, text: Input, target: Any) -> None:
    """The reader on one candidate (`load_json`, which may hand it to json-repair), as tests/test_syntax.py calls it."""
    from resilient_parse.stages.syntax import load_json

    assert isinstance(text, str)
    load_json(text, parser.context(target))


def extract_only(parser: Parser, text: Input, target: Any) -> None:
    """Candidate extraction alone (`extract_candidates`), as tests/test_extract.py calls it."""
    from resilient_parse.stages.extract import extract_candidates

    assert isinstance(text, str)
    extract_candidates(text, 16)


SMALL_LIMIT = 1_000
"""The input size limit of `parse_over_the_limit`: every size the harness times is over it."""


def parse_over_the_limit(parser: Parser, text: Input, target: Any) -> None:
    """`parse` with `Policy.max_input_chars` set to SMALL_LIMIT: the input is refused up front, whatever its size."""
    from dataclasses import replace

    limited = Parser(replace(parser.policy, max_input_chars=SMALL_LIMIT), entrypoints=False)
    try:
        limited.parse_result(text, target)
    except ParseError as err:
        assert err.errors[0]["kind"] == "input_too_large", err
        raise
    raise AssertionError("an input over max_input_chars was not refused")


# the hostile shapes that default-suite tests once timed against the wall clock (issue 23): each is judged here by
# its growth instead. The tests keep what each shape must end in (the error class, the kind); not how long it took.
_BARE_MEMBERS = "key: value, "
CASES += (
    # tests/test_syntax.py: deep nesting is refused naming the limit (the other two openers are deep_open_* above)
    Case("deep_open_braces", lambda n: "{" * n, 12_500, Any),
    # tests/test_syntax.py: the tokenizer alone on dense repairs, backslashes, open strings, open comments
    Case(
        "tokenizer_dense_repairs",
        lambda n: "[" + "{'a': 'it\\'s', b: True, // c\n}," * n + "]",
        1_000,
        run=repair_only,
        modes=("lenient",),
    ),
    Case(
        "tokenizer_backslashes_then_cut",
        lambda n: '{"a": "' + "\\\\" * n + '"',
        20_000,
        run=repair_only,
        modes=("lenient",),
    ),
    Case("tokenizer_open_single_quote", lambda n: "{'a': '" + "'x" * n, 20_000, run=repair_only, modes=("lenient",)),
    Case("tokenizer_open_comments", lambda n: "[" + "/*" * n, 20_000, run=repair_only, modes=("lenient",)),
    Case("tokenizer_apostrophes", lambda n: '{"a": "' + "'" * n + '",}', 20_000, run=repair_only, modes=("lenient",)),
    # tests/test_syntax.py: json-repair is not asked to guess at a huge candidate (every size over its cap) ...
    Case(
        "json_repair_doubled_comma_past_its_cap",
        lambda n: '{"a": "x",, ' + _BARE_MEMBERS * n + "}",
        2_000,
        dict[str, Any],
        modes=("lenient",),
        run=load_only,
    ),
    # ... nor at many bare members under it: every size stays under the cap (max_chars). json-repair reads the
    # smaller sizes (its work bounded by read_fallback.JSON_REPAIR_MAX_WORK), the guard refuses the larger ones;
    # without the guard its n² scan would show at 8n at once
    Case(
        "json_repair_doubled_comma_under_its_cap",
        lambda n: '{"a": "x",, ' + _BARE_MEMBERS * n + "}",
        200,
        dict[str, Any],
        modes=("lenient",),
        run=load_only,
        max_chars=20_000,
    ),
    # tests/test_adversarial.py: an input over Policy.max_input_chars is refused up front
    Case("input_over_the_size_limit", lambda n: '{"a": "' + "x" * n + '"}', 500_000, run=parse_over_the_limit),
    # tests/test_extract.py: candidate extraction alone on closers, tiny spans, open strings, fences, tags ...
    *(
        Case(f"extract_{name}", make, n, Any, modes=("lenient",), run=extract_only)
        for name, make, n in (
            ("closers_with_a_deep_stack", lambda n: "[" * n + "}" * n, 12_500),
            ("tiny_spans", lambda n: "[1] " * n, 6_000),
            ("open_string", lambda n: '{"a": "' + "x" * n, 25_000),
            ("fences", lambda n: "```\n" * n, 6_000),
            ("tags", lambda n: "<think>" * n + "</think>" * n, 4_000),
            ("open_objects", lambda n: "{'a" * n, 7_500),
            ("cut_list", lambda n: "[" + "{'a': 'it's', " * n, 2_500),
            ("deep_open", lambda n: "[" + "{[" * n, 7_500),
            ("ticks", lambda n: "x ``` y " * n, 5_000),
        )
    ),
)
CASES_BY_NAME = {c.name: c for c in CASES}
FLOOR_S = 0.010
"""A parse at the base size must take at least this long (CPU time) for its growth to mean anything."""
MAX_CHARS = 4_000_000
"""The calibration stops growing n once the 8n input would exceed this many characters."""


def outcome(parser: Parser, text: Input, target: Any, run: Callable[[Parser, Input, Any], None] = parse) -> str:
    """The string "ok", or the ParseError class name; anything else escaping propagates (it is a bug)."""
    try:
        run(parser, text, target)
    except ParseError as err:
        return type(err).__name__
    return "ok"


def time_once(
    parser: Parser,
    text: Input,
    target: Any,
    reps: int,
    clock: Callable[[], float] = time.process_time,
    run: Callable[[Parser, Input, Any], None] = parse,
) -> tuple[float, str]:
    best = float("inf")
    result = ""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()  # as timeit does: a collection's pause lands on whichever run it happens to hit
    try:
        for _ in range(reps):
            started = clock()
            result = outcome(parser, text, target, run)
            best = min(best, clock() - started)
    finally:
        if was_enabled:
            gc.enable()
    return best, result


def _size(text: Input) -> int:
    return len(text) if isinstance(text, str | bytes) else sum(len(chunk) for chunk in text)


@dataclass(frozen=True)
class Timing:
    case: str
    mode: str
    sizes: tuple[int, ...]  # input lengths
    seconds: tuple[float, ...]
    outcomes: tuple[str, ...]

    @property
    def vs_linear(self) -> float:
        """t(last) / t(first) relative to the growth of the input: 1.0 is linear, 8.0 quadratic over 8x. A run
        that stopped early is extrapolated from its last doubling to 8x. A shape still under FLOOR_S at the
        largest calibrated size (MAX_CHARS) is measured from FLOOR_S: its times are scheduler noise, and a
        super-linear shape could not stay that fast at millions of characters."""
        steps = len(self.sizes) - 1
        first = max(self.seconds[0], FLOOR_S if self.seconds[0] < FLOOR_S else 1e-9)
        measured = (self.seconds[-1] / first) / (self.sizes[-1] / max(self.sizes[0], 1))
        if steps >= 3 or steps == 0:
            return measured
        last = (self.seconds[-1] / max(self.seconds[-2], 1e-9)) / (self.sizes[-1] / max(self.sizes[-2], 1))
        return measured * last ** (3 - steps)


def calibrate(case: Case, parser: Parser, clock: Callable[[], float]) -> int:
    """The smallest n (doubling from the case's base) whose parse takes at least FLOOR_S, or the largest whose 8n
    input stays within the case's `max_chars`."""
    n = case.n
    outcome(parser, case.make(n), case.target, case.run)  # untimed: the first parse imports the stages it needs
    while _size(case.make(8 * n)) <= MAX_CHARS:
        t, _ = time_once(parser, case.make(n), case.target, 1, clock, case.run)
        if t >= FLOOR_S or (case.max_chars is not None and _size(case.make(16 * n)) > case.max_chars):
            break
        n *= 2
    return n


def measure(
    case: Case,
    mode: str = "lenient",
    reps: int = 3,
    clock: Callable[[], float] = time.process_time,
    warm: bool = True,
) -> Timing:
    """Time the case at n, 2n, 4n, 8n from a calibrated n, stopping early when a doubling costs over 4x. `warm`
    parses each size once untimed first (fresh memory is slower); a quick first look may skip it."""
    parser = Parser(mode, entrypoints=case.entrypoints)
    parser.plan(case.target)  # build the plan outside the timing
    n = calibrate(case, parser, clock)
    sizes: list[int] = []
    seconds: list[float] = []
    outcomes: list[str] = []
    for k in (1, 2, 4, 8):
        text = case.make(n * k)
        if warm:
            outcome(parser, text, case.target, case.run)  # untimed: the first run at a size pays for fresh memory
        t, result = time_once(parser, text, case.target, reps, clock, case.run)
        sizes.append(_size(text))
        seconds.append(t)
        outcomes.append(result)
        if len(seconds) > 1 and seconds[-1] > 4.5 * max(seconds[-2], FLOOR_S):
            break  # quadratic or worse: the next doubling would only take longer to say so
    return Timing(case.name, mode, tuple(sizes), tuple(seconds), tuple(outcomes))


TIMEOUT_S = 120.0
"""A case still running after this long is super-linear: it is stopped and reported as such."""


def _measure_in_child(conn: Connection, name: str, mode: str, reps: int, warm: bool) -> None:
    conn.send(measure(CASES_BY_NAME[name], mode, reps, warm=warm))


def measure_isolated(
    case: Case, mode: str, reps: int = 3, timeout: float = TIMEOUT_S, *, warm: bool = True
) -> Timing | None:
    """`measure` in a child process, so that an exponential shape cannot hang the run: None on a timeout."""
    ctx = mp.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_measure_in_child, args=(send, case.name, mode, reps, warm), daemon=True)
    child.start()
    try:
        if receive.poll(timeout):
            timing: Timing = receive.recv()
            return timing
        return None
    finally:
        child.kill()
        child.join()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--case", action="append", help="run only these cases")
    ap.add_argument("--mode", action="append", choices=("strict", "lenient"), help="only these modes")
    ap.add_argument("--all", action="store_true", help="include the cases marked slow")
    args = ap.parse_args(argv)
    chosen = [CASES_BY_NAME[n] for n in args.case] if args.case else [c for c in CASES if args.all or not c.slow]
    print(f"{'case':<40} {'mode':<8} {'chars at n':>11} {'t(n) ms':>8} {'t(8n) ms':>9} {'vs linear':>9}  outcome")
    worst = 0.0
    for case in chosen:
        for mode in case.modes:
            if args.mode and mode not in args.mode:
                continue
            m = measure_isolated(case, mode, args.reps)
            if m is None:
                print(f"{case.name:<40} {mode:<8} still running after {TIMEOUT_S:.0f} s: super-linear", flush=True)
                worst = float("inf")
                continue
            worst = max(worst, m.vs_linear)
            print(
                f"{m.case:<40} {mode:<8} {m.sizes[0]:>11,} {m.seconds[0] * 1000:>8.1f} {m.seconds[-1] * 1000:>9.1f} "
                f"{m.vs_linear:>9.2f}  {m.outcomes[-1]}",
                flush=True,
            )
    print(f"worst t(8n)/(8*t(n)): {worst:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
