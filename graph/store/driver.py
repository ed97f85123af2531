"""One async Neo4j driver per process, and the only place that runs Cypher.

A single statement runs first as an auto-commit transaction: RUN and PULL in one
round trip, the commit done by the server at the end of the result, where a managed
transaction needs a second round trip for its COMMIT. On a plain ``bolt://``
address that attempt, and each chunk of a batch (one ``UNWIND $rows`` statement
per chunk), goes over a few connections of Nous's own
(:mod:`graph.store.bolt_pool`: the same rows for much less of the client's CPU;
bench.loop's decision 8.3-10.0 -> 5.8-6.3 ms, bench.ingest's row 98-115 -> 35-51
us, measured on a loaded machine); elsewhere, through the official driver. When
that attempt fails with an error worth retrying (a transient error, which the
server rolled back, or a connection that failed), or with a value the own client
cannot carry, the statement or chunk runs again through ``execute_query``, the
official driver's managed transaction that retries until the server answers.
Driver exceptions are wrapped in :mod:`graph.errors` types whose messages name
the query, never its parameters.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from graph.errors import (
    GraphError,
    MemoryConstraintError,
    MemoryQueryError,
    MemoryUnavailableError,
)
from graph.store.bolt import BoltConnectionLost, BoltFailure
from graph.store.bolt_pool import BoltPool
from graph.store.login_guard import check_login, is_refusal, login_refused
from graph.store.packstream import PackStreamError
from graph.store.queries import Query, QueryLibrary

if TYPE_CHECKING:
    import neo4j
    from neo4j import AsyncDriver

# The official driver is imported where it is used, not here: a hook working alone uses
# its own client (graph.store.bolt_driver, a subclass) and must not pay for this one's import.

log = logging.getLogger(__name__)

Row = dict[str, Any]


class GraphDriver:
    """The process's connection to Neo4j; ``start()`` before use, ``close()`` after."""

    def __init__(
        self,
        uri: str,
        user: str,
        password: str,
        *,
        database: str = "neo4j",
        queries: QueryLibrary | None = None,
        own_connections: int = 4,
    ) -> None:
        """``own_connections``: how many of Nous's own Bolt connections single statements
        may use on a plain ``bolt://`` address (0: the official driver for every one)."""
        self.uri = uri
        self.database = database
        self.queries = queries if queries is not None else QueryLibrary()
        self._auth = (user, password)
        self._driver: AsyncDriver | None = None
        self._own_connections = own_connections
        self._pool: BoltPool | None = None
        self.statements = 0
        """Statements run so far (a batch counts one per chunk): benchmarks divide by it."""

    async def start(self) -> None:
        """Open the driver and check that Neo4j answers with these credentials.

        Credentials refused less than a minute ago are not tried again
        (:mod:`graph.store.login_guard`): :class:`MemoryUnavailableError` at once.
        """
        if self._driver is not None:
            return
        check_login(self.uri, *self._auth)
        from neo4j import AsyncGraphDatabase
        from neo4j.exceptions import AuthError, DriverError, Neo4jError

        # Notifications (unknown label on a fresh database, and the like) would be
        # logged with the full statement on every call; the tests EXPLAIN instead.
        driver = AsyncGraphDatabase.driver(
            self.uri, auth=self._auth, notifications_min_severity="OFF"
        )
        try:
            await driver.verify_connectivity()
        except AuthError as exc:
            await driver.close()
            raise login_refused(self.uri, *self._auth, exc.code or "refused") from None
        except (DriverError, OSError, Neo4jError) as exc:
            await driver.close()
            if isinstance(exc, Neo4jError) and is_refusal(exc.code):  # the rate limit, too
                raise login_refused(self.uri, *self._auth, exc.code or "refused") from None
            raise MemoryUnavailableError(f"Neo4j at {self.uri} does not answer: {exc}") from None
        self._driver = driver
        self._pool = own_pool(self.uri, *self._auth, self._own_connections)

    async def close(self) -> None:
        """Close the driver; safe to call twice."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
        if self._driver is not None:
            driver, self._driver = self._driver, None
            await driver.close()

    @property
    def driver(self) -> AsyncDriver:
        """The underlying neo4j driver (for the few callers that need a session)."""
        if self._driver is None:
            raise GraphError("GraphDriver.start() has not been called")
        return self._driver

    @property
    def own_addresses(self) -> list[str]:
        """The client ends (``host:port``) of Nous's own connections now open (see the module)."""
        return self._pool.local_addresses if self._pool is not None else []

    async def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a read query by name and return its rows as plain dicts."""
        query = self.queries.get(name)
        return await self._execute_once(query, params, read=True)

    async def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run a write query by name in one transaction (see the module's docstring)."""
        query = self.queries.get(name)
        return await self._execute_once(query, params, read=query.mode == "read")

    async def write_rows(
        self,
        name: str,
        rows: Sequence[Any],
        /,
        *,
        batch_size: int = 1000,
        concurrency: int = 2,
        convert: Callable[[Any], Mapping[str, Any]] | None = None,
        on_conflict: str | None = None,
        **params: Any,
    ) -> list[Row]:
        """Write ``rows`` through an ``UNWIND $rows`` query, one transaction per chunk.

        Up to ``concurrency`` chunks are in flight at once, so the client packs
        one chunk while the server writes another; chunks may commit in any
        order, so a query written for this must not depend on it (deadlocks
        between chunks are transient errors, which ``execute_query``'s managed
        transaction retries). With ``convert``, each row is made a parameter map
        only when its chunk's turn comes, so that work too overlaps the server's.
        When a chunk fails, the others still end before the first error is raised.
        With ``on_conflict`` (a query name), a chunk that breaks a uniqueness
        constraint (nothing of it was written) is written again through that query.
        """
        query = self.queries.get(name)
        again = self.queries.get(on_conflict) if on_conflict is not None else None
        starts = range(0, len(rows), batch_size)
        self.statements += len(starts)

        def chunk_at(start: int) -> list[Any]:
            chunk = rows[start : start + batch_size]
            return [convert(r) for r in chunk] if convert is not None else list(chunk)

        if len(starts) <= 1 or concurrency <= 1:
            out: list[Row] = []
            for start in starts:
                out.extend(await self._chunk(query, {**params, "rows": chunk_at(start)}, again))
            return out
        gate = asyncio.Semaphore(concurrency)

        async def one(start: int) -> list[Row]:
            async with gate:
                return await self._chunk(query, {**params, "rows": chunk_at(start)}, again)

        # Every chunk ends (commits or fails) before an error is raised, so the caller never
        # acts on a failure (e.g. spools the batch again) while other chunks are still writing.
        results = await asyncio.gather(*(one(s) for s in starts), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return [
            row for result in results if not isinstance(result, BaseException) for row in result
        ]

    async def _chunk(
        self, query: Query, params: Mapping[str, Any], again: Query | None = None
    ) -> list[Row]:
        """One chunk of a batch; broken a uniqueness constraint, through ``again`` if given."""
        try:
            return await self._chunk_once(query, params)
        except MemoryConstraintError:
            if again is None:
                raise
            self.statements += 1
            return await self._chunk_once(again, params)

    async def _chunk_once(self, query: Query, params: Mapping[str, Any]) -> list[Row]:
        """One chunk of a batch: over Nous's own connections when it can, else managed."""
        if self._pool is not None and self._pool.available:
            rows = await self._own_once(query, params, read=False)
            if rows is not None:
                return rows
        return await self._execute(query, params, read=False)

    async def run_schema(self, text: str, *, source: str) -> None:
        """Run one schema statement in an auto-commit transaction (schema needs its own)."""
        from neo4j.exceptions import DriverError, Neo4jError

        try:
            async with self.driver.session(database=self.database) as session:
                result = await session.run(text)
                await result.consume()
        except Neo4jError as exc:
            raise MemoryQueryError.failed(source, exc.code, exc.message) from None
        except (DriverError, OSError) as exc:
            raise MemoryUnavailableError(f"{source}: Neo4j does not answer: {exc}") from None

    async def explain(self, name: str) -> dict[str, Any]:
        """The plan of a query by name, from ``EXPLAIN`` (nothing is executed)."""
        from neo4j.exceptions import Neo4jError

        query = self.queries.get(name)
        try:
            async with self.driver.session(database=self.database) as session:
                result = await session.run("EXPLAIN " + query.text)
                summary = await result.consume()
        except Neo4jError as exc:
            raise MemoryQueryError.failed(f"query {name}", exc.code, exc.message) from None
        return dict(summary.plan or {})

    async def _execute_once(
        self, query: Query, params: Mapping[str, Any], *, read: bool
    ) -> list[Row]:
        """One statement in one round trip (auto-commit); the managed way when that fails.

        A retryable failure of the auto-commit attempt falls back to
        :meth:`_execute`, which retries as the driver's managed transactions do.
        A connection lost while a write's result was on its way leaves it
        unknown whether the server committed it (as a lost COMMIT does for a
        managed transaction); the writes of Nous are MERGEs, SETs or CREATEs
        of new ids, so running one again adds nothing or fails on the id's
        constraint.
        """
        self.statements += 1
        if self._pool is not None and self._pool.available:
            rows = await self._own_once(query, params, read=read)
        else:
            rows = await self._official_once(query, params, read=read)
        if rows is not None:
            return rows
        log.debug("query %s: retrying as a managed transaction", query.name)
        return await self._execute(query, params, read=read)

    async def _own_once(
        self, query: Query, params: Mapping[str, Any], *, read: bool
    ) -> list[Row] | None:
        """The auto-commit attempt over Nous's own connections; None: the official driver's turn.

        None after a transient failure, a lost connection, or a parameter this
        client cannot carry: the official driver then runs it, or says what is wrong.
        """
        assert self._pool is not None
        try:
            fields, records = await self._pool.run(
                query.text, params, database=self.database, read=read
            )
        except BoltFailure as exc:
            if not exc.transient:
                raise MemoryQueryError.failed(
                    f"query {query.name}", exc.code, exc.message
                ) from None
            return None
        except (BoltConnectionLost, PackStreamError):
            return None
        return [dict(zip(fields, values, strict=True)) for values in records]

    async def _official_once(
        self, query: Query, params: Mapping[str, Any], *, read: bool
    ) -> list[Row] | None:
        """The auto-commit attempt through the official driver; None: worth a managed retry."""
        import neo4j
        from neo4j.exceptions import DriverError, Neo4jError

        mode = neo4j.READ_ACCESS if read else neo4j.WRITE_ACCESS
        try:
            async with self.driver.session(
                database=self.database, default_access_mode=mode, bookmark_manager=None
            ) as session:
                result = await session.run(query.text, dict(params))
                return await _rows(result)
        except Neo4jError as exc:
            if not exc.is_retryable():
                raise MemoryQueryError.failed(
                    f"query {query.name}", exc.code, exc.message
                ) from None
        except (DriverError, OSError):
            pass
        return None

    async def _execute(self, query: Query, params: Mapping[str, Any], *, read: bool) -> list[Row]:
        import neo4j
        from neo4j.exceptions import DriverError, Neo4jError

        try:
            # execute_query: the same managed, retried transaction as execute_read/write, but
            # BEGIN goes out with RUN and PULL instead of waiting for its own reply: two
            # round trips to Neo4j per query instead of three. No bookmark manager, as with the
            # plain sessions before (one server: a read sees every committed write).
            return await self.driver.execute_query(
                query.text,
                dict(params),
                routing_=neo4j.RoutingControl.READ if read else neo4j.RoutingControl.WRITE,
                database_=self.database,
                bookmark_manager_=None,
                result_transformer_=_rows,
            )
        except Neo4jError as exc:
            if is_refusal(exc.code):  # a new connection of the pool was refused its login
                raise login_refused(self.uri, *self._auth, exc.code or "refused") from None
            # The message names the query and Neo4j's code; parameters stay out of it.
            raise MemoryQueryError.failed(f"query {query.name}", exc.code, exc.message) from None
        except (DriverError, OSError) as exc:
            raise MemoryUnavailableError(
                f"query {query.name}: Neo4j does not answer: {exc}"
            ) from None


def own_pool(uri: str, user: str, password: str, size: int) -> BoltPool | None:
    """Nous's own connections for a plain ``bolt://host[:port]`` address, else None.

    Routing (``neo4j://``) and TLS (``+s``, ``+ssc``) stay the official driver's.
    """
    parts = urlsplit(uri)
    if size <= 0 or parts.scheme != "bolt" or not parts.hostname or parts.path.strip("/"):
        return None
    return BoltPool(parts.hostname, parts.port or 7687, user, password, size=size)


async def _rows(result: neo4j.AsyncResult) -> list[Row]:
    # Record.items() is untyped in the driver; keys() and values() are typed.
    return [
        dict(zip(record.keys(), map(_native, record.values()), strict=True))
        async for record in result
    ]


_PLAIN = (str, int, float, bool, type(None))


def _native(value: Any) -> Any:
    """Neo4j temporal values to Python ones, recursively, so models see datetimes.

    Runs on every value of every row, so plain values leave at the first check.
    """
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list):
        return [_native(v) for v in value]
    if isinstance(value, dict):
        return {k: _native(v) for k, v in value.items()}
    to_native = getattr(value, "to_native", None)
    if callable(to_native):
        return to_native()
    return value
