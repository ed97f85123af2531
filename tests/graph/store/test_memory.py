"""The memory layer against a real Neo4j: observation round trips, idempotent retries, moves."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from graph.models import Category, Observation, ObservationType, Urgency, utc_now
from graph.models.paths import path_pattern
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory, observation_row
from tests.support.graph_checks import open_checks


def _obs(memory: Memory, kind: ObservationType, path: str, **extra: object) -> Observation:
    return Observation(agent_id=memory.agent_id, type=kind, path=path, **extra)  # type: ignore[arg-type]


async def test_round_trip_keeps_every_field(memory: Memory) -> None:
    original = _obs(
        memory,
        ObservationType.FILE_CREATED,
        "_intake/a.md",
        urgency=Urgency.URGENT,
        category=Category.INTAKE,
        content_hash="ab" * 32,
        metadata={"source": "watcher", "binary": False},
    )
    assert await memory.record_observations([original]) == 1
    [back] = await memory.observations_for_path("_intake/a.md")
    assert back.id == original.id
    assert back.type is ObservationType.FILE_CREATED
    assert back.urgency is Urgency.URGENT and back.category is Category.INTAKE
    assert back.content_hash == original.content_hash
    assert back.metadata == {"source": "watcher", "binary": False}
    assert abs(back.at - original.at) < timedelta(milliseconds=1)
    files = await memory.file_records()
    assert files["_intake/a.md"].content_hash == original.content_hash


async def test_retrying_a_batch_writes_nothing_twice(memory: Memory) -> None:
    batch = [_obs(memory, ObservationType.FILE_CREATED, f"docs/{i}.md") for i in range(50)]
    await memory.record_observations(batch, batch_size=20)
    await memory.record_observations(batch, batch_size=7)
    assert await memory.observation_counts() == (50, 50)
    assert len(await memory.file_records()) == 50


async def test_a_batch_partly_stored_writes_only_what_is_new(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    # The fast write does not look ids up: a chunk holding a stored id fails on the unique
    # constraint and is written again the checked way. Chunks of 8 over 40 rows: some hold
    # only new rows, some only stored ones, some both.
    batch = [_obs(memory, ObservationType.FILE_CREATED, f"notes/{i}.md") for i in range(40)]
    stored = batch[5:17] + batch[30:33]
    assert await memory.record_observations(stored, batch_size=4) == 15
    assert await memory.record_observations(batch, batch_size=8) == 25
    assert await memory.observation_counts() == (40, 40)
    assert len(await memory.file_records()) == 40
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        for observation in batch:  # each linked once to its File: no chunk was half written
            links = await checks.outgoing(observation.id)
            assert [t for t, label, _ in links if label == "File"] == ["ABOUT"]


async def test_a_mixed_batch_partly_stored_writes_each_kind_once_with_its_links(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    # A batch of plain rows takes the statement without link subqueries; one with a move and
    # the agent's own edit, the one with them, whole. Replayed in chunks of 2 with half of it
    # stored, each row is written once, with its links.
    t0 = utc_now()
    stored = [
        _obs(memory, ObservationType.FILE_CREATED, name, at=t0, content_hash=f"h-{name}")
        for name in ("a.md", "b.md", "c.md")
    ]
    assert await memory.record_observations(stored) == 3
    later = t0 + timedelta(seconds=1)
    moved = _obs(
        memory,
        ObservationType.FILE_MOVED,
        "d.md",
        at=later,
        content_hash="h-b.md",
        metadata={"from_path": "b.md"},
    )
    own = _obs(
        memory,
        ObservationType.FILE_MODIFIED,
        "a.md",
        at=later,
        content_hash="h-a2",
        caused_by="an-execution-gone",
    )
    plain = _obs(memory, ObservationType.FILE_CREATED, "e.md", at=later, content_hash="h-e")
    batch = [stored[0], moved, stored[1], own, plain, stored[2]]
    assert await memory.record_observations(batch, batch_size=2) == 3
    assert await memory.record_observations(batch, batch_size=4) == 0
    assert (await memory.observation_counts())[0] == 6
    files = await memory.file_records()
    assert set(files) == {"a.md", "c.md", "d.md", "e.md"}  # b.md moved away
    assert files["a.md"].content_hash == "h-a2" and files["d.md"].content_hash == "h-b.md"
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        kinds = {o.id: sorted(t for t, _, _ in await checks.outgoing(o.id)) for o in batch}
        assert kinds[moved.id] == ["ABOUT", "MOVED_FROM"]
        assert all(kinds[o.id] == ["ABOUT"] for o in (*stored, own, plain))
        own_node = await checks.node(own.id)
        assert own_node is not None and own_node["caused_by"] == "an-execution-gone"
        assert own_node["processed"] is True  # the agent's own edit starts nothing


async def test_a_write_that_breaks_a_constraint_names_its_query(memory: Memory) -> None:
    from graph.errors import MemoryConstraintError

    batch = [_obs(memory, ObservationType.FILE_CREATED, "a.md")]
    await memory.record_observations(batch)
    with pytest.raises(MemoryConstraintError, match="observe/record_observations"):
        # Without on_conflict the fast way's failure is the caller's.
        await memory.write_rows("observe/record_observations", batch, convert=observation_row)
    assert await memory.observation_counts() == (1, 1)


async def test_delete_and_move_update_the_file_nodes(memory: Memory) -> None:
    t0 = utc_now()
    await memory.record_observations(
        [
            _obs(memory, ObservationType.FILE_CREATED, "a.txt", at=t0, content_hash="h1"),
            _obs(memory, ObservationType.FILE_CREATED, "b.txt", at=t0, content_hash="h2"),
        ]
    )
    later = t0 + timedelta(seconds=1)
    await memory.record_observations(
        [
            _obs(memory, ObservationType.FILE_DELETED, "a.txt", at=later),
            _obs(
                memory,
                ObservationType.FILE_MOVED,
                "c.txt",
                at=later,
                content_hash="h2",
                metadata={"from_path": "b.txt"},
            ),
        ]
    )
    files = await memory.file_records()
    assert set(files) == {"c.txt"}
    assert files["c.txt"].content_hash == "h2"


async def test_a_late_retry_does_not_roll_a_file_back(memory: Memory) -> None:
    t0 = utc_now()
    old = _obs(memory, ObservationType.FILE_CREATED, "x.md", at=t0, content_hash="old")
    new = _obs(
        memory,
        ObservationType.FILE_MODIFIED,
        "x.md",
        at=t0 + timedelta(seconds=5),
        content_hash="new",
    )
    await memory.record_observations([new])
    await memory.record_observations([old])  # a retry of an older batch arrives late
    assert (await memory.file_records())["x.md"].content_hash == "new"
    assert len(await memory.observations_for_path("x.md")) == 2


async def test_agents_do_not_see_each_other(memory: Memory) -> None:
    other = Memory(memory.driver, memory.agent_id + "-other")
    try:
        await other.record_observations([_obs(other, ObservationType.FILE_CREATED, "a.md")])
        assert await memory.observation_counts() == (0, 0)
        assert await memory.file_records() == {}
    finally:
        await other.forget()


def test_path_patterns_group_by_folder_and_extension() -> None:
    assert path_pattern("docs/guide/intro.md") == "docs/guide/*.md"
    assert path_pattern("README") == "*"
    assert path_pattern(".env") == "*"
    assert path_pattern("a/b.tar.gz") == "a/*.gz"
    assert path_pattern(None) is None


def test_only_the_stores_read_and_write_queries_by_name() -> None:
    # The one door into the memory: everything else calls a store method with a domain name.
    repo = Path(__file__).resolve().parents[3]
    call = re.compile(r"memory\.(read|write)\(")
    found = [
        f"{path.relative_to(repo)}:{number}"
        for package in ("cognition", "rsi", "scheduler")
        for path in sorted((repo / package).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if call.search(line)
    ]
    assert not found, found


# Which store modules and node models a new Memory has loaded, then after one store is used.
_STORES_LOADED = """
import json, sys
from graph.store.memory import Memory, observation_row
from graph.server.finder import Neo4jEndpoint
from tests.support.graph_checks import open_checks
memory = Memory(None, "lazy-stores")
loaded = lambda: sorted(m for m in sys.modules if m.startswith(("graph.store.", "graph.models.")))
before = loaded()
first = memory.heuristics
print(json.dumps([before, loaded(), first is memory.heuristics, first.graph is memory]))
"""


def test_each_store_is_built_once_when_first_used() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _STORES_LOADED], capture_output=True, text=True, check=True
    )
    before, after, same, over_memory = json.loads(done.stdout)
    # A hook's process uses a few stores: the others' modules and models stay unloaded.
    assert not {"graph.store.heuristics", "graph.store.rsi", "graph.models.rsi"} & set(before)
    assert {"graph.store.heuristics", "graph.models.rsi"} <= set(after)
    assert "graph.store.rsi" not in after
    assert same and over_memory  # one instance per store, over this memory


def test_a_projects_decisions_store_is_built_once_per_project() -> None:
    memory = Memory(None, "lazy-decisions")  # type: ignore[arg-type]  # no query is run
    ours = memory.team_decisions("nous")
    assert ours is memory.team_decisions("nous") and ours.graph is memory
    assert (ours.project, ours.scope) == ("nous", "project")
    other = memory.team_decisions("other")
    assert other is not ours and other.project == "other"
