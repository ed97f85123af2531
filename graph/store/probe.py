"""Asking a Bolt address whether a Neo4j answers there with the given credentials.

Used while finding a Neo4j (:mod:`graph.server`), before any async driver
exists; kept here because only ``graph/store/`` talks to the ``neo4j`` driver.
"""

from __future__ import annotations

import neo4j
from neo4j.exceptions import ClientError, DriverError, Neo4jError

from graph.errors import MemoryUnavailableError


def bolt_problem(uri: str, user: str, password: str, *, timeout_s: float) -> str | None:
    """None when ``uri`` answers with these credentials, else why not.

    Refused credentials raise :class:`MemoryUnavailableError` instead: trying
    further along the chain could not fix them.
    """
    try:
        with neo4j.GraphDatabase.driver(
            uri,
            auth=(user, password),
            connection_timeout=timeout_s,
            connection_acquisition_timeout=timeout_s,
        ) as driver:
            driver.verify_connectivity()
    except ClientError as exc:
        if not (exc.code or "").startswith("Neo.ClientError.Security."):
            return f"does not answer ({exc.code})"
        raise MemoryUnavailableError(
            f"Neo4j at {uri} answers but refused the credentials of user {user!r} "
            f"({exc.code}); set NEO4J_PASSWORD (and NEO4J_USER) to the ones it was given"
        ) from None
    except (Neo4jError, DriverError, OSError, ValueError) as exc:
        return f"does not answer ({type(exc).__name__}: {exc})"
    return None
