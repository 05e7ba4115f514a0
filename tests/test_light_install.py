"""A light import and a light install: a valid parse loads only what it needs, and the optional extras are
optional — numpy (`fast`) changes no verdict of the fuzzy key matcher, jsonpatch (`patch`) is asked for by name."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import Parser

HEAVY = ("json_repair", "rapidfuzz", "numpy", "jsonpatch", "resilient_parse.json.document", "resilient_parse.text")


def _run(program: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(program)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_valid_parse_loads_neither_the_reader_nor_json_repair_nor_rapidfuzz() -> None:
    loaded = _run(
        f"""
        import sys
        from pydantic import BaseModel
        import resilient_parse

        class Step(BaseModel):
            id: int
            action: str

        assert resilient_parse.parse('{{"id": 1, "action": "search"}}', Step) == Step(id=1, action="search")
        assert resilient_parse.parse_result('[{{"id": 2, "action": "email"}}]', list[Step]).repairs == ()
        print(sorted(m for m in {HEAVY!r} if m in sys.modules))
        """
    )
    assert loaded == "[]"


def test_a_repair_does_load_the_reader() -> None:
    """The check above could pass by never loading anything: a broken text must reach the reader."""
    loaded = _run(
        """
        import sys
        import resilient_parse

        assert resilient_parse.parse('{"a": 1,}', dict) == {"a": 1}
        print("resilient_parse.json.document" in sys.modules)
        """
    )
    assert loaded == "True"


class Ticket(BaseModel):
    customer_name: str
    priority_level: int
    description: str
    assigned_team: str


FUZZY_ROWS = [
    {"customer_nme": "Ana", "priority_levle": 2, "descripton": "x", "assigned_taem": "ops"},
    {"custmer_name": "Bo", "prioritylevel": 1, "description": "y", "asigned_team": "dev"},
    {"customer": "Cy", "level": 3, "desc": "z", "team": "qa"},
    {"customer_name": "Di", "priority_level": 4, "description": "w", "assigned_team": "it", "asigned_tam": "x"},
]


def _outcome(parser: Parser, row: dict[str, Any]) -> tuple[str, Any]:
    import json

    try:
        result = parser.parse_result(json.dumps(row), Ticket)
    except Exception as exc:
        return type(exc).__name__, getattr(exc, "errors", None)
    return "ok", (result.value, [(r.kind, r.path, r.before, r.after) for r in result.repairs])


@pytest.mark.parametrize("mode", ["strict", "lenient"])
def test_fuzzy_keys_are_matched_alike_with_and_without_numpy(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with_numpy = [_outcome(Parser(mode, entrypoints=False), row) for row in FUZZY_ROWS]
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` raises ImportError from here on
    without = [_outcome(Parser(mode, entrypoints=False), row) for row in FUZZY_ROWS]
    assert without == with_numpy
    if mode == "lenient":
        assert with_numpy[0][0] == "ok" and with_numpy[0][1][0].customer_name == "Ana"


def test_the_correction_loop_works_without_jsonpatch_and_the_patch_plugin_names_its_extra() -> None:
    out = _run(
        """
        import sys
        sys.modules["jsonpatch"] = None  # as if the `patch` extra were not installed
        from pydantic import BaseModel
        from resilient_parse.correction import Completion, ScriptedLLM, correct

        class Answer(BaseModel):
            value: int

        llm = ScriptedLLM([Completion(text='{"value": "seven"}'), Completion(text='{"value": 7}')])
        print(correct(llm, [{"role": "user", "content": "?"}], Answer))
        try:
            from resilient_parse.correction import JsonPatchFeedback
        except ImportError as exc:
            print(exc)
        """
    )
    first, second = out.splitlines()
    assert first == "value=7"
    assert "resilient-parse[patch]" in second
