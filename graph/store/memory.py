"""The memory that the rest of Nous calls: one agent's stores, each built once, as attributes.

One ``Memory`` per agent. It is an :class:`graph.store.agent_graph.AgentGraph`
(queries by name with the agent id added, through :meth:`read` and
:meth:`write`) and owns one store per concept, reached by name:
``memory.decisions``, ``memory.learning``, ``memory.events``, … (graphiti's
namespaces are the model). Callers use these instead of building stores.
A store is built when first used, so a process loads only the stores (and
node models) it uses: a Claude Code hook uses a few (issue 27).
Observations and files, which every part writes, have their methods here.
The Cypher itself lives in ``cypher/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from graph.models.paths import file_id, path_pattern
from graph.store.lean_memory import LeanMemory
from graph.store.mapping import from_properties

if TYPE_CHECKING:
    from graph.models import FileRecord, Observation
    from graph.store.admin import AdminStore
    from graph.store.cases import CaseStore
    from graph.store.censors import CensorStore
    from graph.store.code_notes import CodeNoteStore
    from graph.store.decisions import DecisionStore
    from graph.store.embeddings import EmbeddingStore
    from graph.store.episodes import EpisodeStore
    from graph.store.events import EventStore
    from graph.store.frames import FrameStore
    from graph.store.heuristics import HeuristicStore
    from graph.store.learning import LearningStore
    from graph.store.recall import RecallStore
    from graph.store.recovery import RecoveryStore
    from graph.store.rsi import RSIStore
    from graph.store.test_runs import TestRunStore
    from graph.store.tokens import TokenStore
    from graph.store.transcripts import TranscriptStore
    from graph.store.turns import TurnStore


class Memory(LeanMemory):
    """One agent's view of the graph, and the one instance of each of its stores.

    The stores a hook uses alone (``session_start``, ``calls``, ``audit``) are
    :class:`~graph.store.lean_memory.LeanMemory`'s.
    """

    # Each store is built on first use, then kept (one instance per store, as before): its
    # module and the node models it maps are loaded only by a process that uses it (a hook
    # uses a few; issue 27).

    @cached_property
    def decisions(self) -> DecisionStore:
        """Decisions: recorded, moved through their statuses, explained."""
        from graph.store.decisions import DecisionStore

        return DecisionStore(self)

    @cached_property
    def learning(self) -> LearningStore:
        """Patterns, lessons, calibration and deliberations: what outcomes teach."""
        from graph.store.learning import LearningStore

        return LearningStore(self)

    @cached_property
    def events(self) -> EventStore:
        """The audit stream: one ``Event`` per thing done."""
        from graph.store.events import EventStore

        return EventStore(self)

    @cached_property
    def censors(self) -> CensorStore:
        """Censors: learned from failures, matched, fired."""
        from graph.store.censors import CensorStore

        return CensorStore(self)

    @cached_property
    def episodes(self) -> EpisodeStore:
        """Episodes, working memory, facts and procedures."""
        from graph.store.episodes import EpisodeStore

        return EpisodeStore(self)

    @cached_property
    def recall(self) -> RecallStore:
        """What recall reads: past decisions, text hits, hybrid hits, file changes."""
        from graph.store.recall import RecallStore

        return RecallStore(self)

    @cached_property
    def embeddings(self) -> EmbeddingStore:
        """Vectors: what is pending, the indexes, the nearest nodes."""
        from graph.store.embeddings import EmbeddingStore

        return EmbeddingStore(self)

    @cached_property
    def heuristics(self) -> HeuristicStore:
        """Heuristics and their trials."""
        from graph.store.heuristics import HeuristicStore

        return HeuristicStore(self)

    @cached_property
    def rsi(self) -> RSIStore:
        """RSI cycles, reflections, desires and trajectories."""
        from graph.store.rsi import RSIStore

        return RSIStore(self)

    @cached_property
    def turns(self) -> TurnStore:
        """Claude Code turns and their tool results."""
        from graph.store.turns import TurnStore

        return TurnStore(self)

    @cached_property
    def frames(self) -> FrameStore:
        """Frames: seeded, read, their use counted."""
        from graph.store.frames import FrameStore

        return FrameStore(self)

    @cached_property
    def transcripts(self) -> TranscriptStore:
        """What a Claude Code session said: the transcript's cursor and its utterances."""
        from graph.store.transcripts import TranscriptStore

        return TranscriptStore(self)

    @cached_property
    def admin(self) -> AdminStore:
        """A person's changes: goals, lifted censors, closed escalations, retired heuristics."""
        from graph.store.admin import AdminStore

        return AdminStore(self)

    @cached_property
    def recovery(self) -> RecoveryStore:
        """What a start reconciles after a crash."""
        from graph.store.recovery import RecoveryStore

        return RecoveryStore(self)

    @cached_property
    def cases(self) -> CaseStore:
        """Verified cases: written, recalled, credited."""
        from graph.store.cases import CaseStore

        return CaseStore(self)

    @cached_property
    def test_runs(self) -> TestRunStore:
        """Failed test runs: the test files each broke and the changes before it."""
        from graph.store.test_runs import TestRunStore

        return TestRunStore(self)

    @cached_property
    def code_notes(self) -> CodeNoteStore:
        """Code notes: written, recalled by name, credited, retired."""
        from graph.store.code_notes import CodeNoteStore

        return CodeNoteStore(self)

    @cached_property
    def tokens(self) -> TokenStore:
        """The team server's bearer tokens, of every agent (not this agent's view: see there)."""
        from graph.store.tokens import TokenStore

        return TokenStore(self.driver)

    async def record_observations(
        self, observations: Sequence[Observation], *, batch_size: int = 1000
    ) -> int:
        """Persist observations and their ``File`` nodes; return how many were new to the graph.

        A batch whose observations each concern one File and nothing more (most batches) is
        written by a statement without the move and ``CAUSED_BY`` subqueries, which every
        row pays for, link or not; any other batch, whole, by the statement that has them,
        so a batch that fits one chunk is still one transaction either way.
        """
        if not observations:
            return 0
        plain = all(only_a_file(o) for o in observations)
        result = await self.write_rows(
            "observe/record_file_observations" if plain else "observe/record_observations",
            observations,
            batch_size=batch_size,
            convert=observation_row,
            # A chunk with an id already stored (a retried or replayed batch) is written
            # again the way that leaves those out; the first way does not look ids up.
            on_conflict="observe/record_observations_checked",
        )
        return sum(int(r["written"]) for r in result)

    async def file_records(self) -> dict[str, FileRecord]:
        """Every file this agent believes exists, by relative path."""
        from graph.models import FileRecord

        rows = await self.read("observe/file_records")
        return {r["path"]: FileRecord.model_validate(r) for r in rows}

    async def touch_files(self, records: Iterable[FileRecord]) -> int:
        """Store a new size and mtime for files whose content did not change."""
        rows = [{"path": r.path, "size": r.size, "mtime": r.mtime} for r in records]
        if not rows:
            return 0
        result = await self.write_rows("observe/touch_files", rows)
        return sum(int(r["touched"]) for r in result)

    async def record_baseline(self, observations: Sequence[Observation]) -> int:
        """Store the files a first look found (``observations`` of their creation) as ``File``
        nodes only: the baseline, with no ``Observation``; return how many were stored."""
        rows = [
            {
                "path": o.path,
                "file_id": file_id(o.agent_id, o.path),
                "at": o.at,
                "content_hash": o.content_hash,
                "size": o.size,
                "mtime": o.mtime,
            }
            for o in observations
            if o.path is not None
        ]
        if not rows:
            return 0
        result = await self.write_rows("observe/record_baseline", rows)
        return sum(int(r["recorded"]) for r in result)

    async def observation_counts(self) -> tuple[int, int]:
        """(total observations, unprocessed observations) for this agent."""
        rows = await self.read("observe/observation_counts")
        return int(rows[0]["total"]), int(rows[0]["unprocessed"])

    async def observations_for_path(self, path: str, *, limit: int = 50) -> list[Observation]:
        """The observations about one file, newest first."""
        from graph.models import Observation

        rows = await self.read("observe/observations_for_path", path=path, limit=limit)
        return [from_properties(Observation, r, agent_id=self.agent_id) for r in rows]

    async def forget(self, *, chunk: int = 10_000) -> int:
        """Delete every node of this agent (tests, and a person starting over)."""
        total = 0
        while True:
            rows = await self.write("admin/forget_agent", limit=chunk)
            deleted = int(rows[0]["deleted"]) if rows else 0
            total += deleted
            if deleted == 0:
                return total


# One encoder for every row: json.dumps with options builds a new one on each call.
_METADATA = json.JSONEncoder(sort_keys=True, default=str)


def only_a_file(o: Observation) -> bool:
    """Whether ``o`` links to its File and nothing else: a path, no move, not the agent's edit."""
    from graph.models import ObservationType

    return o.path is not None and o.caused_by is None and o.type is not ObservationType.FILE_MOVED


def observation_row(o: Observation) -> dict[str, Any]:
    """The query parameters of one observation (metadata as a JSON string)."""
    from graph.models import ObservationType

    from_path = o.metadata.get("from_path") if o.type is ObservationType.FILE_MOVED else None
    return {
        "id": o.id,
        "agent_id": o.agent_id,
        "at": o.at,
        "type": o.type.value,
        "urgency": o.urgency.value,
        "category": o.category.value,
        "path": o.path,
        "path_pattern": path_pattern(o.path),
        "content_hash": o.content_hash,
        "size": o.size,
        "mtime": o.mtime,
        # The agent's own edits are processed from the start: they never start an action.
        "processed": o.processed or o.caused_by is not None,
        "metadata": _METADATA.encode(o.metadata),
        "caused_by": o.caused_by,
        "from_path": from_path,
        "file_exists": o.type is not ObservationType.FILE_DELETED,
        "file_id": file_id(o.agent_id, o.path) if o.path else None,
        "from_file_id": file_id(o.agent_id, from_path) if from_path else None,
    }
