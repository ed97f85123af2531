"""``python -m rsi report`` and ``prune`` on a seeded memory: the expected figures."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from rsi.__main__ import main
from tests.support.recall_seed import Seeder, seeding

REPO = Path(__file__).resolve().parents[2]
EMPTY = REPO / "tests" / "support" / "empty.yaml"
NOW = datetime.now(UTC)
CYCLE_1 = NOW - timedelta(hours=2)
CYCLE_2 = NOW - timedelta(hours=1)


@pytest.fixture
async def seed(neo4j_endpoint: Neo4jEndpoint, memory: Memory) -> AsyncIterator[Seeder]:
    async with seeding(neo4j_endpoint, memory) as seeder:
        yield seeder


async def _seed_memory(seed: Seeder) -> dict[str, str]:
    await seed.nodes(
        "rsi_cycles",
        {"at": CYCLE_1 - timedelta(hours=1), "processed": 0, "practiced": 0,
         "skipped": "no verified desire, and no language model to practice with"},
        {"at": CYCLE_1, "processed": 4, "accepted": 1, "rejected": 3, "practiced": 1,
         "succeeded": 1, "crystallized": 0, "direction_variance": 1.0,
         "practice_origin": "bootstrap"},
        {"at": CYCLE_2, "processed": 2, "accepted": 2, "rejected": 0, "practiced": 2,
         "succeeded": 1, "crystallized": 1, "direction_variance": 0.5},
        # A prune job run is not a cycle: it never counts in the figures.
        {"at": CYCLE_2 + timedelta(minutes=1), "kind": "prune", "processed": 100},
    )  # fmt: skip
    minute = timedelta(minutes=1)
    await seed.nodes(
        "desires",
        {"at": CYCLE_1 + minute, "description": "a", "status": "rejected",
         "rejection_reason": "low specificity"},
        {"at": CYCLE_1 + minute, "description": "b", "status": "rejected",
         "rejection_reason": "low specificity"},
        {"at": CYCLE_1 + minute, "description": "c", "status": "rejected",
         "rejection_reason": "no provenance"},
        {"at": CYCLE_2 + minute, "description": "d", "status": "needs_clarification"},
    )  # fmt: skip
    await seed.nodes(
        "trajectories",
        {"at": CYCLE_1 + minute, "domain": "code", "difficulty": "beginner", "problem": "p",
         "success": True},
        {"at": CYCLE_2 + minute, "domain": "code", "difficulty": "beginner", "problem": "p",
         "success": False},
        {"at": CYCLE_2 + minute, "domain": "logic", "difficulty": "beginner", "problem": "p",
         "success": True},
    )  # fmt: skip
    active, pruned = await seed.nodes(
        "heuristics",
        {"at": CYCLE_2 + minute, "domain": "code", "content": "Test first.", "status": "active",
         "usage_count": 4, "helpful": 3, "harmful": 1},
        {"at": CYCLE_1 - timedelta(days=40), "domain": "code", "content": "Old and unused.",
         "status": "active", "usage_count": 0},
    )  # fmt: skip
    return {"active": active, "old": pruned}


def _run(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*argv, "--config", str(EMPTY)]) == 0
    return out.getvalue()


@pytest.mark.usefixtures("neo4j_in_environ")  # the commands find the tests' server
async def test_prune_then_report_print_the_expected_figures(
    memory: Memory, seed: Seeder, tmp_path: Path
) -> None:
    ids = await _seed_memory(seed)
    agent = ["--agent-id", memory.agent_id, "--root", str(tmp_path)]

    # The commands run their own event loop, as from a shell.
    pruned = await _in_thread(["prune", *agent])
    assert f"retired {ids['old']} [code] unused:" in pruned
    assert "1 retired; 1 active heuristics" in pruned
    strategies = json.loads((tmp_path / ".nous" / "strategies.json").read_text())
    assert [h["id"] for h in strategies["heuristics"]] == [ids["active"]]
    again = await _in_thread(["prune", *agent])
    assert "nothing to retire" in again

    data = json.loads(await _in_thread(["report", "--json", *agent]))
    overall = data["overall"]
    assert (overall["cycles"], overall["processed"], overall["accepted"]) == (3, 6, 3)
    # Two of three cycles practiced, one on a bootstrap desire; the third says why not.
    assert (overall["practicing"], overall["bootstrap"]) == (2, 1)
    assert overall["not_practiced"] == {
        "no verified desire, and no language model to practice with": 1
    }
    assert overall["activation_rate"] == 0.5
    assert overall["rejection_reasons"] == {"low specificity": 2, "no provenance": 1}
    practice = [(p["domain"], p["difficulty"], p["attempts"], p["successes"]) for p in
                overall["practice"]]  # fmt: skip
    assert practice == [("code", "beginner", 2, 1), ("logic", "beginner", 1, 1)]
    assert (overall["crystallized"], overall["pruned"], overall["clarifications_waiting"]) == (
        2, 1, 1
    )  # fmt: skip
    assert overall["direction_variance"] == 0.75
    assert (data["heuristics_active"], data["heuristics_pruned"]) == (1, 1)
    idle, first, second = data["windows"]
    assert (idle["practicing"], len(idle["not_practiced"])) == (0, 1)
    assert (first["activation_rate"], second["activation_rate"]) == (0.25, 1.0)
    assert first["rejection_reasons"] == {"low specificity": 2, "no provenance": 1}
    assert (second["clarifications_waiting"], second["crystallized"], second["pruned"]) == (1, 1, 1)
    helped = next(h for h in data["heuristics"] if h["id"] == ids["active"])
    assert (helped["helpful"], helped["harmful"], helped["usage_count"]) == (3, 1, 4)

    text = await _in_thread(["report", *agent])
    assert "activation rate: 50.0% (3 accepted / 6 processed)" in text
    assert "rejection reasons: low specificity 2, no provenance 1" in text
    assert "code/beginner: 1/2 (50%)" in text
    assert "heuristics: 0 candidate, 1 active, 0 rejected, 1 pruned" in text
    assert "practiced in 2 of 3 cycles (1 on a bootstrap desire)" in text
    assert "not practiced: no verified desire, and no language model to practice with 1" in text
    assert "[pruned (unused)] code: Old and unused." in text


async def _in_thread(argv: list[str]) -> str:
    import asyncio

    return await asyncio.to_thread(_run, argv)


def test_a_bad_setting_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "nous.yaml"
    bad.write_text("rsi:\n  max_heuristics: 0\n")
    assert main(["report", "--config", str(bad)]) == 2
