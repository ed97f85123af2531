"""Frames as ``Frame`` nodes: seeded once per agent, chosen by pattern, their use counted.

:mod:`cognition.frames.spec` is the pure part (the frame data and
:func:`~cognition.frames.spec.select_frame`); this is the memory's part, seed
004's FrameEngine: the agent's frames live in the graph, where a person can
tune them, and every selection bumps the chosen frame's ``usage_count``,
which in turn breaks ties in later selections.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from cognition.frames.selection import FrameSelection
from cognition.frames.spec import DEFAULT_FRAME, SEED_FRAMES, score_frame, select_frame
from graph.models.frame import FrameSpec
from graph.store.memory import Memory

log = logging.getLogger(__name__)


# How long the decision loop trusts its cached frames (see FrameEngine.choose).
FRAME_CACHE_S = 60.0


class FrameEngine:
    """One agent's frames in the graph: seed, list, get, select (seed 004)."""

    def __init__(self, memory: Memory, seeds: Sequence[FrameSpec] = SEED_FRAMES) -> None:
        self.memory = memory
        self.store = memory.frames
        self.seeds = tuple(seeds)
        self._seeded = False
        self._cache: list[tuple[FrameSpec, str | None, int]] | None = None
        self._cached_at = 0.0

    async def seed(self) -> int:
        """Make the seed frames ``Frame`` nodes; frames that exist are left alone.

        Returns how many frames were created (0 on every call after the first).
        """
        created = await self.store.seed(self.seeds)
        self._seeded = True
        return created

    async def list_frames(self) -> list[FrameSelection]:
        """Every frame of the agent, highest priority first, with its usage count.

        Nothing was matched to list them, so each carries confidence 1.0 and
        ``match_method`` "pattern"; only :meth:`select_detail` fills those in.
        """
        return [
            FrameSelection.from_spec(
                spec, confidence=1.0, match_method="pattern", node_id=node_id, usage_count=uses
            )
            for spec, node_id, uses in await self._frames()
        ]

    async def get(self, name: str) -> FrameSelection | None:
        """One frame by its key (``"decision"``), or None."""
        return next((f for f in await self.list_frames() if f.frame_id == name), None)

    async def select_detail(self, text: str, *, default: str = DEFAULT_FRAME) -> FrameSelection:
        """Choose the frame for ``text`` by pattern (no LLM) and count its use.

        Ties go to priority, then to the frame used more often. When nothing
        matches, the frame named ``default`` is chosen (``match_method``
        "default"), or the conversation frame if the agent has no such frame.
        """
        return await self.count(await self.match(text, default=default))

    async def match(self, text: str, *, default: str = DEFAULT_FRAME) -> FrameSelection:
        """:meth:`select_detail`'s choice, its use not counted yet (see :meth:`count`).

        For a caller that has work to start as soon as the frame is known and
        counts the use beside it.
        """
        frames = await self._frames()
        specs = [spec for spec, _, _ in frames]
        usage = {spec.name: uses for spec, _, uses in frames}
        scores = {spec.name: score_frame(text, spec) for spec in specs}
        chosen = select_frame(text, specs, usage)
        if scores.get(chosen.name, 0) > 0:
            method = "pattern"
            confidence = scores[chosen.name] / sum(scores.values())
        else:
            method, confidence = "default", 0.0
            chosen = next((s for s in specs if s.name == default), chosen)
        node_id = next((n for spec, n, _ in frames if spec.name == chosen.name), None)
        return FrameSelection.from_spec(
            chosen,
            confidence=confidence,
            match_method="default" if method == "default" else "pattern",
            node_id=node_id,
            usage_count=usage.get(chosen.name, 0),
        )

    async def count(self, selection: FrameSelection) -> FrameSelection:
        """Count one use of the selected frame; the selection with its usage count after it."""
        used = await self.store.count_use(selection.frame_id)
        if used is None:  # a frame the graph does not hold (the unsaved seeds): nothing counted
            return selection
        return selection.model_copy(update={"usage_count": used})

    async def choose(
        self, text: str, *, default: str = DEFAULT_FRAME, max_age_s: float = FRAME_CACHE_S
    ) -> FrameSpec:
        """The frame for ``text``, from frames cached for ``max_age_s``; nothing is written.

        For the decision loop, which chooses a frame for every batch: the
        frames change only when a person edits them, and the use is counted by
        the decision's own write (``decide/record_decision``'s ``$frame``), so a
        decision costs no extra round trips here. The cached usage counts are
        bumped locally so tie-breaks keep following use between refreshes.
        """
        now = time.monotonic()
        if self._cache is None or now - self._cached_at > max_age_s:
            self._cache, self._cached_at = await self._frames(), now
        specs = [spec for spec, _, _ in self._cache]
        usage = {spec.name: uses for spec, _, uses in self._cache}
        chosen = select_frame(text, specs, usage)
        if score_frame(text, chosen) == 0:
            chosen = next((s for s in specs if s.name == default), chosen)
        self._cache = [
            (spec, node, uses + (spec.name == chosen.name)) for spec, node, uses in self._cache
        ]
        return chosen

    async def _frames(self) -> list[tuple[FrameSpec, str | None, int]]:
        stored = await self.store.frames()
        if not stored and not self._seeded:
            await self.seed()
            stored = await self.store.frames()
        frames = [(f.spec, f.node_id, f.usage_count) for f in stored]
        if not frames:
            # No frames in the graph (seeding failed, or all were broken): the seeds, unsaved.
            frames = [(spec, None, 0) for spec in self.seeds]
        return frames
