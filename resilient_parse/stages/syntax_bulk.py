"""Retired: the bulk regex pass is merged into the one-pass reader (`read.py`), which reads valid stretches with
the json module's C scanner and repairs the rest per token, with exact paths.

`load_bulk` stays only so the `rp.syntax_bulk` declaration in `stages/__init__.py` keeps working until it is
removed: it declines every text, so `rp_parse` falls through to the syntax stage.
"""

from __future__ import annotations

from resilient_parse.context import CallContext, LoadResult


def load_bulk(text: str, ctx: CallContext) -> LoadResult | None:
    """Declines: the reader in `syntax.load_json` does this work now."""
    del text, ctx
    return None
