"""The bulk regex pass is retired (merged into the one-pass reader, issue 12): its stage declines every text, so
`rp_parse` falls through to `syntax.load_json`. Its lossless repairs are tested on the reader (test_reader.py)."""

from typing import Any

import pytest

from resilient_parse import Parser
from resilient_parse.stages.syntax_bulk import load_bulk


@pytest.mark.parametrize("text", ['{"a": 1,}', "{a: 1, b: True, c: None}", '{"a": 1}'])
def test_the_retired_bulk_pass_declines_so_the_reader_reads(text: str) -> None:
    parser = Parser("strict", entrypoints=False)
    assert load_bulk(text, parser.context(dict[str, Any])) is None
    assert parser.parse(text, dict[str, Any]) == {"a": 1, **({"b": True, "c": None} if "b:" in text else {})}
