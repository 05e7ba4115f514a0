"""The registered tools: each tool's name, description, Pydantic argument model (and optional output model) and
implementation, and what the model is shown about them — a manifest for prompts and OpenAI / Anthropic tool
definitions, all generated from the same argument models so they cannot drift apart.

This module imports nothing else from rp_toolcalls: `calls` and `execute` build on it, and `registry` puts the
two together as `ToolRegistry`.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, TypeAdapter, create_model

from resilient_parse import ConfigurationError, Parser

TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-.]{0,63}$")


@dataclass(frozen=True)
class Tool:
    """One registered tool. `func` receives the validated argument model instance (or its fields as keyword
    arguments when `pass_model` is false); `timeout` (seconds) overrides the registry's default."""

    name: str
    description: str
    args_model: type[BaseModel]
    func: Callable[..., Any] | None = None
    output_model: Any = None
    timeout: float | None = None
    pass_model: bool = True

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments, as tool definitions carry it."""
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        return schema

    def manifest_entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "parameters": self.parameters_schema(),
        }
        if self.output_model is not None:
            entry["returns"] = TypeAdapter(self.output_model).json_schema()
        return entry


def _model_from_signature(name: str, func: Callable[..., Any]) -> type[BaseModel]:
    """An argument model built from a function's keyword parameters (their annotations and defaults)."""
    hints = get_type_hints(func)
    fields: dict[str, Any] = {}
    for pname, param in inspect.signature(func).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise ConfigurationError(f"tool {name!r}: *args/**kwargs cannot be described to a model")
        annotation = hints.get(pname, Any)
        default = ... if param.default is param.empty else param.default
        fields[pname] = (annotation, default)
    title = "".join(part.capitalize() for part in re.split(r"[_\-.]", name)) + "Args"
    model: type[BaseModel] = create_model(title, __config__=ConfigDict(extra="forbid"), **fields)
    return model


def _single_model_parameter(func: Callable[..., Any]) -> type[BaseModel] | None:
    params = list(inspect.signature(func).parameters.values())
    if len(params) != 1:
        return None
    annotation = get_type_hints(func).get(params[0].name)
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


class ToolSet:
    """The registered tools and what the model is shown about them. Reading calls (`calls.parse_calls`) and
    running them (`execute.execute`) take a `ToolSet`; `ToolRegistry` (in `registry`, above both) adds the
    `parse` / `execute` / `run` conveniences."""

    def __init__(
        self,
        *,
        parser: Parser | None = None,
        default_timeout: float | None = 30.0,
        max_observation_chars: int = 4000,
    ) -> None:
        self._parser = parser
        if default_timeout is not None and default_timeout <= 0:
            raise ConfigurationError("default_timeout must be positive (or None for no timeout)")
        self.default_timeout = default_timeout
        self.max_observation_chars = max_observation_chars
        self._tools: dict[str, Tool] = {}

    # -- registration --------------------------------------------------------------------------------------------

    def register(
        self,
        name: str,
        description: str,
        args_model: type[BaseModel] | None = None,
        func: Callable[..., Any] | None = None,
        *,
        output_model: Any = None,
        timeout: float | None = None,
    ) -> Tool:
        """Add a tool. Without `args_model` the model is built from `func`'s parameters; a function taking one
        parameter annotated with a model receives the model instance, any other receives keyword arguments."""
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise ConfigurationError(f"tool name {name!r} must be 1-64 letters, digits, '_', '-' or '.'")
        if name in self._tools:
            raise ConfigurationError(f"tool {name!r} is registered already")
        if timeout is not None and timeout <= 0:
            raise ConfigurationError(f"tool {name!r}: timeout must be positive")
        pass_model = True
        if args_model is None:
            if func is None:
                raise ConfigurationError(f"tool {name!r} needs an argument model or a function to derive one from")
            args_model = _single_model_parameter(func)
            if args_model is None:
                args_model, pass_model = _model_from_signature(name, func), False
        elif not (isinstance(args_model, type) and issubclass(args_model, BaseModel)) or args_model is BaseModel:
            raise ConfigurationError(f"tool {name!r}: args_model must be a Pydantic model class (a subclass)")
        elif func is not None and _single_model_parameter(func) is None:
            pass_model = False
        tool = Tool(name, description, args_model, func, output_model, timeout, pass_model)
        self._tools[name] = tool
        return tool

    def tool(
        self,
        name: str | None = None,
        description: str | None = None,
        *,
        output_model: Any = None,
        timeout: float | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register a function as a tool (name and description default to its name and docstring)."""

        def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
            doc = inspect.getdoc(func) or ""
            self.register(
                name or func.__name__,
                description if description is not None else doc.strip(),
                None,
                func,
                output_model=output_model,
                timeout=timeout,
            )
            return func

        return decorate

    # -- lookup --------------------------------------------------------------------------------------------------

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    # -- what the model is shown ---------------------------------------------------------------------------------

    def manifest(self) -> list[dict[str, Any]]:
        """Names, descriptions and JSON Schemas of the arguments (and results, when declared)."""
        return [t.manifest_entry() for t in self._tools.values()]

    def openai_tools(self) -> list[dict[str, Any]]:
        """The `tools=` parameter of OpenAI's Chat Completions API."""
        return [
            {
                "type": "function",
                "function": {"name": t.name, "description": t.description, "parameters": t.parameters_schema()},
            }
            for t in self._tools.values()
        ]

    def anthropic_tools(self) -> list[dict[str, Any]]:
        """The `tools=` parameter of Anthropic's Messages API."""
        return [
            {"name": t.name, "description": t.description, "input_schema": t.parameters_schema()}
            for t in self._tools.values()
        ]

    def prompt(self) -> str:
        """A prompt section listing the tools and how to call them (for models without native tool calling)."""
        lines = ["You can call these tools:"]
        for t in self._tools.values():
            lines.append(f"- {t.name}: {t.description}")
            lines.append(f"  arguments (JSON Schema): {json.dumps(t.parameters_schema(), ensure_ascii=False)}")
        lines += [
            "",
            'To call a tool, reply with JSON only: {"tool": "<name>", "arguments": {...}}',
            "To call several, reply with a JSON list of such objects.",
        ]
        return "\n".join(lines)

    def describe(self, name: str) -> Mapping[str, Any] | None:
        """The manifest entry of one tool (used in feedback to the model)."""
        tool = self._tools.get(name)
        return tool.manifest_entry() if tool is not None else None

    # -- the parser arguments go through -------------------------------------------------------------------------

    @property
    def parser(self) -> Parser:
        """The parser arguments go through (a default lenient `Parser()` unless one was given)."""
        if self._parser is None:
            self._parser = Parser()
        return self._parser
