"""Key alignment: the evidence the align stage proposes, the meaning guard, and how the core walker picks."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from resilient_parse import Parser, Policy
from resilient_parse.conform import Conformer
from resilient_parse.context import CallContext, KeyMapping
from resilient_parse.schema import ModelView
from resilient_parse.stages.align import RANK_CASE, RANK_EXPLICIT_ALIAS, meaning_differs, propose


class Step(BaseModel):
    action: str
    arguments: dict[str, Any] = {}
    dependencies: list[int] = []
    delay_minutes: int = 0


class Plan(BaseModel):
    steps: list[Step]
    notes: dict[str, Any] = {}


class Own(BaseModel):
    __rp_aliases__ = {"op": "action"}
    action: str
    target: str = ""


def ctx_for(target: Any, mode: str | Policy = "lenient", **kw: Any) -> CallContext:
    parser = Parser(mode, entrypoints=False, aliases=kw.pop("parser_aliases", None))
    return parser.context(target, aliases=kw.pop("aliases", None))


def view_of(ctx: CallContext) -> ModelView:
    assert isinstance(ctx.schema, ModelView)
    return ctx.schema


def proposals(obj: dict[str, Any], target: Any = Step, **kw: Any) -> list[KeyMapping]:
    ctx = ctx_for(target, **kw)
    model = view_of(ctx)
    return propose(obj, model, [k for k in obj if k not in model.key_to_field], ctx)


def fields_for(obj: dict[str, Any], **kw: Any) -> dict[str, tuple[str, str]]:
    return {p.key: (p.field, p.kind) for p in proposals(obj, **kw)}


# -- meaning ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("delay_seconds", "delay_minutes"),
        ("min_tokens", "max_tokens"),
        ("start_date", "end_date"),
        ("first_name", "last_name"),
        ("is_invisible", "is_visible"),
        ("address_line1", "address_line2"),
        ("timeout_ms", "timeout_s"),
        ("weight_lb", "weight_kg"),
        ("source_id", "target_id"),
        ("max_delay", "delay"),
        # a negation word or prefix in each language the lexicon covers (its WORDS): no typo of the bare key
        ("not_active", "active"),
        ("nicht_aktiv", "aktiv"),
        ("sin_stock", "stock"),
        ("non_actif", "actif"),
        ("senza_iva", "iva"),
        ("sem_estoque", "estoque"),
        ("не_активный", "активный"),
        ("未完成任务", "完成任务"),
        ("未完成任務", "完成任務"),
        ("非公開設定", "公開設定"),
        ("비활성화", "활성화"),
    ],
)
def test_meaning_differs(a: str, b: str) -> None:
    assert meaning_differs(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("dependancies", "dependencies"),
        ("acton", "action"),
        ("delay_minuts", "delay_minutes"),
        ("timeout_secs", "timeout_seconds"),
        ("temperture_c", "temperature_c"),
    ],
)
def test_typos_do_not_change_meaning(a: str, b: str) -> None:
    assert not meaning_differs(a, b)


# -- proposals -------------------------------------------------------------------------------------------------------


def test_case_and_style_proposals() -> None:
    got = fields_for({"Action": "a", "DelayMinutes": 1, "dependencies": []})
    assert got == {"Action": ("action", "key_case"), "DelayMinutes": ("delay_minutes", "key_case")}


def test_fuzzy_proposal_carries_its_similarity() -> None:
    (p,) = proposals({"dependancies": [1], "action": "a"})
    assert (p.field, p.kind) == ("dependencies", "key_fuzzy")
    assert 0.8 <= p.confidence < 1.0 and "similarity" in p.note


def test_no_fuzzy_proposal_across_a_unit() -> None:
    assert proposals({"delay_seconds": 5, "action": "a"}) == []


def test_call_alias_beats_parser_alias() -> None:
    got = proposals({"do": "x"}, aliases={"do": "action"}, parser_aliases={"do": "arguments"})
    assert [(p.field, p.kind, p.rank, p.note) for p in got] == [
        ("action", "key_alias", RANK_EXPLICIT_ALIAS, "call aliases")
    ]


def test_parser_alias_beats_model_alias() -> None:
    got = proposals({"op": "x"}, target=Own, parser_aliases={"op": "target"})
    assert [(p.field, p.note) for p in got] == [("target", "parser aliases")]


def test_model_alias_beats_plugin_alias() -> None:
    class OwnTool(BaseModel):
        __rp_aliases__ = {"tool": "target"}
        action: str = ""
        target: str = ""

    got = proposals({"tool": "x"}, target=OwnTool)
    assert [(p.field, p.kind) for p in got] == [("target", "key_alias")]


def test_plugin_alias_is_its_own_kind() -> None:
    assert fields_for({"tool": "x"}) == {"tool": ("action", "key_plugin_alias")}


def test_alias_naming_a_field_absent_at_this_level_is_skipped() -> None:
    assert proposals({"cmd": "x"}, aliases={"cmd": "no_such_field"}) == []


def test_strict_policy_proposes_only_explicit_aliases() -> None:
    obj = {"Action": "a", "dependancies": [], "tool": "t", "do": "x"}
    got = proposals(obj, mode="strict", aliases={"do": "action"})
    assert {(p.key, p.kind) for p in got} == {("do", "key_alias")}


def test_case_variant_of_an_alias() -> None:
    (p,) = proposals({"Tool": "x"})
    assert (p.field, p.kind, p.rank) == ("action", "key_case", RANK_CASE)


def test_fields_that_normalise_alike_are_both_proposed() -> None:
    class Clash(BaseModel):
        cityName: str = ""
        city_name: str = ""

    got = proposals({"CITY_NAME": "x"}, target=Clash)
    assert {p.field for p in got} == {"cityName", "city_name"}


# -- the walker: choosing, refusing, copy-on-write ------------------------------------------------------------------


def conform(tree: Any, target: Any, mode: str | Policy = "lenient", **kw: Any) -> Any:
    parser = Parser(mode, entrypoints=False)
    ctx = parser.context(target, aliases=kw.get("aliases"))
    return Conformer(ctx, parser.host.propose_key_mappings, parser.host.coerce_value).run(tree, ctx.schema)


def test_walker_renames_at_every_level_and_records_paths() -> None:
    tree = {"Steps": [{"Action": "a"}, {"acton": "b", "arguments": {"Action": "keep"}}]}
    out = conform(tree, Plan)
    assert out.tree == {"steps": [{"action": "a"}, {"action": "b", "arguments": {"Action": "keep"}}]}
    assert [(r.path, r.before, r.after) for r in out.repairs] == [
        ("/Steps", "Steps", "steps"),
        ("/steps/0/Action", "Action", "action"),
        ("/steps/1/acton", "acton", "action"),
    ]


def test_walker_never_mutates_its_input() -> None:
    tree = {"Steps": [{"Action": "a", "dependencies": "3"}], "notes": {"Tool": 1}}
    before = copy.deepcopy(tree)
    conform(tree, Plan)
    assert tree == before


def test_walker_shares_unchanged_subtrees() -> None:
    untouched = {"k": [1, 2, 3]}
    tree = {"Steps": [{"action": "a"}], "notes": untouched}
    out = conform(tree, Plan)
    assert out.tree["notes"] is untouched
    assert out.tree["steps"] is tree["Steps"]


def test_walker_returns_the_same_object_when_nothing_changes() -> None:
    tree = {"steps": [{"action": "a", "dependencies": [1]}]}
    assert conform(tree, Plan).tree is tree


def test_walker_refuses_two_keys_for_one_field() -> None:
    out = conform({"Action": "a", "acton": "b"}, Step)
    assert out.repairs == []
    assert [(e.kind, e.path) for e in out.errors] == [("ambiguous_key", "/action")]


def test_walker_refuses_a_key_equally_close_to_two_fields() -> None:
    class Clash(BaseModel):
        cityName: str = ""
        city_name: str = ""

    out = conform({"CITY_NAME": "x"}, Clash)
    assert [(e.kind, e.path) for e in out.errors] == [("ambiguous_key", "/CITY_NAME")]


def test_walker_does_not_rename_onto_a_present_field() -> None:
    """`Action` beside `action` with the same value is the field written twice: nothing to rename, nothing lost."""
    out = conform({"action": "a", "Action": "a", "arguments": {}, "dependencies": [], "delay_minutes": 0}, Step)
    assert out.repairs == [] and out.errors == []
    assert out.tree == {"action": "a", "Action": "a", "arguments": {}, "dependencies": [], "delay_minutes": 0}


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_walker_refuses_a_case_variant_of_a_present_field_with_another_value(mode: str) -> None:
    out = conform({"action": "get_weather", "Action": "get_forecast"}, Step, mode=mode)
    assert out.repairs == []
    assert [(e.kind, e.path, e.got) for e in out.errors] == [("ambiguous_key", "/Action", ["action", "Action"])]
    assert "'action' and 'Action'" in out.errors[0].message and "get_forecast" in out.errors[0].message


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_walker_refuses_a_plugin_alias_source_beside_its_field_with_another_value(mode: str) -> None:
    """Strict does not let the plugin table rename `tool`, but the table still says what `tool` means."""
    out = conform({"tool": "delete_file", "action": "archive_file"}, Step, mode=mode)
    assert [(e.kind, e.path, e.got) for e in out.errors] == [("ambiguous_key", "/tool", ["action", "tool"])]


def test_walker_refuses_two_declared_keys_of_one_field_with_different_values() -> None:
    class Ticket(BaseModel):
        ticket_id: str = Field(validation_alias=AliasChoices("ticket_id", "ticketId"))

    out = conform({"ticket_id": "ZD-1", "ticketId": "ZD-2"}, Ticket, mode="strict")
    assert [(e.kind, e.path, e.got) for e in out.errors] == [("ambiguous_key", "/ticketId", ["ticket_id", "ticketId"])]


def test_walker_accepts_two_declared_keys_of_one_field_with_the_same_value() -> None:
    class Ticket(BaseModel):
        ticket_id: str = Field(validation_alias=AliasChoices("ticket_id", "ticketId"))

    tree = {"ticket_id": "ZD-1", "ticketId": "ZD-1"}
    out = conform(tree, Ticket, mode="strict")
    assert out.errors == [] and out.repairs == [] and out.tree is tree


def test_walker_renames_one_of_two_spellings_holding_the_same_value() -> None:
    out = conform({"Action": "a", "ACTION": "a"}, Step)
    assert out.errors == []
    assert [(r.kind, r.path) for r in out.repairs] == [("key_case", "/Action")]
    assert out.tree == {"action": "a", "ACTION": "a"}


def test_walker_still_refuses_two_spellings_of_a_missing_field_with_different_values() -> None:
    out = conform({"Action": "a", "ACTION": "b"}, Step)
    assert [(e.kind, e.path) for e in out.errors] == [("ambiguous_key", "/action")]


def test_an_explicit_alias_to_another_field_is_not_a_second_spelling() -> None:
    """The call's table says `tool` means `target`; the plugin table's `tool` → `action` does not count."""
    out = conform({"tool": "x", "action": "y"}, Own, aliases={"tool": "target"})
    assert out.errors == []
    assert out.tree == {"target": "x", "action": "y"}


def test_a_twin_is_dropped_where_the_model_forbids_extra_keys() -> None:
    class Closed(BaseModel):
        model_config = ConfigDict(extra="forbid")
        action: str

    out = conform({"action": "a", "Action": "a"}, Closed)
    assert out.errors == [] and out.tree == {"action": "a"}
    assert [(r.kind, r.path) for r in out.repairs] == [("drop_unknown_key", "/Action")]


def test_walker_drops_unknown_keys_only_when_the_policy_says_so() -> None:
    dropping = Policy(name="dropping", unknown_keys="drop")
    out = conform({"action": "a", "reasoning": "because"}, Step, mode=dropping)
    assert out.tree == {"action": "a"}
    assert [(r.kind, r.path, r.before, r.after) for r in out.repairs] == [
        ("drop_unknown_key", "/reasoning", "reasoning", None)
    ]


def test_walker_keeps_unknown_keys_knowingly_with_keep_policy() -> None:
    keeping = Policy(name="keeping", unknown_keys="keep")
    out = conform({"action": "a", "reasoning": "because"}, Step, mode=keeping)
    assert out.errors == [] and out.tree == {"action": "a", "reasoning": "because"}


def test_walker_refuses_a_stray_beside_a_missing_optional_field() -> None:
    out = conform({"action": "a", "delay_seconds": 30}, Step)
    assert [(e.kind, e.path) for e in out.errors] == [("unknown_key", "/delay_seconds")]
    assert "delay_minutes" in out.errors[0].message


def test_strict_walker_applies_an_explicit_alias_losslessly() -> None:
    out = conform({"do": "a"}, Step, mode="strict", aliases={"do": "action"})
    assert out.tree == {"action": "a"}
    assert [(r.kind, r.lossless) for r in out.repairs] == [("key_alias", True)]


def test_walker_drops_a_stray_that_could_not_be_any_missing_field() -> None:
    """`"_origin": "fallback"` cannot be `dependencies: list[int]`: Pydantic's extra="ignore" drops it, as declared."""
    out = conform({"action": "a", "_origin": "fallback", "arguments": {}, "delay_minutes": 1}, Step)
    assert out.errors == []


class Named(BaseModel):
    name: str | None = None


def test_strict_walker_refuses_a_stray_that_wraps_the_missing_fields() -> None:
    """`{"response": {"name": ""}}`: strict may not unwrap it, and dropping `response` would give name=None — a
    different object than the one written inside the wrapper."""
    out = conform({"response": {"name": ""}}, Named, mode="strict")
    assert [(e.kind, e.path) for e in out.errors] == [("unknown_key", "/response")]
    assert "holds name" in out.errors[0].message


def test_walker_still_drops_a_stray_object_that_holds_none_of_the_fields() -> None:
    out = conform({"meta": {"source": "web"}}, Named, mode="strict")
    assert out.errors == []


def test_walker_ignores_a_stray_null() -> None:
    out = conform({"action": "a", "delay_secs": None}, Step)
    assert out.errors == []


class Wide(BaseModel):
    alpha_bravo: int = 0
    alpha_brave: int = 0
    charlie_delta: int = 0
    echo_foxtrot: int = 0
    golf_hotel: int = 0


_WIDE_KEYS = ["alpha_bravx", "charlei_delta", "echo_foxtrto", "golf_hotle", "alpha_brav", "zzzz_qqqq", "charlie_delt"]


def test_keys_scored_together_get_the_proposals_each_gets_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fuzzy keys of one object are scored in blocks; the block size must not change any verdict."""
    import resilient_parse.stages.align as align

    ctx = ctx_for(Wide)
    view = ctx.schema
    assert isinstance(view, ModelView)
    obj = dict.fromkeys(_WIDE_KEYS, 1)
    alone = [p for key in _WIDE_KEYS for p in propose({key: 1}, view, [key], ctx)]
    assert {p.key for p in alone} >= {"charlei_delta", "echo_foxtrto", "golf_hotle"}
    assert all(p.kind == "key_fuzzy" for p in alone)
    assert propose(obj, view, list(obj), ctx) == alone
    monkeypatch.setattr(align, "_SCORE_CELLS", 1)  # one key per block
    assert propose(obj, view, list(obj), ctx) == alone


def test_a_tie_at_the_top_is_still_no_proposal() -> None:
    """`alpha_brav` is as close to `alpha_bravo` as to `alpha_brave`: the tie path names no field."""
    ctx = ctx_for(Wide)
    view = ctx.schema
    assert isinstance(view, ModelView)
    assert propose({"alpha_brav": 1}, view, ["alpha_brav"], ctx) == []
