"""Sessions remembered: episodes, working memory, and the facts and procedures they support.

The access layer for the episodic part of ``cypher/learn/``. An episode is
open while its ``open_session`` property holds its session id; a uniqueness
constraint on ``(agent_id, open_session)`` keeps it to one open episode per
session, and ending the episode removes the property. So a restarted process
finds a session's open episode in the graph, not in a dictionary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from graph.models import Episode, Fact, Procedure, WorkingMemory, new_id, utc_now
from graph.store.lean_memory import LeanMemory
from graph.store.mapping import from_properties, from_row, to_properties

M = TypeVar("M", bound=BaseModel)
# A remembered fact's context: the facts told just before it from the same source in the
# same session. Two, measured on conversations (bench.recall_quality --conversation, offline
# study in the notes): one found fewer answers, three or four no more. Each at most
# CONTEXT_CHARS: a conversation's turn, not a document.
CONTEXT_FACTS = 2
CONTEXT_CHARS = 500


def lessons_text(lessons: Sequence[str]) -> str:
    """Lessons as one string, one per line, for the ``episode_text`` full-text index."""
    return "\n".join(lessons)


class EpisodeStore:
    """Episodes, working memory, facts and procedures of one agent."""

    def __init__(self, graph: LeanMemory) -> None:
        self.graph = graph

    @property
    def agent_id(self) -> str:
        """The agent this store reads and writes for."""
        return self.graph.agent_id

    async def start_episode(self, session_id: str) -> tuple[Episode, bool]:
        """The session's open episode, started if there is none; True when started now.

        An episode started now is recorded in the audit stream (``episode_started``) by
        the same statement.
        """
        started = await self.graph.session_start.start_episode(session_id)
        return from_row(Episode, started.episode), started.created

    async def open_episode(self, session_id: str) -> Episode | None:
        """The session's open episode, or None."""
        rows = await self.graph.read("learn/open_episode", session_id=session_id)
        return from_properties(Episode, rows[0]["episode"]) if rows else None

    async def episode(self, episode_id: str) -> Episode | None:
        """One episode by id, open or ended, or None."""
        rows = await self.graph.read("learn/episode_by_id", episode_id=episode_id)
        return from_properties(Episode, rows[0]["episode"]) if rows else None

    async def note_episode(
        self, episode_id: str, *, summary: str, outcome: str, lessons: Sequence[str] = ()
    ) -> bool:
        """Record one turn in an open episode; False when it has ended (or does not exist)."""
        rows = await self.graph.write(
            "learn/note_episode",
            episode_id=episode_id,
            summary=summary,
            outcome=outcome,
            lessons=list(lessons),
        )
        return bool(rows and rows[0]["noted"])

    async def end_episode(
        self,
        episode_id: str,
        *,
        outcome: str,
        summary: str | None = None,
        lessons: Sequence[str] | None = None,
    ) -> tuple[Episode | None, bool]:
        """End an episode once; (the episode, True when this call ended it).

        ``summary`` and ``lessons`` left at None keep what its turns noted.
        Ending an ended episode changes nothing and returns False.
        """
        rows = await self.graph.write(
            "learn/end_episode",
            episode_id=episode_id,
            outcome=outcome,
            summary=summary,
            lessons=None if lessons is None else list(lessons),
            lessons_text=None if lessons is None else lessons_text(lessons),
            now=utc_now(),
        )
        if not rows:
            return None, False
        return from_properties(Episode, rows[0]["episode"]), bool(rows[0]["ended"])

    async def end_session(self, session_id: str, *, outcome: str = "completed") -> Episode | None:
        """End the session's open episode: the episode when this call ended it, None when the
        session had none open (so ending twice is harmless)."""
        episode = await self.open_episode(session_id)
        if episode is None:
            return None
        ended_episode, ended = await self.end_episode(episode.id, outcome=outcome)
        return ended_episode if ended else None

    async def update_working_memory(
        self,
        session_id: str,
        *,
        current_task: str,
        current_frame: str | None = None,
        open_threads: Sequence[str] | None = None,
    ) -> WorkingMemory:
        """Set what a session is busy with (created on first use); None threads keeps them."""
        rows = await self.graph.write(
            "learn/upsert_working_memory",
            session_id=session_id,
            id=new_id(),
            now=utc_now(),
            current_task=current_task,
            current_frame=current_frame,
            open_threads=None if open_threads is None else list(open_threads),
        )
        return from_properties(WorkingMemory, rows[0]["working_memory"])

    async def save_compaction(
        self,
        episode_id: str,
        working_memory: WorkingMemory | None,
        *,
        decision_id: str | None,
        lessons: Sequence[str],
    ) -> int | None:
        """Keep on an open episode what its session holds before a compaction.

        The working memory (task, frame, open threads), the open decision, and
        ``lessons`` appended. Returns how many lessons the episode holds, None
        when it is not open.
        """
        rows = await self.graph.write(
            "learn/save_compaction",
            episode_id=episode_id,
            task=working_memory.current_task if working_memory else "",
            frame=working_memory.current_frame if working_memory else None,
            threads=list(working_memory.open_threads) if working_memory else [],
            decision_id=decision_id,
            lessons=list(lessons),
            now=utc_now(),
        )
        return int(rows[0]["lessons"]) if rows else None

    async def working_memory(self, session_id: str) -> WorkingMemory | None:
        """A session's working memory, or None before its first turn."""
        rows = await self.graph.read("learn/working_memory", session_id=session_id)
        return from_properties(WorkingMemory, rows[0]["working_memory"]) if rows else None

    async def add_fact(self, fact: Fact, *, episode_id: str | None = None) -> str:
        """Write a fact, ``SUPPORTED_BY`` the episode it came from."""
        rows = await self.graph.write(
            "learn/add_fact",
            fact=to_properties(fact),
            episode_id=episode_id,
            session_id=None,
            source=None,
            context_facts=CONTEXT_FACTS,
            context_chars=CONTEXT_CHARS,
        )
        return str(rows[0]["id"])

    async def remember_fact(self, fact: Fact, *, source: str, session_id: str | None = None) -> str:
        """Write a fact someone told the agent, with ``source``: where it came from.

        With ``session_id`` (the writer's session), the facts this agent remembered just
        before it from the same source in the same session are its context: recall finds
        the fact by their words too (``learn/add_fact``).
        """
        rows = await self.graph.write(
            "learn/add_fact",
            fact={**to_properties(fact), "source": source},
            episode_id=None,
            session_id=session_id,
            source=source,
            context_facts=CONTEXT_FACTS,
            context_chars=CONTEXT_CHARS,
        )
        return str(rows[0]["id"])

    async def confirm_fact(self, fact_id: str, *, episode_id: str | None = None) -> int | None:
        """Count one more confirmation; return the count, or None when there is no such fact."""
        rows = await self.graph.write(
            "learn/confirm_fact", fact_id=fact_id, episode_id=episode_id, now=utc_now()
        )
        return int(rows[0]["confirmations"]) if rows else None

    async def add_procedure(self, procedure: Procedure, *, episode_id: str | None = None) -> str:
        """Write a procedure (confirmations 1), ``SUPPORTED_BY`` the episode it came from."""
        rows = await self.graph.write(
            "learn/add_procedure",
            procedure=_procedure_properties(procedure),
            episode_id=episode_id,
        )
        return str(rows[0]["id"])

    async def remember_procedure(self, procedure: Procedure, *, source: str) -> str:
        """Write a procedure someone told the agent, with ``source``: where it came from."""
        rows = await self.graph.write(
            "learn/add_procedure",
            procedure={**_procedure_properties(procedure), "source": source},
            episode_id=None,
        )
        return str(rows[0]["id"])

    async def confirm_procedure(
        self, procedure_id: str, *, episode_id: str | None = None
    ) -> int | None:
        """Count one more confirmation; return the count, or None when there is no such one."""
        rows = await self.graph.write(
            "learn/confirm_procedure",
            procedure_id=procedure_id,
            episode_id=episode_id,
            now=utc_now(),
        )
        return int(rows[0]["confirmations"]) if rows else None


def _procedure_properties(procedure: Procedure) -> dict[str, object]:
    # core_patterns_text keeps the patterns searchable by the procedure_text full-text index.
    return {
        **to_properties(procedure),
        "core_patterns": list(procedure.core_patterns),
        "core_patterns_text": "\n".join(procedure.core_patterns),
        "confirmations": 1,
    }
