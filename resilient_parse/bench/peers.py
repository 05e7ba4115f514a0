"""The systems a benchmark compares: our parser in each mode, and peer libraries behind one adapter signature.

An adapter is `(text, target) -> object of target, or raise`. Every peer that only produces JSON data is followed
by the same Pydantic validation (`TypeAdapter(target).validate_python`), so the comparison is about recovering
the object, not about who validates. Peers have no notion of a case's declared `aliases`; only ours gets them.
On the `tool_text` category each peer is given instead the wrapper a user of it writes for tool calls in text
(`tool_calls`, one for all peers, around the peer's own loader). A peer whose package is not installed is reported
as skipped, never silently dropped.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.alias_generators import to_snake

Adapter = Callable[[str, Any], Any]
Loader = Callable[[str], Any]
"""A peer's own reading of text into JSON data (`json_repair.loads`, …)."""
TOOL_TEXT = "tool_text"
"""The corpus category of tool calls written in text: peers are scored on it through `tool_calls`."""


@lru_cache(maxsize=256)
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _validate(data: Any, target: Any) -> Any:
    return _adapter(target).validate_python(data)


# -- tool calls in text, as a peer's user reads them ---------------------------------------------------------------

# Each format's calls, as a user matching the one format their model writes finds them: the first pattern that
# matches anywhere in the text is the format. Each match gives a call's name and its arguments' text, or
# (`_CALL_JSON`) a text holding the call's JSON.
_NAMED_CALLS = (
    # gpt-oss harmony: `… to=functions.name <|constrain|>json<|message|>{…}<|call|>`
    re.compile(r"to=(\S+?)\s*(?:<\|constrain\|>\w+)?<\|message\|>(.*?)<\|call\|>", re.S),
    # Kimi K2: `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`
    re.compile(r"<\|tool_call_begin\|>([\w.]+?)(?::\d+)?<\|tool_call_argument_begin\|>(.*?)<\|tool_call_end\|>", re.S),
    # functionary v2: `<|recipient|>name\n<|content|>{…}` up to `<|stop|>` or the next message
    re.compile(r"<\|recipient\|>\s*([\w.]+)\s*<\|content\|>(.*?)(?=<\|stop\|>|<\|from\|>|$)", re.S),
    # Mistral: `[TOOL_CALLS]name[ARGS]{…}`
    re.compile(r"\[TOOL_CALLS\]([\w.]+)\[ARGS\](.*?)(?=\[TOOL_CALLS\]|$)", re.S),
    # ReAct: `Action: name` then `Action Input: {…}`
    re.compile(r"Action:\s*([\w.]+)\s*\nAction Input:\s*(.*?)(?=\n(?:Observation|Thought|Action):|$)", re.S),
)
_CALL_JSON = (  # (pattern, what separates several calls in one match)
    (re.compile(r"<tool_call>(.*?)</tool_call>", re.S), None),  # Hermes / Qwen
    (re.compile(r"<function_call>(.*?)</function_call>", re.S), None),  # granite
    (re.compile(r"<\|python_tag\|>(.*?)(?:<\|eom_id\|>|<\|eot_id\|>|$)", re.S), ";"),  # Llama 3
    (re.compile(r"\[TOOL_CALLS\](.*)", re.S), None),  # Mistral: a list of calls after the marker
)


def _calls_in(data: Any) -> list[tuple[Any, Any]]:
    """(name, arguments) of each call in loaded JSON: `{"name": …, "arguments"|"parameters": …}`, a list of them,
    `{"tool_calls": […]}` (OpenAI's `function` items too), an OpenAI completion (its first choice's message), or
    `{"get_weather": {…}}` (the one key naming the tool)."""
    if isinstance(data, list):
        return [call for item in data for call in _calls_in(item)]
    if isinstance(data, dict) and isinstance(data.get("choices"), list) and data["choices"]:
        return _calls_in(data["choices"][0].get("message"))
    if isinstance(data, dict) and "tool_calls" in data:
        return _calls_in(data["tool_calls"])
    if isinstance(data, dict) and isinstance(data.get("function"), dict):
        return _calls_in(data["function"])
    if isinstance(data, dict) and "name" in data:
        return [(data["name"], data.get("arguments", data.get("parameters", {})))]
    if isinstance(data, dict) and len(data) == 1:
        return [next(iter(data.items()))]
    raise ValueError("no tool call in the text")


def _tools(target: Any) -> dict[str, Any]:
    """The tools a target offers, by name: each member of the union (or the one model), named by its class name in
    snake case (`GetWeather` → `get_weather`), as a user's registry of tools would key them."""
    members = typing.get_args(target) if typing.get_origin(target) in (typing.Union, types.UnionType) else (target,)
    return {to_snake(m.__name__): m for m in members}


def _find_calls(text: str, load: Loader) -> list[tuple[Any, Any]]:
    """(name, arguments) of each call, by the first format whose pattern matches the text, else in the whole text."""
    for pattern in _NAMED_CALLS:
        found = [(name, load(args)) for name, args in pattern.findall(text) if name != "all"]  # `all`: to the user
        if found:
            return found
    for json_pattern, separator in _CALL_JSON:
        bodies = json_pattern.findall(text)
        if separator:
            bodies = [part for body in bodies for part in body.split(separator)]
        if bodies:
            return [call for body in bodies if body.strip() for call in _calls_in(load(body))]
    return _calls_in(load(text))


def tool_calls(load: Loader) -> Adapter:
    """The wrapper a user of a JSON-reading library writes for tool calls in text, around its `load`: find the
    calls by the format's tags or markers (`_NAMED_CALLS`, `_CALL_JSON`: the text between the tags, or after the
    marker; the first format that matches; else the whole text), read them with `load`, then pick each call's tool
    from the target's union by the call's name (a `functions.` prefix stripped) and validate its arguments
    (`arguments` or `parameters`; a JSON string is loaded too) against it. A `list[...]` target gets every call; any
    other target, the first call. Nothing else: no reasoning, refusals or examples told apart, as none of the
    peers does."""

    def parse(text: str, target: Any) -> Any:
        many = typing.get_origin(target) is list
        tools = _tools(typing.get_args(target)[0] if many else target)
        values = []
        for name, arguments in _find_calls(text, load):
            tool = tools.get(str(name).removeprefix("functions."))
            if tool is None:
                raise ValueError(f"no tool named {name!r}")
            values.append(_validate(load(arguments) if isinstance(arguments, str) else arguments, tool))
        if not values and not many:
            raise ValueError("no tool call in the text")
        return values if many else values[0]

    return parse


# -- the systems ----------------------------------------------------------------------------------------------------


def _ours(mode: str, aliases: Mapping[str, str] | None) -> Adapter:
    from resilient_parse.api import default_parser

    parser = default_parser(mode)
    if aliases:
        table = dict(aliases)
        return lambda text, target: parser.parse(text, target, aliases=table)
    return parser.parse


def _loaded(load: Loader) -> Adapter:
    """A peer's usual adapter: its loader, then validation."""
    return lambda text, target: _validate(load(text), target)


def _json_loads() -> Loader:
    return json.loads


def _json_repair() -> Loader:
    import json_repair

    loads: Loader = json_repair.loads
    return loads


def _dirtyjson() -> Loader:
    import dirtyjson  # type: ignore[import-untyped,unused-ignore]

    loads: Loader = dirtyjson.loads
    return loads


def _json5() -> Loader:
    import json5

    loads: Loader = json5.loads
    return loads


def _langchain_loads() -> Loader:
    """`parse_json_markdown`, what LangChain's `PydanticOutputParser` reads JSON with."""
    from langchain_core.utils.json import parse_json_markdown

    return parse_json_markdown


def _langchain() -> Adapter:
    """`PydanticOutputParser(pydantic_object=Model).parse` for model targets; for other targets (`list[Model]`),
    which that class cannot take, the same `parse_json_markdown` it uses internally, then validation."""
    from langchain_core.output_parsers import PydanticOutputParser

    load = _langchain_loads()
    parsers: dict[Any, Any] = {}

    def parse(text: str, target: Any) -> Any:
        if isinstance(target, type) and issubclass(target, BaseModel):
            if target not in parsers:
                parsers[target] = PydanticOutputParser(pydantic_object=target)
            return parsers[target].parse(text)
        return _validate(load(text), target)

    return parse


def _instructor_loads() -> Loader:
    """instructor's MD_JSON mode: the last JSON span of the reply (`extract_json_from_codeblock`), read as JSON."""
    from instructor.utils import extract_json_from_codeblock

    return lambda text: json.loads(extract_json_from_codeblock(text))


def _instructor() -> Adapter:
    """instructor's MD_JSON mode: the last JSON span of the reply (`extract_json_from_codeblock`), then
    `model_validate_json` (here the target's `TypeAdapter.validate_json`, which is the same for models)."""
    from instructor.utils import extract_json_from_codeblock

    return lambda text, target: _adapter(target).validate_json(extract_json_from_codeblock(text))


@dataclass(frozen=True)
class System:
    """One column of the benchmark: `mode` is "strict"/"lenient" for our parser, None for peers."""

    name: str
    description: str
    requires: str | None
    factory: Callable[[Mapping[str, str] | None], Adapter]
    mode: str | None = None
    tool_text: Callable[[], Adapter] | None = None
    """A peer's adapter for the `tool_text` category (`tool_calls` around its loader); None: `factory`'s."""

    def missing(self) -> str | None:
        """Why the system cannot run here (its package is not installed), or None."""
        if self.requires is None or importlib.util.find_spec(self.requires) is not None:
            return None
        return f"{self.requires} is not installed (pip install 'resilient-parse[bench]')"

    def version(self) -> str:
        dist = {"json": None, "resilient_parse": "resilient-parse", "json_repair": "json-repair"}.get(
            self.requires or "json", self.requires
        )
        if self.requires == "langchain_core":
            dist = "langchain-core"
        if dist is None:
            return "stdlib"
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "?"

    def build(self, aliases: Mapping[str, str] | None = None, category: str | None = None) -> Adapter:
        """The adapter for one case: aliases only change our parser's adapter; a peer's `tool_text` adapter reads
        the cases of that category."""
        if category == TOOL_TEXT and self.tool_text is not None:
            return self.tool_text()
        return self.factory(aliases)


def _loader_peer(name: str, requires: str | None, loader: Callable[[], Loader]) -> System:
    """A peer that reads text into JSON data with its `loads`, then validates; on `tool_text`, `tool_calls` around
    the same loader."""
    return System(
        name,
        f"{name}.loads + Pydantic validation",
        requires,
        lambda a: _loaded(loader()),
        tool_text=lambda: tool_calls(loader()),
    )


SYSTEMS: tuple[System, ...] = (
    System("resilient_parse:strict", "ours, strict policy", "resilient_parse", lambda a: _ours("strict", a), "strict"),
    System(
        "resilient_parse:lenient", "ours, lenient policy", "resilient_parse", lambda a: _ours("lenient", a), "lenient"
    ),
    _loader_peer("json", None, _json_loads),
    _loader_peer("json_repair", "json_repair", _json_repair),
    _loader_peer("dirtyjson", "dirtyjson", _dirtyjson),
    _loader_peer("json5", "json5", _json5),
    System(
        "langchain",
        "LangChain PydanticOutputParser.parse",
        "langchain_core",
        lambda a: _langchain(),
        tool_text=lambda: tool_calls(_langchain_loads()),
    ),
    System(
        "instructor",
        "instructor MD_JSON: extract_json_from_codeblock + validate",
        "instructor",
        lambda a: _instructor(),
        tool_text=lambda: tool_calls(_instructor_loads()),
    ),
)
BY_NAME: dict[str, System] = {s.name: s for s in SYSTEMS}


def short_name(name: str) -> str:
    """A system's name in tables: `rp:` for our parser."""
    return name.replace("resilient_parse:", "rp:")


GROUPS: dict[str, tuple[str, ...]] = {"resilient_parse": ("resilient_parse:strict", "resilient_parse:lenient")}


def select(names: str | None, mode: str = "both") -> list[System]:
    """The systems named on the command line (comma-separated; "resilient_parse" means both modes), filtered to
    the requested modes of ours. Unknown names raise ValueError listing the known ones."""
    wanted: list[str] = []
    for raw in names.split(",") if names else [s.name for s in SYSTEMS]:
        name = raw.strip()
        if not name:
            continue
        expanded = GROUPS.get(name, (name,))
        for n in expanded:
            if n not in BY_NAME:
                known = ", ".join(["resilient_parse", *BY_NAME])
                raise ValueError(f"unknown system {name!r} (known: {known})")
            if n not in wanted:
                wanted.append(n)
    chosen = [BY_NAME[n] for n in wanted]
    if mode != "both":
        chosen = [s for s in chosen if s.mode in (None, mode)]
    return chosen
