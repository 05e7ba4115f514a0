"""The streamed answer handed to the correction loop as the model's first reply."""

from __future__ import annotations

from typing import Any


class _Replay:
    """An LLM adapter whose first reply is the answer already streamed; later calls go to the real model."""

    def __init__(self, text: str, llm: Any) -> None:
        self.first: str | None = text
        self.llm = llm
        self.name = getattr(llm, "name", "llm")

    def complete(self, messages: Any) -> Any:
        if self.first is not None:
            return self._replayed()
        return self.llm.complete(messages)

    async def acomplete(self, messages: Any) -> Any:
        if self.first is not None:
            return self._replayed()
        return await self.llm.acomplete(messages)

    def _replayed(self) -> Any:
        from resilient_parse.correction.types import Completion

        text, self.first = self.first, None
        return Completion(text=text or "", model=self.name)
