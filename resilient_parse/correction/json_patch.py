"""An example feedback plugin: for a large document with few failing paths, ask for an RFC 6902 JSON Patch.

Re-sending a 5 kB plan to fix one enum value wastes the model's output tokens; a patch of one `replace` costs a
dozen. `JsonPatchFeedback` overrides the built-in `rp_build_feedback` only in that case (it returns None
otherwise, so the built-in message is used), and its `rewrite_answer` applies the model's patch to a *copy* of
the previous candidate before the loop parses it. A patch that cannot be applied raises `PatchFailedError`, whose
errors become the next round's feedback.

The patch is model text, so it is hostile: the maintained `jsonpatch` package applies it, one operation at a
time, after `PatchLimits` are checked on what each operation would add (`copy` doubling the document, a value
nested a thousand deep) — the limits are checked on the operations, never on a result built first.

    parser = Parser(plugins=[JsonPatchFeedback(min_chars=2000, max_paths=3)])
    plan = correct(llm, messages, TaskPlan, parser=parser)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

try:
    import jsonpatch
    import jsonpointer
except ImportError:  # pragma: no cover - exercised in a subprocess by tests/test_light_install.py
    raise ImportError(
        "the JSON Patch feedback plugin needs the `patch` extra: pip install 'resilient-parse[patch]'"
    ) from None

from resilient_parse.context import CallContext
from resilient_parse.errors import ErrorDetail, ParseError
from resilient_parse.feedback import condense, excerpt, schema_for_paths
from resilient_parse.hookspecs import hookimpl
from resilient_parse.safe_text import escape_surrogates

MARKER = "Answer with an RFC 6902 JSON Patch"
_NOT_PATCHABLE = frozenset({"syntax", "truncated", "no_candidate", "empty", "refusal", "schema_echo", "too_deep"})
_MAX_MESSAGE_CHARS = 300


class PatchFailedError(ParseError):
    """The model's JSON Patch could not be applied to its previous output (bad path, failed test, not a patch,
    or over the `PatchLimits`)."""

    kind = "patch_failed"


@dataclass(frozen=True)
class PatchLimits:
    """How much one patch may do. Sizes are weights: one per JSON value plus the characters of its strings and
    keys, about its length as JSON text.

    - `max_ops`: operations in one patch (a fix for a few failing paths needs a handful);
    - `max_value_depth`: nesting of a value an operation adds, replaces, tests or copies;
    - `max_growth`: weight the patch may add in all, beyond the document's own weight (so a patch can at most
      double a document, plus this much).
    """

    max_ops: int = 64
    max_value_depth: int = 64
    max_growth: int = 20_000


class _OverLimit(Exception):
    pass


def _weight(value: Any, budget: int, max_depth: int | None) -> int:
    """The weight of `value`, walked without recursion; `_OverLimit` as soon as it passes `budget` or `max_depth`,
    so a huge value costs no more than the budget to refuse."""
    total = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if max_depth is not None and depth > max_depth:
            raise _OverLimit(f"the value is nested deeper than {max_depth} levels")
        total += 1
        if isinstance(node, str):
            total += len(node)
        elif isinstance(node, dict):
            total += len(node) + sum(len(k) for k in node if isinstance(k, str))
            if total <= budget:
                stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            total += len(node)
            if total <= budget:
                stack.extend((v, depth + 1) for v in node)
        if total > budget:
            raise _OverLimit("the patch would grow the document past its limit (at most double, plus a little)")
    return total


def _explain(doc: Any, path: Any, *, adding: bool) -> str | None:
    """Why `path` does not lead to a place in `doc`, in the model's terms ("index 99 is out of range"); None when
    it does (the operation failed for another reason)."""
    try:
        parts = jsonpointer.JsonPointer(path).parts
    except (jsonpointer.JsonPointerException, TypeError, AttributeError):
        return f"{path!r} is not a JSON Pointer"
    node = doc
    for number, part in enumerate(parts):
        last = number == len(parts) - 1
        if isinstance(node, dict):
            if part not in node:
                return None if last and adding else f"no member {part!r}"
            node = node[part]
        elif isinstance(node, list):
            if last and adding and part == "-":
                return None
            if not part.isdigit() or (part != "0" and part.startswith("0")):
                return f"{part!r} is not an array index"
            index, limit = int(part), len(node) + (1 if last and adding else 0)
            if index >= limit:
                return f"index {index} is out of range (length {len(node)})"
            node = node[index] if index < len(node) else None
        else:
            return f"cannot descend into {type(node).__name__}"
    return None


def _added(doc: Any, op: dict[str, Any], budget: int, limits: PatchLimits) -> int:
    """The weight operation `op` would add to `doc` (its value, or the subtree it copies), refused past `budget`
    or `limits.max_value_depth`. A `test` value is measured too (it is compared recursively) but adds nothing."""
    name = op.get("op")
    if name in ("add", "replace", "test") and "value" in op:
        added = _weight(op["value"], budget, limits.max_value_depth)
        return 0 if name == "test" else added
    if name == "copy":
        source = op.get("from")
        if not isinstance(source, str):
            raise jsonpatch.InvalidJsonPatch("'copy' needs a 'from' JSON Pointer")
        return _weight(jsonpointer.JsonPointer(source).resolve(doc), budget, limits.max_value_depth)
    return 0


def _reason(op: Any, doc: Any, exc: Exception) -> str:
    """Why an operation failed, naming the place when it is a path that leads nowhere."""
    if isinstance(op, dict) and not isinstance(exc, _OverLimit | jsonpatch.InvalidJsonPatch):
        name = op.get("op")
        places = [(op.get("from"), False)] if name in ("move", "copy") else []
        places.append((op.get("path"), name in ("add", "move", "copy")))
        for where, adding in places:
            explained = _explain(doc, where, adding=adding)
            if explained is not None:
                return explained
    return excerpt(str(exc) or type(exc).__name__, _MAX_MESSAGE_CHARS)


_APPLY_ERRORS = (_OverLimit, jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, LookupError, TypeError)
"""What applying a model's operation may raise (LookupError/TypeError: what older jsonpatch releases let through
for a wrong index or member)."""


def apply_patch(document: Any, patch: Iterable[Any], limits: PatchLimits | None = None) -> Any:
    """Apply an RFC 6902 patch to a copy of `document` and return the copy; the original is never changed.

    Raises `PatchFailedError` naming the failing operation (as `/<op index>`) when an operation is malformed,
    its path does not exist, a `test` fails, or it would pass the `limits`; the patch is all-or-nothing.
    """
    limits = limits or PatchLimits()
    ops = list(patch)
    if len(ops) > limits.max_ops:
        raise PatchFailedError(
            f"the JSON Patch has {len(ops)} operations; at most {limits.max_ops} are applied",
            [ErrorDetail(path="", kind="patch_failed", message=f"more than {limits.max_ops} operations")],
        )
    try:  # through JSON: a copy made in C, that fails cleanly on what no patch could address
        doc = json.loads(json.dumps(document))
        budget = max(_weight(doc, 1 << 62, None), 0) + limits.max_growth
    except (TypeError, ValueError, RecursionError):
        raise PatchFailedError(
            "the document to patch is not JSON", [ErrorDetail(path="", kind="patch_failed", message="not JSON")]
        ) from None
    for number, op in enumerate(ops):
        try:
            step = jsonpatch.JsonPatch([op])  # the operation's shape, before anything is measured or applied
            budget -= _added(doc, op, budget, limits)
            doc = step.apply(doc, in_place=True)
        except _APPLY_ERRORS as exc:
            reason = _reason(op, doc, exc)
            raise PatchFailedError(
                f"JSON Patch operation {number} could not be applied: {reason}",
                [ErrorDetail(path=f"/{number}", kind="patch_failed", message=reason, got=op)],
            ) from None
    return doc


def _fenced(text: str) -> str:
    """The inside of the first ``` fence, if the text has a closed one (found with `str.find`: linear)."""
    start = text.find("```")
    end = text.find("```", start + 3) if start >= 0 else -1
    if end < 0:
        return text
    inner = text[start + 3 : end]
    return (inner[4:] if inner.startswith("json") else inner).strip()


def _load_patch(text: str) -> list[Any] | None:
    """The patch in the model's answer (a JSON array of operations, maybe fenced), or None if it is not one."""
    stripped = _fenced(text.strip())
    start, end = stripped.find("["), stripped.rfind("]")
    if start < 0 or end < start or stripped[:start].strip().startswith("{"):
        return None
    try:
        ops = json.loads(stripped[start : end + 1])
    except (ValueError, RecursionError):  # too deep to be a patch: the parser reports the answer as it is
        return None
    if isinstance(ops, list) and ops and all(isinstance(o, dict) and "op" in o for o in ops):
        return ops
    return None


class JsonPatchFeedback:
    """Ask for a JSON Patch when the previous output is at least `min_chars` long and at most `max_paths`
    distinct paths fail; otherwise leave the feedback to the built-in."""

    rp_name = "rp.json_patch_feedback"

    def __init__(self, min_chars: int = 2000, max_paths: int = 3, limits: PatchLimits | None = None) -> None:
        self.min_chars = min_chars
        self.max_paths = max_paths
        self.limits = limits or PatchLimits()

    @hookimpl
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str | None:
        document = candidate or failure.candidate
        if not document or len(document) < self.min_chars:
            return None
        if any(d.kind in _NOT_PATCHABLE for d in failure.details):
            return None
        try:
            json.loads(document)
        except (ValueError, RecursionError):
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
            lines += ["", "Your previous output:", excerpt(candidate)]
        lines += [
            "",
            'Reply with the JSON array of patch operations only, e.g. [{"op": "replace", "path": "/a/0/b", '
            '"value": 1}]; it is applied to your previous output.',
        ]
        return escape_surrogates("\n".join(lines))

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
        except (ValueError, RecursionError):
            return None
        try:
            patched = apply_patch(document, ops, self.limits)
        except PatchFailedError as exc:
            exc.candidate = candidate
            raise
        return json.dumps(patched, ensure_ascii=False)
