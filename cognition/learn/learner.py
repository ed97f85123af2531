"""Learn: what an outcome teaches (seed 000 section 5.2), and censors.

``OutcomeLearner`` counts an outcome in its pattern's statistics, stores the
calibration data on the decision and writes seed 000's lessons.
``CensorBook`` turns lasting failures into censors: ``warn`` the first time,
``block`` when the same thing goes wrong again. Episodes are the store's
(:class:`graph.store.episodes.EpisodeStore`, ``memory.episodes``).
"""

from __future__ import annotations

import logging

from cognition.deliberate.confidence import MIN_PATTERN_SAMPLES
from cognition.monitor import Assessment, FailureType
from cognition.text import plain_text
from graph.models import Censor, Decision, Lesson, Pattern, utc_now
from graph.models.learn import path_pattern_key
from graph.store.censors import CensorStore
from graph.store.memory import Memory

log = logging.getLogger(__name__)

# Seed 000's thresholds: success below LOW or failure above HIGH means the
# confidence was wrong.
LOW_CONFIDENCE = 0.5
HIGH_CONFIDENCE = 0.8
_REASON_CHARS = 300
# A failure on a kind of path where the action succeeds at least this often
# is an exception there, not a wall: its censor warns but does not block.
WORKS_HERE_RATE = 0.5

# What a failure teaches, by the monitor's failure type: (lesson type,
# adjustment, reason). Timeout and permission are seed 000's; the other three
# are Nous's additions for failures the monitor can name.
FAILURE_LESSONS: dict[str, tuple[str, str, str]] = {
    FailureType.TIMEOUT: ("timeout_failure", "increase_timeout", "Task timed out"),
    FailureType.PERMISSION_ERROR: (
        "permission_failure",
        "check_permissions",
        "Permission/access error",
    ),
    FailureType.FILE_NOT_FOUND: ("missing_file_failure", "verify_paths", "A file was not found"),
    FailureType.DEPENDENCY_ERROR: (
        "dependency_failure",
        "check_dependencies",
        "A module or package was missing",
    ),
    FailureType.SYNTAX_ERROR: ("syntax_failure", "validate_syntax", "The result did not parse"),
}


def _failure_kind(error: str | None, failure_type: str | None) -> str | None:
    if failure_type:
        return failure_type if failure_type in FAILURE_LESSONS else None
    # Without the monitor's classification, seed 000's substring rules.
    text = (error or "").lower()
    if "timeout" in text or "timed out" in text:
        return FailureType.TIMEOUT
    if "permission" in text or "access" in text:
        return FailureType.PERMISSION_ERROR
    return None


def draw_lessons(
    decision: Decision,
    *,
    success: bool,
    error: str | None = None,
    failure_type: str | None = None,
) -> list[Lesson]:
    """Seed 000's lessons from one outcome: a confidence lesson and a failure lesson.

    Seed 000 stops at the first rule that matches; here a failure may teach
    both that the confidence was too high and what kind of failure it was,
    since they are adjusted separately.
    """
    found: list[tuple[str, str, str]] = []
    if success and decision.confidence < LOW_CONFIDENCE:
        found.append(("confidence_too_low", "increase", "Succeeded despite low confidence"))
    if not success and decision.confidence > HIGH_CONFIDENCE:
        cause = plain_text(error or "unknown", _REASON_CHARS)
        found.append(
            ("confidence_too_high", "decrease", f"Failed despite high confidence: {cause}")
        )
    kind = None if success else _failure_kind(error, failure_type)
    if kind is not None:
        found.append(FAILURE_LESSONS[kind])
    return [
        Lesson(
            agent_id=decision.agent_id,
            decision_id=decision.id,
            type=lesson_type,
            pattern_key=decision.pattern_key,
            adjustment=adjustment,
            reason=reason,
        )
        for lesson_type, adjustment, reason in found
    ]


class OutcomeLearner:
    """Learns from what came of a decision: pattern statistics, calibration, lessons.

    ``dry_run`` (the daemon's ``executors.dry_run``) makes every door of the
    learner shut: no outcome, pattern, calibration, lesson or credit is
    written, whichever path (an action, a WAIT closed, an escalation, an
    investigation, a chain) asks. A dry run is recorded, never learned from.
    """

    def __init__(self, memory: Memory, *, dry_run: bool = False) -> None:
        self.learning = memory.learning
        self.events = memory.events
        self.dry_run = dry_run

    async def learn(
        self,
        decision: Decision,
        *,
        success: bool,
        error: str | None = None,
        execution_id: str | None = None,
        failure_type: str | None = None,
    ) -> list[Lesson]:
        """Learn from one outcome, once per decision; return the lessons written.

        A second call for the same decision changes nothing and returns no
        lessons, so a retried job never counts an outcome twice.
        """
        if self.dry_run:
            return []
        first = await self.learning.record_outcome(
            decision.id,
            success=success,
            confidence=decision.confidence,
            execution_id=execution_id,
        )
        if not first:
            log.info("decision %s was learned from before (or is unknown)", decision.id)
            return []
        if decision.pattern_key:
            await self.learning.update_pattern(
                decision.pattern_key, success=success, confidence=decision.confidence
            )
            # And on this kind of path, which the next decision here consults first.
            here = path_pattern_key(decision.pattern_key, decision.path_pattern)
            if here is not None and decision.template is not None:
                await self.learning.update_pattern(
                    here, success=success, confidence=decision.confidence
                )
        lessons = draw_lessons(decision, success=success, error=error, failure_type=failure_type)
        await self.learning.record_lessons(lessons, execution_id=execution_id)
        # The strategies the decision said it applied share its outcome (ACE's counters).
        credited = await self.learning.credit_heuristics(decision.id, success=success)
        await self.events.emit(
            "outcome_learned",
            {
                "decision_id": decision.id,
                "success": success,
                "pattern_key": decision.pattern_key,
                "lessons": [lesson.type for lesson in lessons],
                "heuristics_credited": credited,
            },
        )
        return lessons

    async def count(
        self, decision_id: str, pattern_key: str | None, confidence: float, success: bool
    ) -> bool:
        """Count a decision's outcome in calibration, its pattern and its strategies, once.

        No lessons: seed 000's lessons are about acting. The strategies a WAIT,
        INVESTIGATE or ESCALATE applied share its outcome as an ACT's do.
        """
        if self.dry_run:
            return False
        first = await self.learning.record_outcome(
            decision_id, success=success, confidence=confidence
        )
        if first and pattern_key:
            await self.learning.update_pattern(pattern_key, success=success, confidence=confidence)
        if first:
            await self.learning.credit_heuristics(decision_id, success=success)
        return first

    async def settle_chain(self, decision_id: str, *, success: bool) -> int:
        """Give the WAIT and INVESTIGATE decisions this one superseded its outcome; how many."""
        if self.dry_run:
            return 0
        counted = 0
        for row in await self.learning.superseded_chain(decision_id):
            if await self.count(row.id, row.pattern_key, row.confidence, success):
                counted += 1
        return counted


def censor_worthy(assessment: Assessment) -> list[str]:
    """The censor triggers an assessed turn teaches: one per non-transient tool error.

    Seed 004 contradicts itself: its monitor creates censors only when the
    surprise is above 0.7, while its layer tests expect a tool error (surprise
    0.3) to create one. A person whose agent hit "Permission denied" expects
    it not to walk into the same wall on the next turn, so every
    non-transient tool error becomes a censor; the caution of seed 004's D4
    is kept by leaving transient errors out, starting at ``warn``, and
    blocking only when the same error happens again.
    """
    return list(assessment.censor_candidates)


def works_here(record: Pattern | None) -> bool:
    """Whether a record of outcomes says the action mostly works: at least
    ``MIN_PATTERN_SAMPLES`` outcomes, at least half of them successes."""
    if record is None or record.total < MIN_PATTERN_SAMPLES:
        return False
    return record.successes / record.total >= WORKS_HERE_RATE


class CensorBook:
    """Censors learned from failures: created at warn, fired (then block) on a repeat."""

    def __init__(self, store: CensorStore) -> None:
        self.store = store

    async def record_failure(
        self,
        trigger: str,
        *,
        reason: str,
        execution_id: str | None = None,
        episode_id: str | None = None,
        works_here: bool = False,
        call_key: str | None = None,
    ) -> Censor:
        """File a censor for a lasting failure, or fire the active one with the same trigger.

        A new censor starts at its first firing (``fire_count`` 1, ``warn``),
        ``LEARNED_FROM`` the execution (or else the episode) it came from.
        ``works_here`` (the action's record on this kind of path is mostly
        success, :func:`works_here`) keeps a repeat at ``warn``: a template
        that fails one time in ten on a folder must not be blocked there.
        ``call_key`` (a Claude Code tool call's, :mod:`cognition.monitor.calls`)
        is what a repeat is known by instead of the trigger's text.
        """
        if call_key is not None:
            existing = await self.store.censor_by_call(call_key)
        else:
            existing = await self.store.censor_by_trigger(trigger)
        if existing is not None:
            fired = await self.store.fire_censor(existing.id, may_block=not works_here)
            if fired is not None:
                log.info("censor %s fired again: %s", fired.id, fired.severity)
                return fired
        now = utc_now()
        censor = Censor(
            agent_id=self.store.agent_id,
            trigger_pattern=trigger,
            reason=plain_text(reason, _REASON_CHARS) or "a lasting failure",
            fire_count=1,
            last_fired_at=now,
            at=now,
            call_key=call_key,
        )
        await self.store.create_censor(censor, learned_from=execution_id or episode_id)
        return censor

    async def from_assessment(
        self, assessment: Assessment, *, episode_id: str | None = None
    ) -> list[Censor]:
        """Censors for an assessed turn (see :func:`censor_worthy`), learned from its episode."""
        reason = f"a tool call failed this way in a turn (surprise {assessment.surprise_level:.1f})"
        return [
            await self.record_failure(trigger, reason=reason, episode_id=episode_id)
            for trigger in censor_worthy(assessment)
        ]
