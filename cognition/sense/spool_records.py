"""The intake spool's records: framing, and a reader that resynchronises past damage.

A record is ``length (4 bytes, big-endian) | CRC-32 of the payload (4 bytes) |
payload``, the payload a JSON object: ``{"o": observation}`` or ``{"a": [ids]}``.

:func:`scan` reads a spool's bytes from the start. A record that cannot be
read (a length no record has, a CRC that fails, a payload that is not one of
the two shapes) does not stop it: the reader looks forward for the next
record that is whole, so a damaged record costs itself and nothing after it.
The bytes skipped are reported as damaged ranges for the caller to keep
aside; only a record cut short at the very end (a kill mid-append) is a torn
tail, which is cut off.

Given the daemon's ``agent_id``, a whole observation that names another agent
(planted: a daemon only spools its own) is never pending: its range is
reported as foreign, for the caller to keep aside with the damage.
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

HEADER = struct.Struct(">II")  # payload length, CRC-32 of the payload
# A record longer than this is not a record: the length field itself is damaged.
MAX_RECORD_BYTES = 16 * 1024 * 1024
# Where a payload can start: frames are written compact, so an observation is always
# ``{"o":`` and an acknowledgement ``{"a":``. Searching for these (in C) instead of
# trying every byte keeps a resync over megabytes of garbage, or zeros, fast.
_PAYLOAD_START = re.compile(rb'\{"[oa]":')


@dataclass(frozen=True)
class Slot:
    """Where one observation record lies in the file."""

    offset: int
    length: int  # the whole frame, header included


@dataclass
class Scan:
    """What :func:`scan` found in a spool's bytes."""

    pending: dict[str, Slot] = field(default_factory=dict)
    entries: int = 0  # observation records, acknowledged or not
    records: int = 0  # whole records of either kind
    damaged: list[tuple[int, int]] = field(default_factory=list)  # [start, end) skipped
    foreign: list[tuple[int, int]] = field(default_factory=list)  # another agent's records
    torn: int | None = None  # where a torn tail starts


def frame(payload: dict[str, Any]) -> bytes:
    """One record for ``payload``, header included."""
    # ensure_ascii: a lone surrogate in a path survives as \udcXX, never as invalid UTF-8.
    body = json.dumps(payload, ensure_ascii=True, separators=(",", ":"), default=str).encode()
    return HEADER.pack(len(body), zlib.crc32(body)) + body


def unframe(data: bytes) -> dict[str, Any] | None:
    """The payload of the record ``data`` starts with, or None when it is not whole."""
    found = _record_at(data, 0, MAX_RECORD_BYTES)
    return None if found is None else found[1]


def scan(data: bytes, max_record: int = MAX_RECORD_BYTES, agent_id: str | None = None) -> Scan:
    """Read every whole record in ``data``; a record longer than ``max_record`` is damage.

    With ``agent_id``, an observation of any other agent is foreign, not pending.
    """
    found = Scan()
    offset = 0
    while offset < len(data):
        record = _record_at(data, offset, max_record)
        if record is not None:
            end, payload = record
            if agent_id is not None and not belongs_to(payload, agent_id):
                found.records += 1
                found.foreign.append((offset, end))
                offset = end
                continue
            offset = _apply(found, offset, end, payload)
            continue
        following = _next_record(data, offset + 1, max_record)
        if following is None:
            if _torn(data, offset, max_record):
                found.torn = offset
            else:
                found.damaged.append((offset, len(data)))
            break
        found.damaged.append((offset, following))
        offset = following
    return found


def belongs_to(payload: dict[str, Any], agent_id: str) -> bool:
    """Whether a record is ``agent_id``'s: an acknowledgement, or its own observation."""
    observation = payload.get("o")
    return not isinstance(observation, dict) or observation.get("agent_id") == agent_id


def _apply(found: Scan, offset: int, end: int, payload: dict[str, Any]) -> int:
    found.records += 1
    if "o" in payload:
        found.pending[str(payload["o"]["id"])] = Slot(offset, end - offset)
        found.entries += 1
    else:
        # In order: an id acknowledged earlier may be appended again (odd names' ids
        # come from the name), and that later record is pending.
        for oid in payload["a"]:
            found.pending.pop(str(oid), None)
    return end


def _record_at(data: bytes, offset: int, max_record: int) -> tuple[int, dict[str, Any]] | None:
    """(end, payload) of the whole record at ``offset``, or None."""
    if offset + HEADER.size > len(data):
        return None
    length, crc = HEADER.unpack_from(data, offset)
    end = offset + HEADER.size + length
    if length > max_record or end > len(data):
        return None
    body = data[offset + HEADER.size : end]
    if zlib.crc32(body) != crc:
        return None
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    observation, acknowledged = payload.get("o"), payload.get("a")
    if isinstance(observation, dict) and isinstance(observation.get("id"), str):
        return end, payload
    if isinstance(acknowledged, list):
        return end, payload
    return None


def _next_record(data: bytes, start: int, max_record: int) -> int | None:
    """The offset of the first whole record at or after ``start``, or None."""
    for match in _PAYLOAD_START.finditer(data, start + HEADER.size):
        candidate = match.start() - HEADER.size
        if _record_at(data, candidate, max_record) is not None:
            return candidate
    return None


def _torn(data: bytes, offset: int, max_record: int) -> bool:
    # Torn: the last record, cut short (a kill mid-append): its header is incomplete, or
    # a plausible length runs past the end. An implausible length is damage, kept aside.
    if offset + HEADER.size > len(data):
        return True
    length: int = HEADER.unpack_from(data, offset)[0]
    return length <= max_record and offset + HEADER.size + length > len(data)
