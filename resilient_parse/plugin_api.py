"""The stable surface for plugin authors: everything a hook implementation may import and rely on.

Hooks receive frozen data (`CallContext`, `Candidate`, `ModelView` …) and return results (`KeyMapping`,
`Coercion`, `LoadResult`, `Repair`, `ErrorDetail`). A configured plugin instance that should replace the one an
entry point registers sets `rp_name` to that entry point's name (e.g. "planner"); the parser then registers yours
and skips the default. Names not listed here are internal and may change.

A plugin that finds candidates of its own (tool calls in vendor formats …) judges them by the core's rules, not a
copy: `split_reasoning` cuts the text into `Region`s (answer, reasoning, cut-off reasoning — the `ANSWER`,
`REASONING`, `REASONING_CUT` of `Candidate.region`; `REASONING_TAGS` are the tags), and `candidate_facts` gives each
of its candidates the facts the core gives its own (`CandidateFacts`: label from the words before it, region,
refusal position, visible text). Tool calls written in text, in every format the core reads, come from
`read_calls`/`extract_calls` (`RawCall`s, in order, each judged by those rules).
"""

from resilient_parse.context import (
    AliasEntry,
    CallContext,
    Candidate,
    Coercion,
    Event,
    KeyMapping,
    LoadResult,
    SemanticValidator,
    ValueRepairer,
)
from resilient_parse.errors import ErrorDetail, PluginError
from resilient_parse.feedback import condense, format_feedback, schema_for_paths, schema_shape
from resilient_parse.hookspecs import HOOK_NAMES, hookimpl
from resilient_parse.policy import LENIENT, STRICT, Policy
from resilient_parse.repairs import KINDS, Repair, RepairKind, escape_token, pointer, split_pointer
from resilient_parse.revisit import resolve as value_and_view_at
from resilient_parse.schema import (
    AnyView,
    ChoiceView,
    DictView,
    FieldView,
    ListView,
    ModelView,
    NoneView,
    ScalarView,
    TupleView,
    TypeView,
    UnionView,
    iter_views,
)
from resilient_parse.stages.extract import (
    ANSWER,
    REASONING,
    REASONING_CUT,
    REASONING_TAGS,
    CandidateFacts,
    Region,
    candidate_facts,
    split_reasoning,
)
from resilient_parse.stages.validate import details_from_validation_error
from resilient_parse.tools.calls import RawCall
from resilient_parse.tools.formats import (
    IMPLIED_INPUT_KIND,
    NOT_ANSWERS,
    Reading,
    extract_calls,
    load_json,
    may_be_made,
    read_calls,
)
from resilient_parse.tools.names import ARGUMENT_KEYS, NAMESPACE_PREFIXES, how_named, match_tool
from resilient_parse.tools.pycall import python_call

__all__ = [
    "ANSWER",
    "ARGUMENT_KEYS",
    "HOOK_NAMES",
    "IMPLIED_INPUT_KIND",
    "KINDS",
    "LENIENT",
    "NAMESPACE_PREFIXES",
    "NOT_ANSWERS",
    "REASONING",
    "REASONING_CUT",
    "REASONING_TAGS",
    "STRICT",
    "AliasEntry",
    "AnyView",
    "CallContext",
    "Candidate",
    "CandidateFacts",
    "ChoiceView",
    "Coercion",
    "DictView",
    "ErrorDetail",
    "Event",
    "FieldView",
    "KeyMapping",
    "ListView",
    "LoadResult",
    "ModelView",
    "NoneView",
    "PluginError",
    "Policy",
    "RawCall",
    "Reading",
    "Region",
    "Repair",
    "RepairKind",
    "ScalarView",
    "SemanticValidator",
    "TupleView",
    "TypeView",
    "UnionView",
    "ValueRepairer",
    "candidate_facts",
    "condense",
    "details_from_validation_error",
    "escape_token",
    "extract_calls",
    "format_feedback",
    "hookimpl",
    "how_named",
    "iter_views",
    "load_json",
    "match_tool",
    "may_be_made",
    "pointer",
    "python_call",
    "read_calls",
    "schema_for_paths",
    "schema_shape",
    "split_pointer",
    "split_reasoning",
    "value_and_view_at",
]
