"""The OpenAI stream adapter against the real `openai` SDK, talking to a local server that streams SSE chunks.

The server (127.0.0.1, a free port, one thread per request) answers `POST /v1/chat/completions` with the
`chat.completion.chunk` events an OpenAI-compatible endpoint sends for `stream=True`, cut wherever the test says.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from resilient_parse import Parser
from resilient_parse.correction import ModelRefusedError
from resilient_parse.correction.openai_stream import aopenai_text_chunks, openai_text_chunks

openai = pytest.importorskip("openai", reason="the OpenAI adapter is tested with the real SDK (pip install openai)")


class Step(BaseModel):
    tool: str
    n: int


class Plan(BaseModel):
    action: Literal["search", "answer"]
    title: str
    steps: list[Step] = []


ANSWER = '{"Action": "search", "title": "weather in Oslo", "steps": [{"tool": "web", "n": 3}]}'


def chunk_event(choices: list[dict[str, Any]]) -> bytes:
    body = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "test", "choices": choices}
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def content_events(pieces: list[str], index: int = 0) -> list[dict[str, Any]]:
    return [{"index": index, "delta": {"content": p}, "finish_reason": None} for p in pieces]


class Server:
    """A chat-completions endpoint that streams `self.choices` (a list of choice lists) as SSE events."""

    def __init__(self) -> None:
        self.choices: list[list[dict[str, Any]]] = []
        self.requests: list[dict[str, Any]] = []
        self.disconnected = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                server.requests.append(json.loads(self.rfile.read(length)))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                try:
                    role = [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]
                    self.wfile.write(chunk_event(role))
                    for choices in server.choices:
                        self.wfile.write(chunk_event(choices))
                        self.wfile.flush()
                    self.wfile.write(chunk_event([{"index": 0, "delta": {}, "finish_reason": "stop"}]))
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    server.disconnected.set()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    srv.thread.start()
    try:
        yield srv
    finally:
        srv.httpd.shutdown()
        srv.httpd.server_close()
        srv.thread.join(timeout=5)


def client(server: Server) -> Any:
    return openai.OpenAI(base_url=server.url, api_key="test-key", max_retries=0, timeout=10)


def ask(server: Server) -> Any:
    return client(server).chat.completions.create(
        model="test", messages=[{"role": "user", "content": "plan"}], stream=True
    )


def test_openai_stream_feeds_partials_and_the_final_object(server: Server) -> None:
    pieces = [ANSWER[i : i + 7] for i in range(0, len(ANSWER), 7)]
    server.choices = [[c] for c in content_events(pieces)]
    updates = list(Parser().stream(openai_text_chunks(ask(server)), Plan))
    assert server.requests[0]["stream"] is True
    assert updates[-1].is_final
    assert updates[-1].value == Plan(action="search", title="weather in Oslo", steps=[Step(tool="web", n=3)])
    shown = [u.partial.model_dump() for u in updates[:-1]]
    assert any(s["action"] == "search" and s["title"] is None for s in shown)  # aligned before the end


def test_openai_text_chunks_yields_only_the_content(server: Server) -> None:
    server.choices = [[c] for c in content_events(["Here: ", ANSWER])]
    assert list(openai_text_chunks(ask(server))) == ["Here: ", ANSWER]


def test_only_the_chosen_choice_is_read(server: Server) -> None:
    other = content_events(['{"action": "answer", "title": "other"}'], index=1)
    server.choices = [[*content_events([ANSWER[:20]]), *other], content_events([ANSWER[20:]])]
    assert "".join(openai_text_chunks(ask(server))) == ANSWER
    assert "".join(openai_text_chunks(ask(server), choice=1)) == '{"action": "answer", "title": "other"}'


def test_a_streamed_refusal_raises_model_refused(server: Server) -> None:
    refusal = [{"index": 0, "delta": {"refusal": "I can't help with that."}, "finish_reason": None}]
    server.choices = [refusal]
    with pytest.raises(ModelRefusedError, match="can't help"):
        list(Parser().stream(openai_text_chunks(ask(server)), Plan))


def test_stopping_early_closes_the_response(server: Server) -> None:
    server.choices = [[c] for c in content_events([ANSWER[i : i + 5] for i in range(0, len(ANSWER), 5)])]
    response = ask(server)
    chunks = openai_text_chunks(response)
    assert next(chunks)
    chunks.close()
    assert response.response.is_closed


def test_async_openai_stream_agrees_with_sync(server: Server) -> None:
    pieces = [ANSWER[i : i + 9] for i in range(0, len(ANSWER), 9)]
    server.choices = [[c] for c in content_events(pieces)]

    async def collect() -> list[Any]:
        aclient = openai.AsyncOpenAI(base_url=server.url, api_key="test-key", max_retries=0, timeout=10)
        response = await aclient.chat.completions.create(
            model="test", messages=[{"role": "user", "content": "plan"}], stream=True
        )
        updates = [u async for u in Parser().astream(aopenai_text_chunks(response), Plan)]
        await aclient.close()
        return updates

    async_updates = asyncio.run(collect())
    sync_updates = list(Parser().stream(openai_text_chunks(ask(server)), Plan))
    assert [u.partial for u in async_updates] == [u.partial for u in sync_updates]
    assert async_updates[-1].value == sync_updates[-1].value


def test_plain_dict_chunks_work_too() -> None:
    chunks = [{"choices": [{"index": 0, "delta": {"content": ANSWER}}]}, {"choices": []}]
    assert list(openai_text_chunks(chunks)) == [ANSWER]


@pytest.mark.parametrize("odd", [5, True, 1.5, "choices", b"x", {"index": 0}])
def test_a_chunk_whose_choices_is_not_a_list_is_skipped(odd: Any) -> None:
    # a broken or hostile OpenAI-compatible server: `choices` an int, a bool, a string, an object — not a TypeError
    from resilient_parse.tool_streaming import stream_tool_calls

    text = [{"choices": odd}, {"choices": [{"index": 0, "delta": {"content": ANSWER}}]}]
    assert list(openai_text_chunks(text)) == [ANSWER]
    plan = Plan(action="search", title="weather in Oslo", steps=[Step(tool="web", n=3)])
    assert list(Parser().stream(openai_text_chunks(iter(text)), Plan))[-1].value == plan
    call = {"index": 0, "id": "c1", "function": {"name": "Step", "arguments": '{"tool": "web", "n": 3}'}}
    tools = [{"choices": odd}, {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}]
    updates = list(stream_tool_calls(Parser(), iter(tools), Step))
    assert updates[-1].value == Step(tool="web", n=3)
