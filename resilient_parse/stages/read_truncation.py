"""Honest truncation: how a text cut off with containers open may be closed, judged against the target's schema.

Strict refuses every cut. Lenient closes one only where what was cut cannot be the schema's:
- a value the schema holds cut mid-token (string, number with no terminator, literal, a key with no value), a list
  cut before its ']', a free-form object (`dict`, `Any`) cut before its '}', a missing required field: an error
  naming the path — closing would invent or drop data the caller asked for;
- a cut inside a member the schema does not have (an extra key or its value), or a ',' promising one more member
  when every field is present: that member is dropped (`truncated_extra`, lossy) and the object recovers;
- optional fields missing from a cut object: those before a present field in the schema's order were omitted, not
  cut, and take their defaults as usual; those after the last present one may have been cut off, so they take
  their defaults under one recorded `truncated_defaults` repair naming each path.
The objects are then closed (`close_truncated`, lossy).
"""

from __future__ import annotations

from resilient_parse.errors import ErrorDetail, TruncatedOutputError
from resilient_parse.json.frames import Frame, Reading
from resilient_parse.json.tokens import decode_key
from resilient_parse.repairs import Repair, escape_token
from resilient_parse.schema import AnyView, DictView, FieldView, ModelView, NoneView, TypeView, UnionView

_EXTRA = AnyView()
"""The view of content the schema does not have (an extra key's value)."""


def truncated(message: str, path: str, offset: int) -> TruncatedOutputError:
    where = f" at {path}" if path else ""
    detail = ErrorDetail(path=path, kind="truncated", message=message, offset=offset)
    return TruncatedOutputError(f"{message}{where} (offset {offset})", [detail])


def _unwrap(view: TypeView) -> TypeView:
    """Optional[X] as X; a union of several shapes stays a union (which of them was cut is unknown)."""
    while isinstance(view, UnionView):
        options = [o for o in view.options if not isinstance(o, NoneView)]
        if len(options) != 1:
            return view
        view = options[0]
    return view


def _child(view: TypeView, frame: Frame) -> TypeView:
    """The view of the frame's current element."""
    if view is _EXTRA:
        return _EXTRA
    if isinstance(view, ModelView):
        fv = view.field_for_key(decode_key(frame.key)) if frame.key is not None else None
        return _unwrap(fv.type) if fv is not None else _EXTRA
    if isinstance(view, DictView):
        return _unwrap(view.value)
    item = getattr(view, "item", None)
    if isinstance(item, TypeView):
        return _unwrap(item)
    return AnyView()


def _is_extra(view: TypeView, frame: Frame) -> bool:
    """Whether the frame's current member is a key the schema does not have (and the model does not keep)."""
    return (
        isinstance(view, ModelView)
        and frame.is_object
        and frame.key is not None
        and view.extra != "allow"
        and view.field_for_key(decode_key(frame.key)) is None
    )


def settle_cut(reading: Reading, schema: TypeView, lenient: bool) -> None:
    """Close the reading's open containers where the rules allow (appending closers and repairs), or raise
    `TruncatedOutputError` naming the path of what was cut."""
    cut = reading.cut
    assert cut is not None
    frames = reading.stack
    if not lenient or not frames:
        # no container is open: the text ended inside the one value it holds (`"abc`, `-`, `2e`)
        raise truncated(cut.message, cut.path, cut.offset)
    if any(f.reopened for f in frames):
        raise truncated("the output ends inside an object whose '}' also came too early", "", cut.offset)
    views: list[TypeView] = [_unwrap(schema)]
    for frame in frames[:-1]:
        views.append(_child(views[-1], frame))
    state = _drop_cut_extra(reading, views)
    top = frames[-1]
    if state == "value":
        raise truncated(cut.message, cut.path, cut.offset)
    if state == "member":
        if not isinstance(views[-1], ModelView):
            raise truncated(cut.message, cut.path, cut.offset)
        cut_field = _field_begun(views[-1], top, cut.partial_key)
        if cut_field is not None:
            raise truncated(f"the output ends inside a key that begins the field {cut_field!r}", cut.path, cut.offset)
        del reading.out[top.member_start :]
        reading.repairs.append(
            Repair.make(
                "truncated_extra",
                top.prefix,
                ",",
                "",
                offset=cut.offset,
                note="dropped a ',' the output ended after: the member it promised was cut off",
            )
        )
    defaults: list[str] = []
    for frame, view in zip(reversed(frames), reversed(views)):
        if not frame.is_object:
            raise truncated(
                "the output ends inside a list before its ']'; how many items were meant is unknown",
                frame.prefix,
                cut.offset,
            )
        if not isinstance(view, ModelView):
            raise truncated(
                "the output ends inside a free-form object before its '}': members may have been cut off",
                frame.prefix,
                cut.offset,
            )
        defaults.extend(_missing_after_cut(frame, view, cut.offset))
    if defaults:
        reading.repairs.append(
            Repair.make(
                "truncated_defaults",
                defaults[0],
                None,
                defaults,
                offset=cut.offset,
                note=f"fields after the cut took their defaults: {', '.join(defaults)}",
            )
        )
    closers = "}" * len(frames)
    reading.out.append(closers)
    reading.repairs.append(Repair.make("close_truncated", "", None, closers, offset=cut.offset))
    reading.stack.clear()
    reading.cut = None


def _drop_cut_extra(reading: Reading, views: list[TypeView]) -> str:
    """Where the cut went through a member the schema does not have, drop that member and keep its object (a
    recorded `truncated_extra`); the state of the cut afterwards."""
    cut, frames = reading.cut, reading.stack
    assert cut is not None
    last = len(frames) - 1
    for i, frame in enumerate(frames):
        if _is_extra(views[i], frame) and (i < last or cut.state == "value"):
            key = decode_key(frame.key or '""')
            del reading.out[frame.member_start :]
            frame.keys.pop()
            del frames[i + 1 :]
            del views[i + 1 :]
            reading.repairs.append(
                Repair.make(
                    "truncated_extra",
                    f"{frame.prefix}/{escape_token(key)}",
                    key,
                    None,
                    offset=cut.offset,
                    note=f"dropped the member {key!r}, which the schema does not have and the cut went through",
                )
            )
            return "complete"
    return cut.state


def _field_begun(view: ModelView, frame: Frame, partial_key: str | None) -> str | None:
    """The missing field whose key the text ended inside (`{"name": "Bob", "ema` begins `email`): its value was cut,
    not omitted, so it must not take its default. None when the cut key begins no missing field."""
    if not partial_key:
        return None
    begun = partial_key.strip().strip("'\"").lower()
    present = {decode_key(k) for k in frame.keys}
    for fv in view.fields.values():
        if any(k in present for k in fv.input_keys):
            continue
        if any(k.lower().startswith(begun) for k in fv.input_keys):
            return fv.name
    return None


def _missing_after_cut(frame: Frame, view: ModelView, offset: int) -> list[str]:
    """The paths of optional fields missing after the last present one (a required one missing is an error)."""
    present = {decode_key(raw) for raw in frame.all_keys()}
    fields: list[FieldView] = list(view.fields.values())
    here = [any(k in present for k in fv.input_keys) for fv in fields]
    last_present = max((i for i, yes in enumerate(here) if yes), default=-1)
    missing_required = [fv.name for fv, yes in zip(fields, here) if not yes and fv.required]
    if fields and last_present < 0:
        # nothing of the object survived the cut: defaults for all of it would be an answer the text never gave
        raise truncated("the output was cut off before any field of this object", frame.prefix, offset)
    if missing_required:
        where = frame.prefix
        raise truncated(
            f"the output was cut off inside {where or 'the root object'}; "
            f"{', '.join(missing_required)} may have been cut off with it",
            where,
            offset,
        )
    return [
        f"{frame.prefix}/{escape_token(fv.primary_key)}"
        for i, fv in enumerate(fields)
        if i > last_present and not here[i]
    ]
