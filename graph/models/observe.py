"""Observations and the files they are about (seed 000, section 1.1)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graph.models.base import Node


class ObservationType(StrEnum):
    """The thirteen kinds of thing Nous can observe."""

    FILE_CREATED = "file_created"
    FILE_MODIFIED = "file_modified"
    FILE_DELETED = "file_deleted"
    FILE_MOVED = "file_moved"
    PROCESS_STARTED = "process_started"
    PROCESS_COMPLETED = "process_completed"
    PROCESS_FAILED = "process_failed"
    TASK_QUEUED = "task_queued"
    TASK_COMPLETED = "task_completed"
    TASK_FAILED = "task_failed"
    TIME_ELAPSED = "time_elapsed"
    SCHEDULE_TRIGGERED = "schedule_triggered"
    EXTERNAL_EVENT = "external_event"


class Urgency(StrEnum):
    """How soon an observation wants attention; the queue orders by it."""

    CRITICAL = "critical"
    URGENT = "urgent"
    ROUTINE = "routine"
    LOW = "low"
    NOISE = "noise"


class Category(StrEnum):
    """Seed 000's eleven semantic categories, and code and tests (issue 28).

    ``code`` and ``test`` were ``system`` before, like CI workflows; stored
    observations keep the category they were written with.
    """

    INTAKE = "intake"
    KNOWLEDGE = "knowledge"
    THINKER = "thinker"
    INDEX = "index"
    TEMPLATE = "template"
    CONFIG = "config"
    TASK_LIFECYCLE = "task_lifecycle"
    EXECUTION = "execution"
    SYSTEM = "system"
    SELF_REFERENCE = "self_reference"
    LEARNING = "learning"
    CODE = "code"
    TEST = "test"


FILE_TYPES = frozenset(
    {
        ObservationType.FILE_CREATED,
        ObservationType.FILE_MODIFIED,
        ObservationType.FILE_DELETED,
        ObservationType.FILE_MOVED,
    }
)


class Observation(Node):
    """One thing that happened: the atomic input of the decision loop.

    ``path`` is relative to the watched root, with forward slashes. For a
    move, ``path`` is the new place and ``metadata["from_path"]`` the old.
    ``caused_by`` names the ``Execution`` whose child process made the
    change, when Nous made it itself.
    """

    type: ObservationType
    urgency: Urgency = Urgency.ROUTINE
    category: Category = Category.SYSTEM
    path: str | None = None
    content_hash: str | None = None
    size: int | None = None
    mtime: float | None = None
    processed: bool = False
    metadata: dict[str, Any] = Field(default_factory=dict)
    caused_by: str | None = None

    @property
    def is_file_change(self) -> bool:
        """True for the four file types."""
        return self.type in FILE_TYPES

    def to_context_string(self) -> str:
        """One line for a prompt: time, type, urgency, category, path."""
        parts = [
            f"[{self.at.isoformat()}]",
            f"Type: {self.type.value}",
            f"Urgency: {self.urgency.value}",
            f"Category: {self.category.value}",
        ]
        if self.path:
            parts.append(f"Path: {self.path}")
        if self.metadata:
            parts.append(f"Metadata: {self.metadata}")
        return " | ".join(parts)


class FileRecord(BaseModel):
    """What the memory knows of one file under the root (a ``File`` node)."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    path: str
    content_hash: str | None = None
    size: int | None = None
    mtime: float | None = None
    exists: bool = True
