"""Code notes (issue 25): what a tool call's output said about the code it called.

A ``CodeNote`` is one statement a run made about a name the code called: the
error a library raised when a call was made (``raised``), the first failing
assert (and the values it compared) of code that made the call
(``failed_assert``), a call that was part of code whose check passed
(``worked``), or a call with a test's arguments and the value it returned
(``returned``). It is kept without waiting for
a verified pass (a library's own error text is true whatever the attempt's
outcome), keyed by the name it is about, recalled for a prompt that names
the same name, and credited by the outcome of the attempts that saw it.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from graph.models.base import Node


class NoteKind(StrEnum):
    """What the run said about the name."""

    RAISED = "raised"
    FAILED_ASSERT = "failed_assert"
    WORKED = "worked"
    # A call with the test's own arguments put in, and the value it returned (issue 25's
    # "the verified call with what it returned"): read off a test line, never computed here.
    RETURNED = "returned"


class NoteStatus(StrEnum):
    """A note's life: only ``active`` ones are recalled."""

    ACTIVE = "active"
    RETIRED = "retired"


class CodeNote(Node):
    """One statement about ``name`` (``FROM`` its turn, ``IN_EPISODE`` its episode)."""

    name: str
    # The name as the code spelled it where it called it (``tally.span``), else the name.
    qualified: str
    kind: NoteKind
    # The line of code that made the call, and what the output said of it.
    call: str
    text: str
    # What the attempt was for (the turn's task), clipped.
    task: str = ""
    # The identity of a repeat: the name, the kind and the text with its literals masked.
    key: str
    seen: int = 1
    helpful: int = 0
    harmful: int = 0
    uses: int = 0
    last_used: datetime | None = None
    last_seen: datetime | None = None
    status: NoteStatus = NoteStatus.ACTIVE
    retired_at: datetime | None = None
    retire_reason: str | None = None
