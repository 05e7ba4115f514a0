"""Drop-in helpers for existing call sites: decorate the function that returns the model's text.

    @parsed(ToolCall)                       # fn(...) -> str   becomes   fn(...) -> ToolCall
    def call_model(prompt: str) -> str: ...

    @corrected(TaskPlan, max_corrections=2)  # fn(messages, ...) -> str   becomes   fn(messages, ...) -> TaskPlan,
    def chat(messages, temperature=0): ...   # re-asking the same function with feedback while the answer is wrong

Both work on sync and async functions (an async function stays async).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar, cast, overload

from resilient_parse.api import default_parser
from resilient_parse.context import SemanticValidator
from resilient_parse.correction.loop import CorrectOptions, acorrect, correct
from resilient_parse.errors import ConfigurationError
from resilient_parse.parser import Parser
from resilient_parse.policy import Policy

if TYPE_CHECKING:
    from typing_extensions import Unpack

P = ParamSpec("P")
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Decorator(Protocol[T_co]):
    """What `parsed(Target)` and `corrected(Target)` return: a decorator that keeps the function's parameters and
    makes it return `Target` (awaitable when the function is async)."""

    @overload
    def __call__(self, fn: Callable[P, Coroutine[Any, Any, Any]]) -> Callable[P, Coroutine[Any, Any, T_co]]: ...
    @overload
    def __call__(self, fn: Callable[P, Any]) -> Callable[P, T_co]: ...


@overload
def parsed(
    target: type[T],
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
    validators: Sequence[SemanticValidator] = (),
    parser: Parser | None = None,
) -> Decorator[T]: ...
@overload
def parsed(
    target: Any,
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
    validators: Sequence[SemanticValidator] = (),
    parser: Parser | None = None,
) -> Decorator[Any]: ...
def parsed(
    target: Any,
    *,
    mode: str | Policy = "lenient",
    aliases: Mapping[str, str] | None = None,
    validators: Sequence[SemanticValidator] = (),
    parser: Parser | None = None,
) -> Decorator[Any]:
    """Make a function that returns model text return the validated `target` instead (or raise `ParseError`)."""
    use = parser if parser is not None else default_parser(mode)

    def decorate(fn: Callable[P, Any]) -> Callable[P, Any]:
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(*args: P.args, **kwargs: P.kwargs) -> Any:
                text = await fn(*args, **kwargs)
                return use.parse_result(text, target, aliases=aliases, validators=validators).value

            return async_wrapper

        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> Any:
            return use.parse_result(fn(*args, **kwargs), target, aliases=aliases, validators=validators).value

        return wrapper

    return cast(Decorator[Any], decorate)


@overload
def corrected(target: type[T], **options: Unpack[CorrectOptions]) -> Decorator[T]: ...
@overload
def corrected(target: Any, **options: Unpack[CorrectOptions]) -> Decorator[Any]: ...
def corrected(target: Any, **options: Unpack[CorrectOptions]) -> Decorator[Any]:
    """Make a chat function `fn(messages, *args, **kwargs) -> text` return the validated `target`, running the
    correction loop with the same function (and the same extra arguments) as the model. `options` are `correct`'s.
    """
    if "fallbacks" in options and not isinstance(options["fallbacks"], Sequence):
        raise ConfigurationError("fallbacks must be a sequence of llms")

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        name = getattr(fn, "__name__", "llm")
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(messages: Sequence[Mapping[str, Any]], *args: Any, **kwargs: Any) -> Any:
                async def llm(msgs: list[dict[str, str]]) -> Any:
                    return await fn(msgs, *args, **kwargs)

                llm.__name__ = name
                return await acorrect(llm, messages, target, **options)

            return async_wrapper

        @functools.wraps(fn)
        def wrapper(messages: Sequence[Mapping[str, Any]], *args: Any, **kwargs: Any) -> Any:
            def llm(msgs: list[dict[str, str]]) -> Any:
                return fn(msgs, *args, **kwargs)

            llm.__name__ = name
            return correct(llm, messages, target, **options)

        return wrapper

    return cast(Decorator[Any], decorate)
