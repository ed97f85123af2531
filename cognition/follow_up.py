"""After a decision that does not act: a WAIT's next look, INVESTIGATE's questions, escalation.

``schedule`` sets a WAIT's or an INVESTIGATE's next look on the decision
before it is written (so that needs no second transaction). ``follow`` runs
after it is written: an INVESTIGATE asks its questions
(:mod:`cognition.recall.investigate`) and is due again at once only when
they found something new, else after ``investigate_delay_s``; an
INVESTIGATE past its last round, and every ESCALATE, is handed to a person
with a message that says nothing was attempted, and why. Decisions that end
here are learned from by :func:`cognition.learn.settle.learn_outcome`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from cognition.act.escalate import escalate
from cognition.learn.learner import OutcomeLearner
from cognition.learn.settle import learn_outcome
from cognition.monitor import undecided_message
from cognition.recall.investigate import Investigator
from cognition.schemas import DecisionContext, Deliberation
from graph.models import Decision, DecisionStatus, DecisionType, utc_now
from graph.settings import BudgetSettings, ScheduleSettings, ThresholdSettings
from graph.store.decisions import DecisionStore

log = logging.getLogger(__name__)


@dataclass
class LoopSettings:
    """The sections of the settings the loop reads (every default is theirs).

    ``schedule``: how much one tick takes on, and how WAIT and INVESTIGATE go
    on; ``budget.max_concurrent``: actions running at once, more wait for a
    slot; ``thresholds``: what an escalation message quotes.
    """

    schedule: ScheduleSettings = field(default_factory=ScheduleSettings)
    budget: BudgetSettings = field(default_factory=BudgetSettings)
    thresholds: ThresholdSettings = field(default_factory=ThresholdSettings)


def thresholds_text(t: ThresholdSettings) -> str:
    """The thresholds as a person reads them in an escalation."""
    return (
        f"act at {t.act:.2f} ({t.critical_act:.2f} when critical), investigate at"
        f" {t.investigate:.2f}, wait at {t.escalate:.2f}, escalate below"
    )


class FollowUps:
    """The follow-ups of WAIT, INVESTIGATE and ESCALATE decisions."""

    def __init__(
        self,
        decisions: DecisionStore,
        learner: OutcomeLearner,
        investigator: Investigator,
        settings: LoopSettings,
    ) -> None:
        self.decisions = decisions
        self.learner = learner
        self.investigator = investigator
        self.settings = settings

    def schedule(
        self, decision: Decision, deliberation: Deliberation, round_: int, waited: int
    ) -> None:
        """Set a WAIT's or an INVESTIGATE's status and next look before it is written.

        A WAIT looked at ``max_wait_rounds`` times with nothing new is closed:
        the next change to its file is a new observation, decided afresh. An
        INVESTIGATE past its last round stays ``decided`` and is escalated.
        """
        now = utc_now()
        if decision.type is DecisionType.WAIT:
            if waited >= self.settings.schedule.max_wait_rounds:
                decision.status = DecisionStatus.CLOSED
                return
            wait = timedelta(seconds=deliberation.wait_timeout_s or 300.0)
            decision.status, decision.wait_until = DecisionStatus.WAITING, now + wait
            decision.wait_round = waited
        elif (
            decision.type is DecisionType.INVESTIGATE
            and round_ < self.settings.schedule.max_investigation_rounds
        ):
            delay = timedelta(seconds=self.settings.schedule.investigate_delay_s)
            decision.status, decision.wait_until = DecisionStatus.INVESTIGATING, now + delay
            decision.investigation_round = round_ + 1

    async def follow(
        self, decision: Decision, deliberation: Deliberation, context: DecisionContext, round_: int
    ) -> None:
        """What a written WAIT, INVESTIGATE or ESCALATE decision does next."""
        if decision.type is DecisionType.WAIT:
            if decision.status is DecisionStatus.CLOSED:
                # Nothing new came in all its looks: waiting was the right call.
                await learn_outcome(self.learner, decision, success=True)
            return
        if decision.status is DecisionStatus.INVESTIGATING:
            await self._investigate(decision, context)
            return
        if decision.type is DecisionType.INVESTIGATE:
            reason = f"still uncertain after {round_} rounds of investigation"
        else:
            reason = deliberation.escalation_reason or decision.reasoning
        await self.escalate_undecided(decision, reason)

    async def escalate_undecided(self, decision: Decision, reason: str) -> None:
        """Hand a decision Nous did not act on to a person; it counts as not handled."""
        message = undecided_message(
            f"decide on {decision.path or 'an observation'}",
            reason,
            confidence=decision.confidence,
            thresholds=thresholds_text(self.settings.thresholds),
            decision_id=decision.id,
        )
        await escalate(
            self.decisions,
            decision,
            reason=reason,
            message=message,
            priority=decision.escalation_priority,
        )
        await learn_outcome(self.learner, decision, success=False)

    async def _investigate(self, decision: Decision, context: DecisionContext) -> None:
        findings = await self.investigator.investigate(decision.investigation_questions, context)
        changes = findings.as_properties()
        if findings.new:
            changes["wait_until"] = utc_now()  # something to decide on: look again now
        await self.decisions.settle(decision.id, **changes)
        log.info(
            "investigated decision %s: %d findings, %s",
            decision.id,
            len(findings.lines),
            "something new" if findings.new else "nothing new",
        )
