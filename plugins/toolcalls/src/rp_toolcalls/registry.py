"""The tool registry an agent uses: the registered tools (`tools.ToolSet`) plus the conveniences that read calls
from a model's output (`calls`) and run them (`execute`). It sits above all three, so none of them imports it.
"""

from __future__ import annotations

from resilient_parse import Parser
from rp_toolcalls.calls import parse_calls
from rp_toolcalls.execute import aexecute as _aexecute
from rp_toolcalls.execute import execute as _execute
from rp_toolcalls.results import ParsedCall, ToolResult
from rp_toolcalls.tools import Tool, ToolSet

__all__ = ["Tool", "ToolRegistry"]


class ToolRegistry(ToolSet):
    """The tools an agent may call. Register with `register(...)` or the `@registry.tool(...)` decorator."""

    # -- parsing and running calls -------------------------------------------------------------------------------

    def parse(self, text: str, *, parser: Parser | None = None) -> list[ParsedCall]:
        """Every tool call in a model's output, matched to a registered tool with validated arguments, or with
        the `input_invalid` error that says why not. An output with no call gives an empty list."""
        return parse_calls(text, self, parser or self.parser)

    def execute(self, call: ParsedCall, *, timeout: float | None = None) -> ToolResult:
        """Run one parsed call; the outcome is always an envelope, never an exception."""
        return _execute(call, self, timeout=timeout)

    async def aexecute(self, call: ParsedCall, *, timeout: float | None = None) -> ToolResult:
        return await _aexecute(call, self, timeout=timeout)

    def run(self, text: str, *, parser: Parser | None = None, timeout: float | None = None) -> list[ToolResult]:
        """Parse and run every call in order. After a `quota_exhausted` result the remaining calls are not run:
        each gets the same quota error, so the agent stops."""
        results: list[ToolResult] = []
        for call in self.parse(text, parser=parser):
            if results and results[-1].stop:
                results.append(_not_run(call, results[-1]))
                continue
            results.append(self.execute(call, timeout=timeout))
        return results

    async def arun(self, text: str, *, parser: Parser | None = None, timeout: float | None = None) -> list[ToolResult]:
        """The async twin of `run` (calls run one after another, in order)."""
        results: list[ToolResult] = []
        for call in self.parse(text, parser=parser):
            if results and results[-1].stop:
                results.append(_not_run(call, results[-1]))
                continue
            results.append(await self.aexecute(call, timeout=timeout))
        return results


def _not_run(call: ParsedCall, previous: ToolResult) -> ToolResult:
    assert previous.error is not None
    return ToolResult("error", call.tool, call.id, None, "Not run: " + previous.observation, previous.error)
