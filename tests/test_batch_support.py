"""Targets and plugins the batch tests send to worker processes (importable by them, unlike a test's locals).

`Trapped.action` hangs on "hang" and kills its process on "die" — a record that a worker cannot survive."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel, field_validator

from resilient_parse import ErrorDetail, hookimpl


class Trapped(BaseModel):
    action: str
    n: int = 0

    @field_validator("action")
    @classmethod
    def _trap(cls, value: str) -> str:
        if value == "hang":
            time.sleep(600)
        if value == "die":
            os._exit(3)
        if value == "slow":
            time.sleep(0.004)
        return value


class Review(BaseModel):
    title: str
    rating: int


class NoDraftTitles:
    """A caller's plugin: it must travel to the workers with the parser."""

    rp_name = "no_draft_titles"

    @hookimpl
    def rp_semantic_validators(self, target: Any, ctx: Any) -> list[Callable[[Any], Iterator[ErrorDetail]]]:
        def check(value: Any) -> Iterator[ErrorDetail]:
            if str(getattr(value, "title", "")).lower().startswith("draft"):
                yield ErrorDetail(path="/title", kind="draft_title", message="the title still says draft")

        return [check]


def mixed_texts(n: int) -> list[str]:
    """Valid, repairable, refused and hopeless outputs for `Trapped`, in a fixed cycle of six."""
    shapes: list[Callable[[int], str]] = [
        lambda i: f'{{"action": "a{i}", "n": {i}}}',  # recovered
        lambda i: f"Sure!\n```json\n{{'action': 'b{i}', 'n': {i},}}\n```",  # repaired, lossless
        lambda i: f'{{"Action": "c{i}"}}',  # repaired, lossy (key_case)
        lambda i: "I'm sorry, but I cannot help with that request.",  # refused: RefusalError
        lambda i: f'{{"action": "d{i}", "n": "many"}}',  # refused: schema mismatch at /n
        lambda i: "no json here at all",  # refused: NoCandidateError
    ]
    return [shapes[i % 6](i) for i in range(n)]


EXPECTED_CYCLE = ["recovered", "repaired", "repaired", "refused", "refused", "refused"]


class MisspelledHook:
    """A plugin whose hook does not exist: a parser with it cannot be built, on the workers either."""

    rp_name = "misspelled"

    @hookimpl
    def rp_semantic_validator(self, target: Any, ctx: Any) -> list[Any]:
        return []
