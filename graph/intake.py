"""What memory takes in, as typed records: one per source, each with its provenance.

Files' changes, Claude Code's prompts, tool calls and replies, transcripts'
lines, commits and what a client tells ``remember`` each arrive as one of
these frozen records (standard library only: the hook path loads no
pydantic). None is written as it came: :func:`cognition.sense.door.admit`
takes the secrets out, applies the size limits and keeps the provenance, and
returns it :class:`Admitted`; the stores that write intake take only that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

Source = Literal["file", "prompt", "tool", "reply", "hook", "transcript", "commit", "remember"]
"""Where a record came from (``Provenance.source``)."""


@dataclass(frozen=True)
class Provenance:
    """Who and what a record came from: its source, session or commit, and who said it."""

    source: Source
    session_id: str | None = None
    commit: str | None = None
    who: str | None = None


@dataclass(frozen=True)
class Prompt:
    """A prompt a person typed into Claude Code (``UserPromptSubmit``)."""

    LIMITS: ClassVar[Mapping[str, int]] = {"text": 100_000}
    text: str
    provenance: Provenance


@dataclass(frozen=True)
class ToolUse:
    """One tool call Claude Code made: its input, and its output or error."""

    LIMITS: ClassVar[Mapping[str, int]] = {
        "tool_input": 100_000,
        "output": 200_000,
        "error": 20_000,
    }
    tool_name: str
    tool_input: Mapping[str, Any]
    output: Any
    error: str | None
    provenance: Provenance


@dataclass(frozen=True)
class Reply:
    """What the assistant answered at the end of a turn (``Stop``, ``PreCompact``'s notes)."""

    LIMITS: ClassVar[Mapping[str, int]] = {"text": 100_000}
    text: str
    provenance: Provenance


@dataclass(frozen=True)
class HookFields:
    """The other fields of a hook's payload that an event names (``HookInput.more``)."""

    LIMITS: ClassVar[Mapping[str, int]] = {"fields": 100_000}
    fields: Mapping[str, Any]
    provenance: Provenance


@dataclass(frozen=True)
class TranscriptEntry:
    """One turn's text read from a session's transcript, by its speaker and line."""

    LIMITS: ClassVar[Mapping[str, int]] = {"text": 20_000}
    speaker: Literal["user", "assistant"]
    text: str
    line: int
    provenance: Provenance


@dataclass(frozen=True)
class FileChange:
    """What a file's change says besides its path and hash (an ``Observation``'s metadata)."""

    LIMITS: ClassVar[Mapping[str, int]] = {"metadata": 2_000}
    path: str | None
    metadata: Mapping[str, Any]
    provenance: Provenance


@dataclass(frozen=True)
class CommitEntry:
    """One commit of the repository: its message, author's name and date, the files it touched.

    ``author`` is a name, never an e-mail address; ``authored_at`` ISO 8601.
    """

    LIMITS: ClassVar[Mapping[str, int]] = {"subject": 300, "body": 8_000, "author": 200}
    sha: str
    subject: str
    body: str
    author: str
    authored_at: str
    files: tuple[str, ...]
    provenance: Provenance = field(default_factory=lambda: Provenance("commit"))


@dataclass(frozen=True)
class Remembered:
    """What a client told MCP ``remember``: a fact or a procedure, and where it came from."""

    LIMITS: ClassVar[Mapping[str, int]] = {"said_source": 500}
    kind: Literal["fact", "procedure"]
    text: str
    said_source: str
    provenance: Provenance


Record = (
    Prompt | ToolUse | Reply | HookFields | TranscriptEntry | FileChange | CommitEntry | Remembered
)
R = TypeVar(
    "R", Prompt, ToolUse, Reply, HookFields, TranscriptEntry, FileChange, CommitEntry, Remembered
)


@dataclass(frozen=True)
class Admitted(Generic[R]):
    """A record that went through the door: what to keep, and what was taken out.

    ``secrets``: the kinds of secret replaced by markers (``aws-access-key``,
    ``private``); ``clipped``: the fields cut to their limit.
    """

    record: R
    secrets: tuple[str, ...] = ()
    clipped: tuple[str, ...] = ()
