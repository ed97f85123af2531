"""Asking a Bolt address whether a Neo4j answers there with the given credentials.

Used while finding a Neo4j (:mod:`graph.server`), before any async driver
exists; kept here because only ``graph/store/`` talks to the ``neo4j`` driver.
"""

from __future__ import annotations

import neo4j
from neo4j.exceptions import ClientError, DriverError, Neo4jError

from graph.store.login_guard import check_login, login_refused


def bolt_problem(uri: str, user: str, password: str, *, timeout_s: float) -> str | None:
    """None when ``uri`` answers with these credentials, else why not.

    Refused credentials raise :class:`~graph.errors.MemoryUnavailableError`
    instead: trying further along the chain could not fix them. So does a
    refusal of the same credentials less than a minute ago, without trying
    (:mod:`graph.store.login_guard`).
    """
    check_login(uri, user, password)
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
        raise login_refused(uri, user, password, exc.code or "refused") from None
    except (Neo4jError, DriverError, OSError, ValueError) as exc:
        return f"does not answer ({type(exc).__name__}: {exc})"
    return None
