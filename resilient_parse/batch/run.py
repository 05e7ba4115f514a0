"""`resilient-parse batch`: a file of records in, a file of results out, a progress bar, a summary, resume."""

from __future__ import annotations

import time
from dataclasses import dataclass

from resilient_parse.batch.files import count_records, open_writer, read_records, resume_jsonl
from resilient_parse.batch.job import RecordJob
from resilient_parse.batch.many import process_encoded
from resilient_parse.batch.progress import Progress
from resilient_parse.batch.summary import Summary


@dataclass(frozen=True)
class BatchRun:
    """What one run did: the summary covers the whole output, records kept from an earlier run included."""

    summary: Summary
    seconds: float
    resumed: int
    written: int


def run_batch(
    source: str,
    output: str,
    job: RecordJob,
    *,
    workers: int,
    chunksize: int = 64,
    timeout: float | None = None,
    resume: bool = False,
    progress: bool = True,
) -> BatchRun:
    """Parse every record of `source` into `output`, in order. With `resume`, the records an interrupted run
    already wrote are kept (and counted in the summary) and not parsed again."""
    summary = Summary()
    skip = resume_jsonl(output, summary.add) if resume else 0
    total = count_records(source) if progress else None
    writer = open_writer(output, append=skip > 0)
    bar = Progress(total, initial=skip, enabled=progress)
    started = time.monotonic()
    written = 0
    try:
        results = process_encoded(
            job, read_records(source, skip=skip), workers=workers, chunksize=chunksize, timeout=timeout, start=skip
        )
        for record in results:
            writer.write(record)
            summary.add_tally(record.tally)
            written += 1
            if written % chunksize == 0:
                writer.flush()
                bar.update(chunksize)
        bar.update(written % chunksize)
    finally:
        writer.close()
        bar.close()
    return BatchRun(summary, time.monotonic() - started, skip, written)
