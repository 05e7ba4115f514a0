"""The correction loop, driven by a scripted fake LLM: what it sends, when it stops, what it records."""

from __future__ import annotations

import copy
import hashlib
import json
import logging
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import ConfigurationError, ErrorDetail, Parser, correct, hookimpl
from resilient_parse.correction import (
    BudgetExhaustedError,
    Completion,
    CorrectionsExhaustedError,
    JsonPatchFeedback,
    MalformedResponseError,
    ModelRefusedError,
    QuotaExhaustedError,
    ScriptedLLM,
    Usage,
    correct_result,
)
from resilient_parse.correction.json_patch import PatchFailedError, apply_patch
from resilient_parse.plugin_api import Event


class Step(BaseModel):
    id: int
    action: Literal["search", "summarize", "email"]
    depends_on: list[int] = []


class Plan(BaseModel):
    goal: str
    steps: list[Step]


GOOD = '{"goal": "g", "steps": [{"id": 1, "action": "search"}]}'
GOOD_PLAN = Plan(goal="g", steps=[Step(id=1, action="search")])
BAD_ENUM = '{"goal": "g", "steps": [{"id": 1, "action": "teleport"}]}'
MISSING_GOAL = '{"steps": [{"id": 1, "action": "search"}]}'
ASK = [{"role": "system", "content": "You plan."}, {"role": "user", "content": "Plan a literature search."}]


@pytest.fixture
def parser() -> Parser:
    return Parser(entrypoints=False)


def run(llm: Any, parser: Parser, **options: Any) -> Any:
    return correct_result(llm, ASK, Plan, parser=parser, **options)


# -- the happy paths --------------------------------------------------------------------------------------------


def test_a_valid_first_answer_costs_one_call(parser: Parser) -> None:
    llm = ScriptedLLM([GOOD])
    result = run(llm, parser)
    assert result.value == GOOD_PLAN
    assert (len(llm.calls), result.corrections_used, result.outcome) == (1, 0, "valid")
    assert result.repair_success is False


def test_local_repair_comes_first_and_costs_no_extra_call(parser: Parser) -> None:
    llm = ScriptedLLM(["Here you go:\n```json\n{'goal': 'g', 'steps': [{'id': 1, 'action': 'search',},]}\n```"])
    result = run(llm, parser)
    assert result.value == GOOD_PLAN
    assert (len(llm.calls), result.outcome, result.repair_success) == (1, "repaired", True)
    assert result.repairs and result.attempts[0].repairs == result.repairs


def test_the_model_is_re_asked_only_for_what_local_repair_cannot_fix(parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, GOOD])
    result = run(llm, parser)
    assert result.value == GOOD_PLAN
    assert (result.corrections_used, result.outcome) == (1, "corrected")
    feedback = llm.calls[1][-1]["content"]
    assert "/steps/0/action: Input should be 'search', 'summarize' or 'email' (got \"teleport\")" in feedback


def test_correct_returns_just_the_object(parser: Parser) -> None:
    assert correct(ScriptedLLM([BAD_ENUM, GOOD]), ASK, Plan, parser=parser) == GOOD_PLAN


def test_a_plain_function_is_an_llm(parser: Parser) -> None:
    answers = iter([MISSING_GOAL, GOOD])

    def my_model(messages: list[dict[str, str]]) -> str:
        return next(answers)

    result = run(my_model, parser)
    assert result.value == GOOD_PLAN
    assert [a.model for a in result.attempts] == ["my_model", "my_model"]


# -- what is sent -----------------------------------------------------------------------------------------------


def test_each_round_sends_the_original_messages_the_last_candidate_and_the_feedback(parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, MISSING_GOAL, GOOD])
    run(llm, parser)
    first, second, third = llm.calls
    assert first == ASK
    assert second[:2] == ASK and len(second) == 4
    assert second[2] == {"role": "assistant", "content": BAD_ENUM}
    assert second[3]["role"] == "user" and "/steps/0/action" in second[3]["content"]
    # not a growing history: the third call replaces the second round, it does not append to it
    assert third[:2] == ASK and len(third) == 4
    assert third[2] == {"role": "assistant", "content": MISSING_GOAL}
    assert "/goal: Field required" in third[3]["content"] and "/steps/0/action" not in third[3]["content"]


def test_the_assistant_turn_is_the_repaired_candidate_not_the_raw_text(parser: Parser) -> None:
    llm = ScriptedLLM(["Sure!\n```json\n{'goal': 'g', 'steps': [{'id': 1, 'action': 'teleport'}]}\n```", GOOD])
    run(llm, parser)
    shown = llm.calls[1][2]["content"]
    assert json.loads(shown) == {"goal": "g", "steps": [{"id": 1, "action": "teleport"}]}


def test_an_answer_cut_off_by_the_length_limit_is_told_so(parser: Parser) -> None:
    cut = Completion(text='{"goal": "g", "steps": [{"id": 1, "act', finish_reason="length")
    llm = ScriptedLLM([cut, GOOD])
    run(llm, parser)
    assert llm.calls[1][-1]["content"].startswith("Your previous answer was cut off by the output length limit")


def test_prose_without_json_is_shown_as_it_was_said(parser: Parser) -> None:
    llm = ScriptedLLM(["The plan is to search, then summarize.", GOOD])
    run(llm, parser)
    assert llm.calls[1][2] == {"role": "assistant", "content": "The plan is to search, then summarize."}


def test_the_callers_messages_are_never_mutated(parser: Parser) -> None:
    messages = [{"role": "user", "content": "Plan a literature search."}]
    before = copy.deepcopy(messages)
    seen: list[list[dict[str, str]]] = []

    def vandal(sent: list[dict[str, str]]) -> str:
        seen.append(copy.deepcopy(sent))
        sent.append({"role": "user", "content": "injected"})
        sent[0]["content"] = "overwritten"
        return BAD_ENUM if len(seen) == 1 else GOOD

    assert correct(vandal, messages, Plan, parser=parser) == GOOD_PLAN
    assert messages == before
    # what the llm did to its copy did not leak into the next request either
    assert seen[1][0] == {"role": "user", "content": "Plan a literature search."}
    assert len(seen[1]) == 3


# -- when it stops ----------------------------------------------------------------------------------------------


def test_max_corrections_counts_extra_calls_not_total(parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, MISSING_GOAL, BAD_ENUM, GOOD])
    with pytest.raises(CorrectionsExhaustedError) as info:
        run(llm, parser, max_corrections=2)
    assert len(llm.calls) == 3
    assert [a.role for a in info.value.attempts] == ["initial", "correction", "correction"]


def test_zero_corrections_means_one_call(parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, GOOD])
    with pytest.raises(CorrectionsExhaustedError):
        run(llm, parser, max_corrections=0)
    assert len(llm.calls) == 1


def test_the_same_errors_twice_in_a_row_stop_early(parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, BAD_ENUM.replace("teleport", "teleport"), GOOD])
    with pytest.raises(CorrectionsExhaustedError) as info:
        run(llm, parser, max_corrections=5)
    assert len(llm.calls) == 2
    assert info.value.stop_reason == "repeated_errors"  # type: ignore[attr-defined]


def test_same_paths_with_different_wording_still_count_as_repeated(parser: Parser) -> None:
    other_bad = '{"goal": "g", "steps": [{"id": 1, "action": "fly"}]}'
    llm = ScriptedLLM([BAD_ENUM, other_bad, GOOD])
    with pytest.raises(CorrectionsExhaustedError):
        run(llm, parser, max_corrections=5)
    assert len(llm.calls) == 2


def test_the_final_error_carries_every_attempt_and_the_last_problems(parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, MISSING_GOAL])
    with pytest.raises(CorrectionsExhaustedError) as info:
        run(llm, parser, max_corrections=1)
    error = info.value
    assert len(error.attempts) == 2
    assert [e["path"] for e in error.errors] == ["/goal"]
    assert error.candidate == MISSING_GOAL
    assert error.__cause__ is not None


def test_a_token_budget_stops_before_the_call_that_would_exceed_it(parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, GOOD])
    with pytest.raises(BudgetExhaustedError) as info:
        run(llm, parser, token_budget=40)
    assert len(llm.calls) == 1
    assert info.value.attempts[0].usage.total_tokens > 0


def test_a_generous_token_budget_does_not_interfere(parser: Parser) -> None:
    result = run(ScriptedLLM([BAD_ENUM, GOOD]), parser, token_budget=10_000)
    assert result.value == GOOD_PLAN


def test_a_deadline_stops_the_loop(parser: Parser) -> None:
    now = [0.0]

    def clock() -> float:
        return now[0]

    def slow_model(messages: list[dict[str, str]]) -> str:
        now[0] += 10.0
        return BAD_ENUM if len(messages) == 2 else GOOD

    with pytest.raises(BudgetExhaustedError) as info:
        correct_result(slow_model, ASK, Plan, parser=parser, deadline=5.0, clock=clock)
    assert len(info.value.attempts) == 1
    assert "deadline" in info.value.message


def test_a_refusal_is_not_re_asked(parser: Parser) -> None:
    llm = ScriptedLLM(["I'm sorry, but I can't help with that request.", GOOD])
    with pytest.raises(ModelRefusedError) as info:
        run(llm, parser)
    assert len(llm.calls) == 1
    assert info.value.attempts[0].error_kind == "refusal"


def test_a_refusal_flagged_by_the_provider_is_not_re_asked(parser: Parser) -> None:
    llm = ScriptedLLM([Completion(text="", refusal="I can't assist with that."), GOOD])
    with pytest.raises(ModelRefusedError):
        run(llm, parser)
    assert len(llm.calls) == 1


class InsufficientQuota(Exception):
    """Shaped like the OpenAI SDK's RateLimitError for an exhausted quota."""

    code = "insufficient_quota"


def test_an_exhausted_quota_stops_at_once_without_fallbacks(parser: Parser) -> None:
    fallback = ScriptedLLM([GOOD], name="stronger")
    llm = ScriptedLLM([BAD_ENUM, InsufficientQuota("You exceeded your current quota")])
    with pytest.raises(QuotaExhaustedError) as info:
        run(llm, parser, fallbacks=[fallback], on_exhausted=lambda error: GOOD_PLAN)
    assert fallback.calls == []
    assert [a.error_kind for a in info.value.attempts] == ["schema", "quota_exhausted"]
    assert isinstance(info.value.__cause__, InsufficientQuota)


def test_network_errors_are_re_raised_as_they_are(parser: Parser) -> None:
    boom = ConnectionError("connection reset by peer")
    llm = ScriptedLLM([BAD_ENUM, boom])
    with pytest.raises(ConnectionError) as info:
        run(llm, parser)
    assert info.value is boom


def test_a_malformed_response_is_an_attempt_and_the_same_request_is_sent_again(parser: Parser) -> None:
    garbled = MalformedResponseError("the provider's response could not be read")
    llm = ScriptedLLM([BAD_ENUM, garbled, GOOD])
    result = run(llm, parser)
    assert result.value == GOOD_PLAN
    assert [a.error_kind for a in result.attempts] == ["schema", "malformed_response", None]
    assert llm.calls[2] == llm.calls[1]


# -- fallbacks and the last resort ------------------------------------------------------------------------------


def test_a_fallback_model_gets_the_last_candidate_and_feedback(parser: Parser) -> None:
    weak = ScriptedLLM([BAD_ENUM, BAD_ENUM], name="weak")
    strong = ScriptedLLM([GOOD], name="strong")
    result = run(weak, parser, fallbacks=[strong])
    assert result.value == GOOD_PLAN
    assert result.outcome == "fallback"
    assert [(a.model, a.role) for a in result.attempts] == [
        ("weak", "initial"),
        ("weak", "correction"),
        ("strong", "fallback"),
    ]
    assert strong.calls[0][:2] == ASK and strong.calls[0][2]["content"] == BAD_ENUM


def test_after_a_refusal_the_fallback_model_is_asked_with_the_original_messages(parser: Parser) -> None:
    strong = ScriptedLLM([GOOD], name="strong")
    result = run(ScriptedLLM(["I'm sorry, I can't help with that."]), parser, fallbacks=[strong])
    assert result.outcome == "fallback"
    assert strong.calls == [ASK]


def test_an_exhausted_budget_skips_the_fallbacks_but_not_on_exhausted(parser: Parser) -> None:
    strong = ScriptedLLM([GOOD], name="strong")
    seen: list[Any] = []
    with pytest.raises(BudgetExhaustedError):
        run(ScriptedLLM([BAD_ENUM]), parser, token_budget=40, fallbacks=[strong], on_exhausted=seen.append)
    assert strong.calls == []
    assert isinstance(seen[0], BudgetExhaustedError)


def test_on_exhausted_may_return_a_default_recorded_as_an_attempt(parser: Parser) -> None:
    seen: list[Any] = []
    default = Plan(goal="ask a human", steps=[])

    def last_resort(error: Any) -> Plan:
        seen.append(error)
        return default

    result = run(ScriptedLLM([BAD_ENUM, BAD_ENUM]), parser, on_exhausted=last_resort)
    assert result.value == default
    assert result.outcome == "default"
    assert result.attempts[-1].role == "default"
    assert isinstance(seen[0], CorrectionsExhaustedError) and len(seen[0].attempts) == 2


def test_on_exhausted_returning_none_lets_the_error_through(parser: Parser) -> None:
    with pytest.raises(CorrectionsExhaustedError):
        run(ScriptedLLM([BAD_ENUM, BAD_ENUM]), parser, on_exhausted=lambda error: None)


def test_a_default_that_does_not_fit_the_target_is_a_configuration_error(parser: Parser) -> None:
    with pytest.raises(ConfigurationError):
        run(ScriptedLLM([BAD_ENUM, BAD_ENUM]), parser, on_exhausted=lambda error: {"nope": 1})


# -- semantic validators feed the loop ---------------------------------------------------------------------------


def no_cycles(plan: Plan) -> Iterator[ErrorDetail]:
    for i, step in enumerate(plan.steps):
        if step.id in step.depends_on:
            yield ErrorDetail(f"/steps/{i}/depends_on", "cycle", f"step {step.id} depends on itself", got=step.id)


SELF_LOOP = '{"goal": "g", "steps": [{"id": 1, "action": "search", "depends_on": [1]}]}'


def test_validators_argument_errors_are_fed_back_like_schema_errors(parser: Parser) -> None:
    llm = ScriptedLLM([SELF_LOOP, GOOD])
    result = run(llm, parser, validators=[no_cycles])
    assert result.value == GOOD_PLAN
    assert "/steps/0/depends_on: step 1 depends on itself" in llm.calls[1][-1]["content"]


def test_plugin_validators_are_fed_back_too() -> None:
    class Acyclic:
        @hookimpl
        def rp_semantic_validators(self, target: Any, ctx: Any) -> list[Any]:
            return [no_cycles] if target is Plan else []

    llm = ScriptedLLM([SELF_LOOP, GOOD])
    result = correct_result(llm, ASK, Plan, parser=Parser(plugins=[Acyclic()], entrypoints=False))
    assert result.outcome == "corrected"
    assert "cycle" not in llm.calls[0][-1]["content"] and "depends on itself" in llm.calls[1][-1]["content"]


# -- telemetry --------------------------------------------------------------------------------------------------


def test_each_attempt_records_hash_length_usage_latency_and_model(parser: Parser) -> None:
    result = run(ScriptedLLM([BAD_ENUM, GOOD], name="gpt-test"), parser)
    first = result.attempts[0]
    assert first.text_sha256 == hashlib.sha256(BAD_ENUM.encode()).hexdigest()
    assert first.text_length == len(BAD_ENUM)
    assert first.model == "gpt-test" and first.adapter == "scripted"
    assert first.usage is not None and first.usage.completion_tokens > 0 and not first.usage.estimated
    assert first.latency_s >= 0 and first.errors[0].path == "/steps/0/action"
    assert result.usage.total_tokens == sum(a.tokens for a in result.attempts)
    assert json.dumps(result.to_dict())  # telemetry is JSON-serialisable


def test_usage_is_estimated_when_the_llm_reports_none(parser: Parser) -> None:
    result = run(ScriptedLLM([GOOD], report_usage=False), parser)
    assert result.attempts[0].usage == Usage(result.usage.prompt_tokens, result.usage.completion_tokens, True)
    assert result.usage.completion_tokens == -(-len(GOOD) // 4)


def test_events_reach_observer_plugins() -> None:
    events: list[Event] = []

    class Observer:
        @hookimpl
        def rp_on_event(self, event: Event, ctx: Any) -> None:
            events.append(event)

    correct_result(ScriptedLLM([BAD_ENUM, GOOD]), ASK, Plan, parser=Parser(plugins=[Observer()], entrypoints=False))
    names = [e.name for e in events if e.name not in ("parse_started", "parse_failed", "parse_succeeded")]
    # issue 15: the loop announces itself first, so an observer can open a span for the whole call
    assert names == [
        "correction_started",
        "attempt_finished",
        "correction_requested",
        "attempt_finished",
        "correction_succeeded",
    ]
    assert events[-1].data["calls"] == 2


def test_the_loop_logs_when_it_gives_up(parser: Parser, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="resilient_parse.correction"), pytest.raises(CorrectionsExhaustedError):
        run(ScriptedLLM([BAD_ENUM, BAD_ENUM]), parser)
    assert any("gave up (repeated_errors) after 2 calls" in r.getMessage() for r in caplog.records)


# -- configuration ----------------------------------------------------------------------------------------------


def test_parser_and_mode_together_are_refused(parser: Parser) -> None:
    with pytest.raises(ConfigurationError):
        correct(ScriptedLLM([GOOD]), ASK, Plan, parser=parser, mode="strict")


def test_messages_must_be_chat_messages() -> None:
    with pytest.raises(ConfigurationError):
        correct(ScriptedLLM([GOOD]), "Plan a search", Plan)  # type: ignore[arg-type]


def test_the_default_max_corrections_comes_from_the_policy() -> None:
    from resilient_parse import Policy

    parser = Parser(mode=Policy(max_corrections=1), entrypoints=False)
    llm = ScriptedLLM([BAD_ENUM, MISSING_GOAL, GOOD])
    with pytest.raises(CorrectionsExhaustedError):
        correct(llm, ASK, Plan, parser=parser)
    assert len(llm.calls) == 2


# -- the JSON Patch feedback plugin --------------------------------------------------------------------------------


def test_apply_patch_works_on_a_copy() -> None:
    doc = {"steps": [{"id": 1, "action": "teleport"}]}
    patched = apply_patch(doc, [{"op": "replace", "path": "/steps/0/action", "value": "search"}])
    assert patched == {"steps": [{"id": 1, "action": "search"}]}
    assert doc == {"steps": [{"id": 1, "action": "teleport"}]}


@pytest.mark.parametrize(
    ("patch", "result"),
    [
        ([{"op": "add", "path": "/a/-", "value": 3}], {"a": [1, 2, 3], "b": {"c": "x"}}),
        ([{"op": "add", "path": "/a/0", "value": 0}], {"a": [0, 1, 2], "b": {"c": "x"}}),
        ([{"op": "remove", "path": "/b/c"}], {"a": [1, 2], "b": {}}),
        ([{"op": "move", "from": "/b/c", "path": "/d"}], {"a": [1, 2], "b": {}, "d": "x"}),
        ([{"op": "copy", "from": "/a/1", "path": "/e"}], {"a": [1, 2], "b": {"c": "x"}, "e": 2}),
        ([{"op": "test", "path": "/b/c", "value": "x"}], {"a": [1, 2], "b": {"c": "x"}}),
        ([{"op": "add", "path": "/b/a~1b", "value": 1}], {"a": [1, 2], "b": {"c": "x", "a/b": 1}}),
    ],
)
def test_apply_patch_follows_rfc_6902(patch: list[Any], result: Any) -> None:
    assert apply_patch({"a": [1, 2], "b": {"c": "x"}}, patch) == result


@pytest.mark.parametrize(
    "patch",
    [
        [{"op": "replace", "path": "/missing", "value": 1}],
        [{"op": "remove", "path": "/a/5"}],
        [{"op": "test", "path": "/b/c", "value": "y"}],
        [{"op": "frobnicate", "path": "/a"}],
        [{"path": "/a"}],
        [{"op": "add", "path": "a", "value": 1}],
    ],
)
def test_a_patch_that_cannot_apply_is_a_parse_error(patch: list[Any]) -> None:
    with pytest.raises(PatchFailedError) as info:
        apply_patch({"a": [1, 2], "b": {"c": "x"}}, patch)
    assert info.value.errors[0]["path"] == "/0"


def big_plan(action: str) -> str:
    steps = [{"id": i, "action": "search", "depends_on": [i - 1] if i > 1 else []} for i in range(1, 61)]
    steps[41]["action"] = action
    return json.dumps({"goal": "survey the literature on " + "x" * 50, "steps": steps})


@pytest.fixture
def patch_parser() -> Parser:
    return Parser(plugins=[JsonPatchFeedback(min_chars=1000, max_paths=3)], entrypoints=False)


def test_a_large_document_with_one_failing_path_is_fixed_by_a_patch(patch_parser: Parser) -> None:
    patch = '[{"op": "replace", "path": "/steps/41/action", "value": "summarize"}]'
    llm = ScriptedLLM([big_plan("teleport"), patch])
    result = correct_result(llm, ASK, Plan, parser=patch_parser)
    assert result.value.steps[41].action == "summarize"
    assert len(result.value.steps) == 60
    feedback = llm.calls[1][-1]["content"]
    assert feedback.startswith("Answer with an RFC 6902 JSON Patch")
    assert "/steps/41/action" in feedback
    whole, patched = (a.usage.completion_tokens for a in result.attempts if a.usage)
    assert patched * 10 < whole  # the model wrote a patch, not the whole plan again


def test_a_patch_that_fails_to_apply_becomes_the_next_feedback(patch_parser: Parser) -> None:
    bad_patch = '[{"op": "replace", "path": "/steps/99/action", "value": "summarize"}]'
    good_patch = '[{"op": "replace", "path": "/steps/41/action", "value": "summarize"}]'
    llm = ScriptedLLM([big_plan("teleport"), bad_patch, good_patch])
    result = correct_result(llm, ASK, Plan, parser=patch_parser)
    assert result.value.steps[41].action == "summarize"
    third = llm.calls[2]
    assert third[2]["content"] == big_plan("teleport")  # the document is still the previous output
    assert "your last patch could not be applied" in third[3]["content"]
    assert "index 99 is out of range" in third[3]["content"]


def test_a_whole_object_answer_to_a_patch_request_is_accepted(patch_parser: Parser) -> None:
    llm = ScriptedLLM([big_plan("teleport"), big_plan("email")])
    result = correct_result(llm, ASK, Plan, parser=patch_parser)
    assert result.value.steps[41].action == "email"


def test_small_documents_keep_the_builtin_feedback(patch_parser: Parser) -> None:
    llm = ScriptedLLM([BAD_ENUM, GOOD])
    correct_result(llm, ASK, Plan, parser=patch_parser)
    assert llm.calls[1][-1]["content"].startswith("Your previous answer could not be used")
