"""A scripted Anthropic Messages server for tests, standard library only.

The real Claude Code CLI talks to it when ``ANTHROPIC_BASE_URL`` points here.
It answers ``POST /v1/messages`` (with or without ``?beta=true``), streaming
server-sent events when the request says ``stream: true`` (``message_start``,
``content_block_start``, ``content_block_delta`` with ``text_delta`` or
``input_json_delta``, ``content_block_stop``, ``message_delta``,
``message_stop``) and a plain JSON message otherwise. Every other endpoint
the CLI may call (``count_tokens``, anything under ``/api``) gets a harmless
answer. Each test scripts the model: a queue of :class:`ModelTurn` values is
consumed one per conversation request, and when it is empty ``default``
answers (a turn, or a callable that gets the :class:`MessagesRequest`).
Requests the CLI makes on the side (a title, a quota probe: no ``tools``
in the body) are answered with ``side_reply`` and never consume the queue.
Every request is recorded.

Usage::

    with AnthropicStub() as model:
        model.script(ModelTurn.tool("Bash", {"command": "ls"}), ModelTurn.text("done"))
        env["ANTHROPIC_BASE_URL"] = model.base_url
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.support.http_stub import ScriptedStub, StubServer, TrackedHandler

_ids = itertools.count(1)


@dataclass(frozen=True)
class ModelTurn:
    """One scripted answer: content blocks (text and tool_use), or an HTTP error."""

    blocks: tuple[dict[str, Any], ...] = ()
    status: int = 200
    error_body: dict[str, Any] | None = None

    @classmethod
    def text(cls, text: str) -> ModelTurn:
        """The model answers ``text`` and ends its turn."""
        return cls(blocks=({"type": "text", "text": text},))

    @classmethod
    def tool(cls, name: str, tool_input: dict[str, Any], *, say: str = "") -> ModelTurn:
        """The model calls tool ``name`` with ``tool_input`` (after saying ``say``, if any)."""
        use = {
            "type": "tool_use",
            "id": f"toolu_stub{next(_ids):06d}",
            "name": name,
            "input": tool_input,
        }
        return cls(blocks=(({"type": "text", "text": say},) if say else ()) + (use,))

    @classmethod
    def error(cls, status: int = 500, message: str = "stub error") -> ModelTurn:
        """An Anthropic-style error reply."""
        body = {"type": "error", "error": {"type": "api_error", "message": message}}
        return cls(status=status, error_body=body)

    @property
    def stop_reason(self) -> str:
        """``tool_use`` when the turn calls a tool, else ``end_turn``."""
        return "tool_use" if any(b["type"] == "tool_use" for b in self.blocks) else "end_turn"


@dataclass
class MessagesRequest:
    """One request the server received: method, path, lower-cased headers, JSON body."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def is_conversation(self) -> bool:
        """A ``/v1/messages`` request carrying tools: a step of the agent's conversation."""
        return (
            self.path.split("?")[0].rstrip("/") == "/v1/messages"
            and isinstance(self.body, dict)
            and bool(self.body.get("tools"))
        )

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The request's ``messages``."""
        found = self.body.get("messages") if isinstance(self.body, dict) else None
        return list(found) if isinstance(found, list) else []

    @property
    def tool_names(self) -> list[str]:
        """The names of the tools offered to the model."""
        tools = self.body.get("tools") if isinstance(self.body, dict) else None
        return [str(t.get("name")) for t in tools or [] if isinstance(t, dict)]

    def text(self) -> str:
        """Everything the model was shown, system prompt and messages, as one string."""
        return json.dumps({"system": self.body.get("system"), "messages": self.messages})

    def tool_results(self) -> list[dict[str, Any]]:
        """Every ``tool_result`` block the request carries, oldest first."""
        found: list[dict[str, Any]] = []
        for message in self.messages:
            content = message.get("content")
            if isinstance(content, list):
                found += [
                    b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"
                ]
        return found


TurnSource = ModelTurn | Callable[[MessagesRequest], ModelTurn]


class AnthropicStub(ScriptedStub[ModelTurn, MessagesRequest]):
    """An Anthropic Messages server on 127.0.0.1, scripted per test (:meth:`script` its turns)."""

    def __init__(self, *, model: str = "claude-stub", default: TurnSource | None = None) -> None:
        super().__init__(_Server, _Handler)
        self.model = model
        self.default: TurnSource = default if default is not None else ModelTurn.text("Done.")
        self.side_reply = ModelTurn.text("Nous session")

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (the CLI appends ``/v1/messages``)."""
        return self.address()

    @property
    def conversation(self) -> list[MessagesRequest]:
        """The conversation requests so far (see :attr:`MessagesRequest.is_conversation`)."""
        return [r for r in self.requests if r.is_conversation]

    def _answer(self, request: MessagesRequest) -> ModelTurn:
        if not request.is_conversation:
            return self.side_reply
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        source = self.default
        return source(request) if callable(source) else source


class _Server(StubServer):
    stub: AnthropicStub


def _message(stub: AnthropicStub, turn: ModelTurn, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": f"msg_stub{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": str(body.get("model") or stub.model),
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": len(json.dumps(body)) // 4, "output_tokens": 1},
    }


def _events(stub: AnthropicStub, turn: ModelTurn, body: dict[str, Any]) -> list[tuple[str, Any]]:
    """The server-sent events of one streamed answer, in the order the API sends them."""
    events: list[tuple[str, Any]] = [
        ("message_start", {"type": "message_start", "message": _message(stub, turn, body)})
    ]
    for index, block in enumerate(turn.blocks):
        if block["type"] == "text":
            start: dict[str, Any] = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": turn.stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 10},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


class _Handler(TrackedHandler):
    server: _Server

    def do_GET(self) -> None:
        self.server.stub._record(MessagesRequest("GET", self.path, self.lower_headers(), None))
        self._send(200, {"data": [], "has_more": False})

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        stub = self.server.stub
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = MessagesRequest("POST", self.path, self.lower_headers(), body)
        stub._record(request)
        route = self.path.split("?")[0].rstrip("/")
        if route == "/v1/messages/count_tokens":
            self._send(200, {"input_tokens": len(raw) // 4})
            return
        if route != "/v1/messages":
            self._send(200, {})
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send(400, {"type": "error", "error": {"type": "invalid_request_error"}})
            return
        turn = stub._answer(request)
        if turn.error_body is not None:
            self._send(turn.status, turn.error_body)
            return
        if not body.get("stream"):
            message = _message(stub, turn, body)
            message.update(content=list(turn.blocks), stop_reason=turn.stop_reason)
            self._send(200, message)
            return
        data = "".join(
            f"event: {name}\ndata: {json.dumps(payload)}\n\n"
            for name, payload in _events(stub, turn, body)
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
