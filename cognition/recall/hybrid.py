"""Hybrid recall: a free-text question answered by words, meaning and graph proximity, fused.

Three methods search in one round trip (``recall/hybrid``): full-text (one
Lucene index over every recalled label, asked for this agent's hits only),
vectors (Neo4j's vector index for a big agent; a small one's own vectors,
compared in memory), and graph proximity (the same
file, path pattern or session).
:meth:`HybridRecall.search` returns each method's candidates; :func:`fuse`
merges them by weighted reciprocal rank fusion (each method adds
``weight / (k + rank)``; see :data:`WEIGHTS`), each item saying which methods
found it. A question from a client or a prompt is answered by the one door,
:mod:`cognition.recall.question`, which fuses them its own way and ranks the
result a second time (:mod:`cognition.recall.rank`); the daemon's decisions
use :meth:`HybridRecall.similar`.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cognition.errors import LLMUnavailableError
from graph.models.paths import path_pattern
from graph.store.embeddings import Space
from graph.store.lucene import agent_query, lucene_query
from graph.store.memory import Memory
from graph.store.recall import Hit, HybridHits, HybridRequest

if TYPE_CHECKING:
    # Types only: a Claude Code hook recalls without the embedding client or numpy loaded,
    # and reads its settings without pydantic.
    from cognition.embeddings import Embeddings, Vector
    from cognition.recall.agent_vectors import AgentVectors
    from graph.settings import EmbeddingSettings
    from graph.settings_lean import HookEmbeddings

log = logging.getLogger(__name__)

RRF_K = 60  # the constant of reciprocal rank fusion (Cormack et al.): damps the top ranks
# The default weights of :func:`fuse` (the former fusion, which bench.recall_quality still
# measures). Words weigh less: on questions put in other words the best full-text hits are
# mostly noise. But at 0.7 a hit found by words alone ranks below the ten best by meaning
# (0.7 / 61 < 1 / 70), and on English conversations, where words are the stronger method,
# that put recall below plain BM25's: a question is fused by cognition.recall.question's
# weights instead.
WEIGHTS = {"meaning": 1.0, "graph": 1.0, "words": 0.7}
SPACE_TTL_S = 30.0  # vector counts move slowly; re-read the space at most this often
ITEM_CHARS = 400  # of one item's text, shown


@dataclass(frozen=True)
class RecalledItem:
    """One fused result: its score and which methods found it (words, meaning, graph)."""

    label: str
    id: str
    text: str
    score: float
    found_by: tuple[str, ...]
    at: str | None = None
    path: str | None = None
    context: str = ""  # a fact's: what was remembered just before it (the same source)


def fuse(
    rankings: dict[str, Sequence[Hit]],
    *,
    k: int = RRF_K,
    weights: dict[str, float] | None = None,
) -> list[RecalledItem]:
    """Weighted reciprocal rank fusion of each method's hits (each list best first).

    An item scores the sum, over the methods that found it, of
    ``weights[method] / (k + rank)`` (:data:`WEIGHTS` by default); best first.
    """
    weights = WEIGHTS if weights is None else weights
    return merge(
        {
            method: [
                (hit, weights.get(method, 1.0) / (k + rank + 1))
                for rank, hit in enumerate(sorted(hits, key=lambda h: -h.score))
            ]
            for method, hits in rankings.items()
        }
    )


def merge(shares: dict[str, Sequence[tuple[Hit, float]]]) -> list[RecalledItem]:
    """Items scored the sum of what each method gives them; best first.

    ``shares`` holds each method's hits, best first, with what each adds to its item's
    score (a reciprocal rank for :func:`fuse`, a weighted normalised score for
    :func:`cognition.recall.rank.combine`); a method counts an item once, at its best.
    """
    scores: dict[tuple[str, str], float] = {}
    found: dict[tuple[str, str], list[str]] = {}
    first: dict[tuple[str, str], Hit] = {}
    for method, hits in shares.items():
        for hit, share in hits:
            key = (hit.label, hit.id)
            if method in found.get(key, ()):
                continue
            scores[key] = scores.get(key, 0.0) + share
            found.setdefault(key, []).append(method)
            first.setdefault(key, hit)
    ordered = sorted(scores, key=lambda key: -scores[key])
    return [
        RecalledItem(
            label=first[key].label,
            id=first[key].id,
            text=first[key].text,
            score=scores[key],
            found_by=tuple(found[key]),
            at=first[key].at,
            path=first[key].path,
            context=first[key].context,
        )
        for key in ordered
    ]


class HybridRecall:
    """Hybrid recall over one agent's memory; vectors only where ``embeddings`` is set."""

    def __init__(
        self,
        memory: Memory,
        embeddings: Embeddings | None,
        settings: EmbeddingSettings | HookEmbeddings,
        *,
        written: Callable[[], int] | None = None,
    ) -> None:
        """``written``: how many vectors this process has written so far (a server that
        embeds what it is told); when it moves, the next request reads the vector counts
        and the agent's vectors again instead of waiting for ``SPACE_TTL_S``."""
        self.store = memory.recall
        self.embeddings = embeddings
        self.settings = settings
        self._space: Space | None = None
        self._space_read = -math.inf
        self._vectors = memory.embeddings
        self._mine: AgentVectors | None = None
        self._mine_read = -math.inf
        self._written = written
        self._written_seen = written() if written is not None else 0

    async def search(
        self,
        query: str,
        *,
        path: str | None = None,
        session_id: str | None = None,
        limit: int = 10,
        vector: Vector | None = None,
        useful_only: bool = False,
    ) -> HybridHits:
        """Each method's candidates for ``query``, ``limit`` of each, best first (not fused).

        ``useful_only`` leaves out decisions that did nothing (WAIT, never run, dry run).
        """
        if vector is None and self.embeddings is not None and query.strip():
            try:
                vector = await self.embeddings.query(query)
            except LLMUnavailableError as exc:
                log.info("recall by meaning skipped: %s", exc)
        words = agent_query(lucene_query([query]), self.store.graph.agent_id)
        return await self.store.hybrid(
            await self.request(
                query=words,
                vector=vector,
                path=path,
                path_pattern=path_pattern(path),
                session_id=session_id,
                words_limit=limit,
                meaning_limit=limit if vector is not None else 0,
                graph_limit=limit,
                useful_only=useful_only,
            )
        )

    async def similar(
        self, *, vector: Vector | None = None, path: str | None = None, limit: int = 10
    ) -> list[Hit]:
        """The agent's nodes nearest ``vector`` (or the File at ``path``'s vector), best first."""
        if self.embeddings is None or limit <= 0:
            return []
        request = await self.request(
            vector=vector, path=path, meaning_limit=limit, words_limit=0, graph_limit=0
        )
        if request.meaning_limit == 0:
            return []
        return (await self.store.hybrid(request)).meaning

    async def request(self, **fields: Any) -> HybridRequest:
        """The store request, the vector search planned: in memory, by the index, or none."""
        model = self.embeddings.model if self.embeddings is not None else ""
        self._see_writes()
        space = await self.space() if self.embeddings is not None else None
        limit = int(fields["meaning_limit"])
        if space is None or space.mine == 0 or space.model != model or limit == 0:
            fields["meaning_limit"] = 0  # no vectors of this model: nothing to compare
            return HybridRequest(model=model, **fields)
        in_memory, k = self.plan(space, limit)
        if not in_memory:
            return HybridRequest(model=model, k=k, **fields)
        mine = await self._agent_vectors(model)
        path, vector = fields.get("path"), fields.get("vector")
        # The File at ``path`` is left out only when it is the query itself (as the
        # index branch of recall/hybrid does); a question asked beside it may be about it.
        if vector is not None:
            near = mine.nearest(vector, limit)
        else:
            query = mine.vector_of(path) if path else None
            near = mine.nearest(query, limit, skip=path) if query is not None else []
        fields["meaning_limit"] = limit if near else 0
        return HybridRequest(model=model, near=[(n.eid, n.score) for n in near], **fields)

    def plan(self, space: Space, limit: int) -> tuple[bool, int]:
        """In memory (the agent's own vectors), or how many candidates to ask the index for.

        The vector index knows no agents: asked for k, it returns the k nearest
        of every agent's. With the agent holding a share s of it, about k·s are
        its own, so k = 2·limit/s. An agent with at most ``exact_max`` vectors
        is searched in memory instead (:mod:`cognition.recall.agent_vectors`):
        whatever its share, no other agent's vector is read.
        """
        if space.mine <= self.settings.exact_max:
            return True, limit
        share = space.mine / max(space.vectors, space.mine, 1)
        wanted = math.ceil(2 * limit / max(share, 1e-9))
        return False, max(limit, min(wanted, self.settings.max_k))

    def _see_writes(self) -> None:
        """Vectors written here since the counts were read: read them again at once."""
        if self._written is not None and self._written() != self._written_seen:
            self._written_seen = self._written()
            self._space_read = self._mine_read = -math.inf

    async def _agent_vectors(self, model: str) -> AgentVectors:
        if self._mine is None or self._mine.model != model:
            from cognition.recall.agent_vectors import AgentVectors  # numpy: only with vectors

            self._mine = AgentVectors(self._vectors, model)
        if time.monotonic() - self._mine_read > SPACE_TTL_S or len(self._mine) == 0:
            await self._mine.refresh()
            self._mine_read = time.monotonic()
        return self._mine

    async def space(self) -> Space:
        """The agent's embedding space, re-read at most every ``SPACE_TTL_S`` seconds."""
        now = time.monotonic()
        if self._space is None or now - self._space_read > SPACE_TTL_S:
            self._space = await self._vectors.space()
            self._space_read = now
        return self._space
