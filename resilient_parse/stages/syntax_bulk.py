"""Bulk lossless syntax repair: the same repairs as the tokenizer in `syntax.py`, made in one C-speed pass.

The precise tokenizer walks every token in Python — clear, exact, and about as slow as json-repair on large
documents. This pass is a tokenizer too, but expressed as one `regex` pattern: valid JSON strings are consumed
whole and returned unchanged, so nothing inside a string is ever rewritten, and Python runs only at the
tokens that need a repair. It makes only lossless repairs; when its output is not valid JSON it returns None
and the precise tokenizer takes over (with its exact diagnostics, truncation rules and json-repair fallback).

Repairs are recorded with their text offset; JSON Pointers are resolved for the first `MAX_INDIVIDUAL` of them
by a structural scan of the repaired text, and further repairs of the same kind are summarised in one record.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any

import regex  # type: ignore[import-untyped]

from resilient_parse.context import CallContext, LoadResult
from resilient_parse.repairs import Repair, pointer
from resilient_parse.stages.syntax import _fix_string

MAX_INDIVIDUAL = 100

_FULLWIDTH = {"\uff5b": "{", "\uff5d": "}", "\uff3b": "[", "\uff3d": "]", "\uff1a": ":", "\uff0c": ",", "\u3001": ","}

_SOURCE = r"""
    (?=["'/\#,A-Za-z_$\s\uff5b\uff5d\uff3b\uff3d\uff1a\uff0c\u3001\u201c\u00a0\u3000\ufeff\u200b\u2028\u2029])
    (?:(?P<ok>"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+")
   |(?P<badstr>"(?:[^"\\]++|\\.)*+")
   |(?P<comment>(?://[^\n]*+|/\*(?:[^*]++|\*(?!/))*+\*/|\#[^\n]*+)\s*+)
   |(?P<sq>'[^'"\\\x00-\x1f]*+'(?=[ \t\r]*+(?:[,:}\]\n]|$)))
   |(?P<trailing>(?<![\[{,\s]),(?=\s*+[\]}]))
   |(?P<barekey>(?<![\w$"'])[A-Za-z_$][\w$]*+(?=\s*+:))
   |(?P<pylit>(?<![\w$])(?:True|False|None)(?![\w$]))
   |(?P<missing>(?:(?<=["\]}])|(?<=true)|(?<=false)|(?<=null))
                   (?:[ \t\r]*+\n\s*+(?=["{\[\-0-9]|[A-Za-z_$][\w$]*+\s*+:)
                     |[ \t]++(?=[{\[\-0-9]|"(?:[^"\\\n]++|\\.)*+"(?!\s*+:)))
               |(?<=[0-9])
                   (?:[ \t\r]*+\n\s*+(?=["{\[\-0-9]|[A-Za-z_$][\w$]*+\s*+:)
                     |[ \t]++(?=[{\[]|"(?:[^"\\\n]++|\\.)*+"(?!\s*+:))))
   |(?P<fullwidth>[\uff5b\uff5d\uff3b\uff3d\uff1a\uff0c\u3001])
   |(?P<curly>\u201c[^\u201d\n]*+\u201d)
   |(?P<invisible>[\u00a0\u3000\ufeff\u200b\u2028\u2029]++)
    )
    """
# The stdlib engine is about twice as fast here, but reads possessive quantifiers only from Python 3.11 on.
_PATTERN: Any = (
    re.compile(_SOURCE, re.VERBOSE) if sys.version_info >= (3, 11) else regex.compile(_SOURCE, regex.VERBOSE)
)
_KIND = {
    "sq": "single_quotes",
    "comment": "comment",
    "trailing": "trailing_comma",
    "barekey": "bare_key",
    "pylit": "python_literal",
    "missing": "missing_comma",
    "fullwidth": "fullwidth_punctuation",
    "curly": "fullwidth_punctuation",
    "invisible": "invisible_character",
}
_PY = {"True": "true", "False": "false", "None": "null"}
_STRUCTURE = regex.compile(
    r'(?P<key>"(?:[^"\\]++|\\.)*+")(?=\s*+:)|"(?:[^"\\]++|\\.)*+"(*SKIP)(*FAIL)'
    r"|(?P<open>[{\[])|(?P<close>[}\]])|(?P<comma>,)"
)


@dataclass(frozen=True)
class _Raw:
    kind: str
    offset: int  # in the original text
    fixed_offset: int  # in the repaired text
    before: str
    after: str


def bulk_repair(text: str) -> tuple[str, list[_Raw], dict[str, list[int]]]:
    """Rewrite `text` with lossless repairs (valid strings are matched whole and returned as they are).

    Returns the repaired text, the first `MAX_INDIVIDUAL` repairs in detail, and for the rest only their offsets
    by kind as [first offset, count] (recording them in detail would cost more than the repair)."""
    raws: list[_Raw] = []
    more: dict[str, list[int]] = {}
    delta = 0

    def fix(m: Any) -> str:
        nonlocal delta
        group: str | None = m.lastgroup
        before: str = m.group()
        if group == "ok":
            return before  # a valid JSON string: consumed whole so nothing inside it is rewritten
        if group == "sq":
            after = '"' + before[1:-1] + '"'
            kind = "single_quotes"
        elif group == "badstr":
            after, kinds = _fix_string(before)
            if not kinds:
                return before
            kind = kinds[0]
        else:
            kind = _KIND[group or ""]
            if group == "trailing":
                after = ""
            elif group == "comment":
                after = " " if "\n" not in before else "\n"  # the comment and the white space after it
            elif group == "invisible":
                after = " "
            elif group == "barekey":
                after = '"' + before + '"'
            elif group == "pylit":
                after = _PY[before]
            elif group == "missing":
                after = "," + before
            elif group == "fullwidth":
                after = _FULLWIDTH[before]
            else:  # curly-quoted string
                after = json.dumps(before[1:-1], ensure_ascii=False)
        if len(raws) < MAX_INDIVIDUAL:
            raws.append(_Raw(kind, m.start(), m.start() + delta, before, after))
            delta += len(after) - len(before)
        elif kind in more:
            more[kind][1] += 1
        else:
            more[kind] = [m.start(), 1]
        return after

    fixed: str = _PATTERN.sub(fix, text)
    return fixed, raws, more


def resolve_paths(fixed: str, offsets: list[int]) -> list[str]:
    """JSON Pointers of the places at the given (sorted) offsets of valid JSON text, by one structural scan that
    stops at the last offset. Value strings are skipped by the pattern; only keys and brackets reach Python."""
    paths: list[str] = []
    if not offsets:
        return paths
    stack: list[list[Any]] = []  # [is_object, key, index]
    want = 0
    last = offsets[-1]
    current: str | None = None  # the pointer of the current place, until the stack changes

    def here() -> str:
        nonlocal current
        if current is None:
            parts: list[str | int] = []
            for is_obj, key, index in stack:
                if is_obj:
                    if key is None:
                        break
                    parts.append(key)
                else:
                    parts.append(max(index, 0))
            current = pointer(parts)
        return current

    for tok in _STRUCTURE.finditer(fixed):
        start = tok.start()
        if start > last:
            break
        kind = tok.lastgroup
        # a repair at a key's own offset belongs to that key: read the key first
        while want < len(offsets) and (offsets[want] < start or (offsets[want] == start and kind != "key")):
            paths.append(here())
            want += 1
        if want >= len(offsets):
            break
        current = None
        t = tok.group()
        if kind == "open":
            if stack and not stack[-1][0] and stack[-1][2] < 0:
                stack[-1][2] = 0
            stack.append([t == "{", None, 0 if t == "[" else -1])
        elif kind == "close":
            if stack:
                stack.pop()
        elif kind == "comma":
            if stack:
                if stack[-1][0]:
                    stack[-1][1] = None
                else:
                    stack[-1][2] += 1
        elif kind == "key" and stack and stack[-1][0]:
            if "\\" not in t:
                stack[-1][1] = t[1:-1]
            else:
                try:
                    stack[-1][1] = json.loads(t)
                except ValueError:
                    stack[-1][1] = t.strip('"')
    while want < len(offsets):
        paths.append(here())
        want += 1
    return paths


_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+"' if sys.version_info >= (3, 11) else r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]++" if sys.version_info >= (3, 11) else r"[^\[\]{}]+")


def _too_deep(fixed: str, max_depth: int) -> bool:
    """Whether the JSON nests deeper than `max_depth` (cheap when it has fewer brackets than that)."""
    if fixed.count("{") + fixed.count("[") <= max_depth:
        return False
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", fixed))
    depth = 0
    for ch in brackets:
        if ch == "{" or ch == "[":
            depth += 1
            if depth > max_depth:
                return True
        else:
            depth -= 1
    return False


def load_bulk(text: str, ctx: CallContext) -> LoadResult | None:
    fixed, raws, more = bulk_repair(text)
    if not raws:
        return None  # nothing this pass can fix: the text needs the precise tokenizer
    if _too_deep(fixed, ctx.policy.max_depth):
        return None  # the precise tokenizer reports where
    try:
        tree = json.loads(fixed)
    except (ValueError, RecursionError):
        return None
    paths = resolve_paths(fixed, [r.fixed_offset for r in raws])
    repairs = [Repair.make(r.kind, path, r.before, r.after, offset=r.offset) for r, path in zip(raws, paths)]
    for kind, (first, count) in more.items():
        repairs.append(
            Repair.make(
                kind,
                "",
                None,
                count,
                offset=first,
                note=f"{count} more {kind} repairs like the ones above, from offset {first}",
            )
        )
    return LoadResult(tree=tree, json_text=fixed, repairs=tuple(repairs))
