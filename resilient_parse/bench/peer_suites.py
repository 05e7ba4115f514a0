"""The peers' own test suites as a second, independent section of `resilient-parse bench --peer-suites DIR`.

DIR holds snapshots of the peers' repositories, one folder each, named owner+name: `mangiucugna+json_repair`
(its tests/: the `assert repair_json(...) == ...` and `assert loads(...) == ...` lines, and
`_assert_object_repairs(raw, expected)` calls, read with `ast`) and `josdejong+jsonrepair` (src/index.test.ts:
`assertRepair(text)`, `expect(jsonrepair(text)).toBe(expected)`, `expect(() => jsonrepair(text)).toThrow(...)`,
read by a small JavaScript string-literal reader), and, as the reader's yardstick, `json5+json5-tests` (each file
one document, valid or not by its extension) and `nst+JSONTestSuite` (test_parsing/: `y_` files valid, `n_`
invalid). The files are read at run time and never copied. Calls with
options that test other features (schemas, streaming, logging, strict) are left out.

Each (input, expected) pair is a case with the target `typing.Any`, scored like a corpus case against the suite's
own expectation. An expected "nothing" (json_repair's "" for text with no JSON, jsonrepair's throw) must be
rejected; a peer that answers with its own "nothing" ("" or None) there rejects it. A pair that expects JSON
`null` is left out and counted: the runner's `None` means "reject". These suites encode their authors' choices
(closing truncated text, inventing missing values, ...), several of which our rules refuse on purpose;
`benchmarks/peer_suites.py` in the repository lists those differences case by case with their reasons.

The readers are shared: that hand-run harness imports them from here.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from resilient_parse.bench.corpus_loader import Case, target_for
from resilient_parse.bench.peers import short_name

NOTHING: Any = object()
"""The expected outcome "no JSON here / an error"."""

TARGET = "typing:Any"
NOTE = (
    "A suite encodes its author's choices (closing truncated text, inventing missing values): our rules refuse "
    "several on purpose; benchmarks/peer_suites.py in the repository lists them case by case."
)
_PY_OK_KWARGS = frozenset({"return_objects", "skip_json_loads", "ensure_ascii", "indent"})


class PeerSuiteError(ValueError):
    """A --peer-suites folder that holds none of the known suites."""


@dataclass(frozen=True)
class Pair:
    """One (input, expected) pair of a peer's suite; `expected` is a JSON value or NOTHING."""

    suite: str
    text: str
    expected: Any
    where: str


# -- json_repair's suite (Python): read with `ast` --------------------------------------------------------------


def _call_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _py_pair(call: ast.Call, expected_node: ast.expr, objects: bool, where: str) -> Pair | None:
    if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
        return None
    kwargs = {k.arg: k.value for k in call.keywords}
    if any(k not in _PY_OK_KWARGS for k in kwargs):
        return None  # schema-guided, strict, streaming or logging calls test other features
    try:
        expected = ast.literal_eval(expected_node)
    except ValueError:
        return None
    ret = kwargs.get("return_objects")
    if isinstance(ret, ast.Constant) and ret.value is True:
        objects = True
    text = call.args[0].value
    if expected == "" and '""' not in text and "''" not in text:
        # json_repair's "nothing here" in both modes (`repair_json("True", return_objects=True) == ""`), unless
        # the text writes an empty string
        return Pair("json_repair", text, NOTHING, where)
    if not objects:
        if not isinstance(expected, str):
            return None
        if expected == "":
            expected = NOTHING
        else:
            try:
                expected = json.loads(expected)
            except ValueError:
                return None
    return Pair("json_repair", call.args[0].value, expected, where)


def json_repair_pairs(root: Path) -> list[Pair]:
    """The (input, expected) pairs of json_repair's tests/."""
    pairs: list[Pair] = []
    for path in sorted((root / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
                cmp = node.test
                if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], ast.Eq) or not isinstance(cmp.left, ast.Call):
                    continue
                name = _call_name(cmp.left.func)
                if name in ("repair_json", "loads"):
                    pair = _py_pair(cmp.left, cmp.comparators[0], name == "loads", where)
                    if pair is not None:
                        pairs.append(pair)
            elif (
                isinstance(node, ast.Call) and _call_name(node.func) == "_assert_object_repairs" and len(node.args) == 2
            ):
                fake = ast.Call(func=ast.Name("repair_json"), args=[node.args[0]], keywords=[])
                pair = _py_pair(fake, node.args[1], True, where)
                if pair is not None:
                    pairs.append(pair)
    return _unique(pairs)


# -- jsonrepair's suite (TypeScript): a small reader for string literals -----------------------------------------

_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_WS = re.compile(r"\s*")
_REPEAT = re.compile(r"\.repeat\((\d+)\)")
_TO_BE = re.compile(r"\s*\)\s*\)\s*\.toBe\(")
_JS_CALL = re.compile(r"assertRepair\(|expect\(\s*jsonrepair\(|jsonrepair\(")


def _js_string(src: str, i: int) -> tuple[str, int]:
    """The JavaScript string literal at src[i] (quote, double quote or backtick without `${}`), and its end."""
    quote = src[i]
    out: list[str] = []
    i += 1
    while True:
        ch = src[i]
        if ch == quote:
            # JavaScript strings are UTF-16: a surrogate pair written as two escapes is one character
            return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass"), i + 1
        if ch == "\\":
            nxt = src[i + 1]
            if nxt == "u":
                if src[i + 2] == "{":
                    end = src.index("}", i + 3)
                    out.append(chr(int(src[i + 3 : end], 16)))
                    i = end + 1
                else:
                    out.append(chr(int(src[i + 2 : i + 6], 16)))
                    i += 6
                continue
            if nxt == "x":
                out.append(chr(int(src[i + 2 : i + 4], 16)))
                i += 4
                continue
            if nxt == "\n":
                i += 2
                continue
            out.append(_JS_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        if quote == "`" and ch == "$" and src[i + 1] == "{":
            raise ValueError("template with a substitution")
        out.append(ch)
        i += 1


def _skip_ws(src: str, i: int) -> int:
    match = _WS.match(src, i)
    return match.end() if match else i


def _js_expression(src: str, i: int) -> tuple[str, int]:
    """String literals joined by `+` (with .repeat(n) on a literal), from src[i]."""
    parts: list[str] = []
    while True:
        i = _skip_ws(src, i)
        if src[i] not in "'\"`":
            raise ValueError("not a string literal")
        s, i = _js_string(src, i)
        repeat = _REPEAT.match(src, i)
        if repeat:
            s, i = s * int(repeat.group(1)), repeat.end()
        parts.append(s)
        j = _skip_ws(src, i)
        if src[j] != "+":
            return "".join(parts), j
        i = j + 1


def jsonrepair_pairs(root: Path) -> list[Pair]:
    """The (input, expected) pairs of jsonrepair's src/index.test.ts."""
    src = (root / "src" / "index.test.ts").read_text(encoding="utf-8")
    pairs: list[Pair] = []
    for m in _JS_CALL.finditer(src):
        where = f"index.test.ts:{src.count(chr(10), 0, m.start()) + 1}"
        try:
            text, end = _js_expression(src, m.end())
        except (ValueError, IndexError):
            continue
        kind = m.group()
        if kind.startswith("assertRepair"):
            expected_text: str | None = text
        elif kind.startswith("expect"):
            tobe = _TO_BE.match(src, end)
            if tobe is None:
                continue
            try:
                expected_text, _ = _js_expression(src, tobe.end())
            except (ValueError, IndexError):
                continue
        else:
            before = src[max(0, m.start() - 60) : m.start()]
            after = src[end : end + 200]
            if "expect(() =>" not in before or ".toThrow(" not in after:
                continue
            expected_text = None
        if expected_text is None:
            pairs.append(Pair("jsonrepair", text, NOTHING, where))
            continue
        try:
            expected = json.loads(expected_text)
        except ValueError:
            continue
        pairs.append(Pair("jsonrepair", text, expected, where))
    return _unique(pairs)


def _unique(pairs: list[Pair]) -> list[Pair]:
    seen: set[str] = set()
    out = []
    for p in pairs:
        if p.text not in seen:
            seen.add(p.text)
            out.append(p)
    return out


# -- JSON5's and JSONTestSuite's files: one document per file ----------------------------------------------------


def _file_text(path: Path) -> str:
    """A test file's text: UTF-8, or (a file of invalid bytes, which JSONTestSuite holds on purpose) the bytes
    kept as lone surrogates, which the parser refuses as invalid input."""
    return path.read_bytes().decode("utf-8", errors="surrogateescape")


def json5_tests_pairs(root: Path) -> list[Pair]:
    """json5/json5-tests: each `.json` and `.json5` file is a valid document, its value as the reference JSON5
    reader (the `json5` package, of the bench extra) reads it; each `.js` (valid JavaScript, not JSON5) and `.txt`
    file is invalid: nothing. The reference reader is imported only here."""
    try:
        import json5
    except ImportError:
        raise PeerSuiteError(
            "the json5-tests suite needs the json5 package: pip install 'resilient-parse[bench]'"
        ) from None
    pairs: list[Pair] = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".json", ".json5", ".js", ".txt") or ".git" in path.parts:
            continue
        text = _file_text(path)
        expected = json5.loads(text) if path.suffix in (".json", ".json5") else NOTHING
        pairs.append(Pair("json5-tests", text, expected, str(path.relative_to(root))))
    return pairs


def json_test_suite_pairs(root: Path) -> list[Pair]:
    """nst/JSONTestSuite's test_parsing/: each `y_` file is valid JSON, its value as `json.loads` reads it; each
    `n_` file is invalid: nothing. The `i_` files, whose reading the JSON standard leaves to the parser, are
    left out."""
    pairs: list[Pair] = []
    for path in sorted((root / "test_parsing").glob("[yn]_*.json")):
        text = _file_text(path)
        expected = json.loads(text) if path.name.startswith("y_") else NOTHING
        pairs.append(Pair("JSONTestSuite", text, expected, path.name))
    return pairs


# -- the section ---------------------------------------------------------------------------------------------------

SUITES: Mapping[str, tuple[str, Callable[[Path], list[Pair]]]] = {
    "mangiucugna+json_repair": ("json_repair", json_repair_pairs),
    "josdejong+jsonrepair": ("jsonrepair", jsonrepair_pairs),
    "json5+json5-tests": ("json5-tests", json5_tests_pairs),
    "nst+JSONTestSuite": ("JSONTestSuite", json_test_suite_pairs),
}


def load_suites(root: Path) -> tuple[list[Case], dict[str, dict[str, Any]]]:
    """The suites found under `root` as cases (category "suite/file"), and per suite: where it was read, how
    many pairs it gave and how many were left out for expecting JSON null."""
    target = target_for(TARGET)
    cases: list[Case] = []
    found: dict[str, dict[str, Any]] = {}
    for folder, (suite, reader) in SUITES.items():
        path = root / folder
        if not path.is_dir():
            continue
        try:
            pairs = reader(path)
        except (OSError, SyntaxError, UnicodeDecodeError) as exc:
            raise PeerSuiteError(f"{path}: cannot read the {suite} suite ({exc})") from None
        kept = [p for p in pairs if p.expected is not None]
        found[suite] = {"source": str(path), "cases": len(kept), "left_out_null": len(pairs) - len(kept)}
        for n, pair in enumerate(kept):
            cases.append(
                Case(
                    id=f"{suite}:{pair.where}:{n}",
                    category=f"{suite}/{pair.where.split(':')[0]}",
                    target_spec=TARGET,
                    input=pair.text,
                    expected=None if pair.expected is NOTHING else pair.expected,
                    source=f"{path}:{pair.where}",
                    target=target,
                )
            )
    if not found:
        raise PeerSuiteError(f"{root}: no peer suite found (expected folders: {', '.join(SUITES)})")
    return cases, found


def peer_nothing(result: Any, peers: set[str]) -> Any:
    """A peer's own "nothing" ("" or None) where the suite expects nothing is that peer's rejection."""
    if result.system in peers and result.outcome == "false_accept" and result.got in ("", None):
        return replace(result, outcome="correct_reject", got=None)
    return result


def format_section(section: Mapping[str, Any], wide: bool = False) -> str:
    """The second section: each suite, scored against its own expectations."""
    lines = textwrap.wrap(
        "THE PEERS' OWN TEST SUITES (a second, independent section: their authors' cases and expectations, read "
        f"at run time from {section['root']})",
        80,
        break_long_words=False,
        break_on_hyphens=False,
    )
    for suite, info in section["suites"].items():
        left_out = f"; {info['left_out_null']} expecting null left out" if info["left_out_null"] else ""
        lines += ["", f"{suite}: {info['cases']} cases{left_out}"]
        head = f"{'system':<24}{'cases':>6}{'correct':>9}{'wrong':>8}{'false-acc':>10}{'rejected':>10}"
        lines += [head, "-" * len(head)]
        for name, s in section["summary"][suite].items():
            shown = name if wide else short_name(name)
            row = f"{shown:<24}{s['cases']:>6}{s['correct_pct']:>8.1f}%{s['wrong_pct']:>7.1f}%"
            row += f"{s['false_accept_pct']:>9.1f}%{s['rejected_pct']:>9.1f}%"
            lines.append(row)
    lines.append("")
    lines += textwrap.wrap(NOTE, 80)
    for skip in section["skipped"]:
        lines.append(f"skipped {skip['system']}: {skip['reason']}")
    return "\n".join(lines)
