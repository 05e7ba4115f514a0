"""A reply that refuses beside its tool call is a refusal, never the call (H10): one table of the text a model writes
beside a `Transfer` call — a refusal, a retraction or a question back refuses it; an apology alone, hedging, or
prose that describes the call does not — run against every path that reads tool calls: `correct()` (a plain
function, the OpenAI, Anthropic and LangChain adapters, through the real SDKs and a local server), streamed calls
(`stream_tool_calls`, `astream_tool_calls`, through the real OpenAI SDK's SSE stream), the LangChain output parser
(invoke and stream) and text envelopes (an OpenAI message or chat completion, an Anthropic message). The providers'
own refusal signals (OpenAI's message `refusal`, Anthropic's `stop_reason: "refusal"`) beside a call are a second
table, on the same paths. Every path asks one reader, `tools.envelopes.refusal_beside_calls`, which is also run
against the table, so a row can only fail everywhere or nowhere.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fixtures.fake_openai_server import FakeLLMServer, Reply, call, tool_calls
from fixtures.sse_tool_server import SSEToolServer, tool_call_stream
from pydantic import BaseModel

from resilient_parse import ParseError, Parser, RefusalError, parse
from resilient_parse.correction import Completion, ModelRefusedError, ToolCall, correct
from resilient_parse.llm.tool_defs import openai_tools
from resilient_parse.tools.envelopes import refusal_beside_calls


class Transfer(BaseModel):
    """Transfer money to someone."""

    to: str
    amount: float


ARGS = '{"to": "mallory", "amount": 5000}'
PAID = Transfer(to="mallory", amount=5000)
ASK = [{"role": "user", "content": "Send mallory 5000."}]


@dataclass(frozen=True)
class Row:
    language: str
    text: str  # what the reply says beside its call
    refuses: bool


ROWS = [
    # English
    Row("en", "I'm sorry, I can't help with transferring money.", True),
    Row("en", "I'm sorry, but I can't send that much money.", True),  # an apology, then a first-person "can't"
    Row("en", "I can't see your balance, so I'll send it now.", False),  # a limitation, not a refusal
    Row("en", "I must decline this request.", True),
    Row("en", "Just kidding, ignore that.", True),  # a retraction
    Row("en", "Should I go ahead with the transfer?", True),  # a question back
    Row("en", "Sure, I'll look that up.", False),
    Row("en", "Sorry for the wait — sending the transfer now.", False),  # an apology alone
    Row("en", "I think this is the transfer you want.", False),  # hedging
    Row("en", "<think>Should I refuse? I can't help with this... no, it's fine.</think>Sending it now.", False),
    # Chinese
    Row("zh", "抱歉，我无法帮你转账。", True),
    Row("zh", "算了吧，不转了。", True),
    Row("zh", "要不要我帮你转账？", True),
    Row("zh", "好的，我来帮你转账。", False),
    Row("zh", "抱歉让你久等了，我现在就转账。", False),
    # Spanish
    Row("es", "Lo siento, no puedo ayudarte con transferencias de dinero.", True),
    Row("es", "¿Quieres que haga la transferencia?", True),
    Row("es", "Claro, voy a transferir 5000 a mallory.", False),
    Row("es", "Lo siento por la espera, ya hago la transferencia.", False),
    # German
    Row("de", "Es tut mir leid, aber dabei kann ich dir nicht helfen.", True),
    Row("de", "Vergiss es.", True),
    Row("de", "Soll ich das Geld überweisen?", True),
    Row("de", "Klar, ich überweise das Geld jetzt an Mallory.", False),
    # Japanese
    Row("ja", "申し訳ありませんが、送金のお手伝いはできません。", True),
    Row("ja", "送金しましょうか？", True),
    Row("ja", "承知しました。マロリーさんに5000ドルを送金します。", False),
    Row("ja", "お待たせしてすみません。今から送金します。", False),
    # French, Korean, Russian, Portuguese, Italian
    Row("fr", "Désolé, je ne peux pas vous aider avec ce virement.", True),
    Row("fr", "Bien sûr, je lance le virement.", False),
    Row("ko", "죄송하지만 송금은 도와드릴 수 없습니다.", True),
    Row("ko", "네, 말로리에게 송금하겠습니다.", False),
    Row("ru", "Извините, я не могу помочь с переводом денег.", True),
    Row("ru", "Конечно, перевожу 5000 на счёт mallory.", False),
    Row("pt", "Desculpe, não posso ajudar com transferências.", True),
    Row("pt", "Certo, vou fazer a transferência.", False),
    Row("it", "Mi dispiace, non posso aiutarti con i bonifici.", True),
    Row("it", "Certo, eseguo il bonifico.", False),
]


def _pieces(text: str, size: int = 5) -> list[str]:
    """The text cut as a stream cuts it: mid-word, mid-character-run."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


# -- the paths ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Servers:
    """The local servers the SDK paths talk to, started once for the module (each answers what a test scripts)."""

    llm: FakeLLMServer
    sse: SSEToolServer


@pytest.fixture(scope="module")
def servers() -> Iterator[Servers]:
    with FakeLLMServer([]) as llm, SSEToolServer([]) as sse:
        yield Servers(llm, sse)


def _answering(server: FakeLLMServer, reply: Reply, ask: Callable[[], Any]) -> Any:
    """Run a `correct()` against `server` answering `reply`, checking it asked exactly once (no re-ask)."""
    server.script[:] = [reply]
    before = len(server.received)
    try:
        return ask()
    finally:
        assert len(server.received) == before + 1


@dataclass(frozen=True)
class Path:
    name: str
    run: Callable[[str, Servers], Any]  # the text beside the call → what the path returns
    loop: bool = False  # a `correct()` path: a refusal ends it as `ModelRefusedError`, after one call


def _function(text: str, servers: Servers) -> Any:
    calls: list[Any] = []

    def llm(messages: Any) -> Completion:
        calls.append(messages)
        return Completion(text=text, tool_calls=(ToolCall("Transfer", ARGS, id="c1"),))

    value = correct(llm, ASK, Transfer, max_corrections=2)
    assert len(calls) == 1
    return value


def _correct_openai(server: FakeLLMServer, reply: Reply) -> Any:
    openai = pytest.importorskip("openai")
    from resilient_parse.correction import OpenAIAdapter

    client = openai.OpenAI(base_url=server.openai_url, api_key="k", max_retries=0, timeout=10)
    llm = OpenAIAdapter(client, model="gpt-test", tools=[Transfer])
    return _answering(server, reply, lambda: correct(llm, ASK, Transfer, max_corrections=2))


def _correct_anthropic(server: FakeLLMServer, reply: Reply) -> Any:
    anthropic = pytest.importorskip("anthropic")
    from resilient_parse.correction import AnthropicAdapter

    client = anthropic.Anthropic(base_url=server.base_url, api_key="k", max_retries=0, timeout=10)
    llm = AnthropicAdapter(client, model="claude-test", tools=[Transfer])
    return _answering(server, reply, lambda: correct(llm, ASK, Transfer, max_corrections=2))


def _openai(text: str, servers: Servers) -> Any:
    return _correct_openai(servers.llm, tool_calls(call("Transfer", ARGS), text=text))


def _anthropic(text: str, servers: Servers) -> Any:
    return _correct_anthropic(servers.llm, tool_calls(call("Transfer", ARGS), text=text))


def _lc_call() -> dict[str, Any]:
    return {"name": "Transfer", "args": json.loads(ARGS), "id": "c1", "type": "tool_call"}


def _langchain_adapter(text: str, servers: Servers) -> Any:
    pytest.importorskip("langchain_core")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from resilient_parse.integrations.langchain import ChatModelAdapter

    model = GenericFakeChatModel(messages=iter([AIMessage(content=text, tool_calls=[_lc_call()])]))
    return correct(ChatModelAdapter(model), ASK, Transfer, max_corrections=0)


def _stream(server: SSEToolServer, script: list[dict[str, Any]]) -> Any:
    openai = pytest.importorskip("openai")
    from resilient_parse.tool_streaming import stream_tool_calls

    server.script[:] = [script]
    client = openai.OpenAI(base_url=server.openai_url, api_key="k", max_retries=0)
    response = client.chat.completions.create(model="m", messages=ASK, tools=openai_tools([Transfer]), stream=True)
    return list(stream_tool_calls(Parser(), response, Transfer))[-1].value


def _streamed(text: str, servers: Servers) -> Any:
    return _stream(servers.sse, tool_call_stream([("Transfer", [ARGS[:11], ARGS[11:]])], text=_pieces(text)))


def _astreamed(text: str, servers: Servers) -> Any:
    openai = pytest.importorskip("openai")
    from resilient_parse.tool_streaming import astream_tool_calls

    async def run(url: str) -> Any:
        client = openai.AsyncOpenAI(base_url=url, api_key="k", max_retries=0)
        try:
            response = await client.chat.completions.create(
                model="m", messages=ASK, tools=openai_tools([Transfer]), stream=True
            )
            return [u async for u in astream_tool_calls(Parser(), response, Transfer)][-1].value
        finally:
            await client.close()

    servers.sse.script[:] = [tool_call_stream([("Transfer", [ARGS])], text=_pieces(text, 3))]
    return asyncio.run(run(servers.sse.openai_url))


def _langchain_invoke(text: str, servers: Servers) -> Any:
    pytest.importorskip("langchain_core")
    from langchain_core.messages import AIMessage

    from resilient_parse.integrations.langchain import ResilientOutputParser

    return ResilientOutputParser(target=Transfer).invoke(AIMessage(content=text, tool_calls=[_lc_call()]))


def _langchain_stream(text: str, servers: Servers) -> Any:
    pytest.importorskip("langchain_core")
    from langchain_core.messages import AIMessageChunk

    from resilient_parse.integrations.langchain import ResilientOutputParser

    chunks = [AIMessageChunk(content=piece) for piece in _pieces(text)]
    chunks += [
        AIMessageChunk(content="", tool_call_chunks=[{"name": "Transfer", "args": ARGS[:9], "id": "c1", "index": 0}]),
        AIMessageChunk(content="", tool_call_chunks=[{"name": None, "args": ARGS[9:], "id": None, "index": 0}]),
    ]
    return list(ResilientOutputParser(target=Transfer).transform(iter(chunks)))[-1]


def _openai_call() -> dict[str, Any]:
    return {"id": "c1", "type": "function", "function": {"name": "Transfer", "arguments": ARGS}}


def _tool_use() -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_1", "name": "Transfer", "input": json.loads(ARGS)}


def _envelope_message(text: str, servers: Servers) -> Any:
    message = {"role": "assistant", "content": text, "tool_calls": [_openai_call()]}
    return parse(json.dumps(message, ensure_ascii=False), Transfer, mode="lenient")


def _envelope_completion(text: str, servers: Servers) -> Any:
    message = {"role": "assistant", "content": text, "refusal": None, "tool_calls": [_openai_call()]}
    body = {"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
    return parse(json.dumps(body, ensure_ascii=False), Transfer, mode="lenient")


def _envelope_anthropic(text: str, servers: Servers) -> Any:
    content = [{"type": "text", "text": text}, _tool_use()]
    message = {"type": "message", "role": "assistant", "content": content, "stop_reason": "tool_use"}
    return parse(json.dumps(message, ensure_ascii=False), Transfer, mode="lenient")


PATHS = [
    Path("correct: a function", _function, loop=True),
    Path("correct: OpenAI SDK", _openai, loop=True),
    Path("correct: Anthropic SDK", _anthropic, loop=True),
    Path("correct: LangChain chat model", _langchain_adapter, loop=True),
    Path("stream_tool_calls", _streamed),
    Path("astream_tool_calls", _astreamed),
    Path("LangChain parser: invoke", _langchain_invoke),
    Path("LangChain parser: stream", _langchain_stream),
    Path("envelope: OpenAI message", _envelope_message),
    Path("envelope: chat completion", _envelope_completion),
    Path("envelope: Anthropic message", _envelope_anthropic),
]


def _refused(loop: bool, run: Callable[[], Any]) -> ParseError:
    """The refusal a path raised: `RefusalError`, or — a `correct()` path — `ModelRefusedError` after one call,
    whose last attempt is a refusal."""
    with pytest.raises((RefusalError, ModelRefusedError)) as info:
        run()
    error = info.value
    if loop:
        assert isinstance(error, ModelRefusedError) and error.stop_reason == "refused"
        assert [a.error_kind for a in error.attempts] in (["refusal"], ["model_refused"])
    else:
        assert isinstance(error, RefusalError), type(error)
        assert error.kind == "refusal"
    return error


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.language}:{r.text[:40]}" for r in ROWS])
def test_the_one_reader_reads_the_row(row: Row) -> None:
    assert (refusal_beside_calls(row.text) is not None) is row.refuses


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.language}:{r.text[:40]}" for r in ROWS])
@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_text_beside_a_call_refuses_it_or_not_on_every_path(path: Path, row: Row, servers: Servers) -> None:
    if row.refuses:
        _refused(path.loop, lambda: path.run(row.text, servers))
    else:
        assert path.run(row.text, servers) == PAID


def test_a_strict_envelope_that_refuses_is_a_refusal_too() -> None:
    message = {"role": "assistant", "content": "抱歉，我无法帮你转账。", "tool_calls": [_openai_call()]}
    with pytest.raises(RefusalError):
        parse(json.dumps(message, ensure_ascii=False), Transfer, mode="strict")


def test_a_refusal_beside_a_broken_call_is_a_refusal_not_a_call_to_repair() -> None:
    """The refusal is read before the call: the model is not asked to fix arguments it declined to give."""
    replies = [Completion(text="I'm sorry, I can't help with that.", tool_calls=(ToolCall("Transfer", "{'to': "),))]
    with pytest.raises(ModelRefusedError) as info:
        correct(lambda m: replies.pop(0), ASK, Transfer, max_corrections=2)
    assert [a.error_kind for a in info.value.attempts] == ["refusal"]


# -- the providers' own refusal signals ---------------------------------------------------------------------------

SAID = "I can't help with that."


def _signal_function(servers: Servers) -> Any:
    reply = Completion(text="", refusal=SAID, tool_calls=(ToolCall("Transfer", ARGS, id="c1"),))
    return correct(lambda m: reply, ASK, Transfer, max_corrections=2)


def _signal_openai(servers: Servers) -> Any:
    return _correct_openai(
        servers.llm, Reply(refusal=SAID, calls=(call("Transfer", ARGS),), finish_reason="tool_calls")
    )


def _signal_anthropic(servers: Servers) -> Any:
    # the server answers a scripted refusal with `stop_reason: "refusal"` beside the tool_use block
    return _correct_anthropic(servers.llm, Reply(refusal=SAID, calls=(call("Transfer", ARGS),)))


def _lc_message(**fields: Any) -> Any:
    pytest.importorskip("langchain_core")
    from langchain_core.messages import AIMessage

    return AIMessage(tool_calls=[_lc_call()], **{"content": "", **fields})


def _signal_langchain_adapter(**fields: Any) -> Callable[[Servers], Any]:
    def run(servers: Servers) -> Any:
        from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

        from resilient_parse.integrations.langchain import ChatModelAdapter

        model = GenericFakeChatModel(messages=iter([_lc_message(**fields)]))
        return correct(ChatModelAdapter(model), ASK, Transfer, max_corrections=2)

    return run


def _signal_langchain_invoke(**fields: Any) -> Callable[[Servers], Any]:
    def run(servers: Servers) -> Any:
        from resilient_parse.integrations.langchain import ResilientOutputParser

        return ResilientOutputParser(target=Transfer).invoke(_lc_message(**fields))

    return run


def _signal_langchain_stream(servers: Servers) -> Any:
    pytest.importorskip("langchain_core")
    from langchain_core.messages import AIMessageChunk

    from resilient_parse.integrations.langchain import ResilientOutputParser

    chunks = [
        AIMessageChunk(content="", additional_kwargs={"refusal": SAID[:7]}),
        AIMessageChunk(content="", additional_kwargs={"refusal": SAID[7:]}),
        AIMessageChunk(content="", tool_call_chunks=[{"name": "Transfer", "args": ARGS, "id": "c1", "index": 0}]),
    ]
    return list(ResilientOutputParser(target=Transfer).transform(iter(chunks)))[-1]


def _signal_streamed(servers: Servers) -> Any:
    script = tool_call_stream([("Transfer", [ARGS])])
    refusing = {**script[0], "choices": [{"index": 0, "delta": {"refusal": SAID}, "finish_reason": None}]}
    return _stream(servers.sse, [script[0], refusing, *script[1:]])


def _signal_envelope(envelope: dict[str, Any]) -> Callable[[Servers], Any]:
    def run(servers: Servers) -> Any:
        return parse(json.dumps(envelope), Transfer, mode="lenient")

    return run


_OPENAI_REFUSING = {"role": "assistant", "content": None, "refusal": SAID, "tool_calls": [_openai_call()]}
_ANTHROPIC_REFUSING = {"type": "message", "role": "assistant", "content": [_tool_use()], "stop_reason": "refusal"}


@dataclass(frozen=True)
class Signal:
    name: str
    run: Callable[[Servers], Any]  # a reply making the call, with the provider's refusal signal beside it
    loop: bool = False


SIGNALS = [
    Signal("correct: a function, Completion.refusal", _signal_function, loop=True),
    Signal("correct: OpenAI SDK, message.refusal", _signal_openai, loop=True),
    Signal("correct: Anthropic SDK, stop_reason refusal", _signal_anthropic, loop=True),
    Signal(
        "correct: LangChain chat model, additional_kwargs refusal",
        _signal_langchain_adapter(additional_kwargs={"refusal": SAID}),
        loop=True,
    ),
    Signal(
        "correct: LangChain chat model, stop_reason refusal",
        _signal_langchain_adapter(response_metadata={"stop_reason": "refusal"}),
        loop=True,
    ),
    Signal(
        "LangChain parser: invoke, additional_kwargs refusal",
        _signal_langchain_invoke(additional_kwargs={"refusal": SAID}),
    ),
    Signal(
        "LangChain parser: invoke, refusal content block",
        _signal_langchain_invoke(content=[{"type": "refusal", "refusal": SAID}]),
    ),
    Signal(
        "LangChain parser: invoke, stop_reason refusal",
        _signal_langchain_invoke(response_metadata={"stop_reason": "refusal"}),
    ),
    Signal("LangChain parser: stream, refusal pieces", _signal_langchain_stream),
    Signal("envelope: OpenAI message.refusal", _signal_envelope(_OPENAI_REFUSING)),
    Signal(
        "envelope: chat completion message.refusal",
        _signal_envelope({"object": "chat.completion", "choices": [{"index": 0, "message": _OPENAI_REFUSING}]}),
    ),
    Signal("envelope: Anthropic stop_reason refusal", _signal_envelope(_ANTHROPIC_REFUSING)),
    Signal(
        "envelope: Responses API refusal part",
        _signal_envelope(
            {
                "object": "response",
                "output": [
                    {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": SAID}]},
                    {"type": "function_call", "call_id": "c1", "name": "Transfer", "arguments": ARGS},
                ],
            }
        ),
    ),
]


@pytest.mark.parametrize("signal", SIGNALS, ids=[s.name for s in SIGNALS])
def test_the_providers_refusal_signal_beside_a_call_refuses_it(signal: Signal, servers: Servers) -> None:
    _refused(signal.loop, lambda: signal.run(servers))


def test_a_streamed_refusal_delta_beside_a_call_is_the_streams_model_refusal(servers: Servers) -> None:
    """OpenAI's `delta.refusal` is read by the stream reader itself, with or without calls: `ModelRefusedError`."""
    with pytest.raises(ModelRefusedError, match="can't help"):
        _signal_streamed(servers)


def test_no_signal_is_no_refusal(servers: Servers) -> None:
    """`refusal: null`, an empty refusal, another stop reason: the call stands."""
    quiet = {"role": "assistant", "content": "", "refusal": "", "tool_calls": [_openai_call()]}
    assert parse(json.dumps(quiet), Transfer, mode="lenient") == PAID
    done = {"type": "message", "role": "assistant", "content": [_tool_use()], "stop_reason": "tool_use"}
    assert parse(json.dumps(done), Transfer, mode="lenient") == PAID
    assert _signal_langchain_invoke(additional_kwargs={"refusal": None})(servers) == PAID
    assert refusal_beside_calls("", None) is None and refusal_beside_calls("   ", "") is None
