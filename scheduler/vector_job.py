"""The vector job's registration: embeddings written in the background, on an interval."""

from __future__ import annotations

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from cognition.recall.vectors import VectorJob
from graph.settings import EmbeddingSettings


def register_vector_job(
    scheduler: AsyncIOScheduler, settings: EmbeddingSettings, job: VectorJob | None
) -> list[str]:
    """Add the vector job (none when embeddings are off); return its banner description."""
    if job is None:
        return []
    scheduler.add_job(
        job.run,
        "interval",
        seconds=settings.interval_s,
        id="vectors",
        max_instances=1,
        coalesce=True,
    )
    return [
        f"vectors ({job.embeddings.model}, every {settings.interval_s:g} s, "
        f"at most {settings.max_per_run} a run)"
    ]
