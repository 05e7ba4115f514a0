"""Imported by the pool's fork server, and only there: one parse of a prose answer builds the state the library
compiles on first use (its regex tables and word lists) once, before any worker is forked, so every worker starts
warm and a record's timeout measures that record, not the first use of the library in a fresh process."""

from __future__ import annotations

import contextlib
import logging

_PROSE = "Sure! I can't promise it is right, but here it is:\n```json\n{'answer': 42, 'items': [1, 2,],}\n```"


def warm() -> None:
    """Parse one prose answer, silently; whatever happens, the fork server must still start."""
    logging.disable(logging.CRITICAL)  # a failure is the first record's to report, not this parse's
    try:
        with contextlib.suppress(Exception):
            from resilient_parse.parser import Parser

            Parser().parse_result(_PROSE, dict)
    finally:
        logging.disable(logging.NOTSET)


warm()
