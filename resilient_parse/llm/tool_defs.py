"""Tool definitions: the tools a request sends, built from Pydantic argument models (or passed as the user wrote
them), the `tool_choice` that forces one, and the names a request sent — one source for every API's format, so
what is sent and what a call is read against cannot drift apart."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from resilient_parse.errors import ConfigurationError
from resilient_parse.feedback import schema_shape
from resilient_parse.tools.names import model_tool_name

ToolSpec = type[BaseModel] | Mapping[str, Any]
"""A tool to send: a Pydantic argument model, or a tool definition the user wrote in the API's own format."""

_CHOICE_WORDS = frozenset({"auto", "required", "none", "any"})


def is_tool_model(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseModel)


def tool_name(model: type[BaseModel]) -> str:
    """The name a Pydantic model is sent under (`envelopes.model_tool_name`, the rule every path reads by)."""
    if not is_tool_model(model):
        raise ConfigurationError(f"a tool is a Pydantic model class, not {model!r}")
    return model_tool_name(model)


def _description(model: type[BaseModel]) -> str:
    doc = model.__dict__.get("__doc__")  # the model's own docstring, never BaseModel's
    return " ".join(doc.split()) if isinstance(doc, str) else ""


def _parameters(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema as a tool definition sends it: through `schema_shape`, the filter every schema the
    library shows goes through (no titles, no `default`/`examples` values — a default may be an API key — no
    `json_schema_extra` keys), its `$defs` kept so a recursive model stays exact."""
    schema: dict[str, Any] = schema_shape(model.model_json_schema(), inline=False)
    schema.pop("description", None)  # sent once, as the tool's description
    return schema


def _check_specs(tools: Sequence[ToolSpec]) -> Sequence[ToolSpec]:
    if isinstance(tools, str | bytes | Mapping) or not isinstance(tools, Sequence):
        raise ConfigurationError("tools must be a list of Pydantic models or tool definitions (dicts)")
    for spec in tools:
        if not (is_tool_model(spec) or isinstance(spec, Mapping)):
            raise ConfigurationError(f"a tool is a Pydantic model class or a dict, not {type(spec).__name__}")
    return tools


def openai_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """OpenAI `tools=` (also LiteLLM's and every OpenAI-compatible server's): models become function tools with
    their JSON Schema's shape as `parameters` (`_parameters`); dicts the user wrote pass through (copied)."""
    return [
        copy.deepcopy(dict(spec))
        if isinstance(spec, Mapping)
        else {"type": "function", "function": _model_tool(spec, "parameters")}
        for spec in _check_specs(tools)
    ]


def anthropic_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """Anthropic `tools=`: models become `{name, description, input_schema}`; dicts pass through (copied)."""
    return [
        copy.deepcopy(dict(spec)) if isinstance(spec, Mapping) else _model_tool(spec, "input_schema")
        for spec in _check_specs(tools)
    ]


def _model_tool(model: type[BaseModel], schema_key: str) -> dict[str, Any]:
    """A model as one API's tool definition: its name, its JSON Schema under `schema_key`, its description."""
    tool: dict[str, Any] = {"name": tool_name(model), schema_key: _parameters(model)}
    description = _description(model)
    if description:
        tool["description"] = description
    return tool


def _choice_name(choice: Any) -> str | None:
    if is_tool_model(choice):
        return tool_name(choice)
    if isinstance(choice, str) and choice not in _CHOICE_WORDS:
        return choice
    return None


def openai_tool_choice(choice: Any) -> Any:
    """OpenAI `tool_choice=`: "auto"/"required"/"none" as they are, a model or a tool's name forces that tool
    (`{"type": "function", "function": {"name": ...}}`), a dict passes through."""
    name = _choice_name(choice)
    if name is not None:
        return {"type": "function", "function": {"name": name}}
    if choice == "any":
        return "required"
    return copy.deepcopy(choice)


def anthropic_tool_choice(choice: Any) -> Any:
    """Anthropic `tool_choice=`: "auto", "required"/"any" (`{"type": "any"}`), "none", a model or a tool's name
    (`{"type": "tool", "name": ...}`); a dict passes through."""
    name = _choice_name(choice)
    if name is not None:
        return {"type": "tool", "name": name}
    if isinstance(choice, str):
        return {"type": "any" if choice in ("required", "any") else choice}
    return copy.deepcopy(choice)


def check_tool_choice(choice: Any, tools: Sequence[Mapping[str, Any]]) -> None:
    """A `tool_choice` as sent (`openai_tool_choice`/`anthropic_tool_choice`) that forces a tool must force one
    of the tools sent; otherwise the provider refuses the request, or answers with a tool the target never sees."""
    if not isinstance(choice, Mapping):
        return
    function = choice.get("function", choice.get("custom"))
    name = function.get("name") if isinstance(function, Mapping) else choice.get("name")
    if isinstance(name, str) and name not in sent_tool_names(tools):
        sent = ", ".join(repr(n) for n in sorted(sent_tool_names(tools))) or "none"
        raise ConfigurationError(f"tool_choice forces the tool {name!r}, which is not among the tools sent ({sent})")


def sent_tool_names(tools: Sequence[Mapping[str, Any]]) -> set[str]:
    """The names of tool definitions as sent (OpenAI's `function.name`, Anthropic's `name`)."""
    names = set()
    for tool in tools:
        function = tool.get("function", tool.get("custom"))  # a function tool, or an OpenAI custom tool
        name = function.get("name") if isinstance(function, Mapping) else tool.get("name")
        if isinstance(name, str):
            names.add(name)
    return names


__all__ = [
    "ToolSpec",
    "anthropic_tool_choice",
    "anthropic_tools",
    "check_tool_choice",
    "is_tool_model",
    "openai_tool_choice",
    "openai_tools",
    "sent_tool_names",
    "tool_name",
]
