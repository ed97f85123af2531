"""Deliberate: the five reasoning steps from a decision context to a decision (seed 000 Part II).

OBSERVE, CATEGORIZE, MATCH_PATTERN, EVALUATE and DECIDE, each recorded as a
``ReasoningStep``; the confidence is 0.5 plus the steps' deltas, blended with
the history of the pattern it would act on, then put through the thresholds
(ACT, INVESTIGATE, WAIT, ESCALATE). :class:`LLMReasoner` asks a model for
each step, :class:`RulesReasoner` follows a fixed rule table without I/O, and
:class:`AutoReasoner` picks between them by ``Settings.reasoner``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from cognition.lazy import lazy_attribute

if TYPE_CHECKING:
    from cognition.deliberate.auto import AutoReasoner, ReasonerMode
    from cognition.deliberate.confidence import (
        Conclusion,
        adjust_confidence,
        clamp_delta,
        conclude,
        decision_type,
    )
    from cognition.deliberate.llm_reasoner import LLMReasoner
    from cognition.deliberate.rules_reasoner import RulesReasoner
    from cognition.schemas import DecisionContext, Deliberation, RenderedContext
    from graph.models import ReasonerKind
    from graph.models.learn import pattern_key

# Loaded when first asked for (PEP 562): a process that needs one constant of this package
# (a Claude Code hook: the learner's MIN_PATTERN_SAMPLES) must not load the LLM client.
_HOMES = {
    "AutoReasoner": "cognition.deliberate.auto",
    "ReasonerMode": "cognition.deliberate.auto",
    "Conclusion": "cognition.deliberate.confidence",
    "adjust_confidence": "cognition.deliberate.confidence",
    "clamp_delta": "cognition.deliberate.confidence",
    "conclude": "cognition.deliberate.confidence",
    "decision_type": "cognition.deliberate.confidence",
    "LLMReasoner": "cognition.deliberate.llm_reasoner",
    "RulesReasoner": "cognition.deliberate.rules_reasoner",
    "pattern_key": "graph.models.learn",
}


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, _HOMES, name)


class Reasoner(Protocol):
    """Anything that turns a decision context into a deliberation."""

    kind: ReasonerKind

    async def deliberate(self, context: DecisionContext, rendered: RenderedContext) -> Deliberation:
        """Reason about ``context``; ``rendered.text`` is the budgeted prompt context."""
        ...


__all__ = [
    "AutoReasoner",
    "Conclusion",
    "LLMReasoner",
    "Reasoner",
    "ReasonerMode",
    "RulesReasoner",
    "adjust_confidence",
    "clamp_delta",
    "conclude",
    "decision_type",
    "pattern_key",
]
