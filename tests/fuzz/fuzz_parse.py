"""Coverage-guided fuzz target (atheris) over `Parser.parse_result` with a few schemas, in both modes.

    /work/venv/bin/python tests/fuzz/fuzz_parse.py /tmp/fuzz-corpus tests/fuzz/seeds \
        -dict=tests/fuzz/json.dict -max_total_time=300 -artifact_prefix=/tmp/fuzz-crash-

The first input byte picks the target, the mode and whether the rest is passed as bytes or as text (decoded with
`surrogatepass`, so lone surrogates reach the parser). `check_one` is the oracle, importable without atheris:
tests/test_fuzz_regressions.py replays every file in tests/fuzz/crashes/ through it. A crash is any exception
other than a ParseError, a ParseError whose errors say "internal", a strict result with a lossy repair, or a
result that is not an instance of the target.
"""

from __future__ import annotations

import enum
import sys
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Item(BaseModel):
    name: str
    count: int = 0
    tags: list[str] = []


class Call(BaseModel):
    action: Literal["search", "answer"]
    color: Color | None = None
    item: Item | None = None
    score: float


class Strict(BaseModel):
    model_config = {"extra": "forbid"}
    user_id: int
    is_active: bool


TARGETS: tuple[Any, ...] = (Item, Call, list[Item], Strict | Item)
_PARSERS: dict[str, Any] = {}


def _parser(mode: str) -> Any:
    from resilient_parse import Parser

    if mode not in _PARSERS:
        _PARSERS[mode] = Parser(mode, entrypoints=False)
    return _PARSERS[mode]


def decode(data: bytes) -> tuple[Any, str, str | bytes]:
    """(target, mode, input) for a fuzz input."""
    if not data:
        return TARGETS[0], "lenient", ""
    sel = data[0]
    target = TARGETS[sel % len(TARGETS)]
    mode = ("lenient", "strict")[(sel // len(TARGETS)) % 2]
    payload = data[1:]
    if (sel // (2 * len(TARGETS))) % 4 == 3:
        return target, mode, payload
    try:
        return target, mode, payload.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return target, mode, payload.decode("utf-8", "replace")


def check_one(data: bytes) -> None:
    """The oracle: raise AssertionError (or let a foreign exception escape) when the parser misbehaves."""
    from resilient_parse import ParseError

    target, mode, text = decode(data)
    parser = _parser(mode)
    try:
        result = parser.parse_result(text, target)
    except ParseError as err:
        internal = [e for e in err.errors if e.get("kind") == "internal"]
        assert not internal, f"internal error escaped as ParseError: {err}"
        err.to_dict()  # errors must serialise
        return
    TypeAdapter(target).validate_python(result.value, strict=False)
    if mode == "strict":
        lossy = [r.kind for r in result.repairs if not r.lossless]
        assert not lossy, f"strict recorded lossy repairs {lossy}"


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["resilient_parse", "json_repair"]):
        import importlib
        import pkgutil

        import json_repair

        import resilient_parse

        # import every submodule now, inside the block: one imported lazily later would run uninstrumented
        for package in (resilient_parse, json_repair):
            for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
                if not info.name.startswith("resilient_parse.correction") and not info.name.endswith("__main__"):
                    importlib.import_module(info.name)

    def one(data: bytes) -> None:
        check_one(data)

    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
