"""Observations for the sense tests: built at a fixed time, with urgency and category given."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graph.models.observe import Category, Observation, ObservationType, Urgency

T = ObservationType
U = Urgency
C = Category
T0 = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)


def obs(
    type_: ObservationType = T.FILE_MODIFIED,
    path: str | None = None,
    *,
    seconds: float = 0.0,
    metadata: dict[str, Any] | None = None,
    urgency: Urgency = U.ROUTINE,
    category: Category = C.SYSTEM,
) -> Observation:
    return Observation(
        agent_id="test",
        type=type_,
        path=path,
        at=T0 + timedelta(seconds=seconds),
        metadata=metadata or {},
        urgency=urgency,
        category=category,
    )
