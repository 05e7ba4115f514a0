"""The public surface: a small top level, everything else in its namespace, moved names warn once with their
home, and the exception tree keeps loop errors apart from parse errors."""

import importlib
import warnings

import pytest

import resilient_parse
from resilient_parse import CorrectionError, ParseError, ResilientParseError, plugin_api
from resilient_parse import correction as correction_ns


def test_the_top_level_is_small_and_every_name_resolves() -> None:
    assert len(resilient_parse.__all__) <= 30
    for name in resilient_parse.__all__:
        assert getattr(resilient_parse, name) is not None, name


@pytest.mark.parametrize("name", sorted(resilient_parse._MOVED))
def test_a_moved_name_still_resolves_but_warns_with_its_home(name: str) -> None:
    home = importlib.import_module(resilient_parse._MOVED[name])
    with pytest.warns(DeprecationWarning, match=home.__name__.replace(".", r"\.")):
        value = getattr(resilient_parse, name)
    assert value is getattr(home, name)
    assert name not in resilient_parse.__all__


def test_kept_names_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in resilient_parse.__all__:
            getattr(resilient_parse, name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        resilient_parse.no_such_thing  # noqa: B018


@pytest.mark.parametrize("name", ["BudgetExhaustedError", "QuotaExhaustedError"])
def test_a_budget_or_quota_stop_is_not_a_parse_error(name: str) -> None:
    cls = getattr(correction_ns, name)
    assert issubclass(cls, CorrectionError) and issubclass(cls, ResilientParseError)
    assert not issubclass(cls, ParseError)


@pytest.mark.parametrize("name", ["CorrectionsExhaustedError", "ModelRefusedError"])
def test_no_answer_parsed_is_both_a_loop_stop_and_a_parse_error(name: str) -> None:
    cls = getattr(correction_ns, name)
    assert issubclass(cls, CorrectionError) and issubclass(cls, ParseError)


def test_every_parse_kind_at_the_top_is_a_parse_error() -> None:
    kinds = [getattr(resilient_parse, n) for n in resilient_parse.__all__ if n.endswith("Error")]
    parse_kinds = [
        k for k in kinds if k not in (ResilientParseError, CorrectionError, resilient_parse.ConfigurationError)
    ]
    assert len(parse_kinds) == 10
    assert all(issubclass(k, ParseError) for k in parse_kinds)


def test_the_exception_tree_is_drawn_where_it_is_defined() -> None:
    doc = importlib.import_module("resilient_parse.errors").__doc__ or ""
    for name in ("ResilientParseError", "ParseError", "CorrectionError", "QuotaExhaustedError", "PluginError"):
        assert name in doc


def test_plugin_api_holds_what_hooks_see() -> None:
    for name in ("CallContext", "Candidate", "Coercion", "KeyMapping", "LoadResult", "PluginError", "hookimpl"):
        assert hasattr(plugin_api, name), name


def test_stream_at_the_top_level_yields_partials_then_the_value() -> None:
    from pydantic import BaseModel

    class Point(BaseModel):
        x: int
        y: int

    updates = list(resilient_parse.stream(['{"x": 1,', ' "y": 2}'], Point, mode="strict"))
    assert updates[-1].is_final and updates[-1].value == Point(x=1, y=2)
    assert any(not u.is_final and u.partial is not None and u.partial.x == 1 for u in updates)


def test_dir_lists_the_lazy_names_but_not_the_moved_ones() -> None:
    names = dir(resilient_parse)
    assert {"correct", "acorrect", "stream", "astream", "StreamUpdate", "CorrectionResult"} <= set(names)
    assert "OpenAIAdapter" not in names


def test_an_unknown_option_is_a_configuration_error_naming_the_options() -> None:
    from pydantic import BaseModel

    from resilient_parse import ConfigurationError, Parser

    class Point(BaseModel):
        x: int

    with pytest.raises(ConfigurationError, match="reparse_budget"):
        list(resilient_parse.stream(['{"x": 1}'], Point, bogus=1))
    with pytest.raises(ConfigurationError, match="max_corrections"):
        resilient_parse.correct(lambda messages: '{"x": 1}', [], Point, bogus=1)  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError, match="iterable"):
        list(resilient_parse.stream(None, Point))  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="correct_with"):  # nothing would be corrected
        list(resilient_parse.stream(['{"x": 1}'], Point, correct_options={"max_corrections": 1}))
    with pytest.raises(ConfigurationError, match="not both"):  # the parser's own mode would silently win
        list(resilient_parse.stream(['{"x": 1}'], Point, mode="strict", parser=Parser()))


def test_errors_survive_pickle_and_deepcopy_with_their_data() -> None:
    import copy
    import pickle

    with pytest.raises(ParseError) as info:
        resilient_parse.parse('{"a": 1', dict, mode="strict")
    for again in (pickle.loads(pickle.dumps(info.value)), copy.deepcopy(info.value)):
        assert type(again) is type(info.value)
        assert again.to_dict() == info.value.to_dict()


def test_the_adapters_keep_their_correction_names_and_live_one_module_per_provider() -> None:
    """`resilient_parse.correction` still exports every adapter; each is defined in its provider's `llm` module."""
    homes = {
        "LLMAdapter": "base",
        "FunctionAdapter": "function",
        "OpenAIAdapter": "openai",
        "AnthropicAdapter": "anthropic",
        "LiteLLMAdapter": "litellm",
        "as_adapter": "choose",
        "is_quota_error": "base",
    }
    for name, module in homes.items():
        assert getattr(correction_ns, name) is getattr(importlib.import_module(f"resilient_parse.llm.{module}"), name)
