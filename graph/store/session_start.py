"""What a Claude Code session's start reads and writes, without pydantic.

``SessionStart`` working alone is a process of its own (issue 27), so it
starts the session's episode and reads the strategies and censors it shows
over plain properties, in a module that loads no node model. The stores that
hand out models build on it (:class:`~graph.store.episodes.EpisodeStore`,
:class:`~graph.store.censors.CensorStore`,
:class:`~graph.store.heuristics.HeuristicStore`): each statement is run from
one place, and a new episode's properties are the model's (a test compares them).
"""

from __future__ import annotations

from typing import Any

from graph.ids import new_id, utc_now
from graph.store.agent_graph import AgentGraph
from graph.store.calls import event_properties
from graph.store.rows import from_stored
from graph.store.rows.session import CensorRow, EpisodeRow, HeuristicRow, StartedEpisode

ACTIVE_CENSORS = 20
"""The most active censors a session's start is shown."""


def new_episode_properties(agent_id: str, session_id: str) -> dict[str, Any]:
    """A new ``Episode``'s properties as :class:`graph.models.Episode` stores them (no ``None``)."""
    now = utc_now()
    return {
        "id": new_id(),
        "agent_id": agent_id,
        "at": now,
        "session_id": session_id,
        "started_at": now,
        "summary": "",
        "lessons": [],
        "kept_task": "",
        "kept_threads": [],
        "compactions": 0,
    }


class SessionStartStore:
    """One agent's episodes started, and the censors and strategies a session is shown."""

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def start_episode(self, session_id: str) -> StartedEpisode:
        """The session's open episode, started if there is none; ``created`` when started
        now (with its ``episode_started`` event, by the same statement)."""
        properties = new_episode_properties(self.graph.agent_id, session_id)
        rows = await self.graph.write(
            "learn/start_episode",
            session_id=session_id,
            episode={**properties, "lessons_text": "", "open_session": session_id},
            event=event_properties(
                self.graph.agent_id,
                "episode_started",
                {"episode_id": properties["id"]},
                session_id=session_id,
            ),
        )
        episode = from_stored(EpisodeRow, rows[0]["episode"])
        return StartedEpisode(episode, bool(rows[0]["created"]))

    async def active_censors(self, limit: int = ACTIVE_CENSORS) -> list[CensorRow]:
        """The active censors, block first, then the most fired."""
        rows = await self.graph.read("learn/active_censors", limit=limit)
        return [from_stored(CensorRow, r["censor"]) for r in rows]

    async def heuristics(self, status: str, domain: str | None = None) -> list[HeuristicRow]:
        """The heuristics in ``status`` (of one domain, or all), oldest first."""
        rows = await self.graph.read("rsi/heuristics_by_status", status=status, domain=domain)
        return [from_stored(HeuristicRow, r["heuristic"]) for r in rows]
