"""A hook's :class:`~graph.store.driver.GraphDriver`: the same queries over one Bolt connection.

A hook working alone (:mod:`scheduler.claude.hooks`) builds this instead of
the official driver for a plain ``bolt://`` address (:func:`lean_driver`;
anything else, ``neo4j://`` routing or TLS, keeps the official driver). It
is a ``GraphDriver``: the same ``.cypher`` files by name, the same rows
(plain dicts, temporal values as :mod:`datetime`), the same errors
(:class:`~graph.errors.MemoryQueryError` naming the query and Neo4j's code,
:class:`~graph.errors.MemoryUnavailableError` when Neo4j is gone, a refused
login recorded and backed off as :mod:`graph.store.login_guard` says). Every
statement is an auto-commit ``RUN`` on the one connection
(:class:`graph.store.bolt.BoltConnection`), pipelined with the others in
flight; one that fails with a transient error runs again, as the official
driver's managed transactions would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from graph.errors import GraphError, MemoryQueryError, MemoryUnavailableError
from graph.store.bolt import BoltConnection, BoltConnectionLost, BoltFailure
from graph.store.driver import GraphDriver, Row
from graph.store.lean import plain_bolt
from graph.store.login_guard import check_login, is_refusal, login_refused
from graph.store.queries import Query, QueryLibrary

RETRIES = 3
"""Runs of a statement after a transient error (deadlock, leader switch) before giving up."""
RETRY_PAUSE_S = 0.05
DEFAULT_PORT = 7687


def lean_driver(uri: str, user: str, password: str, *, database: str = "neo4j") -> GraphDriver:
    """This module's driver for a plain ``bolt://host[:port]`` address; else the official one."""
    if plain_bolt(uri):
        return BoltGraphDriver(uri, user, password, database=database)
    return GraphDriver(uri, user, password, database=database)


class BoltGraphDriver(GraphDriver):
    """A :class:`GraphDriver` over one pipelined Bolt connection (see the module)."""

    def __init__(
        self,
        uri: str,
        user: str,
        password: str,
        *,
        database: str = "neo4j",
        queries: QueryLibrary | None = None,
    ) -> None:
        super().__init__(uri, user, password, database=database, queries=queries)
        parts = urlsplit(uri)
        self._host = parts.hostname or "localhost"
        self._port = parts.port or DEFAULT_PORT
        self._connection: BoltConnection | None = None

    async def start(self) -> None:
        """Connect and log in (credentials refused lately are not tried again)."""
        if self._connection is not None:
            return
        check_login(self.uri, *self._auth)
        try:
            self._connection = await BoltConnection.open(self._host, self._port, *self._auth)
        except BoltFailure as exc:
            if is_refusal(exc.code):
                raise login_refused(self.uri, *self._auth, exc.code) from None
            raise MemoryUnavailableError(
                f"Neo4j at {self.uri} refused the connection: {exc}"
            ) from None
        except BoltConnectionLost as exc:
            raise MemoryUnavailableError(f"Neo4j at {self.uri} does not answer: {exc}") from None

    async def close(self) -> None:
        """Close the connection; safe to call twice."""
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await connection.close()

    @property
    def driver(self) -> Any:
        """There is no official driver here: schema and EXPLAIN are the daemon's and tests'."""
        raise GraphError("a hook's Bolt client has no official driver (run_schema, explain)")

    async def _execute_once(
        self, query: Query, params: Mapping[str, Any], *, read: bool
    ) -> list[Row]:
        self.statements += 1
        return await self._execute(query, params, read=read)

    async def _execute(self, query: Query, params: Mapping[str, Any], *, read: bool) -> list[Row]:
        if self._connection is None:
            raise GraphError("GraphDriver.start() has not been called")
        for attempt in range(RETRIES + 1):
            try:
                fields, records = await self._connection.run(
                    query.text, params, database=self.database, read=read
                )
            except BoltFailure as exc:
                if exc.transient and attempt < RETRIES:
                    await asyncio.sleep(RETRY_PAUSE_S * 2**attempt)
                    continue
                # The message names the query and Neo4j's code; parameters stay out of it.
                raise MemoryQueryError.failed(
                    f"query {query.name}", exc.code, exc.message
                ) from None
            except BoltConnectionLost as exc:
                raise MemoryUnavailableError(
                    f"query {query.name}: Neo4j does not answer: {exc}"
                ) from None
            return [dict(zip(fields, values, strict=True)) for values in records]
        raise AssertionError("unreachable: the last attempt returns or raises")
