"""What the tests' scripted HTTP servers share: a threaded server that can drop its keep-alive
connections on stop, a handler that registers its connection, and serving in a thread."""

from __future__ import annotations

import contextlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StubServer(ThreadingHTTPServer):
    """A threaded HTTP server whose handler threads are joined on close.

    :meth:`drop_connections` first wakes the handlers idling on a keep-alive
    connection, so the join in ``server_close()`` is prompt.
    """

    daemon_threads = False
    block_on_close = True

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
