"""A chat turn's decision (seed 004's D8): opened before the model acts, closed by its outcome.

:class:`cognition.chat.layer.CognitiveLayer` opens one for a turn whose frame
deliberates (:data:`DELIBERATE_FRAMES`), with the plan's confidence, and
closes it once the turn is assessed, with the outcome's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cognition.monitor import Assessment, EpisodeOutcome
from cognition.text import plain_text
from graph.models import Decision, DecisionStatus, DecisionType, ReasonerKind, utc_now
from graph.models.learn import pattern_key
from graph.store.rows.learning import TurnDecision

if TYPE_CHECKING:
    from cognition.chat.turns import TurnResult
    from graph.models.frame import FrameSpec
    from graph.store.memory import Memory

# Seed 004's D8: these frames open a decision before the model acts.
DELIBERATE_FRAMES = frozenset({"decision", "task", "debug"})
PLAN_CONFIDENCE = 0.5
# Seed 004's finalize: 0.8 without errors, 0.5 with tool errors, 0.3 when the turn failed.
FINAL_CONFIDENCE = {
    EpisodeOutcome.SUCCESS: 0.8,
    EpisodeOutcome.PARTIAL: 0.5,
    EpisodeOutcome.FAILURE: 0.3,
}
TEXT_CHARS = 200


def chat_pattern_key(frame: FrameSpec) -> str:
    """Seed 000's ``category:type:decision:template`` for a chat turn in ``frame``."""
    return pattern_key(
        frame.default_category or "process", "user_input", "act", f"chat_{frame.name}"
    )


async def open_decision(
    memory: Memory, session_id: str, user_input: str, frame: FrameSpec, episode_id: str | None
) -> str:
    """The id of the decision opened (deliberating) for a turn on ``user_input`` in ``frame``."""
    plan = f"Plan: {plain_text(user_input, TEXT_CHARS)}"
    decision = Decision(
        agent_id=memory.agent_id,
        type=DecisionType.ACT,
        confidence=PLAN_CONFIDENCE,
        reasoning=plan,
        reasoner=ReasonerKind.RULES,
        frame=frame.name,
        category=frame.default_category or "process",
        observation_type="user_input",
        pattern_key=chat_pattern_key(frame),
        status=DecisionStatus.DELIBERATING,
    )
    turn = TurnDecision(session_id, frame.default_stakes or "low", (frame.name,))
    return await memory.learning.start_deliberation(
        decision, description=plan, episode_id=episode_id, turn=turn
    )


async def close_decision(
    memory: Memory, decision_id: str, assessment: Assessment, result: TurnResult
) -> None:
    """Close a turn's deliberating decision: done (or failed) with the outcome's confidence."""
    success = assessment.outcome is EpisodeOutcome.SUCCESS
    failed = assessment.outcome is EpisodeOutcome.FAILURE
    await memory.decisions.close_turn(
        decision_id,
        DecisionStatus.FAILED if failed else DecisionStatus.DONE,
        description=plain_text(result.response_text, TEXT_CHARS),
        confidence=FINAL_CONFIDENCE[assessment.outcome],
        outcome=assessment.outcome.value,
        outcome_success=success,
        outcome_at=utc_now(),
    )
