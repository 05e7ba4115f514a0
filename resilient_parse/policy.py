"""Modes as frozen policies: which repairs are allowed and how far fuzzy matching may go.

Plugins ask the policy (`ctx.policy.allows("key_fuzzy")`), never compare mode names, so a user can build a policy
of their own from the same switches.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from resilient_parse.errors import ConfigurationError
from resilient_parse.repairs import KINDS

UnknownKeys = Literal["model", "drop", "keep"]


@dataclass(frozen=True)
class Policy:
    """What a parser may do to an output.

    - `allow_lossy`: whether repairs that could change meaning (fuzzy keys, fuzzy enums, closing truncated
      output, json-repair's guesses) are allowed at all; `forbidden_kinds` and `extra_allowed_kinds` fine-tune.
    - `fuzzy_key_threshold` / `fuzzy_value_threshold`: minimum normalised similarity (0..1) for a fuzzy match;
      `fuzzy_margin`: how far the best match must lead the runner-up.
    - `unknown_keys`: "model" follows each model's `extra` setting; "drop" removes keys that match nothing.
    - `plugin_aliases`: whether alias tables contributed by plugins apply (explicit tables always do).
    - `guard_ignored_keys`: on valid input, check for stray keys an ignore-extras model would silently drop
      (`Arguments` beside an optional `arguments`) so they get aligned instead; costs a key scan.
    - `guard_duplicate_keys`: on valid input, check that no object writes a key twice (Pydantic keeps the last
      silently; two different values are an ambiguity); costs a second, C-speed parse of the text.
    - `max_corrections`: how many extra LLM calls the correction loop may make.
    - `max_input_chars`, `max_depth`, `max_candidates`: hard limits that turn hostile input into a clear error.
    """

    name: str = "custom"
    allow_lossy: bool = True
    forbidden_kinds: frozenset[str] = field(default_factory=frozenset)
    extra_allowed_kinds: frozenset[str] = field(default_factory=frozenset)
    fuzzy_key_threshold: float = 0.8
    fuzzy_value_threshold: float = 0.8
    fuzzy_margin: float = 0.1
    unknown_keys: UnknownKeys = "model"
    plugin_aliases: bool = True
    guard_ignored_keys: bool = True
    guard_duplicate_keys: bool = True
    max_corrections: int = 2
    max_input_chars: int = 20_000_000
    max_depth: int = 400
    max_candidates: int = 16

    def __post_init__(self) -> None:
        if not 0.0 <= self.fuzzy_key_threshold <= 1.0 or not 0.0 <= self.fuzzy_value_threshold <= 1.0:
            raise ConfigurationError("fuzzy thresholds must be between 0 and 1")
        if self.unknown_keys not in ("model", "drop", "keep"):
            raise ConfigurationError(f"unknown_keys must be 'model', 'drop' or 'keep', not {self.unknown_keys!r}")
        if self.max_corrections < 0 or self.max_input_chars <= 0 or self.max_depth <= 0 or self.max_candidates <= 0:
            raise ConfigurationError("policy limits must be positive (max_corrections may be 0)")

    def allows(self, kind: str, lossless: bool | None = None) -> bool:
        """Whether a repair of this kind may be applied. Unknown kinds count as lossy unless told otherwise."""
        if kind in self.forbidden_kinds:
            return False
        if kind in self.extra_allowed_kinds:
            return True
        if lossless is None:
            info = KINDS.get(kind)
            lossless = info.lossless if info else False
        return lossless or self.allow_lossy

    def with_changes(self, **changes: object) -> Policy:
        return replace(self, **changes)  # type: ignore[arg-type]


STRICT = Policy(name="strict", allow_lossy=False, plugin_aliases=False)
LENIENT = Policy(name="lenient", allow_lossy=True)

_NAMED = {"strict": STRICT, "lenient": LENIENT}


def resolve_policy(mode: str | Policy) -> Policy:
    """Turn "strict" / "lenient" / a Policy into a Policy, or raise ConfigurationError."""
    if isinstance(mode, Policy):
        return mode
    if isinstance(mode, str) and mode.lower() in _NAMED:
        return _NAMED[mode.lower()]
    raise ConfigurationError(f"mode must be 'strict', 'lenient' or a Policy, not {mode!r}")
