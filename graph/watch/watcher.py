"""The file watcher: batches of file observations from ``watchfiles.awatch``.

The watcher is a long-running task, not a job. It cannot see what changed
while the daemon was down, and watchfiles drops events when the kernel queue
overflows, so the rescan job (built on the same :mod:`graph.watch.files`) is the
safety net; the watcher aims to be right about what it does see.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing
from pathlib import Path

from watchfiles import Change, awatch

from graph.models.observe import Observation
from graph.settings import WatchSettings
from graph.watch.changes import Seen, prime, translate_changes
from graph.watch.files import PathFilter

logger = logging.getLogger(__name__)


class _LinkedStop(asyncio.Event):
    """Set when the caller's stop event is set, or when awatch sets it itself.

    awatch sets the event it is given when its task is cancelled (to stop its
    thread); handing it the caller's event would let cancelling the watcher
    stop everything else that shares that event.
    """

    def __init__(self, outer: asyncio.Event) -> None:
        super().__init__()
        self._outer = outer

    def is_set(self) -> bool:
        return self._outer.is_set() or super().is_set()


class FileWatcher:
    """Watches one folder and turns what happens in it into ``Observation`` batches.

    ``root`` is resolved when :meth:`watch` starts, not here (no I/O in the
    constructor). Observations carry the path relative to the resolved root,
    with ``/`` separators; what lies outside it, including the far side of a
    symlink, and what ``settings.ignore_patterns`` ignores produce nothing.
    """

    def __init__(self, root: Path, settings: WatchSettings, agent_id: str) -> None:
        """Remember what to watch; nothing is read until :meth:`watch` runs."""
        self._root = root
        self._settings = settings
        self._agent_id = agent_id
        self._filter = PathFilter(settings.ignore_patterns)
        self._known: dict[str, Seen] = {}
        self._ready = asyncio.Event()
        self._running = False

    @property
    def path_filter(self) -> PathFilter:
        """The ignore rules in force."""
        return self._filter

    @property
    def known_paths(self) -> Mapping[str, int]:
        """A snapshot of the files the watcher believes exist: relative path → inode."""
        return {path: seen.inode for path, seen in self._known.items()}

    @property
    def ready(self) -> asyncio.Event:
        """Set once :meth:`watch` has primed its map and the kernel watch is in place.

        Changes made after it is set are seen; it is cleared when the watch ends.
        """
        return self._ready

    async def watch(self, stop_event: asyncio.Event) -> AsyncIterator[list[Observation]]:
        """Yield a list of observations for every batch of changes that matters.

        Runs until ``stop_event`` is set (within ``settings.step_ms`` or so) or
        the consumer stops iterating. Before watching it stats every file under
        the root, without reading them, so that moves and editor saves of files
        that existed before it started are recognised. A change made between
        that walk and :attr:`ready` being set is not reported (the rescan job
        covers it). Only one ``watch`` may run at a time per watcher.

        Raises :class:`OSError` when the root does not exist or cannot be
        listed, and whatever ``watchfiles`` raises (for example when the kernel
        limit on inotify watches is reached).
        """
        if self._running:
            raise RuntimeError("this FileWatcher is already watching")
        self._running = True
        try:
            root = await asyncio.to_thread(self._root.resolve, strict=True)
            self._known = await asyncio.to_thread(prime, root, self._filter)
            logger.info("watching %s (%d files)", root, len(self._known))
            async for batch in self._batches(root, stop_event):
                yield batch
        finally:
            self._ready.clear()
            self._running = False

    async def _batches(
        self, root: Path, stop_event: asyncio.Event
    ) -> AsyncIterator[list[Observation]]:
        prefix = str(root) + os.sep

        def keep(change: Change, path: str) -> bool:
            # Pure string work, run on every raw change before anything is stat'ed.
            if not path.startswith(prefix):
                return True  # not expected; translation drops what is outside
            return not self._filter.is_ignored(path[len(prefix) :].replace(os.sep, "/"))

        changes = awatch(
            root,
            watch_filter=keep,
            debounce=self._settings.debounce_ms,
            step=self._settings.step_ms,
            stop_event=_LinkedStop(stop_event),
            recursive=True,
        )
        # awatch places the kernel watch synchronously on its first step, before
        # it first waits; a callback queued now therefore runs just after that.
        announce = asyncio.get_running_loop().call_soon(self._ready.set)
        try:
            async with aclosing(changes):
                async for raw in changes:
                    translation = await asyncio.to_thread(
                        translate_changes,
                        raw,
                        root=root,
                        known=self._known,
                        path_filter=self._filter,
                        agent_id=self._agent_id,
                        max_hash_bytes=self._settings.max_hash_bytes,
                    )
                    for path, seen in translation.updates.items():
                        if seen is None:
                            self._known.pop(path, None)
                        else:
                            self._known[path] = seen
                    if translation.observations:
                        yield translation.observations
        finally:
            announce.cancel()
