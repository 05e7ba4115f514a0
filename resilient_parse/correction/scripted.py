"""A scripted fake LLM for tests, examples and benchmarks: it answers from a list and remembers what it was asked.

It is a full adapter (sync `complete` and async `acomplete`), so the same script drives `correct` and `acorrect`.
Usage is reported by counting word and punctuation tokens (`\\w+|[^\\w\\s]`), which is close enough to a real
tokenizer for budgets and benchmark figures.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from resilient_parse.correction.types import Completion, Usage
from resilient_parse.llm.tool_followups import anthropic_tool_followup, openai_tool_followup, text_followup

_TOKEN = re.compile(r"\w+|[^\w\s]")

Reply = str | Completion | Exception


def count_tokens(text: str) -> int:
    """Word and punctuation tokens: a cheap stand-in for a tokenizer."""
    return len(_TOKEN.findall(text))


class ScriptExhaustedError(AssertionError):
    """The code under test called the scripted LLM more often than the script allows."""


class ScriptedLLM:
    """Answers with `replies` in order (an `Exception` in the script is raised instead of answering).

    `calls` holds a deep copy of the messages of every call, so tests can check exactly what the model saw.
    `tool_shape` says how a re-ask answers a reply's tool calls (as OpenAI or Anthropic want; by default as text).
    """

    kind = "scripted"

    def __init__(
        self,
        replies: Iterable[Reply],
        *,
        name: str = "scripted",
        report_usage: bool = True,
        tool_shape: Literal["openai", "anthropic"] | None = None,
    ) -> None:
        self.replies: list[Reply] = list(replies)
        self.name = name
        self.model = name
        self.report_usage = report_usage
        self.tool_shape = tool_shape
        self.calls: list[list[dict[str, Any]]] = []

    def __repr__(self) -> str:
        return f"ScriptedLLM({self.name!r}, {len(self.calls)}/{len(self.replies)} replies used)"

    @property
    def remaining(self) -> int:
        return len(self.replies) - len(self.calls)

    def _next(self, messages: Sequence[Mapping[str, Any]]) -> Completion:
        if len(self.calls) >= len(self.replies):
            raise ScriptExhaustedError(
                f"{self.name}: call {len(self.calls) + 1}, but the script has only {len(self.replies)} replies"
            )
        self.calls.append(copy.deepcopy([dict(m) for m in messages]))
        reply = self.replies[len(self.calls) - 1]
        if isinstance(reply, Exception):
            raise reply
        if isinstance(reply, Completion):
            return reply
        usage = None
        if self.report_usage:
            prompt = sum(count_tokens(str(m.get("content", ""))) + 4 for m in messages)
            usage = Usage(prompt_tokens=prompt, completion_tokens=count_tokens(reply))
        return Completion(text=reply, model=self.name, usage=usage)

    def followup(self, completion: Completion, shown: str | None, feedback: str) -> list[dict[str, Any]]:
        """The re-ask after `completion`, in the API shape the script plays (see `tool_shape`)."""
        if completion.tool_calls and self.tool_shape == "openai":
            return openai_tool_followup(completion.tool_calls, feedback, completion.text)
        if completion.tool_calls and self.tool_shape == "anthropic":
            return anthropic_tool_followup(completion.tool_calls, feedback, completion.text)
        return text_followup(shown, feedback)

    def complete(self, messages: list[dict[str, str]]) -> Completion:
        return self._next(messages)

    async def acomplete(self, messages: list[dict[str, str]]) -> Completion:
        return self._next(messages)

    def __call__(self, messages: list[dict[str, str]]) -> str:
        """Use it as a plain function too (returns just the text)."""
        return self._next(messages).text
