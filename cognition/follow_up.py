"""After a decision that does not act: a WAIT's next look, INVESTIGATE's questions, escalation.

``opening`` chooses, once, the status a new decision is written in and
its next look (so that needs no second transaction): a WAIT about
something no loaded template could ever act on
(:func:`cognition.act.applicable.applicable_templates`) is settled at once,
closed, with no chain and no timer; any other WAIT waits for its next look;
an INVESTIGATE before its last round investigates. ``follow`` runs after
the decision is written: an INVESTIGATE asks its questions
(:mod:`cognition.recall.investigate`) and is due again at once only when
they found something new, else after ``investigate_delay_s``; an
INVESTIGATE past its last round, and every ESCALATE, is handed to a person
with a message that says nothing was attempted, and why. ``close_unchanged``
ends a WAIT whose look found nothing new, without a new decision. Decisions
that end here are learned from by :func:`cognition.learn.settle.learn_outcome`
(which learns nothing in a dry run).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from cognition.act.applicable import applicable_templates
from cognition.act.escalate import escalate
from cognition.act.templates import TemplateRegistry
from cognition.learn.learner import OutcomeLearner
from cognition.learn.settle import learn_outcome
from cognition.monitor import undecided_message
from cognition.recall.investigate import Investigator
from cognition.schemas import DecisionContext, Deliberation
from graph.models import (
    Decision,
    DecisionStatus,
    DecisionType,
    Observation,
    OpenDecision,
    Urgency,
    utc_now,
)
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


# The outcome of a WAIT settled in one step: nothing could come of waiting.
NOTHING_TO_ACT_ON = "settled: no loaded template could act on this"
# The outcome of a WAIT whose look found nothing new.
NOTHING_NEW = "closed: nothing new when it was looked at again"


class FollowUps:
    """The follow-ups of WAIT, INVESTIGATE and ESCALATE decisions."""

    def __init__(
        self,
        decisions: DecisionStore,
        learner: OutcomeLearner,
        investigator: Investigator,
        settings: LoopSettings,
        templates: TemplateRegistry,
    ) -> None:
        self.decisions = decisions
        self.learner = learner
        self.investigator = investigator
        self.settings = settings
        self.templates = templates

    def could_act(self, batch: list[Observation]) -> bool:
        """Whether any loaded template could act on one of ``batch``, now or later."""
        return any(applicable_templates(o, self.templates) for o in batch)

    def opening(
        self,
        decision_type: DecisionType,
        deliberation: Deliberation,
        round_: int,
        batch: list[Observation],
    ) -> dict[str, object]:
        """The status a new decision is written in, and its next look: chosen here, once.

        A WAIT that no template could ever end by acting is closed at once
        (settled in one step: no chain, no timer). An INVESTIGATE past its
        last round stays ``decided`` and is escalated by :meth:`follow`.
        """
        now = utc_now()
        if decision_type is DecisionType.WAIT:
            if not self.could_act(batch):
                return {
                    "status": DecisionStatus.CLOSED,
                    "outcome": NOTHING_TO_ACT_ON,
                    "outcome_at": now,
                }
            wait = timedelta(seconds=deliberation.wait_timeout_s or 300.0)
            return {"status": DecisionStatus.WAITING, "wait_until": now + wait}
        if (
            decision_type is DecisionType.INVESTIGATE
            and round_ < self.settings.schedule.max_investigation_rounds
        ):
            delay = timedelta(seconds=self.settings.schedule.investigate_delay_s)
            return {
                "status": DecisionStatus.INVESTIGATING,
                "wait_until": now + delay,
                "investigation_round": round_ + 1,
            }
        return {"status": DecisionStatus.DECIDED}

    async def follow(
        self, decision: Decision, deliberation: Deliberation, context: DecisionContext, round_: int
    ) -> None:
        """What a written WAIT, INVESTIGATE or ESCALATE decision does next."""
        if decision.type is DecisionType.WAIT:
            return  # waiting, or settled in one step: nothing to do until its look
        if decision.status is DecisionStatus.INVESTIGATING:
            await self._investigate(decision, context)
            return
        if decision.type is DecisionType.INVESTIGATE:
            reason = f"still uncertain after {round_} rounds of investigation"
        else:
            reason = deliberation.escalation_reason or decision.reasoning
        await self.escalate_undecided(decision, reason)

    async def settle_quietly(self, files: dict[str, list[Observation]]) -> None:
        """Settle, without a new decision, the changes of files nothing can act on.

        A file whose latest decision was settled at once because no loaded
        template could act on it, and whose new changes no template could act
        on either (none critical), gets no decision of its own: its changes are
        CONSIDERED by that decision, so a file nothing can act on costs one
        decision however often it changes. Taken out of ``files``.
        """
        quiet = [
            path
            for path, group in files.items()
            if group[0].path is not None
            and not self.could_act(group)
            and not any(o.urgency is Urgency.CRITICAL for o in group)
        ]
        if not quiet:
            return
        settled = await self.decisions.settled_files(quiet, NOTHING_TO_ACT_ON)
        for path, decision_id in settled.items():
            group = files.pop(path)
            await self.decisions.fold(decision_id, [o.id for o in group])
            log.debug("%d changes to %s settled by decision %s", len(group), path, decision_id)

    async def close_unchanged(self, chain: list[OpenDecision]) -> None:
        """End a WAIT chain whose look found nothing new: closed, no new decision.

        Waiting was the right call; that is learned (never in a dry run).
        Older open decisions on the same file, left by an earlier version
        that opened two chains, are closed with it.
        """
        for open_ in chain:
            decision = open_.decision
            await self.decisions.move(
                decision, DecisionStatus.CLOSED, outcome=NOTHING_NEW, outcome_at=utc_now()
            )
            await learn_outcome(self.learner, decision, success=True)

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
