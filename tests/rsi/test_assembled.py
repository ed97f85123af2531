"""Self-improvement as the daemon assembles it (:mod:`scheduler.compose`)."""

from __future__ import annotations

import json
from pathlib import Path

from cognition.llm import LLMClient
from graph.server.finder import Neo4jEndpoint
from graph.settings import RSISettings
from graph.store.memory import Memory
from scheduler.improvement import build_self_improvement
from tests.rsi.conftest import ModelScript, seed_failures
from tests.rsi.test_engine import SPECIFIC
from tests.support.graph_checks import GraphChecks
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply
from tests.support.recall_seed import seeding

PRINCIPLE = "Write the edge cases of the specification as tests before writing the solution."


async def test_a_cycle_that_reaches_the_threshold_crystallizes_and_the_next_carries_it(
    memory: Memory,
    llm: LLMClient,
    stub: LLMStub,
    checks: GraphChecks,
    neo4j_endpoint: Neo4jEndpoint,
    tmp_path: Path,
) -> None:
    seen = await seed_failures(memory)
    async with seeding(neo4j_endpoint, memory) as seed:
        earlier = await seed.nodes(
            "trajectories",
            *({"domain": "code", "problem": f"p{n}", "success": True} for n in range(4)),
        )
    cited = seen.failed_execution_ids[:2]
    script = ModelScript(desires=[{"description": SPECIFIC, "intensity": 0.9, "sources": cited}])

    def answer(request: RecordedRequest) -> Reply:
        if request.step == "rsi_crystallize":
            return Reply.json({"principle": PRINCIPLE})
        if request.step == "rsi_actionable":
            return Reply.json({"answer": "YES"})
        if request.step == "rsi.trial" and PRINCIPLE not in request.messages[0]["content"]:
            return Reply.text("```python\ndef nothing():\n    pass\n```")  # fails without it
        return script(request)

    stub.default = answer
    root = tmp_path / "watched"
    root.mkdir()
    parts = await build_self_improvement(
        RSISettings(practice_timeout_s=30, trial_problems=2),
        memory,
        llm,
        root,
        chat_model="test-model",
    )
    first = await parts.engine.run_cycle(seed=7)

    # The fifth successful trajectory of "code" is this cycle's practice: it crystallizes.
    assert first.error is None, first.error
    assert (first.practiced, first.succeeded, first.domain) == (1, 1, "code")
    assert first.crystallized == 1
    # Its trial (the stub solves with and without it alike) found it not worse: active.
    assert (first.trials, first.activated, first.rejected_heuristics) == (1, 1, 0)
    [row] = await checks.memory.read("checks/heuristics")
    assert row["heuristic"]["content"] == PRINCIPLE
    assert row["heuristic"]["status"] == "active"
    assert row["produced_by"] == [first.id]
    linked = await checks.memory.read("checks/distilled_from", id=row["heuristic"]["id"])
    assert sorted(r["id"] for r in linked) == sorted([*earlier, *first.trajectory_ids])
    # The cycle's own record is whole although crystallization linked to it first.
    [cycle] = await memory.read("rsi/report_cycles", limit=5)
    assert cycle["cycle"]["id"] == first.id and cycle["cycle"]["crystallized"] == 1
    assert cycle["cycle"]["practiced"] == 1
    # The cycle's node is stamped with its start, so its window holds what it produced.
    assert cycle["cycle"]["at"] < row["heuristic"]["at"]
    # Every request carried the constitution first; the strategies files list the new one.
    assert all("# Constitution" in r.messages[0]["content"] for r in stub.chat_requests)
    written = json.loads((root / ".nous" / "strategies.json").read_text())
    assert [h["content"] for h in written["heuristics"]] == [PRINCIPLE]

    stub.reset()
    await parts.engine.run_cycle(seed=8)
    reflect = next(r for r in stub.chat_requests if r.step == "rsi.reflect")
    assert PRINCIPLE in reflect.messages[0]["content"]
