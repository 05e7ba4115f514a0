"""An example feedback plugin: for a large document with few failing paths, ask for an RFC 6902 JSON Patch.

Re-sending a 5 kB plan to fix one enum value wastes the model's output tokens; a patch of one `replace` costs a
dozen. `JsonPatchFeedback` overrides the built-in `rp_build_feedback` only in that case (it returns None
otherwise, so the built-in message is used), and its `rewrite_answer` applies the model's patch to a *copy* of
the previous candidate before the loop parses it. A patch that cannot be applied raises `PatchFailedError`, whose
errors become the next round's feedback.

    parser = Parser(plugins=[JsonPatchFeedback(min_chars=2000, max_paths=3)])
    plan = correct(llm, messages, TaskPlan, parser=parser)
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from typing import Any

from resilient_parse.context import CallContext
from resilient_parse.errors import ErrorDetail, ParseError
from resilient_parse.hookspecs import hookimpl
from resilient_parse.repairs import split_pointer
from resilient_parse.stages.feedback import condense, schema_for_paths

MARKER = "Answer with an RFC 6902 JSON Patch"
_NOT_PATCHABLE = frozenset({"syntax", "truncated", "no_candidate", "empty", "refusal", "schema_echo", "too_deep"})
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


class PatchFailedError(ParseError):
    """The model's JSON Patch could not be applied to its previous output (bad path, failed test, not a patch)."""

    kind = "patch_failed"


def _tokens(path: Any) -> list[str]:
    if not isinstance(path, str) or (path and not path.startswith("/")):
        raise ValueError(f"{path!r} is not a JSON Pointer")
    return split_pointer(path)


def _index(container: list[Any], token: str, *, adding: bool) -> int:
    if token == "-" and adding:
        return len(container)
    if not token.isdigit() or (token != "0" and token.startswith("0")):
        raise ValueError(f"{token!r} is not an array index")
    index = int(token)
    if index > len(container) or (index == len(container) and not adding):
        raise ValueError(f"index {index} is out of range (length {len(container)})")
    return index


def _parent(doc: Any, tokens: list[str]) -> Any:
    node = doc
    for token in tokens[:-1]:
        if isinstance(node, dict):
            if token not in node:
                raise ValueError(f"no member {token!r}")
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, adding=False)]
        else:
            raise ValueError(f"cannot descend into {type(node).__name__}")
    return node


def _get(doc: Any, tokens: list[str]) -> Any:
    if not tokens:
        return doc
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise ValueError(f"no member {last!r}")
        return parent[last]
    if isinstance(parent, list):
        return parent[_index(parent, last, adding=False)]
    raise ValueError(f"cannot read from {type(parent).__name__}")


def _remove(doc: Any, tokens: list[str]) -> tuple[Any, Any]:
    if not tokens:
        raise ValueError("cannot remove the whole document")
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise ValueError(f"no member {last!r}")
        return doc, parent.pop(last)
    if isinstance(parent, list):
        return doc, parent.pop(_index(parent, last, adding=False))
    raise ValueError(f"cannot remove from {type(parent).__name__}")


def _add(doc: Any, tokens: list[str], value: Any, *, replace: bool = False) -> Any:
    if not tokens:
        return value
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if replace and last not in parent:
            raise ValueError(f"no member {last!r} to replace")
        parent[last] = value
    elif isinstance(parent, list):
        index = _index(parent, last, adding=not replace)
        if replace:
            parent[index] = value
        else:
            parent.insert(index, value)
    else:
        raise ValueError(f"cannot add to {type(parent).__name__}")
    return doc


def apply_patch(document: Any, patch: Iterable[Any]) -> Any:
    """Apply an RFC 6902 patch to a deep copy of `document` and return the copy; the original is never changed.

    Raises `PatchFailedError` naming the failing operation (as `/<op index>`) when an operation is malformed,
    its path does not exist, or a `test` fails; the patch is all-or-nothing.
    """
    doc = copy.deepcopy(document)
    for number, op in enumerate(patch):
        where = f"/{number}"
        try:
            if not isinstance(op, dict) or not isinstance(op.get("op"), str) or "path" not in op:
                raise ValueError("each operation needs 'op' and 'path'")
            name = op["op"]
            tokens = _tokens(op["path"])
            if name in ("add", "replace", "test") and "value" not in op:
                raise ValueError(f"'{name}' needs a 'value'")
            if name == "add":
                doc = _add(doc, tokens, copy.deepcopy(op["value"]))
            elif name == "replace":
                doc = _add(doc, tokens, copy.deepcopy(op["value"]), replace=True)
            elif name == "remove":
                doc, _ = _remove(doc, tokens)
            elif name in ("move", "copy"):
                source = _tokens(op.get("from"))
                if name == "move":
                    if tokens[: len(source)] == source and len(tokens) > len(source):
                        raise ValueError("cannot move a value into itself")
                    doc, value = _remove(doc, source)
                else:
                    value = copy.deepcopy(_get(doc, source))
                doc = _add(doc, tokens, value)
            elif name == "test":
                if _get(doc, tokens) != op["value"]:
                    raise ValueError(f"test failed at {op['path']!r}")
            else:
                raise ValueError(f"unknown operation {name!r}")
        except ValueError as exc:
            raise PatchFailedError(
                f"JSON Patch operation {number} could not be applied: {exc}",
                [ErrorDetail(path=where, kind="patch_failed", message=str(exc), got=op)],
            ) from None
    return doc


def _load_patch(text: str) -> list[Any] | None:
    """The patch in the model's answer (a JSON array of operations, maybe fenced), or None if it is not one."""
    stripped = text.strip()
    fenced = _FENCE.search(stripped)
    if fenced:
        stripped = fenced.group(1).strip()
    start, end = stripped.find("["), stripped.rfind("]")
    if start < 0 or end < start or stripped[:start].strip().startswith("{"):
        return None
    try:
        ops = json.loads(stripped[start : end + 1])
    except ValueError:
        return None
    if isinstance(ops, list) and ops and all(isinstance(o, dict) and "op" in o for o in ops):
        return ops
    return None


class JsonPatchFeedback:
    """Ask for a JSON Patch when the previous output is at least `min_chars` long and at most `max_paths`
    distinct paths fail; otherwise leave the feedback to the built-in."""

    rp_name = "rp.json_patch_feedback"

    def __init__(self, min_chars: int = 2000, max_paths: int = 3) -> None:
        self.min_chars = min_chars
        self.max_paths = max_paths

    @hookimpl
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str | None:
        document = candidate or failure.candidate
        if not document or len(document) < self.min_chars:
            return None
        if any(d.kind in _NOT_PATCHABLE for d in failure.details):
            return None
        try:
            json.loads(document)
        except ValueError:
            return None
        if isinstance(failure, PatchFailedError):
            lines = [f"{MARKER} that fixes your previous output; your last patch could not be applied:"]
        else:
            paths = sorted({d.path for d in failure.details})
            if len(paths) > self.max_paths:
                return None
            lines = [f"{MARKER} that fixes these problems in your previous output:"]
            schema = schema_for_paths(ctx.target, paths)
            lines.extend(f"- {line}" for line in condense(failure.details))
            if schema:
                lines += ["", "The schema at those paths:", json.dumps(schema, ensure_ascii=False)]
        if isinstance(failure, PatchFailedError):
            lines.extend(f"- {line}" for line in condense(failure.details))
        if candidate:
            lines += ["", "Your previous output:", candidate]
        lines += [
            "",
            'Reply with the JSON array of patch operations only, e.g. [{"op": "replace", "path": "/a/0/b", '
            '"value": 1}]; it is applied to your previous output.',
        ]
        return "\n".join(lines)

    def rewrite_answer(self, text: str, candidate: str | None, feedback: str | None, ctx: CallContext) -> str | None:
        """If we asked for a patch and got one, the patched copy of the candidate as JSON text; else None (the
        answer is parsed as it is — a model may well reply with the whole corrected object instead)."""
        if not candidate or not feedback or not feedback.startswith(MARKER):
            return None
        ops = _load_patch(text)
        if ops is None:
            return None
        try:
            document = json.loads(candidate)
        except ValueError:
            return None
        try:
            patched = apply_patch(document, ops)
        except PatchFailedError as exc:
            exc.candidate = candidate
            raise
        return json.dumps(patched, ensure_ascii=False)
