"""The RSI cycle (seed 003 A3): reflect, verify, select, route, practise, record.

:meth:`RSIEngine.run_cycle` runs one cycle and returns a :class:`CycleResult`
with its counts. A cycle never raises: what fails is recorded on the
``RSICycle`` node and in the result, and the daemon goes on (I5).

**Crystallisation goes at the end of the cycle**, through ``after_cycle``: a
list of async callables given to the engine, each called with the
:class:`CycleResult` once practice is over (its ``domain`` and
``trajectory_ids`` say what was practised) and returning how many heuristics
it crystallised, added to ``result.crystallised``. Nothing is crystallised
until such a hook is passed in.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from cognition.text import clip
from graph.models import Desire, RSICycle
from graph.settings import RSISettings
from graph.store.heuristics import HeuristicStore
from graph.store.learning import LearningStore
from graph.store.memory import Memory
from graph.store.rsi import NewDesire, RSIStore
from rsi.errors import RSIError
from rsi.practise_step import practise
from rsi.reflect import LLMReflector, ReflectionOutcome, RulesReflector, show
from rsi.route import PRACTISABLE, classify
from rsi.strategies import StrategyBook
from rsi.variance import direction_variance
from rsi.verify import EmergenceVerifier

log = logging.getLogger(__name__)

# How many items of each kind reflection reads before the token budget trims them.
PER_KIND = 25
VARIANCE_WINDOW = 50
WAITING_LIMIT = 50
_ERROR_LIMIT = 500


@dataclass
class CycleResult:
    """The counts of one cycle (seed 003 A3's CycleResult), and what it chose."""

    cycle_id: str
    selection_seed: int
    processed: int = 0
    accepted: int = 0
    rejected: int = 0
    practised: int = 0
    succeeded: int = 0
    crystallised: int = 0
    blocked_domains: list[str] = field(default_factory=list)
    dropped_citations: int = 0
    reflector: str = "rules"
    selected_desire_id: str | None = None
    domain: str | None = None
    trajectory_ids: list[str] = field(default_factory=list)
    skipped: str | None = None
    error: str | None = None
    duration_s: float = 0.0
    direction_variance: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """Every field, for printing and events."""
        return asdict(self)


CycleHook = Callable[[CycleResult], Awaitable[int]]
"""Called at the end of a cycle with its result; returns heuristics crystallised."""


class RSIEngine:
    """One agent's self-improvement: the facade over reflection, practice and records.

    ``llm`` is the daemon's one client (None: the rules reflector, no practice).
    ``root`` is the watched root, which practice folders must lie outside.
    ``system_prompt`` gives the constitution and strategies every request
    carries first (the daemon's strategy book); by default a book of this
    agent's heuristics that writes no files.
    """

    def __init__(
        self,
        memory: Memory,
        llm: LLMClient | None,
        settings: RSISettings,
        *,
        root: Path | None = None,
        after_cycle: Sequence[CycleHook] = (),
        system_prompt: Callable[[], Awaitable[str]] | None = None,
    ) -> None:
        self.memory = memory
        self.llm = llm
        self.settings = settings
        self.root = root
        self.after_cycle = list(after_cycle)
        self.store = RSIStore(memory)
        self.events = LearningStore(memory)
        self._system_prompt = (
            system_prompt or StrategyBook(HeuristicStore(memory), settings.max_strategy_tokens).text
        )

    async def run_cycle(self, *, seed: int | None = None) -> CycleResult:
        """Run one cycle; ``seed`` fixes the selection draw (a random one is stored otherwise)."""
        started = time.perf_counter()
        # The cycle's node carries its start: report windows and "since the last cycle" begin there.
        opened = RSICycle(agent_id=self.memory.agent_id)
        result = CycleResult(
            cycle_id=opened.id,
            selection_seed=seed if seed is not None else secrets.randbits(31),
        )
        await self.events.emit("rsi_cycle_start", {"cycle_id": result.cycle_id})
        new_ids: list[str] = []
        try:
            await self._cycle(result, new_ids)
        except Exception as exc:  # a cycle records why it failed; it never stops the daemon
            log.exception("RSI cycle %s failed", result.cycle_id)
            result.error = clip(f"{type(exc).__name__}: {exc}", _ERROR_LIMIT)
        for hook in self.after_cycle:
            try:
                result.crystallised += await hook(result)
            except Exception as exc:
                log.exception("RSI cycle hook %r failed", hook)
                why = f"after_cycle {hook!r}: {exc}"
                result.error = clip(f"{result.error}; {why}" if result.error else why, _ERROR_LIMIT)
        await self._record(result, new_ids, started, opened)
        return result

    async def add_external_desire(
        self, description: str, request: str, *, intensity: float = 0.7, domain: str | None = None
    ) -> str:
        """A person's request as a desire (``origin: external``), waiting to be practised.

        It did not emerge, so it is not scored for emergence: it is ``verified``
        by the request. With ``domain`` (code, math or logic) it is practised
        there; without, the router decides when it is selected.
        """
        if domain is not None and domain not in PRACTISABLE:
            raise RSIError(f"domain must be one of {sorted(PRACTISABLE)}, not {domain!r}")
        desire = Desire(
            agent_id=self.memory.agent_id,
            description=description,
            intensity=intensity,
            origin="external",
            external_request=request,
            status="verified",
            domain=domain or "",
            routed_by="person" if domain else None,
        )
        await self.store.record_desires([NewDesire(desire, {})])
        return desire.id

    async def clarify(self, desire_id: str, domain: str) -> Desire:
        """A person names the domain of a queued desire; it is practised in a later cycle."""
        if domain not in PRACTISABLE:
            raise RSIError(f"domain must be one of {sorted(PRACTISABLE)}, not {domain!r}")
        desire = await self.store.desire(desire_id)
        if desire is None:
            raise RSIError(f"no desire {desire_id!r}")
        if desire.status != "needs_clarification":
            raise RSIError(f"desire {desire_id} is {desire.status}, not waiting for clarification")
        await self.store.update_desire(
            desire_id, domain=domain, routed_by="person", status="verified"
        )
        return desire.model_copy(
            update={"domain": domain, "routed_by": "person", "status": "verified"}
        )

    async def pending_clarifications(self) -> list[Desire]:
        """Desires waiting for a person to name their domain, oldest first."""
        return await self.store.desires_with_status("needs_clarification", WAITING_LIMIT)

    async def _cycle(self, result: CycleResult, new_ids: list[str]) -> None:
        shown = show(await self.store.experience(PER_KIND), self.settings.reflection_budget_tokens)
        system = await self._system_prompt()
        outcome, model = await self._reflect(shown, system, result)
        await self.store.record_reflection(outcome.reflection)
        verifier = EmergenceVerifier(
            self.settings.emergence_threshold, self.llm if model else None, system=system
        )
        for desire in outcome.desires:
            verdict = await verifier.verify(desire)
            desire.status = "verified" if verdict.verified else "rejected"
            desire.score, desire.rejection_reason = verdict.score, verdict.reason
            desire.provenance_score, desire.specificity = verdict.provenance, verdict.specificity
        await self.store.record_desires(
            [NewDesire(d, outcome.sources.get(d.id, {})) for d in outcome.desires]
        )
        new_ids.extend(d.id for d in outcome.desires)
        result.processed = len(outcome.desires)
        result.dropped_citations = outcome.dropped_citations
        for desire in outcome.desires:
            verified = desire.status == "verified"
            result.accepted += verified
            result.rejected += not verified
            await self.events.emit(
                "rsi_desire_verified" if verified else "rsi_desire_rejected",
                {"desire_id": desire.id, "score": desire.score, "reason": desire.rejection_reason},
            )
        waiting = await self.store.desires_with_status("verified", WAITING_LIMIT)
        pool = list({d.id: d for d in waiting}.values())
        if not pool:
            return
        chosen = select(pool, result.selection_seed)
        result.selected_desire_id = chosen.id
        if not await self._route(chosen, result):
            return
        if not model or self.llm is None:
            result.skipped = "no language model to practise with"
            return
        await practise(self, chosen, system, result)

    async def _reflect(
        self, shown: Any, system: str, result: CycleResult
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

    async def _route(self, desire: Desire, result: CycleResult) -> bool:
        """Route the chosen desire (D1-D5); False when it waits for a person instead."""
        if desire.routed_by == "person" and desire.domain in PRACTISABLE:
            result.domain = desire.domain
            return True
        routing = classify(desire.description)
        result.domain = routing.domain
        changes: dict[str, Any] = {
            "domain": routing.domain,
            "secondary_domain": routing.secondary,
            "route_confidence": routing.confidence,
            "routed_by": "keywords",
        }
        if not routing.practisable:
            changes["status"] = "needs_clarification"
            result.blocked_domains.append(routing.domain)
        await self.store.update_desire(desire.id, **changes)
        await self.events.emit("rsi_desire_routed", {"desire_id": desire.id, **changes})
        desire.domain = routing.domain
        return routing.practisable

    async def _record(
        self, result: CycleResult, new_ids: list[str], started: float, opened: RSICycle
    ) -> None:
        try:
            descriptions = await self.store.recent_descriptions(VARIANCE_WINDOW)
            result.direction_variance = direction_variance(descriptions)
        except Exception as exc:  # the figure is a report, not a reason to lose the record
            log.warning("direction variance not computed: %s", exc)
        result.duration_s = round(time.perf_counter() - started, 4)
        counts = {k: v for k, v in result.as_dict().items() if k in _CYCLE_FIELDS}
        cycle = RSICycle.model_validate({**opened.model_dump(), **counts})
        try:
            await self.store.record_cycle(cycle, new_ids)
        except Exception as exc:
            log.error("RSI cycle %s not recorded: %s", result.cycle_id, exc)
            result.error = result.error or clip(f"not recorded: {exc}", _ERROR_LIMIT)
        await self.events.emit("rsi_cycle_end", result.as_dict())


_CYCLE_FIELDS = frozenset(RSICycle.model_fields) - {"id", "agent_id", "at"}


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
