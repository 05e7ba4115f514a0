"""Deprecated home of the LangChain output parser: it moved to `resilient_parse.integrations.langchain` (frameworks
live in `integrations/`). Its names still resolve here, with a DeprecationWarning naming their home.

The module is looked up by name at first use (never imported here), so the correction layer does not import the
integrations layer above it, and importing this module alone loads no LangChain.
"""

from __future__ import annotations

import importlib
import warnings

_HOME = "resilient_parse.integrations.langchain"


def __getattr__(name: str) -> object:
    """A name of the moved module, with a DeprecationWarning; an unknown name is an AttributeError, as usual."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    home = importlib.import_module(_HOME)
    if not hasattr(home, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"{__name__}.{name} moved: import it from {_HOME}", DeprecationWarning, stacklevel=2)
    return getattr(home, name)
