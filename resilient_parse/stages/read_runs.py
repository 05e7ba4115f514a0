"""Stretches: runs of object members or list items the reader takes in one C-speed match instead of token by token.

A *valid* stretch (JSON strings, numbers, literals, flat lists of them, each followed by its ',') is copied to the
output as it is. A *loose* stretch also holds the lossless repairs models make most — single-quoted strings,
bare keys, Python literals, a trailing comma inside a flat list — and is rewritten by one `re.sub` pass whose
callback records each repair with its JSON Pointer (the stretch's container, plus the key or index the callback
tracks as it goes) and its offset in the text. Everything else (nested containers, comments, missing commas, cut
text, guesses) is left to the token reader. All patterns are possessive: nothing is ever matched twice.
"""

from __future__ import annotations

import json
import re

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
LOOSE_ITEM_RUN = re.compile(
    r"(?:" + _WS + _LOOSE_SCALAR + _WS + r",)*+(?:" + _WS + _LOOSE_SCALAR + r"(?=" + _WS + r"\]))?+"
)

# one match per member (or item) of a loose stretch, so the rewrite's callback runs once per member, not per token;
# the groups are the pieces the callback puts back together: (space, key, space ':' space, value)
_LOOSE_MEMBER_PARTS = re.compile(
    "(" + _WS + ")(" + _LOOSE_KEY + ")(" + _WS + ":" + _WS + ")(" + _LOOSE_SCALAR + "|" + _LOOSE_LIST + ")"
)
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

    The callbacks run once per member or item and do only what that member needs: a member whose key and value
    are JSON already is put back as it was matched, and a pointer is built only for a repair."""
    repairs: list[Repair] = []
    add = repairs.append
    make = Repair.make

    def scalar(tok: str, at: int, path: str) -> str:
        if tok[0] == "'":
            fixed = '"' + tok[1:-1] + '"'
            add(make("single_quotes", path, tok, fixed, offset=at))
            return fixed
        fixed = _PY_LITERALS[tok]
        add(make("python_literal", path, tok, fixed, offset=at))
        return fixed

    def listed(tok: str, at: int, path: str) -> str:
        if (
            "'" not in tok
            and "T" not in tok
            and "F" not in tok
            and "N" not in tok
            and not tok[:-1].rstrip(_SPACES).endswith(",")
        ):
            return tok  # JSON scalars only (no quote or Python literal), no trailing comma: nothing to rewrite
        inner = -1

        def item(m: re.Match[str]) -> str:
            nonlocal inner
            piece = m.group()
            if m.lastgroup == "comma":
                after = _SPACE.match(tok, m.end())
                if tok[after.end() if after is not None else m.end()] == "]":
                    add(make("trailing_comma", path, ",", "", offset=at + m.start()))
                    return ""
                return piece
            inner += 1
            if piece[0] in _LOOSE_FIRST and (piece[0] == "'" or piece in _PY_LITERALS):
                return scalar(piece, at + m.start(), f"{path}/{inner}")
            return piece

        return _LIST_TOKEN.sub(item, tok)

    def member(m: re.Match[str]) -> str:
        space, key, colon, value = m.groups()
        first = key[0]
        path = ""
        if first == '"':
            fixed_key = key
        else:
            name = key[1:-1] if first == "'" else key
            fixed_key = '"' + name + '"'
            path = f"{prefix}/{escape_token(name) if '~' in name or '/' in name else name}"
            add(make("single_quotes" if first == "'" else "bare_key", path, key, fixed_key, offset=offset + m.start(2)))
        lead = value[0]
        if lead == "[" or (lead in _LOOSE_FIRST and (lead == "'" or value in _PY_LITERALS)):
            if not path:
                path = f"{prefix}/{escape_token(_decoded(key))}"
            at = offset + m.start(4)
            value = listed(value, at, path) if lead == "[" else scalar(value, at, path)
        elif first == '"':
            return m.group()
        return space + fixed_key + colon + value

    def one_item(m: re.Match[str]) -> str:
        nonlocal index
        index += 1
        value = m.group(2)
        lead = value[0]
        if lead in _LOOSE_FIRST and (lead == "'" or value in _PY_LITERALS):
            return m.group(1) + scalar(value, offset + m.start(2), f"{prefix}/{index}")
        return m.group()

    # the stretch was matched in the whole text, where a closer follows it: a line break stands in for that
    # closer, so a single-quoted string at the very end still sees structure after it
    pattern, fix = (_LOOSE_MEMBER_PARTS, member) if is_object else (_LOOSE_ITEM_PARTS, one_item)
    return pattern.sub(fix, body + "\n")[:-1], repairs, index


def _decoded(raw: str) -> str:
    if "\\" not in raw:
        return raw[1:-1]
    try:
        value = json.loads(raw)
    except ValueError:
        return raw[1:-1]
    return value if isinstance(value, str) else raw[1:-1]
