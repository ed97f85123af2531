"""Changes while a run is in flight: the template's ``on_busy`` says what they do.

As watchexec's ``--on-busy-update``: a command template's burst that settles
while a run of the same template is still going is

- ``queue`` (the default): held; once the run ends, everything that arrived
  meanwhile is one more run. Never more than one waits: what keeps arriving
  joins the held burst (:mod:`cognition.act.burst`).
- ``restart``: the run is stopped now (its task cancelled, which kills its
  process group), its attempt ended as ``interrupted`` and its decision closed
  with :data:`RESTARTED` (nothing learned from it); the new burst runs at once.
- ``ignore``: no run for it; its changes are folded into the run in flight,
  whose decision then lists them among what it considered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

from cognition.act.templates import TemplateRegistry
from graph.models import Decision, DecisionStatus, Observation, utc_now
from graph.store.decisions import DecisionStore

log = logging.getLogger(__name__)

RESTARTED = "restarted: files changed while it ran (on_busy: restart); a new run took over"
"""The outcome of a decision whose run was stopped for a newer one."""
INTERRUPTED = "interrupted"
"""The failure type of the attempt that was stopped (as a crash's, never learned from)."""


class Burst(Protocol):
    """A burst's work: its observations (the loop's :class:`cognition.worklist.Work`)."""

    @property
    def batch(self) -> list[Observation]:
        """The changes, every file's."""
        ...


W = TypeVar("W", bound=Burst)


@dataclass(frozen=True)
class InFlight:
    """A template's run now: its decision and the task that carries it out."""

    decision: Decision
    task: asyncio.Task[None]


class BusyRuns:
    """The runs in flight per template, and what their templates' later changes do."""

    def __init__(self, decisions: DecisionStore, templates: TemplateRegistry) -> None:
        self.decisions = decisions
        self.templates = templates
        self._runs: dict[str, InFlight] = {}

    def track(self, template: str | None, decision: Decision, task: asyncio.Task[None]) -> None:
        """Remember ``task`` as ``template``'s run until it ends."""
        if template is None:
            return
        flight = InFlight(decision, task)
        self._runs[template] = flight

        def ended(_: asyncio.Task[None]) -> None:
            if self._runs.get(template) is flight:
                del self._runs[template]

        task.add_done_callback(ended)

    def running(self) -> dict[str, Decision]:
        """The templates with a run in flight, and each run's decision."""
        return {name: f.decision for name, f in self._runs.items() if not f.task.done()}

    async def admit(self, runs: Mapping[str, W]) -> list[W]:
        """The bursts (by template) to decide now; the rest held, folded or made to restart."""
        admitted: list[W] = []
        for name, work in runs.items():
            flight = self._runs.get(name)
            if flight is None or flight.task.done():
                admitted.append(work)
                continue
            policy = self.policy(name)
            if policy == "queue":
                continue  # its observations stay unprocessed: one run once this one ends
            if policy == "ignore":
                ids = [o.id for o in work.batch]
                await self.decisions.fold(flight.decision.id, ids)
                log.info("%s busy: %d changes folded into its run (ignore)", name, len(ids))
                continue
            await self._restart(name, flight)
            admitted.append(work)
        return admitted

    def policy(self, template: str) -> str:
        """The template's ``on_busy`` (queue for a template no longer loaded)."""
        if template not in self.templates.names():
            return "queue"
        return self.templates.get(template).on_busy

    async def _restart(self, name: str, flight: InFlight) -> None:
        """Stop the run (its process group is killed) and record why; the decision is closed."""
        flight.task.cancel()
        await asyncio.wait({flight.task})
        decision = flight.decision
        ended = await self.decisions.interrupt_executions(
            decision.id, success=False, error=RESTARTED, failure_type=INTERRUPTED
        )
        if decision.status is DecisionStatus.ACTING:
            await self.decisions.move(
                decision, DecisionStatus.CLOSED, outcome=RESTARTED, outcome_at=utc_now()
            )
        log.info("%s restarted: decision %s stopped (%d attempt(s))", name, decision.id, ended)
