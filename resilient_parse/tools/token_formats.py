"""The tool-call formats a model's special tokens or tags mark, one family read before the prose formats.

Hermes/Qwen `<tool_call>`, DeepSeek's call tokens, functionary (`<function=name>`, `>>>name`, `<|recipient|>`),
Kimi K2, gpt-oss's harmony messages, Mistral `[TOOL_CALLS]` and Llama's `<|python_tag|>`. Each reader reads one
region [lo, hi) (`scanning.Reader`)."""

from __future__ import annotations

import re

from resilient_parse.errors import ParseError
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.json_calls import Parser, call_with_json, json_calls, load_json, named_body, not_a_call
from resilient_parse.tools.pycall import python_call
from resilient_parse.tools.scanning import Ahead, Found, Reader, ends_of_body, strip_fence, value_right_after
from resilient_parse.tools.spans import json_spans

_HERMES_TAGS = ("tool_call", "function_call", "tool_use")
_HERMES_OPEN = re.compile(r"<(tool_call|function_call|tool_use)>")
_HERMES_CLOSE = {t: re.compile(r"</" + t + r"[ \t\r\n]*>") for t in _HERMES_TAGS}
_HERMES_AGAIN = {t: re.compile(re.escape(f"<{t}>")) for t in _HERMES_TAGS}
_MISTRAL = re.compile(r"\[TOOL_CALLS\]")
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


def _hermes(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """`<tool_call>…</tool_call>`; a tag left open ends at the next opening of the same tag, or at the end."""
    opens = Ahead(_HERMES_OPEN, text, hi, found.skips)
    closes = {t: Ahead(p, text, hi, found.in_data) for t, p in _HERMES_CLOSE.items()}
    again = {t: Ahead(p, text, hi, found.in_data) for t, p in _HERMES_AGAIN.items()}
    pos = lo
    while (m := opens.at_or_after(pos)) is not None:
        tag, body_start = m.group(1), m.end()
        body_end, pos = ends_of_body(closes[tag], again[tag], body_start, hi)
        found.take(m.start(), pos)
        raw = text[body_start:body_end]
        body = raw.strip()
        if body:
            lead = len(raw) - len(raw.lstrip())
            named = named_body(body, body_start + lead, parser)
            found.calls.extend([named] if named is not None else json_calls(body, "hermes", body_start + lead, parser))


def _deepseek(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """DeepSeek's call tokens: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name` and its arguments in a json fence
    (V3), or `<｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}` (V3.1), up to `<｜tool▁call▁end｜>` (or the next begin, or the
    end). The `<｜tool▁calls▁begin｜>`/`…end｜>` around them are left to the prose, where they read as tags (so
    "For example: <｜tool▁calls▁begin｜>…" labels the calls after them)."""
    ends = Ahead(_DS_END, text, hi, found.in_data)
    begins = Ahead(_DS_BEGIN, text, hi, found.skips)
    pos = lo
    while (m := begins.at_or_after(pos)) is not None:
        body_start = m.end()
        body_end, pos = ends_of_body(ends, begins, body_start, hi)
        found.take(m.start(), pos)
        kind, sep, rest = text[body_start:body_end].partition(_DS_SEP)
        if not sep:
            found.calls.append(not_a_call("deepseek", m.start(), "the deepseek call has no tool separator"))
            continue
        if kind.strip() == "function":  # V3: the name on the line after the separator, then a json fence
            name, _, rest = rest.partition("\n")
            rest = strip_fence(rest.strip())
        else:
            name = kind
        found.calls.append(call_with_json(name.strip(), rest.strip(), "deepseek", m.start(), parser))


def _function_tag(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """`<function=name>{…}</function>` (functionary v3.1, Llama 3.1's custom tools)."""
    closes = Ahead(_FUNCTION_CLOSE, text, hi, found.in_data)
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
            call_with_json(
                m.group(1), text[m.end() : body_end].strip(), "functionary", m.start(), parser, cut=close is None
            )
        )


def _functionary(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """`>>>name` on a line of its own, then the arguments' JSON value (functionary v3.2); `>>>all` is its text."""
    for m in _RECIPIENT.finditer(text, lo, hi):
        if found.skips(m.start()) or m.group(1) == "all":
            continue
        span = value_right_after(text, m.end(), hi)
        if span is None:
            found.take(m.start(), m.end())
            found.calls.append(not_a_call("functionary", m.start(), f"the call to {m.group(1)!r} gives no arguments"))
            continue
        found.take(m.start(), span[1])
        found.calls.append(call_with_json(m.group(1), text[span[0] : span[1]], "functionary", m.start(), parser))


def _functionary_v2(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """`<|recipient|>name` then `<|content|>` and the arguments, up to `<|stop|>`, the next `<|from|>` or
    `<|recipient|>`, or the end (functionary v2); `<|recipient|>all` is its text. A recipient written otherwise is
    a call that cannot be read, never prose whose JSON is read by shape."""
    stops, nexts = Ahead(_CONTENT_STOP, text, hi, found.in_data), Ahead(_CONTENT_NEXT, text, hi, found.in_data)
    for m in _RECIPIENT_TOKEN.finditer(text, lo, hi):
        if found.skips(m.start()):
            continue
        named = _CONTENT_FOR.match(text, m.end(), hi)
        if named is not None and named.group(1) == "all":
            continue
        body_end, end = ends_of_body(stops, nexts, m.end(), hi)
        found.take(m.start(), end)
        if named is None or named.end() > body_end:
            found.calls.append(not_a_call("functionary", m.start(), "the recipient names no tool before <|content|>"))
            continue
        arguments = text[named.end() : body_end].strip()
        found.calls.append(
            call_with_json(named.group(1), arguments, "functionary", m.start(), parser, cut=body_end >= hi)
        )


def _kimi(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """Kimi K2's call tokens: `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}` up to
    `<|tool_call_end|>` (or the next call, the section's end, or the end). `functions.` and `:0` are the format's
    own id, not part of the name; the `<|tool_calls_section_begin|>`/`…end|>` around the calls read as tags."""
    ends, nexts = Ahead(_KIMI_END, text, hi, found.in_data), Ahead(_KIMI_NEXT, text, hi, found.in_data)
    pos = lo
    while (start := text.find(_KIMI_BEGIN, pos, hi)) >= 0:
        head = start + len(_KIMI_BEGIN)
        pos = head
        if found.skips(start):
            continue
        body_end, end = ends_of_body(ends, nexts, head, hi)
        pos = max(end, head)
        found.take(start, end)
        sep = text.find(_KIMI_ARGUMENTS, head, body_end)
        named = _KIMI_ID.fullmatch(text, head, sep) if sep >= 0 else None
        if named is None:
            found.calls.append(not_a_call("kimi", start, "the kimi call names no tool before its arguments"))
            continue
        arguments = text[sep + len(_KIMI_ARGUMENTS) : body_end].strip()
        found.calls.append(call_with_json(named.group(1), arguments, "kimi", start, parser, cut=body_end >= hi))


def _harmony(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """gpt-oss's harmony messages: one whose header (after the last `<|start|>`, `<|end|>`, `<|call|>` or
    `<|return|>` before its `<|message|>`) names a recipient, `to=functions.name`, is a call, its message the
    arguments, up to `<|call|>` (or `<|end|>`, the next `<|start|>`, or the end); `functions.` is the format's
    own namespace. A message to no one is text; a header naming two recipients is two readings of one call.
    Each header is read once: the next one starts where this message ends."""
    calls, nexts = Ahead(_HARMONY_CALL, text, hi, found.in_data), Ahead(_HARMONY_NEXT, text, hi, found.in_data)
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
        body_end, end = ends_of_body(calls, nexts, body_start, hi)
        pos = head_from = max(end, body_start)
        to = recipients[0]
        found.take(to.start(), end)
        names = sorted({r.group(1) for r in recipients})
        if len(names) > 1:
            error = f"the harmony message names two recipients, {' and '.join(map(repr, names))}"
            found.calls.append(RawCall(None, None, "harmony", None, to.start(), (), error, ambiguous=tuple(names)))
            continue
        arguments = text[body_start:body_end].strip()
        found.calls.append(call_with_json(to.group(1), arguments, "harmony", to.start(), parser, cut=body_end >= hi))


def _mistral(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """`[TOOL_CALLS]` and one JSON value right after it (a call, or a list of them), or `name[ARGS]` and the
    arguments' JSON value: the marker's stretch ends where that value ends, so what follows is read by the other
    formats, and as prose."""
    markers = [m for m in _MISTRAL.finditer(text, lo, hi) if not found.skips(m.start())]
    for k, m in enumerate(markers):
        limit = markers[k + 1].start() if k + 1 < len(markers) else hi
        named = _MISTRAL_NAMED.match(text, m.end(), limit)
        span = value_right_after(text, named.end() if named else m.end(), limit)
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
            found.calls.extend(json_calls(text[s:e], "mistral", s, parser))
            continue
        try:
            value, repairs = load_json(text[s:e], parser)
        except ParseError as exc:
            found.calls.append(RawCall(named.group(1), None, "mistral", None, m.start(), (), exc.message))
            continue
        found.calls.append(RawCall(named.group(1), value, "mistral", None, m.start(), repairs))


def _python_tag(text: str, lo: int, hi: int, found: Found, parser: Parser) -> None:
    """`<|python_tag|>` up to `<|eom_id|>`, `<|eot_id|>`, the next `<|python_tag|>` or the end."""
    ends = Ahead(_PYTHON_END, text, hi, found.in_data)
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
                found.calls.extend(json_calls(body[s:e], "llama", offset + s, parser))
            continue
        call = python_call(body)
        if call is not None:
            found.calls.append(RawCall(call[0], call[1], "llama", None, offset))
        elif body:
            error = "the python_tag call is not readable (a call with literal keyword arguments, or JSON)"
            found.calls.append(RawCall(None, None, "llama", None, offset, (), error, opaque=True))


TOKEN_READERS: tuple[Reader, ...] = (
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
)
