"""Bend a loaded JSON tree onto the schema view: align keys, then coerce values that do not fit.

The walker is the core's; the judgement is the plugins'. For each object it asks `rp_propose_key_mappings` about
the keys that are neither field names nor declared aliases, then picks — and refuses when the evidence ties, when
two keys compete for one field, or when the field is already present. For each value that does not already fit
its type it asks `rp_coerce_value` (a few times in a row at most: a JSON string holding a wrapper holding a list).
A key that matches nothing follows the model's `extra` setting, except that it is not left for Pydantic to drop
silently when it could be the value of an optional field the object leaves out. One field written under two
spellings with different values — two declared keys (`ticket_id`, `ticketId`), a case or style variant beside the
field (`Action` beside `action`), an alias table's source beside its target (`tool` beside `action`) — is refused
in every policy, using evidence the policy would not let rename with (refusing is not a repair); with the same
value it is one field written twice, kept once. Refusals are collected as `ErrorDetail`s with JSON Pointers;
repairs as `Repair`s naming the path, the value or key before and after.

The input tree is never mutated: changed containers are copied, unchanged ones are shared. Every node is visited
once, so the walk is linear in the size of the tree; policies decide which repair kinds apply (`policy.allows`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from resilient_parse.context import CallContext, Coercion, KeyMapping
from resilient_parse.errors import ErrorDetail
from resilient_parse.fit import fit_score, fits, same_value, spelling_of, tagged_option
from resilient_parse.repairs import Repair, pointer
from resilient_parse.schema import (
    AnyView,
    DictView,
    FieldView,
    ListView,
    ModelView,
    NoneView,
    TupleView,
    TypeView,
    UnionView,
)

ProposeKeys = Callable[[dict[str, Any], ModelView, list[str], str, CallContext], list[KeyMapping]]
CoerceValue = Callable[[Any, TypeView, "FieldView | None", str, CallContext], "Coercion | None"]

_CONFIDENCE_TIE = 1e-6


@dataclass
class ConformResult:
    tree: Any
    repairs: list[Repair] = field(default_factory=list)
    errors: list[ErrorDetail] = field(default_factory=list)


MAX_RESHAPES = 4
"""How many coercions may follow one another on one value (a JSON string holding a wrapper holding a list …)."""


class Conformer:
    """One walk over one tree. Holds the hook callables and collects repairs and refusals.

    Copy-on-write: a container is copied only when something inside it changed; unchanged subtrees are shared
    with the input, which is never mutated. Each value is visited once (plus at most `MAX_RESHAPES` coercions),
    so the walk is linear in the size of the tree.
    """

    def __init__(self, ctx: CallContext, propose: ProposeKeys, coerce: CoerceValue) -> None:
        self.ctx = ctx
        self.policy = ctx.policy
        self.propose = propose
        self.coerce = coerce
        self.repairs: list[Repair] = []
        self.errors: list[ErrorDetail] = []
        self._error_paths: set[str] = set()
        self._errors_seen = 0

    def run(self, tree: Any, view: TypeView) -> ConformResult:
        out = self.walk(tree, view, None, [])
        return ConformResult(out, self.repairs, self.errors)

    # -- walking -----------------------------------------------------------------------------------------------

    def walk(self, value: Any, view: TypeView, fld: FieldView | None, path: list[str | int]) -> Any:
        if isinstance(view, AnyView):
            return value
        for _ in range(MAX_RESHAPES):
            if fits(value, view) and not self._worth_reshaping(value, view):
                break
            coerced = self._coerce(value, view, fld, path)
            if coerced is value:
                break
            value = coerced
        if isinstance(view, ModelView) and isinstance(value, dict):
            return self._model(value, view, path)
        if isinstance(view, ListView) and isinstance(value, list):
            return self._items(value, view.item, path)
        if isinstance(view, TupleView) and isinstance(value, list) and len(value) == len(view.items):
            changed = [self.walk(v, t, None, [*path, i]) for i, (v, t) in enumerate(zip(value, view.items))]
            return changed if any(a is not b for a, b in zip(changed, value)) else value
        if isinstance(view, DictView) and isinstance(value, dict) and not view.free_form:
            new = {k: self.walk(v, view.value, None, [*path, k]) for k, v in value.items()}
            return new if any(new[k] is not value[k] for k in value) else value
        if isinstance(view, UnionView) and value is not None:
            option = self._pick_option(value, view)
            if option is not None:
                return self.walk(value, option, fld, path)
        return value

    def _refused_here(self, where: str) -> bool:
        """Whether an error was already reported at this path (the set follows `errors` incrementally)."""
        if self._errors_seen < len(self.errors):
            self._error_paths.update(e.path for e in self.errors[self._errors_seen :])
            self._errors_seen = len(self.errors)
        return where in self._error_paths

    @staticmethod
    def _worth_reshaping(value: Any, view: TypeView) -> bool:
        """A dict that fits by type but not by content: a wrapper around the model ({"result": {...}}), a
        discriminated union whose tag is misspelled, or an object some of whose values do not fit their fields —
        offered whole once, so a value can be read against its siblings (`"2 cups"` beside `"unit": "cups"`)."""
        if not isinstance(value, dict) or not value:
            return False
        if isinstance(view, ModelView):
            if not view.fields:
                return False
            known = [(view.key_to_field[k], v) for k, v in value.items() if k in view.key_to_field]
            return not known or any(not fits(v, view.fields[name].type) for name, v in known)
        if isinstance(view, UnionView) and view.discriminator:
            return tagged_option(value, view) is None
        return False

    def _items(self, items: list[Any], item_view: TypeView, path: list[str | int]) -> list[Any]:
        if isinstance(item_view, AnyView):
            return items
        new = [self.walk(v, item_view, None, [*path, i]) for i, v in enumerate(items)]
        return new if any(a is not b for a, b in zip(new, items)) else items

    def _coerce(self, value: Any, view: TypeView, fld: FieldView | None, path: list[str | int]) -> Any:
        where = pointer(path)
        if self._refused_here(where):
            return value  # already refused here (read against its siblings): no second verdict
        result = self.coerce(value, view, fld, where, self.ctx)
        if result is None:
            return value
        if result.error is not None:
            if result.error not in self.errors:
                self.errors.append(result.error)
            return value
        if not result.repairs or not all(self.policy.allows(r.kind, r.lossless) for r in result.repairs):
            return value  # a change must be recorded, and allowed, to be applied
        if result.value is value:
            return value
        self.repairs.extend(result.repairs)
        return result.value

    def _pick_option(self, value: Any, view: UnionView) -> TypeView | None:
        """The union member to align against: by discriminator, else the only member that fits, else the model
        whose fields the object matches best (a tie means: let Pydantic decide, unaligned)."""
        if view.discriminator and isinstance(value, dict):
            tagged = tagged_option(value, view)
            if tagged is not None:
                return tagged
        fitting = [o for o in view.options if fits(value, o)]
        if len(fitting) == 1:
            return fitting[0]
        if not isinstance(value, dict):
            return None
        models = [o for o in fitting if isinstance(o, ModelView)]
        if not models:
            return None
        scored = sorted(((fit_score(value, m, self.ctx), i) for i, m in enumerate(models)), reverse=True)
        if len(scored) > 1 and scored[0][0] == scored[1][0]:
            return None
        if len(models) < len(fitting) and scored[0][0][0] <= 0:
            return None  # a free-form dict also fits, and no key says this is the model
        return models[scored[0][1]]

    # -- models ------------------------------------------------------------------------------------------------

    def _model(self, obj: dict[str, Any], model: ModelView, path: list[str | int]) -> dict[str, Any]:
        key_to_field = model.key_to_field
        unknown = [k for k in obj if k not in key_to_field]
        given = self._given(obj, model, path)
        renames: dict[str, str] = {}
        refused: set[str] = set()
        twins: set[str] = set()
        if unknown:
            renames, refused, twins = self._choose_mappings(obj, model, unknown, given, path)
        out: dict[str, Any] = {}
        changed = bool(renames)
        strays = [k for k in unknown if k not in renames and k not in refused and k not in twins]
        if strays and given and all(f.name in given or not f.required for f in model.fields.values()):
            # (with a required field missing too, Pydantic refuses the object anyway, and its errors say more)
            misspelt = self._misspelt_twins(obj, model, strays, given, path)
            strays = [k for k in strays if k not in misspelt]
        if strays:
            self._strays(obj, model, strays, renames, path)
        for key, value in obj.items():
            new_key = renames.get(key, key)
            name = key_to_field.get(new_key)
            if name is None:
                if key in twins and model.extra == "forbid" and self.policy.allows("drop_unknown_key"):
                    changed = True
                    note = "the same value is given under the field's own key"
                    self.repairs.append(Repair.make("drop_unknown_key", pointer([*path, key]), key, None, note=note))
                elif not self._drop_unknown(model):
                    out[new_key] = value
                else:
                    changed = True
                    self.repairs.append(Repair.make("drop_unknown_key", pointer([*path, key]), key, None))
                continue
            fv = model.fields[name]
            if new_key in fv.path_keys:
                out[new_key] = value  # an AliasPath container, not the field's value: Pydantic reads it
                continue
            if (
                value is None
                and not fv.required
                and not _accepts_none(fv.type)
                and self.policy.allows("null_to_default")
            ):
                default = fv.default_value()
                self.repairs.append(Repair.make("null_to_default", pointer([*path, new_key]), None, default))
                changed = True
                continue
            new_value = self.walk(value, fv.type, fv, [*path, new_key])
            changed = changed or new_value is not value
            out[new_key] = new_value
        return out if changed else obj

    def _strays(
        self, obj: dict[str, Any], model: ModelView, strays: list[str], renames: dict[str, str], path: list[str | int]
    ) -> None:
        """Keys that match no field follow the model's `extra` setting (forbid: Pydantic rejects them; allow: kept;
        ignore: dropped) — except where dropping would be a silent guess. In a model that ignores extras, a stray
        whose value could be the value of an optional field the object leaves out (`{"desc": "a note"}` beside a
        missing `description: str | None`), or whose name is that field's in another spelling, would turn into
        the field's default without a word: a different object, no repair recorded. That is refused, naming the
        fields it may mean. A stray that could not be any missing field (`"_origin": "x"` when only list fields
        are missing, or a null) is dropped as Pydantic would. Policies may instead drop unknown keys as a recorded
        repair (`unknown_keys="drop"`) or keep them knowingly (`"keep"`). When a required field is missing too,
        Pydantic refuses the object anyway and its errors are the better report."""
        if model.extra != "ignore" or self.policy.unknown_keys == "keep" or self._drop_unknown(model):
            return
        given = {model.key_to_field[renames.get(k, k)] for k in obj if renames.get(k, k) in model.key_to_field}
        if any(f.required and f.name not in given for f in model.fields.values()):
            return  # Pydantic refuses the object anyway, and its errors say more
        missing = [f for f in model.fields.values() if not f.required and f.name not in given]
        if not missing:
            return
        place = {f.name: i for i, f in enumerate(missing)}
        by_type: dict[int, tuple[TypeView, list[str]]] = {}  # fields sharing a type view are tested once
        for f in missing:
            by_type.setdefault(id(f.type), (f.type, []))[1].append(f.name)
        for key in strays:
            value = obj[key]
            meant_set = {
                n for view, names in by_type.values() if value is not None and fits(value, view) for n in names
            }
            spelt = model.spellings.get(spelling_of(key, self.ctx), ())
            if len(spelt) == 1 and spelt[0] in place:
                meant_set.add(spelt[0])
            if meant_set:
                why = f"it may mean {_some(meant_set, place)} (not given)"
            else:
                # `{"response": {"name": "x"}}`: the stray wraps the object's own missing fields, and dropping it
                # would leave their defaults in place of the values written inside
                held = (
                    {model.key_to_field[k] for k in value if k in model.key_to_field}
                    if isinstance(value, dict)
                    else set()
                )
                wrapped = held & place.keys()
                if not wrapped:
                    continue
                why = f"its object holds {_some(wrapped, place)} (not given here) as if it wrapped the answer"
            self.errors.append(
                ErrorDetail(
                    path=pointer([*path, key]),
                    kind="unknown_key",
                    message=f"key {key!r} matches no field of {model.name}; {why}, so dropping it could change the "
                    "object",
                    got=key,
                )
            )

    def _misspelt_twins(
        self, obj: dict[str, Any], model: ModelView, strays: list[str], given: dict[str, str], path: list[str | int]
    ) -> set[str]:
        """Strays that are a typo of a field the object already gives (`actoin` beside `action`), with another
        value: which one the model meant is unknown, so they are refused in every policy — dropping one (what
        Pydantic does with an unknown key) would be a silent pick. Refusing is not a repair, so the fuzzy
        evidence counts in strict too. One C call per stray against the given fields' spellings."""
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        spellings = {spelling_of(key, self.ctx): name for name, key in given.items()}
        choices = list(spellings)
        refused: set[str] = set()
        for key in strays:
            found = process.extractOne(
                spelling_of(key, self.ctx),
                choices,
                scorer=OSA.normalized_similarity,
                score_cutoff=self.policy.fuzzy_key_threshold,
            )
            if found is None:
                continue
            name = spellings[found[0]]
            if same_value(obj[given[name]], obj[key]):
                continue
            self._two_values(model, name, given[name], key, obj, path)
            refused.add(key)
        return refused

    def _drop_unknown(self, model: ModelView) -> bool:
        """Unknown keys follow the model's `extra` setting (Pydantic ignores, keeps or rejects them) unless the
        policy says to drop them, which is itself a recorded, lossy repair."""
        return self.policy.unknown_keys == "drop" and model.extra != "allow" and self.policy.allows("drop_unknown_key")

    def _given(self, obj: dict[str, Any], model: ModelView, path: list[str | int]) -> dict[str, str]:
        """Each field the object gives under one of its own direct keys → that key. Two declared keys of one field
        (`ticket_id` and `ticketId` for `AliasChoices`) holding different values are refused: Pydantic would take
        the first it finds and drop the other without a word."""
        given: dict[str, str] = {}
        for key, value in obj.items():
            name = model.key_to_field.get(key)
            if name is None or key in model.fields[name].path_keys:
                continue
            first = given.setdefault(name, key)
            if first != key and not same_value(obj[first], value):
                self._two_values(model, name, first, key, obj, path)
        return given

    def _two_values(
        self, model: ModelView, name: str, first: str, second: str, obj: dict[str, Any], path: list[str | int]
    ) -> None:
        self.errors.append(
            ErrorDetail(
                path=pointer([*path, second]),
                kind="ambiguous_key",
                message=f"keys {first!r} and {second!r} both give the field {name!r} of {model.name}, with different "
                f"values ({_short(obj[first])} and {_short(obj[second])}); refusing to pick one",
                got=[first, second],
            )
        )

    def _choose_mappings(
        self, obj: dict[str, Any], model: ModelView, unknown: list[str], given: dict[str, str], path: list[str | int]
    ) -> tuple[dict[str, str], set[str], set[str]]:
        """Renames to apply ({key: new key}), the keys refused (already reported), and the twins: keys that spell a
        field given under another key with the same value, which need no rename and are no strangers either.

        A key whose strongest non-fuzzy evidence names a field the object already gives is that field written
        twice. With a different value it is refused in every policy (which value is the answer?); the evidence
        is used even when the policy would not let it rename, because refusing is not a repair."""
        proposals = self.propose(obj, model, unknown, pointer(path), self.ctx)
        refused: set[str] = set()
        twins: set[str] = set()
        if not proposals:
            return {}, refused, twins
        present = {model.key_to_field[k] for k in obj if k in model.key_to_field}
        by_key: dict[str, list[KeyMapping]] = {}
        for p in proposals:
            if p.field in model.fields:
                by_key.setdefault(p.key, []).append(p)
        self._twins_and_clashes(obj, model, unknown, given, path, by_key, refused, twins)
        best = self._best_per_key(model, unknown, path, by_key, present, refused, twins)
        return self._one_key_per_field(obj, model, path, best, refused, twins), refused, twins

    def _twins_and_clashes(
        self,
        obj: dict[str, Any],
        model: ModelView,
        unknown: list[str],
        given: dict[str, str],
        path: list[str | int],
        by_key: dict[str, list[KeyMapping]],
        refused: set[str],
        twins: set[str],
    ) -> None:
        """A key spelling a field the object already gives: a twin with the same value, else refused."""
        for key in unknown:
            spelt = by_key.get(key)
            named = _spelled_field(spelt) if spelt else None
            if named is None or named not in given:
                continue
            if same_value(obj[given[named]], obj[key]):
                twins.add(key)
            else:
                self._two_values(model, named, given[named], key, obj, path)
                refused.add(key)

    def _best_per_key(
        self,
        model: ModelView,
        unknown: list[str],
        path: list[str | int],
        by_key: dict[str, list[KeyMapping]],
        present: set[str],
        refused: set[str],
        twins: set[str],
    ) -> dict[str, KeyMapping]:
        """Each remaining key's best allowed mapping; a tie between fields is refused (`ambiguous_key`)."""
        best: dict[str, KeyMapping] = {}
        for key in unknown:
            found = by_key.get(key)
            if not found or key in refused or key in twins:
                continue
            options = [
                p
                for p in found
                if p.field not in present and model.fields[p.field].renamable and self.policy.allows(p.kind)
            ]
            if not options:
                continue
            if len(options) > 1:
                options.sort(key=lambda p: (p.rank, -p.confidence))
            top = options[0]
            rivals = [
                p
                for p in options[1:]
                if p.field != top.field and p.rank == top.rank and abs(p.confidence - top.confidence) <= _CONFIDENCE_TIE
            ]
            if rivals:
                fields = sorted({top.field, *(p.field for p in rivals)})
                self.errors.append(
                    ErrorDetail(
                        path=pointer([*path, key]),
                        kind="ambiguous_key",
                        message=f"key {key!r} could mean any of the fields {', '.join(fields)}; refusing to guess",
                        got=key,
                    )
                )
                refused.add(key)
                continue
            best[key] = top
        return best

    def _one_key_per_field(
        self,
        obj: dict[str, Any],
        model: ModelView,
        path: list[str | int],
        best: dict[str, KeyMapping],
        refused: set[str],
        twins: set[str],
    ) -> dict[str, str]:
        """The renames to apply; two keys with different values competing for one field are refused."""
        # two keys competing for one field: whichever we chose, the other's value would be lost — refuse
        by_field: dict[str, list[KeyMapping]] = {}
        for mapping in best.values():
            by_field.setdefault(mapping.field, []).append(mapping)
        renames: dict[str, str] = {}
        for fname, group in by_field.items():
            if len(group) > 1 and all(same_value(obj[g.key], obj[group[0].key]) for g in group[1:]):
                # one value written under several spellings: rename the best-evidenced one, the rest are twins
                group = sorted(group, key=lambda g: (g.rank, -g.confidence))
                twins.update(g.key for g in group[1:])
                group = group[:1]
            if len(group) > 1:
                keys = ", ".join(repr(g.key) for g in group)
                self.errors.append(
                    ErrorDetail(
                        path=pointer([*path, fname]),
                        kind="ambiguous_key",
                        message=f"keys {keys} all look like the field {fname!r}; refusing to guess",
                        got=[g.key for g in group],
                    )
                )
                refused.update(g.key for g in group)
                continue
            winner = group[0]
            target_key = model.fields[fname].primary_key
            renames[winner.key] = target_key
            self.repairs.append(
                Repair.make(
                    winner.kind,
                    pointer([*path, winner.key]),
                    winner.key,
                    target_key,
                    confidence=winner.confidence,
                    note=winner.note,
                )
            )
        return renames


_GUESSES = frozenset({"key_fuzzy"})
"""Proposal kinds that are a guess about a key, not evidence of what it names: a near-miss of a field the object
already gives is left to the unknown-key rule rather than read as the field written twice."""


def _spelled_field(proposals: Iterable[KeyMapping]) -> str | None:
    """The field a key's strongest evidence names (an alias table, a case or style variant), if exactly one."""
    mine = [p for p in proposals if p.kind not in _GUESSES]
    if not mine:
        return None
    top = min(p.rank for p in mine)
    named = {p.field for p in mine if p.rank == top}
    return named.pop() if len(named) == 1 else None


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_NAMED = 5
"""How many fields an unknown-key message names before it counts the rest."""


def _some(names: set[str], place: dict[str, int]) -> str:
    """The first few of `names` in field order, and how many more (a key may fit hundreds of fields)."""
    first = heapq.nsmallest(_NAMED, names, key=place.__getitem__)
    more = f" (+{len(names) - len(first)} more)" if len(names) > len(first) else ""
    return ", ".join(first) + more


def _accepts_none(view: TypeView) -> bool:
    return isinstance(view, AnyView | NoneView) or (isinstance(view, UnionView) and view.nullable)
