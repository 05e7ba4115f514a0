"""Helpers for testing code that calls a model: a scripted LLM that answers from a list, for `correct` and the
adapters, with no network."""

from resilient_parse.correction.scripted import ScriptedLLM, ScriptExhaustedError

__all__ = ["ScriptExhaustedError", "ScriptedLLM"]
