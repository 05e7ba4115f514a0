"""Recovering whole logs of model outputs: one result per record, in order, whatever happens to the record.

`parse_many` is the Python API; `run_batch` is `resilient-parse batch`; `RecordJob`/`RecordProcessor` are what
the engine integrations (`resilient_parse.integrations`) run on each partition. Nothing else in the library
imports this package.
"""

from resilient_parse.batch.job import RecordJob, RecordProcessor
from resilient_parse.batch.many import parse_many, process_encoded, process_records
from resilient_parse.batch.pool import RecordPool, default_workers
from resilient_parse.batch.recipe import ParserRecipe
from resilient_parse.batch.records import OUTCOMES, EncodedRecord, ErrorNote, Outcome, RecordResult, RepairNote, Tally
from resilient_parse.batch.run import BatchRun, run_batch
from resilient_parse.batch.summary import Summary

__all__ = [
    "OUTCOMES",
    "BatchRun",
    "EncodedRecord",
    "ErrorNote",
    "Outcome",
    "ParserRecipe",
    "RecordJob",
    "RecordPool",
    "RecordProcessor",
    "RecordResult",
    "RepairNote",
    "Summary",
    "Tally",
    "default_workers",
    "parse_many",
    "process_encoded",
    "process_records",
    "run_batch",
]
