"""The systems a benchmark compares: our parser in each mode, and peer libraries behind one adapter signature.

An adapter is `(text, target) -> object of target, or raise`. Every peer that only produces JSON data is followed
by the same Pydantic validation (`TypeAdapter(target).validate_python`), so the comparison is about recovering
the object, not about who validates. Peers have no notion of a case's declared `aliases`; only ours gets them.
A peer whose package is not installed is reported as skipped, never silently dropped.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, TypeAdapter

Adapter = Callable[[str, Any], Any]


@lru_cache(maxsize=256)
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _validate(data: Any, target: Any) -> Any:
    return _adapter(target).validate_python(data)


def _ours(mode: str, aliases: Mapping[str, str] | None) -> Adapter:
    from resilient_parse.api import default_parser

    parser = default_parser(mode)
    if aliases:
        table = dict(aliases)
        return lambda text, target: parser.parse(text, target, aliases=table)
    return parser.parse


def _json_loads() -> Adapter:
    import json

    return lambda text, target: _validate(json.loads(text), target)


def _json_repair() -> Adapter:
    import json_repair

    return lambda text, target: _validate(json_repair.loads(text), target)


def _dirtyjson() -> Adapter:
    import dirtyjson  # type: ignore[import-untyped,unused-ignore]

    return lambda text, target: _validate(dirtyjson.loads(text), target)


def _json5() -> Adapter:
    import json5

    return lambda text, target: _validate(json5.loads(text), target)


def _langchain() -> Adapter:
    """`PydanticOutputParser(pydantic_object=Model).parse` for model targets; for other targets (`list[Model]`),
    which that class cannot take, the same `parse_json_markdown` it uses internally, then validation."""
    from langchain_core.output_parsers import PydanticOutputParser
    from langchain_core.utils.json import parse_json_markdown

    parsers: dict[Any, Any] = {}

    def parse(text: str, target: Any) -> Any:
        if isinstance(target, type) and issubclass(target, BaseModel):
            if target not in parsers:
                parsers[target] = PydanticOutputParser(pydantic_object=target)
            return parsers[target].parse(text)
        return _validate(parse_json_markdown(text), target)

    return parse


def _instructor() -> Adapter:
    """instructor's MD_JSON mode: the last JSON span of the reply (`extract_json_from_codeblock`), then
    `model_validate_json` (here the target's `TypeAdapter.validate_json`, which is the same for models)."""
    from instructor.utils import extract_json_from_codeblock

    return lambda text, target: _adapter(target).validate_json(extract_json_from_codeblock(text))


@dataclass(frozen=True)
class System:
    """One column of the benchmark: `mode` is "strict"/"lenient" for our parser, None for peers."""

    name: str
    description: str
    requires: str | None
    factory: Callable[[Mapping[str, str] | None], Adapter]
    mode: str | None = None

    def missing(self) -> str | None:
        """Why the system cannot run here (its package is not installed), or None."""
        if self.requires is None or importlib.util.find_spec(self.requires) is not None:
            return None
        return f"{self.requires} is not installed (pip install 'resilient-parse[bench]')"

    def version(self) -> str:
        dist = {"json": None, "resilient_parse": "resilient-parse", "json_repair": "json-repair"}.get(
            self.requires or "json", self.requires
        )
        if self.requires == "langchain_core":
            dist = "langchain-core"
        if dist is None:
            return "stdlib"
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "?"

    def build(self, aliases: Mapping[str, str] | None = None) -> Adapter:
        """The adapter for one case (aliases only change our parser's adapter)."""
        return self.factory(aliases)


SYSTEMS: tuple[System, ...] = (
    System("resilient_parse:strict", "ours, strict policy", "resilient_parse", lambda a: _ours("strict", a), "strict"),
    System(
        "resilient_parse:lenient", "ours, lenient policy", "resilient_parse", lambda a: _ours("lenient", a), "lenient"
    ),
    System("json", "json.loads + Pydantic validation", None, lambda a: _json_loads()),
    System("json_repair", "json_repair.loads + Pydantic validation", "json_repair", lambda a: _json_repair()),
    System("dirtyjson", "dirtyjson.loads + Pydantic validation", "dirtyjson", lambda a: _dirtyjson()),
    System("json5", "json5.loads + Pydantic validation", "json5", lambda a: _json5()),
    System("langchain", "LangChain PydanticOutputParser.parse", "langchain_core", lambda a: _langchain()),
    System(
        "instructor",
        "instructor MD_JSON: extract_json_from_codeblock + validate",
        "instructor",
        lambda a: _instructor(),
    ),
)
BY_NAME: dict[str, System] = {s.name: s for s in SYSTEMS}


def short_name(name: str) -> str:
    """A system's name in tables: `rp:` for our parser."""
    return name.replace("resilient_parse:", "rp:")


GROUPS: dict[str, tuple[str, ...]] = {"resilient_parse": ("resilient_parse:strict", "resilient_parse:lenient")}


def select(names: str | None, mode: str = "both") -> list[System]:
    """The systems named on the command line (comma-separated; "resilient_parse" means both modes), filtered to
    the requested modes of ours. Unknown names raise ValueError listing the known ones."""
    wanted: list[str] = []
    for raw in names.split(",") if names else [s.name for s in SYSTEMS]:
        name = raw.strip()
        if not name:
            continue
        expanded = GROUPS.get(name, (name,))
        for n in expanded:
            if n not in BY_NAME:
                known = ", ".join(["resilient_parse", *BY_NAME])
                raise ValueError(f"unknown system {name!r} (known: {known})")
            if n not in wanted:
                wanted.append(n)
    chosen = [BY_NAME[n] for n in wanted]
    if mode != "both":
        chosen = [s for s in chosen if s.mode in (None, mode)]
    return chosen
