"""Regression tests for the correction loop's and the feedback's hostile-input defects (issue 13: r12, r13, r14,
r18), each in both modes and, where the loop is involved, through `correct` and `acorrect` alike."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable, Iterator
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field, field_validator

from resilient_parse import (
    ConfigurationError,
    CorrectionError,
    ErrorDetail,
    ParseError,
    Parser,
    SemanticCheckError,
    acorrect,
    correct,
    parse,
)
from resilient_parse.correction import Completion, ScriptedLLM, Usage, acorrect_result, correct_result
from resilient_parse.correction.json_patch import JsonPatchFeedback, PatchFailedError, PatchLimits, apply_patch
from resilient_parse.correction.loop import MAX_ECHO_CHARS, schema_instruction
from resilient_parse.feedback import MAX_LINE_CHARS, condense, format_feedback, schema_for_paths
from resilient_parse.llm.tool_defs import anthropic_tools, openai_tools
from resilient_parse.safe_text import escape_surrogates, json_safe, utf8_safe
from resilient_parse.stages.validate import run_semantic_checks

MODES = ["strict", "lenient"]
ASK = [{"role": "user", "content": "plan"}]


def run_loop(driver: str, llm: Any, target: Any, **options: Any) -> Any:
    """`correct` or `acorrect`: the same loop, so every loop test runs through both drivers."""
    if driver == "sync":
        return correct(llm, ASK, target, **options)
    return asyncio.run(acorrect(llm, ASK, target, **options))


DRIVERS = ["sync", "async"]


# -- r12: JSON Patch feedback under hostile patches -----------------------------------------------------------------


class Step(BaseModel):
    id: int
    action: Literal["search", "email"]


class Plan(BaseModel):
    goal: str
    steps: list[Step]
    notes: dict[str, object] = {}


FIRST = json.dumps({"goal": "g" * 2500, "steps": [{"id": 1, "action": "fax"}]})
FIX = {"op": "replace", "path": "/steps/0/action", "value": "email"}


def copy_bomb(n: int) -> list[dict[str, Any]]:
    """Each copy doubles /notes: 2**n copies of a tiny value from a patch of about 60 * n bytes."""
    seed: list[dict[str, Any]] = [FIX, {"op": "add", "path": "/notes", "value": {"x": [0]}}]
    return seed + [{"op": "copy", "from": "/notes", "path": f"/notes/k{i}"} for i in range(n)]


def deep(levels: int) -> Any:
    """`levels` nested lists, built without recursion (json.loads itself refuses a few thousand levels)."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def deep_patch_text(levels: int) -> str:
    return '[{"op": "replace", "path": "/steps/0/action", "value": ' + "[" * levels + "]" * levels + "}]"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("patch", [json.dumps(copy_bomb(19)), json.dumps(copy_bomb(40)), deep_patch_text(600)])
def test_a_hostile_patch_is_a_parse_error_and_the_next_feedback(mode: str, driver: str, patch: str) -> None:
    parser = Parser(mode=mode, plugins=[JsonPatchFeedback()], entrypoints=False)
    llm = ScriptedLLM([FIRST, patch, FIRST])
    with pytest.raises(CorrectionError):
        run_loop(driver, llm, Plan, parser=parser, max_corrections=2)
    assert len(llm.calls) == 3
    assert "your last patch could not be applied" in llm.calls[2][-1]["content"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("driver", DRIVERS)
def test_a_patch_too_deep_to_read_is_a_parse_error(mode: str, driver: str) -> None:
    parser = Parser(mode=mode, plugins=[JsonPatchFeedback()], entrypoints=False)
    llm = ScriptedLLM([FIRST, deep_patch_text(50_000)])
    with pytest.raises(CorrectionError):
        run_loop(driver, llm, Plan, parser=parser, max_corrections=1)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("driver", DRIVERS)
def test_a_patch_within_the_limits_still_fixes_the_document(mode: str, driver: str) -> None:
    parser = Parser(mode=mode, plugins=[JsonPatchFeedback()], entrypoints=False)
    llm = ScriptedLLM([FIRST, json.dumps(copy_bomb(3))])
    plan = run_loop(driver, llm, Plan, parser=parser)
    assert plan.steps[0].action == "email"
    assert set(plan.notes) == {"x", "k0", "k1", "k2"}  # the patch did what it said, within the limits
    assert plan.notes["k2"] == {"x": [0], "k0": {"x": [0]}, "k1": {"x": [0], "k0": {"x": [0]}}}


def test_copies_count_towards_the_growth_limit() -> None:
    doc = {"a": "x" * 100}
    ops = [{"op": "copy", "from": "/a", "path": f"/c{i}"} for i in range(50)]
    limits = PatchLimits(max_growth=1000)
    with pytest.raises(PatchFailedError) as info:
        apply_patch(doc, ops, limits)
    # the document may grow by its own weight plus max_growth: about 11 copies of 101, not 50
    assert info.value.details[0].path in {f"/{i}" for i in range(10, 14)}
    assert len(apply_patch(doc, ops[:5], limits)) == 6


def test_a_doubling_patch_is_refused_before_the_document_is_built() -> None:
    doc: dict[str, Any] = {"n": {"x": [0]}}
    ops = [{"op": "copy", "from": "/n", "path": f"/n/k{i}"} for i in range(60)]  # 2**60 values if applied
    with pytest.raises(PatchFailedError) as info:
        apply_patch(doc, ops)
    assert "limit" in info.value.details[0].message
    assert doc == {"n": {"x": [0]}}


@pytest.mark.parametrize("op", ["add", "replace", "test"])
def test_a_deep_value_is_refused_in_every_operation_that_carries_one(op: str) -> None:
    with pytest.raises(PatchFailedError) as info:
        apply_patch({"a": []}, [{"op": op, "path": "/a", "value": deep(PatchLimits().max_value_depth + 1)}])
    assert "nested deeper" in info.value.details[0].message


def test_copying_a_deep_subtree_is_refused() -> None:
    doc = {"a": deep(100)}
    with pytest.raises(PatchFailedError):
        apply_patch(doc, [{"op": "copy", "from": "/a", "path": "/b"}])


def test_a_large_added_value_is_refused() -> None:
    with pytest.raises(PatchFailedError):
        apply_patch({"a": 1}, [{"op": "add", "path": "/b", "value": list(range(100_000))}])


def test_too_many_operations_are_refused_before_any_is_applied() -> None:
    ops = [{"op": "add", "path": f"/k{i}", "value": i} for i in range(PatchLimits().max_ops + 1)]
    with pytest.raises(PatchFailedError, match="operations"):
        apply_patch({}, ops)
    assert apply_patch({}, ops[:-1])["k0"] == 0


@pytest.mark.parametrize(
    ("op", "reason"),
    [
        ({"op": "replace", "path": "/a/5", "value": 1}, "index 5 is out of range (length 2)"),
        ({"op": "copy", "from": "/zz", "path": "/d"}, "no member 'zz'"),
        ({"op": "add", "path": "/b/c/d", "value": 1}, "cannot descend into str"),
        ({"op": "replace", "path": "/a/01", "value": 1}, "'01' is not an array index"),
        ({"op": "copy", "path": "/d"}, "'copy' needs a 'from' JSON Pointer"),
    ],
)
def test_a_failing_operation_is_explained_in_the_models_terms(op: dict[str, Any], reason: str) -> None:
    with pytest.raises(PatchFailedError) as info:
        apply_patch({"a": [1, 2], "b": {"c": "x"}}, [op])
    assert info.value.details[0].message == reason


def test_the_patch_plugins_answer_rewrite_runs_inside_the_parse_guard() -> None:
    class Broken:
        def rewrite_answer(self, *args: Any) -> str:
            raise RuntimeError("plugin bug")

    class TooDeep:
        def rewrite_answer(self, *args: Any) -> str:
            raise RecursionError

    for plugin, kind in [(Broken(), "internal"), (TooDeep(), "too_deep")]:
        llm = ScriptedLLM(['{"goal": "g", "steps": []}'])
        with pytest.raises(CorrectionError) as info:
            correct(llm, ASK, Plan, parser=Parser(plugins=[plugin], entrypoints=False), max_corrections=0)
        assert info.value.details[0].kind == kind


def test_an_unclosed_fence_in_a_patch_answer_is_read_in_one_pass() -> None:
    from resilient_parse.correction.json_patch import _load_patch

    assert _load_patch('```json\n[{"op": "remove", "path": "/a"}]\n```') == [{"op": "remove", "path": "/a"}]
    assert _load_patch("```" + " " * 10_000 + '[{"op": "remove", "path": "/a"}]') == [{"op": "remove", "path": "/a"}]
    assert _load_patch("[" * 100_000) is None  # too deep to be a patch: the parser reports the answer itself


# -- r13: what feedback may carry ---------------------------------------------------------------------------------

SECRET_DEFAULT = "sk-live-SECRET-DEFAULT-123"
DSN = "postgres://admin:hunter2@10.0.0.5/accounts"


class Account(BaseModel):
    token: str = "tok-NESTED-SECRET"


class Transfer(BaseModel):
    to: str
    amount: int = Field(le=1000)
    api_key: str = SECRET_DEFAULT
    account: Account = Account()
    region: str = Field("eu", examples=["example-SECRET-region"])


def check_account(value: Any) -> None:
    raise ConnectionError(f"could not connect to {DSN}")


def sent_to_model(llm: ScriptedLLM) -> str:
    """Everything the model was sent after the first call."""
    return json.dumps(llm.calls[1:], ensure_ascii=False)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("driver", DRIVERS)
def test_a_validators_exception_text_and_the_defaults_never_reach_the_model(mode: str, driver: str) -> None:
    llm = ScriptedLLM(['{"to": "bob", "amount": 5}'] * 3)
    with pytest.raises(CorrectionError) as info:
        run_loop(driver, llm, Transfer, validators=[check_account], mode=mode)
    sent = sent_to_model(llm)
    for secret in (DSN, "hunter2", SECRET_DEFAULT, "tok-NESTED-SECRET", "example-SECRET-region", "ConnectionError"):
        assert secret not in sent
    assert "/: the validator check_account rejected the value" in sent
    # the local error keeps the exception's text for the logs
    assert DSN in json.dumps(info.value.to_dict()["attempts"])


@pytest.mark.parametrize("mode", MODES)
def test_a_failing_semantic_validator_is_named_and_its_text_kept_locally(mode: str) -> None:
    with pytest.raises(SemanticCheckError) as info:
        Parser(mode=mode).parse_result('{"to": "bob", "amount": 5}', Transfer, validators=[check_account])
    detail = info.value.details[0]
    assert detail.message == "the validator check_account rejected the value"
    assert detail.cause is not None and DSN in detail.cause
    assert DSN in detail.to_dict()["cause"]
    assert isinstance(info.value.__cause__, ConnectionError)
    feedback = Parser(mode=mode).feedback(info.value, Transfer)
    assert "check_account rejected the value" in feedback and DSN not in feedback


class Guarded(BaseModel):
    name: str
    key: str = SECRET_DEFAULT
    model_config = {"validate_default": True}

    @field_validator("name")
    @classmethod
    def name_is_known(cls, value: str) -> str:
        if value != "ok":
            raise ValueError(f"lookup failed against {DSN}")
        return value

    @field_validator("key")
    @classmethod
    def key_is_live(cls, value: str) -> str:
        if value == SECRET_DEFAULT:
            raise ValueError("key revoked")
        return value


@pytest.mark.parametrize("mode", MODES)
def test_a_pydantic_validators_text_and_a_validated_default_stay_local(mode: str) -> None:
    with pytest.raises(ParseError) as info:
        Parser(mode=mode).parse_result('{"name": "bob"}', Guarded)
    feedback = Parser(mode=mode).feedback(info.value, Guarded)
    assert DSN not in feedback and SECRET_DEFAULT not in feedback and "revoked" not in feedback
    assert '/name: a validator rejected the value (got "bob")' in feedback  # what the model wrote is shown
    by_path = {d.path: d for d in info.value.details}
    assert by_path["/name"].cause is not None and DSN in by_path["/name"].cause
    assert not by_path["/key"].has_got  # the model never wrote the default


class Custom(BaseModel):
    n: int

    @field_validator("n")
    @classmethod
    def small(cls, value: int) -> int:
        from pydantic_core import PydanticCustomError

        if value > 9:
            raise PydanticCustomError("too_big", "n must be a single digit")
        return value


def test_a_pydantic_custom_error_is_a_message_on_purpose() -> None:
    with pytest.raises(ParseError) as info:
        parse('{"n": 12}', Custom)
    assert "n must be a single digit" in info.value.feedback()


def deliberate_detail(value: Any) -> Iterator[ErrorDetail]:
    yield ErrorDetail(path="/to", kind="unknown_payee", message="bob is not a known payee")


def deliberate_single(value: Any) -> ErrorDetail:
    return ErrorDetail(path="/to", kind="unknown_payee", message="bob is not a known payee")


def deliberate_raise(value: Any) -> None:
    detail = ErrorDetail("/to", "unknown_payee", "bob is not a known payee")
    raise SemanticCheckError("bob is not a known payee", [detail])


@pytest.mark.parametrize("validator", [deliberate_detail, deliberate_single, deliberate_raise])
@pytest.mark.parametrize("driver", DRIVERS)
def test_a_validator_tells_the_model_on_purpose(validator: Callable[[Any], Any], driver: str) -> None:
    llm = ScriptedLLM(['{"to": "bob", "amount": 5}', '{"to": "ann", "amount": 5}'])
    calls = {"n": 0}

    def once(value: Any) -> Any:
        calls["n"] += 1
        return validator(value) if calls["n"] == 1 else None

    assert run_loop(driver, llm, Transfer, validators=[once]).to == "ann"
    assert "/to: bob is not a known payee" in llm.calls[1][-1]["content"]


@pytest.mark.parametrize("returned", ["bob is unknown", False, {"path": "/to"}, ["not a detail"], [None]])
def test_a_validator_returning_something_else_is_a_configuration_error(returned: Any) -> None:
    with pytest.raises(ConfigurationError, match="validator"):
        run_semantic_checks([lambda value: returned], object(), None)


def test_a_validator_may_return_details_as_mappings() -> None:
    def as_dicts(value: Any) -> Any:
        return [{"path": "/to", "kind": "k", "message": "m"}]

    with pytest.raises(SemanticCheckError) as info:
        run_semantic_checks([as_dicts], object(), None)
    assert info.value.details == (ErrorDetail("/to", "k", "m"),)


def test_schema_excerpts_keep_the_shape_and_drop_default_and_example_values() -> None:
    schema = json.dumps(schema_for_paths(Transfer, ["", "/account/token", "/region"]))
    assert SECRET_DEFAULT not in schema and "tok-NESTED-SECRET" not in schema and "example-SECRET" not in schema
    assert '"maximum": 1000' in schema and '"required": ["to", "amount"]' in schema


class Secretive(BaseModel):
    to: str
    api_key: str = SECRET_DEFAULT
    account: Account = Account()
    note: str = Field("x", examples=["example-SECRET"], json_schema_extra={"x-internal": "extra-SECRET"})
    level: int = Field(1, le=5, json_schema_extra={"x-owner": {"token": "nested-extra-SECRET"}})


def _shown_everywhere(target: type[BaseModel]) -> dict[str, str]:
    """Every schema of `target` the library shows: tool definitions, feedback, instructions="schema"."""
    return {
        "openai_tools": json.dumps(openai_tools([target])),
        "anthropic_tools": json.dumps(anthropic_tools([target])),
        "feedback": json.dumps(schema_for_paths(target, ["", "/note", "/account/token"])),
        "instructions": schema_instruction(target),
    }


@pytest.mark.parametrize("where", ["openai_tools", "anthropic_tools", "feedback", "instructions"])
def test_no_schema_shown_carries_a_default_an_example_or_an_extension_value(where: str) -> None:
    # one filter (feedback.schema_shape) for every schema: defaults and examples may be secrets, and so may any
    # key a model adds with json_schema_extra
    shown = _shown_everywhere(Secretive)[where]
    for secret in (SECRET_DEFAULT, "tok-NESTED-SECRET", "example-SECRET", "extra-SECRET", "x-internal", "x-owner"):
        assert secret not in shown
    assert "maximum" in shown and "required" in shown  # the shape stays


def test_tool_definitions_keep_a_recursive_models_references() -> None:
    class Node(BaseModel):
        value: int = 0
        children: list[Node] = []

    (tool,) = openai_tools([Node])
    parameters = tool["function"]["parameters"]
    assert parameters["$ref"] == "#/$defs/Node"
    node = parameters["$defs"]["Node"]
    assert node["properties"]["children"] == {"items": {"$ref": "#/$defs/Node"}, "type": "array"}
    assert "default" not in json.dumps(parameters) and "title" not in json.dumps(parameters)


def test_an_internal_errors_text_is_not_feedback() -> None:
    failure = ParseError("internal", [ErrorDetail("", "internal", f"ConnectionError: {DSN}")])
    assert DSN not in format_feedback(failure, None)


def test_a_got_that_is_not_json_is_not_shown() -> None:
    class Opaque:
        def __repr__(self) -> str:
            return SECRET_DEFAULT

    lines = condense([ErrorDetail("/a", "semantic", "bad", got=Opaque())])
    assert lines == ["/a: bad"]


def test_every_feedback_line_is_capped() -> None:
    (line,) = condense([ErrorDetail("/" + "k" * 100_000, "unknown_key", "m" * 100_000)])
    assert len(line) < MAX_LINE_CHARS + 50


# -- r14: odd llm replies, message copies, the echo -------------------------------------------------------------


class ToolCall(BaseModel):
    action: str
    arguments: dict[str, object] = {}


class Adapterish:
    """Satisfies the runtime-checkable LLMAdapter protocol, but returns text like most wrappers."""

    name = "mine"

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, messages: Any) -> Any:
        self.calls += 1
        return '{"action": "x"}'

    async def acomplete(self, messages: Any) -> Any:
        self.calls += 1
        return '{"action": "x"}'


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("text", [None, b'{"action": "x"}', 42])
def test_a_completion_whose_text_is_not_a_str_is_a_configuration_error_at_once(driver: str, text: Any) -> None:
    calls: list[int] = []

    def llm(messages: Any) -> Completion:
        calls.append(1)
        return Completion(text=text)

    with pytest.raises(ConfigurationError, match=r"Completion\.text"):
        run_loop(driver, llm, ToolCall)
    assert len(calls) == 1


@pytest.mark.parametrize("driver", DRIVERS)
def test_an_adapter_returning_text_is_a_configuration_error_at_once(driver: str) -> None:
    adapter = Adapterish()
    with pytest.raises(ConfigurationError, match="not a Completion"):
        run_loop(driver, adapter, ToolCall)
    assert adapter.calls == 1


@pytest.mark.parametrize(
    "fields", [{"model": 3}, {"usage": {"prompt_tokens": 1}}, {"refusal": b"no"}, {"finish_reason": 1}]
)
def test_a_completion_checks_its_fields_when_built(fields: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError):
        Completion(text="", **fields)


@pytest.mark.parametrize("counts", [(None, 1), (-1, 0), (True, 0), (1.5, 0)])
def test_usage_counts_are_non_negative_ints(counts: tuple[Any, Any]) -> None:
    with pytest.raises(ConfigurationError):
        Usage(*counts)


@pytest.mark.parametrize("driver", DRIVERS)
def test_no_llm_can_change_the_callers_messages_or_the_next_rounds(driver: str) -> None:
    nested: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image", "meta": {"k": [1]}}]}
    ]
    snapshot = copy.deepcopy(nested)
    seen: list[Any] = []

    def mutating(messages: Any) -> str:
        seen.append(copy.deepcopy(messages[0]))
        messages[0]["content"][0]["text"] = "changed"
        messages[0]["content"][1]["meta"]["k"].append(2)
        messages[0]["content"].append("extra")
        return '{"action": 1}' if len(seen) == 1 else '{"action": "x"}'

    if driver == "sync":
        correct(mutating, nested, ToolCall, mode="strict")
    else:
        asyncio.run(acorrect(mutating, nested, ToolCall, mode="strict"))
    assert nested == snapshot
    assert seen[1] == snapshot[0]  # the second round got the original content, not the first call's edits


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_huge_reply_is_not_echoed_back_whole(driver: str) -> None:
    sent: list[int] = []
    huge = '{"action": "x", "arguments": {"a": "' + "y" * 2_000_000 + '"}, "extra": }'

    def big(messages: Any) -> str:
        sent.append(sum(len(str(m["content"])) for m in messages))
        return huge

    with pytest.raises(CorrectionError):
        run_loop(driver, big, ToolCall, max_corrections=1)
    assert len(sent) == 2
    assert sent[1] < MAX_ECHO_CHARS + 2_000


def test_messages_that_cannot_be_copied_are_a_configuration_error() -> None:
    class Uncopyable:
        def __deepcopy__(self, memo: Any) -> Any:
            raise TypeError("no")

    with pytest.raises(ConfigurationError, match="messages"):
        correct(ScriptedLLM(['{"action": "x"}']), [{"role": "user", "content": Uncopyable()}], ToolCall)


# -- r18: error output is valid UTF-8 -----------------------------------------------------------------------------


class Named(BaseModel):
    name: str


def assert_utf8(text: str) -> None:
    text.encode("utf-8")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text", ['{"Name": "\\ud800", "x": 1}', '{"name": [1], "\\udfff": "\\ud83d"}', '{"x\\udc00": {"a": "\\ud800"}}']
)
def test_error_output_is_valid_utf8(mode: str, text: str) -> None:
    parser = Parser(mode=mode)
    with pytest.raises(ParseError) as info:
        parser.parse_result(text, Named)
    error = info.value
    assert_utf8(parser.feedback(error, Named))
    assert_utf8(error.feedback())
    assert_utf8(json.dumps(error.to_dict(), ensure_ascii=False))
    assert_utf8(str(error))
    assert_utf8(error.message)
    for detail in error.details:
        assert_utf8(json.dumps(detail.to_dict(), ensure_ascii=False))


@pytest.mark.parametrize("driver", DRIVERS)
def test_what_the_loop_sends_and_records_is_valid_utf8(driver: str) -> None:
    llm = ScriptedLLM(['{"name": 1, "x\\ud800": "\\udfff"}', '{"name": "ok"}'])
    if driver == "sync":
        result = correct_result(llm, ASK, Named)
    else:
        result = asyncio.run(acorrect_result(llm, ASK, Named))
    assert_utf8(json.dumps(llm.calls, ensure_ascii=False))
    assert_utf8(json.dumps(result.to_dict(), ensure_ascii=False))


def test_escaping_a_lone_surrogate_keeps_a_json_strings_value() -> None:
    value = {"k\ud800": ["\udfff", "ok", "\ud83d"]}
    text = escape_surrogates(json.dumps(value, ensure_ascii=False))
    assert_utf8(text)
    assert json.loads(text) == value  # the escape reads back as the same value
    assert escape_surrogates("plain ascii") == "plain ascii"
    assert escape_surrogates("é \ud800") == "é \\ud800"


def test_rendered_values_are_fresh_and_utf8_safe() -> None:
    live = {"a\ud800": [1, "\udc00"]}
    rendered = json_safe(live)
    assert rendered == {"a\\ud800": [1, "\\udc00"]}
    assert rendered is not live
    assert utf8_safe(("x", {"y": "\ud800"})) == ["x", {"y": "\\ud800"}]
    assert isinstance(json_safe(deep(5000)), str)  # too deep to encode: a stand-in, not a RecursionError


def test_a_schema_shown_by_a_plugin_drops_values_and_keeps_the_shape() -> None:
    from resilient_parse.feedback import schema_shape

    shape = json.dumps(schema_shape(Transfer.model_json_schema()))
    assert SECRET_DEFAULT not in shape and "tok-NESTED-SECRET" not in shape and "example-SECRET" not in shape
    assert '"token": {"type": "string"}' in shape  # the nested model's $ref is inlined


@pytest.mark.parametrize("mode", MODES)
def test_the_candidate_of_an_error_is_the_same_json_and_valid_utf8(mode: str) -> None:
    with pytest.raises(ParseError) as info:
        Parser(mode=mode).parse_result('{"name": ["\\ud800"]}', Named)
    error = info.value
    assert error.candidate is not None
    assert_utf8(error.candidate)
    assert "\ud800" in json.dumps(json.loads(error.candidate), ensure_ascii=False)  # the model's value, read back
    error.candidate = '"\udfff"'  # set later, as plugins do: escaped too
    assert error.candidate == '"\\udfff"'


def test_the_patch_feedback_is_valid_utf8() -> None:
    document = json.dumps({"goal": "g" * 2500, "steps": [{"id": 1, "action": "fax", "x\ud800": 1}]})
    failure = ParseError("bad", [ErrorDetail("/steps/0/action", "literal_error", "bad \ud800", got="fax")])
    failure.candidate = document
    parser = Parser(plugins=[JsonPatchFeedback()], entrypoints=False)
    text = parser.feedback(failure, Plan)
    assert text.startswith("Answer with an RFC 6902 JSON Patch")
    assert_utf8(text)


def test_a_providers_odd_token_counts_do_not_break_the_loop() -> None:
    from resilient_parse.llm.openai import completion_from_openai

    response = {
        "choices": [{"message": {"content": '{"action": "x"}'}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": -3, "completion_tokens": True},
    }
    # issue 15: counts a provider got wrong are not counts; the loop estimates them (marked) instead of counting 0
    assert completion_from_openai(response).usage is None


# -- L01: the llm's own exception leaves as it is, whatever it is ----------------------------------------------------


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("__str__ failed")


def _raising(exc: Exception) -> Callable[[Any], Any]:
    def llm(messages: Any) -> Any:
        raise exc

    return llm


def test_an_llm_raising_stop_iteration_raises_it_with_the_attempts() -> None:
    # `lambda messages: next(replies)` once its replies run out: not RuntimeError("generator raised StopIteration")
    replies: Iterator[str] = iter([])
    with pytest.raises(StopIteration) as info:
        correct(lambda messages: next(replies), ASK, Step)
    assert [a.error_kind for a in info.value.attempts] == ["llm_error"]  # type: ignore[attr-defined]


def test_on_exhausted_raising_stop_iteration_raises_it() -> None:
    replies: Iterator[Any] = iter([])
    with pytest.raises(StopIteration):
        correct(lambda messages: "no", ASK, Step, max_corrections=0, on_exhausted=lambda error: next(replies))


def test_an_async_llm_raising_stop_iteration_keeps_the_attempts() -> None:
    # a coroutine cannot raise StopIteration (PEP 479): a RuntimeError caused by it, still with .attempts
    with pytest.raises(RuntimeError) as info:
        asyncio.run(acorrect(_raising(StopIteration()), ASK, Step))
    assert isinstance(info.value.__cause__, StopIteration)
    assert [a.error_kind for a in info.value.attempts] == ["llm_error"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("driver", DRIVERS)
def test_an_llm_exception_whose_str_raises_is_raised_as_it_is(driver: str) -> None:
    with pytest.raises(_Unprintable) as info:
        run_loop(driver, _raising(_Unprintable()), Step)
    assert info.value.attempts[0].note.startswith("_Unprintable: <the message")  # type: ignore[attr-defined]


@pytest.mark.parametrize("driver", DRIVERS)
def test_an_llm_exception_keeps_its_own_cause_and_context(driver: str) -> None:
    def llm(messages: Any) -> Any:
        try:
            raise KeyError("inner")
        except KeyError:
            raise ValueError("outer") from None

    with pytest.raises(ValueError) as info:
        run_loop(driver, llm, Step)
    assert isinstance(info.value.__context__, KeyError) and info.value.__suppress_context__
