"""rp_toolcalls: a tool registry that reads tool calls from any model's output and runs them with error
semantics an agent can act on, as a resilient_parse plugin.

registry = ToolRegistry()
@registry.tool(description="Current weather for a city")
def get_weather(city: str, unit: Literal["c", "f"] = "c") -> dict: ...
for result in registry.run(llm_text):
    messages.append({"role": "tool", "content": result.observation})

The names below are imported from their submodules on first access (PEP 562), so that the entry point — which
imports `rp_toolcalls.plugin`, and with it this package — does not pay for the models, format readers, registry
and rapidfuzz until a target that holds a `ToolCall` shows up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from resilient_parse.plugin_api import RawCall, extract_calls, python_call
    from rp_toolcalls.calls import parse_arguments, parse_calls, resolve_name
    from rp_toolcalls.models import ToolCall, call_model
    from rp_toolcalls.plugin import PLUGIN_NAME, ToolCallsPlugin, default_plugin
    from rp_toolcalls.registry import ToolRegistry
    from rp_toolcalls.results import (
        INPUT_INVALID,
        QUOTA_EXHAUSTED,
        TOOL_FAILED,
        ErrorKind,
        ParsedCall,
        ToolError,
        ToolFailed,
        ToolInputInvalid,
        ToolQuotaExhausted,
        ToolResult,
    )
    from rp_toolcalls.tools import Tool, ToolSet

_EXPORTS: dict[str, str] = {
    "parse_arguments": "rp_toolcalls.calls",
    "parse_calls": "rp_toolcalls.calls",
    "resolve_name": "rp_toolcalls.calls",
    "RawCall": "resilient_parse.plugin_api",
    "extract_calls": "resilient_parse.plugin_api",
    "python_call": "resilient_parse.plugin_api",
    "ToolCall": "rp_toolcalls.models",
    "call_model": "rp_toolcalls.models",
    "PLUGIN_NAME": "rp_toolcalls.plugin",
    "ToolCallsPlugin": "rp_toolcalls.plugin",
    "default_plugin": "rp_toolcalls.plugin",
    "ToolRegistry": "rp_toolcalls.registry",
    "INPUT_INVALID": "rp_toolcalls.results",
    "QUOTA_EXHAUSTED": "rp_toolcalls.results",
    "TOOL_FAILED": "rp_toolcalls.results",
    "ErrorKind": "rp_toolcalls.results",
    "ParsedCall": "rp_toolcalls.results",
    "ToolError": "rp_toolcalls.results",
    "ToolFailed": "rp_toolcalls.results",
    "ToolInputInvalid": "rp_toolcalls.results",
    "ToolQuotaExhausted": "rp_toolcalls.results",
    "ToolResult": "rp_toolcalls.results",
    "Tool": "rp_toolcalls.tools",
    "ToolSet": "rp_toolcalls.tools",
}
_SUBMODULES = frozenset({"calls", "execute", "formats", "models", "plugin", "pycall", "registry", "results", "tools"})


def __getattr__(name: str) -> Any:
    """Import a public name (or a submodule, as `rp_toolcalls.formats`) on first access; keep it for the next one."""
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS, *_SUBMODULES})


__all__ = [
    "INPUT_INVALID",
    "PLUGIN_NAME",
    "QUOTA_EXHAUSTED",
    "TOOL_FAILED",
    "ErrorKind",
    "ParsedCall",
    "RawCall",
    "Tool",
    "ToolCall",
    "ToolCallsPlugin",
    "ToolError",
    "ToolFailed",
    "ToolInputInvalid",
    "ToolQuotaExhausted",
    "ToolRegistry",
    "ToolResult",
    "ToolSet",
    "call_model",
    "default_plugin",
    "extract_calls",
    "parse_arguments",
    "parse_calls",
    "python_call",
    "resolve_name",
]
