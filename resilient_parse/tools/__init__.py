"""Tool calls as models write them, one layer: the vocabulary of a call and the one name rule (`names`), the text
formats (`formats`, with `pycall` for Python call syntax and `spans` for JSON values in text), provider envelopes
in JSON (`envelopes`), and a union of tool models answered by name (`answer`). What the core's stages, below this
layer, need of it (argument wrapper keys, a provider envelope's content) they get in the call context (`vocabulary`).

`EnvelopeStage` is the layer's built-in stage, registered after the core's stages (`plugins.builtin_plugins`).
"""

from __future__ import annotations

from typing import Any

from resilient_parse.context import CallContext, Coercion
from resilient_parse.hookspecs import hookimpl
from resilient_parse.schema import FieldView, TypeView


class EnvelopeStage:
    """`rp_coerce_value`, asked before `rp.coerce` (not `trylast`, registered after it; a user's plugin still
    comes first): tool-call envelopes whose tool name must be the target's, and wrappers several levels deep or
    around a one-element list (`tools/envelopes.py`)."""

    @hookimpl
    def rp_coerce_value(
        self, value: Any, expected: TypeView, field: FieldView | None, path: str, ctx: CallContext
    ) -> Coercion | None:
        from resilient_parse.tools.envelopes import unwrap_envelope

        return unwrap_envelope(value, expected, path, ctx)
