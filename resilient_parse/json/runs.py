"""Stretches: runs of object members or list items the reader takes in one C-speed match instead of token by token.

A *valid* stretch (JSON strings, numbers, literals, flat lists of them, each followed by its ',') is copied to the
output as it is. A *loose* stretch also holds the lossless repairs models make most — single-quoted strings,
bare keys, Python literals, a trailing comma inside a flat list — and is rewritten by one `re.sub` pass whose
callback records each repair with its JSON Pointer (the stretch's container, plus the key or index the callback
tracks as it goes) and its offset in the text. Everything else (nested containers, comments, missing commas, cut
text, guesses) is left to the token reader. All patterns are possessive: nothing is ever matched twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from resilient_parse.json.tokens import decode_key
from resilient_parse.repairs import Repair, escape_token

_WS = r"[ \t\r\n]*+"
_STRING = r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"'
_SCALAR = (
    _STRING + r"|-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+(?![\w.])|(?:true|false|null)(?![\w$])"
)
_SCALAR_LIST = (
    r"\[" + _WS + r"(?:(?:" + _SCALAR + r")(?:" + _WS + "," + _WS + r"(?:" + _SCALAR + r"))*+" + _WS + r")?+\]"
)
_MEMBER = _WS + _STRING + _WS + ":" + _WS + r"(?:" + _SCALAR + "|" + _SCALAR_LIST + ")"

# members (or items) each followed by ',', then perhaps a last one right before the closer
MEMBER_RUN = re.compile(r"(?:" + _MEMBER + _WS + r",)*+(?:" + _MEMBER + r"(?=" + _WS + r"\}))?+")
ITEM_RUN = re.compile(
    r"(?:" + _WS + r"(?:" + _SCALAR + r")" + _WS + r",)*+(?:" + _WS + r"(?:" + _SCALAR + r")(?=" + _WS + r"\]))?+"
)
RUN_ITEM = re.compile(_SCALAR)
RUN_KEY = re.compile(r'("(?:[^"\\]++|\\.)*+")' + _WS + ":")

_SQ = r"'[^'\"\\\x00-\x1f\n]*+'(?=[ \t]*+[,:}\]\n])"
_LOOSE_SCALAR = r"(?:" + _SCALAR + r"|(?:True|False|None)(?![\w$])|" + _SQ + ")"
_LOOSE_LIST = (
    r"\["
    + _WS
    + r"(?:"
    + _LOOSE_SCALAR
    + r"(?:"
    + _WS
    + ","
    + _WS
    + _LOOSE_SCALAR
    + r")*+"
    + _WS
    + r"(?:,"
    + _WS
    + r")?+)?+\]"
)
_LOOSE_KEY = r"(?:" + _STRING + "|" + _SQ + r"|[A-Za-z_$][\w$]*+)"
_LOOSE_MEMBER = _WS + _LOOSE_KEY + _WS + ":" + _WS + r"(?:" + _LOOSE_SCALAR + "|" + _LOOSE_LIST + ")"
LOOSE_MEMBER_RUN = re.compile(r"(?:" + _LOOSE_MEMBER + _WS + r",)*+(?:" + _LOOSE_MEMBER + r"(?=" + _WS + r"\}))?+")
# a whole flat object: one loose stretch of members (perhaps with a trailing comma) between its braces, read by one
# match and one rewrite instead of container by container (group 1: the members)
FLAT_OBJECT = re.compile(r"\{(" + LOOSE_MEMBER_RUN.pattern + ")" + _WS + r"\}")
LOOSE_ITEM_RUN = re.compile(
    r"(?:" + _WS + _LOOSE_SCALAR + _WS + r",)*+(?:" + _WS + _LOOSE_SCALAR + r"(?=" + _WS + r"\]))?+"
)

# one match per member (or item) of a loose stretch, so the rewrite works once per member, not per token; the
# groups are the pieces it puts back together: (space, key, space ':' space, value)
_LOOSE_MEMBER_PARTS = re.compile(
    "(" + _WS + ")(" + _LOOSE_KEY + ")(" + _WS + ":" + _WS + ")(" + _LOOSE_SCALAR + "|" + _LOOSE_LIST + ")"
)
# the next member that may need a rewrite, after (a comma and) the members that are JSON already, which one C-speed
# match skips: the rewrite then works once per member it changes, not once per member
_NEXT_LOOSE_MEMBER = re.compile("(?:" + _WS + ",)?+(?:" + _MEMBER + _WS + ",)*+" + _LOOSE_MEMBER_PARTS.pattern)
_LOOSE_ITEM_PARTS = re.compile("(" + _WS + ")(" + _LOOSE_SCALAR + ")")
# the items of a flat loose list: numbers are tokens too, so each item's index is counted
_LIST_TOKEN = re.compile(
    r"""(?P<sq>'[^']*+')|(?P<str>"(?:[^"\\]++|\\.)*+")|(?P<word>[A-Za-z_$][\w$]*+)|(?P<num>-?[0-9][0-9.eE+-]*+)|(?P<comma>,)"""
)
_SPACE = re.compile(_WS)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_LOOSE_FIRST = frozenset("'TFN")  # how a scalar the rewrite changes starts (a JSON one never starts so)
_SPACES = " \t\r\n"


def rewrite_loose(body: str, offset: int, prefix: str, is_object: bool, index: int) -> tuple[str, list[Repair], int]:
    """A loose stretch as JSON text, with a repair for each rewrite. `offset` is where the stretch starts in the
    text, `prefix` the pointer of its container, `index` the container's current item index (lists). Returns the
    text, the repairs and the new index.

    One loop over the stretch's members (or items) that touches only those needing a rewrite: a member whose key
    and value are JSON already stays in the text between rewrites, and a pointer is built only for a repair."""
    repairs: list[Repair] = []
    # the stretch was matched in the whole text, where a closer follows it: a line break stands in for that
    # closer, so a single-quoted string at the very end still sees structure after it
    text = body + "\n"
    out: list[str] = []
    done = 0  # where the text not copied to `out` yet starts
    if is_object:
        for m in _members_to_rewrite(text):
            k0, v0 = m.start(2), m.start(4)
            first, lead = text[k0], text[v0]
            if first == '"' and lead not in _REWRITTEN:
                continue
            key = m.group(2)
            path = ""
            if first == '"':
                fixed_key = key
            else:
                name = key[1:-1] if first == "'" else key
                fixed_key = '"' + name + '"'
                path = f"{prefix}/{escape_token(name) if '~' in name or '/' in name else name}"
                kind = "single_quotes" if first == "'" else "bare_key"
                repairs.append(Repair.make(kind, path, key, fixed_key, offset=offset + k0))
            value = m.group(4)
            if lead == "[" or lead == "'" or value in _PY_LITERALS:
                if not path:
                    path = f"{prefix}/{escape_token(decode_key(key))}"
                at = offset + v0
                value = _listed(value, at, path, repairs) if lead == "[" else _scalar(value, at, path, repairs)
            out += (text[done:k0], fixed_key, text[m.end(2) : v0], value)
            done = m.end()
    else:
        for m in _LOOSE_ITEM_PARTS.finditer(text):
            index += 1
            v0 = m.start(2)
            lead = text[v0]
            if lead not in _LOOSE_FIRST:
                continue
            value = m.group(2)
            if lead != "'" and value not in _PY_LITERALS:
                continue
            out += (text[done:v0], _scalar(value, offset + v0, f"{prefix}/{index}", repairs))
            done = m.end()
    if not out:
        return body, repairs, index
    out.append(text[done:-1])
    return "".join(out), repairs, index


def _members_to_rewrite(text: str) -> Iterator[re.Match[str]]:
    """The members of a loose stretch that may need a rewrite: every member when it holds a single quote (then
    nearly every one does), else only those after the members one C-speed match skips as JSON already."""
    return _LOOSE_MEMBER_PARTS.finditer(text) if "'" in text else _after_json_members(text)


def _after_json_members(text: str) -> Iterator[re.Match[str]]:
    at = 0
    while (m := _NEXT_LOOSE_MEMBER.match(text, at)) is not None:
        at = m.end()
        yield m


_REWRITTEN = frozenset("'TFN[")  # how a member value that may need a rewrite starts (no JSON scalar starts so)


def _scalar(tok: str, at: int, path: str, repairs: list[Repair]) -> str:
    """A single-quoted string or a Python literal as JSON, recorded."""
    if tok[0] == "'":
        fixed = '"' + tok[1:-1] + '"'
        repairs.append(Repair.make("single_quotes", path, tok, fixed, offset=at))
        return fixed
    fixed = _PY_LITERALS[tok]
    repairs.append(Repair.make("python_literal", path, tok, fixed, offset=at))
    return fixed


def _listed(tok: str, at: int, path: str, repairs: list[Repair]) -> str:
    """A flat loose list (`tok`, at offset `at`, pointer `path`) as JSON: its scalars rewritten, its trailing comma
    dropped, each recorded."""
    if "'" not in tok and "T" not in tok and "F" not in tok and "N" not in tok:
        # JSON scalars only (no quote, no Python literal): at most the trailing comma right before the ']'
        last = tok[:-1].rstrip(_SPACES)
        if not last.endswith(","):
            return tok
        comma = len(last) - 1
        repairs.append(Repair.make("trailing_comma", path, ",", "", offset=at + comma))
        return tok[:comma] + tok[comma + 1 :]
    out: list[str] = []
    done = 0
    inner = -1
    for m in _LIST_TOKEN.finditer(tok):
        kind = m.lastgroup
        if kind == "comma":
            after = _SPACE.match(tok, m.end())
            if tok[after.end() if after is not None else m.end()] == "]":
                repairs.append(Repair.make("trailing_comma", path, ",", "", offset=at + m.start()))
                out.append(tok[done : m.start()])
                done = m.end()
            continue
        inner += 1
        piece = m.group()
        if kind == "sq" or (kind == "word" and piece in _PY_LITERALS):
            out += (tok[done : m.start()], _scalar(piece, at + m.start(), f"{path}/{inner}", repairs))
            done = m.end()
    out.append(tok[done:])
    return "".join(out)
