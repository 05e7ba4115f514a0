"""Honest repairs of references inside a plan: a step reference written another way ("s2", "step 2", "Step-2", 2)
is "S2"; a tool hint that names exactly one registered tool by the core's name matcher is that tool. Nothing else
is guessed: no step or tool is ever invented, and two equally close tools are a refusal."""

from __future__ import annotations

import re
from collections.abc import Iterable

from resilient_parse import ParseError
from resilient_parse.plugin_api import LENIENT
from resilient_parse.plugin_api import match_tool as core_match_tool

_STEP_REF = re.compile(r"^\s*(?:s|step)\s*[-_#.:]?\s*0*([1-9][0-9]*)\s*$", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"^\s*#?0*([1-9][0-9]*)\s*$")
_LIST_SEPARATORS = re.compile(r"\s*(?:,|;|&|\band\b)\s*", re.IGNORECASE)
_NOTHING = frozenset({"", "none", "n/a", "na", "-", "nothing", "no dependencies"})


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
    """The whitelisted tool `name` means, by the core's one matcher (`plugin_api.match_tool`) with the whitelist
    as the tools that exist: itself, another case or style, behind a namespace, or one typo (a vowel slipped, two
    letters swapped) — never a consonant changed (`change_card` is no `charge_card`). None when there is no such
    tool, or two are as close."""
    listed = tuple(tools)
    try:
        return core_match_tool(name.strip(), listed, LENIENT, "", sent=listed)[0]
    except ParseError:
        return None


def split_step_refs(value: str) -> tuple[list[str], float] | None:
    """A dependency list written as one string — "S1, S2", "s1 and step 3", "none" — as canonical ids, or None
    when any part is not a step reference."""
    if value.strip().casefold() in _NOTHING:
        return [], 0.9
    ids: list[str] = []
    confidence = 1.0
    for part in _LIST_SEPARATORS.split(value.strip()):
        if re.fullmatch(r"S[1-9][0-9]*", part):
            ids.append(part)
            continue
        found = normalise_step_ref(part)
        if found is None:
            return None
        ids.append(found[0])
        confidence = min(confidence, found[1])
    return ids, confidence * 0.95
