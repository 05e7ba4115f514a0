"""A provider's reply object as the parser reads it: its text parsed as text is, or its tool calls read by name
(`tools.answer.answer_reply`); for a target of no tool models the call is read as text (`tools.answer.calls_as_text`)
and a text beside it that answers otherwise is ambiguous. The repairs start with how the reply was read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from resilient_parse.context import SemanticValidator
from resilient_parse.errors import AmbiguousMatchError, ParseError
from resilient_parse.fast_path import tool_answers
from resilient_parse.rejections import check_size
from resilient_parse.repairs import ParseResult
from resilient_parse.target_plan import TargetPlan

if TYPE_CHECKING:
    from resilient_parse.parser import Parser


def reply_result(
    parser: Parser,
    reply: object,
    plan: TargetPlan,
    checks: Sequence[SemanticValidator],
    call_aliases: Mapping[str, str],
    calls: Any,
) -> tuple[ParseResult[Any], str, str]:
    """`_guarded` for a provider's reply object (`tools/replies.py`): its text parsed as text is, or its tool
    calls read by name (`tools.answer.answer_reply`); the repairs start with how the reply was read."""
    from resilient_parse.tools.replies import read_reply  # the tools layer loads with the first reply object

    found, read = read_reply(reply, parser.policy)
    said = found.text or ""
    check_size(len(said) + sum(len(call.arguments) for call in found.calls), parser.policy)
    text = said
    if found.calls:
        tools = tool_answers()
        answered = tools.answer_reply(found, plan.view, calls)
        if answered is not None:
            return parser._called(answered[0], (*read, *answered[1]), said, plan, checks)
        text = tools.calls_as_text(found, plan.view)  # a target of no tool models: the call, read as text
    inner, source, path = parser._guarded(text, plan, checks, call_aliases)
    if text is not said and said.strip():
        _text_agrees(parser, said, inner, plan, checks, call_aliases)
    return (
        ParseResult(inner.value, (*read, *inner.repairs), inner.candidate, inner.json_text, inner.mode),
        source,
        path,
    )


def _text_agrees(
    parser: Parser,
    said: str,
    called: ParseResult[Any],
    plan: TargetPlan,
    checks: Sequence[SemanticValidator],
    call_aliases: Mapping[str, str],
) -> None:
    """A reply's text beside its call, for a target of no tool models: when the text gives the target too and
    another value, the reply says two things (`reply_signals.disagreeing_text_error`, the one wording); a text that
    is itself two readings is ambiguous too; prose that gives no value is no answer."""
    from resilient_parse.tools.reply_signals import disagreeing_text_error

    try:
        other = parser._guarded(said, plan, checks, call_aliases)[0]
    except AmbiguousMatchError:
        raise
    except ParseError:
        return
    dump = plan.adapter.dump_python
    if dump(other.value, mode="json") != dump(called.value, mode="json"):
        raise disagreeing_text_error(other.json_text or said, called.json_text or "", called.candidate)
