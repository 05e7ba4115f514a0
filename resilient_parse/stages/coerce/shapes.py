"""Values in the wrong shape for their field, and union members told apart by a misspelled tag.

An answer wrapped in `{"result": …}` or in an OpenAI/Anthropic response envelope is unwrapped; a single value where
a list is expected becomes a one-item list (unless it reads as several items); a discriminated union whose tag is
misspelled, or whose tag key is (`{"tpye": "finish"}`), gets the tag or key the schema declares.
"""

from __future__ import annotations

import re
from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.fit import field_of, fits, spelling_of, tag_key, tag_values
from resilient_parse.repairs import Repair, pointer
from resilient_parse.schema import (
    ChoiceView,
    ListView,
    ModelView,
    ScalarView,
    TupleView,
    TypeView,
    UnionView,
    normalise_key,
)
from resilient_parse.stages.coerce._common import _changed, _refuse, _same, edit_distance, edit_similarity
from resilient_parse.stages.coerce.choices import MIN_PREFIX, match_choice
from resilient_parse.stages.coerce.embedded import decode_json_string

WRAPPER_KEYS = frozenset(
    {
        "result",
        "results",
        "data",
        "output",
        "response",
        "answer",
        "json",
        "object",
        "value",
        "payload",
        "content",
        "item",
        "items",
        "record",
        "records",
        "entries",
        "list",
        "body",
        "message",
        "return",
        "final_answer",
        "final",
    }
)
"""Keys models wrap their answer in. A wrapper is unwrapped only when it is not a field of the schema at that
level and what it holds fits the expected type. The call-argument keys models also wrap answers in (`arguments`,
`input` …) are the tools layer's words: they come in the call context (`CallContext.tools`)."""


def is_wrapper_key(spelling: str, ctx: CallContext) -> bool:
    """Whether a key (its normalised spelling) is one models wrap their answer in: the core's or the context's."""
    return spelling in WRAPPER_KEYS or spelling in ctx.tools.wrapper_keys


def _inner_fits(inner: Any, expected: TypeView) -> bool:
    """Whether a wrapped value is what the schema wants here: an object with at least one of the model's keys
    (exactly or in another spelling), or a list for a list."""
    if isinstance(expected, ModelView):
        return isinstance(inner, dict) and _known_keys(inner, expected) > 0
    if isinstance(expected, ListView | TupleView):
        return isinstance(inner, list)
    return False


def _known_keys(obj: dict[str, Any], model: ModelView) -> int:
    return sum(1 for k in obj if k in model.key_to_field or normalise_key(k) in model.spellings)


def unwrap(value: dict[str, Any], expected: TypeView, path: str, ctx: CallContext) -> Coercion | None:
    """{"result": {...}} → {...}; {"status": "ok", "data": [...]} → [...]; an OpenAI or Anthropic response
    envelope → the JSON its message carries (read by the tools layer, which owns providers' envelopes:
    `CallContext.tools`). Only when no key is a field of the expected model and the inner value fits. Of an
    envelope's two readings (a tool call's arguments, or the call) the one that names more of the model's fields
    wins; a tie is no answer."""
    if not ctx.policy.allows("unwrap_wrapper") or not value:
        return None
    if isinstance(expected, ModelView) and any(
        field_of(key, expected, ctx) is not None or spelling_of(key, ctx) in expected.spellings for key in value
    ):
        # the "wrapper" is (partly) the object itself: a key names a field, directly or through an alias table
        # (`{"assignee": {...}}` with `assignee` → `owner` is the field owner, not a wrapper around the model)
        return None
    read_envelope = ctx.tools.envelope_content  # the tools layer reads providers' envelopes (`tools.vocabulary`)
    candidates = read_envelope(value) if read_envelope is not None else []
    envelope = bool(candidates)
    if not candidates:
        if len(value) == 1:
            candidates = list(value.items())
        else:
            candidates = [(k, v) for k, v in value.items() if is_wrapper_key(spelling_of(k, ctx), ctx)]
    fitting: list[tuple[str, Any]] = []
    for wrapper, inner in candidates:
        if isinstance(inner, str):
            decoded = decode_json_string(inner, ctx.policy.max_depth)
            inner = decoded if decoded is not None else inner
        if _inner_fits(inner, expected) and _plausible_wrapper(wrapper, inner, expected, len(value), ctx):
            fitting.append((wrapper, inner))
    if envelope and len(fitting) > 1 and isinstance(expected, ModelView):
        scores = [_known_keys(inner, expected) for _, inner in fitting]
        best = max(scores)
        fitting = [f for f, score in zip(fitting, scores) if score == best]
    if len(fitting) != 1:
        return None
    wrapper, inner = fitting[0]
    note = f"took the value out of {wrapper!r}"
    return _changed(value, inner, "unwrap_wrapper", path, ctx, confidence=0.9, note=note)


def _plausible_wrapper(wrapper: str, inner: Any, expected: TypeView, siblings: int, ctx: CallContext) -> bool:
    if "/" in wrapper:
        return True  # an API envelope
    norm = normalise_key(wrapper)
    if is_wrapper_key(norm, ctx):
        return True
    if siblings != 1:
        return False
    if isinstance(expected, ModelView):
        # {"Weather": {...}} for the model Weather, or a single key around an object with every required field
        return norm == normalise_key(expected.name) or (isinstance(inner, dict) and _covers_required(inner, expected))
    return True  # {"steps": [...]} where the list itself is expected


def _covers_required(obj: dict[str, Any], model: ModelView) -> bool:
    required = [f for f in model.fields.values() if f.required]
    return bool(required) and all(any(k in obj for k in f.input_keys) for f in required)


_LIST_SEPARATOR = re.compile(r"[,;\n]|\s(?:and|&)\s", re.IGNORECASE)
_WORDS_SLASH_WORDS = re.compile(r"^[^\W\d_][^\W\d_ ]*(?:\s*/\s*[^\W\d_][^\W\d_ ]*)+$")


def _looks_like_several(text: str) -> bool:
    """Whether a string reads as several items written out (`"eco, bathroom"`, `"salt and pepper"`,
    `"red/blue"`) — not a path or URL with slashes in it."""
    return _LIST_SEPARATOR.search(text) is not None or _WORDS_SLASH_WORDS.match(text.strip()) is not None


def _scalar_to_list(value: Any, expected: ListView, path: str, ctx: CallContext) -> Coercion | None:
    """A single value where a list is expected becomes a one-item list — unless it is a string that reads as
    several items: splitting it would guess at the items, and wrapping it would make one item of several, so that
    is refused."""
    if value is None or isinstance(value, list):
        return None
    scalar_item = isinstance(expected.item, UnionView | ChoiceView | ScalarView) and not isinstance(value, dict)
    if not (fits(value, expected.item) or scalar_item):
        return None
    if isinstance(value, str) and _looks_like_several(value) and ctx.policy.allows("scalar_to_list"):
        message = f"{value!r} may be one item or several written out (a list is expected); refusing to guess"
        return _refuse(path, "ambiguous_list", message, value)
    return _changed(value, [value], "scalar_to_list", path, ctx, confidence=0.9)


def _fix_discriminator(value: dict[str, Any], view: UnionView, path: str, ctx: CallContext) -> Coercion | None:
    """A discriminated union whose tag is written in another case or misspelled: `"Search"` or `"serach"` for
    `"search"`. The tag is matched like an enum value (and refused like one)."""
    key = tag_key(value, view)
    tags = tag_values(view)
    if not tags:
        return None
    if key is None:
        return _fix_tag_key(value, view, tuple(tags), path, ctx)
    tag = value[key]
    if any(_same(tag, t) for t in tags):
        return None
    matched = match_choice(tag, ChoiceView(values=tuple(tags)), path + pointer([key]), ctx)
    if matched is None or matched.error is not None:
        return matched
    fixed = dict(value)
    fixed[key] = matched.value
    return Coercion(fixed, matched.repairs)


def _fix_tag_key(
    value: dict[str, Any], view: UnionView, tags: tuple[Any, ...], path: str, ctx: CallContext
) -> Coercion | None:
    """A discriminated union whose tag key is misspelled (`{"tpye": "finish"}` for the discriminator `type`).

    Two facts together make it a repair rather than a guess: the key is one edit (or one swap) from the
    discriminator, and its value is one of the tags as written (or in another case). The rename is recorded as a
    fuzzy key repair. A key that some member declares, or several keys that qualify, are left alone."""
    disc = view.discriminator
    if disc is None or not ctx.policy.allows("key_fuzzy"):
        return None
    models = [o for o in view.options if isinstance(o, ModelView)]
    declared = {k for o in models for k in o.key_to_field}
    written = next((o.fields[disc].primary_key for o in models if disc in o.fields), disc)
    target = normalise_key(disc)
    found: list[tuple[str, Any]] = []
    for key, tag in value.items():
        norm = normalise_key(key)
        if key in declared or len(norm) < MIN_PREFIX or edit_distance(norm, target) != 1:
            continue
        if any(_same(tag, t) for t in tags):
            found.append((key, tag))
            continue
        matched = match_choice(tag, ChoiceView(values=tags), path, ctx)
        if matched is not None and matched.error is None and all(r.kind == "enum_value" for r in matched.repairs):
            found.append((key, matched.value))
    if len(found) != 1:
        return None
    key, tag = found[0]
    renamed = {(written if k == key else k): (tag if k == key else v) for k, v in value.items()}
    similarity = edit_similarity(normalise_key(key), target)
    note = f"the discriminator of the union, one edit away, holding the tag {tag!r}"
    repairs = [Repair.make("key_fuzzy", path + pointer([key]), key, written, confidence=similarity, note=note)]
    if not _same(value[key], tag):
        repairs.append(Repair.make("enum_value", path + pointer([written]), value[key], tag, confidence=1.0))
    if not all(ctx.policy.allows(r.kind) for r in repairs):
        return None
    return Coercion(renamed, tuple(repairs))
