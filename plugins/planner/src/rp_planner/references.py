"""Honest repairs of references inside a plan: a step reference written another way ("s2", "step 2", "Step-2", 2)
is "S2"; a tool hint one typo away from exactly one registered tool is that tool. Nothing else is guessed: no step
or tool is ever invented, and two equally close tools are a refusal."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rapidfuzz.distance import OSA

_STEP_REF = re.compile(r"^\s*(?:s|step)\s*[-_#.:]?\s*0*([1-9][0-9]*)\s*$", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"^\s*#?0*([1-9][0-9]*)\s*$")


def normalise_step_ref(value: object) -> tuple[str, float] | None:
    """The canonical id for a step reference and the confidence of the reading, or None when `value` is already
    canonical or is not a step reference at all."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (f"S{value}", 0.8) if value >= 1 else None
    if not isinstance(value, str):
        return None
    m = _STEP_REF.match(value)
    if m:
        canonical = f"S{int(m.group(1))}"
        return None if canonical == value else (canonical, 0.95)
    m = _BARE_NUMBER.match(value)
    if m:
        return f"S{int(m.group(1))}", 0.8
    return None


def match_tool(name: str, tools: Iterable[str]) -> str | None:
    """The registered tool `name` means: itself, a case-insensitive match, or the only tool one edit (insert,
    delete, substitute, swap) away. None when there is no such tool or more than one."""
    tools = list(tools)
    if name in tools:
        return name
    folded = name.casefold().strip()
    same = [t for t in tools if t.casefold() == folded]
    if len(same) == 1:
        return same[0]
    if same:
        return None
    near = [t for t in tools if OSA.distance(folded, t.casefold(), score_cutoff=1) <= 1]
    return near[0] if len(near) == 1 else None


def near_tools(name: str, tools: Iterable[str]) -> list[str]:
    """All tools within one edit of `name` (case-insensitive), for error messages about ambiguity."""
    folded = name.casefold().strip()
    return sorted(t for t in tools if OSA.distance(folded, t.casefold(), score_cutoff=1) <= 1)
