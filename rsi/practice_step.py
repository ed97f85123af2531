"""Steps 6 and 7 of the cycle: practice the chosen desire and store the trajectory (C1, C2).

Code and math are practiced by tests (:class:`rsi.practice.TestPractice`),
logic by consistency (:class:`rsi.consistency.ConsistencyPractice`), at the
difficulty the domain's last trajectories call for (T2). Practice carries
the strategies every request carries; the trajectory's outcome credits the
ones its reply applied, by the decision loop's own path
(:meth:`graph.store.learning.LearningStore.credit_heuristics`).

The engine hands practice its parts as :class:`PracticeParts`, not itself:
it needs a few of them, and importing the engine back would tie the
two modules in a circle. Practice returns what it did as a
:class:`PracticeReport`, which the engine copies into the cycle's record.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cognition.carried import CarriedPrompt
from cognition.cases import CaseBank
from cognition.llm import LLMClient
from graph.models import CaseSource, Desire, DesireStatus, Trajectory
from graph.settings import RSISettings
from graph.store.events import EventStore
from graph.store.learning import LearningStore
from graph.store.rsi import RSIStore
from rsi.consistency import ConsistencyPractice
from rsi.difficulty import HISTORY, current_level
from rsi.practice import RECENT_PROBLEMS, Recent, TestPractice
from rsi.problems import held_out
from rsi.route import LOGIC


@dataclass(frozen=True, slots=True)
class PracticeParts:
    """What practice uses: the model, the stores it reads and writes, settings and places.

    ``store`` holds desires and trajectories, ``learning`` credits the
    heuristics a trajectory applied, ``events`` takes the practice events.
    ``root`` is the watched root (practice folders lie outside it) and
    ``cases`` the agent's case bank, if it has one.
    """

    llm: LLMClient
    store: RSIStore
    events: EventStore
    learning: LearningStore
    settings: RSISettings
    root: Path | None
    cases: CaseBank | None


@dataclass(frozen=True, slots=True)
class PracticeReport:
    """What one practice did, in the cycle's terms.

    ``practiced`` is 1 when a trajectory was written (``trajectory_ids`` holds
    it) and ``succeeded`` 1 when it passed; ``skipped`` says why nothing was
    practiced (no usable problem).
    """

    practiced: int = 0
    succeeded: int = 0
    trajectory_ids: tuple[str, ...] = ()
    skipped: str | None = None


NO_PROBLEM = "no usable practice problem"


async def keep_case(cases: CaseBank | None, trajectory: Trajectory, trajectory_id: str) -> None:
    """Credit the cases the attempt was shown by its outcome; a verified pass becomes a case."""
    if cases is None:
        return
    await cases.credit(trajectory.cases_shown, passed=trajectory.success)
    if trajectory.success:
        await cases.write(
            domain=trajectory.domain,
            source=CaseSource.PRACTICE,
            task=trajectory.problem,
            worked=trajectory.solution,
            failed_attempt=trajectory.failed_attempt,
            error=trajectory.failed_error,
            from_id=trajectory_id,
        )


async def practice(parts: PracticeParts, desire: Desire, carried: CarriedPrompt) -> PracticeReport:
    """Practice once, write the trajectory, credit what it applied, mark the desire."""
    domain = desire.domain
    level = current_level(await parts.store.recent_trajectories(domain, HISTORY))
    await parts.events.emit(
        "rsi_practice_start", {"desire_id": desire.id, "domain": domain, "difficulty": level}
    )
    trajectory = await _attempt(parts, desire, carried, level)
    if trajectory is None:
        await _give_up(parts, desire)
        return PracticeReport(skipped=NO_PROBLEM)
    trajectory_id = await _record(parts, desire, trajectory)
    return PracticeReport(
        practiced=1, succeeded=int(trajectory.success), trajectory_ids=(trajectory_id,)
    )


async def _attempt(
    parts: PracticeParts, desire: Desire, carried: CarriedPrompt, level: str
) -> Trajectory | None:
    """One practice run at ``level``: logic by consistency, code and math by tests."""
    if desire.domain == LOGIC:
        consistency = ConsistencyPractice(
            parts.llm,
            runs=parts.settings.consistency_runs,
            system=carried.text,
            shown=carried.strategy_ids,
        )
        return await consistency.practice(desire, level)
    # Problems practiced lately are not drawn again, whatever their domain.
    recent = await parts.store.recent_trajectories(None, RECENT_PROBLEMS)
    seen = Recent(
        sources=frozenset(t.problem_source for t in recent if t.problem_source != "generated"),
        fingerprints=frozenset(t.problem_hash for t in recent if t.problem_hash),
        specs=tuple(t.problem[:200] for t in recent if t.problem_source == "generated"),
    )
    by_tests = TestPractice(
        parts.llm,
        timeout_s=parts.settings.practice_timeout_s,
        root=parts.root,
        system=carried.text,
        shown=carried.strategy_ids,
        held_out=held_out(parts.settings.held_out_problems),
        cases=parts.cases,
    )
    return await by_tests.practice(desire, desire.domain, level, seen)


async def _give_up(parts: PracticeParts, desire: Desire) -> None:
    """No usable problem: say so, and retire the desire."""
    await parts.events.emit(
        "rsi_practice_failure",
        {"desire_id": desire.id, "domain": desire.domain, "reason": "no usable problem"},
    )
    # Not drawn again by later cycles: a person may re-state it as a new request.
    await parts.store.update_desire(desire.id, status=DesireStatus.UNPRACTICABLE)


async def _record(parts: PracticeParts, desire: Desire, trajectory: Trajectory) -> str:
    """Store the trajectory, credit what it applied and the cases it was shown, mark the desire;
    return the trajectory's id."""
    trajectory_id = await parts.store.record_trajectory(trajectory)
    await parts.learning.credit_heuristics(trajectory_id, success=trajectory.success)
    await keep_case(parts.cases, trajectory, trajectory_id)
    await parts.store.update_desire(
        desire.id, status=DesireStatus.PRACTICED, practice_success=trajectory.success
    )
    await parts.events.emit(
        "rsi_practice_success" if trajectory.success else "rsi_practice_failure",
        {
            "desire_id": desire.id,
            "trajectory_id": trajectory_id,
            "domain": desire.domain,
            "problem_source": trajectory.problem_source,
            "partial_score": trajectory.partial_score,
            "applied": trajectory.applied,
        },
    )
    return trajectory_id
