"""Typed models of the nodes in the memory graph: data only, they never save themselves.

The access layer in :mod:`graph.memory` turns records into these models and
these models into query parameters.
"""

from graph.models.base import Node, new_id, utc_now
from graph.models.observe import (
    Category,
    FileRecord,
    Observation,
    ObservationType,
    Urgency,
)

__all__ = [
    "Category",
    "FileRecord",
    "Node",
    "Observation",
    "ObservationType",
    "Urgency",
    "new_id",
    "utc_now",
]
