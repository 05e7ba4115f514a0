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

ReAct, read honestly. `Action: name` with an `Action Input:` before the next ReAct line (`Thought:`,
`Observation:`, `Action:`, `Final Answer:`) is a call with that input; `Action: name[input]` is one too. A bare
`Action: name` is a call without arguments unless a JSON value follows it before the next ReAct line:
- JSON calling the same tool: one call, the JSON's (it gives the arguments);
- JSON calling another tool (`Action: lookup` + `{"name": "transfer", …}`): two readings of one call — an
  ambiguous call naming both (`RawCall.ambiguous`), never a silent pick;
- JSON naming no tool: the action's input written without `Action Input:` — a guess, so a lossy repair
  (`react_implied_input`, lenient only); strict reports the call as unreadable.

Linear on every input: tags and ReAct lines are found by forward searches whose results are kept until the scan
passes them (`_Ahead`), so a tag that never closes is searched for once, not once per opening; which stretches a
format has taken is looked up by bisection; Llama's `tool.call(...)` is read by `pycall.python_call`, which hands
`ast` only small calls. This module only finds calls; it does not decide what a name means or whether arguments
are valid — that is `calls.py`, against the registry. JSON that is broken is read by a resilient_parse `Parser`
under the caller's policy, and the repairs it took travel with the call.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from resilient_parse.errors import ErrorDetail, ParseError, TruncatedOutputError, UnrecoverableSyntaxError
from resilient_parse.policy import Policy
from resilient_parse.repairs import Repair
from resilient_parse.stages.extract import ANSWER, candidate_facts, split_reasoning
from resilient_parse.text.clauses import folded
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.names import ARGUMENT_KEYS, CALL_NAME_KEYS, STRONG_NAME_KEYS, how_named
from resilient_parse.tools.pycall import python_call, python_calls
from resilient_parse.tools.spans import json_spans, nesting_depth, strings_in_values

IMPLIED_INPUT_KIND = "react_implied_input"
"""The repair that reads the JSON after a bare `Action: name` as its input (lossy: `Action Input:` was not written)."""
_NOT_CALLS = ("final answer", "finish", "none")

# broken JSON that still writes a key a call is named by, or a provider's key for its calls
_LOOKS_LIKE_CALL = re.compile(
    r"""["']?(?:""" + "|".join(sorted({*STRONG_NAME_KEYS, "name", "tool_calls", "function_call"})) + r""")["']?\s*:"""
)
_HERMES_TAGS = ("tool_call", "function_call", "tool_use")
_HERMES_OPEN = re.compile(r"<(tool_call|function_call|tool_use)>")
_HERMES_CLOSE = {t: re.compile(r"</" + t + r"[ \t\r\n]*>") for t in _HERMES_TAGS}
_HERMES_AGAIN = {t: re.compile(re.escape(f"<{t}>")) for t in _HERMES_TAGS}
_MISTRAL = re.compile(r"\[TOOL_CALLS\]")
_ARG_PAIR = re.compile(r"<arg_key>([^<]{0,200})</arg_key>\s{0,20}<arg_value>([^<]*)</arg_value>")
_DS_BEGIN = re.compile("<\uff5ctool\u2581call\u2581begin\uff5c>")
_DS_END = re.compile("<\uff5ctool\u2581call\u2581end\uff5c>")
_DS_SEP = "<\uff5ctool\u2581sep\uff5c>"
_FUNCTION_OPEN = re.compile(r"<function=([A-Za-z_][\w.\-]{0,100})>")
_FUNCTION_CLOSE = re.compile(r"</function>")
_RECIPIENT = re.compile(r"^>>>[ \t]*([A-Za-z_][\w.\-]{0,100})[ \t]*$", re.MULTILINE)
# functionary v2: `<|recipient|>name` then `<|content|>` and the arguments
_RECIPIENT_TOKEN = re.compile(r"<\|recipient\|>")
_CONTENT_FOR = re.compile(r"[ \t]*+([A-Za-z_][\w.\-]{0,100}+)[ \t\r\n]*+<\|content\|>")
_CONTENT_STOP = re.compile(r"<\|stop\|>")
_CONTENT_NEXT = re.compile(r"<\|(?:from|recipient)\|>")
# Kimi K2: `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`
_KIMI_BEGIN = "<|tool_call_begin|>"
_KIMI_ARGUMENTS = "<|tool_call_argument_begin|>"
_KIMI_END = re.compile(r"<\|tool_call_end\|>")
_KIMI_NEXT = re.compile(r"<\|tool_call_begin\|>|<\|tool_calls_section_end\|>")
_KIMI_ID = re.compile(r"[ \t\r\n]*(?:functions\.)?([A-Za-z_][\w.\-]{0,100}?)(?::[0-9]{1,9})?[ \t\r\n]*")
# gpt-oss (harmony): a message whose header names a recipient, `<|channel|>commentary to=functions.name
# <|constrain|>json<|message|>{…}<|call|>`
_HARMONY_MESSAGE = "<|message|>"
_HARMONY_TO = re.compile(r"(?<![\w.])to[ \t]*+=[ \t]*+\"?(?:functions\.)?([A-Za-z_][\w.\-]{0,100}+)")
_HARMONY_ROLES = frozenset({"assistant", "user", "system", "developer"})  # `to=assistant`: a tool's result, no call
_HARMONY_BOUNDARY = re.compile(r"<\|(?:start|end|call|return)\|>")
_HARMONY_CALL = re.compile(r"<\|call\|>")
_HARMONY_NEXT = re.compile(r"<\|(?:end|return|start)\|>")
_MISTRAL_NAMED = re.compile(r"[ \t\r\n]*([A-Za-z_][\w.\-]*)[ \t\r\n]*\[ARGS\]")
_PYTHON_TAG = "<|python_tag|>"
_PYTHON_END = re.compile(r"<\|(?:eom_id|eot_id|python_tag)\|>")
_DOTTED_NAME = re.compile(r"[A-Za-z_][\w.\-]*")
_NAME_LINE = re.compile(r"[ \t\r]*+([A-Za-z_][\w.\-]*+)[ \t\r]*+")  # a line that is a tool's name alone
# a function's name as only code writes it: words joined by `_` (`get_weather`); a lone word (`Answer`, `json`), a file
# (`config.json`), a version (`v1.2`, `gpt-4o`) or a camelCase word of prose (`JavaScript`, `macOS`) on a line before
# JSON is a label, unless it names one of the target's tools
_FUNCTION_MARK = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]")  # fixed width: one linear search
# a ReAct line starts a line, or follows a tag (`<think>Action: …`)
_REACT_ACTION = re.compile(r"(?:^|(?<=>))[ \t]*\**Action\**[ \t]*:", re.MULTILINE | re.IGNORECASE)
_REACT_INPUT = re.compile(r"^[ \t]*\**Action[ \t_]Input\**[ \t]*:[ \t]*", re.MULTILINE | re.IGNORECASE)
_REACT_STOP = re.compile(
    r"(?:^|(?<=>))[ \t]*\**(?:Observation|Thought|Action|Final Answer)\**[ \t]*:", re.MULTILINE | re.IGNORECASE
)
_MAX_REACT_LINE = 2_000
"""The longest `Action:` line read as a call; a longer one is prose (ReAct names a tool, maybe with a short input)."""
_FENCE_CLOSE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*$", re.MULTILINE)


class Parser(Protocol):
    """What reads a call's JSON: a resilient_parse `Parser` (its policy, and `parse_result` for broken JSON)."""

    policy: Policy

    def parse_result(self, text: str, target: Any) -> Any: ...


class _Ahead:
    """The first match of a pattern at or after a position that only moves forward. A search is made again only
    once the position has passed the match it found (or never, after one found nothing), so a scan that asks at
    every tag reads each character once instead of once per tag."""

    def __init__(
        self, pattern: re.Pattern[str], text: str, end: int, skip: Callable[[int], bool] | None = None
    ) -> None:
        self._pattern, self._text, self._end, self._skip = pattern, text, end, skip
        self._match: re.Match[str] | None = None
        self._none_from = end + 1

    def at_or_after(self, pos: int) -> re.Match[str] | None:
        if pos >= self._none_from:
            return None
        if self._match is not None and self._match.start() >= pos:
            return self._match
        self._match = self._search(pos)
        if self._match is None:
            self._none_from = pos
        return self._match

    def _search(self, pos: int) -> re.Match[str] | None:
        """The next match, past any that stands where `skip` says (inside a value's string: data)."""
        m = self._pattern.search(self._text, pos, self._end)
        while m is not None and self._skip is not None and self._skip(m.start()):
            m = self._pattern.search(self._text, m.end(), self._end)
        return m


@dataclass
class _Found:
    """The calls found in one region [lo, hi) of `text`, and the stretches the formats read so far have taken (so
    that a later format does not read them again). `covers` bisects the stretches of the formats before the
    current one; `skips` also says no to a mark inside a valid JSON value's string (`spans.strings_in_values`,
    found on the first mark asked about)."""

    text: str
    lo: int
    hi: int
    names: tuple[str, ...] = ()  # the tools a call may name by key alone (`keyed_calls`)
    calls: list[RawCall] = field(default_factory=list)
    others: list[tuple[int, int]] = field(default_factory=list)  # JSON values that hold no call
    _pending: list[tuple[int, int]] = field(default_factory=list)
    _spans: list[tuple[int, int]] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)
    _reach: list[int] = field(default_factory=list)
    _data: list[tuple[int, int]] | None = None
    _data_starts: list[int] = field(default_factory=list)

    def take(self, start: int, end: int) -> None:
        self._pending.append((start, end))

    def commit(self) -> None:
        """The current format is done: its stretches now count for the next ones."""
        if not self._pending:
            return
        self._spans = sorted(self._spans + self._pending)
        self._pending = []
        self._starts = [s for s, _ in self._spans]
        reach, self._reach = 0, []
        for _, end in self._spans:
            reach = max(reach, end)
            self._reach.append(reach)

    def stretches(self) -> list[tuple[int, int]]:
        return self._spans + self._pending

    def covers(self, pos: int) -> bool:
        i = bisect_right(self._starts, pos) - 1
        return i >= 0 and self._reach[i] > pos

    def skips(self, pos: int) -> bool:
        """Whether a format's mark at `pos` is not one: taken already, or written inside a value's string."""
        return self.covers(pos) or self.in_data(pos)

    def in_data(self, pos: int) -> bool:
        if self._data is None:
            self._data = strings_in_values(self.text, self.lo, self.hi)
            self._data_starts = [s for s, _ in self._data]
        i = bisect_right(self._data_starts, pos) - 1
        return i >= 0 and self._data[i][1] > pos


# -- reading JSON --------------------------------------------------------------------------------------------


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


# -- interpreting JSON values --------------------------------------------------------------------------------


def calls_in_value(value: Any, fmt: str, offset: int, repairs: tuple[Repair, ...] = ()) -> list[RawCall]:
    """The calls a JSON value holds, in any of the known JSON shapes; [] when it holds none. A list of calls with
    items that are none (`[{call}, {"path": "b"}]`) holds an unreadable call for each of those: never dropped."""
    if isinstance(value, list):
        found = [calls_in_value(item, fmt, offset, repairs) for item in value]
        if not any(found):
            return []
        error = "item {} of the list of calls is not a call"
        return [c for i, calls in enumerate(found) for c in (calls or [_not_a_call(fmt, offset, error.format(i))])]
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


def _not_a_call(fmt: str, offset: int, error: str) -> RawCall:
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
        return [_not_a_call(fmt, offset, f"the call gives two sets of arguments, under {' and '.join(given)}")]
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


def _json_calls(body: str, fmt: str, offset: int, parser: Parser, names: tuple[str, ...] = ()) -> list[RawCall]:
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


# -- the text formats, each read within one region [lo, hi) --------------------------------------------------


def _hermes(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """`<tool_call>…</tool_call>`; a tag left open ends at the next opening of the same tag, or at the end."""
    opens = _Ahead(_HERMES_OPEN, text, hi, found.skips)
    closes = {t: _Ahead(p, text, hi, found.in_data) for t, p in _HERMES_CLOSE.items()}
    again = {t: _Ahead(p, text, hi, found.in_data) for t, p in _HERMES_AGAIN.items()}
    pos = lo
    while (m := opens.at_or_after(pos)) is not None:
        tag, body_start = m.group(1), m.end()
        body_end, pos = _body_end(closes[tag], again[tag], body_start, hi)
        found.take(m.start(), pos)
        raw = text[body_start:body_end]
        body = raw.strip()
        if body:
            lead = len(raw) - len(raw.lstrip())
            named = _named_body(body, body_start + lead, parser)
            found.calls.extend([named] if named is not None else _json_calls(body, "hermes", body_start + lead, parser))


def _body_end(closes: _Ahead, opens: _Ahead, body_start: int, hi: int) -> tuple[int, int]:
    """Where a tagged call's body ends and its stretch ends: at its closing tag or token, or (left open) where the
    next call or message opens, or at the end of the region."""
    close = closes.at_or_after(body_start)
    reopen = opens.at_or_after(body_start)
    if close is not None and (reopen is None or close.start() < reopen.start()):
        return close.start(), close.end()
    end = reopen.start() if reopen is not None else hi
    return end, end


def _named_body(body: str, offset: int, parser: Parser) -> RawCall | None:
    """A call body that opens with its tool's name on a line of its own (GLM): then its arguments as JSON, or as
    `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs (GLM-4.5); None for a body of another shape."""
    newline = body.find("\n")
    name = body[:newline].strip() if newline > 0 else ""
    if not name or _DOTTED_NAME.fullmatch(name) is None:
        return None
    rest = body[newline + 1 :].strip()
    if rest.startswith(("{", "[")):
        return _call_with_json(name, rest, "glm", offset, parser)
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


def _deepseek(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """DeepSeek's call tokens: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name` and its arguments in a json fence
    (V3), or `<｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}` (V3.1), up to `<｜tool▁call▁end｜>` (or the next begin, or the
    end). The `<｜tool▁calls▁begin｜>`/`…end｜>` around them are left to the prose, where they read as tags (so
    "For example: <｜tool▁calls▁begin｜>…" labels the calls after them)."""
    ends = _Ahead(_DS_END, text, hi, found.in_data)
    begins = _Ahead(_DS_BEGIN, text, hi, found.skips)
    pos = lo
    while (m := begins.at_or_after(pos)) is not None:
        body_start = m.end()
        body_end, pos = _body_end(ends, begins, body_start, hi)
        found.take(m.start(), pos)
        kind, sep, rest = text[body_start:body_end].partition(_DS_SEP)
        if not sep:
            found.calls.append(_not_a_call("deepseek", m.start(), "the deepseek call has no tool separator"))
            continue
        if kind.strip() == "function":  # V3: the name on the line after the separator, then a json fence
            name, _, rest = rest.partition("\n")
            rest = _strip_fence(rest.strip())
        else:
            name = kind
        found.calls.append(_call_with_json(name.strip(), rest.strip(), "deepseek", m.start(), parser))


def _function_tag(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """`<function=name>{…}</function>` (functionary v3.1, Llama 3.1's custom tools)."""
    closes = _Ahead(_FUNCTION_CLOSE, text, hi, found.in_data)
    pos = lo
    while (m := _FUNCTION_OPEN.search(text, pos, hi)) is not None:
        if found.skips(m.start()):
            pos = m.end()
            continue
        close = closes.at_or_after(m.end())
        body_end, end = (close.start(), close.end()) if close is not None else (hi, hi)
        pos = end
        found.take(m.start(), end)
        found.calls.append(
            _call_with_json(
                m.group(1), text[m.end() : body_end].strip(), "functionary", m.start(), parser, cut=close is None
            )
        )


def _functionary(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """`>>>name` on a line of its own, then the arguments' JSON value (functionary v3.2); `>>>all` is its text."""
    for m in _RECIPIENT.finditer(text, lo, hi):
        if found.skips(m.start()) or m.group(1) == "all":
            continue
        span = _value_right_after(text, m.end(), hi)
        if span is None:
            found.take(m.start(), m.end())
            found.calls.append(_not_a_call("functionary", m.start(), f"the call to {m.group(1)!r} gives no arguments"))
            continue
        found.take(m.start(), span[1])
        found.calls.append(_call_with_json(m.group(1), text[span[0] : span[1]], "functionary", m.start(), parser))


def _functionary_v2(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """`<|recipient|>name` then `<|content|>` and the arguments, up to `<|stop|>`, the next `<|from|>` or
    `<|recipient|>`, or the end (functionary v2); `<|recipient|>all` is its text. A recipient written otherwise is
    a call that cannot be read, never prose whose JSON is read by shape."""
    stops, nexts = _Ahead(_CONTENT_STOP, text, hi, found.in_data), _Ahead(_CONTENT_NEXT, text, hi, found.in_data)
    for m in _RECIPIENT_TOKEN.finditer(text, lo, hi):
        if found.skips(m.start()):
            continue
        named = _CONTENT_FOR.match(text, m.end(), hi)
        if named is not None and named.group(1) == "all":
            continue
        body_end, end = _body_end(stops, nexts, m.end(), hi)
        found.take(m.start(), end)
        if named is None or named.end() > body_end:
            found.calls.append(_not_a_call("functionary", m.start(), "the recipient names no tool before <|content|>"))
            continue
        arguments = text[named.end() : body_end].strip()
        found.calls.append(
            _call_with_json(named.group(1), arguments, "functionary", m.start(), parser, cut=body_end >= hi)
        )


def _kimi(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """Kimi K2's call tokens: `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}` up to
    `<|tool_call_end|>` (or the next call, the section's end, or the end). `functions.` and `:0` are the format's
    own id, not part of the name; the `<|tool_calls_section_begin|>`/`…end|>` around the calls read as tags."""
    ends, nexts = _Ahead(_KIMI_END, text, hi, found.in_data), _Ahead(_KIMI_NEXT, text, hi, found.in_data)
    pos = lo
    while (start := text.find(_KIMI_BEGIN, pos, hi)) >= 0:
        head = start + len(_KIMI_BEGIN)
        pos = head
        if found.skips(start):
            continue
        body_end, end = _body_end(ends, nexts, head, hi)
        pos = max(end, head)
        found.take(start, end)
        sep = text.find(_KIMI_ARGUMENTS, head, body_end)
        named = _KIMI_ID.fullmatch(text, head, sep) if sep >= 0 else None
        if named is None:
            found.calls.append(_not_a_call("kimi", start, "the kimi call names no tool before its arguments"))
            continue
        arguments = text[sep + len(_KIMI_ARGUMENTS) : body_end].strip()
        found.calls.append(_call_with_json(named.group(1), arguments, "kimi", start, parser, cut=body_end >= hi))


def _harmony(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """gpt-oss's harmony messages: one whose header (after the last `<|start|>`, `<|end|>`, `<|call|>` or
    `<|return|>` before its `<|message|>`) names a recipient, `to=functions.name`, is a call, its message the
    arguments, up to `<|call|>` (or `<|end|>`, the next `<|start|>`, or the end); `functions.` is the format's
    own namespace. A message to no one is text; a header naming two recipients is two readings of one call.
    Each header is read once: the next one starts where this message ends."""
    calls, nexts = _Ahead(_HARMONY_CALL, text, hi, found.in_data), _Ahead(_HARMONY_NEXT, text, hi, found.in_data)
    pos = head_from = lo
    while (at := text.find(_HARMONY_MESSAGE, pos, hi)) >= 0:
        body_start = at + len(_HARMONY_MESSAGE)
        pos = body_start
        header_start = head_from
        for boundary in _HARMONY_BOUNDARY.finditer(text, head_from, at):
            header_start = boundary.end()
        head_from = body_start
        if found.skips(at):
            continue
        recipients = [r for r in _HARMONY_TO.finditer(text, header_start, at) if r.group(1) not in _HARMONY_ROLES]
        if not recipients:
            continue
        body_end, end = _body_end(calls, nexts, body_start, hi)
        pos = head_from = max(end, body_start)
        to = recipients[0]
        found.take(to.start(), end)
        names = sorted({r.group(1) for r in recipients})
        if len(names) > 1:
            error = f"the harmony message names two recipients, {' and '.join(map(repr, names))}"
            found.calls.append(RawCall(None, None, "harmony", None, to.start(), (), error, ambiguous=tuple(names)))
            continue
        arguments = text[body_start:body_end].strip()
        found.calls.append(_call_with_json(to.group(1), arguments, "harmony", to.start(), parser, cut=body_end >= hi))


def _call_with_json(name: str, arguments: str, fmt: str, offset: int, parser: Parser, *, cut: bool = False) -> RawCall:
    """A call named outside its JSON: the arguments read (repaired as the policy allows), or why they cannot be.
    When the text ends inside the call (`cut`), an object that cannot be read as free-form data is left as text for
    the tool's own model to read: only the tool's fields say whether a cut object lost members (the call's name is
    already known). A call its own end mark closes holds what it holds: never read as cut."""
    if not name or _DOTTED_NAME.fullmatch(name) is None:
        return _not_a_call(fmt, offset, f"the {fmt} call names no tool")
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


def _mistral(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """`[TOOL_CALLS]` and one JSON value right after it (a call, or a list of them), or `name[ARGS]` and the
    arguments' JSON value: the marker's stretch ends where that value ends, so what follows is read by the other
    formats, and as prose."""
    markers = [m for m in _MISTRAL.finditer(text, lo, hi) if not found.skips(m.start())]
    for k, m in enumerate(markers):
        limit = markers[k + 1].start() if k + 1 < len(markers) else hi
        named = _MISTRAL_NAMED.match(text, m.end(), limit)
        span = _value_right_after(text, named.end() if named else m.end(), limit)
        if span is None:
            if named is None:
                found.take(m.start(), m.end())  # a marker alone: what follows is read on its own
                continue
            newline = text.find("\n", named.end(), limit)
            line_end = limit if newline < 0 else newline
            found.take(m.start(), line_end)
            found.calls.append(
                RawCall(named.group(1), text[named.end() : line_end].strip() or None, "mistral", None, m.start())
            )
            continue
        s, e = span
        found.take(m.start(), e)
        if named is None:
            found.calls.extend(_json_calls(text[s:e], "mistral", s, parser))
            continue
        try:
            value, repairs = load_json(text[s:e], parser)
        except ParseError as exc:
            found.calls.append(RawCall(named.group(1), None, "mistral", None, m.start(), (), exc.message))
            continue
        found.calls.append(RawCall(named.group(1), value, "mistral", None, m.start(), repairs))


def _value_right_after(text: str, at: int, limit: int) -> tuple[int, int] | None:
    """The JSON value that opens at `at` after white space (its span, maybe unclosed), or None."""
    while at < limit and text[at] in " \t\r\n":
        at += 1
    if at >= limit or text[at] not in "{[":
        return None
    return next(json_spans(text, at, limit), None)


def _python_tag(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """`<|python_tag|>` up to `<|eom_id|>`, `<|eot_id|>`, the next `<|python_tag|>` or the end."""
    ends = _Ahead(_PYTHON_END, text, hi, found.in_data)
    pos = lo
    while (start := text.find(_PYTHON_TAG, pos, hi)) >= 0:
        body_start = start + len(_PYTHON_TAG)
        if found.skips(start):
            pos = body_start
            continue
        stop = ends.at_or_after(body_start)
        body_end = stop.start() if stop is not None else hi
        end = stop.end() if stop is not None and stop.group() != _PYTHON_TAG else body_end
        pos = max(end, body_start)
        found.take(start, end)
        raw = text[body_start:body_end]
        body = raw.strip()
        offset = body_start + len(raw) - len(raw.lstrip())
        if body.startswith(("{", "[")):
            for s, e in list(json_spans(body)) or [(0, len(body))]:  # Llama may write several, split by ';'
                found.calls.extend(_json_calls(body[s:e], "llama", offset + s, parser))
            continue
        call = python_call(body)
        if call is not None:
            found.calls.append(RawCall(call[0], call[1], "llama", None, offset))
        elif body:
            error = "the python_tag call is not readable (a call with literal keyword arguments, or JSON)"
            found.calls.append(RawCall(None, None, "llama", None, offset, (), error, opaque=True))


def react_action_in(text: str, lo: int = 0, hi: int | None = None) -> bool:
    """Whether text[lo:hi] writes a ReAct `Action:` line."""
    hi = len(text) if hi is None else hi
    low = text[lo:hi].lower()
    # ("ct" first: every spelling the regex matches holds it, and most prose does not)
    return "ct" in low and "action" in folded(low) and _REACT_ACTION.search(text, lo, hi) is not None


def call_in_prose(prose: str, text: str, start: int) -> bool:
    """Whether the prose beside one JSON value, which opens at `start`, makes a call a format reads in prose, so
    the value may be that call's arguments: a ReAct `Action:` line, or a tool's name on the line that opens the
    text (GLM's name line)."""
    return react_action_in(prose) or opens_with_a_name_line(text, start)


def opens_with_a_name_line(text: str, before: int | None = None, names: tuple[str, ...] = ()) -> bool:
    """Whether the text's first line (ending before `before`) is a tool's name alone, as GLM writes one before its
    arguments: a function's name as only code writes it (`_FUNCTION_MARK`), or one of `names` in any style (a
    namespace before it too)."""
    newline = text.find("\n", 0, len(text) if before is None else before)
    line = _NAME_LINE.fullmatch(text, 0, newline) if newline > 0 else None
    return line is not None and _names_a_function(line.group(1), names)


def _names_a_function(name: str, names: tuple[str, ...]) -> bool:
    return _FUNCTION_MARK.search(name) is not None or any(how_named(name, n) for n in names)


def _react(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """ReAct `Action:` lines, by the rules in the module docstring."""
    stops = _Ahead(_REACT_STOP, text, hi)
    inputs = _Ahead(_REACT_INPUT, text, hi)
    for m in _REACT_ACTION.finditer(text, lo, hi):
        if found.covers(m.start()):
            continue
        newline = text.find("\n", m.end(), hi)
        line_end = hi if newline < 0 else newline
        if line_end - m.end() > _MAX_REACT_LINE:
            continue  # no tool name is this long (and reading the rest of a long line per `Action:` is quadratic)
        name = text[m.end() : line_end].strip().strip("`*\"'").strip()
        if not name:
            continue  # a bare `Action:` (LangChain's JSON blob follows): the plain JSON reader reads the blob
        stop = stops.at_or_after(line_end)
        block_end = stop.start() if stop is not None else hi
        given = inputs.at_or_after(line_end)
        if name.casefold() in _NOT_CALLS:
            found.take(m.start(), block_end)
        elif given is not None and given.start() < block_end:
            found.take(m.start(), block_end)
            found.calls.append(_react_with_input(name, text[given.end() : block_end], m.start(), parser))
        elif (bracket := _bracket_call(name)) is not None:
            found.take(m.start(), line_end)
            found.calls.append(RawCall(bracket[0], bracket[1], "react", None, m.start()))
        else:
            _react_bare(name, text, m.start(), line_end, block_end, found, parser)


def _react_with_input(name: str, given: str, offset: int, parser: Parser) -> RawCall:
    raw = _strip_fence(given.strip())
    if raw.startswith(("{", "[")):
        try:
            arguments, repairs = load_json(raw, parser)
            return RawCall(name, arguments, "react", None, offset, repairs)
        except ParseError:
            pass  # left as text: the registry says the arguments are not an object
    return RawCall(name, raw, "react", None, offset)


def _bracket_call(name: str) -> tuple[str, str] | None:
    """`search[best pizza]` → ("search", "best pizza")."""
    open_at = name.find("[")
    if open_at <= 0 or not name.endswith("]") or _DOTTED_NAME.fullmatch(name, 0, open_at) is None:
        return None
    return name[:open_at], name[open_at + 1 : -1]


def _react_bare(name: str, text: str, start: int, line_end: int, block_end: int, found: _Found, parser: Parser) -> None:
    """`Action: name` without `Action Input:`: what a JSON value after it means (module docstring)."""
    span = next(json_spans(text, line_end, block_end), None)
    if span is None:
        found.take(start, line_end)
        found.calls.append(RawCall(name, None, "react", None, start))
        return
    s, e = span
    try:
        value, repairs = load_json(text[s:e], parser)
    except ParseError as exc:
        found.take(start, e)
        error = f"`Action: {name}` is followed by JSON that is not readable: {exc.message}"
        found.calls.append(RawCall(name, None, "react", None, start, (), error, opaque=True))
        return
    inner = calls_in_value(value, "json", s, repairs)
    others = sorted(
        {str(c.name) for c in inner if not (isinstance(c.name, str) and how_named(c.name, name) in ("exact", "style"))}
    )
    if inner and not others:
        found.take(start, line_end)  # the JSON calls the same tool: one call, the JSON's (read as plain JSON)
    elif inner:
        found.take(start, e)
        listed = " and ".join(repr(o) for o in others)
        error = (
            f"the line `Action: {name}` calls {name!r} and the JSON after it calls {listed}: two readings of one call"
        )
        found.calls.append(RawCall(None, None, "react", None, start, (), error, opaque=True, ambiguous=(name, *others)))
    elif parser.policy.allows(IMPLIED_INPUT_KIND):
        found.take(start, e)
        note = f"the JSON after `Action: {name}` (no `Action Input:` written) read as its input"
        implied = Repair.make(IMPLIED_INPUT_KIND, "/arguments", None, text[s:e], offset=s, note=note)
        found.calls.append(RawCall(name, value, "react", None, start, (*repairs, implied)))
    else:
        found.take(start, e)
        error = f"`Action: {name}` is followed by JSON but no `Action Input:`: whether it is the input is a guess"
        found.calls.append(RawCall(name, None, "react", None, start, (), error, opaque=True))


def _strip_fence(text: str) -> str:
    """The body of a fenced block (``` or ~~~), or the text itself."""
    if not text.startswith(("```", "~~~")):
        return text
    newline = text.find("\n")
    if newline < 0:
        return text.strip("`~").removeprefix("json").strip()
    marker = text[: len(text) - len(text.lstrip(text[0]))]
    close = _FENCE_CLOSE.search(text, newline + 1)
    while close is not None and not close.group(1).startswith(marker):
        close = _FENCE_CLOSE.search(text, close.end())
    return text[newline + 1 : close.start() if close is not None else len(text)].strip()


def _pythonic(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """A region that is nothing but Python calls, `[get_weather(city="Oslo"), get_time(tz="UTC")]` or one call,
    maybe in a fence (the "pythonic" format): prose that mentions `f(x)` is never read as a call."""
    if found.stretches():
        return
    raw = text[lo:hi]
    stripped = raw.strip()
    fences = stripped.count("```") + stripped.count("~~~")
    if fences not in (0, 2) or (fences == 2 and not stripped.endswith(("```", "~~~"))):
        return  # prose or a second block beside the calls: not a text of calls alone
    body = _strip_fence(stripped)
    if not body or not (body[0] == "[" or body[0].isalpha() or body[0] == "_"):
        return
    calls = python_calls(body)
    if calls is None:
        return
    offset = lo + len(raw) - len(raw.lstrip())
    found.take(lo, hi)
    found.calls.extend(RawCall(name, args, "pythonic", None, offset) for name, args in calls)


def _name_line(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    """A region that is tools' names, each on a line of its own before its arguments' JSON value, and nothing else
    (GLM-4): one call, or several in a row, each named (`_names_a_function`)."""
    if found.stretches():
        return
    raw = text[lo:hi]
    body = raw.strip()
    first = body[: body.find("\n")].strip() if "\n" in body else ""
    if not first[:1].isalpha() or _NAME_LINE.fullmatch(first) is None or not _names_a_function(first, found.names):
        return  # (the first line names no function: no value in the region is a name-line call)
    spans = list(json_spans(text, lo, hi))
    if len(spans) > 1:
        _name_lines(text, lo, hi, spans, found, parser)
        return
    call = _named_body(body, lo + len(raw) - len(raw.lstrip()), parser)
    if (
        call is not None
        and call.arguments is not None
        and not isinstance(call.arguments, str)
        and _names_a_function(str(call.name), found.names)
    ):
        found.take(lo, hi)
        found.calls.append(call)


def _name_lines(text: str, lo: int, hi: int, spans: list[tuple[int, int]], found: _Found, parser: Parser) -> None:
    """Several name-line calls in a row: each value preceded by a line that names a function and nothing else
    between them; anything else, and the region is not one (its values are read as plain JSON)."""
    calls: list[RawCall] = []
    previous = lo
    for s, e in spans:
        head = text[previous:s]
        name = head.strip()
        if "\n" not in head or _NAME_LINE.fullmatch(name) is None or not _names_a_function(name, found.names):
            return
        at = previous + head.index(name)
        calls.append(_call_with_json(name, text[s:e], "glm", at, parser))
        previous = e
    if text[previous:hi].strip():
        return
    found.take(lo, hi)
    found.calls.extend(calls)


def _plain_json(text: str, lo: int, hi: int, found: _Found, parser: Parser) -> None:
    for s, e in json_spans(text, lo, hi):
        if found.covers(s):
            continue
        found.take(s, e)
        calls = _json_calls(text[s:e], "json", s, parser, found.names)
        if calls:
            found.calls.extend(calls)
        else:
            found.others.append((s, e))


_Reader = Callable[[str, int, int, _Found, Parser], None]
_READERS: tuple[_Reader, ...] = (
    # the formats bounded by special tokens first: a tag written inside their arguments is theirs, not a call
    _deepseek,
    _kimi,
    _harmony,
    _functionary_v2,
    _hermes,
    _function_tag,
    _functionary,
    _mistral,
    _python_tag,
    _react,
    _pythonic,
    _name_line,
    _plain_json,
)
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
        found = _Found(text, region.body_start, region.body_end, names)
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
