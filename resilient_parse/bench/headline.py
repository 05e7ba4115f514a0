"""The benchmark's headline: every system, ours in both modes, graded against the same `expected`, and split by
what a case asks of a parser.

Kinds of case, decided by the case's category (`GROUPS`; a category not listed there is "other"):

    syntax & extraction   the JSON is buried (fences, prose, reasoning, several objects, an API response
                          envelope) or broken as text (commas, quotes, literals, comments, unescaped characters,
                          truncation, full-width punctuation), or the input is valid or must be rejected, in
                          English or another language the lexicon covers: what every JSON repairer tries.
    schema repair         the text reads as JSON, but its keys or values do not fit the target (key case, typos,
                          aliases, enums, coercions, nested errors, wrappers around the object, JSON encoded in a
                          string, the `strict_mode` cases that test which of those strict refuses): what only a
                          schema-aware parser attempts; the peers are scored on them too, and mostly fail.
    plain text            there is no JSON at all: a scalar or a list answered in prose ("The sentiment is
                          positive.", a bullet list); no JSON repairer attempts it, so it is neither of the above.

Two marks keep the comparison honest: the strict policy's own answer key (`expected_strict`, what strict is
*designed* to return) gives a second, labelled score for our strict mode, never the headline; and the cases that
pass our parser an alias table (`aliases`, which no peer takes) are counted and the headline is also given
without them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

SYNTAX = "syntax & extraction"
SCHEMA = "schema repair"
PLAIN = "plain text"
OTHER = "other"

GROUPS: Mapping[str, str] = {
    **dict.fromkeys(
        (
            "fences",
            "prose",
            "reasoning",
            "several_objects",
            "commas",
            "quotes",
            "literals",
            "comments",
            "unescaped",
            "truncation",
            "unicode",
            "envelopes",
            "valid",
            "rejects",
            "multilingual",
            "tool_text",
        ),
        SYNTAX,
    ),
    **dict.fromkeys(("plain_answers", "lists_in_prose"), PLAIN),
    **dict.fromkeys(
        (
            "key_case",
            "key_typos",
            "key_aliases",
            "declared_aliases",
            "enums",
            "type_coercion",
            "nested_errors",
            "wrappers",
            "double_encoding",
            "strict_mode",
        ),
        SCHEMA,
    ),
}
GOOD = ("correct", "correct_reject")


class Graded(Protocol):
    """What the headline reads of one result (a `runner.CaseResult`)."""

    @property
    def case_id(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def system(self) -> str: ...
    @property
    def outcome(self) -> str: ...
    @property
    def policy_outcome(self) -> str | None: ...


def group_of(category: str) -> str:
    return GROUPS.get(category, OTHER)


def _pct(good: int, n: int) -> float | None:
    return round(100.0 * good / n, 1) if n else None


def headline(
    results: Iterable[Graded], systems: Sequence[str], aliased: Iterable[str], policy_keyed: Iterable[str]
) -> dict[str, Any]:
    """Per system: correct % over each group and over all cases (against `expected`), the same without the cases
    that give us an alias table, and for our strict mode the score against its own policy key. `aliased` and
    `policy_keyed` are the ids of the cases with `aliases` and with `expected_strict`."""
    rows = list(results)
    aliased_ids, keyed_ids = set(aliased), set(policy_keyed)
    groups = [g for g in (SYNTAX, SCHEMA, PLAIN, OTHER) if any(group_of(r.category) == g for r in rows)]
    table: dict[str, Any] = {}
    for name in systems:
        mine = [r for r in rows if r.system == name]
        if not mine:
            continue
        entry: dict[str, Any] = {"cases": len(mine)}
        for group in groups:
            in_group = [r for r in mine if group_of(r.category) == group]
            entry[group] = {
                "cases": len(in_group),
                "correct_pct": _pct(sum(r.outcome in GOOD for r in in_group), len(in_group)),
            }
        entry["all"] = _pct(sum(r.outcome in GOOD for r in mine), len(mine))
        unaliased = [r for r in mine if r.case_id not in aliased_ids]
        entry["all_without_aliases"] = _pct(sum(r.outcome in GOOD for r in unaliased), len(unaliased))
        if any(r.policy_outcome is not None for r in mine):
            policy = [r.policy_outcome or r.outcome for r in mine]
            entry["strict_policy_pct"] = _pct(sum(o in GOOD for o in policy), len(policy))
        table[name] = entry
    return {
        "groups": groups,
        "mapping": {g: sorted(c for c in {r.category for r in rows} if group_of(c) == g) for g in groups},
        "aliased_cases": len(aliased_ids),
        "policy_keyed_cases": len(keyed_ids),
        "systems": table,
    }
