"""Hypothesis strategies: arbitrary Pydantic targets, instances of them, and the ways LLMs mangle their JSON.

A *spec* (`ModelSpec`, `ListSpec`, …) describes a target type; `build(spec)` turns it into a real Pydantic type
(memoised, so a spec is one class), `instances(spec)` draws valid JSON trees for it, and `mutate(...)` rewrites the
serialised instance the way a model would. Each mutation kind is tagged per DESIGN.md's strict definition:

- **lossless**: the text still says exactly one thing, and the library may only recover that thing — fences, prose,
  reasoning blocks, whitespace, trailing/missing commas, comments, Python literals, bare keys, single-quoted strings
  written as tokens, raw control characters in strings, number spellings (`.5`, `+5`), invisible and full-width
  punctuation, declared aliases (an explicit alias table), and numbers in strings where Pydantic's own lax
  validation reads them. Expected outcome in *both* modes: the original object.
- **lossy**: recovering the original needs a judgement — recased/misspelled/synonym keys, recased enum values,
  `{"result": …}` wrappers, double-encoded JSON, truncation, doubled commas, unescaped inner quotes. Expected:
  the original object in lenient mode or a `ParseError`; never a different valid object.

The mutations work on the JSON *tree* plus a small emitter (not on regexes over the text), so a mutation changes
only what it says it changes.
"""

from __future__ import annotations

import enum
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, Optional, Union

from hypothesis import strategies as st
from pydantic import ConfigDict, TypeAdapter, create_model

# -- target specs ------------------------------------------------------------------------------------------------


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Status(str, enum.Enum):
    OPEN = "open"
    IN_PROGRESS = "in_progress"
    DONE = "done"


LEVELS = ("low", "medium", "high")
Level = Literal["low", "medium", "high"]


@dataclass(frozen=True)
class ScalarSpec:
    kind: str  # "str" | "int" | "float" | "bool" | "color" | "status" | "level" | "int_or_str"


@dataclass(frozen=True)
class ListSpec:
    item: Spec


@dataclass(frozen=True)
class OptionalSpec:
    inner: Spec


@dataclass(frozen=True)
class ModelSpec:
    name: str
    fields: tuple[tuple[str, Spec], ...]
    forbid: bool = False


@dataclass(frozen=True)
class UnionSpec:
    options: tuple[ModelSpec, ...]


Spec = ScalarSpec | ListSpec | OptionalSpec | ModelSpec | UnionSpec

_SCALAR_TYPES: dict[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "color": Color,
    "status": Status,
    "level": Level,
    "int_or_str": int | str,
}

# Field names: identifiers far apart from each other (so a one-letter typo of one is never another), none of
# them a wrapper key ("result", "data", …) or a Python/JSON literal.
FIELD_WORDS = (
    "name",
    "title",
    "count",
    "amount",
    "status_code",
    "color",
    "priority",
    "created_at",
    "user_id",
    "is_active",
    "tags",
    "score",
    "description",
    "owner",
    "location",
    "quantity",
    "category",
    "due_date",
    "parent_id",
    "weight",
    "email_address",
    "notes",
    "version",
    "language",
)
SYNONYMS = {
    "quantity": "qty",
    "description": "desc",
    "email_address": "mail",
    "location": "place",
    "title": "heading",
    "amount": "sum_total",
    "priority": "urgency",
    "category": "group_label",
    "owner": "assignee",
    "notes": "remarks",
}


@cache
def build(spec: Spec) -> Any:
    """The Pydantic type for a spec (one class per spec)."""
    if isinstance(spec, ScalarSpec):
        return _SCALAR_TYPES[spec.kind]
    if isinstance(spec, ListSpec):
        return list[build(spec.item)]  # type: ignore[misc]
    if isinstance(spec, OptionalSpec):
        return Optional[build(spec.inner)]  # noqa: UP045 - built at runtime from a type value
    if isinstance(spec, UnionSpec):
        return Union[tuple(build(o) for o in spec.options)]  # noqa: UP007
    fields: dict[str, Any] = {}
    for fname, fspec in spec.fields:
        default: Any = None if isinstance(fspec, OptionalSpec) else ...
        fields[fname] = (build(fspec), default)
    config = ConfigDict(extra="forbid" if spec.forbid else "ignore")
    return create_model(spec.name, __config__=config, **fields)


@cache
def adapter(spec: Spec) -> TypeAdapter[Any]:
    return TypeAdapter(build(spec))


_SCALARS = st.sampled_from(
    [ScalarSpec(k) for k in ("str", "str", "int", "float", "bool", "color", "status", "level", "int_or_str")]
)


def _model_specs(
    depth: int, forbid: bool | None = None, names: list[str] | None = None
) -> st.SearchStrategy[ModelSpec]:
    @st.composite
    def draw(d: st.DrawFn) -> ModelSpec:
        keys = names or d(st.lists(st.sampled_from(FIELD_WORDS), min_size=1, max_size=5, unique=True))
        specs = [d(type_specs(depth - 1)) for _ in keys]
        if names is not None and not any(not isinstance(s, OptionalSpec) for s in specs):
            specs[0] = d(_SCALARS)  # a union member needs a required field to be told apart
        model_name = "M" + d(st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=6)).title()
        use_forbid = d(st.booleans()) if forbid is None else forbid
        return ModelSpec(model_name, tuple(zip(keys, specs, strict=True)), use_forbid)

    return draw()


def model_specs(depth: int = 2) -> st.SearchStrategy[ModelSpec]:
    """Models with 1–5 fields whose types may nest other models, lists, optionals, enums, Literals and unions."""
    return _model_specs(depth)


@st.composite
def _union_specs(d: st.DrawFn, depth: int) -> UnionSpec:
    keys = d(st.lists(st.sampled_from(FIELD_WORDS), min_size=2, max_size=5, unique=True))
    cut = d(st.integers(1, len(keys) - 1))
    left = d(_model_specs(depth, forbid=True, names=keys[:cut]))
    right = d(_model_specs(depth, forbid=True, names=keys[cut:]))
    return UnionSpec((left, right))


def type_specs(depth: int) -> st.SearchStrategy[Spec]:
    if depth <= 0:
        return st.one_of(_SCALARS, _SCALARS.map(OptionalSpec))
    return st.one_of(
        _SCALARS,
        _SCALARS.map(OptionalSpec),
        type_specs(depth - 1).map(ListSpec),
        st.deferred(lambda: _model_specs(depth)),
        st.deferred(lambda: _model_specs(depth)).map(OptionalSpec),
        st.deferred(lambda: _union_specs(depth)),
    )


def target_specs(depth: int = 2) -> st.SearchStrategy[Spec]:
    """A top-level target: usually a model, sometimes a list of models."""
    return st.one_of(model_specs(depth), model_specs(depth), model_specs(depth), model_specs(depth).map(ListSpec))


# -- instances ---------------------------------------------------------------------------------------------------

TRICKY_STRINGS = (
    "it's",
    'say "hi"',
    "back\\slash",
    "line\nbreak",
    "tab\there",
    "{",
    "}]",
    "a, b: c",
    "// not a comment",
    "/* nor this */",
    "# nor this",
    "True",
    "None",
    "null",
    "'",
    '"',
    "\\",
    "\u00e9\u4e2d\U0001f600",
    "\u200bzero width",
    "```",
    "```json\n{}\n```",
    "</think>",
    "x'",
    "it's, 'quoted'",
)
_TEXT = st.one_of(
    st.text(st.characters(codec="ascii", min_codepoint=32), max_size=12),
    st.sampled_from(TRICKY_STRINGS),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=8),
)
_FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.5, 1.0, 2.25, -0.5, 100.0, 1e-7, 1e16]),
)


def instances(spec: Spec) -> st.SearchStrategy[Any]:
    """JSON trees (as `json.loads` would return them) that are valid for `spec`."""
    if isinstance(spec, ScalarSpec):
        k = spec.kind
        if k == "str":
            return _TEXT
        if k == "int":
            return st.integers(-(10**12), 10**12)
        if k == "float":
            return _FLOATS
        if k == "bool":
            return st.booleans()
        if k == "color":
            return st.sampled_from([c.value for c in Color])
        if k == "status":
            return st.sampled_from([s.value for s in Status])
        if k == "level":
            return st.sampled_from(LEVELS)
        return st.one_of(st.integers(-1000, 1000), _TEXT.filter(lambda s: not _looks_numeric(s)))
    if isinstance(spec, ListSpec):
        return st.lists(instances(spec.item), max_size=3)
    if isinstance(spec, OptionalSpec):
        return st.one_of(st.none(), instances(spec.inner))
    if isinstance(spec, UnionSpec):
        return st.one_of(*(instances(o) for o in spec.options))
    return st.fixed_dictionaries({fname: instances(fspec) for fname, fspec in spec.fields})


def _looks_numeric(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Example:
    """A target, a valid instance of it, and its canonical JSON text."""

    spec: Spec
    tree: Any  # the JSON tree of the instance (what model_dump(mode="json") gives)

    @property
    def target(self) -> Any:
        return build(self.spec)

    @property
    def value(self) -> Any:
        return adapter(self.spec).validate_python(self.tree)

    @property
    def text(self) -> str:
        return json.dumps(self.tree, ensure_ascii=False)


@st.composite
def examples(d: st.DrawFn, depth: int = 2) -> Example:
    spec = d(target_specs(depth))
    raw = d(instances(spec))
    value = adapter(spec).validate_python(raw)
    tree = adapter(spec).dump_python(value, mode="json")
    return Example(spec, tree)


# -- where things are in a tree ----------------------------------------------------------------------------------

Path = tuple[Any, ...]


@dataclass
class Sites:
    """Positions in an instance's tree: objects (with their model spec), and scalar leaves by type."""

    objects: list[tuple[Path, ModelSpec]] = field(default_factory=list)
    leaves: list[tuple[Path, str]] = field(default_factory=list)  # (path, scalar kind)


def sites(spec: Spec, tree: Any, path: Path = (), out: Sites | None = None) -> Sites:
    out = out if out is not None else Sites()
    if isinstance(spec, ScalarSpec):
        out.leaves.append((path, spec.kind))
    elif isinstance(spec, ListSpec):
        for i, item in enumerate(tree):
            sites(spec.item, item, (*path, i), out)
    elif isinstance(spec, OptionalSpec):
        if tree is not None:
            sites(spec.inner, tree, path, out)
    elif isinstance(spec, UnionSpec):
        for option in spec.options:
            if set(tree) == {f for f, _ in option.fields}:
                sites(option, tree, path, out)
                break
    else:
        out.objects.append((path, spec))
        for fname, fspec in spec.fields:
            sites(fspec, tree[fname], (*path, fname), out)
    return out


def get_at(tree: Any, path: Path) -> Any:
    for p in path:
        tree = tree[p]
    return tree


def replace_at(tree: Any, path: Path, fn: Callable[[Any], Any]) -> Any:
    """A copy of `tree` with the node at `path` replaced by fn(node)."""
    if not path:
        return fn(tree)
    head, rest = path[0], path[1:]
    if isinstance(tree, list):
        return [replace_at(v, rest, fn) if i == head else v for i, v in enumerate(tree)]
    return {k: (replace_at(v, rest, fn) if k == head else v) for k, v in tree.items()}


def rename_key(tree: Any, obj_path: Path, old: str, new: str) -> Any:
    return replace_at(tree, obj_path, lambda obj: {(new if k == old else k): v for k, v in obj.items()})


# -- the emitter ---------------------------------------------------------------------------------------------------


@dataclass
class Style:
    """How to write a tree. Each probability applies per site; `applied` counts the sites actually changed."""

    indent: int | None = None
    single_quotes: float = 0.0
    bare_keys: float = 0.0
    python_literals: float = 0.0
    trailing_commas: float = 0.0
    drop_commas: float = 0.0
    double_commas: float = 0.0
    comments: float = 0.0
    raw_controls: float = 0.0
    number_format: float = 0.0
    invisible: float = 0.0
    fullwidth: float = 0.0
    unescaped_quotes: float = 0.0
    applied: int = 0


_IDENT = re.compile(r"[A-Za-z_$][\w$]*\Z")
_FW = {"{": "\uff5b", "}": "\uff5d", "[": "\uff3b", "]": "\uff3d", ":": "\uff1a", ",": "\uff0c"}
_COMMENTS = (" /* note */ ", " // note\n", " # note\n", "/**/")


class Emitter:
    def __init__(self, style: Style, rnd: random.Random) -> None:
        self.style = style
        self.rnd = rnd

    def hit(self, p: float) -> bool:
        if p > 0 and self.rnd.random() < p:
            self.style.applied += 1
            return True
        return False

    def punct(self, ch: str) -> str:
        return _FW[ch] if self.hit(self.style.fullwidth) else ch

    def gap(self) -> str:
        s = self.style
        out = ""
        if self.hit(s.comments):
            out += self.rnd.choice(_COMMENTS)
        if self.hit(s.invisible):
            out += self.rnd.choice(("\u00a0", "\u200b", "\ufeff", "\u3000"))
        return out

    def string(self, s: str) -> str:
        st_ = self.style
        if self.hit(st_.single_quotes):
            body = []
            for ch in s:
                if ch == "'":
                    body.append("\\'")
                elif ch == "\\":
                    body.append("\\\\")
                elif ord(ch) < 0x20:
                    body.append(json.dumps(ch)[1:-1])
                else:
                    body.append(ch)
            return "'" + "".join(body) + "'"
        raw_ctl = any(ord(c) < 0x20 for c in s) and self.hit(st_.raw_controls)
        raw_q = '"' in s and self.hit(st_.unescaped_quotes)
        body = []
        for ch in s:
            if ch == '"':
                body.append('"' if raw_q else '\\"')
            elif ch == "\\":
                body.append("\\\\")
            elif ord(ch) < 0x20:
                body.append(ch if raw_ctl else json.dumps(ch)[1:-1])
            else:
                body.append(ch)
        return '"' + "".join(body) + '"'

    def key(self, k: str) -> str:
        if (
            _IDENT.match(k)
            and k not in ("true", "false", "null", "True", "False", "None")
            and self.hit(self.style.bare_keys)
        ):
            return k
        return self.string(k)

    def number(self, v: int | float) -> str:
        text = json.dumps(v)
        if not self.style.number_format:
            return text
        if isinstance(v, float) and re.fullmatch(r"-?0\.\d+", text) and self.hit(self.style.number_format):
            return text.replace("0.", ".", 1)
        if isinstance(v, float) and re.fullmatch(r"-?\d+\.0", text) and self.hit(self.style.number_format):
            return text[:-1]
        if not text.startswith("-") and self.hit(self.style.number_format):
            return "+" + text
        return text

    def sep(self, last: bool, depth: int) -> str:
        s = self.style
        if last:
            return "," if self.hit(s.trailing_commas) else ""
        if self.hit(s.drop_commas):
            # a line break, as models drop them: on one line, `"a": 1 "b"` or `[1 500]` is a guess, not a typo
            return "\n"
        comma = self.punct(",")
        if self.hit(s.double_commas):
            comma += ","
        return comma

    def emit(self, v: Any, depth: int = 0) -> str:
        s = self.style
        nl = "\n" + " " * ((depth + 1) * s.indent) if s.indent is not None else " "
        end_nl = "\n" + " " * (depth * s.indent) if s.indent is not None else ""
        if v is None or isinstance(v, bool):
            word = json.dumps(v)
            if self.hit(s.python_literals):
                word = {"true": "True", "false": "False", "null": "None"}[word]
            return word
        if isinstance(v, int | float):
            return self.number(v)
        if isinstance(v, str):
            return self.string(v)
        if isinstance(v, list):
            if not v:
                return self.punct("[") + self.punct("]")
            parts = [self.punct("[")]
            for i, item in enumerate(v):
                parts.append((nl if s.indent is not None else "") + self.gap())
                parts.append(self.emit(item, depth + 1))
                parts.append(self.sep(i == len(v) - 1, depth))
                if s.indent is None and i < len(v) - 1:
                    parts.append(" ")
            parts.append(end_nl + self.punct("]"))
            return "".join(parts)
        if not v:
            return self.punct("{") + self.punct("}")
        parts = [self.punct("{")]
        items = list(v.items())
        for i, (k, item) in enumerate(items):
            parts.append((nl if s.indent is not None else "") + self.gap())
            parts.append(self.key(k) + self.punct(":") + " " + self.gap() + self.emit(item, depth + 1))
            parts.append(self.sep(i == len(items) - 1, depth))
            if s.indent is None and i < len(items) - 1:
                parts.append(" ")
        parts.append(end_nl + self.punct("}"))
        return "".join(parts)


def emit(tree: Any, style: Style | None = None, seed: int = 0) -> str:
    return Emitter(style or Style(), random.Random(seed)).emit(tree)


# -- mutations -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutation:
    """The mutated text, what it expects back, and whether DESIGN.md calls the change lossless."""

    kind: str
    lossless: bool
    text: str
    expected_tree: Any  # the tree the mutated text stands for (usually the example's tree)
    aliases: dict[str, str] | None = None


MutateFn = Callable[[Example, random.Random], "Mutation | None"]
MUTATIONS: dict[str, tuple[bool, MutateFn]] = {}


def _mutation(name: str, lossless: bool) -> Callable[[MutateFn], MutateFn]:
    def register(fn: MutateFn) -> MutateFn:
        MUTATIONS[name] = (lossless, fn)
        return fn

    return register


def _styled(name: str, lossless: bool, needs: str = "", **probs: float) -> None:
    """A mutation that re-emits the tree with one style knob on. `needs`: a text this mutation can only act on
    (a quote, a newline); when no string holds one, one string leaf is given it — the expected tree changes too."""

    def fn(ex: Example, rnd: random.Random) -> Mutation | None:
        tree = ex.tree
        if needs and not _any_string_holds(tree, needs):
            leaves = [path for path, kind in sites(ex.spec, tree).leaves if kind == "str"]
            if not leaves:
                return None
            tree = replace_at(tree, rnd.choice(leaves), lambda v: f"{v}{rnd.choice(_NEEDS[needs])}")
        p = rnd.choice((0.3, 0.6, 1.0))
        style = Style(indent=rnd.choice((None, None, 2)), **{k: p * v for k, v in probs.items()})
        text = Emitter(style, rnd).emit(tree)
        if style.applied == 0:
            return None
        return Mutation(name, lossless, text, tree)

    MUTATIONS[name] = (lossless, fn)


_NEEDS = {
    '"': ('He said "hi"', '"quoted"', 'a "b" c', 'x"'),
    "\n": ("line\nbreak", "\n", "a\tb\nc", "end\n"),
}


def _any_string_holds(tree: Any, needle: str) -> bool:
    if isinstance(tree, str):
        return needle in tree
    if isinstance(tree, dict):
        return any(_any_string_holds(v, needle) for v in tree.values())
    if isinstance(tree, list):
        return any(_any_string_holds(v, needle) for v in tree)
    return False


_styled("single_quotes", True, single_quotes=1.0)
_styled("bare_keys", True, bare_keys=1.0)
_styled("python_literals", True, python_literals=1.0)
_styled("trailing_commas", True, trailing_commas=1.0)
_styled("missing_commas", True, drop_commas=1.0)
_styled("comments", True, comments=1.0)
_styled("raw_control_chars", True, needs="\n", raw_controls=1.0)
_styled("number_format", True, number_format=1.0)
_styled("invisible_chars", True, invisible=1.0)
_styled("fullwidth_punct", True, fullwidth=1.0)
_styled("double_commas", False, double_commas=1.0)
_styled("unescaped_quotes", False, needs='"', unescaped_quotes=1.0)

_PROSE_BEFORE = ("Here is the JSON:\n", "Sure! Here you go:\n\n", "Result:", "The object you asked for is ")
_PROSE_AFTER = ("", "\nLet me know if you need anything else.", "\n\nHope this helps!", " (as requested)")
_REASONING = (
    "The user wants an object. I will fill in every field.",
    "Fields: {name, title} and maybe [a list].",
    'Let me think... a draft would be {"x": 1} but the schema differs.',
)


@_mutation("pretty_printed", True)
def _pretty(ex: Example, rnd: random.Random) -> Mutation:
    return Mutation(
        "pretty_printed", True, json.dumps(ex.tree, indent=rnd.choice((1, 2, 4)), ensure_ascii=False), ex.tree
    )


@_mutation("fence", True)
def _fence(ex: Example, rnd: random.Random) -> Mutation:
    lang = rnd.choice(("json", "JSON", "", "jsonc", "javascript"))
    marker = rnd.choice(("```", "```", "~~~", "````"))
    before = rnd.choice(("", "", *_PROSE_BEFORE))
    after = rnd.choice(("", "\n```", *_PROSE_AFTER)) if marker != "```" else rnd.choice(_PROSE_AFTER)
    text = f"{before}{marker}{lang}\n{ex.text}\n{marker}{after}"
    return Mutation("fence", True, text, ex.tree)


@_mutation("prose", True)
def _prose(ex: Example, rnd: random.Random) -> Mutation:
    return Mutation("prose", True, rnd.choice(_PROSE_BEFORE) + ex.text + rnd.choice(_PROSE_AFTER), ex.tree)


@_mutation("reasoning", True)
def _reasoning(ex: Example, rnd: random.Random) -> Mutation:
    tag = rnd.choice(("think", "thinking", "reasoning"))
    opener = rnd.choice((f"<{tag}>", ""))  # the opening tag is sometimes lost
    text = f"{opener}\n{rnd.choice(_REASONING)}\n</{tag}>\n{ex.text}"
    return Mutation("reasoning", True, text, ex.tree)


@_mutation("stringified_numbers", True)
def _stringify(ex: Example, rnd: random.Random) -> Mutation | None:
    """Numbers in strings where the field is a plain int/float: Pydantic's lax mode reads them (allowed in strict)."""
    leaves = [p for p, kind in sites(ex.spec, ex.tree).leaves if kind in ("int", "float")]
    if not leaves:
        return None
    tree = ex.tree
    for path in rnd.sample(leaves, rnd.randint(1, len(leaves))):
        tree = replace_at(tree, path, lambda v: json.dumps(v))
    return Mutation("stringified_numbers", True, json.dumps(tree, ensure_ascii=False), ex.tree)


def _object_keys(ex: Example) -> list[tuple[Path, str]]:
    return [(p, k) for p, spec in sites(ex.spec, ex.tree).objects for k, _ in spec.fields]


def _rename_some(
    ex: Example, rnd: random.Random, new_name: Callable[[str], str | None]
) -> tuple[Any, list[tuple[str, str]]] | None:
    keys = _object_keys(ex)
    rnd.shuffle(keys)
    tree = ex.tree
    renamed: list[tuple[str, str]] = []
    chosen = keys[: rnd.randint(1, max(1, len(keys)))]
    chosen.sort(key=lambda pk: -len(pk[0]))  # inner objects first: renaming a parent would move their paths
    for path, key in chosen:
        new = new_name(key)
        if new is None or new == key or new in get_at(tree, path):
            continue
        tree = rename_key(tree, path, key, new)
        renamed.append((key, new))
    return (tree, renamed) if renamed else None


@_mutation("declared_aliases", True)
def _declared_alias(ex: Example, rnd: random.Random) -> Mutation | None:
    got = _rename_some(ex, rnd, SYNONYMS.get)
    if got is None:
        return None
    tree, renamed = got
    return Mutation("declared_aliases", True, json.dumps(tree, ensure_ascii=False), ex.tree, {n: o for o, n in renamed})


def _camel(k: str) -> str:
    head, *rest = k.split("_")
    return head + "".join(w.title() for w in rest)


_RECASE: tuple[Callable[[str], str], ...] = (
    _camel,
    lambda k: "".join(w.title() for w in k.split("_")),
    str.upper,
    lambda k: k.replace("_", "-"),
    lambda k: k.replace("_", " ").title(),
)


@_mutation("recased_keys", False)
def _recase_keys(ex: Example, rnd: random.Random) -> Mutation | None:
    got = _rename_some(ex, rnd, lambda k: rnd.choice(_RECASE)(k))
    return None if got is None else Mutation("recased_keys", False, json.dumps(got[0], ensure_ascii=False), ex.tree)


def _typo(k: str, rnd: random.Random) -> str | None:
    if len(k) < 5:
        return None
    i = rnd.randrange(1, len(k) - 1)
    op = rnd.choice(("drop", "swap", "double"))
    if op == "drop":
        return k[:i] + k[i + 1 :]
    if op == "swap":
        return k[: i - 1] + k[i] + k[i - 1] + k[i + 1 :]
    return k[:i] + k[i] + k[i:]


@_mutation("typo_keys", False)
def _typo_keys(ex: Example, rnd: random.Random) -> Mutation | None:
    got = _rename_some(ex, rnd, lambda k: _typo(k, rnd))
    return None if got is None else Mutation("typo_keys", False, json.dumps(got[0], ensure_ascii=False), ex.tree)


@_mutation("synonym_keys", False)
def _synonym_keys(ex: Example, rnd: random.Random) -> Mutation | None:
    got = _rename_some(ex, rnd, SYNONYMS.get)
    return None if got is None else Mutation("synonym_keys", False, json.dumps(got[0], ensure_ascii=False), ex.tree)


@_mutation("recased_enums", False)
def _recase_enums(ex: Example, rnd: random.Random) -> Mutation | None:
    leaves = [p for p, kind in sites(ex.spec, ex.tree).leaves if kind in ("color", "status", "level")]
    if not leaves:
        return None
    tree = ex.tree
    for path in rnd.sample(leaves, rnd.randint(1, len(leaves))):
        fn = rnd.choice((str.upper, str.title, lambda s: s.replace("_", " "), lambda s: s.replace("_", "-").upper()))
        tree = replace_at(tree, path, fn)
    if tree == ex.tree:
        return None
    return Mutation("recased_enums", False, json.dumps(tree, ensure_ascii=False), ex.tree)


@_mutation("result_wrapper", False)
def _wrap(ex: Example, rnd: random.Random) -> Mutation:
    key = rnd.choice(("result", "data", "output", "response"))
    return Mutation("result_wrapper", False, json.dumps({key: ex.tree}, ensure_ascii=False), ex.tree)


@_mutation("double_encoded", False)
def _double_encode(ex: Example, rnd: random.Random) -> Mutation:
    return Mutation("double_encoded", False, json.dumps(ex.text, ensure_ascii=rnd.random() < 0.5), ex.tree)


@_mutation("truncated", False)
def _truncate(ex: Example, rnd: random.Random) -> Mutation | None:
    text = ex.text
    if len(text) < 3:
        return None
    return Mutation("truncated", False, text[: rnd.randrange(1, len(text) - 1)], ex.tree)


LOSSLESS_KINDS = tuple(k for k, (lossless, _) in MUTATIONS.items() if lossless)
LOSSY_KINDS = tuple(k for k, (lossless, _) in MUTATIONS.items() if not lossless)


def mutate(ex: Example, kind: str, seed: int) -> Mutation | None:
    """Apply one mutation kind; None when the example has nowhere to apply it."""
    return MUTATIONS[kind][1](ex, random.Random(seed))


def combine_lossless(ex: Example, seed: int) -> Mutation:
    """Several lossless changes at once: a styled emission inside a fence/prose/reasoning wrapper."""
    rnd = random.Random(seed)
    knobs = ("single_quotes", "bare_keys", "python_literals", "trailing_commas", "drop_commas", "comments")
    chosen = rnd.sample(knobs, rnd.randint(2, 4))
    style = Style(indent=rnd.choice((None, 2)), **{k: rnd.choice((0.5, 1.0)) for k in chosen})
    body = Emitter(style, rnd).emit(ex.tree)
    wrap = rnd.choice(("none", "fence", "prose", "reasoning"))
    if wrap == "fence":
        body = f"```json\n{body}\n```"
    elif wrap == "prose":
        body = rnd.choice(_PROSE_BEFORE) + body + rnd.choice(_PROSE_AFTER)
    elif wrap == "reasoning":
        body = f"<think>\n{rnd.choice(_REASONING)}\n</think>\n{body}"
    return Mutation("+".join((*chosen, wrap)), True, body, ex.tree)


@st.composite
def mutations(d: st.DrawFn, kinds: tuple[str, ...], depth: int = 2) -> tuple[Example, Mutation]:
    """An example and one applicable mutation of a kind drawn from `kinds`."""
    ex = d(examples(depth))
    kind = d(st.sampled_from(kinds))
    seed = d(st.integers(0, 2**32 - 1))
    mut = mutate(ex, kind, seed)
    if mut is None:  # nowhere to apply it: fall back to the first applicable kind in order
        for other in kinds:
            mut = mutate(ex, other, seed)
            if mut is not None:
                break
    if mut is None:
        mut = Mutation("pretty_printed", True, json.dumps(ex.tree, indent=2, ensure_ascii=False), ex.tree)
    return ex, mut
