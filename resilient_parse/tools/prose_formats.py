"""The tool-call formats read in prose or by their shape alone, after the token formats took theirs.

ReAct `Action:` lines, Python calls alone ("pythonic"), GLM's name lines, and plain JSON calls; each reader reads
one region [lo, hi) (`scanning.Reader`), in what `token_formats` left.

ReAct, read honestly. `Action: name` with an `Action Input:` before the next ReAct line (`Thought:`,
`Observation:`, `Action:`, `Final Answer:`) is a call with that input; `Action: name[input]` is one too. A bare
`Action: name` is a call without arguments unless a JSON value follows it before the next ReAct line:
- JSON calling the same tool: one call, the JSON's (it gives the arguments);
- JSON calling another tool (`Action: lookup` + `{"name": "transfer", …}`): two readings of one call — an
  ambiguous call naming both (`RawCall.ambiguous`), never a silent pick;
- JSON naming no tool: the action's input written without `Action Input:` — a guess, so a lossy repair
  (`react_implied_input`, lenient only); strict reports the call as unreadable.
"""

from __future__ import annotations

import re

from resilient_parse.errors import ParseError
from resilient_parse.repairs import Repair
from resilient_parse.text.clauses import folded
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.json_calls import (
    DOTTED_NAME,
    Parser,
    call_with_json,
    calls_in_value,
    json_calls,
    load_json,
    named_body,
)
from resilient_parse.tools.names import how_named
from resilient_parse.tools.pycall import python_calls
from resilient_parse.tools.scanning import Ahead, Found, Reader, strip_fence
from resilient_parse.tools.spans import json_spans

IMPLIED_INPUT_KIND = "react_implied_input"
"""The repair that reads the JSON after a bare `Action: name` as its input (lossy: `Action Input:` was not written)."""
_NOT_CALLS = ("final answer", "finish", "none")
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


def _react(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """ReAct `Action:` lines, by the rules in the module docstring."""
    stops = Ahead(_REACT_STOP, text, hi)
    inputs = Ahead(_REACT_INPUT, text, hi)
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
    raw = strip_fence(given.strip())
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
    if open_at <= 0 or not name.endswith("]") or DOTTED_NAME.fullmatch(name, 0, open_at) is None:
        return None
    return name[:open_at], name[open_at + 1 : -1]


def _react_bare(name: str, text: str, start: int, line_end: int, block_end: int, found: Found, parser: Parser) -> None:
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


def _pythonic(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """A region that is nothing but Python calls, `[get_weather(city="Oslo"), get_time(tz="UTC")]` or one call,
    maybe in a fence (the "pythonic" format): prose that mentions `f(x)` is never read as a call."""
    if found.stretches():
        return
    raw = text[lo:hi]
    stripped = raw.strip()
    fences = stripped.count("```") + stripped.count("~~~")
    if fences not in (0, 2) or (fences == 2 and not stripped.endswith(("```", "~~~"))):
        return  # prose or a second block beside the calls: not a text of calls alone
    body = strip_fence(stripped)
    if not body or not (body[0] == "[" or body[0].isalpha() or body[0] == "_"):
        return
    calls = python_calls(body)
    if calls is None:
        return
    offset = lo + len(raw) - len(raw.lstrip())
    found.take(lo, hi)
    found.calls.extend(RawCall(name, args, "pythonic", None, offset) for name, args in calls)


def _name_line(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
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
    call = named_body(body, lo + len(raw) - len(raw.lstrip()), parser)
    if (
        call is not None
        and call.arguments is not None
        and not isinstance(call.arguments, str)
        and _names_a_function(str(call.name), found.names)
    ):
        found.take(lo, hi)
        found.calls.append(call)


def _name_lines(text: str, lo: int, hi: int, spans: list[tuple[int, int]], found: Found, parser: Parser) -> None:
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
        calls.append(call_with_json(name, text[s:e], "glm", at, parser))
        previous = e
    if text[previous:hi].strip():
        return
    found.take(lo, hi)
    found.calls.extend(calls)


def _plain_json(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    for s, e in json_spans(text, lo, hi):
        if found.covers(s):
            continue
        found.take(s, e)
        calls = json_calls(text[s:e], "json", s, parser, found.names)
        if calls:
            found.calls.extend(calls)
        else:
            found.others.append((s, e))


PROSE_READERS: tuple[Reader, ...] = (_react, _pythonic, _name_line, _plain_json)
