"""The repository's history in memory: the access layer for ``cypher/commits/``.

Commits come from :mod:`graph.watch.git` through the door
(:func:`cognition.sense.door.admit`): this store takes only what the door
returned. No pydantic: a Claude Code hook reads history at ``SessionStart``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from graph.ids import file_id, new_id, utc_now
from graph.intake import Admitted, CommitEntry
from graph.store.agent_graph import AgentGraph


class CommitStore:
    """One agent's commits: the sha read last, and the commits read since."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def seen_head(self) -> str | None:
        """The sha the history's reader saw last, or None before its first read."""
        rows = await self.graph.read("commits/seen_head")
        return str(rows[0]["head"]) if rows and rows[0]["head"] else None

    async def record_commits(self, commits: Sequence[Admitted[CommitEntry]], head: str) -> int:
        """Write ``commits`` (each ``TOUCHED`` its files) and ``head`` as the sha seen last.

        Returns how many commits were new. A commit whose date does not parse
        is kept without one.
        """
        agent_id = self.graph.agent_id
        rows = [
            {
                "id": new_id(),
                "sha": c.record.sha,
                "subject": c.record.subject,
                "body": c.record.body,
                "author": c.record.author,
                "authored_at": _date(c.record.authored_at),
                "files_text": "\n".join(c.record.files),
                "files": [{"path": p, "file_id": file_id(agent_id, p)} for p in c.record.files],
            }
            for c in commits
        ]
        found = await self.graph.write(
            "commits/record_commits", rows=rows, head=head, log_id=new_id(), now=utc_now()
        )
        return int(found[0]["written"]) if found else 0


def _date(text: str) -> datetime | None:
    """An ISO 8601 date as git prints it (``%aI``), or None."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None
