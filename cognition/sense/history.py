"""The repository's git history taken into memory: read, through the door, kept.

:func:`take_history` is what both the daemon's history job (as HEAD moves)
and a ``SessionStart`` hook working alone (within its small budget) call:
the commits new since the sha last seen (:mod:`graph.watch.git`), each
admitted (:func:`cognition.sense.door.admit`: secrets out, messages within
their limits), written ``TOUCHED`` to their files
(:class:`graph.store.commits.CommitStore`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cognition.sense.door import admit
from graph.intake import CommitEntry
from graph.store.commits import CommitStore
from graph.watch.git import read_history

log = logging.getLogger(__name__)


class HistoryLimits(Protocol):
    """The ``history`` settings a read uses (the daemon's or a hook's)."""

    first_commits: int
    max_age_days: float
    session_start_budget_s: float


@dataclass(frozen=True)
class HistoryTaken:
    """What one read took in: commits read and new, HEAD, and why nothing could be read."""

    read: int = 0
    written: int = 0
    head: str | None = None
    problem: str | None = None
    secrets: int = 0
    """Commits that held a secret (kept with its marker instead)."""
    kept: tuple[CommitEntry, ...] = ()
    """The commits written, as admitted (what the decisions are read from)."""


async def take_history(
    store: CommitStore,
    root: Path,
    environ: Mapping[str, str],
    limits: HistoryLimits,
    *,
    timeout_s: float,
) -> HistoryTaken:
    """Read ``root``'s commits not seen yet and keep them; never raises for git's sake.

    ``timeout_s`` bounds ``git``; the caller bounds the whole (Neo4j included).
    """
    seen = await store.seen_head()
    log = await read_history(
        root,
        environ,
        seen=seen,
        limit=limits.first_commits,
        max_age_days=limits.max_age_days,
        timeout_s=timeout_s,
    )
    if log.head is None or (log.head == seen and not log.commits):
        return HistoryTaken(head=log.head, problem=log.problem)
    admitted = [admit(commit) for commit in log.commits]
    written = await store.record_commits(admitted, log.head)
    return HistoryTaken(
        read=len(admitted),
        written=written,
        head=log.head,
        secrets=sum(1 for a in admitted if a.secrets),
        kept=tuple(a.record for a in admitted),
    )


@dataclass(frozen=True)
class HistoryReader:
    """Where the history is and how long one read may take: the daemon's job and a
    ``SessionStart`` hook working alone each hold one."""

    root: Path
    environ: Mapping[str, str]
    limits: HistoryLimits
    budget_s: float
    then: Callable[[Sequence[CommitEntry]], Awaitable[object]] | None = None
    """What is done with the commits a read kept, within the same budget (the decisions their
    messages state: :meth:`cognition.decisions.keep.DecisionKeeper.from_commits`)."""

    async def take(self, store: CommitStore) -> HistoryTaken:
        """:func:`take_history` within ``budget_s`` (git and Neo4j together); never raises.

        Over budget, what was not written is read again next time (the sha
        seen is written with the commits, in one transaction).
        """
        try:
            async with asyncio.timeout(self.budget_s):
                taken = await take_history(
                    store, self.root, self.environ, self.limits, timeout_s=self.budget_s
                )
                if self.then is not None and taken.kept:
                    await self.then(taken.kept)
        except TimeoutError:
            taken = HistoryTaken(problem=f"git history: over its {self.budget_s:g} s budget")
        except Exception as exc:  # memory's trouble must not break what reads history
            taken = HistoryTaken(problem=f"git history: {type(exc).__name__}: {exc}")
        if taken.problem is not None:
            log.info("%s", taken.problem)
        elif taken.written:
            log.info("git history: %d new commits (HEAD %s)", taken.written, (taken.head or "")[:7])
        return taken
