"""One decision's whole story, written through the product's own write paths.

A file change observed, a decision to ACT made in a frame with five steps,
recall showing a past decision, a pattern, a template and a heuristic; the
first execution fails (a censor is learned from it), the retry succeeds,
the outcome is learned with a lesson. ``nous why`` must show all of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from graph.models import (
    ActionTarget,
    Censor,
    Decision,
    DecisionStatus,
    DecisionType,
    Execution,
    Lesson,
    Observation,
    ObservationType,
    ReasonerKind,
    ReasoningStep,
    StepName,
    utc_now,
)
from graph.models.paths import path_pattern
from graph.store.decisions import DecisionStore
from graph.store.rows.decide import TemplateUse
from tests.support.recall_seed import Seeder

PATH = "knowledge/notes.md"


@dataclass
class Story:
    """The ids of what the story wrote."""

    decision_id: str
    observation_id: str
    past_id: str
    heuristic_id: str
    first_execution: str
    retry_execution: str
    censor_id: str


async def write_story(seeder: Seeder) -> Story:
    """Write the story for the seeder's agent; return its ids."""
    memory = seeder.memory
    agent = memory.agent_id
    decisions, learning = DecisionStore(memory), memory.learning
    past_id = await seeder.decision(PATH, outcome_success=True, outcome="indexed", minutes=-60)
    [heuristic_id] = await seeder.nodes(
        "heuristics",
        {"domain": "writing", "content": "Index notes by their first heading", "status": "active"},
    )
    observation = Observation(
        agent_id=agent, type=ObservationType.FILE_MODIFIED, path=PATH, size=120
    )
    await memory.record_observations([observation])
    at = utc_now() - timedelta(minutes=5)
    decision = Decision(
        agent_id=agent,
        at=at,
        type=DecisionType.ACT,
        confidence=0.82,
        raw_confidence=0.78,
        reasoning="knowledge note changed; index it",
        reasoner=ReasonerKind.RULES,
        frame="maintenance",
        template="analyze_knowledge",
        template_version=1,
        target=ActionTarget.CLAUDE_CODE,
        prompt="Update the index for knowledge/notes.md",
        category="knowledge",
        observation_type="file_modified",
        path=PATH,
        path_pattern=path_pattern(PATH),
        pattern_key="knowledge:file_modified:act:analyze_knowledge",
        executed=True,
    )
    steps = [
        ReasoningStep(
            agent_id=agent,
            at=at,
            name=name,
            order=i,
            reasoner=ReasonerKind.RULES,
            reasoning=f"step {name.value.lower()} reasoning",
            confidence_delta=0.05 if name is StepName.EVALUATE else 0.0,
        )
        # The five deliberation steps (INVESTIGATE is a re-decision's extra step).
        for i, name in enumerate([s for s in StepName if s is not StepName.INVESTIGATE], start=1)
    ]
    decision_id = await decisions.record_decision(
        decision,
        steps,
        observation_ids=[observation.id],
        recalled_ids=[past_id],
        pattern_key=decision.pattern_key,
        template=TemplateUse("analyze_knowledge", 1, "claude_code"),
        heuristic_ids=[heuristic_id],
    )
    first = Execution(
        agent_id=agent, decision_id=decision_id, attempt=1, target=ActionTarget.CLAUDE_CODE
    )
    await decisions.start_execution(first)
    await decisions.finish_execution(
        first.id,
        success=False,
        return_code=1,
        error="rate limited",
        failure_type="transient",
        verdict="retry",
        duration_s=1.5,
    )
    retry = Execution(
        agent_id=agent,
        decision_id=decision_id,
        attempt=2,
        target=ActionTarget.CLAUDE_CODE,
        retry_of=first.id,
    )
    await decisions.start_execution(retry)
    await decisions.finish_execution(
        retry.id, success=True, return_code=0, verdict="complete", duration_s=2.0
    )
    await decisions.move(
        decision, DecisionStatus.DONE, outcome="index updated", outcome_success=True
    )
    censor = Censor(
        agent_id=agent,
        trigger_pattern="analyze_knowledge on knowledge/*.md",
        reason="rate limited",
        fire_count=1,
    )
    await memory.censors.create_censor(censor, learned_from=first.id)
    lesson = Lesson(
        agent_id=agent,
        decision_id=decision_id,
        type="retry_succeeded",
        adjustment="none",
        reason="succeeded on the second attempt",
    )
    await learning.record_lessons([lesson], execution_id=retry.id)
    return Story(decision_id, observation.id, past_id, heuristic_id, first.id, retry.id, censor.id)
