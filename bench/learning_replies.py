"""A kept learning run's model replies, so the run can go on with another Neo4j.

With the model, the learning run takes longer than a machine may live: Nous's
memory stays in Neo4j between sittings, and a new machine (or a wiped store)
does not have it. So every request Nous's run sends goes through a
:class:`RecordingProxy` that forwards it to the model and appends the reply to
``DIR/replies.jsonl``, tagged with the observation it belongs to. When the
Neo4j a sitting starts on does not hold Nous's agent, :mod:`bench.learning`
rebuilds it: the run's first observations are decided again against a
:class:`ReplayServer` that answers each request with the reply recorded for it
(the same observation, path and ``X-Nous-Step``, in order), and each
observation must come out as it was tallied. The rebuilt memory holds the same
observations, decisions, outcomes, patterns, censors and lessons; its times are
the rebuild's. The baseline is memoryless and needs no replies.
"""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from collections import defaultdict, deque
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPLIES_FILE = "replies.jsonl"
STEP_HEADER = "X-Nous-Step"
# Longer than any request timeout the bench gives the client: the client gives up first.
UPSTREAM_TIMEOUT_S = 7200.0


@dataclass(frozen=True, slots=True)
class Recorded:
    """One reply the model gave: to which observation, request path and step."""

    observation: int
    method: str
    path: str
    step: str
    status: int
    body: str


def load(path: Path, observations: int) -> list[Recorded]:
    """The replies in ``path`` for the first ``observations`` observations (0-based below it).

    Replies of a later observation are left out: it was not tallied (a sitting
    stopped in the middle of it), so it is decided afresh. Raises ``ValueError``
    naming the file and line when a line is not a recorded reply.
    """
    if not path.exists():
        return []
    kept = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            recorded = Recorded(**json.loads(line))
            if not isinstance(recorded.observation, int) or not isinstance(recorded.body, str):
                raise TypeError("observation must be a number and body a string")
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a recorded reply ({exc})") from exc
        if recorded.observation < observations:
            kept.append(recorded)
    return kept


def trim(path: Path, observations: int) -> None:
    """Drop from ``path`` the replies of observations from ``observations`` on.

    A sitting stopped in the middle of an observation recorded replies that no
    tally owns; deciding it again would record a second set for it.
    """
    kept = load(path, observations)
    if path.exists() and len(kept) != len(path.read_text(encoding="utf-8").splitlines()):
        fresh = path.with_name(path.name + ".new")
        fresh.write_text("".join(json.dumps(asdict(r)) + "\n" for r in kept), encoding="utf-8")
        os.replace(fresh, path)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.observation = 0  # the observation being decided; the bench sets it
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (``.../v1``) to point Nous's settings at."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def close(self) -> None:
        """Stop serving and release the port."""
        self.shutdown()
        self.server_close()
        self.thread.join(timeout=5)


class _Handler(BaseHTTPRequestHandler):
    server: Any

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the bench prints its own progress

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def reply(self, status: int, body: bytes) -> None:
        """Send ``body`` (JSON) with ``status``."""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.server.answer(self, "GET", b"")

    def do_POST(self) -> None:
        self.server.answer(self, "POST", self._body())


class RecordingProxy(_Server):
    """Forwards every request to ``upstream`` and appends each reply to ``log``."""

    def __init__(self, upstream: str, log: Path) -> None:
        self.upstream = upstream.rstrip("/")
        self.log = log
        self._lock = threading.Lock()
        super().__init__(_Handler)

    def answer(self, handler: _Handler, method: str, body: bytes) -> None:
        """Forward one request; record the reply once the client has it."""
        observation = self.observation
        # The client's paths start with /v1 (its base URL's); upstream's base URL has it too.
        path = handler.path.removeprefix("/v1")
        headers = {"Content-Type": "application/json"}
        for name in ("Authorization", STEP_HEADER):
            if handler.headers.get(name):
                headers[name] = handler.headers[name]
        request = urllib.request.Request(
            self.upstream + path, data=body or None, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=UPSTREAM_TIMEOUT_S) as reply:
                status, text = reply.status, reply.read()
        except urllib.error.HTTPError as exc:
            status, text = exc.code, exc.read()
        except OSError as exc:
            # The model is down: the client sees a failed gateway, as it would a refused
            # connection, and falls back as it would. Recorded, so a rebuild does the same.
            status, text = 502, json.dumps({"error": {"message": str(exc)}}).encode()
        try:
            handler.reply(status, text)
        except OSError:
            return  # the client gave up (its timeout): it never saw this reply
        recorded = Recorded(
            observation=observation,
            method=method,
            path=path,
            step=handler.headers.get(STEP_HEADER, ""),
            status=status,
            body=text.decode("utf-8", errors="replace"),
        )
        with self._lock, self.log.open("a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(recorded)) + "\n")


class ReplayServer(_Server):
    """Answers each request with the reply recorded for it, in order.

    A request is matched to the first unused reply of the same observation,
    method, path and step. One with none left is answered 500 and counted in
    :attr:`unmatched`: the rebuild is then not the run that was recorded.

    A format refusal (:func:`format_refusal`) is how Nous's client and the
    model's server agree on a reply format, once in each process, before the
    first reply they accept. A recording of several sittings holds such
    refusals at the start of each; the rebuild is one process and asks only
    once. So after the first successful reply a recorded format refusal is
    passed over, neither served nor left over.
    """

    def __init__(self, replies: list[Recorded]) -> None:
        self._queues: dict[tuple[int, str, str, str], deque[Recorded]] = defaultdict(deque)
        self._latest_get: dict[str, Recorded] = {}
        for recorded in replies:
            if recorded.method == "GET":
                self._latest_get[recorded.path] = recorded
            else:
                key = (recorded.observation, recorded.method, recorded.path, recorded.step)
                self._queues[key].append(recorded)
        self._lock = threading.Lock()
        self._agreed = False  # a POST has been answered 2xx: the format is settled
        self.unmatched: list[str] = []
        super().__init__(_Handler)

    def answer(self, handler: _Handler, method: str, body: bytes) -> None:
        """The recorded reply for this request, or a 500 naming what had none."""
        path = handler.path.removeprefix("/v1")
        if method == "GET":
            seen = self._latest_get.get(path)
            if seen is not None:
                handler.reply(seen.status, seen.body.encode())
            else:
                handler.reply(200, json.dumps({"data": [{"id": "replay"}]}).encode())
            return
        step = handler.headers.get(STEP_HEADER, "")
        key = (self.observation, method, path, step)
        with self._lock:
            queue = self._queues.get(key)
            while queue and self._agreed and format_refusal(queue[0]):
                queue.popleft()
            recorded = queue.popleft() if queue else None
            self._agreed = self._agreed or (recorded is not None and recorded.status < 300)
            if recorded is None:
                self.unmatched.append(f"observation {key[0] + 1}: {method} {path} step {step!r}")
        if recorded is None:
            message = f"no recorded reply for {method} {path} step {step!r}"
            handler.reply(500, json.dumps({"error": {"message": message}}).encode())
            return
        handler.reply(recorded.status, recorded.body.encode())

    def left_over(self, observation: int) -> int:
        """How many replies recorded for ``observation`` were not asked for."""
        return sum(
            1
            for key, queue in self._queues.items()
            if key[0] == observation
            for recorded in queue
            if not (self._agreed and format_refusal(recorded))
        )


def format_refusal(recorded: Recorded) -> bool:
    """Whether ``recorded`` is a server declining a request's ``response_format``.

    The recorded counterpart of :func:`cognition.llm_format.format_refused`,
    narrower: a 400, 422 or 500 whose body names ``response_format``
    (llama-cpp-python answers an unknown format type with 500). A 400 for a
    prompt too long names no format, and is served as recorded.
    """
    return recorded.status in (400, 422, 500) and "response_format" in recorded.body
