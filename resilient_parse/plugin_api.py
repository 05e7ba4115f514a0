"""The stable surface for plugin authors: everything a hook implementation may import and rely on.

Hooks receive frozen data (`CallContext`, `Candidate`, `ModelView` …) and return results (`KeyMapping`,
`Coercion`, `LoadResult`, `Repair`, `ErrorDetail`). A configured plugin instance that should replace the one an
entry point registers sets `rp_name` to that entry point's name (e.g. "planner"); the parser then registers yours
and skips the default. Names not listed here are internal and may change.
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
from resilient_parse.errors import ErrorDetail
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
from resilient_parse.stages.feedback import condense, format_feedback, schema_for_paths
from resilient_parse.stages.validate import details_from_validation_error

__all__ = [
    "HOOK_NAMES",
    "KINDS",
    "LENIENT",
    "STRICT",
    "AliasEntry",
    "AnyView",
    "CallContext",
    "Candidate",
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
    "Policy",
    "Repair",
    "RepairKind",
    "ScalarView",
    "SemanticValidator",
    "TupleView",
    "TypeView",
    "UnionView",
    "ValueRepairer",
    "condense",
    "details_from_validation_error",
    "escape_token",
    "format_feedback",
    "hookimpl",
    "iter_views",
    "pointer",
    "schema_for_paths",
    "split_pointer",
    "value_and_view_at",
]
