"""The reader-floor benchmark (benchmarks/reader_floor.py) reads each shape it times into the shape's data."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from benchmarks import reader_floor
from resilient_parse.bench.speed_core import KB, shaped


@pytest.mark.parametrize("shape", sorted(reader_floor._FIXES))
def test_the_floor_reads_its_shape_and_records_a_repair_per_fix(shape: str) -> None:
    doc = shaped(shape, 4 * KB)
    adapter: TypeAdapter[Any] = TypeAdapter(doc.target)
    value, repairs = reader_floor.floor_reader(shape, adapter)(doc.text)
    assert adapter.dump_python(value, mode="json") == doc.expected
    assert repairs >= len(doc.expected)  # every record is broken at least once in these shapes
