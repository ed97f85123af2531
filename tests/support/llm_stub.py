"""A small OpenAI-compatible HTTP server for tests, standard library only.

It listens on 127.0.0.1 on a port the OS picks and answers
``GET /v1/models``, non-streaming ``POST /v1/chat/completions`` and
``POST /v1/embeddings`` (a deterministic vector per text, see
:func:`stub_embedding`; ``embeddings=False`` makes it answer 404). Each test
scripts it: a queue of :class:`Reply` values is consumed one per chat request,
and when the queue is empty the ``default`` (a reply, or a callable that gets
the :class:`RecordedRequest` and returns one) answers. Every request is
recorded for assertions.

Usage::

    with LLMStub() as stub:
        stub.script(Reply.json({"decision": "wait"}), Reply.error(500))
        settings = LLMSettings(base_url=stub.base_url)
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.support.http_stub import ScriptedStub, StubServer, TrackedHandler
from tests.support.schema_instance import instance_of, strict_problems

STEP_HEADER = "x-nous-step"


@dataclass(frozen=True)
class Reply:
    """One scripted answer to a chat request.

    ``content`` becomes ``choices[0].message.content`` of a 200 reply; when
    ``body`` is set it is sent verbatim instead, with ``status``.
    """

    status: int = 200
    content: str | None = None
    body: str | None = None
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, obj: Any, *, delay_s: float = 0.0) -> Reply:
        """A 200 reply whose message content is ``obj`` serialised as JSON."""
        return cls(content=json.dumps(obj), delay_s=delay_s)

    @classmethod
    def text(cls, text: str, *, delay_s: float = 0.0) -> Reply:
        """A 200 reply whose message content is ``text`` as is (e.g. broken JSON)."""
        return cls(content=text, delay_s=delay_s)

    @classmethod
    def error(
        cls,
        status: int = 500,
        body: str | dict[str, Any] | None = None,
        *,
        delay_s: float = 0.0,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        """A reply with ``status`` and ``body`` (an OpenAI-style error by default)."""
        if body is None:
            body = {"error": {"message": f"stub error {status}", "type": "stub_error"}}
        text = body if isinstance(body, str) else json.dumps(body)
        return cls(status=status, body=text, delay_s=delay_s, headers=dict(headers or {}))


@dataclass(frozen=True)
class RecordedRequest:
    """One request the stub received."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages, or ``[]`` for requests without any."""
        return list((self.body or {}).get("messages", []))

    @property
    def model(self) -> str | None:
        """The model the client asked for."""
        return (self.body or {}).get("model")

    @property
    def response_format(self) -> dict[str, Any] | None:
        """The ``response_format`` sent, if any."""
        return (self.body or {}).get("response_format")

    @property
    def format_kind(self) -> str:
        """``json_schema``, ``json_object_schema``, ``json_object`` or ``none``."""
        fmt = self.response_format
        if not isinstance(fmt, dict):
            return "none"
        if fmt.get("type") == "json_object" and "schema" in fmt:
            return "json_object_schema"
        return str(fmt.get("type"))

    @property
    def reply_schema(self) -> dict[str, Any] | None:
        """The JSON Schema the request asks the reply to fit, in whichever format carries it."""
        fmt = self.response_format or {}
        if self.format_kind == "json_schema":
            spec = fmt.get("json_schema")
            return spec.get("schema") if isinstance(spec, dict) else None
        if self.format_kind == "json_object_schema":
            schema = fmt.get("schema")
            return schema if isinstance(schema, dict) else None
        return None

    @property
    def step(self) -> str | None:
        """The step name the client sent in the ``X-Nous-Step`` header, if any."""
        return self.headers.get(STEP_HEADER)


ReplySource = Reply | Callable[[RecordedRequest], Reply]

EMBEDDING_DIMENSIONS = 64


def stub_embedding(text: str) -> list[float]:
    """The stub's vector for ``text``: hashed bag of lower-cased words, unit length.

    Deterministic, and texts sharing most of their words come out close (cosine
    near 1), so de-duplication by similarity can be tested without a model.
    """
    vector = [0.0] * EMBEDDING_DIMENSIONS
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % EMBEDDING_DIMENSIONS] += 1.0 if digest[1] % 2 else -1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


_NO_REPLY = Reply.error(500, "stub: no reply scripted")


class LLMStub(ScriptedStub[Reply, RecordedRequest]):
    """An OpenAI-compatible server on 127.0.0.1, scripted per test.

    ``healthy=False`` makes ``/v1/models`` answer 503; ``models_reply``, when
    set, is sent there instead (its ``status`` and ``body``). ``json_mode=False``
    makes chat requests carrying ``response_format: json_object`` answer 400,
    as LM Studio does.

    Formats: a ``json_schema`` request is checked as a strict server would
    (name, an object schema, with ``strict`` every property required and no
    extra ones, no ``$ref``) and refused with 400 if it fails. Each kind in
    ``refused_formats`` (see :attr:`RecordedRequest.format_kind`) is refused
    with ``refusal`` (400 by default). With ``answer_from_schema``, a request
    carrying a schema and finding no scripted reply is answered with the
    simplest instance of that schema, as a constraining server would.
    """

    def __init__(self, *, model: str = "stub-model", default: ReplySource | None = None) -> None:
        super().__init__(_Server, _Handler)
        self.model = model
        self.default: ReplySource = default if default is not None else _NO_REPLY
        self.healthy = True
        self.models_reply: Reply | None = None
        self.json_mode = True
        self.refused_formats: set[str] = set()
        self.refusal: Reply = Reply.error(400, {"error": "unsupported response_format"})
        self.answer_from_schema = False
        self.embeddings = True
        # Rewrites the vectors before they are sent: a test's malformed reply.
        self.embedding_fault: Callable[[list[list[float]]], list[list[float]]] | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        return f"{self.address()}/v1"

    # -- inspection ----------------------------------------------------------

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The chat completion requests received so far."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def embedding_requests(self) -> list[RecordedRequest]:
        """The ``/v1/embeddings`` requests received so far."""
        return [r for r in self.requests if r.path.endswith("/embeddings")]

    @property
    def model_requests(self) -> list[RecordedRequest]:
        """The ``/v1/models`` requests received so far."""
        return [r for r in self.requests if r.path.endswith("/models")]

    def reset(self) -> None:
        """Forget recorded requests and queued replies."""
        with self._lock:
            self._queue.clear()
            self._requests.clear()

    # -- called from handler threads ---------------------------------------

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        source = self.default
        return source(request) if callable(source) else source

    def _answer(self, request: RecordedRequest) -> Reply:
        with self._lock:
            scripted = bool(self._queue)
        schema = request.reply_schema
        if self.answer_from_schema and not scripted and schema is not None:
            return Reply.json(instance_of(schema))
        return self._next_reply(request)

    def _sleep(self, seconds: float) -> None:
        # An Event rather than time.sleep so stop() never waits out a slow reply.
        if seconds > 0:
            self._stopping.wait(seconds)


class _Server(StubServer):
    stub: LLMStub


class _Handler(TrackedHandler):
    server: _Server

    def do_GET(self) -> None:
        stub = self.server.stub
        stub._record(RecordedRequest("GET", self.path, self.lower_headers(), None))
        if self.path.rstrip("/") != "/v1/models":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
        elif stub.models_reply is not None:
            reply = stub.models_reply
            stub._sleep(reply.delay_s)
            self._send_raw(reply.status, (reply.body or "").encode(), reply.headers)
        elif not stub.healthy:
            self._send(503, {"error": {"message": "stub is unhealthy"}})
        else:
            created = int(time.time())
            model = {"id": stub.model, "object": "model", "created": created, "owned_by": "stub"}
            self._send(200, {"object": "list", "data": [model]})

    def do_POST(self) -> None:
        stub = self.server.stub
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = RecordedRequest("POST", self.path, self.lower_headers(), body)
        stub._record(request)
        if self.path.rstrip("/") == "/v1/embeddings":
            self._embeddings(stub, body)
            return
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send(400, {"error": {"message": "body must be JSON with messages"}})
            return
        fmt = body.get("response_format")
        if not stub.json_mode and isinstance(fmt, dict) and fmt.get("type") == "json_object":
            # LM Studio's own wording for the same refusal.
            self._send(400, {"error": "'response_format.type' must be 'json_schema' or 'text'"})
            return
        if request.format_kind in stub.refused_formats:
            refusal = stub.refusal
            self._send_raw(refusal.status, (refusal.body or "").encode(), refusal.headers)
            return
        if request.format_kind == "json_schema":
            problems = strict_problems(fmt if isinstance(fmt, dict) else {})
            if problems:
                self._send(400, {"error": {"message": "; ".join(problems)}})
                return
        reply = stub._answer(request)
        stub._sleep(reply.delay_s)
        if reply.body is not None:
            self._send_raw(reply.status, reply.body.encode(), reply.headers)
            return
        content = reply.content or ""
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body["messages"])
        completion_tokens = len(content.split())
        completion = {
            "id": f"chatcmpl-stub-{len(stub.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": stub.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        self._send(reply.status, completion, reply.headers)

    def _embeddings(self, stub: LLMStub, body: Any) -> None:
        if not stub.embeddings:
            self._send(404, {"error": {"message": "no route /v1/embeddings"}})
            return
        texts = body.get("input") if isinstance(body, dict) else None
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            self._send(400, {"error": {"message": "input must be a string or strings"}})
            return
        vectors = [stub_embedding(t) for t in texts]
        if stub.embedding_fault is not None:
            vectors = stub.embedding_fault(vectors)
        data = [
            {"object": "embedding", "index": i, "embedding": vector}
            for i, vector in enumerate(vectors)
        ]
        tokens = sum(len(t.split()) for t in texts)
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        self._send(200, {"object": "list", "data": data, "model": stub.model, "usage": usage})

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), headers or {})

    def _send_raw(self, status: int, data: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
