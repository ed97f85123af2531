"""Handing a decision to a person: the ``Escalation`` node, and a WARNING that says where to look.

Every escalation goes through :func:`escalate`, whether an action ran out of
retries or Nous never acted (low confidence, an investigation that settled
nothing, a censor); each is logged at WARNING with the command that shows
its message.
"""

from __future__ import annotations

import logging

from graph.models import Decision, Escalation
from graph.store.decisions import DecisionStore

log = logging.getLogger(__name__)


def show_command(agent_id: str, decision_id: str) -> str:
    """The shell command that prints a decision's escalations (ids as parameters, never spliced)."""
    return (
        f"cypher-shell -P \"agent_id => '{agent_id}'\" -P \"decision_id => '{decision_id}'\""
        " -f cypher/audit/escalations_for_decision.cypher"
    )


async def escalate(
    decisions: DecisionStore,
    decision: Decision,
    *,
    reason: str,
    message: str,
    priority: str | None = None,
) -> str:
    """Record the escalation (the decision's status becomes escalated) and log it.

    An escalation already open for the same template on the same path, for the same reason
    (a censor's block met again at the file's next change), takes the decision as a repeat
    instead: one open escalation a person reads, not one per change.
    """
    repeated = await decisions.repeat_escalation(decision, reason)
    if repeated is not None:
        return repeated
    escalation_id = await decisions.record_escalation(
        Escalation(
            agent_id=decision.agent_id,
            decision_id=decision.id,
            reason=reason,
            priority=priority or ("high" if decision.is_critical else "medium"),
            message=message,
        ),
        decision,
    )
    log.warning(
        "escalated decision %s on %s: %s; see it with: %s",
        decision.id,
        decision.path or "no path",
        reason,
        show_command(decision.agent_id, decision.id),
    )
    return escalation_id
