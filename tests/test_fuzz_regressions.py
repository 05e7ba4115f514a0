"""Replay every input the fuzzer found (tests/fuzz/crashes/) and every seed through the fuzz oracle.

Each file is one raw fuzz input: the first byte picks target, mode and bytes-vs-text (see tests/fuzz/fuzz_parse.py);
the oracle fails on anything but a result or a well-formed ParseError. Add a file here when the fuzzer finds a
crash; it stays as a regression test after the fix.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

FUZZ_DIR = Path(__file__).parent / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

from fuzz_parse import check_one, decode  # noqa: E402

INPUTS = sorted(
    p for d in ("crashes", "seeds") if (FUZZ_DIR / d).is_dir() for p in (FUZZ_DIR / d).iterdir() if p.suffix != ".md"
)


@pytest.mark.parametrize("path", INPUTS, ids=[f"{p.parent.name}/{p.name}" for p in INPUTS])
def test_fuzz_input_gives_a_result_or_a_well_formed_parse_error(path: Path) -> None:
    data = path.read_bytes()
    target, mode, text = decode(data)
    check_one(data)
    assert mode in ("lenient", "strict") and text is not None and target is not None
