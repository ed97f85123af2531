"""Synthetic memory for the recall benchmark: decisions with their history, and what was learned.

For ``size`` nodes, about: 10 % decisions, each with its observation, five
reasoning steps and 0.3 lessons (75 % of the nodes); 20 % facts; 2 %
episodes; 1 % procedures; plus a fixed set of pattern statistics, censors,
goals, heuristics and a working memory. Paths, facts, episodes and lessons
draw from one vocabulary that grows as the square root of the memory
(Heaps' law: 300 words at 10k nodes, 3,000 at 1M), so a query finds about
as much at every size and the sizes compare the same work on a larger
graph. About ten decisions share a file, three files a folder.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.models import Category, DecisionType, StepName, new_id
from graph.models.paths import path_pattern

SESSION = "bench-session"
CATEGORIES = [c.value for c in Category]
FILE_TYPES = ["file_created", "file_modified", "file_deleted", "file_moved"]
TEMPLATES = ["process_intake", "update_index", "analyze_knowledge"]
DECISIONS = (
    [DecisionType.ACT] * 6
    + [DecisionType.WAIT] * 2
    + [
        DecisionType.INVESTIGATE,
        DecisionType.ESCALATE,
    ]
)
EXTENSIONS = ["md", "md", "py", "txt"]
START = datetime(2025, 1, 1, tzinfo=UTC)
_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def vocabulary(count: int = 3000, seed: int = 7) -> list[str]:
    """``count`` distinct made-up words (``kamoru``), the same every run."""
    rng = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < count:
        words["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))] = None
    return list(words)


class History:
    """Deterministic rows for one agent's memory of about ``size`` nodes."""

    def __init__(self, agent_id: str, size: int, seed: int = 1) -> None:
        self.agent_id = agent_id
        self.decisions = max(size // 10, 10)
        self.files = max(self.decisions // 10, 1)
        self.rng = random.Random(seed)
        self.words = vocabulary(max(300, int(3 * size**0.5)))
        self.facts = size // 5
        self.episodes = size // 50
        self.procedures = max(size // 100, 5)

    def path(self, f: int) -> tuple[str, str]:
        """(path, category) of file number ``f``."""
        category = CATEGORIES[f % len(CATEGORIES)]
        folder = self.words[(f // 3) % len(self.words)]
        word = self.words[f % len(self.words)]
        return f"{category}/{folder}/{word}{f}.{EXTENSIONS[f % 4]}", category

    def _at(self, i: int, total: int) -> datetime:
        return START + timedelta(days=365 * i / total)

    def _text(self, n: int) -> str:
        return " ".join(self.rng.choice(self.words) for _ in range(n))

    def decision_rows(self, batch: int) -> Iterator[list[dict[str, Any]]]:
        """Batches of decision rows for ``bench/decision_history``."""
        rows: list[dict[str, Any]] = []
        for i in range(self.decisions):
            rows.append(self._decision(i))
            if len(rows) == batch:
                yield rows
                rows = []
        if rows:
            yield rows

    def _decision(self, i: int) -> dict[str, Any]:
        rng, agent = self.rng, self.agent_id
        path, category = self.path(rng.randrange(self.files))
        kind = rng.choice(FILE_TYPES)
        dtype = rng.choice(DECISIONS)
        template = rng.choice(TEMPLATES) if dtype is DecisionType.ACT else None
        at = self._at(i, self.decisions)
        success = rng.random() < 0.7 if dtype is DecisionType.ACT and rng.random() < 0.9 else None
        decision_id = new_id()
        key = f"{category}:{kind}:{dtype.value}:{template or 'custom'}"
        common = {"agent_id": agent, "at": at}
        decision = {
            **common, "id": decision_id, "type": dtype.value, "confidence": rng.random(),
            "reasoning": self._text(12), "reasoner": "rules", "frame": "task",
            "template": template, "category": category, "observation_type": kind, "path": path,
            "path_pattern": path_pattern(path), "pattern_key": key, "executed": success is not None,
            "outcome_success": success, "outcome": None if success is None else "done",
            "status": "done",
        }  # fmt: skip
        observation = {
            **common, "id": new_id(), "type": kind, "urgency": "routine", "category": category,
            "path": path, "path_pattern": path_pattern(path), "processed": True, "metadata": "{}",
        }  # fmt: skip
        steps = [
            {**common, "id": new_id(), "name": name.value, "order": n, "reasoner": "rules",
             "output": "{}", "latency_ms": 1.0}
            for n, name in enumerate(list(StepName)[:5])
        ]  # fmt: skip
        lessons = []
        if rng.random() < 0.3:
            lessons.append(
                {**common, "id": new_id(), "decision_id": decision_id, "type": "pattern_success",
                 "adjustment": "increase", "reason": self._text(8), "pattern_key": key}
            )  # fmt: skip
        row = {"decision": decision, "observation": observation, "steps": steps}
        return {**row, "lessons": lessons, "pattern_key": key}

    def fact_rows(self) -> list[dict[str, Any]]:
        """Rows for ``bench/facts``."""
        return [
            {"agent_id": self.agent_id, "at": self._at(i, self.facts), "id": new_id(),
             "content": self._text(8), "confirmations": self.rng.randint(1, 5)}
            for i in range(self.facts)
        ]  # fmt: skip

    def episode_rows(self) -> list[dict[str, Any]]:
        """Rows for ``bench/episodes``."""
        rows = []
        for i in range(self.episodes):
            at = self._at(i, max(self.episodes, 1))
            lessons = [self._text(6), self._text(6)]
            rows.append(
                {"agent_id": self.agent_id, "at": at, "id": new_id(), "session_id": f"s{i}",
                 "started_at": at, "ended_at": at + timedelta(hours=1), "outcome": "success",
                 "summary": self._text(10), "lessons": lessons, "lessons_text": "\n".join(lessons)}
            )  # fmt: skip
        return rows

    def standing(self) -> dict[str, list[dict[str, Any]]]:
        """Parameters of ``bench/standing_memory``: the memories that do not grow with size."""
        rng, common = self.rng, {"agent_id": self.agent_id, "at": START}
        patterns = []
        for c in CATEGORIES:
            for kind in FILE_TYPES:
                for d in DecisionType:
                    for t in TEMPLATES if d is DecisionType.ACT else ["custom"]:
                        total = rng.randint(1, 500)
                        patterns.append(
                            {**common, "id": new_id(), "key": f"{c}:{kind}:{d.value}:{t}",
                             "total": total, "successes": rng.randint(0, total),
                             "avg_confidence": rng.random()}
                        )  # fmt: skip
        procedures = []
        for _ in range(self.procedures):
            core = [self._text(4) for _ in range(3)]
            procedures.append(
                {**common, "id": new_id(), "name": self._text(2), "domain": rng.choice(CATEGORIES),
                 "core_patterns": core, "core_patterns_text": "\n".join(core)}
            )  # fmt: skip
        return {
            "patterns": patterns,
            "procedures": procedures,
            "censors": [
                {**common, "id": new_id(), "trigger_pattern": self._text(3),
                 "reason": self._text(6), "severity": "block" if n % 5 == 0 else "warn",
                 "status": "active",
                 "fire_count": rng.randint(0, 20)}
                for n in range(50)
            ],
            "goals": [
                {**common, "id": new_id(), "description": self._text(6),
                 "priority": rng.choice(["low", "medium", "high"])}
                for _ in range(10)
            ],
            "heuristics": [
                {**common, "id": new_id(), "domain": rng.choice(CATEGORIES),
                 "content": self._text(10), "usage_count": rng.randint(0, 100),
                 "status": "active" if n % 2 else "pruned"}
                for n in range(200)
            ],
            "working_memory": [
                {**common, "id": new_id(), "session_id": SESSION,
                 "current_task": self._text(6), "open_threads": [self._text(4), self._text(4)]}
            ],
        }  # fmt: skip
