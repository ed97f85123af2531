"""File ids: the uuid5 of agent and path, computed without building a UUID (issue 28)."""

from __future__ import annotations

import uuid

import pytest

from graph.ids import _FILE_NAMESPACE, file_id

NAMES = [
    ("agent", "notes/kant.md"),
    ("test-01abc", ""),
    ("ä-agent", "日本語/ümlaut file.md"),
    ("agent", "a\nnew line/\x00nul/\u202eright-to-left.txt"),
    ("agent", "deep/" * 400 + "long.md"),
    ("agent", "🙂/emoji.md"),
]


@pytest.mark.parametrize(("agent_id", "path"), NAMES)
def test_a_file_id_is_the_uuid5_it_always_was(agent_id: str, path: str) -> None:
    # Stored File nodes carry these ids: a different one would MERGE a second node.
    assert file_id(agent_id, path) == str(uuid.uuid5(_FILE_NAMESPACE, f"{agent_id}\0{path}"))


def test_a_name_that_is_not_unicode_is_refused_as_before() -> None:
    # A lone surrogate (an undecodable byte of a file name) cannot be a uuid5 name either;
    # graph.watch.oddnames escapes such names before they get here.
    with pytest.raises(UnicodeEncodeError):
        uuid.uuid5(_FILE_NAMESPACE, "agent\0bad\udcff.md")
    with pytest.raises(UnicodeEncodeError):
        file_id("agent", "bad\udcff.md")
