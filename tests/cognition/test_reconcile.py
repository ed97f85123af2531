"""Reconciliation at start against the real Neo4j: interrupted executions, episodes, budget."""

from __future__ import annotations

import copy
from datetime import timedelta
from pathlib import Path
from typing import Any

import yaml

from cognition.act.actor import Actor
from cognition.act.attribution import ActiveExecutions
from cognition.act.budget import ActionBudget
from cognition.act.templates import load_templates
from cognition.learn.learner import CensorBook, OutcomeLearner
from cognition.monitor import Monitor
from cognition.reconcile import LoopParts, Reconciler
from graph.models import ActionTarget, Decision, DecisionType, Execution, ReasoningStep
from graph.settings import BudgetSettings
from graph.store.decisions import DecisionStore
from graph.store.memory import Memory

SHIPPED = Path(__file__).resolve().parents[2] / "cognition" / "act" / "templates.yaml"


def _templates(tmp_path: Path, *, repeatable: bool) -> Path:
    data: dict[str, Any] = copy.deepcopy(yaml.safe_load(SHIPPED.read_text(encoding="utf-8")))
    data["templates"]["process_intake"]["repeatable"] = repeatable
    path = tmp_path / "templates.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


async def _interrupted_action(memory: Memory, decisions: DecisionStore) -> tuple[str, str]:
    decision = Decision(
        agent_id=memory.agent_id,
        type=DecisionType.ACT,
        confidence=0.9,
        template="process_intake",
        target=ActionTarget.CLAUDE_CODE,
        prompt="file the note",
        path="_intake/a.md",
        status="decided",
    )
    await decisions.record_decision(decision, list[ReasoningStep](), observation_ids=[])
    execution = Execution(
        agent_id=memory.agent_id,
        decision_id=decision.id,
        target=ActionTarget.CLAUDE_CODE,
        template="process_intake",
        prompt="file the note",
    )
    await decisions.start_execution(execution)
    return decision.id, execution.id


def _reconciler(
    memory: Memory, tmp_path: Path, *, repeatable: bool, session: str
) -> tuple[Reconciler, ActionBudget]:
    decisions = DecisionStore(memory)
    budget = ActionBudget(BudgetSettings(actions_per_hour=5))
    actor = Actor(decisions, {}, budget, ActiveExecutions(grace_s=1.0), tmp_path, Monitor())
    parts = LoopParts(
        memory=memory,
        actor=actor,
        templates=load_templates(_templates(tmp_path, repeatable=repeatable)),
        learner=OutcomeLearner(memory),
        censors=CensorBook(memory.censors),
        retry_after=timedelta(seconds=60),
    )
    reconciler = Reconciler(memory, budget, parts, session_id=session)
    return reconciler, budget


async def test_a_template_that_is_not_repeatable_is_escalated(
    memory: Memory, tmp_path: Path
) -> None:
    decisions = DecisionStore(memory)
    decision_id, execution_id = await _interrupted_action(memory, decisions)
    # An earlier daemon run whose episode was never ended, and a chat session's episode.
    await memory.events.emit("daemon_started", {}, session_id="old-run")
    old_episode = (await memory.episodes.start_episode("old-run"))[0].id
    chat_episode = (await memory.episodes.start_episode("chat-session"))[0].id
    await memory.events.emit("daemon_started", {}, session_id="this-run")
    await memory.episodes.start_episode("this-run")

    reconciler, budget = _reconciler(memory, tmp_path, repeatable=False, session="this-run")
    result = await reconciler.reconcile()

    assert (result.interrupted, result.escalated, result.retries) == (1, 1, [])
    assert result.episodes_ended == 1 and result.actions_last_hour == 1
    assert budget.snapshot().used_last_hour == 1
    [row] = await memory.read("audit/executions_for_decision", decision_id=decision_id)
    assert (row["id"], row["failure_type"], row["verdict"]) == (
        execution_id,
        "interrupted",
        "escalate",
    )
    [escalation] = await memory.read("audit/escalations_for_decision", decision_id=decision_id)
    assert "not repeatable" in str(escalation)
    ended = await memory.episodes.episode(old_episode)
    assert ended is not None and ended.outcome == "interrupted"
    chat = await memory.episodes.episode(chat_episode)
    assert chat is not None and chat.ended_at is None
    # Nothing is left to reconcile a second time.
    again = await reconciler.reconcile()
    assert (again.interrupted, again.episodes_ended) == (0, 0)


async def test_a_repeatable_template_with_attempts_left_is_retried(
    memory: Memory, tmp_path: Path
) -> None:
    decisions = DecisionStore(memory)
    _, execution_id = await _interrupted_action(memory, decisions)
    reconciler, _ = _reconciler(memory, tmp_path, repeatable=True, session="this-run")
    result = await reconciler.reconcile()
    assert (result.interrupted, result.escalated) == (1, 0)
    [(decision, planned, attempt, retry_of)] = result.retries
    assert (attempt, retry_of, planned.prompt) == (2, execution_id, "file the note")
    assert decision.template == "process_intake"
