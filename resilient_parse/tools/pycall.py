"""Llama 3's built-in tool calls, `<|python_tag|>brave_search.call(query="x")`: a Python call read for its literal
keyword arguments with `ast.literal_eval`, never evaluated.

Model text is hostile, and `ast` is recursive: `f(x=` + `-` * 100000 + `1)` exhausts its recursion (a
RecursionError or MemoryError), and `0x` + `f` * 100000 is an int no JSON number can be printed from. So `ast` sees
only a call of at most MAX_PY_CALL_CHARS characters with at most MAX_PY_CODE_CHARS of them outside string literals
(every operator there can nest one level deeper; a string is a leaf), any failure of it is "not a call", and
the values must be ones JSON can hold.
"""

from __future__ import annotations

import re
from typing import Any

MAX_PY_CALL_CHARS = 100_000
"""A Llama `tool.call(...)` longer than this is not read (ast's work grows with it)."""
MAX_PY_CODE_CHARS = 2_000
"""... nor one with more than this many characters outside its string literals: every operator there can nest
ast's recursion one level deeper (`-` * 100000), and string literals are leaves."""
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_PY_STRING = re.compile(
    r"[rRbBuUfF]{0,2}(?:'''(?:[^'\\]|\\.|'(?!''))*+'''|\"\"\"(?:[^\"\\]|\\.|\"(?!\"\"))*+\"\"\""
    r"|'(?:[^'\\\n]|\\.)*+'|\"(?:[^\"\\\n]|\\.)*+\")",
    re.DOTALL,
)


def python_call(text: str) -> tuple[str, dict[str, Any]] | None:
    """`brave_search.call(query="x")` or `get_time(tz="UTC")` → (name, {keyword: literal}); None when it is not
    a call with literal keyword arguments whose values JSON can hold (nothing is ever evaluated). `ast` sees only
    a call of at most MAX_PY_CALL_CHARS characters with at most MAX_PY_CODE_CHARS outside string literals, and
    any failure of it (SyntaxError, ValueError, RecursionError, MemoryError) means "not readable"."""
    source = text.strip()
    name = _IDENTIFIER.match(source)
    if name is None or len(source) > MAX_PY_CALL_CHARS:
        return None
    i = name.end() + (5 if source.startswith(".call", name.end()) else 0)
    rest = source[i:].lstrip()
    tail = rest.rstrip()
    if tail.endswith(";"):
        tail = tail[:-1].rstrip()
    if not (tail.startswith("(") and tail.endswith(")") and len(tail) >= 2):
        return None
    inner = tail[1:-1]
    code = _PY_STRING.sub("", inner)
    if len(code) > MAX_PY_CODE_CHARS or not code.isascii():
        return None  # too much code for ast, or names it would fold (NFKC: 'ｐａｔｈ' is 'path') rather than read
    import ast  # imported on first use: it is large, and only Llama's python_tag calls need it

    try:
        args = _keywords(ast.parse(f"f({inner})", mode="eval").body)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    return (name.group(), args) if args is not None and all(_json_holds(v) for v in args.values()) else None


def python_calls(text: str) -> list[tuple[str, dict[str, Any]]] | None:
    """A whole text that is one Python call or a list of them, as the "pythonic" tool format writes calls
    (`[get_weather(city="Oslo"), get_time(tz="UTC")]`) → [(name, {keyword: literal}), …]; None otherwise. The same
    bounds as `python_call`, for the list as a whole."""
    source = text.strip()
    if not source.startswith("["):
        one = python_call(source)
        return [one] if one is not None else None
    if not source.endswith("]") or len(source) > MAX_PY_CALL_CHARS:
        return None
    code = _PY_STRING.sub("", source)
    if len(code) > MAX_PY_CODE_CHARS or not code.isascii():
        return None  # too much code for ast, or names it would fold (NFKC) rather than read as written
    import ast

    calls: list[tuple[str, dict[str, Any]]] = []
    try:
        node = ast.parse(source, mode="eval").body
        if not isinstance(node, ast.List) or not node.elts:
            return None
        for item in node.elts:
            args = _keywords(item)
            if args is None or not isinstance(item, ast.Call) or not isinstance(item.func, ast.Name):
                return None
            calls.append((item.func.id, args))
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    return calls if all(_json_holds(v) for _, args in calls for v in args.values()) else None


def _keywords(node: Any) -> dict[str, Any] | None:
    """A call node's literal keyword arguments, or None (not a call, a positional argument, `**kwargs`). Raises
    what `ast.literal_eval` raises for a value that is not a literal."""
    import ast

    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return None  # (a chained call, `a(x=1).b(x=2)`, is a call of an attribute: not one call)
    given = [ast.literal_eval(a) for a in node.args] + [
        ast.literal_eval(k.value) for k in node.keywords if k.arg is None
    ]
    if given:  # `f({"path": "/"})` or `f(**{"path": "/"})`: the arguments as one object, and nothing else
        if len(given) != 1 or len(node.args) + len(node.keywords) != 1 or not isinstance(given[0], dict):
            return None
        return given[0] if all(isinstance(k, str) for k in given[0]) else None
    args: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg in args:
            return None  # a keyword given twice: which value is meant is not said
        args[str(kw.arg)] = ast.literal_eval(kw.value)
    return args


def _json_holds(value: Any, depth: int = 0) -> bool:
    """Whether a Python literal is a JSON value (no bytes, sets, complex numbers; numbers that print)."""
    if depth > 64:
        return False
    if value is None or isinstance(value, str | bool):
        return True
    if isinstance(value, int):
        try:
            str(value)  # an int too long to print (0x + 'f' * 100000) is refused here, not in json.dumps later
        except ValueError:
            return False
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, list | tuple):
        return all(_json_holds(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_holds(v, depth + 1) for k, v in value.items())
    return False
