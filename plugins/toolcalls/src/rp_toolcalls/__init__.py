"""rp_toolcalls: a tool registry that reads tool calls from any model's output and runs them with error
semantics an agent can act on, as a resilient_parse plugin.

registry = ToolRegistry()
@registry.tool(description="Current weather for a city")
def get_weather(city: str, unit: Literal["c", "f"] = "c") -> dict: ...
for result in registry.run(llm_text):
    messages.append({"role": "tool", "content": result.observation})
"""

from rp_toolcalls.calls import normalise_name, parse_arguments, parse_calls, resolve_name
from rp_toolcalls.formats import RawCall, extract_calls, python_call
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
    "normalise_name",
    "parse_arguments",
    "parse_calls",
    "python_call",
    "resolve_name",
]
