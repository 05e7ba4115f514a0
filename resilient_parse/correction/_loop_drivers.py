"""The sync and async drivers of the correction loop: the one place its requests are made, outside the loop."""

from __future__ import annotations

import contextlib
import inspect
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from resilient_parse.correction._loop_protocol import Engine, _Callback, _message, _Raised, _Reply
from resilient_parse.correction.types import CorrectionResult
from resilient_parse.errors import ConfigurationError

if TYPE_CHECKING:
    pass


@contextlib.contextmanager
def _closing(engine: Engine) -> Iterator[None]:
    """Close the loop's generator however the driver leaves, so it never outlives its call half-run."""
    try:
        yield
    finally:
        engine.close()


def _drive(engine: Engine) -> CorrectionResult[Any]:
    with _closing(engine):
        return _run_sync(engine)


def _run_sync(engine: Engine) -> CorrectionResult[Any]:
    """Answer the loop's requests until it returns; the llm's own exception leaves as it is (see `_Raised`)."""
    try:
        request = next(engine)
        while True:
            if isinstance(request, _Callback):
                try:
                    value = request.fn(request.error)
                    if inspect.isawaitable(value):
                        if inspect.iscoroutine(value):
                            value.close()
                        raise ConfigurationError("on_exhausted is async; use acorrect() with it")
                    reply = _Reply(value=value)
                except ConfigurationError:
                    raise
                except Exception as exc:
                    reply = _Reply(error=exc)
            else:
                started = time.perf_counter()
                try:
                    reply = _Reply(value=request.adapter.complete(request.messages))
                except ConfigurationError:
                    raise
                except Exception as exc:
                    reply = _Reply(error=exc)
                reply = _Reply(reply.value, reply.error, time.perf_counter() - started)
            request = engine.send(reply)
    except StopIteration as stop:
        result: CorrectionResult[Any] = stop.value
        return result
    except _Raised as raised:
        error = raised.error
    raise error  # outside the handler: the error keeps its own __context__, not the _Raised carrying it


async def _adrive(engine: Engine) -> CorrectionResult[Any]:
    with _closing(engine):
        return await _run_async(engine)


async def _run_async(engine: Engine) -> CorrectionResult[Any]:
    try:
        request = next(engine)
        while True:
            if isinstance(request, _Callback):
                try:
                    value = request.fn(request.error)
                    if inspect.isawaitable(value):
                        value = await value
                    reply = _Reply(value=value)
                except ConfigurationError:
                    raise
                except Exception as exc:
                    reply = _Reply(error=exc)
            else:
                started = time.perf_counter()
                try:
                    reply = _Reply(value=await request.adapter.acomplete(request.messages))
                except ConfigurationError:
                    raise
                except Exception as exc:
                    reply = _Reply(error=exc)
                reply = _Reply(reply.value, reply.error, time.perf_counter() - started)
            request = engine.send(reply)
    except StopIteration as stop:
        result: CorrectionResult[Any] = stop.value
        return result
    except _Raised as raised:
        error = raised.error
    if isinstance(error, StopIteration):
        # a coroutine cannot raise StopIteration (PEP 479): Python would raise a bare RuntimeError without the
        # attempts; this one says why and keeps them, with the llm's error as its cause
        wrapped = RuntimeError(f"the llm raised StopIteration, which a coroutine cannot raise: {_message(error)}")
        with contextlib.suppress(Exception):
            wrapped.attempts = getattr(error, "attempts", ())  # type: ignore[attr-defined]
        for note in getattr(error, "__notes__", ()):
            add_note = getattr(wrapped, "add_note", None)  # Python 3.11+
            if callable(add_note):
                add_note(note)
        raise wrapped from error
    raise error  # outside the handler: the error keeps its own __context__, not the _Raised carrying it
