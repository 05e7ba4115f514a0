"""The syntax stage: a candidate's text into a JSON tree — `json.loads` when it is valid, else the reader
(`read.py`), the schema-aware truncation rules (`read_truncation.py`), and in lenient mode json-repair as the
last resort for what the reader cannot read (`read_fallback.py`). Duplicate keys are checked on every path
(`read_duplicates.py`).
"""

from __future__ import annotations

import functools
import json

from resilient_parse.context import CallContext, LoadResult
from resilient_parse.errors import UnrecoverableSyntaxError
from resilient_parse.json.document import read
from resilient_parse.json.failure import ReadFailure, as_error
from resilient_parse.policy import Policy
from resilient_parse.repairs import KINDS, Repair
from resilient_parse.stages.read_duplicates import find_duplicates, has_duplicate_keys
from resilient_parse.stages.read_fallback import JSON_REPAIR_MAX_CHARS, bracket_depth, json_repair_fallback
from resilient_parse.stages.read_truncation import settle_cut
from resilient_parse.stages.valid_json import NOT_JSON, OutOfRange, decode, out_of_range

__all__ = [
    "JSON_REPAIR_MAX_CHARS",
    "SyntaxFailure",
    "load_json",
    "lossy_kinds",
    "repair_syntax",
]

_JSON_SPACE = " \t\r\n"

SyntaxFailure = ReadFailure
"""The reader's failure under the name this module has always used."""

# failures json-repair must not paper over: it would drop elided items, read `undefined` as a string, split
# `"He said ""hi"""` into keys and values at random, or pick one of two readings the reader found plausible
_FINAL_FAILURES = frozenset(
    {
        "too_deep",
        "trailing_text",
        "elided",
        "js_literal",
        "adjacent_quotes",
        "ambiguous",
        "comment_at_end",
        "missing_value",
        "leading_zeros",
        "stray_slash",
        "bad_number",
        "number_out_of_range",
    }
)
_READER_LOSSY = tuple(
    k.name for k in KINDS.values() if k.stage == "syntax" and not k.lossless and k.name != "json_repair"
)


def _refuse_too_many_digits(exc: ValueError) -> None:
    """An integer longer than Python converts (4,300 digits by default) cannot be read exactly: a clear refusal,
    not an internal error (and never a rounded float). The json module reports bad syntax as a `JSONDecodeError`;
    the only other `ValueError` it raises on a string is that limit (told by type, never by its message)."""
    if not isinstance(exc, json.JSONDecodeError):
        message = "a number has more digits than can be read exactly (sys.get_int_max_str_digits())"
        raise as_error(ReadFailure(message, 0, "", "number_too_long")) from None


@functools.lru_cache(maxsize=64)
def lossy_kinds(policy: Policy) -> frozenset[str]:
    """The reader's lossy repairs this policy allows; once per policy (a frozen value), not once per parse."""
    return frozenset(k for k in _READER_LOSSY if policy.allows(k))


def load_json(text: str, ctx: CallContext) -> LoadResult:
    """The built-in loader: json.loads, then the reader (and its truncation rules), then (lenient) json-repair.
    json.loads is skipped for a text the parser already found certainly not JSON (`NOT_JSON` in `ctx.memo`)."""
    if not _known_not_json(text, ctx.memo.get(NOT_JSON)):
        try:
            return _checked(decode(text), text, [])
        except OutOfRange as exc:
            raise out_of_range(exc, text) from None
        except RecursionError:
            depth = bracket_depth(text)
            if depth > ctx.policy.max_depth:
                message = f"nesting {depth} levels deep, over the limit of {ctx.policy.max_depth} (Policy.max_depth)"
                raise as_error(ReadFailure(message, 0, "", "too_deep")) from None
        except ValueError as exc:
            _refuse_too_many_digits(exc)
    policy = ctx.policy
    unescaped = _escaped_json(text) if policy.allows("decode_json_string") else None
    if unescaped is not None:
        loaded = load_json(unescaped, ctx)
        repair = Repair.make(
            "decode_json_string",
            "",
            text[:60],
            unescaped[:60],
            offset=0,
            note="every quote of the text was escaped (JSON copied out of a JSON string): read it unescaped; the "
            "offsets of the repairs after this one are in the unescaped text",
        )
        return LoadResult(tree=loaded.tree, json_text=loaded.json_text, repairs=(repair, *loaded.repairs))
    try:
        reading = read(text, lossy=lossy_kinds(policy), max_depth=policy.max_depth)
    except ValueError as exc:  # the json scanner the reader uses for runs of valid JSON
        _refuse_too_many_digits(exc)
        raise
    except ReadFailure as failure:
        if failure.truncated or failure.kind in _FINAL_FAILURES or not policy.allows("json_repair"):
            raise as_error(failure) from None
        return json_repair_fallback(text, failure, ctx.text, policy.max_depth)
    if reading.cut is not None:
        settle_cut(reading, ctx.schema, lenient=policy.allows("close_truncated"))
    fixed = reading.json_text
    try:
        tree = decode(fixed)
    except OutOfRange as exc:  # a stretch of valid members the reader copied whole holds one
        raise out_of_range(exc, text) from None
    except ValueError as exc:  # likewise, an integer too long to read exactly
        _refuse_too_many_digits(exc)
        raise UnrecoverableSyntaxError(f"repaired text is still not JSON: {exc}") from None  # pragma: no cover
    except RecursionError as exc:  # pragma: no cover - the reader writes valid JSON
        raise UnrecoverableSyntaxError(f"repaired text is still not JSON: {exc}") from None
    return _checked(tree, fixed, reading.repairs)


def _known_not_json(text: str, known: str | None) -> bool:
    """Whether `text` is the text noted as not JSON, or that text without the JSON white space around it."""
    if known is None or len(text) > len(known):
        return False
    return text == known or (len(text) < len(known) and known.strip(_JSON_SPACE) == text)


def _escaped_json(text: str) -> str | None:
    """The text one level unescaped when it is JSON copied out of a JSON string (`{\\"a\\": \\"b\\"}`): it starts
    with `\\"` (perhaps after `{` or `[`) and, read as the body of a JSON string, it is one (every quote escaped,
    every escape valid) — one C-speed decode. None otherwise."""
    if not text.startswith(('\\"', '{\\"', '[\\"')):
        return None
    try:
        body = json.loads('"' + text + '"')
    except ValueError:
        return None
    return body if isinstance(body, str) and not body.startswith(('\\"', '{\\"', '[\\"')) else None


def _checked(tree: object, json_text: str, repairs: list[Repair]) -> LoadResult:
    """The load result, once duplicate keys are ruled out (or merged, when both values are the same)."""
    if has_duplicate_keys(json_text, tree):
        tree, merged = find_duplicates(json_text)
        if merged:
            repairs = [*repairs, *merged]
            json_text = json.dumps(tree, ensure_ascii=False)
    return LoadResult(tree=tree, json_text=json_text, repairs=tuple(repairs))


def repair_syntax(
    text: str, *, allow_close: bool, max_depth: int, allow_undefined: bool = False
) -> tuple[str, list[Repair]]:
    """Strict JSON text for `text` with only the reader's lossless repairs (and `undefined` as null when allowed).
    Raises `SyntaxFailure` otherwise. `allow_close`: whether output cut at a clean boundary (only objects left
    open, every value complete) may be closed, without a schema to judge by — for callers that have none."""
    reading = read(text, lossy=frozenset({"js_literal"}) if allow_undefined else frozenset(), max_depth=max_depth)
    cut = reading.cut
    if cut is None:
        return reading.json_text, reading.repairs
    if cut.state != "complete" or not allow_close or not all(f.is_object for f in reading.stack):
        raise SyntaxFailure(cut.message, cut.offset, cut.path, "truncated", truncated=True)
    closers = "}" * len(reading.stack)
    return reading.json_text + closers, [
        *reading.repairs,
        Repair.make("close_truncated", "", None, closers, offset=cut.offset),
    ]
