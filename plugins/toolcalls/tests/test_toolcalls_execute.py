"""Running calls: every outcome is an envelope {status, data, observation, error} with a typed error an agent can
act on, a per-call timeout, and no traceback or exception text reaching the model."""

from __future__ import annotations

import asyncio
import time

from pydantic import BaseModel
from rp_toolcalls import (
    INPUT_INVALID,
    QUOTA_EXHAUSTED,
    TOOL_FAILED,
    ToolFailed,
    ToolInputInvalid,
    ToolQuotaExhausted,
    ToolRegistry,
)

from resilient_parse.correction import QuotaExhaustedError


class Weather(BaseModel):
    city: str
    celsius: float


def registry() -> ToolRegistry:
    reg = ToolRegistry(default_timeout=2.0)

    @reg.tool(description="Weather", output_model=Weather)
    def get_weather(city: str) -> dict[str, object]:
        if city == "Atlantis":
            raise ToolInputInvalid("there is no weather station in Atlantis; pick a real city")
        if city == "Broken":
            return {"city": city}  # no temperature: the tool's fault, not the model's
        return {"city": city, "celsius": 21.5}

    @reg.tool(description="Flaky")
    def flaky(mode: str) -> str:
        if mode == "down":
            raise ToolFailed("the weather service is down", retryable=True)
        if mode == "quota":
            raise ToolQuotaExhausted("daily search quota used up")
        if mode == "core_quota":
            raise QuotaExhaustedError("provider quota")
        if mode == "secret":
            raise RuntimeError("password=hunter2 at /srv/app/secret.py line 3")
        return "fine"

    @reg.tool(description="Slow", timeout=0.2)
    def slow(seconds: float) -> str:
        time.sleep(seconds)
        return "done"

    async def aslow(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"

    reg.register("aslow", "Async slow", func=aslow, timeout=0.2)
    reg.register("no_impl", "Described but not runnable", Weather)
    return reg


def run_one(text: str, **options: float) -> dict[str, object]:
    [result] = registry().run(text, **options)
    return result.to_dict()


def test_a_successful_call_returns_data_and_an_observation() -> None:
    out = run_one('{"tool": "get_weather", "args": {"city": "Paris"}}')
    assert out["status"] == "ok" and out["error"] is None
    assert out["data"] == {"city": "Paris", "celsius": 21.5}
    assert out["observation"] == '{"city": "Paris", "celsius": 21.5}'


def test_an_unknown_tool_is_input_invalid_with_feedback() -> None:
    out = run_one('{"tool": "launch_rocket", "args": {}}')
    assert out["status"] == "error"
    error = out["error"]
    assert isinstance(error, dict) and error["kind"] == INPUT_INVALID and error["code"] == "unknown_tool"
    assert "Available tools:" in str(out["observation"])


def test_a_tool_rejecting_its_input_is_input_invalid_with_its_message() -> None:
    out = run_one('{"tool": "get_weather", "args": {"city": "Atlantis"}}')
    error = out["error"]
    assert isinstance(error, dict) and error["kind"] == INPUT_INVALID and error["code"] == "rejected_by_tool"
    assert "no weather station in Atlantis" in str(out["observation"])


def test_a_tool_failure_is_tool_failed_with_the_tools_own_message() -> None:
    out = run_one('{"tool": "flaky", "args": {"mode": "down"}}')
    assert out["error"] == {
        "kind": TOOL_FAILED,
        "code": "failed",
        "message": "the weather service is down",
        "retryable": True,
    }


def test_an_unexpected_exception_shows_the_model_no_text_from_inside_the_tool() -> None:
    [result] = registry().run('{"tool": "flaky", "args": {"mode": "secret"}}')
    assert result.error is not None and (result.error.kind, result.error.code) == (TOOL_FAILED, "exception")
    shown = str(result.to_dict())
    assert "hunter2" not in shown and "secret.py" not in shown and "Traceback" not in shown
    assert "RuntimeError" in result.observation
    assert isinstance(result.exception, RuntimeError)  # kept for the developer's logs


def test_output_that_breaks_the_declared_output_model_is_a_tool_failure() -> None:
    out = run_one('{"tool": "get_weather", "args": {"city": "Broken"}}')
    error = out["error"]
    assert isinstance(error, dict) and (error["kind"], error["code"]) == (TOOL_FAILED, "bad_output")


def test_quota_exhausted_says_stop_and_the_remaining_calls_are_not_run() -> None:
    calls = '[{"tool": "flaky", "args": {"mode": "quota"}}, {"tool": "get_weather", "args": {"city": "Paris"}}]'
    first, second = registry().run(calls)
    assert first.stop and first.error is not None and first.error.kind == QUOTA_EXHAUSTED
    assert second.stop and second.status == "error" and second.observation.startswith("Not run:")


def test_the_core_quota_error_means_the_same() -> None:
    [result] = registry().run('{"tool": "flaky", "args": {"mode": "core_quota"}}')
    assert result.stop


def test_a_slow_tool_times_out_as_a_tool_failure() -> None:
    [result] = registry().run('{"tool": "slow", "args": {"seconds": 1}}')  # a timeout error, not "done"
    assert result.error is not None and (result.error.kind, result.error.code) == (TOOL_FAILED, "timeout")
    assert "0.2 s" in result.error.message


def test_a_timeout_given_to_run_overrides_the_tools_own() -> None:
    [result] = registry().run('{"tool": "slow", "args": {"seconds": 0.3}}', timeout=3.0)
    assert result.ok and result.data == "done"


def test_an_async_tool_is_cancelled_on_timeout() -> None:
    results = asyncio.run(registry().arun('{"tool": "aslow", "args": {"seconds": 5}}'))
    assert results[0].error is not None and results[0].error.code == "timeout"
    ok = asyncio.run(registry().arun('{"tool": "aslow", "args": {"seconds": 0.01}}'))
    assert ok[0].ok and ok[0].data == "done"


def test_an_async_tool_also_runs_from_the_sync_api() -> None:
    [result] = registry().run('{"tool": "aslow", "args": {"seconds": 0.01}}')
    assert result.ok and result.data == "done"


def test_a_tool_without_an_implementation_is_a_tool_failure() -> None:
    out = run_one('{"tool": "no_impl", "args": {"city": "x", "celsius": 1}}')
    error = out["error"]
    assert isinstance(error, dict) and (error["kind"], error["code"]) == (TOOL_FAILED, "not_executable")


def test_the_envelope_keeps_the_repairs_that_made_the_call_readable() -> None:
    out = run_one("{'tool': 'Get_Weather', 'args': {'city': 'Paris'}}")
    assert out["status"] == "ok"
    kinds = {r["kind"] for r in out["repairs"]}  # type: ignore[union-attr]
    assert {"single_quotes", "tool_name_style"} <= kinds
