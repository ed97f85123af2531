"""PackStream's bytes (graph.store.packstream): the fast paths write what the spec says."""

from __future__ import annotations

import enum
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from graph.store import packstream
from graph.store.packstream import PackStreamError, Unpacker, pack


def packed(value: Any) -> bytes:
    out = bytearray()
    pack(value, out)
    return bytes(out)


class Kind(enum.StrEnum):
    NOTE = "note"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, b"\xc0"),
        (True, b"\xc3"),
        (-16, b"\xf0"),
        (-17, b"\xc8\xef"),
        (127, b"\x7f"),
        ("é", b"\x82\xc3\xa9"),
        ("x" * 16, b"\xd0\x10" + b"x" * 16),
        (Kind.NOTE, b"\x84note"),
        ([1, "a"], b"\x92\x01\x81a"),
        ({"a": 1}, b"\xa1\x81a\x01"),
        # DateTime 0x49: UTC seconds, nanoseconds, offset seconds (-1 s + 0.5 s, UTC-1)
        (
            datetime(1969, 12, 31, 22, 59, 59, 500000, tzinfo=timezone(timedelta(hours=-1))),
            b"\xb3\x49\xff\xca\x1d\xcd\x65\x00\xc9\xf1\xf0",
        ),
    ],
)
def test_values_pack_to_the_specs_bytes(value: Any, expected: bytes) -> None:
    assert packed(value) == expected


def test_a_map_with_many_keys_packs_and_reads_back() -> None:
    rows = [{f"k{i}": i for i in range(packstream._KEYS_MAX + 10)}]
    assert Unpacker(packed(rows)).value() == rows
    # The cache of packed keys stays bounded, whatever the maps hold.
    assert len(packstream._KEYS) <= packstream._KEYS_MAX


def test_temporal_values_read_back_as_they_were_written() -> None:
    for value in [
        datetime(2026, 11, 27, 9, 30, 1, 123456, tzinfo=UTC),
        datetime(1900, 1, 1, tzinfo=timezone(timedelta(hours=5, minutes=45))),
        datetime(2026, 1, 1, 0, 0),
    ]:
        assert Unpacker(packed(value)).value() == value


def test_a_map_key_that_is_not_text_is_refused_by_type() -> None:
    with pytest.raises(PackStreamError, match="a map key must be a string, not int"):
        packed({1: "x"})
    with pytest.raises(PackStreamError, match="no PackStream form for a value of type object"):
        packed([object()])
