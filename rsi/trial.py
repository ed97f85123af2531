"""A heuristic earns its place: the paired trial that makes a candidate active or rejected.

Crystallization writes a heuristic as a ``candidate``, which no prompt
carries. A trial solves ``rsi.trial_problems`` practice problems (drawn from
the pool, never the held-out split, reproducibly from the heuristic's id)
twice each, at temperature 0: once with the active strategies alone, once
with the candidate added, each asked for as a fenced code block. The
discordant pairs decide (the exact McNemar test is a sign test on them): the
candidate becomes ``active`` only when it wins at least ``rsi.trial_min_wins``
problems net (with-only minus without-only, default 1); a principle that
changed nothing, or lost, is ``rejected``: only a measured win earns a place
in every prompt. With ``rsi.trial_min_wins`` 0 the older rule holds: kept
unless it loses more than ``rsi.trial_margin`` problems net. A trial with a
client error is inconclusive and changes nothing; the candidate waits for a
later cycle. The figures are a ``HeuristicTrial`` node ``TRIED_IN`` from the
heuristic (``nous heuristics show ID``). Logic has no problem pool, so its
candidates are not trialled.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cognition.cases import CaseBank
from cognition.code_reply import extract_code
from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from graph.models import CaseSource, Heuristic, HeuristicStatus, HeuristicTrial
from graph.settings import RSISettings
from graph.store.events import EventStore
from graph.store.heuristics import HeuristicStore
from rsi import problems
from rsi.heuristic_stage import HeuristicStage
from rsi.prompts import solution_prompt
from rsi.route import CODE, MATH
from rsi.sandbox import run_problem
from rsi.stats import mcnemar_exact
from rsi.strategies import Constitution, carried_prompt

log = logging.getLogger(__name__)

# Domains whose candidates can be trialled: those practiced on the problem pool.
TRIALLED = frozenset({CODE, MATH})
TRIAL_TEMPERATURE = 0.0


@dataclass(frozen=True, slots=True)
class TrialReport:
    """What one cycle's trials did: how many candidates were tried, kept and rejected
    (an ``RSICycle``'s ``trials``, ``activated`` and ``rejected_heuristics``)."""

    trials: int = 0
    activated: int = 0
    rejected: int = 0

    @classmethod
    def of(cls, tried: Sequence[Heuristic]) -> TrialReport:
        """The counts of the heuristics a run tried, with their status after the trial."""
        return cls(
            trials=len(tried),
            activated=sum(h.status == HeuristicStatus.ACTIVE for h in tried),
            rejected=sum(h.status == HeuristicStatus.REJECTED for h in tried),
        )


def verdict(trial: HeuristicTrial) -> tuple[HeuristicStatus | None, str]:
    """The status a trial's figures give its candidate, and the reason in words."""
    n = len(trial.problems)
    figures = (
        f"{sum(trial.with_passed)}/{n} with, {sum(trial.without_passed)}/{n} without; "
        f"with-only {trial.with_only}, without-only {trial.without_only}, "
        f"McNemar p {trial.p_value:.3g}, margin {trial.margin}"
    )
    if trial.errors:
        return None, f"inconclusive: {trial.errors} requests failed; {figures}"
    wins = trial.with_only - trial.without_only
    # trial_min_wins 0 keeps the older rule: "not worse" within the margin.
    if -wins > (trial.margin if trial.min_wins == 0 else 0):
        return HeuristicStatus.REJECTED, f"rejected: worse than without it; {figures}"
    if trial.min_wins and wins < trial.min_wins:
        why = f"rejected: no win ({wins} net, {trial.min_wins} needed): changed nothing; "
        return HeuristicStatus.REJECTED, why + figures
    return HeuristicStatus.ACTIVE, f"kept: {wins} more passed with it; {figures}"


def trial_problems(
    heuristic_id: str, pool: Sequence[problems.Problem], count: int
) -> list[problems.Problem]:
    """The trial's problems: ``count`` of the pool, drawn reproducibly from the heuristic's id."""
    # A reproducible draw, not a secret: the same candidate always meets the same problems.
    rng = random.Random(heuristic_id)  # noqa: S311
    return rng.sample(list(pool), min(count, len(pool)))


class HeuristicTrials(HeuristicStage):
    """Trials the candidates of one agent; the engine calls :meth:`run` at a cycle's end.

    ``on_change`` runs after a candidate became active (the strategy book's
    refresh); ``root`` is the watched root the sandbox stays outside of; a
    trial's verified passes are kept in ``cases`` (source ``trial``).
    """

    def __init__(
        self,
        store: HeuristicStore,
        events: EventStore,
        llm: LLMClient,
        settings: RSISettings,
        *,
        root: Path | None = None,
        constitution: Constitution | None = None,
        on_change: Callable[[], Awaitable[object]] | None = None,
        cases: CaseBank | None = None,
    ) -> None:
        super().__init__(store, events, settings, on_change=on_change)
        self.cases = cases
        self.llm = llm
        self.root = root
        self.constitution = constitution

    async def run(
        self, *, cycle_id: str | None = None, limit: int | None = None
    ) -> list[Heuristic]:
        """Trial the oldest candidates (``rsi.trials_per_cycle`` unless ``limit``); return them
        with their status after the trial."""
        most = self.settings.trials_per_cycle if limit is None else limit
        waiting = await self.store.with_status(HeuristicStatus.CANDIDATE)
        tried: list[Heuristic] = []
        for candidate in [h for h in waiting if h.domain in TRIALLED][:most]:
            tried.append(await self.trial(candidate, cycle_id=cycle_id))
        if any(h.status == HeuristicStatus.ACTIVE for h in tried):
            await self._active_set_changed()
        return tried

    async def trial(self, candidate: Heuristic, *, cycle_id: str | None = None) -> Heuristic:
        """Run one candidate's trial, record it, and return the heuristic as it now stands."""
        active = [h for h in await self.store.active() if h.id != candidate.id]
        pool = problems.practice_pool(problems.held_out(self.settings.held_out_problems))
        chosen = trial_problems(candidate.id, pool, self.settings.trial_problems)
        tokens = self.settings.max_strategy_tokens
        without = carried_prompt(active, tokens, self.constitution).text
        with_it = carried_prompt([*active, candidate], tokens, self.constitution).text
        trial = HeuristicTrial(
            agent_id=self.store.agent_id,
            heuristic_id=candidate.id,
            domain=candidate.domain,
            problems=[p.source for p in chosen],
            margin=self.settings.trial_margin,
            min_wins=self.settings.trial_min_wins,
        )
        for problem in chosen:
            for system, outcomes in ((without, trial.without_passed), (with_it, trial.with_passed)):
                passed, failed_request = await self._solve(system, problem)
                outcomes.append(passed)
                trial.errors += failed_request
        test = mcnemar_exact(trial.with_passed, trial.without_passed)
        trial.with_only, trial.without_only, trial.p_value = test.only_a, test.only_b, test.p_value
        status, summary = verdict(trial)
        trial.verdict = (
            "inconclusive"
            if status is None
            else "kept"
            if status == HeuristicStatus.ACTIVE
            else "rejected"
        )
        trial.reason = summary
        now = await self.store.record_trial(trial, status, summary, cycle_id=cycle_id)
        await self.events.emit(
            f"rsi_heuristic_{trial.verdict}",
            {"heuristic_id": candidate.id, "trial_id": trial.id, "reason": summary},
        )
        log.info("trial of heuristic %s: %s", candidate.id, summary)
        return candidate.model_copy(update={"status": now or candidate.status})

    async def _solve(self, system: str, problem: problems.Problem) -> tuple[bool, bool]:
        """(passed, the request failed): one attempt, as pass@1 counts it."""
        try:
            reply = await self.llm.complete_text(
                system=system,
                user=solution_prompt(problem.spec, problem.entry_point, None),
                step="rsi.trial",
                temperature=TRIAL_TEMPERATURE,
            )
        except LLMUnavailableError as exc:
            log.warning("trial request failed: %s", exc)
            return False, True
        code = extract_code(reply.text, signature=problem.spec, entry_point=problem.entry_point)
        if not code:
            return False, False
        result = await run_problem(
            problem,
            problem.module(code),
            timeout_s=self.settings.practice_timeout_s,
            root=self.root,
        )
        if result.success and self.cases is not None:  # a verified pass is kept as a case
            await self.cases.write(
                domain=CODE, source=CaseSource.TRIAL, task=problem.spec, worked=code
            )
        return result.success, False
