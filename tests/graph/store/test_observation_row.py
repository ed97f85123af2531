"""An observation's row for observe/record_observations: the values the query stores."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

from graph.ids import _FILE_NAMESPACE
from graph.models import Category, Observation, ObservationType
from graph.store.memory import observation_row


def test_metadata_is_sorted_json_and_odd_values_are_text() -> None:
    when = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
    metadata = {"z": 1, "a": [1, "two"], "when": when, "nested": {"b": None, "a": "ä"}}
    observation = Observation(
        agent_id="agent",
        type=ObservationType.FILE_MOVED,
        category=Category.KNOWLEDGE,
        path="notes/new.md",
        metadata={**metadata, "from_path": "notes/old.md"},
    )

    row = observation_row(observation)

    expected = {**metadata, "from_path": "notes/old.md"}
    assert row["metadata"] == json.dumps(expected, sort_keys=True, default=str)
    assert json.loads(row["metadata"])["when"] == str(when)
    assert row["file_id"] == str(uuid.uuid5(_FILE_NAMESPACE, "agent\0notes/new.md"))
    assert row["from_file_id"] == str(uuid.uuid5(_FILE_NAMESPACE, "agent\0notes/old.md"))
    assert (row["path_pattern"], row["file_exists"], row["from_path"]) == (
        "notes/*.md",
        True,
        "notes/old.md",
    )
