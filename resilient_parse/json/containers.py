"""The grammar of containers: opening and closing, stretches of valid members copied whole, comments and
what comes after the end of the value."""

from __future__ import annotations

import re

from resilient_parse.json.frames import Frame, path_of
from resilient_parse.json.runs import RUN_ITEM, rewrite_loose
from resilient_parse.json.state import Reader, add, end_value, fail
from resilient_parse.json.tokens import (
    _INVISIBLE,
    _LINE_END,
    _WORD_START,
    _WS,
    COLON,
    COMMA_OR_END,
    KEY,
    KEY_OR_END,
    VALUE,
    VALUE_OR_END,
    _comment_at,
)
from resilient_parse.repairs import Repair


def comment(r: Reader, at: int) -> int:
    if r.text.startswith("/*", at):
        close = r.text.find("*/", at + 2)
        end = r.n if close < 0 else close + 2
    elif r.text.startswith("//", at) or r.text[at] == "#" or (r.stack and _comment_at(r.text, at)):
        # (inside containers, a lone '/' that ends the text is the first character of a comment cut off)
        line_end = _LINE_END.search(r.text, at)  # a line ends at LF, CR (old Mac files), or U+2028/U+2029
        close = -1 if line_end is None else line_end.start()
        end = r.n if close < 0 else close
    else:
        raise fail(r, "unexpected '/': a regular expression or a division is not JSON", at, "stray_slash")
    if end >= r.n and r.stack and (close < 0):
        raise fail(
            r,
            "a comment runs to the end of the text with containers still open: their closers may be in it",
            at,
            "comment_at_end",
        )
    add(r, "comment", r.text[at:end], "", at)
    return end


def open_container(r: Reader, at: int, closer: str) -> None:
    if len(r.stack) >= r.max_depth:
        raise fail(r, f"nesting deeper than {r.max_depth} levels (Policy.max_depth)", at, "too_deep")
    frame = Frame(closer=closer, prefix=path_of(r.stack), opened_at=at, member_start=len(r.out) + 1, out_at=len(r.out))
    r.stack.append(frame)
    r.opened[closer] += 1
    r.out.append("{" if closer == "}" else "[")
    r.state = KEY_OR_END if closer == "}" else VALUE_OR_END


def close_container(r: Reader, at: int) -> None:
    top = r.stack[-1]
    if r.state == COLON or (r.state == VALUE and top.is_object):
        raise fail(r, "a key has no value", at, "missing_value")
    if r.state in (KEY, VALUE):
        r.out[top.last_comma] = ""
        r.stack.pop()
        r.repairs.append(Repair.make("trailing_comma", path_of(r.stack), ",", "", offset=top.last_comma_at))
    else:
        r.stack.pop()
    r.opened[top.closer] -= 1
    if top.closer == ")" and top.index == 0 and top.last_comma < 0 and r.state == COMMA_OR_END:
        # `(1)`: parentheses around one value, not a tuple (that needs a comma: `(1,)`)
        r.out[top.out_at] = ""
        end_value(r, at + 1)
        return
    if not r.stack:
        r.last_root, r.root_close, r.root_close_at = top, len(r.out), at
    r.out.append("}" if top.is_object else "]")
    end_value(r, at + 1)


def copy_runs(r: Reader, at: int, valid: re.Pattern[str], loose: re.Pattern[str]) -> int | None:
    """Copy the stretch of valid members or items at `at`, else the loose one; None when neither starts here."""
    run = valid.match(r.text, at)
    if run is not None and run.end() > at:
        return copy_run(r, run)
    run = loose.match(r.text, at)
    if run is not None and run.end() > at:
        return copy_run(r, run, loose=True)
    return None


def copy_run(r: Reader, run: re.Match[str], loose: bool = False) -> int:
    """A stretch of members or items (`json.runs`): copied whole when valid, rewritten with its repairs
    recorded when loose. When it ends with a ',', that comma stays its own piece so a '}' or ']' right after
    it can drop it as a trailing comma."""
    top = r.stack[-1]
    body = run.group()
    if loose:
        body, made, top.index = rewrite_loose(body, run.start(), top.prefix, top.is_object, top.index)
        r.repairs.extend(made)
    elif not top.is_object:
        top.index += len(RUN_ITEM.findall(body))
    if top.is_object:
        top.runs.append(body)
        top.key = None
    r.prev_number, r.prev_end = False, run.end()
    if body[-1] == ",":
        r.out.append(body[:-1])
        top.last_comma = top.member_start = len(r.out)
        top.last_comma_at = run.end() - 1
        r.out.append(",")
        r.state = KEY if top.is_object else VALUE
        return run.end()
    r.out.append(body)
    top.open_run = body if top.is_object else ""
    r.prev_number = body[-1].isdigit()
    r.state = COMMA_OR_END
    return run.end()


def flat_object(r: Reader, flat: re.Match[str]) -> int:
    """An object that is one loose stretch between its braces (`json.runs.FLAT_OBJECT`): rewritten and
    recorded in one go, as reading it container by container would, its trailing comma dropped."""
    path = path_of(r.stack)
    body, made, _ = rewrite_loose(flat.group(1), flat.start(1), path, True, -1)
    r.repairs.extend(made)
    if body.endswith(","):
        body = body[:-1]
        r.repairs.append(Repair.make("trailing_comma", path, ",", "", offset=flat.end(1) - 1))
    r.out.append("{" + body + "}")
    end_value(r, flat.end())
    return flat.end()


def after_the_end(r: Reader, at: int, c: str) -> int:
    """Text after the top-level value: a comment, an invisible character, or a '}' that came too early."""
    if c in "/#":
        return comment(r, at)
    if c in _INVISIBLE:
        add(r, "invisible_character", c, "", at)
        return at + 1
    if c in "}]" and "stray_closer" in r.lossy:
        add(r, "stray_closer", c, "", at)
        return at + 1
    if c == "," and r.last_root is None and r.root_raw and r.out[-1].endswith("}") and "stray_closer" in r.lossy:
        r.last_root = Frame(closer="}", prefix="", opened_at=0)
        r.root_close_at = r.prev_end - 1
        body = r.out[-1][:-1].rstrip()
        r.out[-1] = body
        r.out.append("}")
        r.root_close = len(r.out) - 1
        if body == "{":
            r.out[r.root_close] = ""
            r.last_root.reopened = True
            r.stack.append(r.last_root)
            r.opened["}"] += 1
            add(r, "stray_closer", "}", "", r.root_close_at, path="")
            r.state = KEY_OR_END
            return at + 1
    if c == "," and r.last_root is not None and r.last_root.is_object and "stray_closer" in r.lossy:
        follows = _WS.match(r.text, at + 1)
        nxt = follows.end() if follows else at + 1
        if nxt < r.n and (r.text[nxt] == '"' or r.text[nxt] in _WORD_START):
            # `{"a": 1}, "b": 2}`: the '}' came before members that follow it
            r.out[r.root_close] = ""
            frame = r.last_root
            frame.reopened, frame.key = True, None
            frame.last_comma = frame.member_start = len(r.out)
            frame.last_comma_at = at
            r.stack.append(frame)
            r.opened["}"] += 1
            r.last_root = None
            add(r, "stray_closer", "}", "", r.root_close_at, path="")
            r.out.append(",")
            r.state = KEY
            return at + 1
    if c == "," and (r.root_raw or (r.last_root is not None and r.last_root.is_object)) and r.out[-1].endswith("}"):
        follows = _WS.match(r.text, at + 1)
        nxt = follows.end() if follows else at + 1
        if nxt < r.n and (r.text[nxt] == '"' or r.text[nxt] in _WORD_START):
            # strict: `{"a": 1}, "b": 2}` is one object closed too early, not an object with prose after it
            raise fail(r, "members follow the object's '}': it was closed too early (a lossy repair)", at)
    raise fail(r, "unexpected text after the end of the JSON value", at, "trailing_text")
