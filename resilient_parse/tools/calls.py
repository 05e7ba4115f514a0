"""A tool call, in the two forms the library holds one: `ToolCall`, a call a model made as a provider hands it over
(its name and its argument text exactly as written, the provider's id), and `RawCall`, a call found in a text or a
JSON value before it is matched to a tool (where and in which format it was written, and what it took to read).
Every path that reads calls holds them as one of these two: native calls, the LangChain parser and streamed calls
as `ToolCall`; the text formats, provider envelopes written as JSON and the toolcalls plugin as `RawCall`.
"""

from __future__ import annotations

import json
import typing
from dataclasses import dataclass, field
from typing import Any

from resilient_parse.context import ANSWER
from resilient_parse.errors import ConfigurationError, ErrorDetail, UnrecoverableSyntaxError
from resilient_parse.repairs import Repair
from resilient_parse.tools.names import shown_name


@dataclass(frozen=True)
class ToolCall:
    """One call the model made: the tool's name and its argument text exactly as the model wrote it.

    `arguments` is OpenAI's `function.arguments` as sent (possibly broken JSON); an already-decoded object
    (Anthropic's `tool_use.input`, LangChain's `args`) is kept as its JSON text (`ToolCall.decoded`). `id` is the
    provider's call id (needed to answer the call); `index` the call's position in the reply; `kind` "custom" for
    an OpenAI custom (free-form) tool's call, whose `custom.input` text is the arguments and which a re-ask
    replays as a custom call.
    """

    name: str
    arguments: str
    id: str | None = None
    index: int = 0
    kind: typing.Literal["function", "custom"] = "function"  # "custom": an OpenAI free-form tool's call

    def __post_init__(self) -> None:
        if self.kind not in ("function", "custom"):
            raise ConfigurationError(f"ToolCall.kind must be 'function' or 'custom', not {self.kind!r}")
        if not isinstance(self.name, str):
            raise ConfigurationError(f"ToolCall.name must be a str, not {type(self.name).__name__}")
        if not isinstance(self.arguments, str):
            raise ConfigurationError(
                f"ToolCall.arguments must be the argument text (a str), not {type(self.arguments).__name__}; "
                "use ToolCall.decoded(name, obj) for an already-decoded object"
            )
        if self.id is not None and not isinstance(self.id, str):
            raise ConfigurationError(f"ToolCall.id must be a str or None, not {type(self.id).__name__}")
        if not isinstance(self.index, int) or isinstance(self.index, bool) or self.index < 0:
            raise ConfigurationError(f"ToolCall.index must be an int >= 0, not {self.index!r}")

    @classmethod
    def decoded(cls, name: str, arguments: Any, *, id: str | None = None, index: int = 0) -> ToolCall:
        """A call whose arguments the SDK already decoded (Anthropic's `tool_use.input`, LangChain's `args`): kept as
        their JSON text. Whatever was decoded is encoded back as it is — a str is a JSON string, not argument text,
        so a double-encoded input meets the same refusal as OpenAI's double encoding; argument text as the model
        wrote it is `ToolCall(name, text)`. `UnrecoverableSyntaxError` (kind too_deep) when the arguments nest too
        deeply to write."""
        try:
            text = json.dumps(arguments, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise ConfigurationError(f"the arguments of tool call {name!r} are not JSON data: {exc}") from exc
        except RecursionError:  # nested deeper than JSON text can be written: refused as the same text would be
            raise UnrecoverableSyntaxError(
                f"the arguments of tool call {shown_name(name)} are nested too deeply to read",
                [ErrorDetail(path="", kind="too_deep", message="the decoded arguments nest too deeply")],
            ) from None
        return cls(name=name, arguments=text, id=id, index=index)

    @property
    def call_id(self) -> str:
        """The id to answer the call with: the provider's, or one made from the index when it gave none."""
        return self.id or f"call_{self.index}"


@dataclass(frozen=True)
class RawCall:
    """A call as written: the name and arguments before they are matched to a tool, where it was found (and in
    which region: "answer", or "reasoning"/"reasoning_cut" for a draft; what the words before it call it, as the
    core labels candidates: "example", "designated" …), and the repairs it took to read it.
    `arguments` is a dict, a string (JSON or not), or None (none given). `error` says why the call cannot be read;
    `opaque` marks an unreadable call in a form only this module reads (a ReAct line, a Python call), which no
    JSON candidate stands for; `ambiguous` names the tools of two readings the text leaves open; `envelope` is
    the JSON value it was read from (a provider's message or completion says more beside its calls)."""

    name: Any
    arguments: Any
    format: str
    id: str | None = None
    offset: int = 0
    repairs: tuple[Repair, ...] = ()
    error: str | None = None
    region: str = ANSWER
    label: str = ""
    opaque: bool = False
    ambiguous: tuple[str, ...] = ()
    envelope: Any = field(default=None, compare=False, repr=False)  # the JSON value the call was read from
    named_by: str = ""  # the key a plain JSON call names its tool under ("name", "action" …)
    where: str = ""  # the call's JSON path inside the envelope it was read from (`/tool_calls/0`)
