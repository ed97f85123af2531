"""Serving the guide and the style on 127.0.0.1, where Neo4j Browser can ``:play`` it.

A small ``http.server`` in a thread: ``/nous.html`` (the guide for one agent)
and ``/style.grass``. Browser fetches the guide from its own page, so the
reply allows any origin (it holds queries, never data); the socket is bound
to 127.0.0.1 only, so nothing outside this machine can read it.
"""

from __future__ import annotations

import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from graph.server.maven import guide_url
from scheduler.guide.slides import guide_html
from scheduler.guide.style import grass

HOST = "127.0.0.1"


class GuideServer:
    """The guide of one agent, served on ``127.0.0.1:port`` until :meth:`close`."""

    def __init__(self, agent_id: str, port: int) -> None:
        pages = {
            "/nous.html": ("text/html; charset=utf-8", guide_html(agent_id).encode()),
            "/style.grass": ("text/plain; charset=utf-8", grass().encode()),
        }
        self._server = ThreadingHTTPServer((HOST, port), _handler(pages))
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="nous-guide", daemon=True
        )

    @property
    def port(self) -> int:
        """The port it listens on (useful with port 0)."""
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """The URL to ``:play``."""
        return guide_url(self.port)

    def start(self) -> GuideServer:
        """Serve in a background thread."""
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and free the port."""
        self._server.shutdown()
        self._server.server_close()


def _handler(pages: dict[str, tuple[str, bytes]]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            page = pages.get(self.path.split("?", 1)[0])
            if page is None:
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            content_type, body = page
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_OPTIONS(self) -> None:
            # Browser's fetch sends custom headers, so the browser asks first (CORS preflight).
            self.send_response(HTTPStatus.NO_CONTENT)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Access-Control-Allow-Methods", "GET, OPTIONS")
            requested = self.headers.get("Access-Control-Request-Headers")
            self.send_header("Access-Control-Allow-Headers", requested or "*")
            self.send_header("Access-Control-Max-Age", "600")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return  # every fetch would print a line to the daemon's console

    return Handler
