"""The rules reasoner: the five steps by the rule table (:mod:`cognition.deliberate.rule_table`).

Deterministic and without I/O: the same context always gives the same
deliberation (ids, times and latencies aside).
"""

from __future__ import annotations

from cognition.deliberate.replies import build_deliberation
from cognition.deliberate.sequence import RulesStep, deliberate_in_steps
from cognition.schemas import DecisionContext, Deliberation, RenderedContext
from graph.models import ReasonerKind
from graph.settings import ThresholdSettings


class RulesReasoner:
    """Deliberates by the rule table; no I/O."""

    kind: ReasonerKind = ReasonerKind.RULES

    def __init__(self, thresholds: ThresholdSettings) -> None:
        """Keep the thresholds that turn confidence into a decision type."""
        self._thresholds = thresholds

    async def deliberate(self, context: DecisionContext, rendered: RenderedContext) -> Deliberation:
        """Deliberate on ``context``; the rendered text is for models and is not read."""
        trace, verdict = await deliberate_in_steps(context, self._thresholds, RulesStep())
        return build_deliberation(context, trace, verdict)
