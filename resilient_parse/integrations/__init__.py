"""Parsing inside the engines batch LLM pipelines run on: Dask (`integrations.dask`) and Spark's `mapInPandas`
(`integrations.spark`). Each runs `resilient_parse.batch`'s `RecordProcessor` on a partition at a time; a worker
process builds one processor per job and keeps it. Install the engine with the extra: `[dask]`, `[spark]`.
"""
