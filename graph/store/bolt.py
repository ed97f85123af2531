"""One Bolt 5 connection, standard library only: the Neo4j client of a hook working alone.

A Claude Code hook is a process per prompt and tool call, and the official
driver's import alone costs it several bare interpreters' start (issue 27).
This client speaks what a hook needs of Bolt 5.1 to 5.4 over plain TCP
(``bolt://``): the handshake, ``HELLO`` and ``LOGON``, and each statement as
an auto-commit ``RUN`` with its ``PULL``. Statements are pipelined: every
caller's ``RUN`` and ``PULL`` go out at once, without waiting for earlier
answers, and one reader hands each answer to its caller in order, so the
concurrent steps of ``pre_turn`` share one connection without holding one
another up for a round trip. After a ``FAILURE`` the server ignores what
follows until a ``RESET``: the reader sends one at once, the failed
statement's caller gets the error, and statements the server ignored are
sent again once it has reset. :mod:`graph.store.packstream` reads and writes
the values.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections import deque
from collections.abc import Mapping
from typing import Any

from graph.store.packstream import Structure, Unpacker, pack

_MAGIC = b"\x60\x60\xb0\x17"
_PROPOSALS = bytes([0, 3, 4, 5]) + bytes(12)
"""Bolt 5.4 down to 5.1 (LOGON apart from HELLO), then nothing else."""
_HELLO, _LOGON, _GOODBYE, _RESET, _RUN, _PULL = 0x01, 0x6A, 0x02, 0x0F, 0x10, 0x3F
_SUCCESS, _RECORD, _IGNORED, _FAILURE = 0x70, 0x71, 0x7E, 0x7F
_CHUNK = 0xFFFF
_SIZE = struct.Struct(">H")
USER_AGENT = "nous-hook/1.0"


class BoltFailure(Exception):
    """Neo4j refused a message: its code (``Neo.ClientError…``) and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    @property
    def transient(self) -> bool:
        """Worth running again (as the official driver's managed transactions would)."""
        return self.code.startswith("Neo.TransientError.") and self.code not in (
            "Neo.TransientError.Transaction.Terminated",
            "Neo.TransientError.Transaction.LockClientStopped",
        )


class BoltConnectionLost(ConnectionError):
    """The connection broke (or was never made): nothing more can be asked on it."""


class _Statement:
    """One statement on its way: what to send again if ignored, what came back."""

    __slots__ = ("done", "failure", "fields", "ignored", "message", "records")

    def __init__(self, message: bytes, done: asyncio.Future[None]) -> None:
        self.message = message
        self.done = done
        self.fields: list[str] = []
        self.records: list[list[Any]] = []
        self.failure: BoltFailure | None = None
        self.ignored = False


def encode(tag: int, *fields: Any) -> bytes:
    """One message, chunked, ready to write."""
    body = bytearray()
    pack(Structure(tag, *fields), body)
    out = bytearray()
    for start in range(0, len(body), _CHUNK):
        piece = body[start : start + _CHUNK]
        out += _SIZE.pack(len(piece))
        out += piece
    out += b"\x00\x00"
    return bytes(out)


class BoltConnection:
    """One open, logged-in Bolt connection; :meth:`run` from any number of tasks at once."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self.version = (0, 0)
        self._waiting: deque[tuple[int, _Statement | None]] = deque()
        self._ignored: list[_Statement] = []
        self._resetting = False
        self._lost: BoltConnectionLost | None = None
        self._reading: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls, host: str, port: int, user: str, password: str, *, user_agent: str = USER_AGENT
    ) -> BoltConnection:
        """Connect, agree on a version and log in (as ``user_agent``, which Neo4j lists).

        Raises :class:`BoltConnectionLost` when nothing answers or no version is
        shared, :class:`BoltFailure` when the login is refused.
        """
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            raise BoltConnectionLost(f"cannot connect to {host}:{port}: {exc}") from None
        connection = cls(reader, writer)
        try:
            await connection._handshake()
            await connection._login(user, password, user_agent)
        except (BoltFailure, BoltConnectionLost):
            connection._writer.close()
            raise
        except Exception as exc:
            # The server went away or answered garbage while logging in (too many connections,
            # shutting down): the same "does not answer" as before the handshake.
            connection._writer.close()
            raise BoltConnectionLost(f"{host}:{port} broke off the login: {exc!r}") from None
        except BaseException:
            connection._writer.close()
            raise
        connection._reading = asyncio.get_running_loop().create_task(connection._read_all())
        return connection

    async def _handshake(self) -> None:
        self._writer.write(_MAGIC + _PROPOSALS)
        try:
            answer = await self._reader.readexactly(4)
        except (OSError, asyncio.IncompleteReadError) as exc:
            raise BoltConnectionLost(f"no Bolt handshake: {exc}") from None
        if answer == bytes(4) or answer[3] != 5:
            raise BoltConnectionLost(
                f"the server speaks no Bolt version from 5.1 to 5.4 (answered {answer.hex()})"
            )
        self.version = (answer[3], answer[2])

    async def _login(self, user: str, password: str, user_agent: str) -> None:
        extra: dict[str, Any] = {"user_agent": user_agent}
        if self.version >= (5, 3):  # bolt_agent is a field of HELLO from Bolt 5.3 on
            extra["bolt_agent"] = {"product": user_agent, "language": "Python"}
        if self.version >= (5, 2):
            extra["notifications_minimum_severity"] = "OFF"
        auth = {"scheme": "basic", "principal": user, "credentials": password}
        self._writer.write(encode(_HELLO, extra) + encode(_LOGON, auth))
        for _ in range(2):
            answer = await self._message()
            if answer.tag == _FAILURE:
                meta = answer.fields[0]
                raise BoltFailure(str(meta.get("code")), str(meta.get("message")))
            if answer.tag != _SUCCESS:
                raise BoltConnectionLost(f"unexpected answer 0x{answer.tag:02X} to the login")

    @property
    def local_address(self) -> str:
        """This end's ``host:port``, as Neo4j lists the connection's client address."""
        host, port = self._writer.get_extra_info("sockname")[:2]
        return f"{host}:{port}"

    @property
    def lost(self) -> bool:
        """True once the connection broke or was closed: nothing more can be asked on it."""
        return self._lost is not None

    async def run(
        self, text: str, params: Mapping[str, Any], *, database: str, read: bool
    ) -> tuple[list[str], list[list[Any]]]:
        """One auto-commit statement: its column names and rows of values.

        Raises :class:`BoltFailure` when Neo4j refuses it (the connection
        stays usable) and :class:`BoltConnectionLost` when the connection broke.
        """
        if self._lost is not None:
            raise self._lost
        extra: dict[str, Any] = {"db": database}
        if read:
            extra["mode"] = "r"
        message = encode(_RUN, text, dict(params), extra) + encode(_PULL, {"n": -1})
        statement = _Statement(message, asyncio.get_running_loop().create_future())
        self._send(statement)
        await statement.done
        if statement.failure is not None:
            raise statement.failure
        return statement.fields, statement.records

    def _send(self, statement: _Statement) -> None:
        self._waiting.append((_RUN, statement))
        self._waiting.append((_PULL, statement))
        self._writer.write(statement.message)

    async def close(self) -> None:
        """Say goodbye and close; what is still waiting fails as lost. Safe to call twice."""
        if self._lost is None:
            self._fail_all(BoltConnectionLost("the connection was closed"))
            with contextlib.suppress(OSError, RuntimeError):  # the transport may be gone
                self._writer.write(encode(_GOODBYE))
        self._writer.close()
        if self._reading is not None:
            self._reading.cancel()
            # The reader ends here; what it failed with was handed to the waiting callers.
            with contextlib.suppress(asyncio.CancelledError):
                await self._reading
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()

    async def _read_all(self) -> None:
        try:
            while True:
                self._receive(await self._message())
        except Exception as exc:  # whatever broke, every caller hears of it
            why = "Neo4j closed the connection" if isinstance(exc, EOFError) else repr(exc)
            self._fail_all(BoltConnectionLost(f"the connection to Neo4j broke: {why}"))

    def _receive(self, answer: Structure) -> None:
        if not self._waiting:
            raise ValueError(f"an answer 0x{answer.tag:02X} nobody asked for")
        kind, statement = self._waiting[0]
        if answer.tag == _RECORD and kind == _PULL and statement is not None:
            statement.records.append(answer.fields[0])
            return
        self._waiting.popleft()
        if kind == _RESET:
            if answer.tag != _SUCCESS:
                raise ValueError("Neo4j refused to reset the connection")
            self._resetting = False
            for again in self._ignored:
                again.ignored = False
                self._send(again)
            self._ignored.clear()
            return
        assert statement is not None
        if answer.tag == _FAILURE:
            meta = answer.fields[0]
            statement.failure = BoltFailure(str(meta.get("code")), str(meta.get("message")))
            if not self._resetting:
                self._resetting = True
                self._waiting.append((_RESET, None))
                self._writer.write(encode(_RESET))
        elif answer.tag == _IGNORED:
            statement.ignored = True
        elif kind == _RUN:
            statement.fields = list(answer.fields[0].get("fields", []))
        if kind == _PULL:
            self._finish(statement)

    def _finish(self, statement: _Statement) -> None:
        if statement.ignored and statement.failure is None:
            self._ignored.append(statement)  # sent again once the server has reset
        elif not statement.done.done():
            statement.done.set_result(None)

    def _fail_all(self, lost: BoltConnectionLost) -> None:
        self._lost = lost
        pending = [s for _, s in self._waiting if s is not None] + self._ignored
        self._waiting.clear()
        self._ignored.clear()
        for statement in pending:
            if not statement.done.done():
                statement.done.set_exception(lost)

    async def _message(self) -> Structure:
        body = bytearray()
        while True:
            (size,) = _SIZE.unpack(await self._reader.readexactly(2))
            if size:
                body += await self._reader.readexactly(size)
            elif body:
                break  # a message's end (an empty one alone is a keep-alive)
        answer = Unpacker(bytes(body)).value()
        if not isinstance(answer, Structure):
            raise ValueError("an answer that is not a message")
        return answer
