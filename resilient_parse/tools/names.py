"""A tool's name, one rule on every path: the keys a call writes its name and arguments under, the name a model's
tool goes by, and the one matcher from a written name to a tool.

`match_tool` is what text envelopes, calls in text, native calls (the correction loop, LangChain, streaming) and
the toolcalls plugin's registry ask: exactly; then in another case or style (`GetWeather` for `get_weather`,
lossless); then behind a namespace prefix (`functions.get_weather`, lossy); then, where the policy allows guesses,
when the tools that were sent are known, one typo in one word (`_is_typo`: a vowel slipped, or two letters
swapped; never a consonant changed) — never onto a name that is itself a tool that was sent, never when another
sent tool is as close. When nothing says which tools were sent, no slip is read: `get_stats` may be another tool
than `get_status`, `flash_cache` than `flush_cache`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from resilient_parse.errors import AmbiguousMatchError, ErrorDetail, SchemaMismatchError
from resilient_parse.policy import Policy
from resilient_parse.repairs import Repair
from resilient_parse.schema import ModelView
from resilient_parse.schema import normalise_key as _norm

# -- the keys of a call ------------------------------------------------------------------------------------------------

TOOL_NAME_ATTRIBUTE = "__rp_tool_name__"
NAME_KEYS = ("name", "tool", "tool_name", "function", "function_name", "action", "command", "recipient_name", "type")
"""The keys a call names its tool under — the one list the envelope stage reads names by (`_named_other_tool`, the
descent through wrappers, `is_call_shaped`). `type` names a tool only beside the call's arguments (an
`ARGUMENT_KEYS` key) and when it is not an envelope's own kind (`function`, `tool_use` …, `_ENVELOPE_KINDS`);
it never makes a target call-shaped (a model with `type` and `input` fields is data, not a call)."""
CALL_NAME_KEYS = tuple(k for k in NAME_KEYS if k != "type")
"""The keys that name a call's tool on their own (what makes a model call-shaped, what a call in text is named by)."""
STRONG_NAME_KEYS = frozenset({"tool", "action", "tool_name", "function", "function_name"})
"""The name keys that name a tool and nothing else (`{"name": "Ada"}` is data; `{"tool": "search"}` is a call)."""
ARGUMENT_KEYS = (
    "arguments",
    "args",
    "parameters",
    "input",
    "action_input",
    "tool_input",
    "params",
    "kwargs",
    "inputs",
)
"""The keys a call's arguments are written under."""
TOOL_KEY_ALIASES = {
    "tool": "action",
    "tool_name": "action",
    "args": "arguments",
    "params": "arguments",
    "parameters": "arguments",
}
"""Spellings models use for a call-shaped model's fields (`action`, `arguments`): tool words, so owned here; the
core's stage registers them with its common aliases under the one plugin name `rp.common_aliases`
(`plugins.builtin_plugins` passes them in: the stages sit below this layer and cannot import it)."""
ARGUMENT_WRAPPER_KEYS = frozenset({"arguments", "args", "input", "tool_input"})
"""The call-argument keys models also wrap a plain answer in (`{"arguments": {...}}` for the model itself): tool
words, so owned here; the parser hands them to the coercion stage's unwrapping in its call context
(`tools.vocabulary`, beside `stages.coerce.shapes.WRAPPER_KEYS`), since the stages cannot import this layer."""


# -- the name a model's tool goes by -----------------------------------------------------------------------------------


def tool_name(model: ModelView) -> str:
    """The tool a target argument model belongs to (`model_tool_name`)."""
    return model_tool_name(model.cls)


def model_tool_name(cls: type) -> str:
    """The one rule for the name a model's tool goes by, on every path (tool definitions sent, calls read in text
    and in envelopes, errors sent back): the name it declares (`__rp_tool_name__`), else `model_config["title"]`,
    else its class name. A call's name is compared with it in any case or style (`how_named`)."""
    declared = getattr(cls, TOOL_NAME_ATTRIBUTE, None)
    if isinstance(declared, str) and declared:
        return declared
    config = getattr(cls, "model_config", None)
    title = config.get("title") if isinstance(config, dict) else None
    if isinstance(title, str) and title:
        return title
    return str(getattr(cls, "__name__", cls))


def same_tool(written: str, expected: str) -> bool:
    """Whether a call's tool name is the target's, in any case or style (`GetWeather`, `functions.get_weather`)."""
    return how_named(written, expected) is not None


NAMESPACE_PREFIXES = ("functions.", "function.", "tools.", "tool.", "default_api.")
"""The namespaces models write before a tool's name (`functions.get_weather`; Gemini's `default_api.`), in any
case: reading past one is a guess."""
_LONGEST_PREFIX = max(map(len, NAMESPACE_PREFIXES))


def how_named(written: str, expected: str) -> str | None:
    """How a call's tool name names the target's tool: "exact", in another case or "style" (`GetWeather` for
    `get_weather`), behind a "prefix" (`NAMESPACE_PREFIXES`); None when it names another tool. The one name rule
    of every path: text envelopes, tool calls in text, native calls and the toolcalls plugin's registry."""
    if written == expected:
        return "exact"
    if _same_style(written, expected):
        return "style"
    folded = written[:_LONGEST_PREFIX].casefold()
    prefix = next((p for p in NAMESPACE_PREFIXES if folded.startswith(p)), None)  # one namespace, never a chain
    if prefix is not None and (written[len(prefix) :] == expected or _same_style(written[len(prefix) :], expected)):
        return "prefix"
    return None


def _same_style(written: str, expected: str) -> bool:
    """The same name in another case or style. A letter outside ASCII is never an ASCII one's other case (the
    Kelvin sign `\u212a` lowercases to `k`: `\u212aill_process` is no spelling of `kill_process`)."""
    return (written.isascii() or not expected.isascii()) and _norm(written) == _norm(expected)


# -- slips of a name ---------------------------------------------------------------------------------------------------

_MAX_FUZZY_NAME = 128  # a longer "name" is not a typo of a tool name: no fuzzy matching on hostile text
_MIN_FUZZY_WORD = 5  # one edit away from a short word is another word (Get/Set, Last/List), not a typo
_SEPARATORS = re.compile(r"[\W_]+")  # what is no letter or digit of any script
_VOWELS = frozenset("aeiou")  # a slipped vowel keeps a word's consonants, which carry its meaning


def _spelling(name: str) -> str:
    """A tool name without case and separators: get_weather, GetWeather and get-weather read the same. Letters of
    any script are kept (`Get天Weather` is another name, not a variant of GetWeather)."""
    return _SEPARATORS.sub("", name.casefold())


def _words(name: str) -> list[str]:
    """A tool name's words, case-folded: split at separators (snake_case, kebab-case, spaces) and at camelCase
    boundaries (`HTTPServer` → http, server); digits stay with the letters before them (`Probe3` is one word)."""
    words: list[str] = []
    word: list[str] = []
    for position, char in enumerate(name):
        if not char.isalnum():
            if word:
                words.append("".join(word))
                word = []
            continue
        if word and char.isupper():
            before = word[-1]
            after = name[position + 1] if position + 1 < len(name) else ""
            if before.islower() or before.isdigit() or (before.isupper() and after.islower()):
                words.append("".join(word))
                word = []
        word.append(char)
    if word:
        words.append("".join(word))
    return [w.casefold() for w in words]


@dataclass(frozen=True)
class _Name:
    """A name's spelling and words, worked out once per name (not once per name compared against)."""

    spelling: str
    words: tuple[str, ...]

    @classmethod
    def of(cls, name: str) -> _Name:
        return cls(_spelling(name), tuple(_words(name)))


@functools.lru_cache(maxsize=1024)
def _tool_name_parts(name: str) -> _Name:
    """A sent or target tool name's parts (the same few names recur on every call)."""
    return _Name.of(name)


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _common_suffix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[-1 - i] == b[-1 - i]:
        i += 1
    return i


def _is_typo(said: str, meant: str) -> bool:
    """Whether `said` is `meant` with exactly one slip that keeps the word's consonants: a vowel inserted, deleted
    or substituted at or after the third letter and before the last, or two neighbouring letters swapped, never
    the first letter, never the last. Both words are ASCII letters only, `meant` at least `_MIN_FUZZY_WORD` long:
    the first letters and the last are where prefixes (un-, de-, in-, re-) and endings (-s, -ed) change the
    word's meaning, and a digit changed is another step or version (`Step1`/`Step2`), never a slip. A consonant
    changed makes another word as often as a slip (`charge`/`change`, `close`/`clone`, `remove`/`remote`,
    `unlock`/`unblock`): a model that writes one may mean another action."""
    if len(meant) < _MIN_FUZZY_WORD or not (_ascii_letters(said) and _ascii_letters(meant)):
        return False
    if said == meant or said[0] != meant[0] or said[-1] != meant[-1]:
        return False
    p, s = _common_prefix(said, meant), _common_suffix(said, meant)
    if len(said) == len(meant):
        size = len(meant)
        if p + s == size - 1:  # one letter substituted, at index p
            return 2 <= p <= size - 2 and said[p] in _VOWELS and meant[p] in _VOWELS
        if p + s == size - 2:  # two neighbouring letters swapped, at p and p + 1
            return said[p] == meant[p + 1] and said[p + 1] == meant[p] and p >= 1 and p + 1 <= size - 2
        return False
    longer, shorter = (said, meant) if len(said) > len(meant) else (meant, said)
    if len(longer) != len(shorter) + 1 or p + s < len(shorter):
        return False
    # the extra letter of `longer` can sit at any index in [len(shorter) - s, p]: one of them must be inside (they
    # are all the same letter: a run of it)
    at = max(len(shorter) - s, 2)
    return at <= min(p, len(longer) - 2) and longer[at] in _VOWELS


def _ascii_letters(word: str) -> bool:
    return word.isascii() and word.isalpha()


def _closeness(called: _Name, tool: str) -> int | None:
    """How far a called name is from a tool's name, when it can only be a slip of that name: 0 for a case or
    separator variant; 1 for a typo (`_is_typo`) in the one word that differs, every other word the same. None when
    it is another name: `SetUser` is not `GetUser` (a short word changed), `ReadFiles` not `ReadFile` (an ending),
    `Unpublish` not `Publish`, `Step2` not `Step1`; `get_wether` is `get_weather`."""
    meant = _tool_name_parts(tool)
    if called.spelling and called.spelling == meant.spelling:
        return 0
    if len(called.words) != len(meant.words):
        return None
    differ = [(a, b) for a, b in zip(called.words, meant.words, strict=True) if a != b]
    if len(differ) != 1:
        return None
    return 1 if _is_typo(*differ[0]) else None


# -- the one matcher ---------------------------------------------------------------------------------------------------


def shown_name(name: str) -> str:
    """A tool name as a message quotes it: at most `_MAX_FUZZY_NAME` characters of what the model wrote."""
    return repr(name if len(name) <= _MAX_FUZZY_NAME else name[:_MAX_FUZZY_NAME] + "…")


def wrong_tool(
    written: str, path: str, tools: Sequence[str], why: str = "which is none of the expected tools"
) -> SchemaMismatchError:
    """The refusal of a call to a tool the target does not take, naming the call and the tools it could call."""
    expected = ", ".join(repr(n) for n in tools)
    return SchemaMismatchError(
        f"wrong tool for the target: the call names {shown_name(written)}, {why}",
        [
            ErrorDetail(
                path=path,
                kind="tool_name_mismatch",
                message=f"{shown_name(written)} is not a tool here; call one of the expected tools: {expected}",
                got=written,
            )
        ],
    )


def match_tool(
    written: str, tools: Sequence[str], policy: Policy, path: str, *, sent: Collection[str] = ()
) -> tuple[str, tuple[Repair, ...]]:
    """The one of `tools` the written name names, with the repair that took (none when exact). `sent` are the
    tools the model was offered, when known: a name that is exactly another of them is that tool (a wrong tool,
    never a typo), and no slip is repaired when one of them is as close as the target's; with none known, no slip
    is (it may be another tool's real name). `SchemaMismatchError` for another tool (or a rename the policy does
    not allow), `AmbiguousMatchError` when the name is as close to two tools."""
    if written in tools:
        return written, ()
    named = [(n, how) for n in tools if (how := how_named(written, n)) is not None]
    if written in sent and not any(how == "style" and n not in sent for n, how in named):
        # (a name sent in the style of a target's tool that was not sent under its own name is that tool's)
        raise wrong_tool(written, path, tools, "another tool that was sent, not one of the target's")
    if len(named) == 1:  # another case or style is the same name (lossless); behind a prefix, a guess
        name, how = named[0]
        kind = f"tool_name_{how}"
        if not policy.allows(kind):
            raise wrong_tool(written, path, tools, f"{policy.name} mode does not read a name behind a prefix")
        note = f"tool name {shown_name(written)} read as {name!r}"
        return name, (Repair.make(kind, path, written, name, note=note),)
    if len(written) > _MAX_FUZZY_NAME:
        raise wrong_tool(written, path, tools)
    called = _Name.of(written)  # once per call, not once per tool compared against
    if not sent:  # a slip may make another tool's real name (`get_stats`/`get_status`): only the tools sent say not
        scored = [(0, n) for n in tools if _closeness(called, n) == 0]
    else:
        scored = [(d, n) for n in tools if (d := _closeness(called, n)) is not None]
    if not scored:
        raise wrong_tool(written, path, tools)
    best = min(d for d, _ in scored)
    variants = [n for d, n in scored if d == best]
    rivals = [
        n
        for n in sent
        if n not in tools
        and not any(_same_style(n, t) and t not in sent for t in tools)  # the target's tool, sent so spelt
        and (d := _closeness(called, n)) is not None
        and d <= best
    ]
    if len(variants) > 1 or rivals:
        close = [*variants, *sorted(rivals)]
        expected = ", ".join(repr(n) for n in tools)
        raise AmbiguousMatchError(
            f"the tool name {shown_name(written)} could be any of {', '.join(map(repr, close))}",
            [ErrorDetail(path=path, kind="ambiguous_tool_name", message=f"expected one of {expected}", got=written)],
        )
    name = variants[0]
    kind = "enum_value" if best == 0 else "enum_fuzzy"
    if not policy.allows(kind):
        raise SchemaMismatchError(
            f"the call names {shown_name(written)}; the tool is {name!r} ({policy.name} mode does not rename tools)",
            [
                ErrorDetail(
                    path=path, kind="tool_name_mismatch", message=f"call the tool by its name, {name!r}", got=written
                )
            ],
        )
    note = f"tool name {shown_name(written)} read as {name!r}"
    return name, (Repair.make(kind, path, written, name, confidence=0.9, note=note),)
