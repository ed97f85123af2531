"""An audit event handed to a store to write beside what it records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class NewEvent:
    """An ``Event`` to write in the same statement as something else: its type, data, session."""

    type: str
    data: Mapping[str, object]
    """What happened, as JSON-ready values (stored as one JSON string)."""
    session_id: str | None = None
