"""``nous desires`` and ``nous heuristics`` on Desire and Heuristic nodes the tests seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.models import HeuristicStatus, HeuristicTrial
from graph.server.finder import Neo4jEndpoint
from graph.store.heuristics import HeuristicStore
from graph.store.memory import Memory
from rsi.strategies import StrategyBook
from tests.scheduler.cli.conftest import Nous
from tests.support.graph_checks import open_checks
from tests.support.recall_seed import Seeder


async def test_desires_listed_added_and_clarified(
    nous: Nous, memory: Memory, seeder: Seeder, neo4j_endpoint: Neo4jEndpoint
) -> None:
    empty = await nous("desires")
    assert empty.code == 0 and "no desires" in empty.out

    added = await nous("desires", "add", "Write better commit messages", "--json")
    assert added.code == 0, added.err
    desire_id = json.loads(added.out)["id"]
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        node = await checks.node(desire_id)
    assert node is not None
    assert node["origin"] == "external"
    assert node["external_request"] == "Write better commit messages"
    assert node["status"] == "verified"  # a person's request needs no emergence check

    [waiting] = await seeder.nodes(
        "desires",
        {
            "description": "Get better at something vague",
            "intensity": 0.6,
            "domain": "ambiguous",
            "origin": "reflection",
            "status": "needs_clarification",
        },
    )
    listed = await nous("desires")
    assert waiting in listed.out and "needs_clarification" in listed.out

    unknown = await nous("desires", "clarify", waiting, "--domain", "writing")
    assert unknown.code == 2 and "domain must be one of" in unknown.err
    clarified = await nous("desires", "clarify", waiting, "--domain", "logic")
    assert clarified.code == 0, clarified.err
    [row] = [r for r in await memory.read("audit/desires", limit=10) if r["id"] == waiting]
    assert (row["status"], row["domain"]) == ("verified", "logic")

    again = await nous("desires", "clarify", desire_id, "--domain", "code")
    assert again.code == 2 and "not waiting for clarification" in again.err
    assert (await nous("desires", "clarify", "NOPE", "--domain", "code")).code == 1


async def test_heuristics_shown_with_trajectories_and_retired(
    nous: Nous, memory: Memory, seeder: Seeder, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NOUS_WATCH__ROOT", str(tmp_path))
    assert "no heuristics" in (await nous("heuristics")).out
    [heuristic_id] = await seeder.nodes(
        "heuristics",
        {"domain": "code", "content": "Write the test first", "usage_count": 4, "status": "active"},
    )
    trajectory_ids = await seeder.nodes(
        "trajectories",
        *(
            {
                "domain": "code",
                "problem": f"HumanEval/{n}",
                "approach": "tests first",
                "success": True,
                "partial_score": 1.0,
                "tests_passed": 5,
                "tests_total": 5,
            }
            for n in (11, 12)
        ),
    )
    await seeder.nodes(
        "distilled",
        *({"heuristic_id": heuristic_id, "trajectory_id": t} for t in trajectory_ids),
    )
    listed = await nous("heuristics")
    assert heuristic_id in listed.out and "Write the test first" in listed.out

    shown = await nous("heuristics", "show", heuristic_id)
    assert shown.code == 0, shown.err
    assert "distilled from 2 trajectories" in shown.out
    assert "HumanEval/11" in shown.out and "HumanEval/12" in shown.out

    book = StrategyBook(HeuristicStore(memory), 2000)
    assert (await book.prompt()).strategy_ids == (heuristic_id,)
    retired = await nous("heuristics", "retire", heuristic_id, "--note", "misleads on math")
    assert retired.code == 0, retired.err
    [row] = await memory.read("audit/heuristic", heuristic_id=heuristic_id)
    heuristic = row["heuristic"]
    assert heuristic["status"] == "pruned"
    assert heuristic["prune_reason"] == "misleads on math"
    assert heuristic["pruned_at"] is not None
    assert len(row["trajectories"]) == 2  # never deleted, nor its provenance
    assert (await book.prompt()).strategy_ids == ()  # no request carries it any more
    written = json.loads((tmp_path / ".nous" / "strategies.json").read_text())
    assert written["heuristics"] == []  # the files follow at once
    assert (await nous("heuristics", "show", "NOPE")).code == 1


async def test_a_heuristic_shows_its_trial_evidence(
    nous: Nous, memory: Memory, seeder: Seeder
) -> None:
    [heuristic_id] = await seeder.nodes(
        "heuristics", {"domain": "code", "content": "Return None early.", "status": "candidate"}
    )
    trial = HeuristicTrial(
        agent_id=memory.agent_id,
        heuristic_id=heuristic_id,
        domain="code",
        problems=["HumanEval/0", "HumanEval/1", "HumanEval/2"],
        with_passed=[False, False, True],
        without_passed=[True, True, True],
        with_only=0,
        without_only=2,
        p_value=0.5,
        verdict="rejected",
        reason="rejected: worse than without it",
    )
    status = await HeuristicStore(memory).record_trial(
        trial, HeuristicStatus.REJECTED, trial.reason
    )
    assert status == "rejected"

    shown = await nous("heuristics", "show", heuristic_id)
    assert shown.code == 0, shown.err
    assert "(rejected, domain code" in shown.out
    assert "trial: rejected: worse than without it" in shown.out
    assert "tried in 1 paired trials" in shown.out
    line = next(row for row in shown.out.splitlines() if trial.id in row)
    assert "1/3" in line and "3/3" in line and "rejected" in line
