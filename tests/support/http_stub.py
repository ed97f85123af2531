"""What the tests' scripted HTTP servers share: a threaded server that can drop its keep-alive
connections on stop, a handler that registers its connection, serving in a thread, and the
scripted stub's life and script (:class:`ScriptedStub`)."""

from __future__ import annotations

import collections
import contextlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

AnswerT = TypeVar("AnswerT")
RequestT = TypeVar("RequestT")


class StubServer(ThreadingHTTPServer):
    """A threaded HTTP server whose handler threads are joined on close.

    :meth:`drop_connections` first wakes the handlers idling on a keep-alive
    connection, so the join in ``server_close()`` is prompt.
    """

    daemon_threads = False
    block_on_close = True
    stub: Any  # the ScriptedStub it serves (a subclass narrows the type)

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(address, handler)
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()

    def track(self, connection: socket.socket, *, open_: bool) -> None:
        with self._connections_lock:
            if open_:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def drop_connections(self) -> None:
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):  # the client may have closed it already
                connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # The client going away mid-reply (a timeout test) is expected, not a failure.
        return

    def serve_in_thread(self) -> threading.Thread:
        """Serve in a background thread, which is returned (started)."""
        thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        thread.start()
        return thread

    def close_all(self, thread: threading.Thread) -> None:
        """Stop serving, drop the connections, join every handler and ``thread``."""
        self.shutdown()
        self.drop_connections()
        self.server_close()
        thread.join()


class TrackedHandler(BaseHTTPRequestHandler):
    """An HTTP/1.1 keep-alive handler that registers its connection with its server."""

    protocol_version = "HTTP/1.1"
    # Buffered, so headers and body leave in one write: two small writes on a
    # keep-alive connection meet Nagle and delayed ACK and cost ~40 ms each.
    wbufsize = 64 * 1024
    server: StubServer

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, open_=True)

    def finish(self) -> None:
        self.server.track(self.connection, open_=False)
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        return

    def lower_headers(self) -> dict[str, str]:
        """The request's headers, names lower-cased."""
        return {k.lower(): v for k, v in self.headers.items()}


class ScriptedStub(Generic[AnswerT, RequestT]):
    """A scripted server's life (start, stop, ``with``) and script: answers queued, requests kept.

    A subclass passes its server class (whose ``stub`` is the subclass) and
    handler; the handler answers from :meth:`_next` and records with :meth:`_record`.
    """

    def __init__(self, server_type: type[StubServer], handler: type[TrackedHandler]) -> None:
        self._server_type = server_type
        self._handler = handler
        self._queue: collections.deque[AnswerT] = collections.deque()
        self._requests: list[RequestT] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()  # set on stop: wakes replies that wait
        self._server: StubServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        """Bind a free port and serve in a background thread."""
        if self._server is None:
            self._stopping.clear()
            server = self._server_type(("127.0.0.1", 0), self._handler)
            server.stub = self
            self._server = server
            self._thread = server.serve_in_thread()
        return self

    def stop(self) -> None:
        """Stop serving, wake delayed replies, and join every thread."""
        server, thread = self._server, self._thread
        if server is None or thread is None:
            return
        self._stopping.set()
        server.close_all(thread)
        self._server = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def address(self) -> str:
        """``http://127.0.0.1:<port>``."""
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def script(self, *answers: AnswerT) -> None:
        """Queue answers for the next requests, in order."""
        with self._lock:
            self._queue.extend(answers)

    @property
    def pending(self) -> int:
        """How many scripted answers are still queued."""
        with self._lock:
            return len(self._queue)

    @property
    def requests(self) -> list[RequestT]:
        """Every request received so far, oldest first."""
        with self._lock:
            return list(self._requests)

    def _record(self, request: RequestT) -> None:
        with self._lock:
            self._requests.append(request)
