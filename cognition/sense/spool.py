"""The intake spool: observations on disk from the moment they are kept until Neo4j has them.

An observation is appended here before it is queued and acknowledged once
the batch holding it has committed, so a SIGKILL or a Neo4j outage costs no
observation: what the spool still holds at start is written before the
start-up rescan. The write is idempotent (observations MERGE on their id), so
an observation whose batch committed but whose acknowledgement was lost is
written again harmlessly.

Format: one append-only file, ``<root>/.nous/intake.spool``. Each record is
``length (4 bytes, big-endian) | CRC-32 of the payload (4 bytes) | payload``,
the payload a JSON object: ``{"o": observation}`` or ``{"a": [ids]}`` (an
acknowledgement). Appends are written in one ``write`` and ``fdatasync``-ed
once per batch; acknowledgements are not synced (a lost one only means a
harmless replay). When nothing is pending the file is truncated to zero;
when it reaches its bound with acknowledged records in it, the pending ones
are copied to a new file that replaces it.

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

import contextlib
import json
import logging
import os
import shutil
import struct
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graph.models import Observation
from graph.settings import IntakeSettings

log = logging.getLogger(__name__)

HEADER = struct.Struct(">II")  # payload length, CRC-32 of the payload
# A record longer than this is not a record: the length field itself is damaged.
MAX_RECORD_BYTES = 16 * 1024 * 1024


def open_intake_spool(root: Path, settings: IntakeSettings) -> ObservationSpool | None:
    """The spool of the daemon watching ``root`` (None when ``intake.spool`` is off)."""
    if not settings.spool:
        return None
    return ObservationSpool.open(
        root / ".nous" / "intake.spool", max_bytes=settings.spool_max_bytes
    )


@dataclass(frozen=True)
class _Slot:
    offset: int
    length: int  # the whole frame, header included


class ObservationSpool:
    """The pending observations of one daemon, durable on disk (open with :meth:`open`).

    The file is opened for each operation and closed again: a file held open
    keeps its folder, and so the watched root, alive in the kernel, and the
    watcher would never hear that the root was deleted.
    """

    def __init__(self, path: Path, max_bytes: int) -> None:
        """Use :meth:`open`; this only keeps what it is given."""
        self.path = path
        self.max_bytes = max_bytes
        self._size = 0
        self._entries = 0  # observation records in the file, acknowledged or not
        self._pending: dict[str, _Slot] = {}

    @classmethod
    def open(cls, path: Path, *, max_bytes: int) -> ObservationSpool:
        """Open (or create) the spool at ``path`` and read what it holds.

        A record cut short at the end of the file (a kill mid-append) is cut
        off with a WARNING naming the file and the offset; a damaged record
        before the end stops the reading there with an ERROR, and a copy of
        the damaged file is kept beside it. Raises :class:`OSError` when the
        file cannot be created or read.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        spool = cls(path, max_bytes)
        with spool._opened(os.O_RDWR | os.O_CREAT) as fd:
            data = _read_all(fd)
            spool._pending, spool._entries, spool._size = _scan(data)
            if spool._size < len(data):
                spool._cut(fd, spool._size, len(data), torn=_torn_at(data, spool._size))
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

    def __len__(self) -> int:
        return len(self._pending)

    def append(self, observations: Sequence[Observation]) -> int:
        """Append observations and sync once; return how many fit (a prefix of them).

        The rest do not fit under ``max_bytes`` even after compaction; the
        caller refuses them. Raises :class:`OSError` when the disk refuses.
        """
        frames = [_frame({"o": _dump(o)}) for o in observations]
        needed = sum(len(f) for f in frames)
        if self._size + needed > self.max_bytes and len(self._pending) * 2 < self._entries:
            self._compact()
        fits, room = 0, self.max_bytes - self._size
        for frame in frames:
            if len(frame) > room:
                break
            room -= len(frame)
            fits += 1
        if fits == 0:
            return 0
        with self._opened(os.O_WRONLY | os.O_APPEND | os.O_CREAT) as fd:
            os.write(fd, b"".join(frames[:fits]))
            os.fdatasync(fd)
        offset = self._size
        for observation, frame in zip(observations[:fits], frames[:fits], strict=True):
            self._pending[observation.id] = _Slot(offset, len(frame))
            offset += len(frame)
        self._entries += fits
        self._size = offset
        return fits

    def load(self, ids: Iterable[str]) -> list[Observation]:
        """Read pending observations back; what cannot be read (damaged, or not an
        Observation of this version) is dropped with an ERROR."""
        found: list[Observation] = []
        try:
            with self._opened(os.O_RDONLY) as fd:
                for oid in ids:
                    slot = self._pending.get(oid)
                    if slot is None:
                        continue
                    payload = _unframe(os.pread(fd, slot.length, slot.offset))
                    if payload is None or payload.get("o", {}).get("id") != oid:
                        log.error(
                            "spool %s: the record at offset %d is damaged", self.path, slot.offset
                        )
                        del self._pending[oid]
                        continue
                    try:
                        found.append(Observation.model_validate(payload["o"]))
                    except ValidationError as exc:
                        # Intact but not an Observation of this version (a spool left by
                        # another one): raising would stop the writer at every start.
                        log.error(
                            "spool %s: observation %s at offset %d cannot be read here,"
                            " dropped: %s",
                            self.path,
                            oid,
                            slot.offset,
                            exc,
                        )
                        del self._pending[oid]
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
            os.truncate(self.path, 0)
            self._size = self._entries = 0
            return
        frame = _frame({"a": done})
        with self._opened(os.O_WRONLY | os.O_APPEND) as fd:
            os.write(fd, frame)
        self._size += len(frame)

    @contextlib.contextmanager
    def _opened(self, flags: int) -> Iterator[int]:
        fd = os.open(self.path, flags | os.O_CLOEXEC, 0o600)
        try:
            yield fd
        finally:
            os.close(fd)

    def _cut(self, fd: int, offset: int, size: int, *, torn: bool) -> None:
        if torn:
            log.warning(
                "spool %s: torn record at offset %d (%d bytes, a kill mid-append);"
                " cut off, at most one observation lost",
                self.path,
                offset,
                size - offset,
            )
        else:
            kept = self.path.with_name(self.path.name + ".damaged")
            shutil.copyfile(self.path, kept)
            log.error(
                "spool %s: damaged record at offset %d; the %d bytes from there are dropped"
                " (the whole file is kept as %s)",
                self.path,
                offset,
                size - offset,
                kept,
            )
        os.ftruncate(fd, offset)
        os.fsync(fd)

    def _compact(self) -> None:
        # Copy the pending records to a new file and put it in place of the old one.
        fresh = self.path.with_name(self.path.name + ".compact")
        moved: dict[str, _Slot] = {}
        offset = 0
        with self._opened(os.O_RDONLY) as old:
            fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                for oid, slot in self._pending.items():
                    os.write(fd, os.pread(old, slot.length, slot.offset))
                    moved[oid] = _Slot(offset, slot.length)
                    offset += slot.length
                os.fsync(fd)
            finally:
                os.close(fd)
        os.replace(fresh, self.path)
        self._pending, self._size, self._entries = moved, offset, len(moved)


def read_pending(path: Path) -> list[Observation]:
    """The observations a spool file holds and has not acknowledged, read only (tools, tests)."""
    data = path.read_bytes() if path.exists() else b""
    pending, _, _ = _scan(data)
    found = []
    for slot in pending.values():
        payload = _unframe(data[slot.offset : slot.offset + slot.length])
        if payload is not None:
            found.append(Observation.model_validate(payload["o"]))
    return found


def _scan(data: bytes) -> tuple[dict[str, _Slot], int, int]:
    """(pending slots by id, observation records, offset where the readable records end)."""
    pending: dict[str, _Slot] = {}
    offset = entries = 0
    while offset < len(data):
        head = data[offset : offset + HEADER.size]
        if len(head) < HEADER.size or HEADER.unpack(head)[0] > MAX_RECORD_BYTES:
            break
        end = offset + HEADER.size + HEADER.unpack(head)[0]
        payload = _unframe(data[offset:end])
        if payload is None:
            break
        if "o" in payload:
            pending[str(payload["o"]["id"])] = _Slot(offset, end - offset)
            entries += 1
        else:
            # In order: an id acknowledged earlier may be appended again (odd names' ids
            # come from the name), and that later record is pending.
            for oid in payload.get("a", ()):
                pending.pop(oid, None)
        offset = end
    return pending, entries, offset


def _torn_at(data: bytes, offset: int) -> bool:
    # Torn: the bad record is the last one, cut short or half written (a kill mid-append).
    head = data[offset : offset + HEADER.size]
    return len(head) < HEADER.size or offset + HEADER.size + HEADER.unpack(head)[0] >= len(data)


def _dump(observation: Observation) -> dict[str, Any]:
    return observation.model_dump(mode="json")


def _frame(payload: dict[str, Any]) -> bytes:
    # ensure_ascii: a lone surrogate in a path survives as \udcXX, never as invalid UTF-8.
    body = json.dumps(payload, ensure_ascii=True, separators=(",", ":"), default=str).encode()
    return HEADER.pack(len(body), zlib.crc32(body)) + body


def _unframe(frame: bytes) -> dict[str, Any] | None:
    if len(frame) < HEADER.size:
        return None
    length, crc = HEADER.unpack(frame[: HEADER.size])
    body = frame[HEADER.size : HEADER.size + length]
    if len(body) != length or zlib.crc32(body) != crc:
        return None
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def _read_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    return os.pread(fd, size, 0) if size else b""
