"""PackStream, the values of Bolt 5, for :mod:`graph.store.bolt` (a hook's own Neo4j client).

Only the standard library: a hook working alone pays for every module it
imports (issue 27), and the official driver's import alone costs several
bare interpreters' start. Values come back as the official driver's
``GraphDriver`` hands them on (after its ``to_native``): temporal values as
:mod:`datetime` objects, nodes and relationships as read-only mappings of
their properties (:class:`Node`, :class:`Relationship`). A structure this
module does not know (a point, a path) is refused by name, never guessed.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime, time, timedelta, timezone
from typing import Any

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_EPOCH_DATE = date(1970, 1, 1)
_INT8, _INT16 = struct.Struct(">b"), struct.Struct(">h")
_INT32, _INT64 = struct.Struct(">i"), struct.Struct(">q")
_UINT8, _UINT16, _UINT32 = struct.Struct(">B"), struct.Struct(">H"), struct.Struct(">I")
_FLOAT = struct.Struct(">d")


class PackStreamError(ValueError):
    """A value PackStream cannot carry, or bytes that are not PackStream."""


class Structure:
    """A message or value structure: its tag byte and its fields."""

    __slots__ = ("fields", "tag")

    def __init__(self, tag: int, *fields: Any) -> None:
        self.tag = tag
        self.fields = list(fields)


class _Properties(Mapping[str, Any]):
    """An entity's properties as a read-only mapping (what Node and Relationship share)."""

    def __init__(self, properties: dict[str, Any]) -> None:
        self._properties = properties

    def __getitem__(self, key: str) -> Any:
        return self._properties[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._properties)

    def __len__(self) -> int:
        return len(self._properties)


class Node(_Properties):
    """A node as a query returned it: its properties (a mapping), labels and element id."""

    def __init__(self, element_id: str, labels: list[str], properties: dict[str, Any]) -> None:
        super().__init__(properties)
        self.element_id = element_id
        self.labels = frozenset(labels)

    def __repr__(self) -> str:
        return f"Node({self.element_id!r}, {sorted(self.labels)!r}, {self._properties!r})"


class Relationship(_Properties):
    """A relationship as a query returned it: its properties, type and element ids."""

    def __init__(
        self, element_id: str, type_: str, start: str, end: str, properties: dict[str, Any]
    ) -> None:
        super().__init__(properties)
        self.element_id = element_id
        self.type = type_
        self.start_element_id = start
        self.end_element_id = end


def pack(value: Any, out: bytearray) -> None:
    """Append ``value`` to ``out`` as PackStream (what Nous passes as parameters)."""
    # The one-byte header of a short string, map or list is written here, not by
    # _pack_header: a call per value cost about 8% of packing a batch of rows.
    kind = type(value)
    if kind is str:
        data = value.encode("utf-8")
        size = len(data)
        if size < 16:
            out.append(0x80 + size)
        else:
            _pack_header(size, None, 0xD0, out)
        out += data
    elif value is None:
        out.append(0xC0)
    elif kind is dict:
        size = len(value)
        if size < 16:
            out.append(0xA0 + size)
        else:
            _pack_header(size, None, 0xD8, out)
        keys = _KEYS
        for key, item in value.items():
            packed = keys.get(key)
            if packed is None:
                packed = _packed_key(key)
            out += packed
            pack(item, out)
    elif kind is bool:
        out.append(0xC3 if value else 0xC2)
    elif kind is int:
        if -16 <= value <= 127:
            out.append(value & 0xFF)
        else:
            _pack_int(value, out)
    elif kind is list:
        size = len(value)
        if size < 16:
            out.append(0x90 + size)
        else:
            _pack_header(size, None, 0xD4, out)
        for item in value:
            pack(item, out)
    elif kind is float:
        out.append(0xC1)
        out += _FLOAT.pack(value)
    elif kind is datetime:
        _pack_temporal(value, out)
    else:
        _pack_other(value, out)


_KEYS: dict[str, bytes] = {}
"""Map keys as PackStream, by key: a batch's rows repeat the same few keys."""
_KEYS_MAX = 4096


def _packed_key(key: Any) -> bytes:
    if not isinstance(key, str):
        raise PackStreamError(f"a map key must be a string, not {type(key).__name__}")
    out = bytearray()
    data = key.encode("utf-8")
    _pack_header(len(data), 0x80, 0xD0, out)
    out += data
    if len(_KEYS) < _KEYS_MAX:
        _KEYS[key] = bytes(out)
    return bytes(out)


def _pack_other(value: Any, out: bytearray) -> None:
    """Every value that is not exactly a str, dict, bool, int, list, float or None."""
    if value is True or value is False:
        out.append(0xC3 if value else 0xC2)
    elif isinstance(value, int):
        _pack_int(value, out)
    elif isinstance(value, float):
        out.append(0xC1)
        out += _FLOAT.pack(value)
    elif isinstance(value, str):
        data = value.encode("utf-8")
        _pack_header(len(data), 0x80, 0xD0, out)
        out += data
    elif isinstance(value, bytes | bytearray):
        _pack_header(len(value), None, 0xCC, out)
        out += value
    elif isinstance(value, list | tuple):
        _pack_header(len(value), 0x90, 0xD4, out)
        for item in value:
            pack(item, out)
    elif isinstance(value, Mapping):
        _pack_header(len(value), 0xA0, 0xD8, out)
        for key, item in value.items():
            out += _KEYS.get(key) or _packed_key(key)
            pack(item, out)
    elif isinstance(value, Structure):
        out.append(0xB0 + len(value.fields))
        out.append(value.tag)
        for item in value.fields:
            pack(item, out)
    else:
        _pack_temporal(value, out)


def _pack_int(value: int, out: bytearray) -> None:
    if -16 <= value <= 127:
        out += _INT8.pack(value)
    elif -128 <= value < 128:
        out.append(0xC8)
        out += _INT8.pack(value)
    elif -32768 <= value < 32768:
        out.append(0xC9)
        out += _INT16.pack(value)
    elif -(2**31) <= value < 2**31:
        out.append(0xCA)
        out += _INT32.pack(value)
    elif -(2**63) <= value < 2**63:
        out.append(0xCB)
        out += _INT64.pack(value)
    else:
        raise PackStreamError(f"an integer beyond 64 bits: {value}")


def _pack_header(size: int, tiny: int | None, marker: int, out: bytearray) -> None:
    if tiny is not None and size < 16:
        out.append(tiny + size)
    elif size < 0x100:
        out.append(marker)
        out += _UINT8.pack(size)
    elif size < 0x10000:
        out.append(marker + 1)
        out += _UINT16.pack(size)
    elif size < 0x80000000:
        out.append(marker + 2)
        out += _UINT32.pack(size)
    else:
        raise PackStreamError(f"a value of {size} items or bytes is too large")


def _pack_temporal(value: Any, out: bytearray) -> None:
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            local = value - datetime(1970, 1, 1)
            seconds, nanos = divmod(_nanoseconds(local), 1_000_000_000)
            pack(Structure(0x64, seconds, nanos), out)  # LocalDateTime
            return
        offset = value.utcoffset() or timedelta(0)
        since = value - _EPOCH
        out += b"\xb3\x49"  # DateTime: UTC seconds, nanoseconds, offset seconds
        pack(since.days * 86_400 + since.seconds, out)
        pack(since.microseconds * 1000, out)
        pack(offset.days * 86_400 + offset.seconds, out)
    elif isinstance(value, date):
        pack(Structure(0x44, (value - _EPOCH_DATE).days), out)
    elif isinstance(value, timedelta):  # Duration: months, days, seconds, nanoseconds
        pack(Structure(0x45, 0, value.days, value.seconds, value.microseconds * 1000), out)
    else:
        raise PackStreamError(f"no PackStream form for a value of type {type(value).__name__}")


def _nanoseconds(delta: timedelta) -> int:
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000


class Unpacker:
    """Reads one message's PackStream values from its bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = memoryview(data)
        self.at = 0

    def value(self) -> Any:
        """The next value."""
        at = self.at
        marker = self.data[at]
        if 0x80 <= marker < 0x90:  # a short string, the commonest value
            self.at = end = at + 1 + marker - 0x80
            return str(self.data[at + 1 : end], "utf-8")
        if marker == 0xD0:  # a string of 16 to 255 bytes (ids, times, paths)
            start = at + 2
            self.at = end = start + self.data[at + 1]
            return str(self.data[start:end], "utf-8")
        self.at = at + 1
        if marker < 0x80:
            return marker
        if marker >= 0xF0:
            return marker - 0x100
        high = marker & 0xF0
        if high == 0x90:
            return [self.value() for _ in range(marker & 0x0F)]
        if high == 0xA0:
            return self._map(marker & 0x0F)
        if high == 0xB0:
            return self._structure(marker & 0x0F)
        return self._marked(marker)

    def _marked(self, marker: int) -> Any:
        if marker == 0xC0:
            return None
        if marker in (0xC2, 0xC3):
            return marker == 0xC3
        if marker == 0xC1:
            return self._fixed(_FLOAT)
        if 0xC8 <= marker <= 0xCB:
            return self._fixed((_INT8, _INT16, _INT32, _INT64)[marker - 0xC8])
        sizes = (_UINT8, _UINT16, _UINT32)
        if 0xCC <= marker <= 0xCE:
            size = self._fixed(sizes[marker - 0xCC])
            self.at += size
            return bytes(self.data[self.at - size : self.at])
        if 0xD0 <= marker <= 0xD2:
            return self._text(self._fixed(sizes[marker - 0xD0]))
        if 0xD4 <= marker <= 0xD6:
            return [self.value() for _ in range(self._fixed(sizes[marker - 0xD4]))]
        if 0xD8 <= marker <= 0xDA:
            return self._map(self._fixed(sizes[marker - 0xD8]))
        raise PackStreamError(f"not a PackStream marker: 0x{marker:02X}")

    def _fixed(self, form: struct.Struct) -> Any:
        (value,) = form.unpack_from(self.data, self.at)
        self.at += form.size
        return value

    def _text(self, size: int) -> str:
        self.at += size
        return str(self.data[self.at - size : self.at], "utf-8")

    def _map(self, size: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        value = self.value
        for _ in range(size):
            key = value()
            out[key] = value()
        return out

    def _structure(self, size: int) -> Any:
        tag = self.data[self.at]
        self.at += 1
        fields = [self.value() for _ in range(size)]
        return hydrate(tag, fields)


def hydrate(tag: int, fields: list[Any]) -> Any:
    """A structure's Python value (a message stays a :class:`Structure`)."""
    if tag == 0x4E:  # Node: id, labels, properties, element_id
        return Node(fields[3], fields[1], fields[2])
    if tag == 0x52:  # Relationship: id, start, end, type, properties, element ids
        return Relationship(fields[5], fields[3], fields[6], fields[7], fields[4])
    if tag == 0x49:  # DateTime: UTC seconds, nanoseconds, offset seconds
        zone = UTC if fields[2] == 0 else timezone(timedelta(seconds=fields[2]))
        instant = _EPOCH + timedelta(seconds=fields[0], microseconds=fields[1] // 1000)
        return instant.astimezone(zone)
    if tag == 0x69:  # DateTimeZoneId: UTC seconds, nanoseconds, zone name
        from zoneinfo import ZoneInfo

        instant = _EPOCH + timedelta(seconds=fields[0], microseconds=fields[1] // 1000)
        return instant.astimezone(ZoneInfo(fields[2]))
    if tag == 0x64:  # LocalDateTime: seconds, nanoseconds
        return datetime(1970, 1, 1) + timedelta(seconds=fields[0], microseconds=fields[1] // 1000)
    if tag == 0x44:  # Date: days since the epoch
        return _EPOCH_DATE + timedelta(days=fields[0])
    if tag == 0x74:  # LocalTime: nanoseconds since midnight
        return _time_of_day(fields[0], None)
    if tag == 0x54:  # Time: nanoseconds since midnight, offset seconds
        return _time_of_day(fields[0], timezone(timedelta(seconds=fields[1])))
    if tag in (0x70, 0x71, 0x7E, 0x7F):  # SUCCESS, RECORD, IGNORED, FAILURE
        return Structure(tag, *fields)
    names = {0x45: "a duration", 0x50: "a path", 0x72: "a relationship in a path"}
    name = names.get(tag, "a point" if tag in (0x58, 0x59) else f"structure 0x{tag:02X}")
    raise PackStreamError(f"{name} is not read by the hook's client: return it as properties")


def _time_of_day(nanoseconds: int, zone: timezone | None) -> time:
    seconds, nanos = divmod(nanoseconds, 1_000_000_000)
    hours, rest = divmod(seconds, 3600)
    return time(hours, rest // 60, rest % 60, nanos // 1000, tzinfo=zone)
