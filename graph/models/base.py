"""What every node carries: ``agent_id``, ``id`` and a creation time ``at``."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from graph.ids import new_id as new_id
from graph.ids import utc_now as utc_now


class Node(BaseModel):
    """Base of every node model."""

    # Built on first use, not at import: a hook process builds a few of the node models and
    # imports them all (issue 27).
    model_config = ConfigDict(extra="forbid", use_enum_values=False, defer_build=True)

    id: str = Field(default_factory=new_id)
    agent_id: str
    at: datetime = Field(default_factory=utc_now)
