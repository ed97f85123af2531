"""The team server's bearer tokens: the access layer for ``cypher/tokens/``.

A token is a person's key to ``nous mcp --http``; each maps to one agent id,
whose memory every tool call of that person reads and writes. Only the
token's SHA-256 is kept (an ``ApiToken`` node): the token itself is shown
once, when it is made, and cannot be read back from the graph. Revoking sets
``revoked_at`` and keeps the node, so who had access, and until when, stays
auditable. Tokens belong to no one agent's view of the graph, so this store
runs its queries on the driver itself, with the agent id as an ordinary
parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.store.driver import GraphDriver, Row


@dataclass(frozen=True)
class ApiToken:
    """One team-server token as stored: never the token, never its hash."""

    id: str
    name: str
    agent_id: str
    at: datetime
    revoked_at: datetime | None


class TokenStore:
    """Every agent's team-server tokens (created, listed, looked up, revoked)."""

    def __init__(self, driver: GraphDriver) -> None:
        self.driver = driver

    async def create(
        self, token_id: str, name: str, agent_id: str, token_hash: str, at: datetime
    ) -> ApiToken | None:
        """Keep a token's hash as ``name``, for ``agent_id``; None when a live token has it."""
        rows = await self.driver.write(
            "tokens/create", id=token_id, name=name, agent_id=agent_id, hash=token_hash, at=at
        )
        return _token(rows[0]) if rows else None

    async def by_hash(self, token_hash: str) -> ApiToken | None:
        """The live token whose hash this is, or None (unknown, or revoked)."""
        rows = await self.driver.read("tokens/by_hash", hash=token_hash)
        return _token(rows[0]) if rows else None

    async def all(self, limit: int) -> list[ApiToken]:
        """Every token, live ones first, by name (at most ``limit``)."""
        return [_token(r) for r in await self.driver.read("tokens/list", limit=limit)]

    async def revoke(self, ref: str, at: datetime) -> list[ApiToken]:
        """Revoke the live tokens named ``ref`` (or whose id it is); those revoked."""
        return [_token(r) for r in await self.driver.write("tokens/revoke", ref=ref, at=at)]


def _token(row: Row) -> ApiToken:
    return ApiToken(
        id=str(row["id"]),
        name=str(row["name"]),
        agent_id=str(row["agent_id"]),
        at=_time(row["at"]),
        revoked_at=_time(row["revoked_at"]) if row["revoked_at"] is not None else None,
    )


def _time(value: Any) -> datetime:
    if not isinstance(value, datetime):
        raise TypeError(f"an ApiToken's time is {type(value).__name__}, not a datetime")
    return value
