"""Streaming: partial objects while the model is still writing, then the final validated object when it stops.

`stream(parser, chunks, target)` (and the async twin `astream`) reads text chunks and yields `StreamUpdate`s: one
each time a new part of the answer is complete enough to show, holding a *partial view* of the target (a model
generated from it in which every field may be missing), and a last one with `is_final=True` holding the object the
full pipeline made from the complete text (`Parser.parse_result`, or the correction loop when `correct_with` is
given).

How a partial is made: the JSON's start is found past prose, fences and reasoning blocks (a tag counts as the
extraction stage says: an opening one must start a block, a quoted one is text), by that stage's rules applied as
the text arrives (`_Locator`: the scanner's state is kept between chunks, so each character is looked at a bounded
number of times however the text is cut); the text from there is read by pydantic-core's partial JSON parser
(`from_json(..., allow_partial=True)`, `"trailing-strings"` when the caller wants strings as far as they go), and
where that stops at a syntax strict JSON does not have (a trailing comma, single quotes, a Python literal, a
comment, a bare key), by the batch path's reader with the repairs the policy allows (`stages/read_prefix.py`: the
unfinished member is dropped, the open containers are closed). pydantic-core's partial modes read a syntax error
after a value (`{"a": 1 "b": 2`) as the end of the text, so a read that brings nothing new is checked by a whole
read, whose error says whether the text is JSON so far; once it has stopped at a syntax error, it is not asked
again for that answer. A number still being written is left out; keys are aligned and values coerced by the same
`Conformer` and plugin hooks as the batch path (a streamed `Action` key shows up as `action`); the result is
validated against the partial model, and whatever does not validate yet is left out rather than failing the update.

When every key is a field's and every value fits, the partial is validated straight from the text in Rust (the
streaming twin of the batch fast path); only otherwise is a Python tree built and walked, and list items already
walked on an earlier read are not walked again.

Cost: finding the start costs one pass over the text in all; reads cover the text from the start only (the text
before it is never joined or copied again), and the whole text is joined once, for the final parse. The answer
is re-read only when a boundary (a quote, a comma, a closing bracket) arrived since the last read. A read is
measured in work, not characters (`_work`): its characters, or its brackets times `_CONTAINER_CHARS` where that is
more — building a container costs what reading a few dozen characters of flat JSON does, so `[[[[]]]]` weighs what
it holds. An answer of up to 4 KiB of work is re-read at every boundary (microseconds each); beyond that, the work
re-read is kept within `reparse_budget` times the work received, so total work stays linear in the final size
however fine the chunks are and however deeply the answer nests — updates on big documents get further apart
instead of the stream getting slower. The reader's reads resume where the last one left off (after the last ','
of the innermost container it had open, `read_prefix.Resume`), so each covers the text since (twice where it stops
at a syntax it may not repair); a read counts the whole answer's work beyond 4 KiB (its tree is loaded and
validated whole) or the text the reader covers beyond 512 characters, whichever is more, so the budget bounds both
(give or take one read).
`benchmarks/bench_streaming.py` measures it.

Limits, by design: partials follow the first JSON value that starts in the answer (the final object follows the
batch rules for several candidates), and a start is an opening bracket followed by what strict JSON allows there
(`{"`, `[1`, …): an answer that opens with `{'a'`, `{a:` or `[True` is not followed from its root (the partials
may follow a `{"…` inside it until the final object comes). Where the policy does not let the reader repair a
syntax (in strict, a guess such as an unquoted string value), the partials show what precedes it and go on only
if more text settles it (a comment still open); the final parse decides. A value right before such a place, or
still growing at the end (a number, a literal, a single-quoted string whose last quote may be an apostrophe),
waits; a double-quoted string that has closed is shown, though lenient's inner-quote repair may still extend it
(`"a 24"` + ` screen"`). Partials are checked against types, not against field
constraints or your validators, and discriminated unions are matched by shape until the final validation; the
correction loop's re-asks (`correct_with`) are not streamed, only their result. A reasoning tag written inside
a JSON value before the answer counts as a tag for the partials (the batch path ignores one inside a closed
`{…}`: telling needs the rest of the span); a tag still being written holds the search back until it is decided
(at most ~200 characters, and one past its `>`, which the quote rule looks at).
"""

from __future__ import annotations

import codecs
import copy
import dataclasses
import functools
import logging
import re
import sys
import types
import typing
from bisect import bisect_left, bisect_right
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ForwardRef, Generic, Optional, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, RootModel, TypeAdapter, ValidationError, create_model
from pydantic.fields import FieldInfo
from pydantic_core import from_json
from typing_extensions import is_typeddict

from resilient_parse.conform import Conformer
from resilient_parse.context import SemanticValidator
from resilient_parse.errors import ConfigurationError, ErrorDetail, InputTooLargeError, InvalidInputError
from resilient_parse.policy import Policy
from resilient_parse.repairs import KINDS
from resilient_parse.schema import AnyView, DictView, ListView, ModelView, ScalarView, TupleView, TypeView, UnionView
from resilient_parse.stages.extract import REASONING_TAGS, is_quoted_tag, opens_reasoning_block
from resilient_parse.stages.read_prefix import Prefix, Resume, read_prefix
from resilient_parse.stages.syntax import lossy_kinds

if TYPE_CHECKING:
    from resilient_parse.parser import Parser, ParseResult

T = TypeVar("T")
log = logging.getLogger("resilient_parse.streaming")

_BOUNDARY = re.compile(r'[",}\]]')
_OPEN_NUMBER = re.compile(r"[\[:,]\s*(-?[0-9][0-9.eE+-]*)\Z")
_ERROR_AT = re.compile(r"at line (\d+) column (\d+)")
_FREE_CHARS = 4_096  # an answer this small is re-read at every boundary: it costs microseconds
# what a container costs a read, in characters: pydantic-core builds a list or a dict in ~250 ns, the time it reads
# ~16-50 characters of flat JSON in (and the tree is walked, compared and validated per container on our side too).
# A read is counted as its characters or as its containers times this, whichever is more: `[[[[]]]]` costs what it
# holds, not what it measures (issue M05: nested arrays re-read whole at every ']' inside the 4 KiB window cost
# milliseconds per read). Flat JSON (objects of a few members, ~25 characters per bracket) counts its characters.
_CONTAINER_CHARS = 16
_FREE_READER_CHARS = 512  # the same for the text the reader reads, which costs more per character
_MAX_DROP_ROUNDS = 4
_PROBE_CHARS = 256  # a start just found is first read this far (then twice as far, …) to tell prose from JSON
_PROBE_MARGIN = 64  # an error this close to the window's end may be the window's own cut, so it does not count
# where the reader stops for these, the text may still be the answer: a comment still open, a repair the policy
# refuses (the final parse says so)
_UNDECIDED = frozenset({"comment_at_end", "repair_not_allowed"})


def _work(chars: int, containers: int) -> int:
    """What reading text of `chars` characters holding `containers` brackets costs, in characters of flat JSON."""
    return max(chars, _CONTAINER_CHARS * containers)


# -- the update -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StreamUpdate(Generic[T]):
    """One step of a stream.

    - `partial`: an instance of `partial_type(target)` — every field optional, filled with what is complete so far
      (None means "not arrived yet"; `partial.model_fields_set` says which fields did). On the final update it is
      the partial view of the final object, so a UI can always render `update.partial`.
    - `is_final`: True exactly once, on the last update.
    - `value`: the validated target object (final update only).
    - `result`: the `ParseResult` (value, repairs, candidate) behind `value` (final update only).
    - `correction`: the correction loop's `CorrectionResult` when `correct_with` was given (final update only).
    - `received`: characters received so far.
    """

    partial: Any
    is_final: bool = False
    value: T | None = None
    result: ParseResult[T] | None = None
    correction: Any = None
    received: int = 0


# -- partial types --------------------------------------------------------------------------------------------------

_COPIED_CONFIG = (
    "populate_by_name",
    "validate_by_name",
    "validate_by_alias",
    "arbitrary_types_allowed",
    "str_strip_whitespace",
    "str_to_lower",
    "str_to_upper",
    "use_enum_values",
    "coerce_numbers_to_str",
)


def _is_discriminator(meta: Any) -> bool:
    if isinstance(meta, FieldInfo):
        return meta.discriminator is not None
    return type(meta).__name__ == "Discriminator"


def _strip_required(tp: Any) -> Any:
    origin = get_origin(tp)
    if origin is not None and getattr(origin, "_name", None) in ("Required", "NotRequired", "ReadOnly"):
        return _strip_required(get_args(tp)[0])
    return tp


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:  # unresolvable forward references: the raw annotations are the best we have
        return dict(getattr(cls, "__annotations__", {}))


class _PartialBuilder:
    """Turns a target type into its partial twin: every model (BaseModel, dataclass, TypedDict) becomes a
    `Partial<Name>` model whose fields are all optional, recursively through lists, dicts, tuples and unions.
    Discriminators are dropped (a partial member may not have its tag yet); field constraints and validators are
    not copied (a value being written need not satisfy them yet — the final validation does)."""

    def __init__(self, extra: str = "ignore") -> None:
        self.extra = extra
        self.memo: dict[Any, Any] = {}
        self.namespace: dict[str, Any] = {}
        self.created: list[type[BaseModel]] = []

    def root(self, tp: Any) -> Any:
        out = self.convert(tp)
        for model in self.created:
            model.model_rebuild(force=True, _types_namespace=self.namespace)
        return out

    def convert(self, tp: Any) -> Any:
        tp = _strip_required(tp)
        origin = get_origin(tp)
        args = get_args(tp)
        if origin is Annotated:
            inner = self.convert(args[0])
            if inner is args[0]:
                return tp
            meta = tuple(m for m in args[1:] if not _is_discriminator(m))
            return Annotated.__class_getitem__((inner, *meta)) if meta else inner
        if isinstance(tp, type):
            if issubclass(tp, RootModel):
                return self.convert(tp.model_fields["root"].annotation)
            if issubclass(tp, BaseModel):
                return self.model(tp, self._model_fields(tp), dict(tp.model_config))
            if dataclasses.is_dataclass(tp):
                return self.model(tp, self._dataclass_fields(tp), dict(getattr(tp, "__pydantic_config__", {}) or {}))
            if is_typeddict(tp):
                fields = [(name, hint, None, None) for name, hint in _hints(tp).items()]
                return self.model(tp, fields, dict(getattr(tp, "__pydantic_config__", {}) or {}))
            return tp
        if origin is typing.Literal or not args:
            return tp
        new = tuple(a if a is Ellipsis else self.convert(a) for a in args)
        if all(a is b for a, b in zip(new, args)):
            return tp
        if origin in (Union, types.UnionType):
            return Union[new]  # noqa: UP007 - built from a runtime tuple
        return origin[new]

    @staticmethod
    def _model_fields(cls: type[BaseModel]) -> list[tuple[str, Any, Any, Any]]:
        return [(name, info.annotation, info.alias, info.validation_alias) for name, info in cls.model_fields.items()]

    @staticmethod
    def _dataclass_fields(cls: Any) -> list[tuple[str, Any, Any, Any]]:
        infos: dict[str, FieldInfo] = getattr(cls, "__pydantic_fields__", None) or {}
        hints = _hints(cls)
        out: list[tuple[str, Any, Any, Any]] = []
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            info = infos.get(f.name)
            if info is not None:
                out.append((f.name, info.annotation, info.alias, info.validation_alias))
            else:
                out.append((f.name, hints.get(f.name, Any), None, None))
        return out

    def model(self, cls: Any, fields: list[tuple[str, Any, Any, Any]], config: Mapping[str, Any]) -> Any:
        cached = self.memo.get(cls)
        if cached is not None:
            return cached
        key = f"__rp_partial_{len(self.memo)}"
        self.memo[cls] = ForwardRef(key)  # what a recursive reference sees while the model is being built
        definitions: dict[str, Any] = {}
        for name, annotation, alias, validation_alias in fields:
            definitions[name] = (
                Optional[self.convert(annotation)],  # noqa: UP045 - built at runtime
                Field(default=None, alias=alias, validation_alias=validation_alias),
            )
        settings = ConfigDict(extra=self.extra)  # type: ignore[typeddict-item]
        for option in _COPIED_CONFIG:
            if option in config:
                settings[option] = config[option]  # type: ignore[literal-required]
        model: type[BaseModel] = create_model(
            f"Partial{cls.__name__}",
            __config__=settings,
            __doc__=f"{cls.__name__} while it is being streamed: every field may still be missing (None).",
            __module__=__name__,
            **definitions,
        )
        self.memo[cls] = model
        self.namespace[key] = model
        self.created.append(model)
        return model


@dataclass(frozen=True)
class _Partial:
    """The partial type of a target, its adapter, and an adapter for the same shape that refuses unknown keys (a
    tree it accepts needs no key alignment, so the stream can skip the conformer)."""

    cls: Any
    adapter: TypeAdapter[Any]
    exact: TypeAdapter[Any]


@functools.lru_cache(maxsize=256)
def _cached_partial(target: Any) -> _Partial:
    return _build_partial(target)


def _build_partial(target: Any) -> _Partial:
    partial = _PartialBuilder().root(target)
    exact = _PartialBuilder(extra="forbid").root(target)
    return _Partial(partial, TypeAdapter(partial), TypeAdapter(exact))


def _partial_for(target: Any) -> _Partial:
    try:
        hash(target)
    except TypeError:
        return _build_partial(target)
    return _cached_partial(target)


def partial_type(target: Any) -> Any:
    """The partial twin of `target` that streamed updates are instances of (cached per target).

    `Plan` becomes `PartialPlan` with every field optional (None = not arrived yet); nested models, lists and dicts
    of models and unions follow recursively; `list[Step]` becomes `list[PartialStep]`. Scalars, enums and
    literals keep their types: a value shows up only once it is complete and valid.
    """
    return _partial_for(target).cls


# -- reading the text -----------------------------------------------------------------------------------------------


def _refused_kinds(policy: Policy) -> frozenset[str]:
    """The reader's repairs this policy refuses (a lossless one it forbids, which the reader makes anyway): the final
    parse refuses an answer with one, so the partials stop where it is."""
    return frozenset(k.name for k in KINDS.values() if k.stage == "syntax" and not policy.allows(k.name, k.lossless))


def _openers_for(view: TypeView) -> str:
    if isinstance(view, ModelView | DictView):
        return "{"
    if isinstance(view, ListView | TupleView):
        return "["
    return "{["


def _error_offset(message: str, text: str) -> int | None:
    m = _ERROR_AT.search(message)
    if m is None:
        return None
    line, column = int(m.group(1)), int(m.group(2))
    pos = 0
    for _ in range(line - 1):
        pos = text.find("\n", pos) + 1
        if pos == 0:
            return None
    return min(len(text), pos + column - 1)


def _wants_text(view: TypeView, path: Sequence[Any]) -> bool:
    """Whether the value at `path` (keys as written) is a `str` (or Any) for the target — for every union member
    the path can lead through. A key the schema does not know answers no."""
    if not path:
        if isinstance(view, UnionView):
            return all(_wants_text(o, path) for o in view.options)
        return isinstance(view, AnyView) or (isinstance(view, ScalarView) and view.py_type is str)
    part, rest = path[0], path[1:]
    if isinstance(view, AnyView):
        return True
    if isinstance(view, UnionView):
        routes = [o for o in view.options if _leads(o, part)]
        return bool(routes) and all(_wants_text(o, path) for o in routes)
    if isinstance(view, ModelView) and isinstance(part, str):
        fv = view.field_for_key(part)
        return fv is not None and _wants_text(fv.type, rest)
    if isinstance(view, ListView) and isinstance(part, int):
        return _wants_text(view.item, rest)
    if isinstance(view, TupleView) and isinstance(part, int):
        return part < len(view.items) and _wants_text(view.items[part], rest)
    if isinstance(view, DictView) and isinstance(part, str):
        return _wants_text(view.value, rest)
    return False


def _leads(view: TypeView, part: Any) -> bool:
    if isinstance(view, ModelView):
        return isinstance(part, str) and part in view.key_to_field
    if isinstance(view, DictView):
        return isinstance(part, str)
    return isinstance(view, ListView | TupleView | AnyView) and isinstance(part, int)


def _remove(tree: Any, loc: Sequence[Any]) -> bool:
    """Leave out the deepest part of `tree` on `loc` (a Pydantic error location) that exists. A list is cut at the
    failing item, so later items never shift into its place."""
    node = tree
    parent: Any = None
    key: Any = None
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:  # noqa: SIM114 - mypy narrows each
            parent, key, node = node, part, node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            parent, key, node = node, part, node[part]
        else:
            break
    if parent is None:
        return False
    if isinstance(parent, list):
        del parent[int(key) :]
    else:
        del parent[key]
    return True


def _fingerprint(tree: Any) -> tuple[Any, ...]:
    """What tells two reads of the same growing document apart: parsed prefixes only ever grow at their right
    edge, so the sizes and last keys along the rightmost path, and the leaf, say whether anything is new."""
    parts: list[Any] = []
    node = tree
    while True:
        if isinstance(node, dict):
            if not node:
                parts.append(("{}",))
                break
            key = next(reversed(node))
            parts.append((len(node), key))
            node = node[key]
        elif isinstance(node, list):
            parts.append((len(node),))
            if not node:
                break
            node = node[-1]
        else:
            parts.append((type(node).__name__, node))
            break
    return tuple(parts)


class _ListMemoConformer(Conformer):
    """The core's conformer, remembering list items between reads: an item that was complete last time and has
    not changed is not walked again, so aligning keys costs about one pass over the document in all."""

    def __init__(self, stream_memo: dict[tuple[Any, ...], tuple[list[Any], list[Any]]], *args: Any) -> None:
        super().__init__(*args)
        self.stream_memo = stream_memo

    def _items(self, items: list[Any], item_view: TypeView, path: list[str | int]) -> list[Any]:
        if isinstance(item_view, AnyView):
            return items
        key = tuple(path)
        previous = self.stream_memo.get(key)
        done = 0
        if previous is not None:
            raw, shaped = previous
            limit = min(len(raw), len(items)) - 1  # the last item may have been cut short
            while done < limit and items[done] == raw[done]:
                done += 1
            if done == 0:
                previous = None
        if previous is None:
            out = super()._items(items, item_view, path)
        else:
            out = shaped[:done] + [self.walk(v, item_view, None, [*path, i]) for i, v in enumerate(items[done:], done)]
        self.stream_memo[key] = (items, out)
        return out


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


# -- finding the answer's start, incrementally ----------------------------------------------------------------------

_TAG_NAMES = "|".join(REASONING_TAGS)
# the extraction stage's tag syntax (stages/extract.py), matched here one tag at a time as the text arrives
_REASONING_OPEN = re.compile(r"<(?:" + _TAG_NAMES + r")\b[^>\n]{0,200}>", re.IGNORECASE)
_REASONING_CLOSE = re.compile(r"</(?:" + _TAG_NAMES + r")\s*>", re.IGNORECASE)
# a tag still being written at the end of the text: only more text can say whether it is one
_OPEN_UNFINISHED = re.compile(r"<(?:" + _TAG_NAMES + r")\b[^>\n]{0,200}\Z", re.IGNORECASE)
_CLOSE_UNFINISHED = re.compile(r"</(?:" + _TAG_NAMES + r")\s*\Z", re.IGNORECASE)
_NAME_UNFINISHED = re.compile(r"<(/?)([A-Za-z]*)\Z")
_NAME_PREFIXES = frozenset(tag[:i] for tag in REASONING_TAGS for i in range(len(tag) + 1))
_OPEN_TAG_MAX = 2 + max(map(len, REASONING_TAGS)) + 200
_ANSWER_EVENT = re.compile(r"[<\n]")  # in the answer only a tag or a line break (a fence line) changes the state
_CLOSE_START = re.compile(r"</|<\Z")  # in reasoning only a closing tag does
_NON_SPACE = re.compile(r"[^ \t\r\n]")
_NOT_BLANK = re.compile(r"\S")
_SPACE_OR_TAB = " \t"
_PROSE, _FENCE, _REASONING = 0, 1, 2
_HELD_OTHER, _HELD_SPACES, _HELD_ATTRS = 0, 1, 2  # a tag being held: its name, or the whitespace / attributes after it
_WAIT = "wait"


def _starts_json(opener: str, follower: str) -> bool:
    """Whether a bracket followed by `follower` (the next character that is not whitespace) starts JSON: `{` must
    be followed by a key or `}`, `[` by a value or `]` — so "{name}" or "[1]" in prose are not taken for the answer."""
    if opener == "{":
        return follower in '"}'
    return follower in '{["]-0123456789tfn'


def _tag_match(buf: str, at: int, reasoning: bool) -> tuple[bool, int] | str | None:
    """The reasoning tag written at `buf[at]` (a `<`): (opens, end), None when there is none, `_WAIT` when the text
    ends inside what may still become one. Inside reasoning only a closing tag counts."""
    m = _REASONING_CLOSE.match(buf, at)
    if m is not None:
        return False, m.end()
    if not reasoning:
        m = _REASONING_OPEN.match(buf, at)
        if m is not None:
            return True, m.end()
    name = _NAME_UNFINISHED.match(buf, at)  # "<", "</", "<thi": a tag name still being written
    if name is not None and name.group(2).lower() in _NAME_PREFIXES:
        closing, written = bool(name.group(1)), bool(name.group(2))
        if closing or not reasoning or not written:  # inside reasoning, "<thi" can only be text; "<" may be "</"
            return _WAIT
    if _CLOSE_UNFINISHED.match(buf, at) or (not reasoning and _OPEN_UNFINISHED.match(buf, at)):
        return _WAIT
    return None


class _Locator:
    """Where the JSON answer starts — the first plausible opener outside reasoning, inside a fence if the answer
    region has one — found as the text arrives, each character looked at a bounded number of times.

    It follows the extraction stage's reading of a text (`<think>`…`</think>` blocks, also one whose opening tag
    was lost; markdown fences, per answer region) with the state kept between chunks instead of re-read: whether
    the text is inside reasoning, the open fence and the fence line being written, a tag still being written, the
    opener whose next character has not arrived. A structure pass records where answer prose, fence bodies and
    reasoning begin (`bounds`); a search pass records the plausible openers in the answer (`hits`) — while the
    stream follows a start it is idle, and on a restart it catches up once over what it skipped.

    It also keeps the text from where a start may still be needed (`text_from`), joined only when read, so no chunk
    copies the text received so far. `examined` and `copied` count characters for the tests of that promise."""

    def __init__(self, openers: str) -> None:
        self.openers = re.compile("[" + re.escape(openers) + "]")
        self.parts: list[str] = []  # the text from `parts_at` on
        self.parts_at = 0
        self.held: list[str] = []  # the text from `held_at` on, not read yet: a tag still being written
        self.held_at = 0
        self.held_len = 0
        self.held_kind = _HELD_OTHER
        self.reasoning = False
        self.seen_tag = False  # a closing tag before any other tag ends a block whose opening tag was lost
        self.last_char = ""  # the last character before the text being scanned ("" at the start)
        self.last_solid = ""  # the last one that is not a space or tab
        self.no_open_before = 0  # an opening tag read as text covers this far: no other one starts inside it
        self.closed_at = -1  # where the last closing tag that counts ends
        self.region = 0
        self.fence: tuple[str, int] | None = None  # the open fence: marker character and length
        self._new_line()
        self.bounds: list[tuple[int, int, int]] = [(0, 0, _PROSE)]  # (from, region, kind), in order
        self.following: int | None = None  # the start the stream follows: no search, the text kept from there
        self.cursor = 0  # openers are recorded up to here
        self.hits: list[int] = []
        self.hit_regions: list[int] = []
        self.fence_hits: list[int] = []
        self.fence_regions: list[int] = []
        self.pending: tuple[int, str, int, bool] | None = None  # an opener waiting for its next character
        self.examined = 0
        self.copied = 0

    # -- the structure pass -------------------------------------------------------------------------------------

    def _new_line(self) -> None:
        self.line_phase = 0  # 0 indent, 1 fence marker, 2 info string, 3 not a fence line
        self.line_indent = 0
        self.line_char = ""
        self.line_marker = 0
        self.line_backtick = False
        self.line_blank = True

    def _line_text(self, buf: str, i: int, j: int) -> None:
        """Read `buf[i:j]` (no line break inside) as part of the current line: is it a fence line, and which."""
        while i < j and self.line_phase < 2:
            if self.line_phase == 0:
                ch = buf[i]
                if ch in _SPACE_OR_TAB and self.line_indent < 3:
                    self.line_indent += 1
                    i += 1
                    continue
                if ch not in "`~":
                    self.line_phase = 3
                    return
                self.line_phase, self.line_char = 1, ch
            k = i
            while k < j and buf[k] == self.line_char:
                k += 1
            self.line_marker += k - i
            i = k
            if i < j:
                self.line_phase = 2 if self.line_marker >= 3 else 3
        if self.line_phase == 2 and i < j:
            self.line_backtick = self.line_backtick or buf.find("`", i, j) >= 0
            self.line_blank = self.line_blank and _NOT_BLANK.search(buf, i, j) is None

    def _line_end(self, at: int) -> None:
        """A line break at `at`: a fence line opens a fence (its body starts on the next line) or closes one."""
        if self.line_phase in (1, 2) and self.line_marker >= 3:
            if self.fence is None:
                if not (self.line_char == "`" and self.line_backtick):
                    self.fence = (self.line_char, self.line_marker)
                    self._bound(at + 1, _FENCE)
            elif self.line_char == self.fence[0] and self.line_marker >= self.fence[1] and self.line_blank:
                self.fence = None  # the closing line holds no opener, so the body may as well end at its end
                self._bound(at, _PROSE)
        self._new_line()

    def _bound(self, at: int, kind: int) -> None:
        if self.bounds[-1][0] == at:
            self.bounds.pop()
        self.bounds.append((at, self.region, kind))

    def _new_region(self, at: int, kind: int) -> None:
        self.region += 1
        self.fence = None
        self._new_line()
        self._bound(at, kind)

    def _scan(self, buf: str, at: int) -> None:
        """The structure pass over `buf` (the text from `at`): tags, fence lines. Stops at a tag being written."""
        i, n = 0, len(buf)
        while i < n:
            if self.reasoning:
                m = _CLOSE_START.search(buf, i)
                if m is None:
                    break
                tag = self._tag_at(buf, at, m.start(), reasoning=True)
                if tag is _WAIT:
                    self._hold(buf, at, m.start())
                    return
                if tag is None:
                    i = m.start() + 1
                    continue
                assert isinstance(tag, tuple)
                self.reasoning = False
                self.closed_at = at + tag[1]
                self._new_region(at + tag[1], _PROSE)
                i = tag[1]
                continue
            m = _ANSWER_EVENT.search(buf, i)
            j = n if m is None else m.start()
            self._line_text(buf, i, j)
            if m is None:
                break
            if buf[j] == "\n":
                self._line_end(at + j)
                i = j + 1
                continue
            tag = self._tag_at(buf, at, j, reasoning=False)
            if tag is _WAIT:
                self._hold(buf, at, j)
                return
            if isinstance(tag, tuple) and not tag[0]:
                self.closed_at = at + tag[1]
            if tag is None or (isinstance(tag, tuple) and not tag[0] and self.seen_tag):
                self._line_text(buf, j, j + 1)  # a `<` that is text, or a closing tag with no block to close
                i = j + 1
                continue
            assert isinstance(tag, tuple)
            opens, end = tag
            self.seen_tag = True
            if opens:
                self.reasoning = True
                self._new_region(at + j, _REASONING)
            else:  # a closing tag before any other: everything so far was reasoning whose opening tag was lost
                self.bounds = [(0, self.region, _REASONING)]
                self._forget_openers()
                self._new_region(at + end, _PROSE)
            i = end
        self._remember_tail(buf, n)
        self.held, self.held_at, self.held_len = [], at + n, 0

    def _tag_at(self, buf: str, at: int, j: int, reasoning: bool) -> tuple[bool, int] | str | None:
        """`_tag_match`, then the extraction stage's rules on which tags count: a quoted tag is text, and an
        opening tag must start a block (`stages.extract.opens_reasoning_block`). They look at the character after
        the tag, so a tag the text ends with waits for it, and back along the line, which `_context` hands them
        whole."""
        tag = _tag_match(buf, j, reasoning)
        if not isinstance(tag, tuple):
            return tag
        opens, end = tag
        if end >= len(buf):
            return _WAIT
        if opens and at + j < self.no_open_before:
            return None  # inside an opening tag read as text (the batch path's finditer never starts one there)
        window, shift = self._context(buf, j, end)
        if opens and not opens_reasoning_block(window, j - shift, end - shift):
            self.no_open_before = at + end
            return None
        if not opens and is_quoted_tag(window, j - shift, end - shift):
            return None
        return tag

    def _context(self, buf: str, j: int, end: int) -> tuple[str, int]:
        """The tag at `buf[j:end]` with what the rules look at around it: the next character, the one before and
        the last one before it that is not a space or tab — from earlier chunks when `buf` starts too late. The
        window and the offset of `buf` in it."""
        k = j - 1
        while k >= 0 and buf[k] in _SPACE_OR_TAB:
            k -= 1
        if k >= 0:
            return buf[k : end + 1], k
        before = self.last_solid + (self.last_char if self.last_char in _SPACE_OR_TAB else "")
        if j > 0:  # only spaces and tabs between the chunk's start and the tag
            before = self.last_solid + buf[j - 1]
        return before + buf[j : end + 1], j - len(before)

    def _remember_tail(self, buf: str, stop: int) -> None:
        """Keep what `_context` needs of the text before `buf[stop:]`: its last character and last solid one."""
        if stop <= 0:
            return
        self.last_char = buf[stop - 1]
        k = stop - 1
        while k >= 0 and buf[k] in _SPACE_OR_TAB:
            k -= 1
        if k >= 0:
            self.last_solid = buf[k]

    def _hold(self, buf: str, at: int, i: int) -> None:
        self._remember_tail(buf, i)
        rest = buf[i:]
        self.held, self.held_at, self.held_len = [rest], at + i, len(rest)
        self.held_kind = _HELD_OTHER
        if not _NAME_UNFINISHED.match(rest):  # the name is complete
            if _CLOSE_UNFINISHED.match(rest):
                self.held_kind = _HELD_SPACES
            elif not self.reasoning and _OPEN_UNFINISHED.match(rest):
                self.held_kind = _HELD_ATTRS

    def _still_held(self, piece: str) -> bool:
        """Whether `piece` cannot decide the tag being held (so it need not be read again): more whitespace after
        `</think`, or more of an opening tag's attributes that neither end it nor pass its length."""
        if self.held_kind == _HELD_SPACES:
            return piece.isspace()
        return (
            self.held_kind == _HELD_ATTRS
            and self.held_len + len(piece) < _OPEN_TAG_MAX
            and ">" not in piece
            and "\n" not in piece
        )

    # -- the search pass ----------------------------------------------------------------------------------------

    def _forget_openers(self) -> None:
        self.hits, self.hit_regions, self.fence_hits, self.fence_regions = [], [], [], []
        self.pending = None

    def _record(self, at: int, region: int, in_fence: bool) -> None:
        self.hits.append(at)
        self.hit_regions.append(region)
        if in_fence:
            self.fence_hits.append(at)
            self.fence_regions.append(region)

    def _search(self, text: str, text_at: int, hi: int) -> bool:
        """Record the plausible openers in the answer between the cursor and `hi`; `text` holds the text from
        `text_at` to the end (an opener's next character may lie past `hi`). True when any turned up."""
        lo = self.cursor
        self.examined += hi - lo
        recorded = len(self.hits)
        if self.pending is not None:
            follower = _NON_SPACE.search(text, lo - text_at)
            if follower is not None:
                at, opener, region, in_fence = self.pending
                self.pending = None
                if _starts_json(opener, follower.group()):
                    self._record(at, region, in_fence)
        bounds = self.bounds
        k = max(0, bisect_right(bounds, (lo, sys.maxsize, 0)) - 1)
        while k < len(bounds) and bounds[k][0] < hi:
            start, region, kind = bounds[k]
            end = bounds[k + 1][0] if k + 1 < len(bounds) else hi
            k += 1
            if kind == _REASONING or end <= lo:
                continue
            for m in self.openers.finditer(text, max(start, lo) - text_at, min(end, hi) - text_at):
                follower = _NON_SPACE.search(text, m.end())
                if follower is None:
                    self.pending = (text_at + m.start(), m.group(), region, kind == _FENCE)
                elif _starts_json(m.group(), follower.group()):
                    self._record(text_at + m.start(), region, kind == _FENCE)
        self.cursor = hi
        keep = max(0, bisect_right(bounds, (hi, sys.maxsize, 0)) - 1)
        if keep:
            del bounds[:keep]
        return len(self.hits) > recorded or self.pending is not None

    # -- what the stream asks -----------------------------------------------------------------------------------

    def feed(self, piece: str) -> bool:
        """Read one more chunk. True when it brought an opener that may start the answer (or left one undecided)."""
        self.parts.append(piece)
        self._trim()
        if self.following is None and self.cursor < self.held_at:
            self._catch_up()
        if (
            not self.held
            and (self.pending is None or self.following is not None)  # an opener waiting matters to the search only
            and "<" not in piece
            and (self.reasoning or (self.line_phase == 3 and "\n" not in piece))
        ):
            # reasoning without a tag, or more of a line that is not a fence line: nothing here changes the state
            self._remember_tail(piece, len(piece))
            at, self.held_at = self.held_at, self.held_at + len(piece)
            self.examined += len(piece)
            if self.following is not None:
                return False
            if self.reasoning or self.openers.search(piece) is None:
                self.cursor = self.held_at
                return False
            return self._search(piece, at, self.held_at)
        if self.held and self._still_held(piece):
            self.held.append(piece)
            self.held_len += len(piece)
            return False
        at = self.held_at
        buf = "".join([*self.held, piece]) if self.held else piece
        self.examined += len(buf)
        self._scan(buf, at)
        if self.following is not None:
            return False
        return self._search(buf, at, self.held_at)

    def _trim(self) -> None:
        """Let go of the text no start can lie in any more: before the tag being held, the opener waiting for its
        next character and the start being followed. Whole chunks only, so nothing is copied."""
        if len(self.parts) < 2:
            return
        keep = self.cursor if self.pending is None else min(self.cursor, self.pending[0])
        if self.following is not None:
            keep = min(keep, self.following)
        drop = 0
        at = self.parts_at
        while drop < len(self.parts) - 1 and at + len(self.parts[drop]) <= keep:
            at += len(self.parts[drop])
            drop += 1
        if drop:
            del self.parts[:drop]
            self.parts_at = at

    def _catch_up(self) -> None:
        """The stream followed a start that turned out not to be the answer: record the openers it skipped."""
        self._search(self._joined(), self.parts_at, self.held_at)

    def follow(self, start: int) -> None:
        """The stream reads from `start` now: stop searching, keep the text from there."""
        self.following = start

    def unfollow(self) -> None:
        self.following = None

    def locate(self, search_from: int) -> tuple[int | None, bool]:
        """The first plausible opener at or after `search_from` — in the first answer region that has one, inside
        one of its fences if any — and whether an opener that needs more text to judge stands in the way."""
        if self.cursor < self.held_at:
            self._catch_up()
        i = bisect_left(self.hits, search_from)
        hit_region = self.hit_regions[i] if i < len(self.hits) else None
        pending = self.pending if self.pending is not None and self.pending[0] >= search_from else None
        if hit_region is None and pending is None:
            self._forget_openers()  # all behind the search now
            return None, False
        region = hit_region if hit_region is not None else pending[2]  # type: ignore[index]
        j = bisect_left(self.fence_hits, search_from)
        if j < len(self.fence_hits) and self.fence_regions[j] == region:
            return self.fence_hits[j], False
        if pending is not None and pending[2] == region and pending[3]:
            return None, True
        if hit_region == region:
            return self.hits[i], False
        return None, True

    def _joined(self) -> str:
        if len(self.parts) != 1:
            self.parts = ["".join(self.parts)]
            self.copied += len(self.parts[0])
        return self.parts[0]

    def text_from(self, start: int, size: int | None = None) -> str:
        """The text from `start` (at most `size` characters of it)."""
        text = self._joined()
        begin = start - self.parts_at
        out = text[begin:] if size is None else text[begin : begin + size]
        self.copied += len(out)
        return out


class _Stream:
    """The state of one stream, fed chunk by chunk; shared by the sync and async drivers."""

    def __init__(
        self,
        parser: Parser,
        target: Any,
        *,
        partial_strings: bool = False,
        aliases: Mapping[str, str] | None = None,
        validators: Sequence[SemanticValidator] = (),
        reparse_budget: float | None = 2.0,
        correct_with: tuple[Any, Sequence[Mapping[str, Any]]] | None = None,
        correct_options: Mapping[str, Any] | None = None,
    ) -> None:
        if reparse_budget is not None and (
            isinstance(reparse_budget, bool) or not isinstance(reparse_budget, int | float) or reparse_budget <= 0
        ):
            raise ConfigurationError(f"reparse_budget must be a positive number or None, not {reparse_budget!r}")
        if correct_with is not None:
            if not isinstance(correct_with, tuple) or len(correct_with) != 2:
                raise ConfigurationError("correct_with must be a (llm, messages) pair")
            try:
                import resilient_parse.correction.loop  # noqa: F401 - fail now, not after the whole stream
            except ImportError as exc:
                raise ConfigurationError(f"correct_with needs the correction loop, which did not load: {exc}") from exc
        self.parser = parser
        self.target = target
        self.plan = parser.plan(target)
        self.ctx = parser.context(target, aliases)
        self.aliases = aliases
        self.validators = tuple(validators)
        self.partial_strings = bool(partial_strings)
        self.budget = reparse_budget
        self.correct_with = correct_with
        self.correct_options = dict(correct_options or {})
        self.openers = _openers_for(self.plan.view)
        self.locator = _Locator(self.openers)
        self.partial: _Partial | None
        try:
            self.partial = _partial_for(target)
        except Exception as exc:  # the final object still comes; only the partial views are lost
            log.warning("no partial view of %r: %s: %s", target, type(exc).__name__, exc)
            self.partial = None
        self.decoder: codecs.IncrementalDecoder | None = None
        self.limit = parser.policy.max_input_chars
        self.pieces: list[str] = []
        self.received = 0
        self.start: int | None = None
        self.search_from = 0
        self.undecided = False
        self.dirty = False
        self.stalled = self.partial is None
        self.broken = False  # the locator failed: no more partials (the final object still comes)
        self.spent = 0
        self.reads = 0
        self.opened = 0  # '[' and '{' received (in strings too: a bound, never an undercount)
        self.opened_before: int | None = None  # of those, how many come before the answer's start (None: not known)
        self.last_read: tuple[Any, ...] | None = None
        self.mode: Any = "trailing-strings" if self.partial_strings else True
        self.exact_ok = True
        self.fast_reads = True  # whether pydantic-core's partial parser can still read the answer
        self.resume: Resume | None = None  # where the reader's next read of the answer may start
        self.lossy = lossy_kinds(parser.policy)
        self.refused = _refused_kinds(parser.policy)
        self.max_depth = parser.policy.max_depth
        self.memo: dict[tuple[Any, ...], tuple[list[Any], list[Any]]] = {}
        self.shown: Any = None

    # -- input ------------------------------------------------------------------------------------------------

    def _decode(self, chunk: Any) -> str:
        if isinstance(chunk, str):
            return chunk
        if isinstance(chunk, bytes | bytearray):
            if self.decoder is None:
                self.decoder = codecs.getincrementaldecoder("utf-8")()
            try:
                return self.decoder.decode(bytes(chunk))
            except UnicodeDecodeError as exc:
                raise InvalidInputError(
                    "a streamed chunk is not valid UTF-8",
                    [ErrorDetail(path="", kind="invalid_utf8", message=str(exc), offset=self.received + exc.start)],
                ) from None
        raise InvalidInputError(
            f"stream chunks must be str or bytes, got {type(chunk).__name__}",
            [ErrorDetail(path="", kind="invalid_input", message=f"got {type(chunk).__name__}")],
        )

    def text(self) -> str:
        """The whole text, joined once: for the final parse."""
        if len(self.pieces) != 1:
            self.pieces = ["".join(self.pieces)]
        return self.pieces[0]

    def feed(self, chunk: Any) -> StreamUpdate[Any] | None:
        piece = chunk if type(chunk) is str else self._decode(chunk)
        if not piece:
            return None
        self.pieces.append(piece)
        self.received += len(piece)
        self.opened += piece.count("[") + piece.count("{")
        if self.received > self.limit:
            limit = self.limit
            raise InputTooLargeError(
                f"the stream passed {limit:,} characters (Policy.max_input_chars)",
                [ErrorDetail(path="", kind="input_too_large", message=f"{self.received} > {limit} characters")],
            )
        opener = self._locate_more(piece)
        if self.start is not None and self.locator.closed_at > self.start:
            self._reasoning_closed()
        if self.stalled:
            return None
        if self.start is None:
            if not (self.dirty or self.undecided or opener):
                return None
            self.dirty = True
        elif self.partial_strings or _BOUNDARY.search(piece):
            self.dirty = True
        if not self.dirty:
            return None
        if self.budget is not None and self.start is not None:
            opened = self.opened - self.opened_before if self.opened_before is not None else 0
            cost = self._read_cost(self.received - self.start, opened)
            if cost and self.spent + cost > self.budget * _work(self.received, self.opened):
                return None
        try:
            return self._update()
        except Exception as exc:  # a partial is a courtesy: never let it break the stream
            log.debug("partial update failed: %s: %s", type(exc).__name__, exc)
            self.stalled = True
            return None

    def _locate_more(self, piece: str) -> bool:
        """Let the locator read the chunk; True when it may have found where the answer starts."""
        if self.broken:
            return False
        try:
            return self.locator.feed(piece)
        except Exception as exc:  # a partial is a courtesy: never let it break the stream
            log.debug("locating the answer failed: %s: %s", type(exc).__name__, exc)
            self.broken = self.stalled = True
            return False

    def _restart(self, search_from: int) -> None:
        """The JSON being followed is not the answer: look again from `search_from`."""
        self.search_from = search_from
        self.start = None
        self.opened_before = None
        self.fast_reads = True
        self.resume = None
        self.locator.unfollow()

    def _reasoning_closed(self) -> None:
        """A reasoning block whose opening tag was never sent ("…draft {…} </think> {answer}") shows itself only
        by its closing tag: when one arrives after the JSON we were following, that JSON was a draft — start over
        after the tag. (The batch path reads such a block the same way.)"""
        self._restart(self.locator.closed_at)
        self.undecided = False
        self.stalled = self.partial is None or self.broken
        self.dirty = True
        self.shown = None
        self.last_read = None
        self.memo = {}
        self.exact_ok = True

    # -- partials ---------------------------------------------------------------------------------------------

    def _doc(self) -> str:
        """The answer so far, without a number at its very end (it may still grow: 12 -> 125)."""
        assert self.start is not None
        doc = self.locator.text_from(self.start)
        tail = _OPEN_NUMBER.search(doc, max(0, len(doc) - 200))
        return doc[: len(doc) - len(tail.group(1))] if tail is not None else doc

    def _not_json_here(self) -> bool:
        """Whether a start just found is plainly not JSON ("{} is empty", "[see below]"). Judged from a window
        that doubles until it can tell, so trying the openers of a long text one after another reads about as far
        as each needs, never the rest of the text each time. False when it is JSON so far: the full read goes on."""
        assert self.start is not None
        size = _PROBE_CHARS
        while True:
            window = self.locator.text_from(self.start, size)
            if len(window) < size:
                return False  # what follows the start is shorter: the full read decides at about the same cost
            try:
                if from_json(window, allow_partial=self.mode):
                    return False  # a value was read: this is the answer, or one with a syntax error in it
            except ValueError as exc:
                offset = _error_offset(str(exc), window)
                if offset is not None and offset <= size - _PROBE_MARGIN:
                    # a syntax pydantic-core does not read: the reader, with its repairs, tells prose from JSON
                    prefix = self._read_prefix(window, strings=False)
                    if prefix.failure is None:
                        return False
                    # a comment the window cuts off says nothing yet: a longer window tells (`_UNDECIDED`)
                    if prefix.failure.offset <= size - _PROBE_MARGIN and prefix.failure.kind not in _UNDECIDED:
                        return self.shown is None and not prefix.tree
            size *= 2

    def _update(self) -> StreamUpdate[Any] | None:
        self.dirty = False
        read_by_reader = False
        while True:
            if self.start is None:
                self.start, self.undecided = self.locator.locate(self.search_from)
                if self.start is None:
                    return None
                self.locator.follow(self.start)
                if self._not_json_here():
                    self._restart(self.start + 1)
                    continue
            doc = self._doc()
            self.reads += 1
            opened = doc.count("[") + doc.count("{")
            self.opened_before = self.opened - opened
            work = _work(len(doc), opened)
            whole = work if work > _FREE_CHARS else 0
            self.spent += whole
            if self.fast_reads:
                outcome, got = self._fast_read(doc)
                if outcome == "offer":
                    return self._offer(got)
                if outcome == "same":
                    return None
                if outcome == "tree":
                    tree = got
                    break
            # a syntax pydantic-core does not read (a trailing comma, single quotes, a comment, …): the reader
            # goes on through the repairs the policy allows
            prefix = self._read_prefix(doc, strings=self.partial_strings, resume=self.resume)
            self.resume = prefix.resume
            if prefix.chars_read > _FREE_READER_CHARS:
                self.spent += max(0, prefix.chars_read - whole)
            tree, failure = prefix.tree, prefix.failure
            if failure is None or tree or self.shown is not None:
                read_by_reader = True
                break
            if failure.offset < len(doc) and failure.kind not in _UNDECIDED:
                # not JSON after all ("{"a" x} …"): look further on
                self._restart(self.start + 1)
                continue
            return None  # what stopped the reader may be settled by more text (a comment still open)
        if not isinstance(tree, dict | list):
            return None
        if self.partial_strings and not read_by_reader:
            self._hide_unfinished_string(tree, doc)
        return self._shape(tree)

    def _fast_read(self, doc: str) -> tuple[str, Any]:
        """pydantic-core's partial read of `doc`: ("offer", partial) validated straight from the text, ("tree",
        tree), ("same", None) when nothing is new, or ("stopped", None) when it stopped short of the end at a
        syntax strict JSON does not have (the reader takes over)."""
        if self.exact_ok and not self.partial_strings:
            shown = self._exact(doc)
            if shown is not None:
                if self.shown is None or not _same(shown, self.shown):
                    return "offer", shown
                return self._checked(doc)
        try:
            tree = from_json(doc, allow_partial=self.mode)
        except ValueError:
            self.fast_reads = False  # its partial mode reads any cut: this is a syntax error, in the text for good
            return "stopped", None
        if _fingerprint(tree) != self.last_read:
            return "tree", tree
        return self._checked(doc)

    def _checked(self, doc: str) -> tuple[str, Any]:
        """A partial read that brings nothing new: there may be nothing new, or pydantic-core's partial modes
        stopped at a syntax error as if the text ended there (they read `{"a": 1 "b": 2` as `{"a": 1}` for good).
        A whole read tells: it fails at the end ("EOF while parsing…") only if the text is JSON so far, or after
        the answer ("trailing characters": complete, what follows is not part of it)."""
        try:
            from_json(doc)
        except ValueError as exc:
            if not str(exc).startswith(("EOF", "trailing characters")):
                self.fast_reads = False
                return "stopped", None
        return "same", None

    def _read_cost(self, size: int, opened: int) -> int:
        """What reading an answer of `size` characters and `opened` containers counts against the budget: its work
        (`_work`) beyond 4 KiB (the tree is loaded, aligned and validated whole), or the text the reader reads beyond
        512 characters (from where its last read left off), whichever is more."""
        work = _work(size, opened)
        cost = work if work > _FREE_CHARS else 0
        if not self.fast_reads:
            unread = size - (self.resume.at if self.resume is not None else 0)
            cost = max(cost, unread if unread > _FREE_READER_CHARS else 0)
        return cost

    def _read_prefix(self, doc: str, strings: bool, resume: Resume | None = None) -> Prefix:
        """The tree so far by the reader's rules; a string still being written is shown as far as it goes where
        `strings` and the target wants a `str` there (as `_hide_unfinished_string` decides for the fast read)."""
        keep = functools.partial(_wants_text, self.plan.view) if strings else None
        return read_prefix(
            doc, lossy=self.lossy, max_depth=self.max_depth, keep_string=keep, resume=resume, refused=self.refused
        )

    def _hide_unfinished_string(self, tree: Any, doc: str) -> None:
        """A string still being written is shown only where the target wants a `str`: a half-written "12" must
        not become the int 1, nor "sea" the choice "search". Anywhere else it waits until it is complete."""
        path: list[Any] = []
        parent: Any = None
        key: Any = None
        node = tree
        while isinstance(node, dict | list) and node:
            key = next(reversed(node)) if isinstance(node, dict) else len(node) - 1
            parent, node = node, node[key]
            path.append(key)
        if parent is None or not isinstance(node, str) or _wants_text(self.plan.view, path):
            return
        finished: Any = from_json(doc, allow_partial=True)  # drops a string that has not closed
        for part in path:
            try:
                finished = finished[part]
            except (KeyError, IndexError, TypeError):
                del parent[key]
                return

    def _exact(self, doc: str) -> Any:
        """The partial object straight from the text when every key is a field's and every value fits — nothing
        to align, as in the batch fast path (one pass in Rust, no Python tree). None when that is not so."""
        assert self.partial is not None
        try:
            return self.partial.exact.validate_json(doc, experimental_allow_partial=self.mode)
        except ValidationError as exc:
            if any(e["type"] == "extra_forbidden" for e in exc.errors(include_url=False, include_context=False)):
                self.exact_ok = False  # a key that needs aligning stays in the text for good
            return None
        except TypeError:  # a Pydantic without partial validation (< 2.10): the slower path always
            self.exact_ok = False
            return None
        except ValueError:
            return None

    def _offer(self, shown: Any) -> StreamUpdate[Any] | None:
        if self.shown is not None and _same(shown, self.shown):
            return None
        self.shown = shown
        return StreamUpdate(partial=shown, received=self.received)

    def _shape(self, tree: Any) -> StreamUpdate[Any] | None:
        """Align keys and coerce values with the core's conformer and the plugin hooks, then validate."""
        assert self.partial is not None
        fingerprint = _fingerprint(tree)
        if fingerprint == self.last_read:
            return None
        self.last_read = fingerprint
        if self.exact_ok and self.partial_strings:
            try:
                return self._offer(self.partial.exact.validate_python(tree))
            except ValidationError:
                pass
        conformer = _ListMemoConformer(
            self.memo, self.ctx, self.parser.host.propose_key_mappings, self.parser.host.coerce_value
        )
        shaped = conformer.run(tree, self.plan.view).tree
        shown = self._validate(shaped)
        return None if shown is None else self._offer(shown)

    def _validate(self, tree: Any) -> Any:
        """The partial object for `tree`, leaving out what does not validate yet (a list is cut at a bad item)."""
        assert self.partial is not None
        copied = False
        for _ in range(_MAX_DROP_ROUNDS):
            try:
                return self.partial.adapter.validate_python(tree)
            except ValidationError as exc:
                if not copied:
                    tree, copied = copy.deepcopy(tree), True
                locs = sorted(
                    (tuple(e["loc"]) for e in exc.errors(include_url=False, include_context=False)),
                    key=len,
                    reverse=True,
                )
                if not any([_remove(tree, loc) for loc in locs]):
                    return None
        return None

    # -- the end --------------------------------------------------------------------------------------------------

    def _tail(self) -> None:
        if self.decoder is not None:
            try:
                rest = self.decoder.decode(b"", final=True)
            except UnicodeDecodeError as exc:
                raise InvalidInputError(
                    "the stream ends in the middle of a UTF-8 character",
                    [ErrorDetail(path="", kind="invalid_utf8", message=str(exc), offset=self.received)],
                ) from None
            if rest:
                self.pieces.append(rest)
                self.received += len(rest)

    def final_partial(self, value: Any) -> Any:
        """The final object seen through the partial type: dumped by field name and read back by field name, so
        aliases that differ between validation and serialisation cannot lose a field."""
        if self.partial is None:
            return None
        try:
            dumped = self.plan.adapter.dump_json(value, by_alias=False)
            try:
                return self.partial.exact.validate_json(dumped, by_alias=False, by_name=True)
            except ValidationError:  # extra="allow" models dump their extras
                return self.partial.adapter.validate_json(dumped, by_alias=False, by_name=True)
        except Exception:  # a target whose dump does not read back (custom serialisers): the last partial
            return self.shown

    def finish(self) -> StreamUpdate[Any]:
        self._tail()
        text = self.text()
        result = self.parser.parse_result(text, self.target, aliases=self.aliases, validators=self.validators)
        return StreamUpdate(
            partial=self.final_partial(result.value),
            is_final=True,
            value=result.value,
            result=result,
            received=self.received,
        )

    def correction_args(self) -> tuple[_Replay, Sequence[Mapping[str, Any]], dict[str, Any]]:
        """The correction loop's arguments: the streamed answer is replayed as the model's first reply, so the
        loop parses it like any answer and re-asks the model only when it does not parse."""
        from resilient_parse.correction.adapters import as_adapter

        assert self.correct_with is not None
        self._tail()
        llm, messages = self.correct_with
        options = {"parser": self.parser, "aliases": self.aliases, "validators": self.validators}
        options.update(self.correct_options)
        return _Replay(self.text(), as_adapter(llm)), messages, options

    def finish_corrected(self, outcome: Any) -> StreamUpdate[Any]:
        from resilient_parse.parser import ParseResult

        result = ParseResult(
            value=outcome.value,
            repairs=tuple(outcome.repairs),
            candidate=outcome.candidate,
            mode=self.parser.policy.name,
        )
        return StreamUpdate(
            partial=self.final_partial(outcome.value),
            is_final=True,
            value=outcome.value,
            result=result,
            correction=outcome,
            received=self.received,
        )


class _Replay:
    """An LLM adapter whose first reply is the answer already streamed; later calls go to the real model."""

    def __init__(self, text: str, llm: Any) -> None:
        self.first: str | None = text
        self.llm = llm
        self.name = getattr(llm, "name", "llm")

    def complete(self, messages: Any) -> Any:
        if self.first is not None:
            return self._replayed()
        return self.llm.complete(messages)

    async def acomplete(self, messages: Any) -> Any:
        if self.first is not None:
            return self._replayed()
        return await self.llm.acomplete(messages)

    def _replayed(self) -> Any:
        from resilient_parse.correction.types import Completion

        text, self.first = self.first, None
        return Completion(text=text or "", model=self.name)


# -- drivers --------------------------------------------------------------------------------------------------------


def stream(parser: Parser, chunks: Iterable[str | bytes], target: Any, **options: Any) -> Iterator[StreamUpdate[Any]]:
    """Yield a `StreamUpdate` with a partial object each time something new in the answer is complete, then a
    final one (`is_final=True`) with the validated object. A `ParseError` from the final parse is raised after
    the partial updates; errors raised by `chunks` itself propagate unchanged.

    Options: `partial_strings=True` shows strings while they are being written (numbers and literals always wait
    until complete); `aliases` and `validators` as in `Parser.parse_result`; `reparse_budget` (default 2.0, None to
    read at every boundary) bounds the work re-read for partials of answers over 4 KiB of work to that multiple of
    the work received (work: characters, or brackets x 16 where that is more; see the module's Cost);
    `correct_with=(llm, messages)` sends a final answer that does not parse through the correction loop (the
    streamed text counts as the model's first reply), with `correct_options` passed on to it.
    """
    state = _Stream(parser, target, **options)
    if isinstance(chunks, str | bytes):
        chunks = [chunks]
    return _run(state, chunks)


def _run(state: _Stream, chunks: Iterable[str | bytes]) -> Iterator[StreamUpdate[Any]]:
    for chunk in chunks:
        update = state.feed(chunk)
        if update is not None:
            yield update
    if state.correct_with is None:
        yield state.finish()
        return
    from resilient_parse.correction.loop import correct_result

    replay, messages, options = state.correction_args()
    yield state.finish_corrected(correct_result(replay, messages, state.target, **options))


def astream(
    parser: Parser, chunks: AsyncIterable[str | bytes], target: Any, **options: Any
) -> AsyncIterator[StreamUpdate[Any]]:
    """The async twin of `stream`, over an async iterable of text chunks; it yields the same updates."""
    state = _Stream(parser, target, **options)
    if not hasattr(chunks, "__aiter__"):
        raise ConfigurationError(f"astream needs an async iterable of chunks, got {type(chunks).__name__}")
    return _arun(state, chunks)


async def _arun(state: _Stream, chunks: AsyncIterable[str | bytes]) -> AsyncIterator[StreamUpdate[Any]]:
    async for chunk in chunks:
        update = state.feed(chunk)
        if update is not None:
            yield update
    if state.correct_with is None:
        yield state.finish()
        return
    from resilient_parse.correction.loop import acorrect_result

    replay, messages, options = state.correction_args()
    yield state.finish_corrected(await acorrect_result(replay, messages, state.target, **options))


__all__ = ["StreamUpdate", "astream", "partial_type", "stream"]
