"""Key alignment stage: propose which field an unknown key means.

Evidence, strongest first (lower `rank` wins in the core):
0. an explicit alias table (the call's, the parser's, the model's own) — lossless: the developer declared it;
1. case and word-style normalisation (`Action`, `cityName`, `city-name`, `city name` → `city_name`);
2. a plugin's alias table;
3. fuzzy similarity (normalised Levenshtein via rapidfuzz) above the policy threshold and with a margin over the
   runner-up — but never between words that carry different meaning (`delay_seconds` is not `delay_minutes`),
   and never for very short keys.
The core decides among proposals and refuses ties; this module only gathers evidence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import Levenshtein

from resilient_parse.context import CallContext, KeyMapping
from resilient_parse.hookspecs import hookimpl
from resilient_parse.schema import ModelView

RANK_EXPLICIT_ALIAS = 0
RANK_CASE = 1
RANK_PLUGIN_ALIAS = 2
RANK_FUZZY = 3

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATORS = re.compile(r"[\s\-_.:/]+")
MIN_FUZZY_LENGTH = 4
TOKEN_TYPO_SIMILARITY = 0.7

# Words whose substitution changes meaning: units, bounds, directions, roles. A key that differs from a field in
# one of these words is a different quantity, however small the edit distance.
MEANING_WORDS = frozenset(
    [
        "ms",
        "msec",
        "millis",
        "milliseconds",
        "s",
        "sec",
        "secs",
        "second",
        "seconds",
        "m",
        "min",
        "mins",
        "minute",
        "minutes",
        "h",
        "hr",
        "hrs",
        "hour",
        "hours",
        "d",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "ns",
        "us",
        "mm",
        "cm",
        "m",
        "km",
        "mi",
        "miles",
        "meter",
        "meters",
        "metre",
        "metres",
        "inch",
        "inches",
        "ft",
        "feet",
        "yard",
        "yards",
        "mg",
        "g",
        "kg",
        "gram",
        "grams",
        "lb",
        "lbs",
        "pound",
        "pounds",
        "oz",
        "ounce",
        "ounces",
        "ton",
        "tons",
        "b",
        "kb",
        "mb",
        "gb",
        "tb",
        "byte",
        "bytes",
        "bit",
        "bits",
        "usd",
        "eur",
        "gbp",
        "jpy",
        "cents",
        "cent",
        "dollars",
        "euros",
        "min",
        "max",
        "minimum",
        "maximum",
        "lower",
        "upper",
        "low",
        "high",
        "start",
        "end",
        "begin",
        "finish",
        "first",
        "last",
        "prev",
        "previous",
        "next",
        "from",
        "to",
        "before",
        "after",
        "in",
        "out",
        "input",
        "output",
        "source",
        "target",
        "src",
        "dst",
        "dest",
        "sender",
        "recipient",
        "old",
        "new",
        "current",
        "initial",
        "final",
        "open",
        "close",
        "opened",
        "closed",
        "lat",
        "lng",
        "lon",
        "latitude",
        "longitude",
        "x",
        "y",
        "z",
        "width",
        "height",
        "depth",
        "celsius",
        "fahrenheit",
        "kelvin",
        "percent",
        "pct",
        "ratio",
        "count",
        "total",
    ]
)


@lru_cache(maxsize=4096)
def normalise_key(key: str) -> str:
    """`cityName`, `CityName`, `city-name`, `city name`, `CITY_NAME` → `city_name`."""
    spaced = _CAMEL.sub("_", key.strip())
    return _SEPARATORS.sub("_", spaced).strip("_").lower()


def _tokens(normalised: str) -> list[str]:
    return [t for t in normalised.split("_") if t]


def meaning_differs(a: str, b: str) -> bool:
    """True when two normalised keys differ in a word that carries meaning, not in a typo.

    Keys are compared token by token. A differing token pair that is a meaning word on either side, or that is
    not even a plausible typo of the other, means the keys name different things.
    """
    ta, tb = _tokens(a), _tokens(b)
    if len(ta) != len(tb):
        # a dropped or added word (`max_delay` vs `delay`) changes meaning when the word matters
        return bool((set(ta) ^ set(tb)) & MEANING_WORDS) or abs(len(ta) - len(tb)) > 1
    for x, y in zip(ta, tb):
        if x == y:
            continue
        if x in MEANING_WORDS or y in MEANING_WORDS:
            return True
        if Levenshtein.normalized_similarity(x, y) < TOKEN_TYPO_SIMILARITY:
            return True
    return False


def _field_for(model: ModelView, name: str) -> str | None:
    if name in model.fields:
        return name
    return model.key_to_field.get(name)


def alias_proposals(key: str, model: ModelView, ctx: CallContext) -> list[KeyMapping]:
    out: list[KeyMapping] = []
    own = model.own_aliases.get(key)
    if own is not None and (fname := _field_for(model, own)) is not None:
        out.append(KeyMapping(key, fname, "key_alias", RANK_EXPLICIT_ALIAS, 1.0, note=f"{model.name}'s own aliases"))
    for entry in ctx.aliases_for(key):
        fname = _field_for(model, entry.field)
        if fname is None:
            continue
        if entry.explicit:
            out.append(KeyMapping(key, fname, "key_alias", RANK_EXPLICIT_ALIAS, 1.0, note=f"{entry.origin} aliases"))
        else:
            out.append(KeyMapping(key, fname, "key_plugin_alias", RANK_PLUGIN_ALIAS, 1.0, note=entry.origin))
        break  # entries are ordered call > parser > plugins: the first that names a field here wins
    return out


def _candidate_names(model: ModelView) -> Mapping[str, str]:
    """normalised spelling → field name, for every field name and declared alias."""
    names: dict[str, str] = {}
    for fv in model.fields.values():
        for spelling in (fv.name, *fv.input_keys):
            names.setdefault(normalise_key(spelling), fv.name)
    return names


def propose(obj: Mapping[str, Any], model: ModelView, unknown: list[str], ctx: CallContext) -> list[KeyMapping]:
    policy = ctx.policy
    proposals: list[KeyMapping] = []
    names = _candidate_names(model)
    allow_case = policy.allows("key_case")
    allow_fuzzy = policy.allows("key_fuzzy")
    threshold = policy.fuzzy_key_threshold
    for key in unknown:
        proposals.extend(alias_proposals(key, model, ctx))
        norm = normalise_key(key)
        if allow_case and norm in names:
            proposals.append(KeyMapping(key, names[norm], "key_case", RANK_CASE, 1.0))
            continue
        if allow_case and norm != key:
            # an alias written in another style: `Tool` for the alias `tool`
            for entry_key in (norm, key.lower()):
                for m in alias_proposals(entry_key, model, ctx):
                    proposals.append(
                        KeyMapping(key, m.field, "key_case", RANK_CASE, 0.99, note=f"via alias {entry_key!r}")
                    )
        if not allow_fuzzy or len(norm) < MIN_FUZZY_LENGTH:
            continue
        scored = sorted(
            ((Levenshtein.normalized_similarity(norm, spelling), spelling, fname) for spelling, fname in names.items()),
            reverse=True,
        )
        if not scored:
            continue
        best_score, best_spelling, best_field = scored[0]
        runner_up = next((s for s, _, f in scored[1:] if f != best_field), 0.0)
        if best_score < threshold or best_score - runner_up < policy.fuzzy_margin:
            continue
        if meaning_differs(norm, best_spelling):
            continue
        proposals.append(
            KeyMapping(key, best_field, "key_fuzzy", RANK_FUZZY, best_score, note=f"similarity {best_score:.2f}")
        )
    return proposals


COMMON_ALIASES = {
    "tool": "action",
    "tool_name": "action",
    "args": "arguments",
    "params": "arguments",
    "parameters": "arguments",
    "deps": "dependencies",
    "depends_on": "dependencies",
}
"""Spellings models use for common agent fields. Applies only where the target field exists and the key is
unknown, only under policies that accept plugin aliases (not strict); block the plugin "rp.common_aliases" to
turn it off."""


class CommonAliases:
    """Built-in plugin contributing `COMMON_ALIASES` through `rp_register_aliases`."""

    @hookimpl
    def rp_register_aliases(self, register: Any, policy: Any) -> None:
        register(COMMON_ALIASES)


class AlignStage:
    """Built-in plugin for `rp_propose_key_mappings`."""

    @hookimpl(trylast=True)
    def rp_propose_key_mappings(
        self, obj: Mapping[str, Any], model: ModelView, unknown: list[str], path: str, ctx: CallContext
    ) -> list[KeyMapping]:
        return propose(obj, model, unknown, ctx)
