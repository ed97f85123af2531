"""Steps 6 and 7 of the cycle: practise the chosen desire and store the trajectory (C1, C2).

Code and math are practised by tests (:class:`rsi.practice.TestPractice`),
logic by consistency (:class:`rsi.consistency.ConsistencyPractice`), at the
difficulty the domain's last trajectories call for (T2). Practice carries
the strategies every request carries; the trajectory's outcome credits the
ones its reply applied, by the decision loop's own path
(:meth:`graph.store.learning.LearningStore.credit_heuristics`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cognition.carried import CarriedPrompt
from cognition.cases import CaseBank
from graph.models import CaseSource, Desire, DesireStatus, RSICycle, Trajectory
from rsi.consistency import ConsistencyPractice
from rsi.difficulty import HISTORY, current_level
from rsi.practice import RECENT_PROBLEMS, Recent, TestPractice
from rsi.problems import held_out
from rsi.route import LOGIC

if TYPE_CHECKING:
    from rsi.engine import RSIEngine


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


async def practise(
    engine: RSIEngine, desire: Desire, carried: CarriedPrompt, result: RSICycle
) -> None:
    """Practise once, write the trajectory, credit what it applied, mark the desire."""
    system = carried.text
    llm, store, events = engine.llm, engine.store, engine.events
    assert llm is not None  # the engine practises only with a model
    domain = desire.domain
    level = current_level(await store.recent_trajectories(domain, HISTORY))
    await events.emit(
        "rsi_practice_start", {"desire_id": desire.id, "domain": domain, "difficulty": level}
    )
    trajectory: Trajectory | None
    if domain == LOGIC:
        runs = engine.settings.consistency_runs
        consistency = ConsistencyPractice(llm, runs=runs, system=system, shown=carried.strategy_ids)
        trajectory = await consistency.practise(desire, level)
    else:
        recent = await store.recent_trajectories(None, RECENT_PROBLEMS)
        seen = Recent(
            sources=frozenset(t.problem_source for t in recent if t.problem_source != "generated"),
            fingerprints=frozenset(t.problem_hash for t in recent if t.problem_hash),
            specs=tuple(t.problem[:200] for t in recent if t.problem_source == "generated"),
        )
        practice = TestPractice(
            llm,
            timeout_s=engine.settings.practice_timeout_s,
            root=engine.root,
            system=system,
            shown=carried.strategy_ids,
            held_out=held_out(engine.settings.held_out_problems),
            cases=engine.cases,
        )
        trajectory = await practice.practise(desire, domain, level, seen)
    if trajectory is None:
        await events.emit(
            "rsi_practice_failure",
            {"desire_id": desire.id, "domain": domain, "reason": "no usable problem"},
        )
        result.skipped = "no usable practice problem"
        # Not drawn again by later cycles: a person may re-state it as a new request.
        await store.update_desire(desire.id, status=DesireStatus.UNPRACTISABLE)
        return
    trajectory_id = await store.record_trajectory(trajectory)
    await engine.memory.learning.credit_heuristics(trajectory_id, success=trajectory.success)
    await keep_case(engine.cases, trajectory, trajectory_id)
    result.trajectory_ids.append(trajectory_id)
    result.practised += 1
    result.succeeded += trajectory.success
    await store.update_desire(
        desire.id, status=DesireStatus.PRACTISED, practice_success=trajectory.success
    )
    await events.emit(
        "rsi_practice_success" if trajectory.success else "rsi_practice_failure",
        {
            "desire_id": desire.id,
            "trajectory_id": trajectory_id,
            "domain": domain,
            "problem_source": trajectory.problem_source,
            "partial_score": trajectory.partial_score,
            "applied": trajectory.applied,
        },
    )
