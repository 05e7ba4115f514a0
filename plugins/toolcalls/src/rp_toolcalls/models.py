"""Tool calls as a parse target: `Parser().parse(text, ToolCall)` (or `list[ToolCall]`) reads a call written in
any vendor format, because the toolcalls plugin offers each call it recognises as a normalised candidate."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field, create_model


class ToolCall(BaseModel):
    """One call: the tool's name and its arguments (validated against the tool's model by the registry)."""

    name: str = Field(min_length=1, description="The name of a registered tool")
    arguments: dict[str, Any] = Field(default_factory=dict, description="The tool's arguments")
    id: str | None = Field(default=None, description="The call id the model gave, if any")


@lru_cache(maxsize=64)
def _call_model(names: tuple[str, ...]) -> type[ToolCall]:
    tool_names: Any = Literal.__getitem__(names)
    model: type[ToolCall] = create_model(
        "ToolCall",
        __base__=ToolCall,
        __module__=__name__,
        name=(tool_names, Field(description="The name of a registered tool")),
    )
    return model


def call_model(names: Iterable[str]) -> type[ToolCall]:
    """A `ToolCall` subclass whose name must be one of `names`: the schema lists them, Pydantic rejects others,
    and the plugin repairs a near miss (case, separators, a typo with a clear margin)."""
    key = tuple(sorted(set(names)))
    if not key:
        from resilient_parse import ConfigurationError

        raise ConfigurationError("call_model needs at least one tool name")
    return _call_model(key)
