"""The repair trace: every change made to the model's output is recorded as a `Repair`.

A repair kind is *lossless* when it cannot change what the model meant (a trailing comma, a comment, a fence) and
*lossy* when it is a judgement (a renamed key, a fuzzy enum, a closed truncation). Strict policies allow only the
lossless kinds. Each kind has a severity; a candidate's cost is the sum of its repairs' severities, which is how
candidates compete.
"""

from __future__ import annotations

import copy
import datetime as _dt
import decimal
import enum
import operator
import uuid
from dataclasses import dataclass
from itertools import repeat
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from resilient_parse.safe_text import escape_surrogates, json_safe, utf8_safe


@dataclass(frozen=True)
class RepairKind:
    """What a kind of repair is: its name, the stage that makes it, and whether it can change meaning."""

    name: str
    stage: str
    lossless: bool
    severity: float
    description: str


def _kinds(*kinds: RepairKind) -> MappingProxyType[str, RepairKind]:
    return MappingProxyType({k.name: k for k in kinds})


KINDS = _kinds(
    # extraction: choosing the JSON out of the surrounding text never changes the JSON itself
    RepairKind("extract_fence", "extract", True, 0.1, "took the JSON out of a markdown code fence"),
    RepairKind("extract_prose", "extract", True, 0.1, "took the JSON out of surrounding prose"),
    RepairKind("skip_reasoning", "extract", True, 0.1, "ignored a reasoning block (<think>…)"),
    RepairKind("reasoning_candidate", "extract", True, 0.5, "used a JSON value found inside a reasoning block"),
    RepairKind(
        "unread_prose",
        "extract",
        False,
        0.5,
        "assumed the answer: the prose around it is in a language or script no lexicon table reads",
    ),
    RepairKind("join_values", "extract", False, 0.5, "read several JSON values written one after another as a list"),
    # syntax repairs a tokenizer makes without guessing
    RepairKind("trailing_comma", "syntax", True, 0.2, "removed a trailing comma"),
    RepairKind("missing_comma", "syntax", True, 0.5, "inserted a missing comma between two values"),
    RepairKind("comment", "syntax", True, 0.2, "removed a comment"),
    RepairKind("python_literal", "syntax", True, 0.2, "turned True/False/None into true/false/null"),
    RepairKind("bare_key", "syntax", True, 0.2, "quoted an unquoted object key"),
    RepairKind("single_quotes", "syntax", True, 0.2, "turned a single-quoted string into a JSON string"),
    RepairKind("control_character", "syntax", True, 0.2, "escaped a raw newline/tab/control character in a string"),
    RepairKind("invalid_escape", "syntax", True, 0.3, "kept an invalid backslash escape (\\d, \\U) as literal text"),
    RepairKind(
        "ambiguous_escape", "syntax", False, 0.5, "kept as text an escape other languages read as a character (\\x41)"
    ),
    RepairKind("escaped_apostrophe", "syntax", True, 0.1, "read \\' (no JSON escape) as the apostrophe it is"),
    RepairKind(
        "line_continuation", "syntax", False, 0.4, "joined a line a backslash continues (JSON5), not a kept backslash"
    ),
    RepairKind("fullwidth_punctuation", "syntax", True, 0.2, "read full-width or curly punctuation as JSON syntax"),
    RepairKind(
        "invisible_character",
        "syntax",
        True,
        0.1,
        "dropped white space JSON lacks (BOM, form feed, non-breaking space …)",
    ),
    RepairKind("number_format", "syntax", True, 0.2, "normalised a number like .5, 5. or +5"),
    RepairKind("missing_colon", "syntax", True, 0.3, "inserted a missing ':' between a key and its value"),
    RepairKind("python_tuple", "syntax", True, 0.2, "read a Python tuple (…) as a list"),
    RepairKind("number_underscores", "syntax", True, 0.2, "removed the digit-group underscores of 82_461_110"),
    RepairKind("hex_number", "syntax", True, 0.3, "read a hexadecimal integer like 0x1E"),
    RepairKind("string_concatenation", "syntax", True, 0.3, "joined JavaScript string concatenation 'a' + 'b'"),
    RepairKind("duplicate_key", "syntax", True, 0.2, "merged a key written twice with the same value"),
    # syntax repairs that guess
    RepairKind("js_literal", "syntax", False, 1.0, "read undefined as null"),
    RepairKind("inner_quote", "syntax", False, 1.0, "kept unescaped quotes inside a string as text"),
    RepairKind("missing_quote", "syntax", False, 1.0, "added a string's missing opening or closing quote"),
    RepairKind("doubled_quotes", "syntax", False, 1.0, 'read a string in doubled quotes ""x"" as "x"'),
    RepairKind("triple_quotes", "syntax", False, 0.5, 'read a Python triple-quoted string """x"""'),
    RepairKind("bare_string", "syntax", False, 1.0, "quoted an unquoted string value"),
    RepairKind("junk_text", "syntax", False, 1.0, "dropped a stray word between object members"),
    RepairKind("mismatched_bracket", "syntax", False, 1.0, "read a closing bracket of the wrong kind as the open one"),
    RepairKind("stray_closer", "syntax", False, 1.0, "ignored a closing bracket that closed nothing or came too early"),
    RepairKind("mongo_wrapper", "syntax", False, 0.5, "took the value out of a Mongo-shell wrapper like ObjectId(…)"),
    RepairKind("truncated_extra", "syntax", False, 1.5, "dropped a cut-off member the schema does not have"),
    RepairKind("truncated_defaults", "syntax", False, 2.0, "gave optional fields after a cut their defaults"),
    RepairKind("literal_case", "syntax", False, 1.0, "read TRUE/False/Null in another case as a JSON literal"),
    RepairKind("close_truncated", "syntax", False, 2.0, "closed objects left open by truncated output"),
    RepairKind("json_repair", "syntax", False, 3.0, "json-repair rewrote text our tokenizer could not read"),
    # key alignment
    RepairKind("key_alias", "align", True, 0.5, "renamed a key using an explicit alias table"),
    RepairKind("key_case", "align", False, 1.0, "renamed a key that differs only in case or word style"),
    RepairKind("key_plugin_alias", "align", False, 1.0, "renamed a key using a plugin's alias table"),
    RepairKind("key_fuzzy", "align", False, 2.0, "renamed a misspelled key to the closest field"),
    RepairKind("drop_unknown_key", "align", False, 1.0, "dropped a key that matches no field"),
    # value coercion
    RepairKind("enum_value", "coerce", False, 1.0, "matched an enum/Literal value by case, separators or name"),
    RepairKind("enum_fuzzy", "coerce", False, 2.0, "matched a misspelled or abbreviated enum/Literal value"),
    RepairKind("number_from_string", "coerce", False, 1.0, "read a number out of a formatted string"),
    RepairKind("date_from_string", "coerce", False, 1.0, "read a date out of an unambiguous format"),
    RepairKind("scalar_to_list", "coerce", False, 1.0, "wrapped a single value where a list is expected"),
    RepairKind("unwrap_list", "coerce", False, 1.0, "took the only element of a list where one value is expected"),
    RepairKind("null_to_default", "coerce", False, 1.0, "replaced null with the field's default"),
    RepairKind("number_to_string", "coerce", False, 0.5, "turned a number into a string for a str field"),
    RepairKind("unwrap_wrapper", "coerce", False, 1.0, 'took the value out of a wrapper like {"result": …}'),
    RepairKind("decode_json_string", "coerce", False, 1.0, "decoded JSON that was encoded inside a string"),
    RepairKind("pattern_case", "coerce", False, 1.0, "changed a string's case or spaces to match the field's pattern"),
    # plain-text answers for scalar and choice targets (stages/plain.py) and envelopes (tools/envelopes.py)
    RepairKind("plain_value", "extract", True, 0.2, "read a lone exact value written without JSON quotes"),
    RepairKind("plain_answer", "extract", False, 1.0, "read a scalar or choice answer out of plain text"),
    RepairKind("plain_text", "extract", False, 1.0, "took the answer text (without label) as the string"),
    RepairKind("plain_list", "extract", False, 1.0, "read a bullet list or a comma-separated line as a list"),
    RepairKind("unwrap_tool_call", "coerce", False, 1.0, "took the arguments out of a call to the target's tool"),
    RepairKind("read_tool_call", "extract", True, 0.1, "read a tool call the text makes, its tool chosen by name"),
    # reply objects from the providers' SDKs (tools/replies.py)
    RepairKind("read_reply", "extract", True, 0.1, "read the answer out of a field of the provider's reply object"),
    RepairKind(
        "truncated_reply", "extract", False, 2.0, "read a reply the provider says its output length limit cut off"
    ),
    RepairKind(
        "tool_name_style", "extract", True, 0.1, "read a tool name written in another case or style as the tool's"
    ),
    RepairKind(
        "tool_name_prefix", "extract", False, 0.5, "read a tool name behind a namespace prefix (functions.x) as x"
    ),
    # plugins
    RepairKind("semantic_fix", "semantic", False, 1.0, "a semantic plugin corrected a value"),
)

_UNKNOWN_KIND_SEVERITY = 2.0
_ATOMS = (str, int, float, bytes, type(None), decimal.Decimal, enum.Enum, _dt.date, _dt.time, _dt.timedelta, uuid.UUID)


def detached(value: Any) -> Any:
    """`value`, or a copy sharing nothing mutable with it: immutable values as they are (the common case, free);
    JSON trees copied container by container, without recursion (a deep tree cannot overflow the stack) and
    keeping shared and cyclic references; anything else by `copy.deepcopy`, or its repr when it cannot be
    copied."""
    if isinstance(value, _ATOMS):
        return value
    if type(value) not in (dict, list):
        return _deep_copy(value)
    copies: dict[int, Any] = {}
    pending: list[tuple[Any, Any]] = []

    def fresh(node: Any) -> Any:
        if isinstance(node, _ATOMS):
            return node
        if id(node) in copies:
            return copies[id(node)]
        if type(node) is dict:
            made: Any = {}
        elif type(node) is list:
            made = []
        else:
            return _deep_copy(node)
        copies[id(node)] = made
        pending.append((node, made))
        return made

    root = fresh(value)
    while pending:
        source, target = pending.pop()
        if type(source) is dict:
            for key, item in source.items():
                target[key] = fresh(item)
        else:
            target.extend([fresh(item) for item in source])
    return root


def _deep_copy(value: Any) -> Any:
    try:
        return copy.deepcopy(value)
    except Exception:  # an object that refuses to be copied (a lock, a client): the trace keeps its description
        return repr(value)


def kind_info(name: str) -> RepairKind | None:
    return KINDS.get(name)


_ATOM_TYPES = frozenset({str, int, float, bool, type(None)})  # what the reader records: no copy needed
_new = object.__new__
_set = object.__setattr__


def _fields_of(kind: str, stage: str, lossless: bool, note: str) -> dict[str, Any]:
    """A repair's fields, in declaration order, as `make` fills them for a kind (path, values, offset to come)."""
    return {
        "kind": kind,
        "path": "",
        "before": None,
        "after": None,
        "stage": stage,
        "lossless": lossless,
        "confidence": 1.0,
        "offset": None,
        "note": note,
    }


# per kind, the fields `make` fills in from the registry; unknown kinds are a plugin's, lossy
_MADE = {k.name: _fields_of(k.name, k.stage, k.lossless, k.description) for k in KINDS.values()}
_UNKNOWN_MADE = _fields_of("", "plugin", False, "")
_SEVERITY = {k.name: k.severity for k in KINDS.values()}
_KIND_OF = operator.attrgetter("kind")
_CONFIDENCE_OF = operator.attrgetter("confidence")


@dataclass(frozen=True)
class Repair:
    """One change to the model's output: what kind, where (JSON Pointer and/or text offset), before and after."""

    kind: str
    path: str = ""
    before: Any = None
    after: Any = None
    stage: str = ""
    lossless: bool = False
    confidence: float = 1.0
    offset: int | None = None
    note: str = ""

    def __post_init__(self) -> None:
        # the trace holds its own copies: `after` may be a model's default object or part of the tree a value
        # was built from, and whoever reads the trace may mutate what they get
        if type(self.before) not in _ATOM_TYPES:
            _set(self, "before", detached(self.before))
        if type(self.after) not in _ATOM_TYPES:
            _set(self, "after", detached(self.after))

    @classmethod
    def make(
        cls,
        kind: str,
        path: str = "",
        before: Any = None,
        after: Any = None,
        *,
        confidence: float = 1.0,
        offset: int | None = None,
        note: str = "",
    ) -> Repair:
        """Build a repair whose stage and losslessness come from the kind's registry entry.

        The reader makes one per repaired token, so this is its hot path: the instance's fields are set in one
        step (the dataclass `__init__` sets them one by one through the frozen `__setattr__`), and `before` /
        `after` are copied only when they are not immutable atoms — the same fields, values and copies as
        `Repair(...)` gives."""
        if type(before) not in _ATOM_TYPES:
            before = detached(before)
        if type(after) not in _ATOM_TYPES:
            after = detached(after)
        made = _MADE.get(kind)
        if made is None:
            made = {**_UNKNOWN_MADE, "kind": kind}
        fields = made.copy()  # a copy of the kind's fields, then the repair's own (faster than building one)
        fields["path"] = path
        fields["before"] = before
        fields["after"] = after
        fields["offset"] = offset
        if confidence != 1.0:
            fields["confidence"] = confidence
        if note:
            fields["note"] = note
        repair = _new(cls)
        _set(repair, "__dict__", fields)
        return repair

    @property
    def severity(self) -> float:
        return _SEVERITY.get(self.kind, _UNKNOWN_KIND_SEVERITY) + (1.0 - self.confidence) * 2.0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stage": self.stage,
            "kind": self.kind,
            "path": self.path,
            "before": json_safe(self.before),
            "after": json_safe(self.after),
            "lossless": self.lossless,
            "confidence": round(self.confidence, 3),
        }
        if self.offset is not None:
            out["offset"] = self.offset
        if self.note:
            out["note"] = self.note
        return utf8_safe(out)  # type: ignore[no-any-return]  # paths hold model-written keys

    def __str__(self) -> str:
        where = self.path or (f"@{self.offset}" if self.offset is not None else "(root)")
        tag = "lossless" if self.lossless else f"lossy, confidence {self.confidence:.2f}"
        before, after = json_safe(self.before, limit=60), json_safe(self.after, limit=60)
        return escape_surrogates(f"{self.kind} at {where}: {before!r} -> {after!r} ({tag})")


def total_cost(repairs: tuple[Repair, ...] | list[Repair]) -> float:
    """The sum of the repairs' severities (a reader's trace holds one repair per token: summed in C)."""
    base = sum(map(_SEVERITY.get, map(_KIND_OF, repairs), repeat(_UNKNOWN_KIND_SEVERITY, len(repairs))))
    doubts = len(repairs) - sum(map(_CONFIDENCE_OF, repairs))
    return float(base + doubts * 2.0)


def escape_token(key: str) -> str:
    """One RFC 6901 reference token: `~` and `/` escaped."""
    return key.replace("~", "~0").replace("/", "~1")


def pointer(parts: tuple[str | int, ...] | list[str | int]) -> str:
    """RFC 6901 JSON Pointer for a path of keys and indices."""
    if not parts:
        return ""
    return "".join("/" + escape_token(str(p)) for p in parts)


def split_pointer(path: str) -> list[str]:
    """The reference tokens of an RFC 6901 JSON Pointer, unescaped ("" is the root: no tokens)."""
    if not path:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]


T = TypeVar("T")


@dataclass(frozen=True)
class ParseResult(Generic[T]):
    """The validated object and every repair that produced it."""

    value: T
    repairs: tuple[Repair, ...] = ()
    candidate: str | None = None
    json_text: str | None = None
    mode: str = ""

    @property
    def repaired(self) -> bool:
        return bool(self.repairs)

    @property
    def lossless(self) -> bool:
        return all(r.lossless for r in self.repairs)

    def repairs_as_dicts(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.repairs]
