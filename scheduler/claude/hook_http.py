"""One HTTP/1.1 ``POST`` and its answer, for a hook that asks the team server.

``http.client`` would serve, but it loads the ``email`` package to parse
headers: some 15-20 ms of a hook whose whole budget is a few times a bare
interpreter's start (``bench.hooks``). A hook needs far less: one request on
a fresh connection (``Connection: close``), the answer read to its end and
bounded, its status, and its body as sent with ``Content-Length`` or
chunked (a proxy in front of the server may re-chunk it). Plain ``http://``
uses the C ``_socket`` only; ``https://`` loads ``socket`` and ``ssl``.
"""

from __future__ import annotations

import _socket

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the hook's path)
if TYPE_CHECKING:
    import ssl

MAX_HEAD_BYTES = 64 * 1024


class BadAnswer(OSError):
    """What came back is not an HTTP/1.x answer this client reads."""


def post(
    host: str,
    port: int,
    target: str,
    headers: dict[str, str],
    body: bytes,
    *,
    timeout: float,
    connect_timeout: float,
    tls: ssl.SSLContext | None = None,
    max_bytes: int,
) -> tuple[int, bytes]:
    """``POST target`` to ``host:port``: the answer's status and body (at most ``max_bytes``).

    Raises ``OSError`` (refused, reset, :class:`TimeoutError`, :class:`BadAnswer`, ``ssl``'s
    errors) when there is no answer.
    """
    for name, value in headers.items():
        if not (name + value).isprintable():
            raise ValueError(f"header {name}: not printable text")
    authority = f"[{host}]" if ":" in host else host
    lines = [f"POST {target} HTTP/1.1", f"Host: {authority}:{port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
    conn = _connect(host, port, connect_timeout, tls)
    try:
        conn.settimeout(timeout)
        conn.sendall("\r\n".join(lines).encode("ascii") + body)
        data = _read_to_end(conn, max_bytes + MAX_HEAD_BYTES)
    finally:
        conn.close()
    return _parse(data, max_bytes)


def _connect(host: str, port: int, timeout: float, tls: ssl.SSLContext | None) -> _socket.socket:
    if tls is not None:
        import socket

        raw = socket.create_connection((host, port), timeout=timeout)
        try:
            return tls.wrap_socket(raw, server_hostname=host)
        except BaseException:
            raw.close()
            raise
    error: OSError = OSError(f"no address for {host}")
    for family, kind, proto, _name, address in _socket.getaddrinfo(
        host, port, 0, _socket.SOCK_STREAM
    ):
        conn = _socket.socket(family, kind, proto)
        try:
            conn.settimeout(timeout)
            conn.connect(address)
        except OSError as exc:
            conn.close()
            error = exc
            continue
        return conn
    raise error


def _read_to_end(conn: _socket.socket, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := conn.recv(65536):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise BadAnswer(f"an answer over {limit} bytes")
    return b"".join(chunks)


def _parse(data: bytes, max_bytes: int) -> tuple[int, bytes]:
    head, found, rest = data.partition(b"\r\n\r\n")
    if not found:
        raise BadAnswer("no complete HTTP answer (the connection closed early)")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    version, _, status_rest = status_line.partition(" ")
    code = status_rest[:3]
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise BadAnswer(f"not an HTTP/1.x answer: {status_line[:80]!r}")
    fields = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    if "chunked" in fields.get("transfer-encoding", "").lower():
        body = _unchunk(rest)
    elif fields.get("content-length", "").isdigit():
        body = rest[: int(fields["content-length"])]
    else:
        body = rest  # to the connection's end
    if len(body) > max_bytes:
        raise BadAnswer(f"an answer over {max_bytes} bytes")
    return int(code), body


def _unchunk(data: bytes) -> bytes:
    parts: list[bytes] = []
    while True:
        size_line, found, data = data.partition(b"\r\n")
        size_text = size_line.split(b";", 1)[0].strip()
        if not found or not size_text:
            raise BadAnswer("a chunked answer cut short")
        try:
            size = int(size_text, 16)
        except ValueError:
            raise BadAnswer("a chunked answer with a bad chunk size") from None
        if size == 0:
            return b"".join(parts)
        if len(data) < size + 2:
            raise BadAnswer("a chunked answer cut short")
        parts.append(data[:size])
        data = data[size + 2 :]
