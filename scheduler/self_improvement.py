"""The daily heuristic pruning job (seed 003 C5, C7): ``rsi.prune_cron``, ``0 3 * * *``.

The parts themselves are built by :func:`rsi.build.build_self_improvement`
in the composition root; the RSI cycle's own job is :mod:`scheduler.rsi_job`.
"""

from __future__ import annotations

import logging

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from graph.settings import RSISettings
from rsi.build import SelfImprovement
from rsi.prune import PruneReport

log = logging.getLogger(__name__)


async def prune_now(parts: SelfImprovement) -> PruneReport | None:
    """One run of the daily job; a failure is logged, never raised to the scheduler."""
    try:
        return await parts.pruner.run()
    except Exception:
        log.exception("heuristic pruning failed; the next run tries again")
        return None


def register_prune_job(
    scheduler: AsyncIOScheduler, settings: RSISettings, parts: SelfImprovement
) -> str:
    """Add the daily heuristic pruning job; return its description for the banner."""
    scheduler.add_job(
        prune_now,
        CronTrigger.from_crontab(settings.prune_cron),
        args=[parts],
        id="heuristic_prune",
        max_instances=1,
        coalesce=True,
        misfire_grace_time=3600,
    )
    return f"heuristic pruning (cron '{settings.prune_cron}')"
