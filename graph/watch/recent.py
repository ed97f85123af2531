"""What the watcher reported lately, so a rescan running beside it does not report it again.

A rescan compares the disk with the ``File`` nodes. A change made just
before it walks the tree is often still in the watcher's debounce buffer:
the rescan sees it (the graph does not know it yet) and so, a moment later,
does the watcher, and one change becomes two observations. The rescan
therefore waits out the watcher's debounce once it has walked the tree and
leaves out every observation the watcher made meanwhile with the same
outcome (the file gone, or the same content).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Iterable

from graph.models import Observation, ObservationType

# How long notes are kept when no rescan is waiting on them.
HORIZON_S = 120.0

_State = tuple[str, str | None]  # (path, content hash; None when the file is gone)


class RecentReports:
    """The watcher's recent file observations, by path and outcome."""

    def __init__(self, settle_s: float) -> None:
        """``settle_s``: how long a change takes to leave the watcher (debounce, step, margin)."""
        self.settle_s = settle_s
        self._notes: deque[tuple[float, _State]] = deque()
        self._marks: list[float] = []

    def note(self, observations: Iterable[Observation]) -> None:
        """Remember what the watcher just reported."""
        now = time.monotonic()
        for o in observations:
            if o.path is None or not o.is_file_change:
                continue
            self._notes.append((now, _outcome(o)))
            if o.type is ObservationType.FILE_MOVED and o.metadata.get("from_path"):
                self._notes.append((now, (str(o.metadata["from_path"]), None)))
        oldest = min([now - HORIZON_S, *self._marks])
        while self._notes and self._notes[0][0] < oldest:
            self._notes.popleft()

    def mark(self) -> float:
        """Start of a rescan: what the watcher reports from now on is compared with it."""
        since = time.monotonic()
        self._marks.append(since)
        return since

    def release(self, since: float) -> None:
        """End of the rescan that took ``since`` from :meth:`mark`."""
        self._marks.remove(since)

    async def not_reported(
        self, observations: list[Observation], since: float
    ) -> list[Observation]:
        """``observations`` (a rescan's) less those the watcher made since ``since``.

        Waits ``settle_s`` first, so a change still in the watcher's debounce is
        reported by the watcher before the comparison.
        """
        if not observations:
            return observations  # nothing to compare: no reason to wait
        await asyncio.sleep(self.settle_s)
        seen = {state for at, state in self._notes if at >= since}
        return [o for o in observations if o.path is None or _outcome(o) not in seen]


def _outcome(observation: Observation) -> _State:
    assert observation.path is not None
    if observation.type is ObservationType.FILE_DELETED:
        return observation.path, None
    # A file too big to hash has no hash to compare: the path alone is not enough.
    return observation.path, observation.content_hash or f"unhashed:{observation.id}"
