"""The step limit and risk levels, shared by `models` and `config`. Kept free of Pydantic so that defining
`PlannerConfig` — which the entry point's `default_plugin` needs — imports nothing heavy."""

from __future__ import annotations

from typing import Literal

MAX_STEPS = 20

RiskLevel = Literal["low", "medium", "high"]
RISK_ORDER: dict[str, int] = {"low": 0, "medium": 1, "high": 2}
