"""Rows of ``embeddings/vectors_since`` and ``embeddings/status``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class StoredVector:
    """One node's vector as the agent's in-memory copy reads it."""

    eid: str
    """The node's element id."""
    label: str | None
    path: str | None
    """A File's path; None for any other node."""
    embedding: list[float]
    embedded_at: datetime


@dataclass(frozen=True)
class LabelCoverage:
    """How far one label is embedded: nodes, with text, vectors, of this model, pending."""

    label: str
    nodes: int
    with_text: int
    vectors: int
    current: int
    pending: int
