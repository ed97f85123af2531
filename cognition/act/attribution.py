"""Which execution made a change: the agent's own edits are observed but never acted on.

While an execution runs in the watched root, and for a short grace period
after it ends (the watcher reports changes after its debounce), a change
inside its *working set* (the globs its template names, and the file it acts
on) is attributed to it: ``caused_by`` is set, the observation is written
``CAUSED_BY`` that ``Execution`` and already processed, so no decision ever
starts from it. With several executions at once, a change belongs to the
latest started one whose working set holds it; a change outside every working
set is a person's (or the world's) and is decided on like any other. An
execution started without a working set (``None``) claims every change.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from cognition.act.conditions import glob_match
from graph.models import Observation

DEFAULT_GRACE_S = 2.0


class ActiveExecutions:
    """The executions running now, and those that ended within the grace period."""

    def __init__(
        self, grace_s: float = DEFAULT_GRACE_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.grace_s = grace_s
        self._clock = clock
        self._running: dict[str, float] = {}
        self._ended: dict[str, float] = {}
        self._working_sets: dict[str, tuple[str, ...] | None] = {}

    @contextmanager
    def running(
        self, execution_id: str, working_set: Sequence[str] | None = None
    ) -> Iterator[None]:
        """Mark ``execution_id`` running for the block; its edits are those in ``working_set``."""
        self._running[execution_id] = self._clock()
        self._working_sets[execution_id] = None if working_set is None else tuple(working_set)
        try:
            yield
        finally:
            self._running.pop(execution_id, None)
            self._ended[execution_id] = self._clock()

    def current(self, path: str | None = None) -> str | None:
        """The execution a change to ``path`` seen now belongs to, or None.

        Running executions first, then those that ended within the grace
        period; among them the latest started whose working set holds
        ``path`` (``path=None`` asks about any change).
        """
        now = self._clock()
        self._ended = {k: t for k, t in self._ended.items() if now - t <= self.grace_s}
        self._working_sets = {
            k: v for k, v in self._working_sets.items() if k in self._running or k in self._ended
        }
        for pool in (self._running, self._ended):
            owners = [e for e in pool if self._holds(e, path)]
            if owners:
                return max(owners, key=pool.__getitem__)
        return None

    def _holds(self, execution_id: str, path: str | None) -> bool:
        globs = self._working_sets.get(execution_id)
        if globs is None or path is None:
            return True
        return any(glob == path or glob_match(glob, path) for glob in globs)

    def attribute(self, observation: Observation) -> Observation:
        """The observation with ``caused_by`` set when an execution is (just) running."""
        if observation.caused_by is not None or not observation.is_file_change:
            return observation
        if observation.metadata.get("source") == "rescan":
            # A rescan finds what changed while nobody watched (a person's edits,
            # events the kernel dropped): never the agent's edit of the moment.
            return observation
        execution_id = self.current(observation.path)
        if execution_id is None:
            return observation
        return observation.model_copy(update={"caused_by": execution_id, "processed": True})
