"""The message that tells a model what was wrong with its answer, condensed so a retry costs few tokens.

Errors are de-duplicated and shown as JSON Pointers, with the offending value only when it is short; at most
`MAX_ERRORS` are listed. The model's previous output is shown as we repaired it (not an annotated copy), and the
schema only for the failing paths.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from resilient_parse.context import CallContext
from resilient_parse.errors import ErrorDetail, ParseError
from resilient_parse.hookspecs import hookimpl

MAX_ERRORS = 10
MAX_GOT_CHARS = 60
MAX_CANDIDATE_CHARS = 6000


def condense(details: tuple[ErrorDetail, ...] | list[ErrorDetail]) -> list[str]:
    """One line per distinct problem: `/steps/2/id: Field required (got: ...)`."""
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()
    for d in details:
        key = (d.path, d.message)
        if key in seen:
            continue
        seen.add(key)
        line = f"{d.path or '/'}: {d.message}"
        if d.has_got and d.kind != "missing":
            try:
                got = json.dumps(d.got, ensure_ascii=False)
            except (TypeError, ValueError):
                got = repr(d.got)
            if len(got) <= MAX_GOT_CHARS:
                line += f" (got {got})"
        lines.append(line)
    if len(lines) > MAX_ERRORS:
        extra = len(lines) - MAX_ERRORS
        lines = [*lines[:MAX_ERRORS], f"(+{extra} more)"]
    return lines


def schema_for_paths(target: Any, paths: list[str]) -> dict[str, Any]:
    """The JSON Schema of the fields at the failing paths (by pointer), resolved through $refs."""
    try:
        full = TypeAdapter(target).json_schema()
    except Exception:  # a target Pydantic cannot describe: give no schema rather than fail the feedback
        return {}
    defs = full.get("$defs", {})

    def resolve(node: Any) -> Any:
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 20:
            node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
            seen += 1
        return node

    out: dict[str, Any] = {}
    for path in paths:
        node: Any = resolve(full)
        parts = [p for p in path.split("/")[1:]] if path else []
        for part in parts:
            node = resolve(node)
            if not isinstance(node, dict):
                node = None
                break
            if part.isdigit() and "items" in node:
                node = node["items"]
            elif "properties" in node and part in node["properties"]:
                node = node["properties"][part]
            elif isinstance(node.get("additionalProperties"), dict):
                node = node["additionalProperties"]
            else:
                node = None
                break
        node = resolve(node)
        if isinstance(node, dict) and node:
            slim = {k: v for k, v in node.items() if k not in ("$defs",)}
            out[path or "/"] = slim
    return out


def format_feedback(failure: ParseError, candidate: str | None, target: Any = None) -> str:
    lines = ["Your previous answer could not be used:"]
    lines.extend(f"- {line}" for line in condense(failure.details))
    if candidate:
        shown = candidate if len(candidate) <= MAX_CANDIDATE_CHARS else candidate[:MAX_CANDIDATE_CHARS] + " …"
        lines += ["", "Your previous output (as we read it):", shown]
    if target is not None:
        paths = sorted({d.path for d in failure.details if d.kind not in ("syntax", "truncated", "trailing_text")})
        schema = schema_for_paths(target, paths[:MAX_ERRORS]) if paths else {}
        if schema:
            lines += ["", "The schema at those paths:", json.dumps(schema, ensure_ascii=False, indent=None)]
    lines += ["", "Reply with the complete corrected JSON object only, no prose and no code fences."]
    return "\n".join(lines)


class FeedbackStage:
    """Built-in plugin for `rp_build_feedback`."""

    @hookimpl(trylast=True)
    def rp_build_feedback(self, failure: ParseError, candidate: str | None, ctx: CallContext) -> str:
        return format_feedback(failure, candidate, ctx.target)
