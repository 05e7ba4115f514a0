"""The model-feedback correction loop, the LLM adapters and the drop-in helpers.

    from resilient_parse import correct
    plan = correct(llm, messages, TaskPlan, max_corrections=2)

`correct` / `acorrect` return the object; `correct_result` / `acorrect_result` return a `CorrectionResult` with
every attempt. With tool calling, build the adapter with `tools=[Model, ...]`: the answer is read from the calls'
arguments (`read_tool_calls`) and a re-ask answers the calls in the API's own shape. The adapters live in
`resilient_parse.llm`, one module per provider, and are re-exported here. The LangChain output parser lives in
`resilient_parse.integrations.langchain` (optional extra). The JSON Patch feedback plugin
(`resilient_parse.correction.json_patch`) needs the `patch` extra: its names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from resilient_parse.correction.dropin import corrected, parsed
from resilient_parse.correction.loop import acorrect, acorrect_result, correct, correct_result, estimate_tokens
from resilient_parse.correction.scripted import ScriptedLLM, ScriptExhaustedError
from resilient_parse.correction.tool_calls import ToolCall, read_tool_calls
from resilient_parse.correction.types import Attempt, Completion, CorrectionResult, MalformedResponseError, Usage
from resilient_parse.errors import (
    BudgetExhaustedError,
    CorrectionError,
    CorrectionsExhaustedError,
    ModelRefusedError,
    QuotaExhaustedError,
)
from resilient_parse.llm.anthropic import AnthropicAdapter
from resilient_parse.llm.base import LLMAdapter, is_quota_error
from resilient_parse.llm.choose import as_adapter
from resilient_parse.llm.function import FunctionAdapter
from resilient_parse.llm.litellm import LiteLLMAdapter
from resilient_parse.llm.openai import OpenAIAdapter
from resilient_parse.llm.tool_defs import anthropic_tools, openai_tools, tool_name

if TYPE_CHECKING:
    from resilient_parse.correction.json_patch import JsonPatchFeedback, PatchFailedError, PatchLimits, apply_patch

_PATCH_NAMES = frozenset({"JsonPatchFeedback", "PatchFailedError", "PatchLimits", "apply_patch"})


def __getattr__(name: str) -> object:
    """The JSON Patch plugin's names, imported on first use: `jsonpatch` is an optional extra."""
    if name not in _PATCH_NAMES:
        raise AttributeError(f"module 'resilient_parse.correction' has no attribute {name!r}")
    from resilient_parse.correction import json_patch

    return getattr(json_patch, name)


__all__ = [
    "AnthropicAdapter",
    "Attempt",
    "BudgetExhaustedError",
    "Completion",
    "CorrectionError",
    "CorrectionResult",
    "CorrectionsExhaustedError",
    "FunctionAdapter",
    "JsonPatchFeedback",
    "LLMAdapter",
    "LiteLLMAdapter",
    "MalformedResponseError",
    "ModelRefusedError",
    "OpenAIAdapter",
    "PatchFailedError",
    "PatchLimits",
    "QuotaExhaustedError",
    "ScriptExhaustedError",
    "ScriptedLLM",
    "ToolCall",
    "Usage",
    "acorrect",
    "acorrect_result",
    "anthropic_tools",
    "apply_patch",
    "as_adapter",
    "correct",
    "correct_result",
    "corrected",
    "estimate_tokens",
    "is_quota_error",
    "openai_tools",
    "parsed",
    "read_tool_calls",
    "tool_name",
]
