"""OpenTelemetry spans for parses and correction loops, from the events observers already get (`rp_on_event`).

    from resilient_parse.integrations.otel import instrument
    instrument()                                      # parse(), parse_result() and correct() with default parsers
    Parser(plugins=[OpenTelemetryObserver()])         # or one parser of your own (pass it as correct(parser=...))

Spans: `resilient_parse.correct` for one `correct` call, a `resilient_parse.attempt` child per model call, and a
`resilient_parse.parse` per parse (a child of the attempt that made it, else of whatever span is current). They
carry target, mode, outcome, repair counts (total, lossy), error kinds, token usage (with whether it was estimated)
and the model's name — never text: no answer, candidate, message, error message or JSON path (paths hold keys the
model wrote). Install the `otel` extra (`opentelemetry-api`); spans go wherever the tracer provider sends them.

Why it works from events alone: a parse is reported when it ends, with its duration, so its span is made then with
the start time the duration gives; a correction and its attempts are opened by the loop's own events and kept in a
context variable, so threads and asyncio tasks never see each other's, and a parse finds the attempt it belongs to.
A correction that ends without its closing event (cancelled, or an exception raised from inside the loop) is ended
as "abandoned" when its call is garbage-collected, so it is exported instead of lost. Nothing here runs unless an
observer is registered: a parser without one pays nothing.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from resilient_parse.api import default_parser
from resilient_parse.parser import Parser, type_name
from resilient_parse.plugin_api import CallContext, Event, hookimpl

TRACER_NAME = "resilient_parse"
PARSE_SPAN = "resilient_parse.parse"
CORRECT_SPAN = "resilient_parse.correct"
ATTEMPT_SPAN = "resilient_parse.attempt"
_TERMINAL_ERRORS = frozenset({"llm_error", "quota_exhausted"})
"""An attempt that failed this way ends its `correct` call: the loop raises right after it."""

AttributeValue = str | bool | int | float | Sequence[str]


def _repair_counts(repairs: Any) -> dict[str, Any]:
    """Total and lossy repairs, from a count (parse events) or a list of repair dicts (attempt events)."""
    if isinstance(repairs, int) and not isinstance(repairs, bool):
        return {"resilient_parse.repairs": repairs}
    if not isinstance(repairs, Sequence):
        return {}
    items = [r for r in repairs if isinstance(r, Mapping)]
    return {
        "resilient_parse.repairs": len(items),
        "resilient_parse.repairs.lossy": sum(1 for r in items if not r.get("lossless", True)),
        "resilient_parse.repair_kinds": sorted({str(r["kind"]) for r in items if "kind" in r}),
    }


def _error_kinds(details: Any) -> list[str]:
    """The distinct kinds of a failure's details (the vocabulary, never their messages or paths)."""
    if not isinstance(details, Iterable) or isinstance(details, str | bytes | Mapping):
        return []
    kinds = {d.get("kind") if isinstance(d, Mapping) else getattr(d, "kind", None) for d in details}
    return sorted(k for k in kinds if isinstance(k, str))


def _usage(usage: Any) -> dict[str, Any]:
    if not isinstance(usage, Mapping):
        return {}
    return {
        "gen_ai.usage.input_tokens": usage.get("prompt_tokens"),
        "gen_ai.usage.output_tokens": usage.get("completion_tokens"),
        "resilient_parse.usage.estimated": usage.get("estimated"),
    }


def _clean(attributes: Mapping[str, Any]) -> dict[str, AttributeValue]:
    """Only the values OpenTelemetry accepts (None, empty lists and anything else dropped)."""
    out: dict[str, AttributeValue] = {}
    for key, value in attributes.items():
        if isinstance(value, str | bool | int | float):
            out[key] = value
        elif isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
            out[key] = list(value)
    return out


def _now_ns() -> int:
    return time.time_ns()


def _started_ns(end_ns: int, seconds: Any) -> int:
    """When something that took `seconds` and ended at `end_ns` began (at `end_ns` when the duration is unknown)."""
    if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > 0:
        return end_ns - int(seconds * 1e9)
    return end_ns


@dataclass(eq=False)
class _Correction:
    """One `correct` call's open spans, identified by the loop's own `CallContext` (held weakly)."""

    call: weakref.ref[CallContext]
    span: Span
    attempt: Span | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False
    closed: bool = False
    finalizer: Any = field(default=None, repr=False)

    def count(self, usage: Any) -> None:
        if isinstance(usage, Mapping):
            self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
            self.completion_tokens += int(usage.get("completion_tokens") or 0)
            self.estimated = self.estimated or bool(usage.get("estimated"))

    def close(self, status: Status | None = None, **attributes: Any) -> None:
        if self.closed:
            return
        self.closed = True
        if self.finalizer is not None:
            self.finalizer.detach()
        if self.attempt is not None:  # an attempt the loop left without reporting it
            self.attempt.set_status(Status(StatusCode.ERROR, "abandoned"))
            self.attempt.end()
            self.attempt = None
        self.span.set_attributes(
            _clean(
                {
                    "gen_ai.usage.input_tokens": self.prompt_tokens,
                    "gen_ai.usage.output_tokens": self.completion_tokens,
                    "resilient_parse.usage.estimated": self.estimated,
                    **attributes,
                }
            )
        )
        if status is not None:
            self.span.set_status(status)
        self.span.end()


def _abandon(state: _Correction) -> None:
    """The loop's context is gone without a closing event (cancelled, or an exception left the loop)."""
    state.finalizer = None
    state.close(Status(StatusCode.ERROR, "abandoned"), **{"resilient_parse.outcome": "abandoned"})


class OpenTelemetryObserver:
    """An `rp_on_event` observer that turns the parser's and the correction loop's events into spans."""

    rp_name = "otel"

    def __init__(self, tracer_provider: trace.TracerProvider | None = None) -> None:
        from resilient_parse import __version__

        self.tracer = trace.get_tracer(TRACER_NAME, __version__, tracer_provider=tracer_provider)
        # the corrections open in this thread or task, innermost last (one variable per observer)
        self._open: ContextVar[tuple[_Correction, ...]] = ContextVar(f"resilient_parse_otel_{id(self)}", default=())

    @hookimpl
    def rp_on_event(self, event: Event, ctx: CallContext | None) -> None:
        handler = getattr(self, f"_on_{event.name}", None)
        if handler is not None:
            handler(event.data, ctx)

    # -- parses ---------------------------------------------------------------------------------------------------

    def _parse_ended(self, data: Mapping[str, Any], ctx: CallContext | None, *, ok: bool) -> None:
        end = _now_ns()
        attributes: dict[str, Any] = {
            **self._call_attributes(data, ctx),
            "resilient_parse.outcome": "succeeded" if ok else "failed",
            "resilient_parse.source": data.get("source"),
            "resilient_parse.path": data.get("path"),
            **_repair_counts(data.get("repairs")),
        }
        if "lossy" in data:
            attributes["resilient_parse.repairs.lossy"] = data["lossy"]
        if not ok:
            attributes["error.type"] = data.get("kind")
            details = data.get("details")
            if isinstance(details, int):
                attributes["resilient_parse.errors"] = details
            else:
                attributes["resilient_parse.error_kinds"] = _error_kinds(details)
        span = self.tracer.start_span(
            PARSE_SPAN,
            context=self._parent(),
            kind=SpanKind.INTERNAL,
            attributes=_clean(attributes),
            start_time=_started_ns(end, data.get("duration_s")),
        )
        if not ok:
            span.set_status(Status(StatusCode.ERROR, str(data.get("kind") or "parse_failed")))
        span.end(end_time=end)

    def _on_parse_succeeded(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        self._parse_ended(data, ctx, ok=True)

    def _on_parse_failed(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        self._parse_ended(data, ctx, ok=False)

    # -- corrections ----------------------------------------------------------------------------------------------

    def _on_correction_started(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        if ctx is None:
            return
        attributes = {
            **self._call_attributes(data, ctx),
            "gen_ai.request.model": data.get("model"),
            "resilient_parse.max_corrections": data.get("max_corrections"),
            "resilient_parse.token_budget": data.get("token_budget"),
            "resilient_parse.fallbacks": data.get("fallbacks"),
            "resilient_parse.tools": data.get("tools"),
        }
        span = self.tracer.start_span(CORRECT_SPAN, kind=SpanKind.INTERNAL, attributes=_clean(attributes))
        state = _Correction(call=weakref.ref(ctx), span=span)
        state.finalizer = weakref.finalize(ctx, _abandon, state)
        state.finalizer.atexit = False  # at exit the exporters may be gone already
        self._open.set((*(s for s in self._open.get() if not s.closed), state))
        self._start_attempt(state, {})

    def _on_correction_requested(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        state = self._find(ctx)
        if state is not None:
            self._start_attempt(state, {"resilient_parse.feedback_errors": data.get("errors")})

    def _on_fallback_started(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        state = self._find(ctx)
        if state is not None:
            state.span.add_event(
                "fallback_started",
                _clean({"gen_ai.request.model": data.get("model"), "resilient_parse.position": data.get("position")}),
            )

    def _on_attempt_finished(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        end = _now_ns()
        state = self._find(ctx, closed_too=True)  # the on_exhausted default comes after corrections_exhausted
        live = state if state is not None and not state.closed else None
        span = live.attempt if live is not None else None
        if span is None:  # not opened by an event (that default, or a loop without correction_started)
            parent = trace.set_span_in_context(state.span) if state is not None else None
            span = self.tracer.start_span(
                ATTEMPT_SPAN, context=parent, start_time=_started_ns(end, data.get("latency_s"))
            )
        ok = bool(data.get("ok"))
        error_kind = data.get("error_kind")
        span.set_attributes(
            _clean(
                {
                    "resilient_parse.attempt.index": data.get("index"),
                    "resilient_parse.attempt.role": data.get("role"),
                    "resilient_parse.adapter": data.get("adapter"),
                    "gen_ai.response.model": data.get("model"),
                    "gen_ai.response.finish_reasons": [data["finish_reason"]]
                    if isinstance(data.get("finish_reason"), str)
                    else None,
                    "resilient_parse.latency_s": data.get("latency_s"),
                    "resilient_parse.outcome": "ok" if ok else "failed",
                    "error.type": None if ok else error_kind,
                    "resilient_parse.error_kinds": _error_kinds(data.get("errors")),
                    **_repair_counts(data.get("repairs")),
                    **_usage(data.get("usage")),
                }
            )
        )
        if not ok:
            span.set_status(Status(StatusCode.ERROR, str(error_kind or "attempt_failed")))
        span.end(end_time=end)
        if live is None:
            return
        live.attempt = None
        live.count(data.get("usage"))
        if error_kind in _TERMINAL_ERRORS:  # the loop raises next, without a closing event
            self._close(live, Status(StatusCode.ERROR, str(error_kind)), outcome=error_kind)

    def _on_correction_succeeded(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        state = self._find(ctx)
        if state is not None:
            self._close(
                state,
                None,
                outcome=data.get("outcome"),
                calls=data.get("calls"),
                corrections_used=data.get("corrections_used"),
            )

    def _on_corrections_exhausted(self, data: Mapping[str, Any], ctx: CallContext | None) -> None:
        state = self._find(ctx)
        if state is not None:
            reason = str(data.get("reason") or "exhausted")
            self._close(
                state,
                Status(StatusCode.ERROR, reason),
                outcome=data.get("outcome") or "exhausted",
                calls=data.get("calls"),
                **{"error.type": reason, "resilient_parse.stop_reason": reason},
            )

    # -- state ----------------------------------------------------------------------------------------------------

    def _start_attempt(self, state: _Correction, attributes: Mapping[str, Any]) -> None:
        if state.attempt is not None:  # the previous one was never reported: do not let it dangle
            state.attempt.set_status(Status(StatusCode.ERROR, "abandoned"))
            state.attempt.end()
        state.attempt = self.tracer.start_span(
            ATTEMPT_SPAN, context=trace.set_span_in_context(state.span), attributes=_clean(attributes)
        )

    def _close(self, state: _Correction, status: Status | None, **attributes: Any) -> None:
        # it stays in the variable (a parent for the on_exhausted default) until the next correction here starts
        state.close(status, **{f"resilient_parse.{k}" if "." not in k else k: v for k, v in attributes.items()})

    def _find(self, ctx: CallContext | None, *, closed_too: bool = False) -> _Correction | None:
        """The open (or just closed) correction whose loop context is `ctx`, in this thread or task."""
        if ctx is None:
            return None
        for state in reversed(self._open.get()):
            if (closed_too or not state.closed) and state.call() is ctx:
                return state
        return None

    def _parent(self) -> Any:
        """A parse's parent: the attempt in progress in this thread or task, else the current span."""
        for state in reversed(self._open.get()):
            if not state.closed and state.attempt is not None:
                return trace.set_span_in_context(state.attempt)
        return None

    @staticmethod
    def _call_attributes(data: Mapping[str, Any], ctx: CallContext | None) -> dict[str, Any]:
        target = data.get("target")
        if not isinstance(target, str):
            target = type_name(ctx.target) if ctx is not None else None
        mode = data.get("mode")
        if not isinstance(mode, str):
            mode = ctx.policy.name if ctx is not None else None
        return {"resilient_parse.target": target, "resilient_parse.mode": mode}


def _traced(parser: Parser) -> bool:
    return any(isinstance(p, OpenTelemetryObserver) for p in parser.host.pm.get_plugins())


def _add(parser: Parser, observer: OpenTelemetryObserver) -> None:
    """Add `observer` to a parser already built (the default parsers are built on first use)."""
    parser.host.add_observer(observer, name=f"{OpenTelemetryObserver.rp_name}-{id(observer)}")


def _remove(parser: Parser, observer: OpenTelemetryObserver) -> None:
    parser.host.remove_observer(observer)


def _defaults() -> tuple[Parser, ...]:
    return default_parser("lenient"), default_parser("strict")


def instrument(*parsers: Parser, tracer_provider: trace.TracerProvider | None = None) -> OpenTelemetryObserver:
    """Trace `parsers`, or with none given the default lenient and strict parsers that `parse`, `parse_result` and
    `correct` use (a parser built from another `Policy` is yours to pass). A parser that an `OpenTelemetryObserver`
    already traces is left as it is, so calling this twice does not double the spans. Returns the observer, for
    `uninstrument`."""
    observer = OpenTelemetryObserver(tracer_provider)
    for parser in parsers or _defaults():
        if not _traced(parser):
            _add(parser, observer)
    return observer


def uninstrument(observer: OpenTelemetryObserver, *parsers: Parser) -> None:
    """Stop tracing with `observer` (on the default parsers when none are given); a parser without any other
    observer goes back to paying nothing for events."""
    for parser in parsers or _defaults():
        _remove(parser, observer)


__all__ = [
    "ATTEMPT_SPAN",
    "CORRECT_SPAN",
    "PARSE_SPAN",
    "OpenTelemetryObserver",
    "instrument",
    "uninstrument",
]
