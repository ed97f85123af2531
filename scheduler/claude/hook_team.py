"""``nous hook EVENT`` through a team server: the payload posted to ``nous mcp --http``.

With ``claude.team_url`` set, a hook no local daemon took is answered by the
team server (:mod:`scheduler.claude.team_hooks`), for the agent its token
names: the hook process holds no Neo4j credentials and loads no driver,
only the socket (:mod:`scheduler.claude.hook_http`; ``ssl`` for ``https://``). The token comes from
``claude.team_token_file`` (a file of the user's alone, outside the
repository) or ``claude.team_token``; it travels only in the
``Authorization`` header and no message here ever holds it. A hook that
reads the session's transcript sends the part the server has not kept yet
with its payload (:func:`transcript_part`): the server opens no path.

Whatever goes wrong (no server, a refused token, a server slower than the
hook's limit) is a :class:`TeamUnavailable` whose message says what to fix;
the caller says it on stderr, and the session's first hook in one line of
context. A hook the server took is never redone here: there is no local
memory to redo it in.
"""

from __future__ import annotations

import os
import stat
import time

from scheduler.claude.events import MAX_PAYLOAD_BYTES
from scheduler.claude.hook_http import post

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the hook's path)
if TYPE_CHECKING:
    import ssl

    from graph.settings import ClaudeSettings
    from graph.settings_lean import HookClaude

HOOKS_PATH = "/hooks/"
"""Where on the team server a hook is posted: ``/hooks/EVENT``."""
TRANSCRIPT_OFFSET = "transcript-offset"
"""``/hooks/transcript-offset``: from which byte the session's transcript is to be sent
(:data:`scheduler.claude.team_hooks.TRANSCRIPT_OFFSET`)."""
CONNECT_TIMEOUT_S = 3.0
MAX_TOKEN_FILE_BYTES = 4096
MAX_ANSWER_BYTES = 8 * 1024 * 1024
TOKEN_PREFIX = "nous_"  # noqa: S105  # scheduler.claude.tokens.PREFIX (that loads hashlib)
HOW_TO_REPLACE = (
    "ask for a new token (`nous tokens create NAME --agent-id ID` on the server) and put it in"
    " the file claude.team_token_file names"
)


class TeamUnavailable(Exception):
    """The team server gave no answer; the message says why and what to fix (never the token)."""


class TeamServer:
    """Where the team server is and how to show it who this is (:func:`team_server`)."""

    __slots__ = ("ca_file", "host", "path", "port", "tls", "token", "url")

    def __init__(self, url: str, token: str, ca_file: str | None = None) -> None:
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        try:
            port = parts.port
        except ValueError:
            raise TeamUnavailable(f"claude.team_url {url!r}: the port is not 1-65535") from None
        self.url = url
        self.tls = parts.scheme == "https"
        self.host = parts.hostname or ""
        self.port = port or (443 if self.tls else 80)
        self.path = parts.path.rstrip("/")
        self.token = token
        self.ca_file = ca_file

    def __repr__(self) -> str:
        return f"TeamServer({self.url!r})"  # never the token


def team_server(claude: ClaudeSettings | HookClaude) -> TeamServer | None:
    """The team server the settings name, its token read; None when ``claude.team_url`` is unset.

    :class:`TeamUnavailable` when no token is given or its file cannot be used.
    """
    url = claude.team_url
    if not url:
        return None
    if claude.team_token_file:
        token = read_token(claude.team_token_file)
    elif claude.team_token is not None:
        token = claude.team_token.get_secret_value().strip()
    else:
        raise TeamUnavailable(
            "claude.team_url is set but no token is: set claude.team_token_file to a file"
            " holding your token (NOUS_CLAUDE__TEAM_TOKEN_FILE)"
        )
    if (
        not token.startswith(TOKEN_PREFIX)
        or not (token.isascii() and token.isprintable())
        or " " in token
        or len(token) > 200
    ):
        raise TeamUnavailable(f"the team server's token is not a Nous token; {HOW_TO_REPLACE}")
    ca_file = os.path.expanduser(claude.team_ca_file) if claude.team_ca_file else None
    return TeamServer(url, token, ca_file)


def read_token(name: str) -> str:
    """The token in the file ``name``: a regular file, only its owner may read, at most 4 KiB."""
    path = os.path.expanduser(name)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise TeamUnavailable(f"claude.team_token_file {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise TeamUnavailable(f"claude.team_token_file {path}: not a regular file")
        if stat.S_IMODE(info.st_mode) & 0o077:
            raise TeamUnavailable(
                f"claude.team_token_file {path}: others may read it; `chmod 600 {path}`"
            )
        data = os.read(fd, MAX_TOKEN_FILE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_TOKEN_FILE_BYTES:
        raise TeamUnavailable(f"claude.team_token_file {path}: over {MAX_TOKEN_FILE_BYTES} bytes")
    return data.decode("utf-8", "replace").strip()


def ask_team(
    server: TeamServer, event: str, payload: bytes, wait_s: float, *, transcript: bool = False
) -> str:
    """The team server's answer to one hook (the text to print), waited for up to ``wait_s``.

    ``transcript``: the event reads the session's transcript (Stop, PreCompact, SessionEnd):
    the server is first asked from which byte, and what was appended since is sent with the
    payload (:func:`transcript_part`). :class:`TeamUnavailable` saying why there is no answer
    and what to fix.
    """
    deadline = time.monotonic() + max(0.05, wait_s)
    headers: dict[str, str] = {}
    body = payload
    if transcript:
        offset = int(_post(server, TRANSCRIPT_OFFSET, payload, {}, deadline) or 0)
        data = transcript_part(payload, offset, MAX_PAYLOAD_BYTES - len(payload))
        if data is not None:
            headers = {
                "X-Nous-Payload-Bytes": str(len(payload)),
                "X-Nous-Transcript-Offset": str(offset),
            }
            body = payload + data
    return _post(server, event, body, headers, deadline)


def transcript_part(payload: bytes, offset: int, limit: int) -> bytes | None:
    """The payload's transcript from byte ``offset`` on, at most ``limit`` bytes; None when
    there is none to send (no ``.jsonl`` path, not a regular file of this user's, nothing new).

    Read as the hook working alone reads it (:mod:`scheduler.claude.transcript`): no symlink,
    no FIFO, another user's file never.
    """
    import json  # only for the hooks that read a transcript

    try:
        path = json.loads(payload).get("transcript_path")
    except (ValueError, AttributeError):
        return None
    if not isinstance(path, str) or not path.endswith(".jsonl") or limit <= 0:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or offset >= info.st_size:
            return None
        os.lseek(fd, offset, os.SEEK_SET)
        chunks: list[bytes] = []
        left = limit
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _post(server: TeamServer, name: str, body: bytes, more: dict[str, str], deadline: float) -> str:
    """``POST /hooks/NAME`` with ``body``: the answer's text (200), else
    :class:`TeamUnavailable`."""
    timeout = max(0.05, deadline - time.monotonic())
    headers = {"Authorization": f"Bearer {server.token}", "Content-Type": "application/json"}
    try:
        status, answer = post(
            server.host,
            server.port,
            server.path + HOOKS_PATH + name,
            {**headers, **more},
            body,
            timeout=timeout,
            connect_timeout=min(CONNECT_TIMEOUT_S, timeout),
            tls=_tls(server) if server.tls else None,
            max_bytes=MAX_ANSWER_BYTES,
        )
    except TimeoutError:
        raise TeamUnavailable(
            f"the team server at {server.url} gave no answer within {timeout:.3g} s"
            " (claude.hook_timeout_s): is it up, and not overloaded?"
        ) from None
    except OSError as exc:
        raise TeamUnavailable(_unreachable(server, exc)) from None
    text = answer.decode("utf-8", "replace")
    if status == 200:
        return text
    raise TeamUnavailable(_refusal(server, status, text))


def _tls(server: TeamServer) -> ssl.SSLContext:
    import ssl

    try:
        return ssl.create_default_context(cafile=server.ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise TeamUnavailable(
            f"claude.team_ca_file {server.ca_file}: not a PEM CA bundle ({exc})"
        ) from None


def _unreachable(server: TeamServer, exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return (
            f"no team server answers at {server.url} (connection refused): is `nous mcp --http`"
            " running there, and is claude.team_url right?"
        )
    if type(exc).__name__.startswith("SSL"):  # ssl's errors, without loading ssl for http
        return (
            f"the team server at {server.url} failed the TLS check ({exc}): set"
            " claude.team_ca_file to the CA that signed its certificate"
        )
    return f"the team server at {server.url} could not be reached ({type(exc).__name__}: {exc})"


def _refusal(server: TeamServer, status: int, text: str) -> str:
    why = _description(text)
    if status == 401:
        return f"the team server at {server.url} refused the token ({why}); {HOW_TO_REPLACE}"
    if status == 503:
        return f"the team server at {server.url} cannot reach its memory ({why}); try again later"
    return f"the team server at {server.url} answered HTTP {status} ({why})"


def _description(text: str) -> str:
    """The server's ``error_description`` (without loading ``json``), or its first words."""
    marker = '"error_description": "'
    start = text.find(marker)
    if start >= 0:
        text = text[start + len(marker) :].partition('"')[0]
    return " ".join(text.split())[:200] or "no reason given"
