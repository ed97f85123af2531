"""A TCP gate for tests: forwards loopback connections to a server, and can be shut.

Shut, it drops every connection it carries and resets new ones at once, so
a client sees the server as gone (a Neo4j outage without stopping the
shared Neo4j); opened again, it forwards as before. It counts what clients
send: in a request-reply protocol such as Bolt each flight of messages is
one round trip.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType


class TcpGate:
    """Listens on a free loopback port and forwards to ``(host, port)`` while open."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._open = threading.Event()
        self._open.set()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._closed = False
        self.accepted = 0
        """Connections accepted so far (open or shut): a client's connection attempts."""
        self.flights = 0
        """Reads of client data so far (one per round trip for small messages)."""
        threading.Thread(target=self._accept, daemon=True, name="tcp-gate").start()

    def shut(self) -> None:
        """Drop every forwarded connection and refuse new ones until :meth:`open`."""
        self._open.clear()
        self._drop_all()

    def open(self) -> None:
        """Forward new connections again."""
        self._open.set()

    def close(self) -> None:
        """Stop listening and drop everything."""
        self._closed = True
        self._open.clear()
        self._listener.close()
        self._drop_all()

    def __enter__(self) -> TcpGate:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def _drop_all(self) -> None:
        with self._lock:
            held, self._sockets = self._sockets, set()
        for sock in held:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self.accepted += 1
            if not self._open.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self._target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets.update((client, upstream))
            for a, b, count in ((client, upstream, True), (upstream, client, False)):
                threading.Thread(target=self._pump, args=(a, b, count), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, count: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if count:
                    with self._lock:
                        self.flights += 1
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
