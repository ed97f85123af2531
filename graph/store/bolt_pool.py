"""A few of Nous's own Bolt connections: the daemon's single statements, without the driver's cost.

The official driver spends about 1.5 ms of the client's CPU on each
statement (a session, its bookkeeping, its pure-Python value packing); a
decision is two statements, so that was a third of a decision's CPU, paid by
every other decision waiting for the one Python thread. :class:`BoltPool`
runs a statement on one of up to ``size`` connections of
:mod:`graph.store.bolt` (the client a hook works alone with), the least busy
one, opened when every open one has a statement in flight: decisions side by
side go to different connections, so the server works on them at once, as it
did with the driver's pool. :class:`~graph.store.driver.GraphDriver` uses it
for single statements on a plain ``bolt://`` address and falls back to the
official driver for whatever this client does not do (see there).

A connection that broke is dropped, and the next statement opens another;
after a failed open the pool is not tried for :data:`REOPEN_AFTER_S`, so an
outage costs each statement no connection attempt of its own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any

from graph.store.bolt import BoltConnection, BoltConnectionLost

OPEN_TIMEOUT_S = 5.0
"""How long opening a connection (connect, handshake, login) may take."""
USER_AGENT = "nous/1.0"
"""How the connections introduce themselves (a hook's are ``nous-hook``)."""
REOPEN_AFTER_S = 5.0
"""After a failed open, how long statements go the official driver's way without trying."""


class BoltPool:
    """Up to ``size`` Bolt connections to one server, opened as they are needed."""

    def __init__(self, host: str, port: int, user: str, password: str, *, size: int = 4) -> None:
        self._address = (host, port)
        self._auth = (user, password)
        self.size = size
        self._connections: dict[BoltConnection, int] = {}  # statements in flight on each
        self._opening = asyncio.Lock()
        self._closed_until = 0.0

    @property
    def available(self) -> bool:
        """False for a while after a connection could not be opened (see the module)."""
        return time.monotonic() >= self._closed_until

    @property
    def local_addresses(self) -> list[str]:
        """The open connections' own ``host:port`` (as Neo4j lists their clients)."""
        return [c.local_address for c in self._connections if not c.lost]

    async def run(
        self, text: str, params: Mapping[str, Any], *, database: str, read: bool
    ) -> tuple[list[str], list[list[Any]]]:
        """One auto-commit statement on the least busy connection: its columns and rows.

        Raises what :meth:`BoltConnection.run` raises; :class:`BoltConnectionLost`
        also when no connection could be opened (and the pool rests a while),
        and :class:`~graph.store.packstream.PackStreamError` for a parameter
        this client cannot send (the connection stays usable).
        """
        connection = await self._least_busy()
        self._connections[connection] += 1
        try:
            return await connection.run(text, params, database=database, read=read)
        except BoltConnectionLost:
            self._connections.pop(connection, None)
            await connection.close()  # its socket, whichever caller heard of the break first
            raise
        finally:
            if connection in self._connections:
                self._connections[connection] -= 1

    async def close(self) -> None:
        """Close every connection; what is in flight fails as lost. Safe to call twice."""
        connections, self._connections = list(self._connections), {}
        for connection in connections:
            await connection.close()

    async def _least_busy(self) -> BoltConnection:
        chosen = await self._chosen()
        if chosen is not None:
            return chosen
        async with self._opening:  # one open at a time: a burst of statements opens one each
            return await self._chosen() or await self._open()

    async def _chosen(self) -> BoltConnection | None:
        """An idle connection, or the least busy one once ``size`` are open; None: open one."""
        for connection in [c for c in self._connections if c.lost]:
            del self._connections[connection]
            await connection.close()
        idle = min(self._connections.items(), key=lambda item: item[1], default=None)
        if idle is not None and (idle[1] == 0 or len(self._connections) >= self.size):
            return idle[0]
        return None

    async def _open(self) -> BoltConnection:
        try:
            opening = BoltConnection.open(*self._address, *self._auth, user_agent=USER_AGENT)
            connection = await asyncio.wait_for(opening, OPEN_TIMEOUT_S)
        except Exception as exc:  # refused, unreachable, slow: the official driver says why
            self._closed_until = time.monotonic() + REOPEN_AFTER_S
            why = f"no connection of Nous's own could be opened: {exc!r}"
            raise BoltConnectionLost(why) from None
        self._connections[connection] = 0
        return connection
