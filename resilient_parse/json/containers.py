"""The grammar of containers: opening and closing, stretches of valid members copied whole, comments and
what comes after the end of the value."""

from __future__ import annotations

import re

from resilient_parse.json.frames import Frame, path_of
from resilient_parse.json.runs import FLAT_OBJECT, RUN_ITEM, rewrite_loose
from resilient_parse.json.state import Reader, add, after_the_value, begin_value, end_value, fail
from resilient_parse.json.tokens import (
    COLON,
    COMMA_OR_END,
    INVISIBLE,
    KEY,
    KEY_OR_END,
    LINE_END,
    VALUE,
    VALUE_OR_END,
    WORD_START,
    WS,
    comment_at,
    too_deep,
    valid_value_end,
)
from resilient_parse.repairs import Repair


def comment(r: Reader, at: int, c: str) -> int:
    """A comment (`//`, `#`, `/* */`) where JSON allows white space: dropped, recorded."""
    if r.text.startswith("/*", at):
        close = r.text.find("*/", at + 2)
        end = r.n if close < 0 else close + 2
    elif r.text.startswith("//", at) or r.text[at] == "#" or (r.stack and comment_at(r.text, at)):
        # (inside containers, a lone '/' that ends the text is the first character of a comment cut off)
        line_end = LINE_END.search(r.text, at)  # a line ends at LF, CR (old Mac files), or U+2028/U+2029
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
    """A container opens: a frame on the stack, refused past the policy's depth (the stack is the only recursion)."""
    if len(r.stack) >= r.max_depth:
        raise fail(r, f"nesting deeper than {r.max_depth} levels (Policy.max_depth)", at, "too_deep")
    frame = Frame(closer=closer, prefix=path_of(r.stack), opened_at=at, member_start=len(r.out) + 1, out_at=len(r.out))
    r.stack.append(frame)
    r.opened[closer] += 1
    r.out.append("{" if closer == "}" else "[")
    r.state = KEY_OR_END if closer == "}" else VALUE_OR_END


def close_container(r: Reader, at: int) -> None:
    """The open container closes: a trailing comma before it goes (recorded); a key left without a value fails."""
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
        return comment(r, at, c)
    if c in INVISIBLE:
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
        follows = WS.match(r.text, at + 1)
        nxt = follows.end() if follows else at + 1
        if nxt < r.n and (r.text[nxt] == '"' or r.text[nxt] in WORD_START):
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
        follows = WS.match(r.text, at + 1)
        nxt = follows.end() if follows else at + 1
        if nxt < r.n and (r.text[nxt] == '"' or r.text[nxt] in WORD_START):
            # strict: `{"a": 1}, "b": 2}` is one object closed too early, not an object with prose after it
            raise fail(r, "members follow the object's '}': it was closed too early (a lossy repair)", at)
    raise after_the_value(r, at)


def open_bracket(r: Reader, at: int, c: str) -> int:
    """A '{' or '[' (`c`, the fullwidth ones already mapped): a whole valid value read by the C scanner in one
    call, a flat object in one match, or else a container opened for token-by-token reading."""
    text, n, stack = r.text, r.n, r.stack
    begin_value(r, at)
    if r.decode_wait:
        r.decode_wait -= 1
    elif (at >= r.decode_floor or r.rescan_budget > 0) and text[at] == c:
        end, failed_at = valid_value_end(text, at)
        if at < r.decode_floor:
            r.rescan_budget -= (end if end >= 0 else failed_at) - at
        if end < 0:
            r.decode_floor = max(failed_at, r.decode_floor, at + 1)
            if failed_at < n:
                # siblings are usually written alike: after a failure, try the C scanner ever less often
                # (a failure at the very end is a cut: what it holds may well be whole)
                r.decode_skip = min(max(1, r.decode_skip * 2), 64)
                r.decode_wait = r.decode_skip
        else:
            r.decode_skip = 0
            if too_deep(text, at, end, r.max_depth - len(stack)):
                r.decode_floor = n
                open_container(r, at, "}" if c == "{" else "]")
                return at + 1
            r.out.append(text[at:end])
            r.root_raw = not stack
            end_value(r, end)
            return end
    if c == "{" and len(stack) < r.max_depth and text[at] == "{":
        if r.flat_wait:
            r.flat_wait -= 1
        else:
            flat = FLAT_OBJECT.match(text, at)
            # the root only when nothing follows it (what may follow a root is read with its frame)
            if flat is not None and (stack or not text[flat.end() :].strip(" \t\r\n")):
                r.flat_skip = 0
                return flat_object(r, flat)
            # siblings are written alike: after a failure, try the match ever less often
            r.flat_skip = min(max(1, r.flat_skip * 2), 64)
            r.flat_wait = r.flat_skip
    open_container(r, at, "}" if c == "{" else "]")
    return at + 1


def closing_bracket(r: Reader, at: int, c: str) -> int:
    """A '}', ']' or ')': it closes the open container, or is a stray or mismatched closer."""
    stack = r.stack
    if not stack:
        raise fail(r, f"unexpected '{c}'", at)
    top = stack[-1]
    if top.closer != c and len(stack) == 1 and c != ")" and not r.opened[c] and "stray_closer" in r.lossy:
        follows = WS.match(r.text, at + 1)
        nxt = follows.end() if follows else at + 1
        if nxt < r.n and r.text[nxt] == ",":
            # `[{"a": 1}}, {"b": 2}]`: a '}' with no object open closes nothing; as the root list's ']'
            # it would leave the items after it outside the answer (deeper, as an inner list's ']', it
            # is the other plausible reading, so the mismatched-bracket rule below stands)
            add(r, "stray_closer", c, "", at, path=top.prefix)
            return at + 1
    if top.closer != c:
        if c == ")" or top.closer == ")" or "mismatched_bracket" not in r.lossy:
            raise fail(r, f"unexpected '{c}' inside an open {'object' if top.is_object else 'list'}", at)
        add(r, "mismatched_bracket", c, top.closer, at, path=top.prefix)
    close_container(r, at)
    return at + 1


def comma(r: Reader, at: int, c: str) -> int:
    """A ',' after a value: the next member or item comes."""
    if r.state != COMMA_OR_END:
        if r.state == VALUE and r.stack and r.stack[-1].is_object:
            raise fail(r, "a key has no value", at, "missing_value")
        raise fail(r, "unexpected ','", at)
    top = r.stack[-1]
    top.last_comma = top.member_start = len(r.out)
    top.last_comma_at = at
    r.out.append(",")
    if top.is_object:
        top.key = None
        top.open_run = ""
    r.state = KEY if top.is_object else VALUE
    return at + 1


def colon(r: Reader, at: int, c: str) -> int:
    """A ':' after a key."""
    if r.state != COLON:
        raise fail(r, "unexpected ':'", at)
    r.out.append(":")
    r.state = VALUE
    return at + 1


def python_tuple(r: Reader, at: int, c: str) -> int:
    """A '(' where a value goes: a Python tuple, written as a list."""
    begin_value(r, at)
    add(r, "python_tuple", "(", "[", at)
    open_container(r, at, ")")
    return at + 1
