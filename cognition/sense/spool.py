"""The intake spool: observations on disk from the moment they are kept until Neo4j has them.

An observation is appended here before it is queued and acknowledged once
the batch holding it has committed, so a SIGKILL or a Neo4j outage costs no
observation: what the spool still holds at start is written before the
start-up rescan. The write is idempotent (observations MERGE on their id), so
an observation whose batch committed but whose acknowledgement was lost is
written again harmlessly.

Format: one append-only file, ``<root>/.nous/intake.spool``, of records
(:mod:`cognition.sense.spool_records`): an observation, or an
acknowledgement of ids. Appends are written in one ``write`` and ``fdatasync``-ed
once per batch; acknowledgements are not synced (a lost one only means a
harmless replay). When nothing is pending the file is truncated to zero;
when it reaches its bound with acknowledged records in it, the pending ones
are copied to a new file that replaces it.

Nothing planted is followed (:mod:`cognition.sense.spool_files`): a link,
FIFO, socket, folder or another user's file where the spool should be is
moved aside with an ERROR and a fresh spool made. At start at most
``intake.spool_max_bytes`` (plus one record) is read; a damaged record is
skipped and its bytes kept aside in a new file, and every whole record after
it is replayed. A daemon spools only its own agent's observations, so a
record naming another agent was planted (a folder carrying a spool): it is
set aside with the damage, counted in the same ERROR, and never replayed.

Why a framed file and not SQLite in WAL mode: the intake is a queue, not a
table. Every operation is an append, a read by offset or a truncate, which
the file does in one system call each, with a single ``fdatasync`` per
batch (SQLite in WAL mode syncs its WAL and later checkpoints it into the
database: two writes of every byte). A torn tail (a kill mid-append) is
seen exactly, at a byte offset, and cut off with a warning naming it, which
SQLite would hide inside its own recovery; and it adds no dependency and
no second format to inspect (a person can read the spool with ten lines of
Python).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cognition.sense.spool_files import (
    NotOurSpoolError,
    move_aside,
    new_file_beside,
    open_regular,
    opened,
    write_all,
)
from cognition.sense.spool_records import (
    HEADER,
    MAX_RECORD_BYTES,
    Scan,
    Slot,
    frame,
    scan,
    unframe,
)
from graph.models import Observation
from graph.settings import IntakeSettings

__all__ = ["HEADER", "ObservationSpool", "open_intake_spool", "read_pending"]

log = logging.getLogger(__name__)

_DEFAULT_MAX_BYTES = IntakeSettings().spool_max_bytes


def open_intake_spool(
    root: Path, settings: IntakeSettings, agent_id: str
) -> ObservationSpool | None:
    """The spool of ``agent_id``'s daemon watching ``root`` (None when ``intake.spool`` is off)."""
    if not settings.spool:
        return None
    return ObservationSpool.open(
        root / ".nous" / "intake.spool", max_bytes=settings.spool_max_bytes, agent_id=agent_id
    )


class ObservationSpool:
    """The pending observations of one daemon, durable on disk (open with :meth:`open`).

    The file is opened for each operation and closed again: a file held open
    keeps its folder, and so the watched root, alive in the kernel, and the
    watcher would never hear that the root was deleted. Each open refuses a
    link, FIFO or another user's file (:class:`OSError`), so one planted while
    the daemon runs is never written through.
    """

    def __init__(self, path: Path, max_bytes: int, agent_id: str | None = None) -> None:
        """Use :meth:`open`; this only keeps what it is given."""
        self.path = path
        self.max_bytes = max_bytes
        self.agent_id = agent_id
        self._size = 0
        self._entries = 0  # observation records in the file, acknowledged or not
        self._pending: dict[str, Slot] = {}

    @classmethod
    def open(cls, path: Path, *, max_bytes: int, agent_id: str | None = None) -> ObservationSpool:
        """Open (or create) the spool at ``path`` and read what it holds.

        With ``agent_id`` (the daemon's), a record of another agent's observation
        is set aside like a damaged one (kept in the damaged file, counted in the
        ERROR) and never replayed.

        Something other than a regular file of this user's at ``path`` is
        moved aside (renamed, never followed or opened for writing) with an
        ERROR naming it, and a fresh spool made. A record cut short at the end
        (a kill mid-append) is cut off with a WARNING naming the offset; a
        damaged record before the end is skipped with an ERROR, its bytes
        kept aside in a new file, and every whole record after it is kept.
        Raises :class:`OSError` when the file cannot be created or read.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        spool = cls(path, max_bytes, agent_id)
        fd = _claim(path)
        try:
            spool._recover(fd)
        finally:
            os.close(fd)
        if spool._pending:
            log.info("spool %s: %d observations to replay", path, len(spool._pending))
        return spool

    @property
    def pending_ids(self) -> list[str]:
        """The ids of the observations not yet acknowledged, in the order they were appended."""
        return list(self._pending)

    @property
    def size_bytes(self) -> int:
        """The file's size now."""
        return self._size

    @property
    def read_limit(self) -> int:
        """The most bytes read at start: the bound, plus one record (acknowledgements are
        appended past the bound, and nothing else is)."""
        return self.max_bytes + HEADER.size + self._max_record

    @property
    def _max_record(self) -> int:
        return min(MAX_RECORD_BYTES, self.max_bytes)

    def __len__(self) -> int:
        return len(self._pending)

    def append(self, observations: Sequence[Observation]) -> int:
        """Append observations and sync once; return how many fit (a prefix of them).

        The rest do not fit under ``max_bytes`` even after compaction; the
        caller refuses them. Raises :class:`OSError` when the disk refuses.
        """
        frames = [frame({"o": _dump(o)}) for o in observations]
        needed = sum(len(f) for f in frames)
        if self._size + needed > self.max_bytes and len(self._pending) * 2 < self._entries:
            self._compact()
        fits, room = 0, self.max_bytes - self._size
        for record in frames:
            if len(record) > room:
                break
            room -= len(record)
            fits += 1
        if fits == 0:
            return 0
        with opened(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT) as fd:
            write_all(fd, b"".join(frames[:fits]))
            os.fdatasync(fd)
        offset = self._size
        for observation, record in zip(observations[:fits], frames[:fits], strict=True):
            self._pending[observation.id] = Slot(offset, len(record))
            offset += len(record)
        self._entries += fits
        self._size = offset
        return fits

    def load(self, ids: Iterable[str]) -> list[Observation]:
        """Read pending observations back; what cannot be read (damaged, or not an
        Observation of this version) is dropped with an ERROR."""
        found: list[Observation] = []
        try:
            with opened(self.path, os.O_RDONLY) as fd:
                for oid in ids:
                    slot = self._pending.get(oid)
                    if slot is not None:
                        observation = self._read_back(fd, oid, slot)
                        if observation is not None:
                            found.append(observation)
        except OSError as exc:
            log.error("spool %s cannot be read (%s): its observations are lost", self.path, exc)
            self._pending.clear()
        return found

    def acknowledge(self, ids: Iterable[str]) -> None:
        """Mark observations as committed in Neo4j; empty the file when nothing is pending."""
        done = [oid for oid in ids if self._pending.pop(oid, None) is not None]
        if not done:
            return
        if not self._pending:
            with opened(self.path, os.O_WRONLY) as fd:
                os.ftruncate(fd, 0)
            self._size = self._entries = 0
            return
        record = frame({"a": done})
        with opened(self.path, os.O_WRONLY | os.O_APPEND) as fd:
            write_all(fd, record)
        self._size += len(record)

    def _read_back(self, fd: int, oid: str, slot: Slot) -> Observation | None:
        payload = unframe(os.pread(fd, slot.length, slot.offset))
        if payload is None or payload.get("o", {}).get("id") != oid:
            log.error("spool %s: the record at offset %d is damaged", self.path, slot.offset)
            del self._pending[oid]
            return None
        if self.agent_id is not None and payload["o"].get("agent_id") != self.agent_id:
            # Changed on disk since it was read at start: never replayed for another agent.
            log.error(
                "spool %s: the record at offset %d is another agent's, dropped",
                self.path,
                slot.offset,
            )
            del self._pending[oid]
            return None
        try:
            return Observation.model_validate(payload["o"])
        except ValidationError as exc:
            # Intact but not an Observation of this version (a spool left by another
            # one): raising would stop the writer at every start.
            log.error(
                "spool %s: observation %s at offset %d cannot be read here, dropped: %s",
                self.path,
                oid,
                slot.offset,
                exc,
            )
            del self._pending[oid]
            return None

    def _recover(self, fd: int) -> None:
        # At most read_limit bytes: the spool never grows past it, so a larger file (a sparse
        # one, a planted one) is damage and must not be read, or copied, whole.
        size = os.fstat(fd).st_size
        data = os.pread(fd, min(size, self.read_limit), 0) if size else b""
        found = scan(data, self._max_record, self.agent_id)
        self._pending, self._entries, self._size = found.pending, found.entries, size
        if found.damaged or found.foreign or len(data) < size:
            self._recover_damage(data, size, found)
        elif found.torn is not None:
            log.warning(
                "spool %s: torn record at offset %d (%d bytes, a kill mid-append);"
                " cut off, at most one observation lost",
                self.path,
                found.torn,
                size - found.torn,
            )
            os.ftruncate(fd, found.torn)
            os.fsync(fd)
            self._size = found.torn

    def _recover_damage(self, data: bytes, size: int, found: Scan) -> None:
        ranges = sorted([*found.damaged, *found.foreign])
        if found.torn is not None:
            ranges.append((found.torn, len(data)))
        kept, aside = self._keep_aside(data, ranges)
        unread = size - len(data)
        self._install(
            {oid: data[s.offset : s.offset + s.length] for oid, s in self._pending.items()}
        )
        log.error(
            "spool %s: damaged records skipped; %d whole records read, %d observations"
            " replayed from it%s; %d damaged bytes kept aside in %s%s",
            self.path,
            found.records,
            len(self._pending),
            f"; {len(found.foreign)} records for another agent than {self.agent_id}"
            " set aside, never replayed"
            if found.foreign
            else "",
            kept,
            aside or "(none)",
            f"; the file is {size} bytes, past its bound of {self.read_limit}"
            f" (intake.spool_max_bytes plus one record): the {unread} bytes after that"
            " were not read and are dropped"
            if unread
            else "",
        )

    def _keep_aside(
        self, data: bytes, ranges: Sequence[tuple[int, int]]
    ) -> tuple[int, Path | None]:
        """Copy the damaged byte ranges to a new file beside the spool: (bytes, its path)."""
        if not ranges:
            return 0, None
        fd, aside = new_file_beside(self.path, "damaged")
        view = memoryview(data)
        try:
            for start, end in ranges:
                write_all(fd, view[start:end])
            os.fsync(fd)
        finally:
            os.close(fd)
        return sum(end - start for start, end in ranges), aside

    def _compact(self) -> None:
        # Copy the pending records to a new file and put it in place of the old one.
        with opened(self.path, os.O_RDONLY) as old:
            records = {
                oid: os.pread(old, slot.length, slot.offset) for oid, slot in self._pending.items()
            }
        self._install(records)

    def _install(self, records: Mapping[str, bytes]) -> None:
        """Write ``records`` (by observation id) to a new file that replaces the spool."""
        fd, fresh = new_file_beside(self.path, "compact")
        moved: dict[str, Slot] = {}
        offset = 0
        try:
            try:
                for oid, record in records.items():
                    write_all(fd, record)
                    moved[oid] = Slot(offset, len(record))
                    offset += len(record)
                os.fsync(fd)
            finally:
                os.close(fd)
            # A rename replaces whatever has the spool's name (a link itself, not its target).
            os.replace(fresh, self.path)
        except BaseException:
            fresh.unlink(missing_ok=True)
            raise
        self._pending, self._size, self._entries = moved, offset, len(moved)


def _claim(path: Path) -> int:
    """The spool's descriptor, read-write; anything not ours at ``path`` is moved aside first."""
    try:
        return open_regular(path, os.O_RDWR | os.O_CREAT)
    except NotOurSpoolError as exc:
        aside = move_aside(path)
        log.error(
            "spool %s was %s, not a regular file of this user's: moved aside as %s"
            " (not followed, not written), and a fresh spool made",
            path,
            exc.what,
            aside,
        )
    return open_regular(path, os.O_RDWR | os.O_CREAT | os.O_EXCL)


def read_pending(path: Path, max_bytes: int = _DEFAULT_MAX_BYTES) -> list[Observation]:
    """The observations a spool file holds and has not acknowledged, read only (tools, tests).

    Reads at most ``max_bytes`` plus one record; a link or FIFO is refused (:class:`OSError`).
    """
    try:
        fd = open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return []
    try:
        data = os.pread(fd, max_bytes + HEADER.size + MAX_RECORD_BYTES, 0)
    finally:
        os.close(fd)
    found = []
    for slot in scan(data).pending.values():
        payload = unframe(data[slot.offset : slot.offset + slot.length])
        if payload is not None:
            found.append(Observation.model_validate(payload["o"]))
    return found


def _dump(observation: Observation) -> dict[str, Any]:
    return observation.model_dump(mode="json")
