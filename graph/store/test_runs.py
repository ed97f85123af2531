"""What test runs taught: the access layer for ``cypher/test_runs/``.

A run that failed is linked to the test files it failed (``BROKE``, the
failing tests named) and to the files whose change started it
(``AFTER_CHANGE``); :meth:`TestRunStore.broken_by` answers which test files a
change to some files has broken before, so they run first next time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from graph.ids import file_id, utc_now
from graph.store.agent_graph import AgentGraph


@dataclass(frozen=True, slots=True)
class BrokenTests:
    """A test file a change broke before: how many failed runs, and the latest's time."""

    path: str
    runs: int
    last: datetime | None


class TestRunStore:
    """One agent's memory of failed test runs."""

    __test__ = False  # a store, not a pytest class

    def __init__(self, graph: AgentGraph) -> None:
        self.graph = graph

    async def record_failures(
        self,
        execution_id: str,
        changed: Sequence[str],
        broken: Mapping[str, Sequence[str]],
    ) -> int:
        """Link the failed run ``execution_id`` to ``changed`` and the test files it ``broke``.

        ``broken`` maps a test file's root-relative path to the failing tests in it.
        Returns how many test files were linked (0 when the execution is unknown).
        """
        agent_id = self.graph.agent_id
        rows = await self.graph.write(
            "test_runs/record_failures",
            execution_id=execution_id,
            at=utc_now(),
            changed=[{"path": p, "file_id": file_id(agent_id, p)} for p in dict.fromkeys(changed)],
            broken=[
                {"path": p, "file_id": file_id(agent_id, p), "tests": list(tests)}
                for p, tests in broken.items()
            ],
        )
        return int(rows[0]["broken"]) if rows else 0

    async def broken_by(self, paths: Sequence[str], limit: int = 50) -> list[BrokenTests]:
        """The test files runs started by a change to any of ``paths`` failed, most often first."""
        if not paths:
            return []
        rows = await self.graph.read("test_runs/broken_by", paths=list(paths), limit=limit)
        return [BrokenTests(str(r["path"]), int(r["runs"]), _time(r["last"])) for r in rows]


def _time(value: object) -> datetime | None:
    return value if isinstance(value, datetime) else None
