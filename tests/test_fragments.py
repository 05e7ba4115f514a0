"""A value cut out of a larger JSON document is not an answer: text after it that closes a bracket it never opened,
or an answer that starts inside an object (a key before any '{', as after a prefilled `{`) makes the value a piece
of something bigger, refused in both modes — while prose with a stray bracket of its own still hands the answer
over, and a ',' after a whole object is a slip, not a cut (the bench's comma-011)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from resilient_parse import ParseError, Parser


class Order(BaseModel):
    item: str
    qty: int = 1


class Resp(BaseModel):
    items: list[str]


PARSERS = {"strict": Parser("strict", entrypoints=False), "lenient": Parser("lenient", entrypoints=False)}

PIECES = [
    ("an object whose '{' was prefilled", '"items": ["a", "b"], "extra": {"items": ["c"]}}', Resp),
    ("members after the object, on the next line", '{"item": "apple"}\n"qty": 5}', Order),
    ("items after a list's ']'", "[1, 2], 3]", list[int]),
    ("items after a list's ']', on the next line", "[1, 2]\n3]", list[int]),
    ("a list whose '[' is missing", '{"item": "apple"}, {"item": "pear", "qty": }]', Order),
    ("a list whose '[' is missing, a bare key after", '{"item": "apple"}, {item: pear}]', Order),
]


@pytest.mark.parametrize("mode", PARSERS)
@pytest.mark.parametrize(("text", "target"), [p[1:] for p in PIECES], ids=[p[0] for p in PIECES])
def test_a_piece_of_a_larger_document_is_refused(mode: str, text: str, target: Any) -> None:
    with pytest.raises(ParseError):
        PARSERS[mode].parse(text, target)


@pytest.mark.parametrize("mode", PARSERS)
def test_a_comma_after_the_whole_object_is_a_slip(mode: str) -> None:
    assert PARSERS[mode].parse('{"item": "apple", "qty": 2},', Order) == Order(item="apple", qty=2)


def test_members_after_an_early_brace_are_read_in_lenient_and_refused_in_strict() -> None:
    text = '{"item": "apple"}}, "qty": 5}'
    result = PARSERS["lenient"].parse_result(text, Order)
    assert result.value == Order(item="apple", qty=5)
    assert "stray_closer" in [r.kind for r in result.repairs]
    with pytest.raises(ParseError):
        PARSERS["strict"].parse(text, Order)


PROSE = [
    ("a smiley after the answer", 'Here you go: {"item": "apple"} hope it helps :]'),
    ("a footnote after the answer", '{"item": "apple"}\nSee [1] for details.'),
    ("a full stop after the answer", 'Answer: {"item": "apple"}.'),
]


@pytest.mark.parametrize("mode", PARSERS)
@pytest.mark.parametrize("text", [p[1] for p in PROSE], ids=[p[0] for p in PROSE])
def test_prose_with_brackets_of_its_own_still_hands_the_answer_over(mode: str, text: str) -> None:
    assert PARSERS[mode].parse(text, Order) == Order(item="apple")
