"""The hook's one HTTP POST (scheduler/claude/hook_http.py) against answers a real server may
send: a body by length or chunked (a proxy re-chunks), and what is not an answer at all."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from scheduler.claude.hook_http import BadAnswer, post


@pytest.fixture
def answering(request: pytest.FixtureRequest) -> Iterator[tuple[int, list[bytes]]]:
    """A server on a loopback port that reads one request and sends ``request.param``; the
    requests it read."""
    reply: bytes = request.param
    listener = socket.create_server(("127.0.0.1", 0))
    seen: list[bytes] = []

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            seen.append(data)
            conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1], seen
    thread.join(timeout=5)
    listener.close()


def _post(port: int, max_bytes: int = 1000) -> tuple[int, bytes]:
    return post(
        "127.0.0.1",
        port,
        "/hooks/Stop",
        {"Authorization": "Bearer nous_x"},
        b"{}",
        timeout=5,
        connect_timeout=1,
        max_bytes=max_bytes,
    )


@pytest.mark.parametrize(
    ("answering", "expected"),
    [
        pytest.param(
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", (200, b"hello"), id="length"
        ),
        pytest.param(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"3\r\nhel\r\n2;x=y\r\nlo\r\n0\r\n\r\n",
            (200, b"hello"),
            id="chunked",
        ),
        pytest.param(
            b'HTTP/1.0 401 Unauthorized\r\n\r\n{"error": 1}',
            (401, b'{"error": 1}'),
            id="to-the-end",
        ),
    ],
    indirect=["answering"],
)
def test_an_answer_is_read_by_length_chunks_or_to_its_end(
    answering: tuple[int, list[bytes]], expected: tuple[int, bytes]
) -> None:
    port, seen = answering
    assert _post(port) == expected
    head = seen[0].decode()
    assert head.startswith("POST /hooks/Stop HTTP/1.1\r\n") and "Content-Length: 2" in head


@pytest.mark.parametrize(
    ("answering", "why"),
    [
        pytest.param(b"SSH-2.0-OpenSSH_9.6\r\n\r\n", "not an HTTP/1.x answer", id="not-http"),
        pytest.param(b"HTTP/1.1 200 OK\r\nContent-Le", "no complete HTTP answer", id="cut"),
        pytest.param(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "bad chunk size",
            id="bad-chunk",
        ),
        pytest.param(b"HTTP/1.1 200 OK\r\n\r\n" + b"x" * 2000, "over 1000 bytes", id="huge"),
    ],
    indirect=["answering"],
)
def test_what_is_not_an_answer_is_said(answering: tuple[int, list[bytes]], why: str) -> None:
    with pytest.raises(BadAnswer, match=why):
        _post(answering[0])


def test_a_header_that_would_split_the_request_is_refused() -> None:
    with pytest.raises(ValueError, match="not printable"):
        post(
            "127.0.0.1",
            9,
            "/x",
            {"Authorization": "Bearer a\r\nX: y"},
            b"",
            timeout=1,
            connect_timeout=1,
            max_bytes=10,
        )
