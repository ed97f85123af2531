"""The vector job: embeds what was written since its last run, in batches, in the background.

Nothing on the observation write path or in the decision loop waits for it:
nodes are written as before, and this job, run on an interval by the
scheduler (or to the end by ``nous embeddings backfill``), finds the nodes of
each label that have text and no vector (``embeddings/pending``, from a
cursor per label), embeds their text with the one :class:`Embeddings`
client and stores the vectors with their model and dimension. A File's
vector is made from its path and an excerpt of its text, read inside the
watched root (binary and unreadable files are recorded as done, without a
vector).

The same job serves every process that writes memory: the daemon (on its
interval), ``nous mcp`` (in the background after a write:
:mod:`cognition.recall.background_vectors`) and a hook working alone (after
its answer). A writer other than the daemon gives a ``lookback``: each pass
then starts no later than that long ago, so what another process wrote a
moment before (with an earlier time, committed later) is not passed over.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from cognition.embeddings import Embeddings
from cognition.errors import LLMUnavailableError
from cognition.recall.file_head import read_file_view
from graph.errors import GraphError
from graph.models import utc_now
from graph.settings import EmbeddingSettings
from graph.store.embeddings import (
    EMBEDDED_LABELS,
    EPOCH,
    INDEX_DIMENSIONS,
    Pending,
    VectorRow,
)
from graph.store.memory import Memory

log = logging.getLogger(__name__)


class ModelChangedError(RuntimeError):
    """The memory holds vectors of another model than the settings ask for."""


@dataclass
class VectorJobStats:
    """What the job did so far, for the status line and ``nous embeddings status``."""

    written: int = 0
    runs: int = 0
    last_error: str | None = None
    last_run: datetime | None = None
    per_label: dict[str, int] = field(default_factory=dict)


class VectorJob:
    """Writes vectors for one agent's memory with ``embeddings``; files read below ``root``."""

    def __init__(
        self,
        memory: Memory,
        embeddings: Embeddings,
        settings: EmbeddingSettings,
        root: Path,
        *,
        labels: Sequence[str] = EMBEDDED_LABELS,
        since: datetime = EPOCH,
        lookback: timedelta | None = None,
    ) -> None:
        """``labels``: what to embed (a hook writes no File); ``since``: where each label's
        cursor starts; ``lookback``: each pass starts no later than that long before it."""
        self.store = memory.embeddings
        self.embeddings = embeddings
        self.settings = settings
        self.root = root
        self.labels = tuple(label for label in EMBEDDED_LABELS if label in labels)
        self.lookback = lookback
        self.cursors: dict[str, datetime] = dict.fromkeys(self.labels, since)
        self.stats = VectorJobStats()
        self._running = asyncio.Lock()

    async def check_model(self) -> None:
        """Refuse to go on when the agent's vectors come from another model or dimension.

        Called at start: vectors of two models are never mixed in one index,
        and re-embedding is done only by ``nous embeddings reembed``.
        """
        problem = await self.model_problem()
        if problem is not None:
            raise ModelChangedError(problem)

    async def model_problem(self) -> str | None:
        """Why this job must not write vectors into this memory (see :meth:`check_model`)."""
        space = await self.store.space()
        model, dims = self.embeddings.model, self.embeddings.dimensions
        if dims and dims != INDEX_DIMENSIONS:
            return (
                f"embeddings: model {model!r} makes {dims}-dimension vectors, but the vector "
                f"index holds {INDEX_DIMENSIONS} (choose a {INDEX_DIMENSIONS}-dimension model "
                "or embeddings.provider: off)"
            )
        if space.model is None or (space.model == model and space.dimensions in (None, dims)):
            return None
        return (
            f"embeddings: the memory of agent {self.store.graph.agent_id!r} holds vectors of "
            f"model {space.model!r} ({space.dimensions} dimensions), but the settings ask for "
            f"model {model!r} ({dims} dimensions). Vectors of two models are never mixed: "
            "run `nous embeddings reembed` to replace them with the new model's, or set "
            "embeddings.provider/model back (embeddings.provider: off turns vectors off)."
        )

    async def run(self) -> int:
        """One pass over every label, at most ``max_per_run`` vectors; return how many."""
        async with self._running:
            return await self._pass()

    async def backfill(self) -> int:
        """Embed every node of the agent that needs a vector, from the oldest; return how many."""
        async with self._running:
            self.cursors = dict.fromkeys(self.labels, EPOCH)
            total = 0
            while written := await self._pass():
                total += written
            return total

    async def _pass(self) -> int:
        written = 0
        try:
            for label in self.labels:
                budget = self.settings.max_per_run - written
                if self.lookback is not None:
                    self.cursors[label] = min(self.cursors[label], utc_now() - self.lookback)
                while budget > 0:
                    batch = await self.store.pending(
                        label, self.cursors[label], min(self.settings.batch_size, budget)
                    )
                    if not batch:
                        break
                    stored = await self._embed(label, batch)
                    self.cursors[label] = max(p.cursor for p in batch)
                    written += len(batch)
                    budget -= len(batch)
                    self.stats.per_label[label] = self.stats.per_label.get(label, 0) + stored
                    self.stats.written += stored
            self.stats.last_error = None
        except (GraphError, LLMUnavailableError, OSError, ValueError) as exc:
            # The job runs again at its next interval; the status line shows why it stopped.
            self.stats.last_error = f"vector job: {exc}"
            log.warning("%s", self.stats.last_error)
        self.stats.runs += 1
        return written

    async def _embed(self, label: str, batch: list[Pending]) -> int:
        texts: list[str | None] = []
        excerpts: list[str | None] = []
        for p in batch:
            excerpt = await self._excerpt(p) if label == "File" else None
            excerpts.append(excerpt)
            text = (f"{p.path}: {excerpt}" if excerpt else None) if label == "File" else p.text
            texts.append(text[: self.settings.text_chars] if text else None)
        wanted = [t for t in texts if t]
        vectors = await self.embeddings.passages(wanted) if wanted else []
        if vectors is None:
            raise LLMUnavailableError("the embedding endpoint serves no embeddings")
        found = iter(vectors)
        rows = [
            VectorRow(
                eid=p.eid,
                vector=next(found) if text else None,
                hash=p.content_hash,
                excerpt=excerpt,
            )
            for p, text, excerpt in zip(batch, texts, excerpts, strict=True)
        ]
        return await self.store.write(
            label, rows, model=self.embeddings.model, dimensions=self.embeddings.dimensions
        )

    async def _excerpt(self, pending: Pending) -> str | None:
        """The start of a text file (None for a binary, unreadable or vanished one)."""
        if not pending.path:
            return None
        limit = self.settings.excerpt_chars * 4  # bytes: a character is at most four
        view = await asyncio.to_thread(read_file_view, self.root, pending.path, limit)
        if view.binary or view.error or not view.content_head:
            return None
        return view.content_head[: self.settings.excerpt_chars].strip() or None
