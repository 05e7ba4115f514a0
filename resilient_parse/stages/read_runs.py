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

_TOKEN = re.compile(
    r"""(?P<str>"(?:[^"\\]++|\\.)*+")|(?P<sq>'[^']*+')|(?P<num>-?[0-9][0-9.eE+\-]*+)|(?P<word>[A-Za-z_$][\w$]*+)
   |(?P<open>\[)|(?P<close>\])|(?P<comma>,)""",
    re.VERBOSE,
)
_SPACE = re.compile(_WS)
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}


def rewrite_loose(body: str, offset: int, prefix: str, is_object: bool, index: int) -> tuple[str, list[Repair], int]:
    """A loose stretch as JSON text, with a repair for each rewrite. `offset` is where the stretch starts in the
    text, `prefix` the pointer of its container, `index` the container's current item index (lists). Returns the
    text, the repairs and the new index."""
    repairs: list[Repair] = []
    key = ""  # the current member's pointer segment (objects)
    in_list = False  # inside a flat list value
    inner = -1  # the current item index inside that list

    def member() -> str:
        return f"{prefix}/{key}" if is_object else f"{prefix}/{index}"

    def here() -> str:
        return f"{member()}/{inner}" if in_list else member()

    def follows(end: int) -> str:
        after = _SPACE.match(body, end)
        at = after.end() if after is not None else end
        return body[at] if at < len(body) else ""

    def record(kind: str, before: str, after: str, at: int, path: str) -> str:
        repairs.append(Repair.make(kind, path, before, after, offset=offset + at))
        return after

    def one(m: re.Match[str]) -> str:
        nonlocal key, in_list, inner, index
        group = m.lastgroup
        tok = m.group()
        if group == "open":
            if not is_object:
                index += 1
            in_list, inner = True, -1
            return tok
        if group == "close":
            in_list = False
            return tok
        if group == "comma":
            if in_list and follows(m.end()) == "]":
                return record("trailing_comma", tok, "", m.start(), member())
            return tok
        if is_object and not in_list and follows(m.end()) == ":":
            key = escape_token(_decoded(tok) if group == "str" else tok.strip("'"))
            if group == "sq":
                return record("single_quotes", tok, '"' + tok[1:-1] + '"', m.start(), here())
            if group == "word":
                return record("bare_key", tok, '"' + tok + '"', m.start(), here())
            return tok
        if in_list:
            inner += 1
        elif not is_object:
            index += 1
        if group == "sq":
            return record("single_quotes", tok, '"' + tok[1:-1] + '"', m.start(), here())
        if group == "word" and tok in _PY_LITERALS:
            return record("python_literal", tok, _PY_LITERALS[tok], m.start(), here())
        return tok

    return _TOKEN.sub(one, body), repairs, index


def _decoded(raw: str) -> str:
    if "\\" not in raw:
        return raw[1:-1]
    try:
        value = json.loads(raw)
    except ValueError:
        return raw[1:-1]
    return value if isinstance(value, str) else raw[1:-1]
