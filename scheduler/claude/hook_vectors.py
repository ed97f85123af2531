"""After a hook that worked alone has answered: the vectors of what it wrote, off the turn's path.

Claude Code waits for a hook's process to end, so work done after the answer
in the same process would still hold the turn. The hook therefore forks
once its answer is printed (:func:`hand_off_vectors`, the one call
:func:`scheduler.claude.hooks.run_hook` makes): the parent exits at once;
the child, in a session of its own with its standard streams on
``/dev/null`` (its warnings go to ``vectors.log`` in the runtime folder),
embeds the agent's pending nodes written since :data:`LOOKBACK` before now
(the turn's writes, and what an earlier hook left), within the hook's
own limit (``claude.hook_timeout_s``, counted from the hook's start). What
it does not finish stays pending for the next writer: the next hook,
``nous mcp`` or the daemon's vector job. One child per agent embeds at a
time (a lock in the runtime folder); the next waits for it, then finds
little left. Only the events that end a turn or a session hand off
(:data:`EMBEDDING_EVENTS`): the turn's writes are embedded in one batch.
A hook the daemon answered hands nothing here: the daemon wrote its nodes,
and its vector job embeds them.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import logging
import os
import signal
import sys
import time
import zlib
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from scheduler.claude.events import BY_NAME

if TYPE_CHECKING:
    from graph.settings import Settings

EMBEDDING_EVENTS = frozenset(e for e, spec in BY_NAME.items() if spec.vectors)
"""The hooks that hand off (``vectors`` in the table): a turn's end, a compaction, a session's
end. What the turn's other hooks wrote (the prompt's decision and turn, a failure's censor) is
embedded then, in one batch: one model load a turn instead of one per prompt and per failed
tool call, and none while the model works and the next hooks run."""
HOOK_LABELS = ("Decision", "Lesson", "Fact", "Procedure", "Episode", "Heuristic", "Censor", "Turn")
"""What a hook writes that has a vector (never a File: the daemon's watcher writes those)."""
LOOKBACK = timedelta(hours=24)
"""How far back the child looks for pending nodes: the whole turn's (however long it ran), and
what earlier hooks left."""
LOCK_POLL_S = 0.05
LOG_CAP_BYTES = 1_000_000

log = logging.getLogger(__name__)


def hand_off_vectors(
    event: str,
    stdout: TextIO,
    *,
    root: str | Path,
    started: float,
    settings: Settings | None = None,
    config: str | Path | None = None,
    agent_id: str | None = None,
) -> None:
    """Embed what the hook wrote in a detached child; return at once (the parent then exits).

    Only from a hook's own process (``stdout`` is the process's standard
    output) and after ``event``s that write text; ``started`` is the hook's
    start (``time.monotonic()``); ``settings`` as the hook read them, or read
    again from ``config`` and ``agent_id`` in the child.
    """
    if event not in EMBEDDING_EVENTS or stdout is not sys.__stdout__:
        return
    try:
        stdout.flush()
        pid = os.fork()
    except (OSError, ValueError):
        return  # no answer stream to flush, or no fork: the next writer embeds it
    if pid != 0:
        return
    try:  # the child: never returns into the hook
        _detach()
        _embed_in_child(Path(root), started, settings, Path(config) if config else None, agent_id)
    except BaseException as exc:
        log.warning("vectors after hook %s: %s: %s", event, type(exc).__name__, exc)
    finally:
        os._exit(0)


def _detach() -> None:
    """A session of its own, standard streams on /dev/null: Claude Code waits for none of it."""
    gc.enable()  # the hook left it off (scheduler.cli.entry_point); the child embeds for a while
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    from graph.runtime import runtime_folder

    folder = runtime_folder()
    logging.getLogger().handlers.clear()
    if folder is None:
        return
    path = folder / "vectors.log"
    with contextlib.suppress(OSError):
        if path.stat().st_size > LOG_CAP_BYTES:
            path.unlink()  # a log of warnings, not a record: start it again
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s pid %(process)d: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)


def _embed_in_child(
    root: Path,
    started: float,
    settings: Settings | None,
    config: Path | None,
    agent_id: str | None,
) -> None:
    from graph.settings import load_settings

    if settings is None:
        settings = load_settings(config, overrides={"agent_id": agent_id} if agent_id else {})
    left = started + settings.claude.hook_timeout_s - time.monotonic()
    if left <= 0:
        return
    # The hard stop, where asyncio's timeout cannot reach (the engine's C call, a DNS lookup).
    signal.signal(signal.SIGALRM, lambda _signum, _frame: os._exit(0))
    signal.setitimer(signal.ITIMER_REAL, left)
    asyncio.run(_embed(settings, root, left))


async def _embed(settings: Settings, root: Path, left_s: float) -> None:
    from graph.models import utc_now
    from scheduler.compose.session import hook_embeddings, hook_vector_job, open_memory

    embeddings = hook_embeddings(settings)
    if embeddings is None:
        return  # embeddings off (or an endpoint: the daemon's LLM client embeds those)
    locked = _agent_lock(settings.agent_id)
    async with asyncio.timeout(left_s), locked, open_memory(settings) as memory:
        since = utc_now() - LOOKBACK
        job = hook_vector_job(memory, embeddings, settings, root, labels=HOOK_LABELS, since=since)
        problem = await job.model_problem()
        if problem is not None:
            log.warning("no vectors written: %s", problem)
            return
        while await job.run() and not job.stats.last_error:
            pass  # pass after pass, until nothing is pending (or the time is up)


@contextlib.asynccontextmanager
async def _agent_lock(agent_id: str) -> AsyncIterator[None]:
    """One embedding child per agent at a time; without a runtime folder, no lock."""
    from graph.runtime import runtime_folder

    folder = runtime_folder()
    if folder is None:
        yield
        return
    path = folder / f"vectors-{zlib.crc32(agent_id.encode()):08x}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                await asyncio.sleep(LOCK_POLL_S)  # the caller's timeout bounds the wait
        yield
    finally:
        os.close(fd)  # releases the lock
