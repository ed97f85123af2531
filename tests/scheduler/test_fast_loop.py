"""Issue 28, "as fast as it was, and faster": a dry-run ACT written in one statement with its
decision, and a tick deciding several files at once (``schedule.decision_concurrency``).

Same rig as ``test_loop``: the scheduler's own ``build_loop`` on a temporary root, real Neo4j,
the rules reasoner, dry-run executors.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cognition.act.action import DRY_RUN_OUTCOME
from cognition.deliberate import Reasoner
from cognition.loop import DecisionLoop, TickReport
from cognition.schemas import DecisionContext, Deliberation, RenderedContext
from graph.models import (
    Decision,
    DecisionStatus,
    DecisionType,
    Observation,
    OpenDecision,
    ReasonerKind,
)
from graph.server.finder import Neo4jEndpoint
from graph.store.memory import Memory
from tests.scheduler.test_loop import _rig
from tests.support.graph_checks import open_checks

DRY = {"executors.dry_run": True, "budget.actions_per_hour": 1000}


def _count_decides(loop: DecisionLoop, in_flight: list[int], paths: list[str]) -> None:
    """Record, on every decision's start, how many decisions are in flight then."""
    decide = loop.decide
    now = [0]

    async def counted(
        batch: list[Observation],
        report: TickReport | None = None,
        *,
        chain: Sequence[OpenDecision] = (),
    ) -> Decision:
        now[0] += 1
        in_flight.append(now[0])
        paths.append(batch[0].path or "")
        try:
            await asyncio.sleep(0.02)  # long enough for every free worker to start its own
            return await decide(batch, report, chain=chain)
        finally:
            now[0] -= 1

    loop.decide = counted  # type: ignore[method-assign]


async def test_a_dry_run_act_is_written_with_its_decision_in_one_statement(
    tmp_path: Path, memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    async for rig in _rig(tmp_path, memory, **DRY):
        for name in ("first", "note"):
            (rig.root / "_intake" / f"{name}.md").write_text(f"{name}\n")
        await rig.observe()
        loop = rig.runtime.loop
        first = await loop.decisions.unprocessed_observations(10)
        batch = [o for o in first if o.path == "_intake/note.md"]
        await loop.decide([o for o in first if o.path == "_intake/first.md"])  # frames read once
        report = TickReport()
        before = memory.driver.statements
        decision = await loop.decide(batch, report)
        # recall, then the decision with its execution and settlement: nothing else, no task.
        assert memory.driver.statements - before == 2
        assert len(loop.actions) == 0
        assert decision.type is DecisionType.ACT and decision.status is DecisionStatus.DONE
        [outcome] = report.outcomes
        assert outcome.success and outcome.dry_run and outcome.settled
        assert outcome.execution_id is not None
        async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
            node = await checks.node(decision.id)
            run = await checks.node(outcome.execution_id)
            links = await checks.outgoing(decision.id)
        assert node is not None and run is not None
        assert ("EXECUTED_AS", "Execution", outcome.execution_id) in links
        assert node["status"] == "done" and node["executed"] is True
        assert node["outcome"] == DRY_RUN_OUTCOME and "outcome_success" not in node
        assert run["dry_run"] is True and run["success"] is True and run["attempt"] == 1
        assert run["verdict"] == "complete" and run["ended_at"] == node["outcome_at"]
        assert "dry run, nothing executed" in run["output_excerpt"]
        # Nothing is learned from it, as before.
        pattern = await memory.learning.pattern(decision.pattern_key or "")
        assert pattern is None or pattern.total == 0


async def test_a_dry_run_over_the_budget_is_deferred_as_before(
    tmp_path: Path, memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    async for rig in _rig(tmp_path, memory, **{**DRY, "budget.actions_per_hour": 1}):
        for name in ("a", "b"):
            (rig.root / "_intake" / f"{name}.md").write_text(f"note {name}\n")
        await rig.observe()
        report = await rig.tick_and_act()
        acts = [d for d in report.decisions if d.type is DecisionType.ACT]
        assert len(acts) == 2
        statuses = sorted(d.status.value for d in acts)
        assert statuses == ["done", "waiting"]
        [waiting] = [d for d in acts if d.status is DecisionStatus.WAITING]
        async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
            node = await checks.node(waiting.id)
            links = await checks.outgoing(waiting.id)
        assert node is not None
        assert node["outcome"].startswith("deferred: hourly budget spent")
        assert not [link for link in links if link[0] == "EXECUTED_AS"]


async def test_a_tick_decides_up_to_decision_concurrency_files_at_once(
    tmp_path: Path, memory: Memory
) -> None:
    async for rig in _rig(tmp_path, memory, **DRY, **{"schedule.decision_concurrency": 3}):
        (rig.root / "config").mkdir()
        for n in range(7):
            (rig.root / "_intake" / f"n{n}.md").write_text(f"note {n}\n")
            (rig.root / "config" / f"c{n}.yaml").write_text(f"level: {n}\n")
        await rig.observe()
        in_flight: list[int] = []
        started: list[str] = []
        _count_decides(rig.runtime.loop, in_flight, started)
        report = await rig.tick_and_act()
        assert max(in_flight) == 3
        # Every file once, in the order the tick chose (report order = start order).
        assert len(report.decisions) == 14 == len(set(started))
        assert [d.path for d in report.decisions] == started
        left = await rig.runtime.loop.decisions.unprocessed_observations(50)
        assert left == []


async def test_one_file_at_a_time_when_decision_concurrency_is_one(
    tmp_path: Path, memory: Memory
) -> None:
    async for rig in _rig(tmp_path, memory, **DRY, **{"schedule.decision_concurrency": 1}):
        for n in range(4):
            (rig.root / "_intake" / f"n{n}.md").write_text(f"note {n}\n")
        await rig.observe()
        in_flight: list[int] = []
        _count_decides(rig.runtime.loop, in_flight, [])
        report = await rig.tick_and_act()
        assert len(report.decisions) == 4 and max(in_flight) == 1


class _Handed:
    """The loop's own reasoner, noting the rendered context each deliberation is handed."""

    def __init__(self, reasoner: Reasoner) -> None:
        self.reasoner, self.kind, self.texts = reasoner, reasoner.kind, list[str]()

    async def deliberate(self, context: DecisionContext, rendered: RenderedContext) -> Deliberation:
        self.texts.append(rendered.text)
        return await self.reasoner.deliberate(context, rendered)


async def test_the_rules_reasoner_is_handed_no_rendered_prompt(
    tmp_path: Path, memory: Memory
) -> None:
    async for rig in _rig(tmp_path, memory, **DRY):
        (rig.root / "_intake" / "note.md").write_text("a note\n")
        await rig.observe()
        loop = rig.runtime.loop
        assert loop.reasoner.kind is ReasonerKind.RULES
        handed = _Handed(loop.reasoner)
        loop.reasoner = handed
        report = await rig.tick_and_act()
        # Rendering is a model's prompt; the rules never read it, so it is not made.
        assert [d.type for d in report.decisions] == [DecisionType.ACT]
        assert handed.texts == [""]


async def test_files_are_decided_one_at_a_time_when_a_model_may_reason(
    tmp_path: Path, memory: Memory
) -> None:
    async for rig in _rig(tmp_path, memory, **DRY, **{"schedule.decision_concurrency": 4}):
        for n in range(4):
            (rig.root / "_intake" / f"n{n}.md").write_text(f"note {n}\n")
        await rig.observe()
        loop = rig.runtime.loop
        handed = _Handed(loop.reasoner)
        handed.kind = ReasonerKind.LLM  # the loop sees a reasoner that may ask a model
        loop.reasoner = handed
        in_flight: list[int] = []
        _count_decides(loop, in_flight, [])
        report = await rig.tick_and_act()
        # The model answers one request at a time: the files take turns, as before.
        assert len(report.decisions) == 4 and max(in_flight) == 1
        assert all(text for text in handed.texts)  # a model's reasoner gets its prompt


async def test_a_dry_run_that_raises_goes_the_usual_way_and_is_decided_once(
    tmp_path: Path, memory: Memory
) -> None:
    # Unwritten, a decision whose dry run raised would be taken again at every tick, each
    # time with a budget ticket, until the hour's budget was gone: it is written and the
    # action goes the usual way (act records the failure and retries it) instead.
    async for rig in _rig(tmp_path, memory, **DRY):
        (rig.root / "_intake" / "note.md").write_text("note\n")
        await rig.observe()
        actor = rig.runtime.loop.actor
        [(target, executor)] = [
            (name, e) for name, e in actor.executors.items() if name == "claude_code"
        ]
        raised: list[str] = []
        executor.execute = _breaking_once(executor.execute, raised)  # type: ignore[method-assign]
        report = await rig.tick_and_act()
        [decision] = [d for d in report.decisions if d.type is DecisionType.ACT]
        again = await rig.runtime.loop.tick()
        assert raised == [target] and target == "claude_code"
        assert not [d for d in again.decisions if d.id != decision.id and d.path == decision.path]
        assert actor.budget._used() <= 2  # the failed dry run's ticket, then act's


def _breaking_once(real: Any, raised: list[str]) -> Any:
    """``real`` (an executor's ``execute``), raising the first time it is called."""

    async def execute(request: Any) -> Any:
        if not raised:
            raised.append("claude_code")
            raise RuntimeError("the dry executor broke")
        return await real(request)

    return execute
