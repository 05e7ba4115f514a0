"""Key alignment stage: propose which field an unknown key means.

Evidence, strongest first (lower `rank` wins in the core):
0. an explicit alias table — the call's, then the parser's, then the model's own (`__rp_aliases__` class attribute
   or `model_config["rp_aliases"]`); the first table that names a field present at this level wins;
1. case and word-style normalisation (`Action`, `cityName`, `CityName`, `city-name`, `city name`, `cityname` →
   `city_name`), including an alias written in another style (`Tool` for the alias `tool`);
2. a plugin's alias table (only under policies with `plugin_aliases`);
3. fuzzy similarity (normalised Levenshtein with transpositions — rapidfuzz's OSA distance, so `argumnets` is one
   edit from `arguments`) above the policy threshold and with a margin over the runner-up field — but never
   between keys whose words carry different meaning (`delay_seconds` is not `delay_minutes`, `max_tokens` is not
   `min_tokens`, `is_visible` is not `is_invisible`, `line1` is not `line2`), and never for keys shorter than
   `MIN_FUZZY_LENGTH`.
Declared Pydantic aliases (`alias`, `validation_alias`, `AliasChoices`, `AliasPath`, `alias_generator`,
`populate_by_name`) are not proposals at all: they are part of the schema and never reach this stage.
The core decides among proposals (never onto a field already present, never two keys onto one field, never a
tie); this module only gathers evidence, and asks the policy — not a mode name — which kinds it may offer.

Strict mode (any policy that refuses lossy kinds): only step 0 applies. Its `key_alias` repairs are lossless
because a developer wrote the table — the call's or the parser's `aliases=`, or the model's own declared table;
plugin tables, case/style normalisation and fuzzy matching are lossy kinds and are neither proposed nor applied.
An alias applies at every level whose model has its target field, and never inside free-form values
(`dict[str, Any]`, `Any`): tool arguments keep their keys.

Under every policy the stage also proposes, as evidence only, that a key spells a field the object already gives
under its own key (`Action` or `tool` beside `action`; `given_field_evidence`): the core never renames onto a
given field, it refuses the object when the two disagree. For that evidence plugin tables count even where the
policy keeps them from renaming; the parser leaves them out of a strict context, so the built-in common aliases
(`rp.common_aliases`: `COMMON_ALIASES` and the tools layer's `TOOL_KEY_ALIASES`) stand in for them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from resilient_parse.context import CallContext, KeyMapping
from resilient_parse.fit import spelling_of
from resilient_parse.schema import ModelView, normalise_key
from resilient_parse.text.lexicon import lexicon

__all__ = [
    "MEANING_WORDS",
    "alias_proposals",
    "given_field_evidence",
    "given_fields",
    "meaning_differs",
    "normalise_key",
    "propose",
]

RANK_EXPLICIT_ALIAS = 0
RANK_CASE = 1
RANK_PLUGIN_ALIAS = 2
RANK_FUZZY = 3

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


# Spellings of one meaning word: a key may say `timeout_secs` for `timeout_seconds` without changing meaning.
_SAME_MEANING = {
    **dict.fromkeys(("ms", "msec", "millis", "milliseconds", "millisecond"), "milliseconds"),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "seconds"),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), "minutes"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), "hours"),
    **dict.fromkeys(("d", "day", "days"), "days"),
    **dict.fromkeys(("week", "weeks"), "weeks"),
    **dict.fromkeys(("month", "months"), "months"),
    **dict.fromkeys(("year", "years"), "years"),
    **dict.fromkeys(("max", "maximum"), "max"),
    **dict.fromkeys(("minimum",), "min_bound"),
    **dict.fromkeys(("lat", "latitude"), "latitude"),
    **dict.fromkeys(("lng", "lon", "longitude"), "longitude"),
    **dict.fromkeys(("percent", "pct"), "percent"),
    **dict.fromkeys(("src", "source"), "source"),
    **dict.fromkeys(("dst", "dest"), "destination"),
    **dict.fromkeys(("prev", "previous"), "previous"),
}


@functools.cache
def _key_negations() -> frozenset[str]:
    """Each table's words that negate a key they stand in (`not_active`, `nicht_aktiv`): no typo of `active`."""
    words = lexicon().words("key_negations")
    return words.spaced | words.unspaced


def _tokens(normalised: str) -> list[str]:
    return [t for t in normalised.split("_") if t]


def _meaning(token: str) -> str | None:
    if token in _SAME_MEANING:
        return _SAME_MEANING[token]
    return token if token in MEANING_WORDS else None


_TYPO_WORDS = tuple(sorted(w for w in MEANING_WORDS if len(w) >= 4))
"""The meaning words long enough to be recognised through a typo."""
_TIE = 1e-9


def _closest_meaning(token: str) -> str | None:
    """The meaning word `token` is a typo of (`minuts` → minutes), or None when it is not close to exactly one."""
    from rapidfuzz import process  # imported on first fuzzy use: a parser that never needs it never loads it
    from rapidfuzz.distance import OSA

    found = process.extract(
        token, _TYPO_WORDS, scorer=OSA.normalized_similarity, limit=None, score_cutoff=TOKEN_TYPO_SIMILARITY - _TIE
    )
    if not found:
        return None
    top = max(score for _, score, _ in found)
    best = {_meaning(word) or word for word, score, _ in found if score >= top - _TIE}
    return next(iter(best)) if len(best) == 1 else None


def _digits(token: str) -> str:
    return "".join(ch for ch in token if ch.isdigit())


def _token_pair_differs(x: str, y: str) -> bool:
    if _digits(x) != _digits(y) or lexicon().negates(x, y):
        return True
    mx, my = _meaning(x), _meaning(y)
    if mx is not None or my is not None:
        if mx is not None and my is not None:
            return mx != my
        # one side is a meaning word, the other may be a typo of it (`minuts` for `minutes`)
        typo = x if mx is None else y
        return _closest_meaning(typo) != (mx or my)
    from rapidfuzz.distance import OSA

    return OSA.normalized_similarity(x, y) < TOKEN_TYPO_SIMILARITY


def meaning_differs(a: str, b: str) -> bool:
    """True when two normalised keys differ in a word that carries meaning, not in a typo.

    Keys are compared word by word. They name different things when a differing pair of words is a unit, a bound,
    a direction or another meaning word on either side (unless both spell the same meaning, `secs`/`seconds`),
    when one word negates the other (`visible`/`invisible`), when their digits differ (`line1`/`line2`), when the
    words are not even plausible typos of each other, or when a word that matters is added or dropped.
    """
    ta, tb = _tokens(a), _tokens(b)
    if len(ta) != len(tb):
        extra = set(ta) ^ set(tb)
        return bool(extra & (MEANING_WORDS | _key_negations())) or abs(len(ta) - len(tb)) > 1
    return any(x != y and _token_pair_differs(x, y) for x, y in zip(ta, tb))


def _field_for(model: ModelView, name: str) -> str | None:
    """The field an alias table entry names at this level (by field name or declared key), if it can be renamed
    onto."""
    fname = name if name in model.fields else model.key_to_field.get(name)
    if fname is None or not model.fields[fname].renamable:
        return None
    return fname


def alias_proposals(key: str, model: ModelView, ctx: CallContext, *, evidence: bool = False) -> list[KeyMapping]:
    """The alias-table proposal for `key` at this level: call > parser > model's own > plugins; the first table
    whose target field exists here decides. Plugin tables rename only under policies with `plugin_aliases`, but
    count as `evidence` of what a key means under every policy (see `given_field_evidence`)."""
    entries = ctx.aliases_for(key)
    if not entries and key not in model.own_aliases:
        return []  # most keys: no table names them
    for entry in entries:
        if entry.explicit and (fname := _field_for(model, entry.field)) is not None:
            note = f"{entry.origin} aliases"
            return [KeyMapping(key, fname, "key_alias", RANK_EXPLICIT_ALIAS, 1.0, note=note)]
    own = model.own_aliases.get(key)
    if own is not None and (fname := _field_for(model, own)) is not None:
        return [KeyMapping(key, fname, "key_alias", RANK_EXPLICIT_ALIAS, 1.0, note=f"{model.name}'s own aliases")]
    if not (evidence or ctx.policy.plugin_aliases):
        return []
    plugin_entries = [(e.field, e.origin) for e in entries if not e.explicit]
    for target, origin in plugin_entries:
        if (fname := _field_for(model, target)) is not None:
            return [KeyMapping(key, fname, "key_plugin_alias", RANK_PLUGIN_ALIAS, 1.0, note=origin)]
    return []


def given_field_evidence(
    key: str, model: ModelView, ctx: CallContext, given: set[str], *, norm: str | None = None
) -> list[KeyMapping]:
    """Proposals that `key` is another spelling of a field the object already gives under its own key — an alias
    table's source (`tool` beside `action`) or a case/style variant (`Action` beside `action`) — whatever the
    policy allows. The core never renames onto a given field; it refuses the object when the two spellings hold
    different values, and refusing is not a repair, so strict mode gathers this evidence too (plugin tables
    included: a strict policy does not let them rename, but they still say what a key means). `norm` is `key`
    normalised, when the caller has it already."""
    if not given:
        return []
    aliased = alias_proposals(key, model, ctx, evidence=True)
    if aliased:
        return [m for m in aliased if m.field in given]
    spelt = normalise_key(key) if norm is None else norm
    return [m for m in _style_proposals(key, spelt, model, ctx, evidence=True) if m.field in given]


def _renamable(model: ModelView, names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n in names if model.fields[n].renamable)


def _style_proposals(
    key: str, norm: str, model: ModelView, ctx: CallContext, *, evidence: bool = False
) -> list[KeyMapping]:
    """`Action`/`cityName`/`city-name`/`cityname` for a field, or `Tool` for the alias `tool`."""
    spelt = model.spellings.get(norm)
    names = _renamable(model, spelt) if spelt else ()
    if not names:
        squashed = model.squashed.get(norm.replace("_", ""))
        names = _renamable(model, squashed) if squashed else ()
    if names:
        return [KeyMapping(key, n, "key_case", RANK_CASE, 1.0, note=f"{key!r} normalises to {norm!r}") for n in names]
    out: list[KeyMapping] = []
    for spelling in dict.fromkeys((norm, key.lower(), key.strip())):
        if spelling == key:
            continue
        for m in alias_proposals(spelling, model, ctx, evidence=evidence):
            out.append(KeyMapping(key, m.field, "key_case", RANK_CASE, 0.99, note=f"via alias {spelling!r}"))
        if out:
            break
    return out


def _fuzzy_proposal(
    key: str, norm: str, model: ModelView, threshold: float, margin: float, scored: Scored | None = None
) -> KeyMapping | None:
    """The field whose spelling is closest to `norm`, when it is close enough and leads every other field by the
    margin.

    `scored` is what `_score_spellings` found for `norm` (scored here when not given). Only the spellings that
    can matter are ranked: enough of the best to be sure one names another field than the best — or, on a tie at
    the top, every tied spelling, so that the tie breaks by field order — and none below `threshold - margin`
    (such a spelling could neither be the answer nor come within the margin of one)."""
    if not _fuzzy_candidate(norm, model):
        return None
    cutoff = _fuzzy_cutoff(threshold, margin)
    if scored is None:
        scored = _score_spellings([norm], model, cutoff)[0]
    ranked = _ranked_fields(scored, model, model.most_spellings_per_field + 1)
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        ranked = _ranked_fields(_tied_spellings(norm, model, ranked[0][1]), model, None)
    if not ranked:
        return None
    best_field, best_score, best_spelling = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    if best_score < threshold or best_score - runner_up < margin:
        return None
    if not model.fields[best_field].renamable or meaning_differs(norm, best_spelling):
        return None
    runner = f"runner-up {runner_up:.2f}" if len(ranked) > 1 else f"no other field above {cutoff:.2f}"
    note = f"similarity {best_score:.2f} to {best_spelling!r} ({runner})"
    return KeyMapping(key, best_field, "key_fuzzy", RANK_FUZZY, best_score, note=note)


Scored = list[tuple[float, int]]
"""(OSA similarity, index in `ModelView.spelling_list`) of the spellings at or above a cutoff, best first, equal
scores in spelling order."""

_SCORE_CELLS = 1 << 20
"""How many key × spelling scores one `cdist` call holds at most (memory stays bounded however many keys)."""


def _fuzzy_candidate(norm: str, model: ModelView) -> bool:
    return len(norm.replace("_", "")) >= MIN_FUZZY_LENGTH and bool(model.spelling_list)


def _fuzzy_cutoff(threshold: float, margin: float) -> float:
    return max(0.0, threshold - margin - _TIE)


def _score_spellings(norms: Sequence[str], model: ModelView, cutoff: float) -> list[Scored]:
    """For each of `norms`, the spellings of the model scoring at least `cutoff` (see `Scored`).

    A cheaper bound first: OSA similarity never exceeds LCSseq's (every edit, a swap included, shortens the
    longest common subsequence by at most one), so a spelling below the cutoff there is below it here. OSA then
    scores only the survivors. With numpy installed the bound is one rapidfuzz `cdist` call in C per block of keys
    (scoring key by key hands the same spellings to C again); without it, key by key — the same verdicts."""
    from rapidfuzz.distance import OSA

    choices = model.spelling_list
    osa = OSA.normalized_similarity
    out: list[Scored] = []
    step = max(1, _SCORE_CELLS // len(choices))
    for first in range(0, len(norms), step):
        block = norms[first : first + step]
        found: list[Scored] = [[] for _ in block]
        for row, col in _bound_survivors(block, choices, cutoff):
            score = osa(block[row], choices[col], score_cutoff=cutoff)
            if score >= cutoff:
                found[row].append((score, col))
        for scored in found:
            scored.sort(key=_score, reverse=True)  # stable: equal scores stay in spelling order
        out.extend(found)
    return out


def _bound_survivors(block: Sequence[str], choices: Sequence[str], cutoff: float) -> Iterator[tuple[int, int]]:
    """(key, spelling) index pairs whose LCSseq similarity reaches `cutoff` (every pair when it is 0), key by key
    and in spelling order within a key."""
    from rapidfuzz import process
    from rapidfuzz.distance import LCSseq

    if cutoff <= 0:
        yield from ((row, col) for row in range(len(block)) for col in range(len(choices)))
        return
    try:
        import numpy as np
    except ImportError:  # numpy is an optional extra: the same bound, one key at a time
        for row, key in enumerate(block):
            near = process.extract(key, choices, scorer=LCSseq.normalized_similarity, limit=None, score_cutoff=cutoff)
            yield from ((row, col) for col in sorted(at for _, _, at in near))
        return
    bound = process.cdist(block, choices, scorer=LCSseq.normalized_similarity, score_cutoff=cutoff, dtype=np.float64)
    rows, cols = np.nonzero(bound >= cutoff)
    yield from zip(rows.tolist(), cols.tolist())


def _score(item: tuple[float, int]) -> float:
    return item[0]


def _tied_spellings(norm: str, model: ModelView, top: float) -> Scored:
    """The spellings scoring at least `top`, asked of rapidfuzz with `top` as its cutoff — as the tie at the top
    was always settled (rapidfuzz reads a cutoff through its own rounding, so this is not the same as filtering
    `scored`; ties are rare, and this keeps every verdict as it was)."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA, LCSseq

    choices: Sequence[str] = model.spelling_list
    places: Sequence[int] = range(len(choices))
    if top > 0:
        # a cheaper bound first: OSA similarity never exceeds LCSseq's (every edit, a swap included, shortens the
        # longest common subsequence by at most one), so a spelling below the cutoff there is below it here
        near = process.extract(norm, choices, scorer=LCSseq.normalized_similarity, limit=None, score_cutoff=top)
        choices, places = [s for s, _, _ in near], [i for _, _, i in near]
    found = process.extract(norm, choices, scorer=OSA.normalized_similarity, limit=None, score_cutoff=top)
    return [(score, places[at]) for _, score, at in found]


def _ranked_fields(scored: Scored, model: ModelView, limit: int | None) -> list[tuple[str, float, str]]:
    """(field, its best score, the spelling that scored it) for the fields among the `limit` best of `scored`,
    best first; equal scores in field order."""
    choices = model.spelling_list
    best: dict[str, tuple[float, int, str]] = {}
    for score, index in scored[:limit]:
        spelling = choices[index]
        for name in model.spellings[spelling]:
            if name not in best or (score, -index) > (best[name][0], -best[name][1]):
                best[name] = (score, index, spelling)
    order = model.field_order
    ranked = sorted(best.items(), key=lambda item: (-item[1][0], order[item[0]]))
    return [(name, score, spelling) for name, (score, _, spelling) in ranked]


def given_fields(obj: Mapping[str, Any], model: ModelView) -> set[str]:
    """The fields an object gives under one of their own direct keys (not through an `AliasPath` container)."""
    given: set[str] = set()
    for k in obj:
        fname = model.key_to_field.get(k)
        if fname is not None and k not in model.fields[fname].path_keys:
            given.add(fname)
    return given


def propose(obj: Mapping[str, Any], model: ModelView, unknown: list[str], ctx: CallContext) -> list[KeyMapping]:
    """Every proposal for every unknown key. Kinds the policy refuses are computed only as evidence that a key
    spells a field the object already gives (`given_field_evidence`), never to rename. The keys only fuzzy
    similarity could speak for are scored together (`_score_spellings`)."""
    policy = ctx.policy
    allow_case = policy.allows("key_case")
    allow_fuzzy = policy.allows("key_fuzzy")
    given = given_fields(obj, model) if unknown else set()
    settled: list[tuple[str, str, list[KeyMapping]]] = []
    pending: list[int] = []
    for key in unknown:
        norm = spelling_of(key, ctx)
        found = _settled_proposals(key, norm, model, ctx, allow_case)
        if found is None:
            found = []
            if allow_fuzzy and _fuzzy_candidate(norm, model):
                pending.append(len(settled))
        settled.append((key, norm, found))
    if pending:
        threshold, margin = policy.fuzzy_key_threshold, policy.fuzzy_margin
        norms = [settled[i][1] for i in pending]
        for i, scored in zip(pending, _score_spellings(norms, model, _fuzzy_cutoff(threshold, margin))):
            key, norm, found = settled[i]
            fuzzy = _fuzzy_proposal(key, norm, model, threshold, margin, scored)
            if fuzzy is not None:
                found.append(fuzzy)
    proposals: list[KeyMapping] = []
    for key, norm, found in settled:
        decided = any(p.rank == RANK_EXPLICIT_ALIAS or (p.field in given and p.kind != "key_fuzzy") for p in found)
        if given and not decided:
            found.extend(given_field_evidence(key, model, ctx, given, norm=norm))
        proposals.extend(found)
    return proposals


def _settled_proposals(
    key: str, norm: str, model: ModelView, ctx: CallContext, allow_case: bool
) -> list[KeyMapping] | None:
    """The alias-table and case/style proposals for `key`; None when there are none and only fuzzy similarity
    could still speak for it."""
    aliased = alias_proposals(key, model, ctx)
    if aliased and aliased[0].rank == RANK_EXPLICIT_ALIAS:
        return aliased
    if allow_case:
        styled = _style_proposals(key, norm, model, ctx)
        if styled or aliased:
            return aliased + styled
    elif aliased:
        return aliased
    return None
