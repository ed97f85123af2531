"""The RSI cycle (seed 003 A3): reflect, verify, select, route, practice, record.

:meth:`RSIEngine.run_cycle` runs one cycle and returns its
:class:`~graph.models.RSICycle` (seed 003 A3's CycleResult: one record, the
node it writes). A cycle never raises: what fails is recorded on the node,
and the daemon goes on (I5). When no verified desire waits, the cycle
practices a ``bootstrap`` desire (:mod:`rsi.bootstrap`); a cycle that does not
practice says why in ``skipped``.

**Each step returns what it did and the engine assembles the record**:
practice a :class:`~rsi.practice_step.PracticeReport`, then, at the end of
the cycle (once practice is over, even when the cycle failed), the
``crystallizer``'s :class:`~rsi.crystallize.CrystallizeReport` gives the
``crystallized`` count and the ``trials``' tried heuristics a
:class:`~rsi.trial.TrialReport` (``trials``, ``activated``,
``rejected_heuristics``). Nothing is crystallized without a crystallizer,
nothing trialled without trials. A step that fails adds why to the cycle's
``error``; the next still runs.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from cognition.carried import CarriedPrompt
from cognition.cases import CaseBank
from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from cognition.text import clip
from graph.models import Desire, DesireStatus, RSICycle
from graph.settings import RSISettings
from graph.store.memory import Memory
from graph.store.rows.rsi import DesireChanges
from graph.store.rsi import NewDesire
from rsi.bootstrap import bootstrap_desire
from rsi.crystallize import Crystallizer
from rsi.errors import RSIError
from rsi.practice_step import PracticeParts, PracticeReport, practice
from rsi.reflect import LLMReflector, ReflectionOutcome, RulesReflector, show
from rsi.route import PRACTICABLE, classify
from rsi.strategies import StrategyBook
from rsi.trial import HeuristicTrials, TrialReport
from rsi.variance import direction_variance
from rsi.verify import EmergenceVerifier

log = logging.getLogger(__name__)

# How many items of each kind reflection reads before the token budget trims them.
PER_KIND = 25
VARIANCE_WINDOW = 50
WAITING_LIMIT = 50
_ERROR_LIMIT = 500

T = TypeVar("T")

NO_MODEL = "no language model to practice with"


class RSIEngine:
    """One agent's self-improvement: the facade over reflection, practice and records.

    ``llm`` is the daemon's one client (None: the rules reflector, no practice).
    ``root`` is the watched root, which practice folders must lie outside.
    ``system_prompt`` gives the constitution and strategies every request
    carries first, with the ids of the strategies it shows (the daemon's
    strategy book); by default a book of this agent's heuristics that writes
    no files. ``cases`` is the agent's case bank: practice is shown similar
    verified cases and keeps each verified pass as a new one. At the cycle's
    end ``crystallizer`` distills successful practice into candidate
    heuristics and ``trials`` trials the waiting candidates (None: neither).
    """

    def __init__(
        self,
        memory: Memory,
        llm: LLMClient | None,
        settings: RSISettings,
        *,
        root: Path | None = None,
        system_prompt: Callable[[], Awaitable[CarriedPrompt]] | None = None,
        cases: CaseBank | None = None,
        crystallizer: Crystallizer | None = None,
        trials: HeuristicTrials | None = None,
    ) -> None:
        self.memory = memory
        self.cases = cases
        self.llm = llm
        self.settings = settings
        self.root = root
        self.crystallizer = crystallizer
        self.trials = trials
        self.store = memory.rsi
        self.events = memory.events
        self._system_prompt = (
            system_prompt or StrategyBook(memory.heuristics, settings.max_strategy_tokens).prompt
        )

    async def run_cycle(self, *, seed: int | None = None) -> RSICycle:
        """Run one cycle; ``seed`` fixes the selection draw (a random one is stored otherwise)."""
        started = time.perf_counter()
        # The cycle's node carries its start: report windows and "since the last cycle" begin there.
        result = RSICycle(
            agent_id=self.memory.agent_id,
            selection_seed=seed if seed is not None else secrets.randbits(31),
        )
        await self.events.emit("rsi_cycle_start", {"cycle_id": result.id})
        new_ids: list[str] = []
        try:
            await self._cycle(result, new_ids)
        except Exception as exc:  # a cycle records why it failed; it never stops the daemon
            log.exception("RSI cycle %s failed", result.id)
            result.error = clip(f"{type(exc).__name__}: {exc}", _ERROR_LIMIT)
        await self._end_of_cycle(result)
        if result.practiced == 0 and result.skipped is None:
            result.skipped = "the cycle failed before practice" if result.error else None
        await self._record(result, new_ids, started)
        return result

    async def add_external_desire(
        self, description: str, request: str, *, intensity: float = 0.7, domain: str | None = None
    ) -> str:
        """A person's request as a desire (``origin: external``), waiting to be practiced.

        It did not emerge, so it is not scored for emergence: it is ``verified``
        by the request. With ``domain`` (code, math or logic) it is practiced
        there; without, the router decides when it is selected.
        """
        if domain is not None and domain not in PRACTICABLE:
            raise RSIError(f"domain must be one of {sorted(PRACTICABLE)}, not {domain!r}")
        desire = Desire(
            agent_id=self.memory.agent_id,
            description=description,
            intensity=intensity,
            origin="external",
            external_request=request,
            status=DesireStatus.VERIFIED,
            domain=domain or "",
            routed_by="person" if domain else None,
        )
        await self.store.record_desires([NewDesire(desire, {})])
        return desire.id

    async def clarify(self, desire_id: str, domain: str) -> Desire:
        """A person names the domain of a queued desire; it is practiced in a later cycle."""
        if domain not in PRACTICABLE:
            raise RSIError(f"domain must be one of {sorted(PRACTICABLE)}, not {domain!r}")
        desire = await self.store.desire(desire_id)
        if desire is None:
            raise RSIError(f"no desire {desire_id!r}")
        if desire.status != DesireStatus.NEEDS_CLARIFICATION:
            raise RSIError(f"desire {desire_id} is {desire.status}, not waiting for clarification")
        verified = DesireStatus.VERIFIED
        await self.store.update_desire(
            desire_id, domain=domain, routed_by="person", status=verified
        )
        return desire.model_copy(
            update={"domain": domain, "routed_by": "person", "status": verified}
        )

    async def pending_clarifications(self) -> list[Desire]:
        """Desires waiting for a person to name their domain, oldest first."""
        return await self.store.desires_with_status(DesireStatus.NEEDS_CLARIFICATION, WAITING_LIMIT)

    async def _cycle(self, result: RSICycle, new_ids: list[str]) -> None:
        shown = show(await self.store.experience(PER_KIND), self.settings.reflection_budget_tokens)
        carried = await self._system_prompt()
        system = carried.text
        outcome, model = await self._reflect(shown, system, result)
        await self.store.record_reflection(outcome.reflection)
        verifier = EmergenceVerifier(
            self.settings.emergence_threshold, self.llm if model else None, system=system
        )
        for desire in outcome.desires:
            verdict = await verifier.verify(desire)
            desire.status = DesireStatus.VERIFIED if verdict.verified else DesireStatus.REJECTED
            desire.score, desire.rejection_reason = verdict.score, verdict.reason
            desire.provenance_score, desire.specificity = verdict.provenance, verdict.specificity
        await self.store.record_desires(
            [NewDesire(d, outcome.sources.get(d.id, {})) for d in outcome.desires]
        )
        new_ids.extend(d.id for d in outcome.desires)
        result.processed = len(outcome.desires)
        result.dropped_citations = outcome.dropped_citations
        for desire in outcome.desires:
            verified = desire.status == DesireStatus.VERIFIED
            result.accepted += verified
            result.rejected += not verified
            await self.events.emit(
                "rsi_desire_verified" if verified else "rsi_desire_rejected",
                {"desire_id": desire.id, "score": desire.score, "reason": desire.rejection_reason},
            )
        waiting = await self.store.desires_with_status(DesireStatus.VERIFIED, WAITING_LIMIT)
        pool = list({d.id: d for d in waiting}.values())
        seed = result.selection_seed or 0
        if pool:
            chosen = select(pool, seed)
        elif not model or self.llm is None:
            result.skipped = f"no verified desire, and {NO_MODEL}"
            return
        else:
            drawn = await bootstrap_desire(self.store, self.settings, seed)
            if drawn is None:
                result.skipped = "no verified desire, and the practice pool is used up"
                return
            await self.store.record_desires([NewDesire(drawn, {})])
            new_ids.append(drawn.id)
            chosen = drawn
        result.selected_desire_id, result.practice_origin = chosen.id, chosen.origin
        if not await self._route(chosen, result):
            result.skipped = f"waiting for a person to name the domain ({result.domain})"
            return
        if not model or self.llm is None:
            result.skipped = NO_MODEL
            return
        report = await practice(self._practice_parts(self.llm), chosen, carried)
        count_practice(result, report)

    def _practice_parts(self, llm: LLMClient) -> PracticeParts:
        """The parts practice uses, with the model the cycle made sure it has."""
        return PracticeParts(
            llm=llm,
            store=self.store,
            events=self.events,
            learning=self.memory.learning,
            settings=self.settings,
            root=self.root,
            cases=self.cases,
        )

    async def _end_of_cycle(self, result: RSICycle) -> None:
        """Crystallize every domain over the threshold, then trial the waiting candidates,
        both linked to this cycle; their reports give the cycle its counts."""
        if self.crystallizer is not None:
            run = self.crystallizer.run(cycle_id=result.id)
            crystallized = await self._guarded("crystallize", run, result)
            if crystallized is not None:
                result.crystallized = crystallized.crystallized
        if self.trials is not None:
            tried = await self._guarded("trials", self.trials.run(cycle_id=result.id), result)
            if tried is not None:
                trials = TrialReport.of(tried)
                result.trials, result.activated = trials.trials, trials.activated
                result.rejected_heuristics = trials.rejected

    async def _guarded(self, step: str, work: Awaitable[T], result: RSICycle) -> T | None:
        """``work``'s result; None when it failed, with why added to the cycle's error."""
        try:
            return await work
        except Exception as exc:  # an end-of-cycle step's failure costs the record nothing
            log.exception("RSI cycle %s: %s failed", result.id, step)
            why = f"{step} failed: {type(exc).__name__}: {exc}"
            result.error = clip(f"{result.error}; {why}" if result.error else why, _ERROR_LIMIT)
            return None

    async def _reflect(
        self, shown: Any, system: str, result: RSICycle
    ) -> tuple[ReflectionOutcome, bool]:
        if self.llm is not None:
            try:
                outcome = await LLMReflector(self.llm).reflect(self.memory.agent_id, shown, system)
                result.reflector = "llm"
                return outcome, True
            except LLMUnavailableError as exc:
                log.warning("RSI reflection falls back to rules: %s", exc)
        result.reflector = "rules"
        return await RulesReflector().reflect(self.memory.agent_id, shown), False

    async def _route(self, desire: Desire, result: RSICycle) -> bool:
        """Route the chosen desire (D1-D5); False when it waits for a person instead."""
        if desire.routed_by in ("person", "bootstrap") and desire.domain in PRACTICABLE:
            result.domain = desire.domain
            return True
        routing = classify(desire.description)
        result.domain = routing.domain
        changes: DesireChanges = {
            "domain": routing.domain,
            "secondary_domain": routing.secondary,
            "route_confidence": routing.confidence,
            "routed_by": "keywords",
        }
        if not routing.practicable:
            changes["status"] = DesireStatus.NEEDS_CLARIFICATION
            result.blocked_domains.append(routing.domain)
        await self.store.update_desire(desire.id, **changes)
        await self.events.emit("rsi_desire_routed", {"desire_id": desire.id, **changes})
        desire.domain = routing.domain
        return routing.practicable

    async def _record(self, result: RSICycle, new_ids: list[str], started: float) -> None:
        try:
            descriptions = await self.store.recent_descriptions(VARIANCE_WINDOW)
            result.direction_variance = direction_variance(descriptions)
        except Exception as exc:  # the figure is a report, not a reason to lose the record
            log.warning("direction variance not computed: %s", exc)
        result.duration_s = round(time.perf_counter() - started, 4)
        try:
            await self.store.record_cycle(result, new_ids)
        except Exception as exc:
            log.error("RSI cycle %s not recorded: %s", result.id, exc)
            result.error = result.error or clip(f"not recorded: {exc}", _ERROR_LIMIT)
        await self.events.emit(
            "rsi_cycle_end", {"cycle_id": result.id, **result.model_dump(mode="json")}
        )


def count_practice(result: RSICycle, report: PracticeReport) -> None:
    """Copy practice's report into the cycle's record."""
    result.practiced += report.practiced
    result.succeeded += report.succeeded
    result.trajectory_ids.extend(report.trajectory_ids)
    if report.skipped is not None:
        result.skipped = report.skipped


def select(pool: Sequence[Desire], seed: int) -> Desire:
    """One desire, drawn with weights intensity x score by a generator seeded with ``seed``.

    Seed 003's "quantum collapse" is a random draw; this one is reproducible.
    A desire without a score (an external request) weighs its intensity alone.
    """
    ordered = sorted(pool, key=lambda d: d.id)
    weights = [max(0.0, d.intensity * (d.score if d.score is not None else 1.0)) for d in ordered]
    if not any(weights):
        weights = [1.0] * len(ordered)
    # A reproducible draw, not a secret: the seed is stored on the cycle.
    return random.Random(seed).choices(  # noqa: S311
        ordered, weights=weights, k=1
    )[0]
