"""Which adapter an `llm` needs: adapters pass through, a LangChain chat model gets `ChatModelAdapter`, a LangChain
runnable or any other callable a `FunctionAdapter`; an SDK client is refused with a hint (it needs a model).
LangChain objects are recognised without importing LangChain (`sys.modules`), so a plain install stays light."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, cast

from resilient_parse.errors import ConfigurationError
from resilient_parse.llm.base import LLMAdapter
from resilient_parse.llm.function import FunctionAdapter
from resilient_parse.llm.tool_defs import ToolSpec
from resilient_parse.llm.types import Messages


def _langchain_model(llm: Any) -> Any:
    """The LangChain chat model `llm` is, or whose `invoke`/`ainvoke` it is — a `BaseChatModel`, or a
    `RunnableBinding` of one (`chat_model.bind_tools([...])`); None otherwise. Any other runnable (a chain ending in
    `StrOutputParser`, a `RunnableLambda`) is a plain function of the messages (`_runnable_function`).

    Recognised by type wherever the class was written — a user's subclass, a provider package — and only when
    langchain_core is already imported (a LangChain object cannot exist without it, so nothing is imported)."""
    chat = getattr(sys.modules.get("langchain_core.language_models.chat_models"), "BaseChatModel", None)
    if not isinstance(chat, type):
        return None
    owner = _invoke_owner(llm)
    if isinstance(owner, chat):
        return owner
    binding = getattr(sys.modules.get("langchain_core.runnables.base"), "RunnableBinding", None)
    if isinstance(binding, type) and isinstance(owner, binding) and isinstance(getattr(owner, "bound", None), chat):
        return owner
    return None


def _invoke_owner(llm: Any) -> Any:
    return getattr(llm, "__self__", None) if getattr(llm, "__name__", "") in ("invoke", "ainvoke") else llm


def _runnable_function(llm: Any) -> Callable[[Messages], Any] | None:
    """A LangChain runnable that is no chat model, passed itself: its `invoke`, a function of the messages whose
    result (text, for a chain ending in `StrOutputParser`) is read like any function's."""
    runnable = getattr(sys.modules.get("langchain_core.runnables.base"), "Runnable", None)
    if isinstance(runnable, type) and isinstance(llm, runnable):
        return cast("Callable[[Messages], Any]", getattr(llm, "invoke"))  # noqa: B009 — typed as object by mypy
    return None


def takes_declared_tools(llm: Any) -> bool:
    """Whether `llm` is a plain function, whose tools only the caller can declare (`as_adapter(..., tools=)`): an
    adapter or a LangChain chat model has its own."""
    return not isinstance(llm, LLMAdapter) and _langchain_model(llm) is None


def as_adapter(llm: Any, name: str | None = None, *, tools: Sequence[ToolSpec] | None = None) -> LLMAdapter:
    """An adapter for `llm`: adapters pass through; a LangChain chat model (or its `invoke`) becomes a
    `ChatModelAdapter`; SDK clients need a model, so they are refused with a hint; any other callable becomes a
    `FunctionAdapter` — declaring `tools` as the tools its request sends. `tools` is for a plain function only:
    an adapter or a chat model says (or sends) its own, so it is refused with one."""
    if tools is not None and not takes_declared_tools(llm):
        raise ConfigurationError(
            f"tools= declares the tools a plain-function llm sends; {type(llm).__name__} has its own: "
            "pass them to it (an adapter's tools=, a chat model's bind_tools)"
        )
    if isinstance(llm, LLMAdapter):
        return llm
    chat_model = _langchain_model(llm)
    if chat_model is not None:
        from resilient_parse.llm.langchain import ChatModelAdapter  # the langchain extra, only when used

        return ChatModelAdapter(chat_model)
    invoke = _runnable_function(llm)
    if invoke is not None:
        return FunctionAdapter(invoke, name=name or type(llm).__name__, tools=tools)
    module = type(llm).__module__.split(".", 1)[0]
    if module in ("openai", "anthropic") and hasattr(llm, "chat" if module == "openai" else "messages"):
        cls = "OpenAIAdapter" if module == "openai" else "AnthropicAdapter"
        raise ConfigurationError(f"wrap the {module} client with {cls}(client, model=...) to say which model to call")
    if callable(llm):
        return FunctionAdapter(llm, name=name, tools=tools)
    raise ConfigurationError(f"llm must be a callable or an adapter, got {type(llm).__name__}")
