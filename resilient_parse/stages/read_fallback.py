"""json-repair as the lenient last resort, for what the reader cannot read — behind guards that refuse its reading
where it is not what the text says.

json-repair guesses; the guards compare its reading with the text and refuse it when they differ: any character
it dropped (everything but white space, structure and comments counts: a `−`, `!`, `<` or `%` it cannot place
is lost content, not noise), separators it invented, strings the text does not hold, brackets turned into text or
dropped, a root it changed (a Python set read as a list, several values joined into one). Every guard is linear:
string patterns take their closing quote as optional, so a string that never closes is read once to the end
instead of once per quote. json-repair itself is quadratic on some shapes, so it is asked only about candidates
under `JSON_REPAIR_MAX_CHARS` and with bounded work (`JSON_REPAIR_MAX_WORK`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_left
from collections import Counter

import json_repair

from resilient_parse.context import LoadResult
from resilient_parse.json.failure import ReadFailure, as_error
from resilient_parse.repairs import Repair

JSON_REPAIR_MAX_CHARS = 20_000
"""Candidates longer than this are never handed to json-repair (its worst case grows with the square of the size)."""

_QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019\uff02")


def json_repair_fallback(text: str, failure: ReadFailure, whole: str, max_depth: int) -> LoadResult:
    """json-repair's reading of a candidate the reader could not read, or the reader's own error: when the
    candidate is too large or too deep for json-repair's bounded time, when it is the front of a longer answer
    (`whole` is the full text), or when a guard finds the reading dishonest."""
    depth = bracket_depth(text)  # linear: a string that never closes is read once
    if depth > max_depth:
        message = f"nesting {depth} levels deep, over the limit of {max_depth} (Policy.max_depth)"
        raise as_error(ReadFailure(message, failure.offset, "", "too_deep"))
    if len(text) > JSON_REPAIR_MAX_CHARS:
        # json-repair's guessing is quadratic on some inputs ("key: value, " repeated): past this size the honest,
        # bounded answer is the reader's own error
        failure.message += f" (the candidate is over {JSON_REPAIR_MAX_CHARS:,} characters, too long to guess at)"
        raise as_error(failure)
    if _json_repair_work(text) > JSON_REPAIR_MAX_WORK:
        failure.message += " (the text has too many unquoted members for json-repair to guess at in bounded time)"
        raise as_error(failure)
    goes_on = _cut_from_a_longer_answer(text, whole)
    if goes_on is not None:
        # `[{"b": ""k]` cut out of `[{"b": ""k]"}]` at a bracket inside a broken string: closing the piece would
        # make an answer of a part of one
        failure.message += (
            f"; the text goes on after this candidate with {goes_on!r}, so it is a piece of a longer answer and "
            "json-repair is not asked to close it"
        )
        raise as_error(failure)
    return _json_repair_reading(text, failure)


def _json_repair_reading(text: str, failure: ReadFailure) -> LoadResult:
    for elided in _ELISION.finditer(text):
        if elided["dots"] is not None:
            # the tokenizer stopped before reaching it; json-repair would drop the '...' and keep the rest
            at = elided.start("dots")
            raise as_error(ReadFailure(f"the output elides items with {elided['dots']!r}", at, "", "elided"))
    try:
        tree = json_repair.loads(text, skip_json_loads=True)
    except (RecursionError, ValueError, IndexError, TypeError, AttributeError):
        raise as_error(failure) from None
    if tree == "" or tree is None or not isinstance(tree, (dict, list)):
        raise as_error(failure)
    root = _changed_root(text, tree)
    if root is not None:
        # `{'a', 'b'}` read as a list, `[1], [2]` as [[1], [2]]: not the value the text opened
        failure.message += f"; json-repair's reading {root}, so it is not used"
        raise as_error(failure)
    try:
        fixed = json.dumps(tree, ensure_ascii=False)
    except (ValueError, RecursionError):
        raise as_error(failure) from None
    swallowed = _swallowed_structure(tree)
    if swallowed is not None:
        # `"loc": "R"hx"}}` read as the string R"hx"} and an invented '}': the text's structure became data
        failure.message += (
            f"; json-repair's reading turns a closing bracket into text ({swallowed!r}), so it is not used"
        )
        raise as_error(failure)
    invented = _invented_string(text, tree)
    if invented is not None:
        # `"t": "\u001f["` read as '\x1f["': the closing quote the text wrote became part of the value
        failure.message += (
            f"; json-repair's reading has a string the text does not hold ({invented!r}), so it is not used"
        )
        raise as_error(failure)
    invented_structure = _invented_structure(text, fixed)
    if invented_structure is not None:
        # `["He said "hi" there"]` read as three items: json-repair wrote separators the text never wrote
        failure.message += (
            f"; json-repair's reading adds {invented_structure} the text does not have, so it is not used"
        )
        raise as_error(failure)
    dropped = _dropped_brackets(text, fixed)
    if dropped:
        # `[{{]` read as [], `{"v": {5}` as {"v": [5]}: containers the text opened are gone from the reading
        failure.message += f"; json-repair's reading drops {dropped} opening bracket(s) of the text, so it is not used"
        raise as_error(failure)
    hidden = _comment_hiding_closers(text)
    if hidden is not None:
        # `{"a": [1, #2]}` with no line break: json-repair closes what the comment holds the closers of
        failure.message += (
            f"; a comment runs to the end of the text with containers still open ({hidden!r}), so json-repair's "
            "reading, which closes them, is not used"
        )
        raise as_error(failure)
    lost = _lost_content(text, fixed)
    if lost:
        # json-repair dropped text it could not place (`"Short", sweet and "fun"`): its object is not the answer
        failure.message += f"; json-repair's reading would drop part of the text ({_describe(lost)}), so it is not used"
        raise as_error(failure)
    repair = Repair.make(
        "json_repair",
        failure.path,
        text if len(text) <= 200 else text[:199] + "…",
        fixed if len(fixed) <= 200 else fixed[:199] + "…",
        confidence=0.6,
        offset=failure.offset,
        note=f"json-repair rewrote the text; our tokenizer stopped at: {failure.message}",
    )
    return LoadResult(tree=tree, json_text=fixed, repairs=(repair,))


# -- guards around json-repair ------------------------------------------------------------------------------------

JSON_REPAIR_MAX_WORK = 2_000_000
"""A bound on the characters json-repair would scan for the bare members of a candidate (about 0.1 s)."""

# json-repair's quadratic shape: at each `, key: word` inside an unquoted value it scans ahead to the next quote
# or '}' to decide whether the comma ends the value — many such members before a far delimiter cost n² steps
_BARE_MEMBER = re.compile(r",[ \t\r\n]*[A-Za-z_][\w-]*[ \t\r\n]*:[ \t\r\n]*(?!(?:true|false|null)\b)[A-Za-z_]")
_REPAIR_STOP = re.compile("[\"'\u201c\u201d}]")


_OUTPUT_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+"')


def _invented_structure(text: str, fixed: str) -> str | None:
    """A description of the separators json-repair's output has more of than the whole text has (anywhere, even
    inside strings: a generous bound), or None. Splitting one value into several, or inventing a key, shows here."""
    structure = _OUTPUT_STRINGS.sub("", fixed)
    for sign, names in ((",", "commas"), (":", "colons")):
        wide = "\uff0c\u3001" if sign == "," else "\uff1a"
        written = sum(text.count(c) for c in sign + wide)
        if structure.count(sign) > written:
            return f"{structure.count(sign) - written} {names}"
    return None


def _json_repair_work(text: str) -> int:
    """An estimate of the characters json-repair scans ahead for bare members: for each, the distance to the next
    quote or '}'. Linear: one pass for the stops, one for the members."""
    stops = [m.start() for m in _REPAIR_STOP.finditer(text)]
    work = 0
    for member in _BARE_MEMBER.finditer(text):
        i = bisect_left(stops, member.end())
        work += (stops[i] if i < len(stops) else len(text)) - member.end()
    return work


# a '...' or '…' standing where items would be (`[{…}, ...]`, `"steps": [ ... ]`), outside double-quoted strings
_ELISION = re.compile(r'"(?:[^"\\\n]++|\\.)*+"?|(?<=[\[{,:])[ \t\r\n]*(?P<dots>\.{2,}|\u2026)[ \t\r\n]*(?=[\]},])')
_BRACKETS_OUTSIDE_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[^\[\]{}"]++')
# what is not content: comments and numbers (compared by value below); strings are matched first so `#` or `//`
# inside them stays content, and a comment starts after white space or structure (`n#ame`, `https://x` and `'#c'`
# are text, not comments: counting a comment as content refuses more, never less). A line comment that holds a
# closing bracket is content too: json-repair ends it there (`[1, #3], "b": 2` keeps "b"), the reader does not. A
# bare `None` is Python's null, which json-repair writes `null`: it is counted as that word (a `None` next to a
# quote is text of a single-quoted string, counted as written).
_NOT_CONTENT = re.compile(
    r"""(?P<str>"(?:[^"\\\n]++|\\.)*+"?)
   |(?P<comment>(?<![^\s,:\[\]{}])(?:(?://|\#)[^\n\]}]*+(?![\]}])|/\*[^*]*+\*++(?:[^/*][^*]*+\*++)*+/|/\*.*))
   |(?P<none>(?<![\w$.'"\u2018\u2019])none(?![\w$'"\u2018\u2019]))
   |(?P<num>(?<![\w$.])[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?![\w$.]))
    """,
    re.VERBOSE | re.DOTALL | re.IGNORECASE,
)
# structure, compared by its own guards (brackets dropped, separators invented), and what is read as white space
_STRUCTURE = frozenset("{}[],:\uff5b\uff5d\uff3b\uff3d\uff0c\uff1a\u3001")
_INVISIBLE = frozenset("\u180e\u200b\u2060\ufeff")
_QUOTE_THEN_CLOSER = re.compile(r'"\s*[}\]]')
_ESCAPE_PAIR = re.compile(r"\\.", re.DOTALL)
_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


_LEADING = re.compile(r"(?:\s|[\u180e\u200b\u2060\ufeff]|//[^\n]*+|\#[^\n]*+|/\*(?:[^*]|\*(?!/))*+(?:\*/)?)*+")


def _changed_root(text: str, tree: object) -> str | None:
    """How json-repair's tree changes the root the text opened, or None: the text opens an object and the tree is
    a list (a Python set), or an array and the tree is not, or no container at all; or the text closes its root
    and opens another (json-repair joins several values into one list)."""
    leading = _LEADING.match(text)
    body = text[leading.end() :] if leading is not None else text
    kind = {"{": dict, "[": list}.get(body[:1])
    if kind is None:
        return "makes a container of text that does not open one"
    if not isinstance(tree, kind):
        opened, made = ("object", "an array") if kind is dict else ("array", "an object")
        return f"turns the text's {opened} into {made}"
    depth, closed = 0, False
    for ch in _BRACKETS_OUTSIDE_STRINGS.sub("", body):
        if ch == "{" or ch == "[":
            if closed and depth == 0:
                return "joins several values the text wrote one after another into one array"
            depth += 1
        else:
            depth = max(depth - 1, 0)
            closed = closed or depth == 0
    return None


def _dropped_brackets(text: str, fixed: str) -> int:
    """How many more opening brackets of a kind the text has outside strings than json-repair's reading has: a
    container dropped, or an object turned into an array (`{5}` read as [5]) or back."""
    rest, out = _BRACKETS_OUTSIDE_STRINGS.sub("", text), _BRACKETS_OUTSIDE_STRINGS.sub("", fixed)
    return sum(max(rest.count(opener) - out.count(opener), 0) for opener in "{[")


def _comment_hiding_closers(text: str) -> str | None:
    """The comment that runs to the end of the text (a line comment with no line break after it, or a block
    comment never closed) while containers are still open before it, or None: their closers may be in it, and
    json-repair would close them where the comment starts."""
    last = None
    for m in _NOT_CONTENT.finditer(text):
        last = m
    if last is None or last.group("comment") is None or text[last.end() :].strip():
        return None
    comment = last.group()
    if comment.startswith("/*") and comment.endswith("*/") and len(comment) >= 4:
        return None
    depth = 0
    for ch in _BRACKETS_OUTSIDE_STRINGS.sub("", text[: last.start()]):
        depth = depth + 1 if ch == "{" or ch == "[" else max(depth - 1, 0)
    return None if depth == 0 else (comment if len(comment) <= 40 else comment[:39] + "…")


def bracket_depth(text: str) -> int:
    """The deepest bracket nesting outside double-quoted strings (a quote that never closes is ignored)."""
    depth = deepest = 0
    for ch in _BRACKETS_OUTSIDE_STRINGS.sub("", text):
        if ch == "{" or ch == "[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "}" or ch == "]":
            depth = max(depth - 1, 0)
    return deepest


def _content(text: str) -> Counter[str]:
    """Every character a reader would call the content of JSON-like text, by count: all but white space, the
    structure (brackets, commas, colons) and comments, with numbers by value (7.40 and 7.4 are one number),
    `\\u00e9` as é, letter case ignored, a bare `None` as `null`. Quotes count by number whatever their kind ('a'
    may come back as "a"), backslashes as the escapes they write are read (`\\/` may come back as `/`)."""
    numbers: list[str] = []

    def keep(m: re.Match[str]) -> str:
        if m.group("str") is not None:
            return m.group()
        if m.group("none") is not None:
            return " null "
        if m.group("num") is not None:
            numbers.append(_number_key(m.group()))
        return " "

    rest = _NOT_CONTENT.sub(keep, _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text))
    counts: Counter[str] = Counter()
    for ch in rest.casefold():
        if ch.isalnum():
            counts[ch] += 1
        elif ch in _QUOTES:
            counts["quotes"] += 1  # a quote json-repair drops was text
        elif ch == "-":
            counts["minus"] += 1  # a minus sign not read as part of a number (`[- 5]`): -5 would become 5
        elif ch == "`":
            counts["backticks"] += 1  # a code fence written inside the brackets (`[```json {…} ```]`)
        elif not (ch.isspace() or ch in _STRUCTURE or ch in _INVISIBLE or ch == "\\" or _is_control(ch)):
            counts[_SIGN + ch] += 1  # `−5`, `!true`, `<5`, `5%`: dropping the sign changes the value
    backslashes = _decode_escapes(rest).count("\\")
    if backslashes:
        counts["backslashes"] = backslashes
    counts.update(f"#{n}" for n in numbers)
    # an escape that stands for a control character (`\\f`) must not come back as a backslash and a letter
    counts.update(m.group() for m in _ESCAPE_PAIR.finditer(rest) if m.group()[1] in "bfnrt")
    return counts


_SIGN = "sign:"


def _is_control(ch: str) -> bool:
    """A control character: JSON writes one inside a string as an escape (`\\b`), so it is compared as such."""
    return unicodedata.category(ch) == "Cc"


def _number_key(token: str) -> str:
    try:
        value = float(token)
    except ValueError:  # pragma: no cover - the pattern only matches numbers
        return token
    return repr(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


def _describe(lost: Counter[str]) -> str:
    numbers = [key[1:] for key in lost if key.startswith("#")]
    escapes = [key for key in lost if key.startswith("\\")]
    signs = "".join(sorted(key[len(_SIGN) :] * n for key, n in lost.items() if key.startswith(_SIGN)))
    letters = "".join(sorted(ch for ch in lost.elements() if len(ch) == 1))
    parts = [f"letters {letters[:30]!r}"] if letters else []
    parts += [f"numbers {', '.join(numbers[:5])}"] if numbers else []
    parts += [f"escapes {' '.join(escapes)}"] if escapes else []
    parts += [f"characters {signs[:30]!r}"] if signs else []
    parts += [f"{lost['quotes']} quote(s)"] if lost["quotes"] else []
    parts += [f"{lost['minus']} minus sign(s)"] if lost["minus"] else []
    parts += [f"{lost['backticks']} backtick(s)"] if lost["backticks"] else []
    parts += [f"{lost['backslashes']} backslash(es)"] if lost["backslashes"] else []
    return "; ".join(parts)


def _swallowed_structure(tree: object) -> str | None:
    """A string of json-repair's tree in which an inner quote is followed by a closing bracket (`R"hx"}`): the
    quote closed the string and the bracket was structure. Honest inner quotes (`say "hi" to`) are followed by
    text. Walks the tree without recursion."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and '"' in node and _QUOTE_THEN_CLOSER.search(node):
            return node if len(node) <= 60 else node[:59] + "…"
    return None


# how the text goes on right after a candidate that is only the front of the answer: a closing bracket, perhaps
# after a quote (`"}]` after `[{"b": ""k]`) — not a quote alone, which may be prose quoting the JSON
_GOES_ON = re.compile("[ \t\r\n]*((?:[\"'\u201c\u201d\uff02][ \t\r\n]*)?[}\\]\uff5d\uff3d][^\n]{0,8})")
_MAX_PLACES = 8


def _cut_from_a_longer_answer(candidate: str, whole: str) -> str | None:
    """What follows the candidate in the whole text when that is a closing bracket (perhaps after a quote): the
    scanner ended the candidate at a bracket the text had not closed yet (one inside a broken string), so the
    candidate is the front of a longer answer, not an answer. None for the whole text, or one followed by prose."""
    if not whole or not candidate or len(candidate) >= len(whole):
        return None
    at = whole.find(candidate)
    for _ in range(_MAX_PLACES):
        if at < 0:
            return None
        follows = _GOES_ON.match(whole, at + len(candidate))
        if follows is not None:
            return follows.group(1)
        at = whole.find(candidate, at + 1)
    return None


_ESCAPE_IN_TEXT = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_DECODED_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "'": "'", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_STRUCTURE_AFTER = frozenset(",:}]\uff0c\uff1a\uff5d\uff3d")
_STRUCTURE_BEFORE = frozenset(",:{[\uff0c\uff1a\uff5b\uff3b")
_MAX_TRIES = 32


def _decode_escapes(text: str) -> str:
    """The text with its backslash escapes read as JSON reads them (`\\u00e9` as é, `\\"` as a quote); an escape
    JSON does not know stays as written. Each `\\uXXXX` is read alone, as json-repair reads it."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        return _DECODED_ESCAPES.get(code, m.group())

    return _ESCAPE_IN_TEXT.sub(one, text)


def _strings_in_order(tree: object) -> list[str]:
    """The keys and string values of a tree, in document order (without recursion)."""
    found: list[str] = []
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            for key, value in reversed(node.items()):
                stack.append(value)
                stack.append(key)
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return found


def _invented_string(text: str, tree: object) -> str | None:
    """A key or string value of json-repair's tree that the text does not hold: not written anywhere (raw, or with
    its escapes read), or only where a quote at its edge is the string's own delimiter (`"\\u001f["` read as
    '\\x1f["'). Honest readings hold text that is there: an inner quote (`"say "hi" now"`), a closing quote
    added after `"Bob, ` (the value is `Bob`), a bare word. Strings are looked for in order from where the last
    one was found, so the search is linear for the usual tree."""
    empties = sum(1 for value in _strings_in_order(tree) if value == "")
    if empties > text.count('""') + text.count("''"):
        return '""'  # an empty string the text never wrote (`{"a":,}` read as {"a": ""})
    readings = [text]
    if "\\" in text:
        readings.append(_decode_escapes(text))
    cursors = [0] * len(readings)
    for value in _strings_in_order(tree):
        if not value:
            continue
        for i, reading in enumerate(readings):
            at = _written_at(reading, value, cursors[i])
            if at < 0 and cursors[i]:
                at = _written_at(reading, value, 0)
            if at >= 0:
                cursors[i] = at + len(value)
                break
        else:
            return value if len(value) <= 60 else value[:59] + "…"
    return None


def _written_at(reading: str, value: str, start: int) -> int:
    """Where `value` is written in `reading` from `start` on, with no quote at its edge standing for the string's
    delimiter (a quote at its end followed by `,` `}` `]` `:`, or at its start after `{` `[` `,` `:`); -1 if
    nowhere (after a bounded number of tries)."""
    first_quote = value[0] in _QUOTES
    last_quote = value[-1] in _QUOTES
    at = reading.find(value, start)
    for _ in range(_MAX_TRIES):
        if at < 0 or not (first_quote or last_quote):
            return at
        ok = True
        if last_quote:
            after = at + len(value)
            while after < len(reading) and reading[after] in " \t\r\n":
                after += 1
            ok = after < len(reading) and reading[after] not in _STRUCTURE_AFTER
        if ok and first_quote:
            before = at - 1
            while before >= 0 and reading[before] in " \t\r\n":
                before -= 1
            ok = before >= 0 and reading[before] not in _STRUCTURE_BEFORE
        if ok:
            return at
        at = reading.find(value, at + 1)
    return -1


def _lost_content(text: str, repaired: str) -> Counter[str]:
    """What json-repair's output lost of the input: letters and digits (by count) and numbers (by value) the
    input has and the output does not. Anything it added (closing quotes, nulls) does not count."""
    return _content(text) - _content(repaired)
