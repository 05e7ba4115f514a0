"""resilient_parse inside the frameworks around it, each behind its own extra and imported only when used.

- Batch engines: Dask (`integrations.dask`) and Spark's `mapInPandas` (`integrations.spark`); each runs
  `resilient_parse.batch`'s `RecordProcessor` on a partition at a time (`[dask]`, `[spark]`).
- Tracing: OpenTelemetry spans from the parser's events (`integrations.otel`, `[otel]`).
- Agent frameworks: pydantic-ai (`integrations.pydantic_ai`, `[pydantic-ai]`); LangChain's output parser
  (`integrations.langchain`, `[langchain]`).
"""
