"""bench.transfer's strategy sets: the learned principles of a domain and their control."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from graph.models import Heuristic
from rsi.strategies import set_signature


@dataclass
class StrategySet:
    """The learned strategies, their control, and which version of the set they are."""

    learned: list[Heuristic]
    control: list[Heuristic]
    control_kind: str
    version: str


def strategies_from_file(path: Path, domain: str, seed: int) -> StrategySet:
    """The strategy set of a ``strategies.json`` Nous wrote."""
    document = json.loads(path.read_text(encoding="utf-8"))
    heuristics = [
        Heuristic(
            agent_id="file",
            id=str(h.get("id") or n),
            domain=str(h["domain"]),
            content=str(h["content"]),
            at=_aware(datetime.fromisoformat(h["added_at"])),
        )
        for n, h in enumerate(document.get("heuristics", []))
    ]
    return split_strategies(heuristics, domain, seed, version=f"v{document.get('version', '?')}")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def split_strategies(
    heuristics: Sequence[Heuristic], domain: str, seed: int, *, version: str | None = None
) -> StrategySet:
    """The learned strategies of ``domain`` and a control of the same size."""
    learned = [h for h in heuristics if h.domain == domain]
    others = [h for h in heuristics if h.domain != domain]
    rng = random.Random(seed)
    if len(others) >= len(learned):
        control, kind = rng.sample(others, len(learned)), "other domains"
    else:
        control, kind = [_shuffled(h, rng) for h in learned], "shuffled words"
    return StrategySet(learned, control, kind, version or f"set {set_signature(heuristics)[:12]}")


def _shuffled(h: Heuristic, rng: random.Random) -> Heuristic:
    words = h.content.split()
    rng.shuffle(words)
    return h.model_copy(update={"content": " ".join(words)})
