"""The state of one stream, fed chunk by chunk: where the answer is, when to re-read it, and what to show."""

from __future__ import annotations

import codecs
import copy
import functools
import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from pydantic_core import from_json

from resilient_parse.context import SemanticValidator
from resilient_parse.errors import ConfigurationError, ErrorDetail, InputTooLargeError, InvalidInputError
from resilient_parse.policy import Policy
from resilient_parse.repairs import KINDS
from resilient_parse.schema import DictView, ListView, ModelView, TupleView, TypeView
from resilient_parse.stages.read_prefix import Prefix, Resume, read_prefix
from resilient_parse.stages.syntax import lossy_kinds
from resilient_parse.streaming._locator import _Locator
from resilient_parse.streaming._partials import _Partial, _partial_for
from resilient_parse.streaming._trees import _fingerprint, _ListMemoConformer, _remove, _same, _wants_text
from resilient_parse.streaming._update import StreamUpdate

if TYPE_CHECKING:
    from resilient_parse.parser import Parser

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
    ) -> None:
        if reparse_budget is not None and (
            isinstance(reparse_budget, bool) or not isinstance(reparse_budget, int | float) or reparse_budget <= 0
        ):
            raise ConfigurationError(f"reparse_budget must be a positive number or None, not {reparse_budget!r}")
        self.parser = parser
        self.target = target
        self.plan = parser.plan(target)
        self.ctx = parser.context(target, aliases)
        self.aliases = aliases
        self.validators = tuple(validators)
        self.partial_strings = bool(partial_strings)
        self.budget = reparse_budget
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

    def whole_text(self) -> str:
        """The whole answer once the chunks have ended (a UTF-8 character cut at the end is an error)."""
        self._tail()
        return self.text()

    def finish(self) -> StreamUpdate[Any]:
        text = self.whole_text()
        result = self.parser.parse_result(text, self.target, aliases=self.aliases, validators=self.validators)
        return StreamUpdate(
            partial=self.final_partial(result.value),
            is_final=True,
            value=result.value,
            result=result,
            received=self.received,
        )
