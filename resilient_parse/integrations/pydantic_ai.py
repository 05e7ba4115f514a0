"""pydantic-ai drop-ins (optional extra: pydantic-ai-slim): repair what the model said before pydantic-ai asks it
again, and when no honest repair exists, ask again with our feedback.

    agent = Agent(model, output_type=GetWeather, capabilities=[ResilientOutput()])   # tool, native, prompted
    agent = Agent(model, output_type=text_output(Plan))                               # plain text

`ResilientOutput` is a capability (pydantic-ai's middleware for agent runs). Its `wrap_output_validate` hook lets
pydantic-ai validate first — a valid answer costs only a check for keys written twice (which pydantic-ai would read
as the last value: such text is read by our parser instead, which refuses two different values) — and only when
that fails with a `ValidationError` does it read the raw output (the tool call's argument text, or the answer's text
in native or prompted mode) with our parser: a repaired document goes back through pydantic-ai's own validation
(so output functions, unions and the other hooks see what they always see); an answer with no honest repair raises
`ModelRetry` with our feedback (JSON pointer paths, what was expected), which pydantic-ai sends to the model as its
retry prompt and counts against the output retries. The repair target is the output type when the model writes
its fields directly (a Pydantic model, dataclass or TypedDict), else the JSON Schema pydantic-ai advertised to the
model (its wrappers for scalar outputs, output-function arguments and unions included). Partial outputs while
streaming are left to pydantic-ai.

`text_output(target)` is the same for plain text output (`TextOutput`), where pydantic-ai runs no validation hooks.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, TypeVar

try:
    from pydantic_ai import ModelRetry, RunContext, TextOutput
    from pydantic_ai.capabilities import AbstractCapability, WrapOutputValidateHandler
    from pydantic_ai.output import OutputContext
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from resilient_parse.errors import ConfigurationError

    raise ConfigurationError(
        "the pydantic-ai integration needs pydantic-ai: pip install 'resilient-parse[pydantic-ai]'"
    ) from exc

from pydantic import BaseModel, ValidationError
from typing_extensions import is_typeddict

from resilient_parse.api import default_parser
from resilient_parse.errors import ParseError
from resilient_parse.llm.tool_followups import for_tool_calls
from resilient_parse.parser import Parser
from resilient_parse.stages.read_duplicates import has_duplicate_keys
from resilient_parse.targets import SchemaError, model_from_json_schema

T = TypeVar("T")


def _writes_fields(tp: Any) -> bool:
    """Whether the model writes this type's fields directly (no wrapper key): a model, dataclass or TypedDict."""
    return isinstance(tp, type) and (issubclass(tp, BaseModel) or dataclasses.is_dataclass(tp) or is_typeddict(tp))


def _feedback(parser: Parser, error: ParseError, target: Any, *, tool: bool = False) -> ModelRetry:
    """Our feedback as pydantic-ai's retry prompt; an answer given as a tool call is asked to call the tool again
    (pydantic-ai sends the prompt as that call's tool return), not to reply with JSON text."""
    feedback = parser.feedback(error, target)
    return ModelRetry(for_tool_calls(feedback, many=False) if tool else feedback)


@dataclass
class ResilientOutput(AbstractCapability[Any]):
    """Repairs structured output (tool arguments, native or prompted JSON) that pydantic-ai could not validate;
    raises `ModelRetry` with our feedback when nothing honest can be made of it. `mode`, `aliases` or a ready
    `parser` configure it (strict mode refuses every lossy repair)."""

    _: KW_ONLY
    mode: str = "lenient"
    aliases: Mapping[str, str] | None = None
    parser: Parser | None = None
    id: str | None = "resilient_output"
    _models: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """One model per advertised schema: the parser caches a plan per target, so a schema must keep its model."""

    def _use(self) -> Parser:
        return self.parser if self.parser is not None else default_parser(self.mode)

    def _target(self, output_context: OutputContext) -> Any:
        """What to repair the raw output into: the output type when the model writes its fields, else a model of
        the JSON Schema the model was shown; None when there is neither."""
        if not output_context.has_function and _writes_fields(output_context.output_type):
            return output_context.output_type
        if output_context.tool_def is not None:
            schema: Any = output_context.tool_def.parameters_json_schema
        elif output_context.object_def is not None:
            schema = output_context.object_def.json_schema
        else:
            return None
        key = json.dumps(schema, sort_keys=True, default=str)
        if key not in self._models:
            name = output_context.object_def.name if output_context.object_def is not None else None
            try:
                self._models[key] = model_from_json_schema(schema, name=name or "Output")
            except SchemaError:
                self._models[key] = None
        return self._models[key]

    def _repaired(self, raw: Any, output_context: OutputContext) -> str:
        """The raw output read by our parser, as clean JSON text for pydantic-ai to validate again."""
        target = self._target(output_context)
        if target is None:
            raise ModelRetry("The output is not valid for the requested format; answer again.")
        text = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)
        parser = self._use()
        try:
            value = parser.parse_result(text, target, aliases=self.aliases).value
        except ParseError as exc:
            raise _feedback(parser, exc, target, tool=output_context.tool_def is not None) from exc
        return parser.plan(target).adapter.dump_json(value, by_alias=True).decode()

    async def wrap_output_validate(
        self,
        ctx: RunContext[Any],
        *,
        output_context: OutputContext,
        output: Any,
        handler: WrapOutputValidateHandler,
    ) -> Any:
        if not ctx.partial_output and self._may_write_a_key_twice(output, output_context):
            return await handler(self._repaired(output, output_context))  # refused, or merged when the values agree
        try:
            return await handler(output)
        except ValidationError:
            if ctx.partial_output:
                raise
            repaired = self._repaired(output, output_context)
        return await handler(repaired)

    def _may_write_a_key_twice(self, output: Any, output_context: OutputContext) -> bool:
        """Whether raw output text may write a key twice in one object, which pydantic-ai's validation would read
        as the last value (`{"city": "Paris", "city": "Rome"}` as Rome): then our parser reads it instead, whose
        guard refuses two different values (`Policy.guard_duplicate_keys`, the same check). Decoded output (a
        dict) has no second value left to see."""
        return (
            isinstance(output, str)
            and self._use().policy.guard_duplicate_keys
            and has_duplicate_keys(output)
            and self._target(output_context) is not None
        )


def text_output(
    target: type[T], *, mode: str = "lenient", aliases: Mapping[str, str] | None = None, parser: Parser | None = None
) -> TextOutput[T]:
    """A `TextOutput` that parses the model's text into `target` with local repair, and raises `ModelRetry` with
    our feedback when it cannot."""
    use = parser if parser is not None else default_parser(mode)

    def read_answer(text: str) -> T:
        try:
            return use.parse_result(text, target, aliases=aliases).value
        except ParseError as exc:
            raise _feedback(use, exc, target) from exc

    read_answer.__doc__ = f"The answer, parsed into {getattr(target, '__name__', target)!s}."
    return TextOutput(read_answer)


__all__ = ["ResilientOutput", "text_output"]
