"""What a reply says against its own tool calls, read one way by every path that reads calls.

A refusal beside the calls (the provider's signal, or prose that refuses, takes the call back or asks back), text
that answers otherwise than the calls (`check_text_agrees`), and a cut by the output length limit: text envelopes
(`envelopes`), the tool-call answers (`answer`), reply objects (`reply_path`), the correction loop, the LangChain
parser and streamed calls (`correction/tool_calls.py`) all ask here, so no two paths can disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, ParseError, RefusalError, TruncatedOutputError
from resilient_parse.feedback import excerpt
from resilient_parse.stages.extract import scan_spans, split_reasoning
from resilient_parse.text.cues import refusal_between
from resilient_parse.text.lexicon import lexicon
from resilient_parse.tools.replies import STOPPED_REFUSING, says_cut

_TAKES_THE_CALL_BACK = frozenset({"retraction", "question"})
_WHAT_IT_DOES = {
    "refusal": "refuses the task",
    "retraction": "takes the call back",
    "question": "asks the user back instead of answering",
}
_SHOWN_CHARS = 120
"""The signal of a message the provider stopped as a refusal (Anthropic's `stop_reason: "refusal"`)."""


def truncated_call_error(shown: str, path: str, *, complete: bool = False) -> TruncatedOutputError:
    """The refusal of a call (`shown`: its name as a message quotes it) in a reply cut off by the output length
    limit: its arguments stop mid-value, or (`complete`) they are whole but calls after it may be missing. The one
    wording for native calls (`correction.tool_calls`) and text envelopes."""
    if complete:  # nothing shows where the cut was: the turn may have had more calls than it shows
        return TruncatedOutputError(
            f"the output length limit was reached after the call to {shown}: its arguments are "
            "complete, but calls after it may have been cut off, so the calls cannot be read as the whole answer",
            [
                ErrorDetail(
                    path=path,
                    kind="truncated",
                    message="the output length limit was reached after this call; more calls may have been cut off",
                )
            ],
        )
    return TruncatedOutputError(
        f"the arguments of the call to {shown} were cut off by the output length limit",
        [
            ErrorDetail(
                path=path,
                kind="truncated",
                message="the tool call's arguments stop mid-value (the output length limit was reached)",
            )
        ],
    )


def disagreeing_text_error(said: str, made: str, candidate: str | None) -> AmbiguousMatchError:
    """A reply whose text beside its tool call answers `said` while the call answers `made`: one reply saying two
    things does not say which it means. The one wording for native calls and text envelopes."""
    said, made = excerpt(said, 300), excerpt(made, 300)
    return AmbiguousMatchError(
        f"the reply's text answers {said} but its tool call answers {made}; the reply does not say which is meant",
        [
            ErrorDetail(
                path="",
                kind="ambiguous_answer",
                message="give the answer once, as the tool call, with no other JSON answer in the text",
                got=said,
            )
        ],
        candidate=candidate,
    )


Reading = tuple[Any, str]
"""A value of the target that text beside tool calls gives, and how the text writes it (for the message)."""


def check_text_agrees(
    text: str,
    called: Any,
    read: Callable[[str], Iterable[Reading]],
    same: Callable[[Any, Any], bool],
    *,
    made: str,
    candidate: str | None,
    prose_answers: bool = False,
    takes_null: bool = False,
    read_item: Callable[[str], Iterable[Reading]] | None = None,
) -> None:
    """The one decision whether a reply's text beside its tool calls agrees with them (`called`, the value the calls
    give the target): every path that reads calls asks here, so no two paths can disagree on what a second answer is.

    Text that gives the target another value makes the reply say two things (`disagreeing_text_error`); text that
    gives the same value, or none (prose: `read` finds no answer, or raises a `ParseError` other than ambiguity),
    agrees. Text that is itself two readings (`Either {...} or {...}`, a key written twice with different values:
    `read` raises `AmbiguousMatchError`) is ambiguous too, never set aside as prose. `made` is how the calls'
    answer is shown, `candidate` the error's candidate.

    The paths differ only in their inputs, so those are parameters: `read` gives the values the text gives (the
    parser reading the text as the target, where a parser is at hand; the envelope stage, which runs inside the
    pipeline with no parser, decodes the JSON values of the visible text itself), `same` compares two values (a
    validated value by its dump, a dict of fields as the model validates it). For a target of tool models only JSON
    (an object or array, or `null` when it `takes_null`) can answer, so prose is not parsed at all ("Let me check
    that." is no failed parse); a target prose can answer (a string, a number: `prose_answers`) reads any text.
    For a list target, text that is no list may still give one item (`read_item`): an answer of that one item,
    in every mode (strict, which wraps no object into a list, must not let a second answer pass as prose)."""
    if not text.strip() or not (prose_answers or may_answer(text, takes_null=takes_null)):
        return
    try:
        readings = _readings(text, read, read_item)
    except AmbiguousMatchError as error:
        raise _ambiguous_itself(error, candidate) from error
    except ParseError:
        return  # no answer in the text: prose
    for value, written in readings:
        if not same(value, called):
            raise disagreeing_text_error(written, made, candidate)


def _readings(
    text: str, read: Callable[[str], Iterable[Reading]], read_item: Callable[[str], Iterable[Reading]] | None
) -> list[Reading]:
    """The answers `text` gives: as the target, else (a list target) as one item of it."""
    try:
        return list(read(text))
    except AmbiguousMatchError:
        raise
    except ParseError:
        if read_item is None:
            raise
    return [([value], written) for value, written in read_item(text)]


def may_answer(text: str, *, takes_null: bool = False) -> bool:
    """Whether text could hold an answer for a target of tool models at all: an object or array, or — for a target
    that takes None — a null."""
    return "{" in text or "[" in text or (takes_null and ("null" in text or "None" in text))


def same_answer(dump_json: Callable[[Any], bytes], a: Any, b: Any) -> bool:
    """Two values of the target are the same answer when they serialize the same (`dump_json`: the target's
    adapter's; NaN and model instances included); values the adapter cannot write are compared as they are."""
    try:
        return dump_json(a) == dump_json(b)
    except Exception:
        return bool(a == b)


def _ambiguous_itself(error: AmbiguousMatchError, candidate: str | None) -> AmbiguousMatchError:
    """Text beside the calls that is itself two readings: the reply does not say which answer it means."""
    return AmbiguousMatchError(
        f"the reply's text beside its tool call is ambiguous itself ({error.message}); the reply does not say "
        "which answer is meant",
        [
            ErrorDetail(
                path=d.path,
                kind="ambiguous_answer",
                message="give the answer once, as the tool call, with no other JSON answer in the text",
                got=d.got,
            )
            for d in error.details
        ]
        or [ErrorDetail(path="", kind="ambiguous_answer", message="give the answer once, as the tool call")],
        candidate=candidate,
    )


def refusal_beside_calls(text: str, signal: str | None = None) -> RefusalError | None:
    """The refusal a reply makes of its own tool calls, or None. `signal` is the provider's refusal signal when it
    gave one (an OpenAI message's `refusal` text, `STOPPED_REFUSING` for Anthropic's `stop_reason`): a refusal
    whatever the calls say. `text` is what the reply writes beside its calls, read as the text path reads prose
    beside JSON — the visible answer (not a reasoning block), outside JSON values — by the lexicon, in every
    language it covers: a refusal of the task (`refusal_between`), a retraction ("Just kidding", "算了吧") or a
    question back to the user ("Should I…?", "要不要") refuses the call. An apology alone, hedging, or prose that
    describes the call ("Sure, I'll look that up.", "好的，我来帮你转账。") refuses nothing.

    The one reading of text beside tool calls: text envelopes (here), the correction loop, the LangChain parser and
    streamed calls (`correction.tool_calls.read_reply_calls`) all ask it, so no two paths can disagree. (The
    envelope stage raises it from `rp_coerce_value`: a `Coercion.error` would be reported as a schema mismatch.)"""
    if signal:
        shown = excerpt(signal, _SHOWN_CHARS)
        return RefusalError(
            f"the provider flagged the reply as a refusal ({shown}); its tool call is not given as the answer",
            [ErrorDetail(path="", kind="refusal", message="the provider flagged the reply as a refusal", got=shown)],
        )
    found = _refusing_cue(text) if text and not text.isspace() else None
    if found is None:
        return None
    at, category = found
    does = _WHAT_IT_DOES[category]
    said = excerpt(text[at:], _SHOWN_CHARS)
    return RefusalError(
        f"the reply {does} beside its tool call ({said!r}); the call is not given as the answer",
        [ErrorDetail(path="", kind="refusal", message=f"the text beside the tool call {does}", got=said, offset=at)],
    )


def _refusing_cue(text: str) -> tuple[int, str] | None:
    """Where the visible prose of `text` first refuses, takes the call back or asks back, and which it does."""
    for lo, hi in _visible_prose(text):
        at = refusal_between(text, lo, hi)
        cue = lexicon().first(_TAKES_THE_CALL_BACK, text, lo, at if at >= 0 else hi)
        if cue is not None:
            return cue.start, cue.category
        if at >= 0:
            return at, "refusal"
    return None


def _visible_prose(text: str) -> Iterator[tuple[int, int]]:
    """The stretches of prose in the visible answer of `text`, in order: outside reasoning blocks and outside the
    JSON values in it (a span inside an unclosed opener is within that opener's), as extraction reads them."""
    for region in split_reasoning(text):
        if region.reasoning:
            continue
        pos = region.start
        for span in scan_spans(text, region.start, region.end):
            if span.inside >= 0:
                continue
            if span.start > pos:
                yield pos, span.start
            pos = max(pos, span.end)
        if pos < region.end:
            yield pos, region.end


def said_beside_calls(value: Any) -> tuple[str, str | None]:
    """What an envelope says beside the calls it holds: the text of its messages (`content` as a string, or its
    text blocks and parts) and the provider's refusal signal, if any (a message's `refusal`, a `refusal` content
    part, Anthropic's `stop_reason: "refusal"`). ("", None) for a bare call or a list of calls."""
    texts: list[str] = []
    signals: list[str] = []
    if isinstance(value, dict):  # a bare call says nothing beside itself: it has none of these keys
        choices = value.get("choices")
        messages = (
            [c.get("message") or c.get("delta") for c in choices if isinstance(c, dict)]
            if isinstance(choices, list)
            else [value]
        )
        for message in messages:
            if isinstance(message, dict):
                _read_message(message, texts, signals)
    return "\n".join(texts), "; ".join(signals) or None


def _read_message(message: dict[str, Any], texts: list[str], signals: list[str]) -> None:
    refusal = message.get("refusal")
    if isinstance(refusal, str) and refusal.strip():
        signals.append(refusal)
    if message.get("stop_reason") == "refusal":
        signals.append(STOPPED_REFUSING)
    content = message.get("content")
    if isinstance(content, str):
        texts.append(content)
    for key in ("content", "output"):
        items = message.get(key)
        if not isinstance(items, list):
            continue
        for item in items:
            if not isinstance(item, dict):
                continue
            kind = item.get("type")
            if kind in ("text", "output_text") and isinstance(item.get("text"), str):
                texts.append(item["text"])
            elif kind == "refusal" and isinstance(item.get("refusal"), str) and item["refusal"].strip():
                signals.append(item["refusal"])
            elif kind == "message" and key == "output":
                _read_message(item, texts, signals)  # a Responses-API output message: its parts


def cut_off(value: Any) -> bool:
    """Whether an envelope says the output length limit cut it (`CUT_OFF`): a choice's `finish_reason`, a
    message's `stop_reason`, a Responses-API output's `incomplete_details.reason` (or `status: "incomplete"`)."""
    if not isinstance(value, dict):
        return False
    choices = value.get("choices")
    if isinstance(choices, list):
        return any(isinstance(c, dict) and says_cut(c.get("finish_reason")) for c in choices)
    if says_cut(value.get("stop_reason")) or says_cut(value.get("finish_reason")):
        return True
    details = value.get("incomplete_details")
    if isinstance(details, dict) and says_cut(details.get("reason")):
        return True
    return value.get("status") == "incomplete" and isinstance(value.get("output"), list)
