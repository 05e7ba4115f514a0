"""Tool calls written as JSON: the one reading of a call's JSON that every text format shares.

A call's JSON is read under the caller's policy (`load_json`); the JSON shapes that hold calls are OpenAI's,
Anthropic's, plain `{"tool": …, "arguments": …}` and one keyed by the tool's name; a call named outside its JSON
(`call_with_json`) is how the formats in `token_formats` and `prose_formats` write theirs."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

from resilient_parse.errors import ErrorDetail, ParseError, TruncatedOutputError, UnrecoverableSyntaxError
from resilient_parse.policy import Policy
from resilient_parse.repairs import Repair
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.names import ARGUMENT_KEYS, CALL_NAME_KEYS, STRONG_NAME_KEYS, how_named
from resilient_parse.tools.spans import nesting_depth

# broken JSON that still writes a key a call is named by, or a provider's key for its calls
_LOOKS_LIKE_CALL = re.compile(
    r"""["']?(?:""" + "|".join(sorted({*STRONG_NAME_KEYS, "name", "tool_calls", "function_call"})) + r""")["']?\s*:"""
)
_ARG_PAIR = re.compile(r"<arg_key>([^<]{0,200})</arg_key>\s{0,20}<arg_value>([^<]*)</arg_value>")
DOTTED_NAME = re.compile(r"[A-Za-z_][\w.\-]*")


class Parser(Protocol):
    """What reads a call's JSON: a resilient_parse `Parser` (its policy, and `parse_result` for broken JSON)."""

    policy: Policy

    def parse_result(self, text: str, target: Any) -> Any: ...


class _NotPlain(ValueError):
    """What `json.loads` would read past: a key written twice (it keeps the last), a number past a float's range
    (it reads infinity). The parser reads those texts, by its own rules."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _NotPlain("a key written twice")
    return out


def _finite(number: str) -> float:
    value = float(number)
    if value in (float("inf"), float("-inf")):
        raise _NotPlain("a number past a float's range")
    return value


def load_json(text: str, parser: Parser) -> tuple[Any, tuple[Repair, ...]]:
    """Read one JSON value, repairing it as far as the parser's policy allows. Raises ParseError. Plain JSON is
    read by `json.loads`, except what it would read past (`_NotPlain`), which the parser refuses or repairs."""
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_float=_finite), ()
    except (ValueError, RecursionError):
        pass
    if nesting_depth(text) > parser.policy.max_depth:  # refuse before the repair machinery spends time on it
        detail = ErrorDetail("", "too_deep", f"nested deeper than {parser.policy.max_depth} levels")
        raise UnrecoverableSyntaxError("the JSON is nested too deeply to read", [detail])
    result = parser.parse_result(text, Any)
    return result.value, result.repairs


def calls_in_value(value: Any, fmt: str, offset: int, repairs: tuple[Repair, ...] = ()) -> list[RawCall]:
    """The calls a JSON value holds, in any of the known JSON shapes; [] when it holds none. A list of calls with
    items that are none (`[{call}, {"path": "b"}]`) holds an unreadable call for each of those: never dropped."""
    if isinstance(value, list):
        found = [calls_in_value(item, fmt, offset, repairs) for item in value]
        if not any(found):
            return []
        error = "item {} of the list of calls is not a call"
        return [c for i, calls in enumerate(found) for c in (calls or [not_a_call(fmt, offset, error.format(i))])]
    if not isinstance(value, Mapping):
        return []
    if "choices" in value and isinstance(value["choices"], list):  # a whole chat-completion response
        # its first choice: several choices are samples of one turn, never its parallel calls (samples that
        # differ are ambiguous, `envelopes.envelope_error`; one answer sampled twice is that answer once)
        first = value["choices"][0] if value["choices"] else None
        return calls_in_value(first.get("message"), fmt, offset, repairs) if isinstance(first, Mapping) else []
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
        blocks = [b for b in value["content"] if isinstance(b, Mapping) and b.get("type") == "tool_use"]
        return calls_in_value(blocks, "anthropic", offset, repairs)  # (its text blocks are what it says beside)
    return _plain_call(value, fmt, offset, repairs)


def not_a_call(fmt: str, offset: int, error: str) -> RawCall:
    return RawCall(None, None, fmt, None, offset, (), error)


def _plain_call(value: Mapping[str, Any], fmt: str, offset: int, repairs: tuple[Repair, ...]) -> list[RawCall]:
    # in a flat call (no arguments key), a key that names a tool and nothing else (`tool`, `action` …) names the
    # call: a `name` beside it is an argument (`{"tool": "delete_user", "name": "Ada"}`)
    named = [k for k in CALL_NAME_KEYS if isinstance(value.get(k), str)]
    strong = [k for k in named if k in STRONG_NAME_KEYS]
    keys = strong if strong and not any(k in value for k in ARGUMENT_KEYS) else named
    if not keys:
        return []
    name_key = keys[0]
    names = sorted({value[k] for k in keys})
    if len(names) > 1 and (name_key in STRONG_NAME_KEYS or any(k in value for k in ARGUMENT_KEYS)):
        listed = " and ".join(repr(n) for n in names)
        return [
            RawCall(None, None, fmt, None, offset, (), f"the call names two tools, {listed}", ambiguous=tuple(names))
        ]
    given = [k for k in ARGUMENT_KEYS if k in value]
    if len({json.dumps(value[k], sort_keys=True, default=str) for k in given}) > 1:
        return [not_a_call(fmt, offset, f"the call gives two sets of arguments, under {' and '.join(given)}")]
    arg_key = given[0] if given else None
    if arg_key is None and name_key not in STRONG_NAME_KEYS and fmt == "json":
        return []  # {"name": "Ada"} is data, not a call
    call_id = value.get("id") if isinstance(value.get("id"), str) else None
    arguments = value.get(arg_key) if arg_key is not None else None
    if arg_key is None:  # a flat call, `{"tool": "get_weather", "city": "Oslo"}`: the other members are its arguments
        arguments = {k: v for k, v in value.items() if k != name_key} or None  # (an `id` or `type` may be one)
    if fmt == "json" and name_key == "name" and value.get("parameters") is not None and arg_key == "parameters":
        fmt = "llama"
    return [RawCall(value[name_key], arguments, fmt, call_id, offset, repairs, named_by=name_key)]


def keyed_calls(value: Any, names: tuple[str, ...], offset: int, repairs: tuple[Repair, ...]) -> list[RawCall]:
    """`{"get_weather": {"city": "Oslo"}}`, or a list of such objects: each object's one key names the tool, its
    value the arguments object. Only the tools the caller offers make such a call (without them, one key over an
    object is data): one item must name one of `names` (in any case or style, or behind a namespace:
    `how_named`); then every item is a call, so one to another tool is named as such. A list with an item of
    another shape holds none."""
    items = value if isinstance(value, list) else [value]
    calls = []
    for item in items:
        if not isinstance(item, Mapping) or len(item) != 1:
            return []
        ((key, arguments),) = item.items()
        if not isinstance(arguments, Mapping):
            return []
        calls.append(RawCall(key, dict(arguments), "keyed", None, offset, repairs, named_by=key))
    return calls if any(how_named(c.name, name) for c in calls for name in names) else []


def json_calls(body: str, fmt: str, offset: int, parser: Parser, names: tuple[str, ...] = ()) -> list[RawCall]:
    try:
        value, repairs = load_json(body, parser)
    except ParseError as exc:
        if fmt == "json" and not _LOOKS_LIKE_CALL.search(body, 0, 2000):
            return []  # broken JSON (or braces in prose) that does not even look like a call is not one
        return [RawCall(None, None, fmt, None, offset, (), f"the {fmt} tool call is not readable JSON: {exc.message}")]
    calls = [replace(c, envelope=value) for c in calls_in_value(value, fmt, offset, repairs)]
    if not calls and fmt == "json" and names:
        calls = keyed_calls(value, names, offset, repairs)
    if not calls and fmt != "json":
        return [RawCall(None, None, fmt, None, offset, repairs, f"the {fmt} tool call names no tool")]
    return calls


def named_body(body: str, offset: int, parser: Parser) -> RawCall | None:
    """A call body that opens with its tool's name on a line of its own (GLM): then its arguments as JSON, or as
    `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs (GLM-4.5); None for a body of another shape."""
    newline = body.find("\n")
    name = body[:newline].strip() if newline > 0 else ""
    if not name or DOTTED_NAME.fullmatch(name) is None:
        return None
    rest = body[newline + 1 :].strip()
    if rest.startswith(("{", "[")):
        return call_with_json(name, rest, "glm", offset, parser)
    if not rest or rest.startswith("<arg_key>"):
        pairs: dict[str, Any] = {}
        for key, value in _ARG_PAIR.findall(rest):
            try:
                pairs[key.strip()] = json.loads(value)
            except (ValueError, RecursionError):
                pairs[key.strip()] = value.strip()
        if len(_ARG_PAIR.sub("", rest).strip()) == 0:
            return RawCall(name, pairs, "glm", None, offset)
        return RawCall(name, None, "glm", None, offset, (), "the glm call's arguments are not key and value pairs")
    return None


def call_with_json(name: str, arguments: str, fmt: str, offset: int, parser: Parser, *, cut: bool = False) -> RawCall:
    """A call named outside its JSON: the arguments read (repaired as the policy allows), or why they cannot be.
    When the text ends inside the call (`cut`), an object that cannot be read as free-form data is left as text for
    the tool's own model to read: only the tool's fields say whether a cut object lost members (the call's name is
    already known). A call its own end mark closes holds what it holds: never read as cut."""
    if not name or DOTTED_NAME.fullmatch(name) is None:
        return not_a_call(fmt, offset, f"the {fmt} call names no tool")
    if not arguments:
        return RawCall(name, None, fmt, None, offset)
    try:
        value, repairs = load_json(arguments, parser)
    except ParseError as exc:
        if cut and isinstance(exc, TruncatedOutputError) and arguments.startswith("{") and not _marks_in(arguments):
            return RawCall(name, arguments, fmt, None, offset)  # (an object cut, and no call markup to read again)
        return RawCall(name, None, fmt, None, offset, (), f"the {fmt} call's arguments are not readable: {exc.message}")
    return RawCall(name, value, fmt, None, offset, repairs)


def _marks_in(text: str) -> bool:
    """Whether a text holds what may open a call in one of the formats: read again as a tool's arguments, it would
    be read for calls again (once per nested mark: quadratic)."""
    return "<" in text or "[TOOL_CALLS]" in text or ">>>" in text or "\uff5c" in text
