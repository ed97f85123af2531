"""A dry run's attempt is written once, when it has ended: one statement, the whole Execution
and its decision's settlement."""

from __future__ import annotations

from pathlib import Path

import pytest

from cognition.act.action import DRY_RUN_OUTCOME, PlannedAction
from cognition.act.actor import Actor
from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.executors import DryRunExecutor
from cognition.monitor import Monitor
from graph.models import (
    ActionTarget,
    Decision,
    DecisionStatus,
    DecisionType,
    Execution,
    Observation,
    ObservationType,
)
from graph.server.finder import Neo4jEndpoint
from graph.settings import BudgetSettings
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory
from tests.conftest import graph_driver
from tests.support.graph_checks import open_checks


async def test_a_dry_run_attempt_is_one_write_with_its_end(
    memory: Memory, tmp_path: Path, neo4j_endpoint: Neo4jEndpoint
) -> None:
    decisions = DecisionStore(memory)
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.9)
    decision.status = DecisionStatus.DECIDED
    await decisions.record_decision(decision, [], observation_ids=[])
    executors = {ActionTarget.CLAUDE_CODE: DryRunExecutor()}
    budget = ActionBudget(BudgetSettings(actions_per_hour=5))
    actor = Actor(decisions, executors, budget, ActiveExecutions(), tmp_path, Monitor())
    before = memory.driver.statements
    outcome = await actor.act(
        decision, PlannedAction(target=ActionTarget.CLAUDE_CODE, prompt="tidy the index")
    )
    assert outcome.success and outcome.dry_run and outcome.execution_id is not None
    assert memory.driver.statements - before == 1
    async with open_checks(neo4j_endpoint, memory.agent_id) as checks:
        execution = await checks.node(outcome.execution_id)
        links = await checks.outgoing(decision.id)
        stored = await checks.node(decision.id)
    assert execution is not None and stored is not None
    assert execution["dry_run"] is True and execution["success"] is True
    assert execution["verdict"] == "complete" and execution["ended_at"] is not None
    assert "dry run, nothing executed" in execution["output_excerpt"]
    assert ("EXECUTED_AS", "Execution", outcome.execution_id) in links
    # The same write settles the decision: settle_outcome has nothing left to write.
    assert outcome.settled and decision.status is DecisionStatus.DONE
    assert stored["executed"] is True and stored["status"] == DecisionStatus.DONE.value
    assert stored["outcome"] == DRY_RUN_OUTCOME and stored["outcome_at"] is not None
    assert "outcome_success" not in stored


async def test_a_dry_run_claims_no_change_as_its_own(memory: Memory, tmp_path: Path) -> None:
    decisions = DecisionStore(memory)
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.9)
    await decisions.record_decision(decision, [], observation_ids=[])
    attribution = ActiveExecutions(grace_s=60.0)
    budget = ActionBudget(BudgetSettings(actions_per_hour=5))
    executors = {ActionTarget.CLAUDE_CODE: DryRunExecutor()}
    actor = Actor(decisions, executors, budget, attribution, tmp_path, Monitor())
    action = PlannedAction(
        target=ActionTarget.CLAUDE_CODE, prompt="run the tests", working_set=("**",)
    )
    outcome = await actor.act(decision, action)
    assert outcome.dry_run
    # A person's edit right after the dry run (within the grace period) is a person's edit.
    edit = Observation(agent_id=memory.agent_id, type=ObservationType.FILE_MODIFIED, path="a.py")
    assert attribution.attribute(edit).caused_by is None


async def test_a_dry_run_whose_write_fails_keeps_its_decision_as_it_was(
    memory: Memory, neo4j_endpoint: Neo4jEndpoint
) -> None:
    decision = Decision(agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.9)
    decision.status = DecisionStatus.DECIDED
    await DecisionStore(memory).record_decision(decision, [], observation_ids=[])
    gone = graph_driver(neo4j_endpoint)
    await gone.start()
    await gone.close()  # every write through it fails
    execution = Execution(
        agent_id=memory.agent_id,
        decision_id=decision.id,
        target=ActionTarget.CLAUDE_CODE,
        dry_run=True,
    )
    with pytest.raises(Exception):  # noqa: B017 - whatever the closed driver raises
        await DecisionStore(Memory(gone, memory.agent_id)).record_dry_run(execution, decision)
    # Not taken for settled: the loop defers it (acting or decided -> waiting) and retries.
    assert decision.status is DecisionStatus.DECIDED
