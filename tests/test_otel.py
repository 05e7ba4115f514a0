"""OpenTelemetry spans from the parser's and the correction loop's events, read back from the SDK's in-memory
exporter: names, parents, attributes, status — and never a piece of the model's text."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
from typing import Any, Literal

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode
from pydantic import BaseModel

from resilient_parse import ConfigurationError, ParseError, Parser, hookimpl
from resilient_parse.correction import Completion, ScriptedLLM, Usage, acorrect_result, correct_result
from resilient_parse.integrations.otel import (
    ATTEMPT_SPAN,
    CORRECT_SPAN,
    PARSE_SPAN,
    OpenTelemetryObserver,
    instrument,
    uninstrument,
)
from resilient_parse.plugin_api import Event

SECRET = "zebra-quartz-7781"
"""A word only the model's text holds: it must appear in no span, attribute or event."""


class Weather(BaseModel):
    city: str
    unit: Literal["celsius", "fahrenheit"]


GOOD = f'{{"city": "{SECRET}", "unit": "celsius"}}'
REPAIRED = f"Sure! ```json\n{{'city': '{SECRET}', 'unit': 'celsius',}}\n```"
BAD_UNIT = f'{{"city": "{SECRET}", "unit": "kelvin-{SECRET}"}}'
ASK = [{"role": "user", "content": f"Weather for {SECRET}?"}]


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def provider(exporter: InMemorySpanExporter) -> TracerProvider:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider


@pytest.fixture
def parser(provider: TracerProvider) -> Parser:
    return Parser(plugins=[OpenTelemetryObserver(provider)], entrypoints=False)


def spans(exporter: InMemorySpanExporter, name: str | None = None) -> list[ReadableSpan]:
    return [s for s in exporter.get_finished_spans() if name is None or s.name == name]


def parent_of(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent is not None else None


def span_id(span: ReadableSpan) -> int:
    assert span.context is not None
    return int(span.context.span_id)


def attrs(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


def assert_no_text(exporter: InMemorySpanExporter, *texts: str) -> None:
    """No span name, attribute, event or status of any exported span holds any of `texts`."""
    for span in spans(exporter):
        seen = [span.name, span.status.description or "", *(f"{k}={v!s}" for k, v in attrs(span).items())]
        for event in span.events:
            seen += [event.name, *(f"{k}={v!s}" for k, v in dict(event.attributes or {}).items())]
        for text in texts:
            assert not any(text in item for item in seen), (span.name, text)


# -- parses -----------------------------------------------------------------------------------------------------


def test_a_repaired_parse_is_one_span_with_its_repair_counts(parser: Parser, exporter: InMemorySpanExporter) -> None:
    result = parser.parse_result(REPAIRED, Weather)
    (span,) = spans(exporter)
    attributes = attrs(span)
    assert span.name == PARSE_SPAN
    assert attributes["resilient_parse.target"] == "Weather"
    assert attributes["resilient_parse.mode"] == "lenient"
    assert attributes["resilient_parse.outcome"] == "succeeded"
    assert attributes["resilient_parse.repairs"] == len(result.repairs) > 0
    assert attributes["resilient_parse.source"] in ("whole", "fence", "span")  # where the answer was, not what
    assert span.status.status_code is StatusCode.UNSET
    assert_no_text(exporter, SECRET)


def test_a_failing_parse_records_its_error_kind_and_status(parser: Parser, exporter: InMemorySpanExporter) -> None:
    with pytest.raises(ParseError) as caught:
        parser.parse_result(BAD_UNIT, Weather)
    (span,) = spans(exporter, PARSE_SPAN)
    attributes = attrs(span)
    assert attributes["resilient_parse.outcome"] == "failed"
    assert attributes["error.type"] == caught.value.kind
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == caught.value.kind
    assert_no_text(exporter, SECRET, "kelvin")


def test_a_parse_span_starts_duration_s_before_it_ends(parser: Parser, exporter: InMemorySpanExporter) -> None:
    ctx = parser.context(Weather)
    parser.host.emit("parse_succeeded", ctx, repairs=2, lossy=1, source="span", path="repair", duration_s=0.25)
    (span,) = spans(exporter)
    assert span.start_time is not None and span.end_time is not None
    assert span.end_time - span.start_time == 250_000_000
    attributes = attrs(span)
    assert (attributes["resilient_parse.repairs"], attributes["resilient_parse.repairs.lossy"]) == (2, 1)
    assert attributes["resilient_parse.path"] == "repair"


def test_the_events_own_target_and_mode_win_over_the_context(parser: Parser, exporter: InMemorySpanExporter) -> None:
    parser.host.emit("parse_failed", None, kind="no_candidate", target="Invoice", mode="strict", duration_s=0.001)
    attributes = attrs(spans(exporter)[0])
    assert (attributes["resilient_parse.target"], attributes["resilient_parse.mode"]) == ("Invoice", "strict")
    assert attributes["error.type"] == "no_candidate"


def test_failure_details_give_their_kinds_never_their_messages(parser: Parser, exporter: InMemorySpanExporter) -> None:
    details = [
        {"path": f"/{SECRET}", "kind": "enum_mismatch", "message": f"{SECRET} is not a unit"},
        {"path": "/unit", "kind": "missing", "message": "field required"},
    ]
    parser.host.emit("parse_failed", parser.context(Weather), kind="schema_mismatch", details=details)
    attributes = attrs(spans(exporter)[0])
    assert attributes["resilient_parse.error_kinds"] == ("enum_mismatch", "missing")
    assert_no_text(exporter, SECRET, "field required")


def test_a_parse_outside_a_correction_is_a_child_of_the_current_span(
    parser: Parser, provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    with provider.get_tracer("app").start_as_current_span("request") as outer:
        parser.parse_result(REPAIRED, Weather)
    (span,) = spans(exporter, PARSE_SPAN)
    assert parent_of(span) == outer.get_span_context().span_id


def test_concurrent_parses_in_threads_keep_their_own_parents(
    parser: Parser, provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    tracer = provider.get_tracer("app")
    barrier = threading.Barrier(4)
    outer_ids: dict[int, int] = {}

    def work(i: int) -> None:
        with tracer.start_as_current_span(f"request-{i}") as outer:
            outer_ids[i] = outer.get_span_context().span_id
            barrier.wait()
            for _ in range(5):
                parser.parse_result(REPAIRED.replace("celsius", "fahrenheit" if i % 2 else "celsius"), Weather)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    parses = spans(exporter, PARSE_SPAN)
    assert len(parses) == 20
    for i, outer_id in outer_ids.items():
        assert sum(1 for s in parses if parent_of(s) == outer_id) == 5, i


# -- corrections, as the loop reports them -----------------------------------------------------------------------


def loop_events(parser: Parser, ctx: Any, model: str = "m") -> None:
    """The events of one `correct` call whose first answer fails and whose correction succeeds."""
    emit = parser.host.emit
    emit("correction_started", ctx, target="Weather", mode="lenient")
    emit("parse_failed", parser.context(Weather), kind="schema_mismatch", duration_s=0.001)
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15, "estimated": False}
    lossy = {"kind": "enum_fuzzy", "path": f"/{SECRET}", "before": SECRET, "after": "x", "lossless": False}
    emit(
        "attempt_finished",
        ctx,
        index=0,
        role="initial",
        model=model,
        ok=False,
        error_kind="schema_mismatch",
        repairs=[lossy],
        usage=usage,
        latency_s=0.01,
        finish_reason="stop",
        note=f"said {SECRET}",
    )
    emit("correction_requested", ctx, model=model, round=1, errors=1)
    emit("parse_succeeded", parser.context(Weather), repairs=0, duration_s=0.001)
    estimated = {"prompt_tokens": 20, "completion_tokens": 7, "total_tokens": 27, "estimated": True}
    emit("attempt_finished", ctx, index=1, role="correction", model=model, ok=True, usage=estimated, latency_s=0.02)
    emit("correction_succeeded", ctx, outcome="corrected", calls=2, tokens=42, corrections_used=1)


def test_a_correction_is_the_parent_of_its_attempts_and_their_parses(
    parser: Parser, exporter: InMemorySpanExporter
) -> None:
    ctx = parser.context(Weather)
    loop_events(parser, ctx)
    (correction,) = spans(exporter, CORRECT_SPAN)
    attempts = spans(exporter, ATTEMPT_SPAN)
    parses = spans(exporter, PARSE_SPAN)
    assert len(attempts) == len(parses) == 2
    assert [parent_of(a) for a in attempts] == [span_id(correction)] * 2
    assert [parent_of(p) for p in parses] == [span_id(a) for a in attempts]
    assert_no_text(exporter, SECRET)


def test_attempt_spans_carry_model_tokens_repairs_and_error_kind(
    parser: Parser, exporter: InMemorySpanExporter
) -> None:
    loop_events(parser, parser.context(Weather), model="gpt-x")
    first, second = (attrs(a) for a in spans(exporter, ATTEMPT_SPAN))
    assert first["gen_ai.response.model"] == "gpt-x"
    assert (first["gen_ai.usage.input_tokens"], first["gen_ai.usage.output_tokens"]) == (10, 5)
    assert first["resilient_parse.usage.estimated"] is False
    assert (first["resilient_parse.repairs"], first["resilient_parse.repairs.lossy"]) == (1, 1)
    assert first["error.type"] == "schema_mismatch"
    assert second["resilient_parse.usage.estimated"] is True
    assert "error.type" not in second
    failed, succeeded = spans(exporter, ATTEMPT_SPAN)
    assert (failed.status.status_code, succeeded.status.status_code) == (StatusCode.ERROR, StatusCode.UNSET)


def test_the_correction_span_sums_tokens_and_names_its_outcome(parser: Parser, exporter: InMemorySpanExporter) -> None:
    loop_events(parser, parser.context(Weather))
    attributes = attrs(spans(exporter, CORRECT_SPAN)[0])
    assert attributes["resilient_parse.outcome"] == "corrected"
    assert (attributes["gen_ai.usage.input_tokens"], attributes["gen_ai.usage.output_tokens"]) == (30, 12)
    assert attributes["resilient_parse.usage.estimated"] is True
    assert (attributes["resilient_parse.calls"], attributes["resilient_parse.corrections_used"]) == (2, 1)
    assert (attributes["resilient_parse.target"], attributes["resilient_parse.mode"]) == ("Weather", "lenient")


def test_an_exhausted_correction_is_an_error_with_its_stop_reason(
    parser: Parser, exporter: InMemorySpanExporter
) -> None:
    ctx = parser.context(Weather)
    parser.host.emit("correction_started", ctx)
    parser.host.emit("attempt_finished", ctx, index=0, role="initial", ok=False, error_kind="schema_mismatch")
    parser.host.emit("corrections_exhausted", ctx, reason="repeated_errors", calls=1, tokens=0)
    (correction,) = spans(exporter, CORRECT_SPAN)
    assert correction.status.status_code is StatusCode.ERROR
    assert attrs(correction)["resilient_parse.stop_reason"] == "repeated_errors"


def test_the_on_exhausted_default_is_a_child_of_its_correction(parser: Parser, exporter: InMemorySpanExporter) -> None:
    ctx = parser.context(Weather)
    parser.host.emit("correction_started", ctx)
    parser.host.emit("attempt_finished", ctx, index=0, role="initial", ok=False, error_kind="schema_mismatch")
    parser.host.emit("corrections_exhausted", ctx, reason="max_corrections", calls=1, tokens=0)
    parser.host.emit("attempt_finished", ctx, index=1, role="default", model="on_exhausted", ok=True)
    (correction,) = spans(exporter, CORRECT_SPAN)
    default = spans(exporter, ATTEMPT_SPAN)[-1]
    assert attrs(default)["resilient_parse.attempt.role"] == "default"
    assert parent_of(default) == span_id(correction)


def test_a_correction_left_without_its_closing_event_is_ended_as_abandoned(
    parser: Parser, exporter: InMemorySpanExporter
) -> None:
    ctx = parser.context(Weather)
    parser.host.emit("correction_started", ctx)
    assert spans(exporter) == []
    del ctx
    gc.collect()
    correction = spans(exporter, CORRECT_SPAN)[0]
    assert correction.status.status_code is StatusCode.ERROR
    assert attrs(correction)["resilient_parse.outcome"] == "abandoned"
    assert spans(exporter, ATTEMPT_SPAN)[0].status.description == "abandoned"


def test_corrections_in_threads_keep_their_own_attempts_and_parses(
    parser: Parser, exporter: InMemorySpanExporter
) -> None:
    barrier = threading.Barrier(3)

    def work(i: int) -> None:
        ctx = parser.context(Weather)
        parser.host.emit("correction_started", ctx)
        barrier.wait()  # every correction is open before any parses
        parser.host.emit("parse_succeeded", parser.context(Weather), source=f"s{i}")
        barrier.wait()
        parser.host.emit("attempt_finished", ctx, index=0, role="initial", model=f"m{i}", ok=True)
        parser.host.emit("correction_succeeded", ctx, outcome="valid")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    by_id = {span_id(s): s for s in spans(exporter)}
    for parse in spans(exporter, PARSE_SPAN):
        attempt = by_id[parent_of(parse) or 0]
        source = attrs(parse)["resilient_parse.source"]
        assert attrs(attempt)["gen_ai.response.model"] == f"m{str(source)[1:]}"
        assert by_id[parent_of(attempt) or 0].name == CORRECT_SPAN


# -- the real loop -----------------------------------------------------------------------------------------------


def test_a_real_correction_gives_an_attempt_span_per_call(parser: Parser, exporter: InMemorySpanExporter) -> None:
    llm = ScriptedLLM([BAD_UNIT, GOOD], name="scripted-model")
    result = correct_result(llm, ASK, Weather, parser=parser)
    attempts = spans(exporter, ATTEMPT_SPAN)
    assert [attrs(a)["resilient_parse.attempt.role"] for a in attempts] == ["initial", "correction"]
    assert [attrs(a)["gen_ai.response.model"] for a in attempts] == ["scripted-model"] * 2
    tokens = sum(attrs(a)["gen_ai.usage.input_tokens"] for a in attempts)
    assert tokens == result.usage.prompt_tokens
    assert [a.status.status_code for a in attempts] == [StatusCode.ERROR, StatusCode.UNSET]
    assert_no_text(exporter, SECRET, "kelvin", "Weather for")


def test_an_estimated_usage_is_marked_on_the_attempt(parser: Parser, exporter: InMemorySpanExporter) -> None:
    correct_result(ScriptedLLM([GOOD], report_usage=False), ASK, Weather, parser=parser)
    (attempt,) = spans(exporter, ATTEMPT_SPAN)
    assert attrs(attempt)["resilient_parse.usage.estimated"] is True


def test_an_llm_error_ends_the_correction_it_interrupts(parser: Parser, exporter: InMemorySpanExporter) -> None:
    usage = Usage(prompt_tokens=3, completion_tokens=4)
    llm = ScriptedLLM([Completion(text=BAD_UNIT, usage=usage), ConnectionError(f"reset {SECRET}")])
    with pytest.raises(ConnectionError):
        correct_result(llm, ASK, Weather, parser=parser)
    (correction,) = spans(exporter, CORRECT_SPAN)
    attempts = spans(exporter, ATTEMPT_SPAN)
    assert [attrs(a).get("error.type") for a in attempts] == ["schema", "llm_error"]
    assert {parent_of(a) for a in attempts} == {span_id(correction)}
    assert (correction.status.status_code, attrs(correction)["resilient_parse.outcome"]) == (
        StatusCode.ERROR,
        "llm_error",
    )
    assert_no_text(exporter, SECRET, "reset")


def test_a_real_correction_is_the_parent_of_its_attempts_and_their_parses(
    parser: Parser, provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    with provider.get_tracer("app").start_as_current_span("request") as outer:
        correct_result(ScriptedLLM([BAD_UNIT, REPAIRED]), ASK, Weather, parser=parser)
    (correction,) = spans(exporter, CORRECT_SPAN)
    assert parent_of(correction) == outer.get_span_context().span_id
    assert attrs(correction)["resilient_parse.outcome"] == "corrected"
    assert (attrs(correction)["resilient_parse.target"], attrs(correction)["resilient_parse.mode"]) == (
        "Weather",
        "lenient",
    )
    attempts = {span_id(a): attrs(a)["resilient_parse.attempt.index"] for a in spans(exporter, ATTEMPT_SPAN)}
    assert {parent_of(a) for a in spans(exporter, ATTEMPT_SPAN)} == {span_id(correction)}
    outcomes = {(attempts[parent_of(p) or 0], attrs(p)["resilient_parse.outcome"]) for p in spans(exporter, PARSE_SPAN)}
    assert outcomes == {(0, "failed"), (1, "succeeded")}


class Paced(ScriptedLLM):
    """Answers only once every thread has asked (threads) or after letting the other tasks run (asyncio)."""

    def __init__(self, replies: list[str], name: str, barrier: threading.Barrier | None = None) -> None:
        super().__init__(replies, name=name)
        self.barrier = barrier

    def complete(self, messages: list[dict[str, str]]) -> Completion:
        assert self.barrier is not None
        self.barrier.wait()
        return super().complete(messages)

    async def acomplete(self, messages: list[dict[str, str]]) -> Completion:
        await asyncio.sleep(0.001)
        return await super().acomplete(messages)


def assert_each_correction_keeps_its_own(exporter: InMemorySpanExporter, count: int) -> None:
    """`count` corrections, each with its two attempts (of one model, its own) and each parse under one of them."""
    corrections = {span_id(c) for c in spans(exporter, CORRECT_SPAN)}
    assert len(corrections) == count
    attempts = {span_id(a): a for a in spans(exporter, ATTEMPT_SPAN)}
    models: dict[int, set[str]] = {}
    for attempt in attempts.values():
        models.setdefault(parent_of(attempt) or 0, set()).add(attrs(attempt)["gen_ai.response.model"])
    assert set(models) == corrections
    assert all(len(names) == 1 for names in models.values())
    assert len({name for names in models.values() for name in names}) == count
    assert all(parent_of(p) in attempts for p in spans(exporter, PARSE_SPAN))
    assert len(attempts) == 2 * count


def test_corrections_in_threads_keep_their_own_spans(parser: Parser, exporter: InMemorySpanExporter) -> None:
    barrier = threading.Barrier(3)
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            correct_result(Paced([BAD_UNIT, REPAIRED], f"m{i}", barrier), ASK, Weather, parser=parser)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert_each_correction_keeps_its_own(exporter, 3)


def test_async_corrections_in_tasks_keep_their_own_spans(parser: Parser, exporter: InMemorySpanExporter) -> None:
    async def all_of_them() -> None:
        await asyncio.gather(
            *(acorrect_result(Paced([BAD_UNIT, REPAIRED], f"m{i}"), ASK, Weather, parser=parser) for i in range(3))
        )

    asyncio.run(all_of_them())
    assert_each_correction_keeps_its_own(exporter, 3)


def test_a_cancelled_correction_is_exported_as_abandoned(parser: Parser, exporter: InMemorySpanExporter) -> None:
    async def slow(messages: Any) -> str:
        await asyncio.sleep(10)
        return GOOD

    async def cancel() -> None:
        with contextlib.suppress(asyncio.TimeoutError):  # not pytest.raises: it would keep the call alive
            await asyncio.wait_for(acorrect_result(slow, ASK, Weather, parser=parser), 0.01)

    asyncio.run(cancel())
    gc.collect()
    (correction,) = spans(exporter, CORRECT_SPAN)
    assert (correction.status.status_code, attrs(correction)["resilient_parse.outcome"]) == (
        StatusCode.ERROR,
        "abandoned",
    )


def test_a_correction_stopped_by_an_exception_leaves_no_parent_behind(
    parser: Parser, exporter: InMemorySpanExporter
) -> None:
    class NotAnAdapter:
        name = kind = "broken"

        def complete(self, messages: Any) -> Any:
            return 42  # not a Completion: the loop raises ConfigurationError, with no closing event

        async def acomplete(self, messages: Any) -> Any:
            return 42

    with contextlib.suppress(ConfigurationError):
        correct_result(NotAnAdapter(), ASK, Weather, parser=parser)
    gc.collect()
    parser.parse_result(REPAIRED, Weather)
    assert [s.status.description for s in spans(exporter) if s.name != PARSE_SPAN] == ["abandoned", "abandoned"]
    assert parent_of(spans(exporter, PARSE_SPAN)[0]) is None


def test_the_on_exhausted_default_is_an_attempt_under_its_correction(
    parser: Parser, exporter: InMemorySpanExporter
) -> None:
    fallback = Weather(city="x", unit="celsius")
    correct_result(ScriptedLLM([BAD_UNIT, BAD_UNIT]), ASK, Weather, parser=parser, on_exhausted=lambda _: fallback)
    (correction,) = spans(exporter, CORRECT_SPAN)
    roles = [attrs(a)["resilient_parse.attempt.role"] for a in spans(exporter, ATTEMPT_SPAN)]
    assert roles == ["initial", "correction", "default"]
    assert {parent_of(a) for a in spans(exporter, ATTEMPT_SPAN)} == {span_id(correction)}


def test_corrections_in_asyncio_tasks_keep_their_own_attempts(parser: Parser, exporter: InMemorySpanExporter) -> None:
    opened: list[int] = []

    async def one(i: int, all_open: asyncio.Event) -> None:
        ctx = parser.context(Weather)
        parser.host.emit("correction_started", ctx)
        opened.append(i)
        if len(opened) == 3:
            all_open.set()
        await all_open.wait()  # every correction is open before any attempt ends
        parser.host.emit("parse_succeeded", parser.context(Weather), source=f"s{i}")
        await asyncio.sleep(0)  # the others' parses come between this one's and its attempt's end
        parser.host.emit("attempt_finished", ctx, index=0, role="initial", model=f"m{i}", ok=True)
        parser.host.emit("correction_succeeded", ctx, outcome="valid")

    async def all_of_them() -> None:
        all_open = asyncio.Event()
        await asyncio.gather(*(one(i, all_open) for i in range(3)))

    asyncio.run(all_of_them())
    by_id = {span_id(s): s for s in spans(exporter)}
    corrections = {span_id(c) for c in spans(exporter, CORRECT_SPAN)}
    assert len(corrections) == 3
    attempts = spans(exporter, ATTEMPT_SPAN)
    assert {parent_of(a) for a in attempts} == corrections
    for parse in spans(exporter, PARSE_SPAN):
        attempt = by_id[parent_of(parse) or 0]
        assert attrs(attempt)["gen_ai.response.model"] == "m" + str(attrs(parse)["resilient_parse.source"])[1:]


# -- turning it on and off --------------------------------------------------------------------------------------


def test_a_parser_without_the_observer_observes_nothing() -> None:
    assert Parser(entrypoints=False).host.observed is False


def test_instrument_traces_given_parsers_and_uninstrument_restores_them(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    plain = Parser(entrypoints=False)
    observer = instrument(plain, tracer_provider=provider)
    assert plain.host.observed is True
    plain.parse_result(REPAIRED, Weather)
    uninstrument(observer, plain)
    assert plain.host.observed is False
    plain.parse_result(REPAIRED, Weather)
    assert len(spans(exporter, PARSE_SPAN)) == 1


def test_instrument_without_parsers_traces_the_module_level_parse(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    from resilient_parse import parse_result

    observer = instrument(tracer_provider=provider)
    try:
        parse_result(REPAIRED, Weather)
    finally:
        uninstrument(observer)
    assert len(spans(exporter, PARSE_SPAN)) == 1


def test_instrument_twice_does_not_double_the_spans(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    plain = Parser(entrypoints=False)
    first = instrument(plain, tracer_provider=provider)
    second = instrument(plain, tracer_provider=provider)
    plain.parse_result(REPAIRED, Weather)
    uninstrument(first, plain)
    uninstrument(second, plain)
    assert len(spans(exporter, PARSE_SPAN)) == 1
    assert plain.host.observed is False


def test_uninstrument_keeps_the_parsers_other_observers(provider: TracerProvider) -> None:
    class Counter:
        @hookimpl
        def rp_on_event(self, event: Event, ctx: Any) -> None:
            pass

    plain = Parser(plugins=[Counter()], entrypoints=False)
    uninstrument(instrument(plain, tracer_provider=provider), plain)
    assert plain.host.observed is True


def test_a_parse_failed_count_of_details_is_recorded_as_a_count(parser: Parser, exporter: InMemorySpanExporter) -> None:
    parser.host.emit("parse_failed", None, kind="schema", details=3, repairs=1, duration_s=0.001)
    attributes = attrs(spans(exporter)[0])
    assert (attributes["resilient_parse.errors"], attributes["resilient_parse.repairs"]) == (3, 1)


def test_a_correction_names_its_target_as_the_parse_events_do(parser: Parser, exporter: InMemorySpanExporter) -> None:
    ctx = parser.context(list[Weather] | None)
    parser.host.emit("correction_started", ctx)
    parser.host.emit("correction_succeeded", ctx, outcome="valid")
    assert attrs(spans(exporter, CORRECT_SPAN)[0])["resilient_parse.target"] == "list[Weather] | None"


def test_only_an_observer_can_join_a_parser_already_built() -> None:
    """A plugin with parsing hooks added after plans are cached would parse differently from what the parser
    promised; the host takes observers only, and removing the last one turns events off again."""
    from resilient_parse import Parser
    from resilient_parse.plugin_api import PluginError

    parser = Parser(entrypoints=False)

    class Aliases:
        def rp_register_aliases(self, register: object, policy: object) -> None:
            return None

        def rp_on_event(self, event: object, ctx: object) -> None:
            return None

    with pytest.raises(PluginError, match="not an observer"):
        parser.host.add_observer(Aliases())
    observer = OpenTelemetryObserver()
    parser.host.add_observer(observer, name="tracing")
    assert parser.host.observed
    parser.host.remove_observer(observer)
    assert not parser.host.observed


def test_event_logging_never_carries_the_models_text(caplog: pytest.LogCaptureFixture) -> None:
    """An attempt's repairs hold pieces of the answer (before/after); the host logs an event's name, not its data."""
    import logging

    from pydantic import BaseModel

    from resilient_parse import Parser, hookimpl
    from resilient_parse.correction import ScriptedLLM, correct_result

    class Quiet:
        @hookimpl
        def rp_on_event(self, event: object, ctx: object) -> None:
            return None

    class Note(BaseModel):
        text: str

    parser = Parser(plugins=[Quiet()], entrypoints=False)
    llm = ScriptedLLM(["{'text': 'secret_marker_word',}"])
    with caplog.at_level(logging.DEBUG, logger="resilient_parse"):
        result = correct_result(llm, [{"role": "user", "content": "?"}], Note, parser=parser)
    assert result.value.text == "secret_marker_word" and result.repairs
    assert any("attempt_finished" in r.getMessage() for r in caplog.records)
    assert not any("secret_marker_word" in r.getMessage() for r in caplog.records)
