"""What every node carries: ``agent_id``, ``id`` and a creation time ``at``."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field
from ulid import ULID


def new_id() -> str:
    """A new node id: a ULID, so ids sort by creation time."""
    return str(ULID())


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC (Neo4j stores it as ``datetime``)."""
    return datetime.now(UTC)


class Node(BaseModel):
    """Base of every node model."""

    model_config = ConfigDict(extra="forbid", use_enum_values=False)

    id: str = Field(default_factory=new_id)
    agent_id: str
    at: datetime = Field(default_factory=utc_now)
