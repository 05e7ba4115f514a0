"""A provider's reply object as the parser reads it: its text parsed as text is, or its tool calls read by name
(`tools.answer.answer_reply`); for a target of no tool models the call is read as text (`tools.answer.calls_as_text`)
and a text beside it that answers otherwise is ambiguous. The repairs start with how the reply was read."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from resilient_parse.context import SemanticValidator
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
    """A reply's text beside its call, for a target of no tool models, must not answer it otherwise: the one
    decision is `reply_signals.check_text_agrees`'s, the text read as the text path reads it. Prose may answer
    such a target (a string, a number), so any text is read."""
    from resilient_parse.tools.reply_signals import check_text_agrees, same_answer

    def read(text: str) -> list[tuple[Any, str]]:
        other = parser._guarded(text, plan, checks, call_aliases)[0]
        return [(other.value, other.json_text or text)]

    check_text_agrees(
        said,
        called.value,
        read,
        functools.partial(same_answer, plan.adapter.dump_json),
        made=called.json_text or "",
        candidate=called.candidate,
        prose_answers=True,
    )
