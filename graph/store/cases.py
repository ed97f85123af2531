"""Cases written and read: the access layer for ``cypher/cases/`` (issue 25).

A case is written once, FROM the trajectory or turn it came from; recall asks
the full-text index for one agent's active cases and reads the small bank
(it is capped) with its vectors to compare by meaning in memory; each use is
credited; the pruner retires and merges, never deleting a node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graph.models import Case, utc_now
from graph.store.credited import CreditedBank
from graph.store.lucene import agent_query, lucene_query
from graph.store.mapping import from_properties, to_properties

Vector = list[float]


@dataclass(frozen=True)
class ScoredCase:
    """A case and how well it matched (Lucene's score, or a cosine)."""

    case: Case
    score: float


class CaseStore(CreditedBank):
    """One agent's cases."""

    folder = "cases"

    async def record(
        self, case: Case, *, from_id: str | None = None, episode_id: str | None = None
    ) -> str:
        """Write ``case``, FROM ``from_id`` (a trajectory or turn) and IN_EPISODE ``episode_id``."""
        rows = await self.graph.write(
            "cases/record", case=to_properties(case), from_id=from_id, episode_id=episode_id
        )
        return str(rows[0]["id"])

    async def search(self, text: str, domain: str | None, limit: int) -> list[ScoredCase]:
        """Active cases sharing words with ``text``, best first (none when it has no words)."""
        query = agent_query(lucene_query([text]), self.agent_id)
        if not query or limit <= 0:
            return []
        rows = await self.graph.read("cases/search", query=query, domain=domain, limit=limit)
        return [ScoredCase(self._case(r["case"]), float(r["score"])) for r in rows]

    async def active(
        self, domain: str | None = None, limit: int = 10_000
    ) -> list[tuple[Case, Vector | None]]:
        """The active cases (of ``domain``, or all), oldest first, each with its vector if any."""
        rows = await self.graph.read("cases/active", domain=domain, limit=limit)
        return [
            (self._case(r["case"]), [float(x) for x in r["embedding"]] if r["embedding"] else None)
            for r in rows
        ]

    async def undistilled(self, domain: str, limit: int = 200) -> list[Case]:
        """Active cases of ``domain`` with a lesson (an error) no heuristic came from yet."""
        rows = await self.graph.read("cases/undistilled", domain=domain, limit=limit)
        return [self._case(r["case"]) for r in rows]

    async def link_distilled(self, heuristic_id: str, case_ids: Sequence[str]) -> int:
        """Record that ``heuristic_id`` was distilled from these cases."""
        if not case_ids:
            return 0
        rows = await self.graph.write(
            "cases/distilled", heuristic_id=heuristic_id, ids=list(case_ids)
        )
        return int(rows[0]["linked"]) if rows else 0

    async def credit(self, case_ids: Sequence[str], *, helpful: bool) -> int:
        """Count one use of each case, helpful or harmful by the attempt's outcome."""
        if not case_ids:
            return 0
        rows = await self.graph.write(
            "cases/credit", ids=list(dict.fromkeys(case_ids)), helpful=helpful, now=utc_now()
        )
        return int(rows[0]["credited"]) if rows else 0

    async def merge(self, keep_id: str, duplicate_id: str) -> bool:
        """Fold ``duplicate_id`` into ``keep_id``; whether it was done."""
        rows = await self.graph.write("cases/merge", keep_id=keep_id, duplicate_id=duplicate_id)
        return bool(rows)

    async def reinforce(
        self, case_id: str, *, task: str, worked: str, failed_attempt: str, error: str
    ) -> None:
        """A new verified attempt repeats ``case_id``: it takes the newer attempt whole, unless
        that passed with no failure and the kept one has one (then only the count grows)."""
        await self.graph.write(
            "cases/reinforce", id=case_id, task=task, worked=worked,
            failed_attempt=failed_attempt, error=error,
        )  # fmt: skip

    def _case(self, properties: dict[str, object]) -> Case:
        return from_properties(Case, properties, agent_id=self.agent_id)
