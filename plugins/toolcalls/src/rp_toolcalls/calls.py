"""From a call as written to a call the registry can run: match the name against the registered tools only, and
put the arguments through the full resilient_parse pipeline against the tool's argument model.

A name is matched by the core's one matcher (`match_tool`): exactly, in another case or style (`GetWeather`,
`get-weather`), behind a namespace prefix (`functions.get_weather`), or by one typo in one word (`get_wether`) —
never onto another registered tool. An unknown name is an `input_invalid` error listing the tools, never a new
tool. Every repair is recorded with a JSON path: `/name` for the name, `/arguments/...` for the arguments.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel

from resilient_parse import ErrorDetail, ParseError, Parser, Policy, Repair
from resilient_parse.plugin_api import RawCall, extract_calls, match_tool
from rp_toolcalls.results import INPUT_INVALID, ParsedCall, ToolError
from rp_toolcalls.tools import Tool, ToolSet

WRAP_KIND = "wrap_single_argument"

__all__ = [
    "ParsedCall",
    "parse_arguments",
    "parse_call",
    "parse_calls",
    "resolve_name",
]


def resolve_name(
    name: Any, tools: Sequence[str], policy: Policy
) -> tuple[str | None, tuple[Repair, ...], ToolError | None]:
    """The registered tool `name` means, the repair that took (if any), or an `input_invalid` error. The core's one
    matcher (`match_tool`) decides, with the registry as the tools that were sent: exactly, in another case or
    style, behind a namespace prefix, or by one typo the policy allows — never onto another registered tool."""
    listing = ", ".join(tools) or "(none)"
    if not isinstance(name, str) or not name.strip():
        message = "the call does not name a tool"
        return None, (), ToolError(INPUT_INVALID, "no_tool_name", message, f"{message}. Available tools: {listing}.")
    try:
        found, repairs = match_tool(name.strip(), tools, policy, "/name", sent=tools)
    except ParseError as exc:
        message = f"there is no tool named {name!r}" if exc.details[0].kind == "tool_name_mismatch" else exc.message
        feedback = f"{message}. Available tools: {listing}. Call one of them by its exact name."
        code = "unknown_tool" if exc.details[0].kind == "tool_name_mismatch" else exc.details[0].kind
        return None, (), ToolError(INPUT_INVALID, code, message, feedback)
    if found != name:
        repairs = tuple(replace(r, before=name) for r in repairs) or (
            Repair.make("tool_name_style", "/name", name, found, note=f"tool name {name!r} read as {found!r}"),
        )
    return found, repairs, None


def _arguments_text(raw: Any, tool: Tool, policy: Policy) -> tuple[str | None, tuple[Repair, ...], str | None]:
    """The arguments as text for the parser, a wrap repair when a lone value stands for the only field, or why
    the arguments cannot be read as an object at all."""
    if raw is None:
        return "{}", (), None
    if isinstance(raw, dict | list):
        return json.dumps(raw, ensure_ascii=False), (), None
    text = raw.strip() if isinstance(raw, str) else raw
    if isinstance(text, str) and (not text or text[0] in "{[`" or text.startswith('"{')):
        return text or "{}", (), None
    fields = tool.args_model.model_fields
    required = [name for name, info in fields.items() if info.is_required()]
    only = required if len(required) == 1 else list(fields) if len(fields) == 1 else []
    if only and policy.allows(WRAP_KIND):
        note = f"a lone value was given; it is the only required argument, {only[0]!r}"
        repair = Repair.make(WRAP_KIND, f"/arguments/{only[0]}", raw, raw, note=note)
        return json.dumps({only[0]: text}, ensure_ascii=False), (repair,), None
    return None, (), f"arguments must be a JSON object with the fields {', '.join(fields) or '(none)'}"


def parse_arguments(
    raw: Any, tool: Tool, parser: Parser
) -> tuple[BaseModel | None, tuple[Repair, ...], ToolError | None]:
    """The validated argument model, the repairs (paths under /arguments), or an `input_invalid` error."""
    text, wrap, problem = _arguments_text(raw, tool, parser.policy)
    if text is None:
        detail = ErrorDetail("/arguments", "not_an_object", problem or "", got=raw)
        return None, (), _invalid(tool, problem or "", (detail,))
    try:
        result = parser.parse_result(text, tool.args_model)
    except ParseError as exc:
        shifted = tuple(replace(d, path="/arguments" + d.path) for d in exc.details)
        return None, (), _invalid(tool, exc.message, shifted)
    repairs = wrap + tuple(replace(r, path="/arguments" + r.path) for r in result.repairs)
    value = result.value
    return value if isinstance(value, BaseModel) else tool.args_model.model_validate(value), repairs, None


def _invalid(tool: Tool, message: str, details: tuple[ErrorDetail, ...]) -> ToolError:
    lines = [f"Your call to the tool {tool.name!r} has invalid arguments:"]
    seen: set[tuple[str, str]] = set()
    for d in details[:10]:
        if (d.path, d.message) in seen:
            continue
        seen.add((d.path, d.message))
        lines.append(f"- {d.path or '/arguments'}: {d.message}")
    schema = json.dumps(tool.parameters_schema(), ensure_ascii=False)
    lines += [
        "",
        f"The arguments of {tool.name!r} (JSON Schema): {schema}",
        "Call the tool again with fixed arguments.",
    ]
    return ToolError(
        INPUT_INVALID,
        "invalid_arguments",
        f"invalid arguments for {tool.name}: {message}",
        "\n".join(lines),
        errors=tuple(d.to_dict() for d in details),
    )


def parse_calls(text: str, registry: ToolSet, parser: Parser) -> list[ParsedCall]:
    """Every call in `text`, each matched to a registered tool and its arguments validated (or an error)."""
    out: list[ParsedCall] = []
    for i, raw in enumerate(extract_calls(text, parser, tuple(registry.names))):
        out.append(parse_call(i, raw, registry, parser))
    return out


def parse_call(index: int, raw: RawCall, registry: ToolSet, parser: Parser) -> ParsedCall:
    if raw.ambiguous:
        feedback = f"{raw.error}. Write one call: `Action:` with `Action Input:`, or one JSON call."
        return ParsedCall(index, raw, None, error=ToolError(INPUT_INVALID, "ambiguous_call", raw.error or "", feedback))
    if raw.error is not None:
        feedback = f"{raw.error}. Write the call as valid JSON."
        return ParsedCall(index, raw, None, error=ToolError(INPUT_INVALID, "unreadable_call", raw.error, feedback))
    name, name_repairs, error = resolve_name(raw.name, registry.names, parser.policy)
    if error is not None or name is None:
        return ParsedCall(index, raw, None, repairs=raw.repairs, error=error)
    tool = registry.get(name)
    if tool is None:  # resolve_name only returns registered names; kept for a registry changed meanwhile
        return ParsedCall(index, raw, None, error=ToolError(INPUT_INVALID, "unknown_tool", f"no tool {name!r}"))
    arguments, arg_repairs, error = parse_arguments(raw.arguments, tool, parser)
    repairs = raw.repairs + name_repairs + arg_repairs
    return ParsedCall(index, raw, name, arguments, repairs, error)
