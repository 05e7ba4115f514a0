"""Talking to a model: one module per provider, below the correction loop that uses them.

- `llm.base`: the `LLMAdapter` protocol, the SDK adapters' shared plumbing, usage and error classification;
- `llm.function` (a plain callable), `llm.openai`, `llm.anthropic`, `llm.litellm`, `llm.langchain` (a LangChain
  chat model, optional extra `langchain`);
- `llm.choose`: `as_adapter`, the adapter any `llm` object needs;
- `llm.types`: the `Completion` and `Usage` a call returns; `llm.tool_defs` and `llm.tool_followups`: the tools a
  request sends and the messages that answer a call.

Nothing here imports an SDK until an adapter has to build its own client. The public names are re-exported by
`resilient_parse.correction`.
"""
