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

    @property
    def hint(self) -> str | None:
        """One line for stderr when most records failed the same way (`Summary.problem`), else None."""
        problem = self.summary.problem()
        return None if problem is None else problem.line

    @property
    def exit_code(self) -> int:
        """2 when most records are invalid for one reason — the run was set up wrong (a `--text-field` the
        records do not have, no target, input that is not JSONL): bad usage, as the command's exit codes say.
        Else 0: every record has its result in the output, refused ones included."""
        problem = self.summary.problem()
        return 2 if problem is not None and problem.usage else 0


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
