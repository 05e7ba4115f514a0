"""A process pool that gives every record a result, in order, even when a record hangs or kills its worker.

`concurrent.futures` and `multiprocessing.Pool` cannot do this: a dead worker breaks the whole executor, and a
hung task cannot be stopped. Here each worker takes a chunk of records over its own pipe and, before each record,
writes the record's position and start time into a small shared array. The parent watches both: a worker that
dies (the pipe closes) loses only the record it was on, which becomes `crashed`; a worker whose current record
runs past the timeout is killed, and that record becomes `timeout`. Either way the worker is replaced and the
rest of its chunk — the records before the lost one too, whose results died with the worker — is sent again.

Workers start from a fork server that has imported the parser and parsed one prose answer (`warm`: what the
library builds on first use is built once; spawn where there is no fork server), so replacing a worker costs
milliseconds, a record's timeout is spent on the record, and a worker never inherits the parent's threads.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, Literal

from resilient_parse.batch.job import RecordJob, RecordProcessor
from resilient_parse.batch.records import EncodedRecord, RecordResult, encode, lost
from resilient_parse.errors import ConfigurationError

Entry = tuple[int, Any]
"""A record and its position in the input."""

_IDLE = 0.0
_READY = "ready"
_FAILED = "failed"
_MAX_UNBLAMED_RETRIES = 2
_START_TIMEOUT_S = 120.0


def _context() -> Any:
    """The fork server where the platform has one (fast, thread-safe starts, every worker warm: see `warm`),
    else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["resilient_parse.batch.pool", "resilient_parse.batch.warm"])
        return ctx
    return multiprocessing.get_context("spawn")


def _worker_main(conn: multiprocessing.connection.Connection, state: Any) -> None:
    """A worker: take this process's import path and the job, build the processor, then parse chunks until told
    to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        sys.path[:0] = [path for path in conn.recv() if path not in sys.path]  # before the job's classes load
        job, encoded = conn.recv()
        processor = RecordProcessor(job)
    except Exception as exc:
        conn.send((_FAILED, f"{type(exc).__name__}: {exc}"))
        return
    conn.send((_READY, time.process_time()))
    while True:
        message = conn.recv()
        if message is None:
            return
        chunk_id, entries = message
        results: list[RecordResult | EncodedRecord] = []
        for position, (index, item) in enumerate(entries):
            state[0], state[1] = position, time.monotonic()
            result = processor.process(index, item)
            results.append(encode(result) if encoded else result)
        state[0], state[1] = len(entries), _IDLE
        conn.send((chunk_id, (results, time.process_time())))


@dataclass
class _Worker:
    process: Any
    conn: multiprocessing.connection.Connection
    state: Any
    ready: bool = False
    chunk: list[Entry] | None = None
    chunk_id: int = -1
    cpu_seconds: float = 0.0
    """The worker's CPU time at its last reply (its start-up included)."""


class RecordPool:
    """`workers` processes parsing records for one `RecordJob`; `imap` yields one result per record, in order.

    `timeout` is per record, in seconds (None: wait for ever). Use as a context manager, or call `close()`."""

    def __init__(
        self,
        job: RecordJob,
        workers: int,
        *,
        chunksize: int = 64,
        timeout: float | None = None,
        encoded: bool = False,
    ) -> None:
        if workers < 1 or chunksize < 1:
            raise ConfigurationError("a pool needs at least one worker and a chunk size of at least 1")
        if timeout is not None and timeout <= 0:
            raise ConfigurationError("the per-record timeout must be positive")
        self.job, self.chunksize, self.timeout, self.encoded = job, chunksize, timeout, encoded
        self._ctx = _context()
        self._chunks = 0
        self._workers = [self._start() for _ in range(workers)]
        self._retired_cpu = 0.0
        self.replaced = 0
        """How many workers were killed or died and were replaced."""

    @property
    def worker_cpu_seconds(self) -> float:
        """CPU time the workers reported so far, replaced workers included (up to their last reply)."""
        return self._retired_cpu + sum(w.cpu_seconds for w in self._workers)

    # -- workers -----------------------------------------------------------------------------------------------

    def _start(self) -> _Worker:
        parent_end, child_end = self._ctx.Pipe()
        state = self._ctx.RawArray("d", 2)
        process = self._ctx.Process(target=_worker_main, args=(child_end, state), daemon=True)
        process.start()
        child_end.close()  # so the parent's end sees EOF when the worker dies
        try:
            parent_end.send(sys.path)
            parent_end.send((self.job, self.encoded))
        except Exception as exc:
            process.kill()
            raise ConfigurationError(f"the job cannot travel to worker processes (it must pickle): {exc}") from exc
        return _Worker(process, parent_end, state)

    def _stop(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.conn.close()

    def close(self) -> None:
        """Ask every worker to stop; kill those that do not within a second."""
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        deadline = time.monotonic() + 1.0
        for worker in self._workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            self._stop(worker)
            self._retired_cpu += worker.cpu_seconds
        self._workers = []

    def __enter__(self) -> RecordPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the run -----------------------------------------------------------------------------------------------

    def imap(self, items: Iterable[Any], start: int = 0) -> Iterator[Any]:
        """One result per item, in input order, numbered from `start`: a `RecordResult`, or with `encoded` an
        `EncodedRecord`."""
        source = iter(enumerate(items, start))
        again: deque[Entry] = deque()  # records to send again after a lost worker; they go first
        done: dict[int, Any] = {}
        unblamed: dict[int, int] = {}
        next_index = start
        exhausted = False
        max_buffered = 16 * self.chunksize * len(self._workers)
        while True:
            for worker in self._workers:
                if worker.chunk is None and (again or (not exhausted and len(done) < max_buffered)):
                    chunk = [again.popleft() for _ in range(min(len(again), self.chunksize))]
                    if not chunk:
                        chunk = list(islice(source, self.chunksize))
                        exhausted = len(chunk) < self.chunksize
                    if chunk:
                        self._send(worker, chunk)
            while next_index in done:
                yield done.pop(next_index)
                next_index += 1
            busy = [w for w in self._workers if w.chunk is not None]
            if not busy:
                if exhausted and not again:
                    return
                continue
            waitables = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            multiprocessing.connection.wait(waitables, self._wait_seconds(busy))
            for worker in busy:
                self._collect(worker, done, again, unblamed)

    def _send(self, worker: _Worker, chunk: list[Entry]) -> None:
        self._chunks += 1
        worker.chunk, worker.chunk_id = chunk, self._chunks
        worker.state[0], worker.state[1] = 0, _IDLE
        worker.conn.send((worker.chunk_id, chunk))

    def _wait_seconds(self, busy: list[_Worker]) -> float | None:
        if self.timeout is None:
            return None
        now = time.monotonic()
        started = [float(w.state[1]) for w in busy if w.ready and w.state[1] != _IDLE]
        if not started:
            return self.timeout
        return max(0.005, min(started) + self.timeout - now)

    def _collect(self, worker: _Worker, done: dict[int, Any], again: deque[Entry], unblamed: dict[int, int]) -> None:
        """Take what a worker sent; handle its death or its hung record."""
        try:
            while worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == _READY:
                    worker.ready, worker.cpu_seconds = True, payload
                elif kind == _FAILED:
                    raise ConfigurationError(f"a worker could not start: {payload}")
                elif kind == worker.chunk_id:
                    results, worker.cpu_seconds = payload
                    done.update(zip((index for index, _ in worker.chunk or ()), results))
                    worker.chunk = None
        except (EOFError, OSError):
            self._replace(worker, "crashed", done, again, unblamed)
            return
        if worker.chunk is None:
            return
        if not worker.process.is_alive():
            self._replace(worker, "crashed", done, again, unblamed)
        elif self.timeout is not None and self._overdue(worker):
            worker.process.kill()
            worker.process.join()
            self._replace(worker, "timeout", done, again, unblamed)

    def _lost(self, index: int, outcome: Literal["timeout", "crashed"], message: str, item: Any) -> Any:
        result = lost(index, outcome, message, self.job.record_id(item))
        return encode(result) if self.encoded else result

    def _overdue(self, worker: _Worker) -> bool:
        started: float = worker.state[1]
        return started != _IDLE and self.timeout is not None and time.monotonic() - started > self.timeout

    def _replace(
        self,
        worker: _Worker,
        why: str,
        done: dict[int, Any],
        again: deque[Entry],
        unblamed: dict[int, int],
    ) -> None:
        """A worker was lost with its chunk: blame the record it was on, send the others again, start another."""
        if not worker.ready:
            self._stop(worker)
            raise ConfigurationError(
                f"a worker process died while starting (exit code {worker.process.exitcode}); its error is above"
            )
        chunk = worker.chunk or []
        position = int(worker.state[0])
        innocent = why == "timeout" and not self._overdue(worker)  # it moved on just before the kill
        self._stop(worker)
        blamed: Entry | None = None
        if position < len(chunk) and not innocent:
            blamed = chunk[position]
        elif chunk:  # lost between records: try the chunk again, but not for ever
            first = chunk[0][0]
            unblamed[first] = unblamed.get(first, 0) + 1
            if unblamed[first] > _MAX_UNBLAMED_RETRIES:
                for index, item in chunk:
                    done[index] = self._lost(index, "crashed", "the worker died between records", item)
                chunk = []
        if blamed is not None:
            index, item = blamed
            if why == "timeout":
                message = f"no result within {self.timeout:g} s; the worker was killed and replaced"
            else:
                message = f"the worker died on this record (exit code {worker.process.exitcode}) and was replaced"
            done[index] = self._lost(index, "timeout" if why == "timeout" else "crashed", message, item)
        again.extendleft(reversed([entry for entry in chunk if entry is not blamed]))
        self._retired_cpu += worker.cpu_seconds
        self.replaced += 1
        self._workers[self._workers.index(worker)] = self._start()


def default_workers() -> int:
    """The CPU count this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
