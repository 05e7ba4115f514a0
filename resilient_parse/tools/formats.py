"""Find the tool calls in what a model wrote, in the formats models actually emit.

Recognised: OpenAI `tool_calls` (arguments as a JSON string, possibly broken) and legacy `function_call`;
Anthropic `tool_use` blocks; Hermes/Qwen `<tool_call>{...}</tool_call>`; Mistral `[TOOL_CALLS][...]` and
`[TOOL_CALLS]name[ARGS]{...}`; Llama 3 `<|python_tag|>{"name": ..., "parameters": ...}` and
`<|python_tag|>tool.call(key="value")`; Python calls alone, `[f(a=1), g(b="x")]` ("pythonic"); DeepSeek's
call tokens; functionary's `<function=name>`, `>>>name` and `<|recipient|>name<|content|>`; gpt-oss's harmony
messages `to=functions.name`; Kimi K2's `<|tool_call_begin|>functions.name:0`; GLM's name line; ReAct
`Action:` / `Action Input:`; plain JSON `{"action"|"tool"|"name"|...: ..., "arguments"|"args"|...: ...}`,
alone or in a list; and, for the caller's own tools only, `[{"name": {...}}]` (`keyed_calls`). Several calls
in one output are returned in the order they appear (`read_calls`), each with the facts the core judges its own
candidates by, from the core itself (`resilient_parse.plugin_api.split_reasoning` and `candidate_facts`): the
region it stands in (a call inside `<think>`… is a draft), what the words before it call it ("For example,
<tool_call>…" — an example), and where the visible prose refuses the task. `extract_calls` — the calls to make —
leaves out drafts, examples, rejected options and calls beside a refusal (`may_be_made`). The core's tool-call
answers (`tools.answer`) and the toolcalls plugin both read calls here.

The formats live by family: those a model's special tokens or tags mark in `token_formats`, those read in prose
or by shape (ReAct, read honestly as its docstring says; pythonic; GLM's name lines; plain JSON) in
`prose_formats`, the JSON shapes of calls and the reading of a call's JSON in `json_calls`.

Linear on every input: tags and ReAct lines are found by forward searches whose results are kept until the scan
passes them (`scanning.Ahead`), so a tag that never closes is searched for once, not once per opening; which
stretches a format has taken is looked up by bisection; Llama's `tool.call(...)` is read by `pycall.python_call`,
which hands `ast` only small calls. This module only finds calls; it does not decide what a name means or whether
arguments are valid — that is `calls.py`, against the registry. JSON that is broken is read by a resilient_parse
`Parser` under the caller's policy, and the repairs it took travel with the call.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace

from resilient_parse.stages.extract import ANSWER, candidate_facts, split_reasoning
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.json_calls import Parser, calls_in_value, keyed_calls, load_json
from resilient_parse.tools.prose_formats import (
    IMPLIED_INPUT_KIND,
    PROSE_READERS,
    call_in_prose,
    opens_with_a_name_line,
    react_action_in,
)
from resilient_parse.tools.scanning import Found, Reader
from resilient_parse.tools.token_formats import TOKEN_READERS

__all__ = [  # with what the core and the toolcalls plugin import from here, wherever it lives
    "IMPLIED_INPUT_KIND",
    "NOT_ANSWERS",
    "Parser",
    "Reading",
    "call_in_prose",
    "calls_in_value",
    "extract_calls",
    "keyed_calls",
    "load_json",
    "may_be_made",
    "opens_with_a_name_line",
    "react_action_in",
    "read_calls",
]

_READERS: tuple[Reader, ...] = (*TOKEN_READERS, *PROSE_READERS)  # tokens first: a tag inside arguments is theirs
NOT_ANSWERS = frozenset({"example", "rejected"})


@dataclass(frozen=True)
class Reading:
    """Every call in an output (drafts included), with the facts the core judges its own candidates by: whether
    anything is written outside reasoning, and where the visible prose outside the calls refuses the task (-1:
    nowhere). Only calls are judged: without one, these are False and -1."""

    calls: list[RawCall]
    visible_text: bool
    refusal_at: int
    others: tuple[tuple[int, int], ...] = ()
    """The JSON values in the visible answer that hold no call and that no words call an example or a rejected
    option: what the text may answer beside its calls."""
    taken: tuple[tuple[int, int], ...] = ()
    """The stretches the formats read as their own syntax (tags, markers, ReAct lines, calls): the rest is prose."""


def read_calls(text: str, parser: Parser, names: tuple[str, ...] = ()) -> Reading:
    """Every tool call in `text` in the order they appear, each with its region and label. Each region is read
    on its own: no call spans a reasoning block's edge. The labels and the refusal are the core's
    (`candidate_facts`), read at each call's stretch, with everything the formats took as theirs, not prose."""
    calls: list[RawCall] = []
    spans: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []
    others: list[tuple[int, int]] = []
    for region in split_reasoning(text):
        found = Found(text, region.body_start, region.body_end, names)
        for reader in _READERS:
            reader(text, region.body_start, region.body_end, found, parser)
            found.commit()
        stretches = sorted(found.stretches())
        starts = [start for start, _ in stretches]
        spans.extend(_stretch_of(stretches, starts, c.offset) for c in found.calls)
        taken.extend(stretches)
        calls.extend(c if region.kind == ANSWER else replace(c, region=region.kind) for c in found.calls)
        if region.kind == ANSWER:
            others.extend(found.others)
    if not calls:
        return Reading([], False, -1)
    facts = candidate_facts(text, [*spans, *others], taken)
    labelled = [replace(c, label=f.label) if f.label else c for c, f in zip(calls, facts)]
    beside = tuple(span for span, f in zip(others, facts[len(calls) :]) if f.label not in NOT_ANSWERS)
    ordered = sorted(labelled, key=lambda c: c.offset)
    return Reading(ordered, facts[0].visible_text, facts[0].refusal_at, beside, tuple(sorted(taken)))


def _stretch_of(stretches: list[tuple[int, int]], starts: list[int], offset: int) -> tuple[int, int]:
    """The stretch a format took for the call at `offset` (`stretches` sorted, `starts` theirs), tags included:
    the call as the core's labels see a candidate, so "<tool_call>…</tool_call> or <tool_call>…" lists two."""
    i = bisect_right(starts, offset) - 1
    return stretches[i] if i >= 0 and stretches[i][1] > offset else (offset, offset)


def may_be_made(call: RawCall, reading: Reading) -> bool:
    """Whether the text gives a call as one to make: in the visible answer, not labelled an example or a rejected
    option, and not beside a visible refusal (unless designated) — the core's rules for its own candidates."""
    if call.region != ANSWER or call.label in NOT_ANSWERS:
        return False
    return reading.refusal_at < 0 or call.label == "designated"


def extract_calls(text: str, parser: Parser, names: tuple[str, ...] = ()) -> list[RawCall]:
    """Every tool call the text gives as a call to make, in the order they appear (`may_be_made`): a draft inside
    reasoning, an example, a rejected option or a call beside a refusal is not one. `names`: the tools a call may
    name by key alone (`[{"get_weather": {…}}]`, `keyed_calls`)."""
    reading = read_calls(text, parser, names)
    return [c for c in reading.calls if may_be_made(c, reading)]
