"""Find the tool calls in what a model wrote, in the formats models actually emit.

Recognised: OpenAI `tool_calls` (arguments as a JSON string, possibly broken) and legacy `function_call`;
Anthropic `tool_use` blocks; Hermes/Qwen `<tool_call>{...}</tool_call>`; Mistral `[TOOL_CALLS][...]` and
`[TOOL_CALLS]name[ARGS]{...}`; Llama 3 `<|python_tag|>{"name": ..., "parameters": ...}` and
`<|python_tag|>tool.call(key="value")`; ReAct `Action:` / `Action Input:`; and plain JSON
`{"action"|"tool"|"name"|...: ..., "arguments"|"args"|"parameters"|...: ...}`, alone or in a list. Several calls
in one output are returned in the order they appear. Calls inside reasoning blocks (`<think>`…) are drafts and
are ignored.

This module only finds calls; it does not decide what a name means or whether arguments are valid — that is
`calls.py`, against the registry. JSON that is broken is read by a resilient_parse `Parser` under the caller's
policy, and the repairs it took travel with the call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from resilient_parse import ErrorDetail, ParseError, Parser, Repair, UnrecoverableSyntaxError

NAME_KEYS = ("name", "tool", "action", "tool_name", "function", "function_name", "recipient_name", "command")
ARGUMENT_KEYS = (
    "arguments",
    "args",
    "parameters",
    "input",
    "action_input",
    "tool_input",
    "params",
    "kwargs",
    "inputs",
)
MAX_JSON_VALUES = 256
"""At most this many top-level JSON values are examined per output (hostile input stays linear)."""
_STRONG_NAME_KEYS = frozenset({"tool", "action", "tool_name", "function", "function_name"})

_LOOKS_LIKE_CALL = re.compile(
    r"""["']?(?:tool|action|name|function|tool_name|function_name|tool_calls|function_call)["']?\s*:"""
)
_REASONING = re.compile(r"<(think|thinking|reasoning|scratchpad)\b[^>]*>.*?(?:</\1\s*>|$)", re.IGNORECASE | re.DOTALL)
_HERMES = re.compile(r"<(tool_call|function_call|tool_use)>\s*(.*?)\s*(?:</\1\s*>|(?=<\1>)|$)", re.DOTALL)
_MISTRAL = re.compile(r"\[TOOL_CALLS\]")
_MISTRAL_NAMED = re.compile(r"\s*([A-Za-z_][\w.\-]*)\s*\[ARGS\]")
_PYTHON_TAG = re.compile(r"<\|python_tag\|>(.*?)(?:<\|eom_id\|>|<\|eot_id\|>|<\|python_tag\|>|$)", re.DOTALL)
_PY_CALL = re.compile(r"^\s*([A-Za-z_][\w]*)(?:\.call)?\s*\((.*)\)\s*;?\s*$", re.DOTALL)
_REACT_ACTION = re.compile(r"^[ \t]*\**Action\**[ \t]*:[ \t]*(.+?)[ \t]*$", re.MULTILINE | re.IGNORECASE)
_REACT_INPUT = re.compile(r"^[ \t]*\**Action[ \t_]Input\**[ \t]*:[ \t]*", re.MULTILINE | re.IGNORECASE)
_REACT_STOP = re.compile(
    r"^[ \t]*\**(?:Observation|Thought|Action|Final Answer)\**[ \t]*:", re.MULTILINE | re.IGNORECASE
)
_REACT_BRACKET = re.compile(r"^([A-Za-z_][\w.\-]*)\[(.*)\]$", re.DOTALL)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class RawCall:
    """A call as written: the name and arguments before they are matched to a tool, where it was found, and
    the repairs it took to read it. `arguments` is a dict, a string (JSON or not), or None (none given)."""

    name: Any
    arguments: Any
    format: str
    id: str | None = None
    offset: int = 0
    repairs: tuple[Repair, ...] = ()
    error: str | None = None


@dataclass
class _Found:
    calls: list[RawCall] = field(default_factory=list)
    taken: list[tuple[int, int]] = field(default_factory=list)

    def take(self, start: int, end: int) -> None:
        self.taken.append((start, end))

    def is_taken(self, pos: int) -> bool:
        return any(a <= pos < b for a, b in self.taken)


# -- reading JSON --------------------------------------------------------------------------------------------


def load_json(text: str, parser: Parser) -> tuple[Any, tuple[Repair, ...]]:
    """Read one JSON value, repairing it as far as the parser's policy allows. Raises ParseError."""
    try:
        return json.loads(text), ()
    except (ValueError, RecursionError):
        pass
    if nesting_depth(text) > parser.policy.max_depth:  # refuse before the repair machinery spends time on it
        detail = ErrorDetail("", "too_deep", f"nested deeper than {parser.policy.max_depth} levels")
        raise UnrecoverableSyntaxError("the JSON is nested too deeply to read", [detail])
    result = parser.parse_result(text, Any)
    return result.value, result.repairs


def nesting_depth(text: str) -> int:
    """The deepest `{`/`[` nesting in `text`, outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "}]":
            depth -= 1
    return deepest


def json_spans(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Top-level `{…}` / `[…]` spans, respecting strings; an unclosed span runs to the end of the text."""
    end = len(text) if end is None else end
    i = start
    while i < end:
        ch = text[i]
        if ch not in "{[":
            i += 1
            continue
        depth, j, in_string = 0, i, False
        while j < end:
            c = text[j]
            if in_string:
                if c == "\\":
                    j += 1
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c in "{[":
                depth += 1
            elif c in "}]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        yield i, min(j + 1, end)
        i = j + 1


# -- interpreting JSON values --------------------------------------------------------------------------------


def calls_in_value(value: Any, fmt: str, offset: int, repairs: tuple[Repair, ...] = ()) -> list[RawCall]:
    """The calls a JSON value holds, in any of the known JSON shapes; [] when it holds none."""
    if isinstance(value, list):
        return [c for item in value for c in calls_in_value(item, fmt, offset, repairs)]
    if not isinstance(value, Mapping):
        return []
    if "choices" in value and isinstance(value["choices"], list):  # a whole chat-completion response
        return [
            c
            for choice in value["choices"]
            if isinstance(choice, Mapping)
            for c in calls_in_value(choice.get("message"), fmt, offset, repairs)
        ]
    if isinstance(value.get("tool_calls"), list):  # an OpenAI assistant message
        return calls_in_value(value["tool_calls"], "openai", offset, repairs)
    if isinstance(value.get("function_call"), Mapping):  # legacy OpenAI
        fc = value["function_call"]
        return [RawCall(fc.get("name"), fc.get("arguments"), "openai", None, offset, repairs)]
    if isinstance(value.get("function"), Mapping):  # one OpenAI tool_calls item
        fn = value["function"]
        call_id = value.get("id") if isinstance(value.get("id"), str) else None
        return [RawCall(fn.get("name"), fn.get("arguments"), "openai", call_id, offset, repairs)]
    if value.get("type") == "tool_use":  # an Anthropic content block
        call_id = value.get("id") if isinstance(value.get("id"), str) else None
        return [RawCall(value.get("name"), value.get("input"), "anthropic", call_id, offset, repairs)]
    if isinstance(value.get("content"), list) and any(
        isinstance(b, Mapping) and b.get("type") == "tool_use" for b in value["content"]
    ):  # an Anthropic message
        return calls_in_value([b for b in value["content"] if isinstance(b, Mapping)], "anthropic", offset, repairs)
    return _plain_call(value, fmt, offset, repairs)


def _plain_call(value: Mapping[str, Any], fmt: str, offset: int, repairs: tuple[Repair, ...]) -> list[RawCall]:
    name_key = next((k for k in NAME_KEYS if isinstance(value.get(k), str)), None)
    if name_key is None:
        return []
    arg_key = next((k for k in ARGUMENT_KEYS if k in value), None)
    if arg_key is None and name_key not in _STRONG_NAME_KEYS and fmt == "json":
        return []  # {"name": "Ada"} is data, not a call
    call_id = value.get("id") if isinstance(value.get("id"), str) else None
    arguments = value.get(arg_key) if arg_key is not None else None
    if fmt == "json" and name_key == "name" and value.get("parameters") is not None and arg_key == "parameters":
        fmt = "llama"
    return [RawCall(value[name_key], arguments, fmt, call_id, offset, repairs)]


def _json_calls(body: str, fmt: str, offset: int, parser: Parser) -> list[RawCall]:
    try:
        value, repairs = load_json(body, parser)
    except ParseError as exc:
        if fmt == "json" and not _LOOKS_LIKE_CALL.search(body[:2000]):
            return []  # broken JSON (or braces in prose) that does not even look like a call is not one
        return [RawCall(None, None, fmt, None, offset, (), f"the {fmt} tool call is not readable JSON: {exc.message}")]
    calls = calls_in_value(value, fmt, offset, repairs)
    if not calls and fmt != "json":
        return [RawCall(None, None, fmt, None, offset, repairs, f"the {fmt} tool call names no tool")]
    return calls


# -- the text formats ----------------------------------------------------------------------------------------


def _hermes(text: str, found: _Found, parser: Parser) -> None:
    for m in _HERMES.finditer(text):
        if found.is_taken(m.start()):
            continue
        found.take(m.start(), m.end())
        body = m.group(2)
        if body.strip():
            found.calls.extend(_json_calls(body, "hermes", m.start(2), parser))


def _mistral(text: str, found: _Found, parser: Parser) -> None:
    markers = [m for m in _MISTRAL.finditer(text) if not found.is_taken(m.start())]
    for k, m in enumerate(markers):
        end = markers[k + 1].start() if k + 1 < len(markers) else len(text)
        found.take(m.start(), end)
        body = text[m.end() : end]
        named = _MISTRAL_NAMED.match(body)
        if named:
            args = body[named.end() :].strip()
            if args.startswith("{"):
                try:
                    value, repairs = load_json(args, parser)
                except ParseError as exc:
                    found.calls.append(RawCall(named.group(1), None, "mistral", None, m.start(), (), exc.message))
                    continue
                found.calls.append(RawCall(named.group(1), value, "mistral", None, m.start(), repairs))
            else:
                found.calls.append(RawCall(named.group(1), args or None, "mistral", None, m.start()))
            continue
        for s, e in json_spans(body):
            found.calls.extend(_json_calls(body[s:e], "mistral", m.end() + s, parser))
            break  # one JSON value follows the marker


def _python_tag(text: str, found: _Found, parser: Parser) -> None:
    for m in _PYTHON_TAG.finditer(text):
        if found.is_taken(m.start()):
            continue
        found.take(m.start(), m.end())
        body = m.group(1).strip()
        if body.startswith(("{", "[")):
            for part in _split_statements(body):
                found.calls.extend(_json_calls(part, "llama", m.start(1), parser))
            continue
        call = python_call(body)
        if call is not None:
            found.calls.append(RawCall(call[0], call[1], "llama", None, m.start(1)))
        elif body:
            found.calls.append(
                RawCall(None, None, "llama", None, m.start(1), (), "the python_tag call is not readable")
            )


def _split_statements(body: str) -> list[str]:
    """Llama sometimes writes several JSON calls separated by ';'."""
    return [body[s:e] for s, e in json_spans(body)] or [body]


def python_call(text: str) -> tuple[str, dict[str, Any]] | None:
    """`brave_search.call(query="x")` or `get_time(tz="UTC")` → (name, {keyword: literal}); None when it is not
    a call with literal keyword arguments (nothing is ever evaluated)."""
    m = _PY_CALL.match(text)
    if m is None:
        return None
    import ast  # imported on first use: it is large, and only Llama's python_tag calls need it

    try:
        node = ast.parse(f"f({m.group(2)})", mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Call) or node.args:
        return None
    args: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            return None
        try:
            args[kw.arg] = ast.literal_eval(kw.value)
        except ValueError:
            return None
    return m.group(1), args


def _react(text: str, found: _Found, parser: Parser) -> None:
    for m in _REACT_ACTION.finditer(text):
        if found.is_taken(m.start()):
            continue
        name = m.group(1).strip().strip("`*\"'").strip()
        if _REACT_INPUT.match(text, m.start()):
            continue
        tail_start = m.end()
        stop = _REACT_STOP.search(text, tail_start)
        inp = _REACT_INPUT.search(text, tail_start, stop.start() if stop else len(text))
        arguments: Any = None
        repairs: tuple[Repair, ...] = ()
        end = stop.start() if stop else len(text)
        if inp is not None:
            stop2 = _REACT_STOP.search(text, inp.end())
            end = stop2.start() if stop2 else len(text)
            raw = _strip_fence(text[inp.end() : end].strip())
            arguments = raw
            if raw.startswith(("{", "[")):
                try:
                    arguments, repairs = load_json(raw, parser)
                except ParseError:
                    arguments = raw
        else:
            bracket = _REACT_BRACKET.match(name)
            if bracket:
                name, arguments = bracket.group(1), bracket.group(2)
        found.take(m.start(), end)
        if name.casefold() in ("final answer", "finish", "none"):
            continue
        found.calls.append(RawCall(name, arguments, "react", None, m.start(), repairs))


def _strip_fence(text: str) -> str:
    m = _FENCE.match(text + "\n") if text.startswith(("```", "~~~")) else None
    if m:
        return m.group(2).strip()
    if text.startswith(("```", "~~~")):
        return text.strip("`~").removeprefix("json").strip()
    return text


def _plain_json(text: str, found: _Found, parser: Parser) -> None:
    others = _Found(taken=list(found.taken))  # spans never overlap each other: check only the other formats
    for count, (s, e) in enumerate(json_spans(text)):
        if count >= MAX_JSON_VALUES:
            break
        if others.is_taken(s):
            continue
        found.take(s, e)
        found.calls.extend(_json_calls(text[s:e], "json", s, parser))


def _blank_reasoning(text: str) -> str:
    """Reasoning blocks replaced by spaces, so offsets still point into the original text."""
    return _REASONING.sub(lambda m: " " * (m.end() - m.start()), text)


def extract_calls(text: str, parser: Parser) -> list[RawCall]:
    """Every tool call in `text`, in the order they appear."""
    text = _blank_reasoning(text)
    found = _Found()
    if "<tool_call>" in text or "<function_call>" in text or "<tool_use>" in text:
        _hermes(text, found, parser)
    if "[TOOL_CALLS]" in text:
        _mistral(text, found, parser)
    if "<|python_tag|>" in text:
        _python_tag(text, found, parser)
    if re.search(r"action", text, re.IGNORECASE):
        _react(text, found, parser)
    _plain_json(text, found, parser)
    return sorted(found.calls, key=lambda c: c.offset)
