"""Running parsed calls: every outcome is a `ToolResult` envelope, never an exception, never a traceback.

Each call runs with a timeout (the tool's, else the registry's). A synchronous tool runs in a daemon thread so
a hung tool cannot hang the agent (Python cannot kill the thread: it is abandoned, and its eventual result is
discarded); an `async def` tool is cancelled by `asyncio.wait_for`.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from resilient_parse.correction import QuotaExhaustedError
from rp_toolcalls.results import (
    INPUT_INVALID,
    QUOTA_EXHAUSTED,
    TOOL_FAILED,
    ParsedCall,
    ToolError,
    ToolFailed,
    ToolInputInvalid,
    ToolQuotaExhausted,
    ToolResult,
    observation_text,
)
from rp_toolcalls.tools import Tool, ToolSet


class _Timeout(Exception):
    pass


def _invoke(tool: Tool, args: BaseModel) -> Any:
    assert tool.func is not None
    if tool.pass_model:
        return tool.func(args)
    return tool.func(**{name: getattr(args, name) for name in type(args).model_fields})


def _run_in_thread(tool: Tool, args: BaseModel, timeout: float | None) -> Any:
    box: dict[str, Any] = {}
    done = threading.Event()

    def target() -> None:
        try:
            value = _invoke(tool, args)
            if inspect.isawaitable(value):
                value = asyncio.run(_awaited(value))
            box["value"] = value
        except BaseException as exc:  # handed to the caller's thread, which turns it into an envelope
            box["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=target, name=f"tool:{tool.name}", daemon=True)
    worker.start()
    if not done.wait(timeout):
        raise _Timeout
    if "error" in box:
        raise box["error"]
    return box.get("value")


async def _awaited(value: Any) -> Any:
    return await value


def _error_result(call: ParsedCall, error: ToolError, started: float, exc: BaseException | None = None) -> ToolResult:
    observation = error.feedback or error.message
    return ToolResult(
        "error",
        call.tool,
        call.id,
        None,
        f"Error ({error.kind}): {observation}",
        error,
        call.repairs,
        time.monotonic() - started,
        exc,
    )


def _failure(call: ParsedCall, exc: BaseException, timeout: float | None, started: float) -> ToolResult:
    """Map whatever the tool raised to a typed error the model may read (no exception text unless intended)."""
    if isinstance(exc, _Timeout):
        error = ToolError(TOOL_FAILED, "timeout", f"the tool {call.tool!r} did not answer within {timeout:g} s")
        return _error_result(call, error, started)
    if isinstance(exc, ToolQuotaExhausted | QuotaExhaustedError):
        message = getattr(exc, "message", None) or "the quota is exhausted"
        return _error_result(call, ToolError(QUOTA_EXHAUSTED, "quota", message), started, exc)
    if isinstance(exc, ToolInputInvalid):
        error = ToolError(INPUT_INVALID, "rejected_by_tool", exc.message, f"The tool {call.tool!r} says: {exc.message}")
        return _error_result(call, error, started, exc)
    if isinstance(exc, ToolFailed):
        return _error_result(call, ToolError(TOOL_FAILED, "failed", exc.message, retryable=exc.retryable), started, exc)
    message = f"the tool {call.tool!r} failed with an internal error ({type(exc).__name__})"
    return _error_result(call, ToolError(TOOL_FAILED, "exception", message), started, exc)


def _finish(call: ParsedCall, tool: Tool, value: Any, registry: ToolSet, started: float) -> ToolResult:
    if tool.output_model is not None:
        try:
            value = TypeAdapter(tool.output_model).validate_python(value)
        except ValidationError as exc:
            message = f"the tool {tool.name!r} returned output that does not fit its declared output model"
            return _error_result(call, ToolError(TOOL_FAILED, "bad_output", message), started, exc)
    observation = observation_text(value, registry.max_observation_chars)
    return ToolResult("ok", tool.name, call.id, value, observation, None, call.repairs, time.monotonic() - started)


def _ready(call: ParsedCall, registry: ToolSet, started: float) -> tuple[Tool, BaseModel] | ToolResult:
    if call.error is not None:
        return _error_result(call, call.error, started)
    tool = registry.get(call.tool) if call.tool is not None else None
    if tool is None or call.arguments is None:
        error = ToolError(INPUT_INVALID, "unknown_tool", "the call names no registered tool")
        return _error_result(call, error, started)
    if tool.func is None:
        message = f"the tool {tool.name!r} has no implementation registered"
        return _error_result(call, ToolError(TOOL_FAILED, "not_executable", message), started)
    return tool, call.arguments


def execute(call: ParsedCall, registry: ToolSet, *, timeout: float | None = None) -> ToolResult:
    """Run one parsed call and wrap the outcome in an envelope."""
    started = time.monotonic()
    ready = _ready(call, registry, started)
    if isinstance(ready, ToolResult):
        return ready
    tool, args = ready
    limit = timeout if timeout is not None else tool.timeout if tool.timeout is not None else registry.default_timeout
    try:
        if limit is None and not inspect.iscoroutinefunction(tool.func):
            value = _invoke(tool, args)
        else:
            value = _run_in_thread(tool, args, limit)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        return _failure(call, exc, limit, started)
    return _finish(call, tool, value, registry, started)


async def aexecute(call: ParsedCall, registry: ToolSet, *, timeout: float | None = None) -> ToolResult:
    """The async twin of `execute`: `async def` tools are awaited (and cancelled on timeout); synchronous tools
    run in a worker thread."""
    started = time.monotonic()
    ready = _ready(call, registry, started)
    if isinstance(ready, ToolResult):
        return ready
    tool, args = ready
    limit = timeout if timeout is not None else tool.timeout if tool.timeout is not None else registry.default_timeout
    try:
        if inspect.iscoroutinefunction(tool.func):
            value = await asyncio.wait_for(_invoke(tool, args), limit)
        else:
            value = await asyncio.wait_for(asyncio.to_thread(_invoke, tool, args), limit)
    except asyncio.TimeoutError:
        return _failure(call, _Timeout(), limit, started)
    except Exception as exc:
        return _failure(call, exc, limit, started)
    return _finish(call, tool, value, registry, started)
