"""The fast path: a text already valid for its target, taken by Pydantic behind a few named checks, in order.

`validate_exact` runs them; each check is asked only where its target can need it (a plan's facts say so), so a
plain valid parse pays for Pydantic and little else:

1. `_may_be_json`        a text opening with a word cannot validate: not worth Pydantic's exception
2. Pydantic itself       `validate_json`, told `extra="forbid"` when a stray key could vanish; a text it refuses
                         as JSON the way json.loads would is noted for the syntax stage (`_certainly_not_json`)
3. `_holds_infinity`     `1e999999` validates as infinity, a value the text never wrote (`refuse_out_of_range`)
4. `_keys_all_known`     a stray key an ignoring model would drop, when Pydantic cannot be asked to forbid it
5. `_two_spellings`      one field written under two of its declared keys (`ticket_id` and `ticketId`)
6. `_members_all_distinct`, then `has_duplicate_keys`: a key written twice in one object
7. `one_tool_fits`       (run by the parser on the value it returns) a union of tool models read by shape
                         fits one member only

A text any check turns away takes the repair path, which reads, aligns and explains what the check refused.
"""

from __future__ import annotations

import functools
import inspect
import re
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from resilient_parse.policy import Policy
from resilient_parse.schema import ListView, SchemaFacts, UnionView
from resilient_parse.stages.read_duplicates import has_duplicate_keys, members_match
from resilient_parse.stages.valid_json import NOT_JSON, refuse_out_of_range

if TYPE_CHECKING:
    from resilient_parse.target_plan import TargetPlan

__all__ = ["INVALID", "JSON_SPACE", "one_tool_fits", "tool_answers", "validate_exact"]

INVALID: Any = object()
"""What `validate_exact` returns for a document that does not validate (None is a valid value of many targets)."""
_EXTRA_OVERRIDE = "extra" in inspect.signature(TypeAdapter.validate_json).parameters  # Pydantic >= 2.12
_KEY_PATTERN = re.compile(r'"([^"\\]*)"\s*:')  # a key with escapes is misread as unknown: safe, just slower
JSON_SPACE = " \t\r\n"  # the white space JSON allows around a value (str.strip() would take more)
_SAFE_DEPTH = 200
"""Fewer brackets than this cannot reach Pydantic's nesting limit, which json.loads does not share."""
# what a JSON text Pydantic reads can open with: a value, or `NaN`/`Infinity`, which it reads as floats
_JSON_OPENERS = frozenset('{["-0123456789tfnNI')


def validate_exact(
    json_text: str, plan: TargetPlan, policy: Policy, *, read: bool = False, memo: dict[str, Any] | None = None
) -> Any:
    """Validate as Pydantic would, or return `INVALID` (None is a valid value of many targets).

    Given `memo` (the call's `CallContext.memo`, or what becomes it), a text that is certainly not JSON is noted
    there under `NOT_JSON`, so the syntax stage does not scan it with json.loads again.

    Pydantic keeps the last of two values written under one key; a document that writes a key twice takes the
    repair path, where the reader refuses two different values and merges identical ones
    (`Policy.guard_duplicate_keys`; skipped for the reader's own output, `read=True`, whose keys it settled).
    The guard costs a count of the text's colons against the members the value was built from when the
    target allows that proof, else a second parse (`has_duplicate_keys`).

    A number past a float's range (`1e999999`) validates as infinity, a value the text never wrote: refused here
    as the syntax stage refuses it (`valid_json.refuse_out_of_range`, for targets that read floats at all, when the
    value holds an infinity or its shape has no `inf_probe`).

    A model that ignores extra keys would silently drop a stray key — `Arguments` beside an optional
    `arguments`, or `Action` beside `action` with another value — and return a different object than the
    model meant. Such a document takes the repair path, where the stray key is aligned, refused or dropped
    by the rules of `conform`. Pydantic checks for strays at no extra cost when told `extra="forbid"` for this
    one validation (a document without them validates to the same object); with models that declare
    `extra="allow"` we fall back to scanning the keys. Likewise a document that writes one field under two
    declared spellings (`ticket_id` and `ticketId`) takes the repair path, where differing values are
    refused. `Policy.guard_ignored_keys` turns the guard off."""
    # a whole text (given with its memo) that opens with a word: Pydantic would only raise
    if memo is not None and not _may_be_json(json_text):
        memo[NOT_JSON] = json_text
        return INVALID
    facts = plan.facts
    guard = facts.ignore_models and policy.guard_ignored_keys
    pydantic_guards = guard and _EXTRA_OVERRIDE and not facts.allow_models
    try:
        if pydantic_guards:
            value = plan.adapter.validate_json(json_text, extra="forbid")
        else:
            value = plan.adapter.validate_json(json_text)
    except ValidationError as exc:
        if memo is not None and _certainly_not_json(exc, json_text):
            memo[NOT_JSON] = json_text  # the syntax stage need not ask json.loads again (`syntax.load_json`)
        return INVALID
    except ValueError:  # e.g. lone surrogates Pydantic cannot encode
        return INVALID
    if not read and plan.reads_floats and _holds_infinity(value, plan):
        refuse_out_of_range(json_text)  # `1e999999` validates as inf, a value the text never wrote
    if guard and not pydantic_guards and not _keys_all_known(json_text, facts):
        return INVALID
    if facts.quoted_spellings and _two_spellings(json_text, facts):
        return INVALID
    if (
        not read
        and policy.guard_duplicate_keys
        and not _members_all_distinct(json_text, value, plan)
        and has_duplicate_keys(json_text)
    ):
        return INVALID
    return value


def _may_be_json(text: str) -> bool:
    """Guards Pydantic's exception cost: a text opening (past JSON's white space) with a word cannot validate."""
    first = text.lstrip(JSON_SPACE)[:1]
    return not first or first in _JSON_OPENERS


def _certainly_not_json(exc: ValidationError, text: str) -> bool:
    """Guards a second scan: Pydantic refused the text as JSON (one `json_invalid` error, asked by type, never by
    its English message) where json.loads refuses it too: not too deep for Pydantic alone, and no `\\u` escape
    (a lone surrogate's escape json.loads reads). A number too long to convert both refuse, in their own words."""
    if exc.error_count() != 1:
        return False
    error = exc.errors(include_url=False, include_context=False, include_input=False)[0]
    if error["type"] != "json_invalid" or "\\u" in text:
        return False
    return text.count("[") + text.count("{") < _SAFE_DEPTH


def _holds_infinity(value: Any, plan: TargetPlan) -> bool:
    """Guards an unwritten infinity: the value may hold one (its plan's probe says so, or there is no probe)."""
    probe = plan.inf_probe
    if probe is None:
        return True
    try:
        return probe(value)
    except Exception:  # a value the probe did not foresee: the text decides
        return True


def _keys_all_known(json_text: str, facts: SchemaFacts) -> bool:
    """Guards a dropped stray key by scanning the keys, when Pydantic cannot be asked (old Pydantic, extra="allow")."""
    return not facts.open_keys and all(k in facts.known_keys for k in _KEY_PATTERN.findall(json_text))


def _two_spellings(json_text: str, facts: SchemaFacts) -> bool:
    """Guards one field written twice under two declared keys (`ticket_id` and `ticketId`): True when it may be."""
    return any(sum(1 for key in keys if key in json_text) > 1 for keys in facts.quoted_spellings)


def _members_all_distinct(json_text: str, value: Any, plan: TargetPlan) -> bool:
    """Guards a key written twice, cheaply: the value holds as many members as the text writes (False: unsure)."""
    counter = plan.count_members  # `read_duplicates.key_counter`; the proof is `members_match`
    if counter is None:
        return False
    try:
        members = counter(value)
    except Exception:  # a value the schema walk did not foresee: ask the exact question instead
        return False
    return members_match(json_text, members)


def one_tool_fits(json_text: str, plan: TargetPlan) -> None:
    """Guards a union of tool models read by shape (no call named one): the value fits one member only."""
    if isinstance(plan.view, UnionView) or (isinstance(plan.view, ListView) and isinstance(plan.view.item, UnionView)):
        tools = tool_answers()
        target = tools.tool_target(plan.view)
        if target is not None:
            tools.check_one_tool_fits(json_text, target)  # raises the error naming the members that fit


@functools.cache
def tool_answers() -> ModuleType:
    """`tools.answer`, imported on the first text a tool target is asked for."""
    from resilient_parse.tools import answer

    return answer
