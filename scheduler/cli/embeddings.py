"""``nous embeddings``: how much of the memory recall can find by meaning, and filling the gaps.

``status`` counts, per label, the agent's nodes, those with text, those with
a vector, those whose vector comes from the configured model, and those
pending (what the next writer embeds: the daemon's job, ``nous mcp``, a hook).
``backfill`` embeds every node that needs a vector (the daemon's vector job
does the same a little at a time). ``reembed`` replaces every vector with the
configured model's: the one way to change models, never done at start.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from cognition.embeddings import EMBEDDED_MODEL, Embeddings, build_embeddings
from cognition.llm import LLMClient
from cognition.recall.vectors import ModelChangedError, VectorJob
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations
from scheduler.cli.common import EXIT_USAGE, CommandError, common_options, show, table, with_memory


def register(commands: Any) -> None:
    """Add ``nous embeddings status|backfill|reembed``."""
    common = common_options()
    parser = commands.add_parser(
        "embeddings",
        parents=[common],
        help="vectors for recall by meaning: coverage, backfill, re-embed",
        description="Without an action: the same as status.",
    )
    parser.set_defaults(handler=with_memory(_status))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    status = actions.add_parser("status", parents=[common], help="coverage per label")
    status.set_defaults(handler=with_memory(_status))
    backfill = actions.add_parser("backfill", parents=[common], help="embed what has no vector")
    backfill.set_defaults(handler=with_memory(_backfill))
    reembed = actions.add_parser(
        "reembed", parents=[common], help="replace every vector with the configured model's"
    )
    reembed.set_defaults(handler=with_memory(_reembed))


async def _status(args: argparse.Namespace, memory: Memory) -> int:
    settings = args.settings.embeddings
    store = memory.embeddings
    space = await store.space()
    model = _model_name(args)
    rows = await store.status(model)
    pending = sum(r.pending for r in rows)
    head = (
        f"provider {settings.provider}, model {model}; the memory's vectors: "
        f"{space.model or 'none yet'}"
        + (f" ({space.dimensions} dimensions)" if space.dimensions else "")
        + f"; {pending} pending"
    )
    columns = ["label", "nodes", "with_text", "vectors", "current", "pending"]
    body = table(rows, columns, empty="no nodes")
    data = {
        "provider": settings.provider,
        "model": model,
        "memory_model": space.model,
        "pending": pending,
        "labels": rows,
    }
    return show(args, data, f"{head}\n{body}")


async def _backfill(args: argparse.Namespace, memory: Memory) -> int:
    async with _job(args, memory) as job:
        try:
            await job.check_model()
        except ModelChangedError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from None
        return await _fill(args, job)


async def _reembed(args: argparse.Namespace, memory: Memory) -> int:
    async with _job(args, memory) as job:
        cleared = await job.store.clear()
        await job.store.reset_space(job.embeddings.model, job.embeddings.dimensions)
        print(f"cleared {cleared} vectors; embedding with {job.embeddings.model}")
        return await _fill(args, job)


async def _fill(args: argparse.Namespace, job: VectorJob) -> int:
    start = time.perf_counter()
    written = await job.backfill()
    seconds = time.perf_counter() - start
    if job.stats.last_error:
        raise CommandError(f"{job.stats.last_error} (after {written} vectors)")
    data = {"written": written, "seconds": round(seconds, 1), "per_label": job.stats.per_label}
    return show(args, data, f"{written} vectors written in {seconds:.1f} s")


class _job:
    """The vector job for the command, with an LLM client when the provider is an endpoint."""

    def __init__(self, args: argparse.Namespace, memory: Memory) -> None:
        self.args, self.memory = args, memory
        self.llm: LLMClient | None = None

    async def __aenter__(self) -> VectorJob:
        settings = self.args.settings
        if settings.embeddings.provider == "off":
            raise CommandError("embeddings.provider is off: nothing to embed", EXIT_USAGE)
        await apply_migrations(self.memory.driver)  # the vector indexes, if no daemon ran yet
        if settings.embeddings.provider == "endpoint":
            self.llm = LLMClient(settings.llm)
            await self.llm.start()
        embeddings: Embeddings | None = build_embeddings(settings.embeddings, self.llm)
        assert embeddings is not None
        return VectorJob(self.memory, embeddings, settings.embeddings, settings.watch.root)

    async def __aexit__(self, *exc: object) -> None:
        if self.llm is not None:
            await self.llm.close()


def _model_name(args: argparse.Namespace) -> str:
    settings = args.settings.embeddings
    if settings.provider == "off":
        return "off"
    if settings.provider == "endpoint":
        return str(settings.model)
    return EMBEDDED_MODEL
