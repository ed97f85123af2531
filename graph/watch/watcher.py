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
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import aclosing
from pathlib import Path

from watchfiles import Change, awatch

from graph.models.observe import Observation
from graph.settings import WatchSettings
from graph.watch.changes import SOURCE, Seen, prime, translate_changes
from graph.watch.files import PathFilter, is_plain_name, warn_once
from graph.watch.oddnames import odd_name_observation, undecodable_paths
from graph.watch.recent import RecentReports

logger = logging.getLogger(__name__)

# How long a quiet watch waits before it checks that the root is still there.
ROOT_CHECK_MS = 2_000


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

    def __init__(
        self,
        root: Path,
        settings: WatchSettings,
        agent_id: str,
        path_filter: PathFilter | None = None,
    ) -> None:
        """Remember what to watch; nothing is read until :meth:`watch` runs. ``path_filter``
        (the daemon's, with the root's ``.gitignore``) defaults to ``settings.ignore_patterns``.
        """
        self._root = root
        self._on_gap: Callable[[], None] | None = None
        self.gaps = 0
        """How many times the watch was re-armed after watchfiles gave up on a name."""
        self._settings = settings
        self._agent_id = agent_id
        self._filter = path_filter or PathFilter(settings.ignore_patterns)
        self._known: dict[str, Seen] = {}
        self._ready = asyncio.Event()
        self._running = False
        # A rescan beside the watcher leaves out what the watcher reports.
        self.recent = RecentReports((settings.debounce_ms + settings.step_ms) / 1000 + 1.0)

    def on_gap(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when the watch was re-armed and changes may have been missed.

        The daemon starts a rescan then.
        """
        self._on_gap = callback

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
            folders: list[Path] | None = None  # None: one recursive watch of the root
            while not stop_event.is_set():
                odd: list[str] = []
                self._known = await asyncio.to_thread(prime, root, self._filter, odd)
                logger.info("watching %s (%d files)", root, len(self._known))
                if odd:
                    yield [odd_name_observation(self._agent_id, n, source=SOURCE) for n in odd]
                try:
                    async for batch in self._batches(root, stop_event, folders):
                        yield batch
                except PermissionError as exc:
                    if folders is not None:
                        raise
                    # One unreadable folder makes the recursive watch fail as a whole:
                    # watch every readable folder on its own instead.
                    logger.info("%s; watching each readable folder instead", exc)
                    folders = await asyncio.to_thread(readable_folders, root, self._filter)
                except (RuntimeError, BaseExceptionGroup) as exc:
                    names = undecodable_paths(exc, root)
                    if names is None:
                        raise
                    # watchfiles gave up on a name that is not UTF-8; what else that
                    # batch held is lost, so the re-armed watch asks for a rescan.
                    yield [odd_name_observation(self._agent_id, n, source=SOURCE) for n in names]
                    self._gap()
                else:
                    if stop_event.is_set() or folders is None:
                        return
                    # A folder appeared while folders are watched one by one: watch it too,
                    # and let a rescan find what changed while the watch was re-armed.
                    folders = await asyncio.to_thread(readable_folders, root, self._filter)
                    self._gap()
        finally:
            self._ready.clear()
            self._running = False

    def _gap(self) -> None:
        self.gaps += 1
        if self._on_gap is not None:
            self._on_gap()

    async def _batches(
        self, root: Path, stop_event: asyncio.Event, folders: list[Path] | None
    ) -> AsyncIterator[list[Observation]]:
        prefix = str(root) + os.sep

        def keep(change: Change, path: str) -> bool:
            # Pure string work, run on every raw change before anything is stat'ed.
            if not path.startswith(prefix):
                return True  # not expected; translation drops what is outside
            return not self._filter.is_ignored(path[len(prefix) :].replace(os.sep, "/"))

        changes = awatch(
            *(folders if folders is not None else [root]),
            watch_filter=keep,
            debounce=self._settings.debounce_ms,
            step=self._settings.step_ms,
            stop_event=_LinkedStop(stop_event),
            recursive=folders is None,
            # A quiet spell yields an empty set, so a vanished root is noticed even
            # when the kernel sends no event for it (it sends none while a file
            # inside is held open, as the daemon's lock is).
            yield_on_timeout=True,
            rust_timeout=ROOT_CHECK_MS,
        )
        # awatch places the kernel watch synchronously on its first step, before
        # it first waits; a callback queued now therefore runs just after that.
        announce = asyncio.get_running_loop().call_soon(self._ready.set)
        try:
            async with aclosing(changes):
                async for raw in changes:
                    if not await asyncio.to_thread(root.is_dir):
                        # The kernel watch outlives its folder and would go on seeing nothing.
                        raise FileNotFoundError(f"the watched folder {root} is gone")
                    if not raw:
                        continue
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
                        self.recent.note(translation.observations)
                        yield translation.observations
                    if folders is not None and _added_folder(raw, root, self._filter):
                        # Folders are watched one by one: a new one needs a new watch.
                        return
        finally:
            announce.cancel()


def readable_folders(root: Path, path_filter: PathFilter) -> list[Path]:
    """Every folder below ``root`` (itself included) that can be listed and is not ignored.

    An unreadable folder is left out with one warning naming it; so is all
    below it. Used when one recursive watch of the root is refused.
    """
    found: list[Path] = []
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                children = [e for e in entries if e.is_dir(follow_symlinks=False)]
        except FileNotFoundError:
            continue
        except OSError as exc:
            rel = folder.relative_to(root).as_posix()
            warn_once(rel, f"cannot watch {rel}: {exc.strerror}; the rest of the tree is watched")
            continue
        found.append(folder)
        for child in children:
            rel = Path(child.path).relative_to(root).as_posix()
            if is_plain_name(rel) and not path_filter.is_ignored(rel):
                pending.append(Path(child.path))
    return sorted(found)


def _added_folder(raw: Iterable[tuple[Change, str]], root: Path, path_filter: PathFilter) -> bool:
    prefix = str(root) + os.sep
    for change, path in raw:
        if change is not Change.added or not path.startswith(prefix):
            continue
        if not path_filter.is_ignored(path[len(prefix) :].replace(os.sep, "/")) and os.path.isdir(
            path
        ):
            return True
    return False
