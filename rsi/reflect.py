"""Step 1 of the cycle: reflect on experience and express desires with provenance (A2, E1, E2, I1).

:func:`show` renders what happened since the last cycle within the token
budget; only what it shows may be cited. :class:`LLMReflector` asks the model;
:class:`RulesReflector` turns failure clusters into desires with no model.
Both return a :class:`ReflectionOutcome`: the ``Reflection`` node and the
desires, each with the shown ids it cites (ids not shown are dropped and
counted, never trusted).
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from cognition.llm import LLMClient
from cognition.text import clip, fit_lines, plain_text
from graph.models import Desire, Reflection
from graph.store.rsi import ExperienceItem
from rsi.prompts import ReflectionReply, reflect_prompt

log = logging.getLogger(__name__)

# A failure cluster: this many failures of one template, failure type and path pattern.
CLUSTER_SIZE = 3
_LINE_LIMIT = 300
_DESCRIPTION_LIMIT = 500


@dataclass
class Shown:
    """The experience as the reflector sees it: the text, and the ids it may cite."""

    text: str
    labels: dict[str, str]  # id -> label
    items: list[ExperienceItem]


@dataclass
class ReflectionOutcome:
    """A reflection, its desires and the cited ids that were dropped."""

    reflection: Reflection
    desires: list[Desire]
    sources: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # desire -> by label
    dropped_citations: int = 0


def show(items: list[ExperienceItem], budget_tokens: int) -> Shown:
    """One line per item, newest first, until the token budget is spent."""
    lines = fit_lines((_line(item) for item in items), budget_tokens, each=1)
    shown = items[: len(lines)]
    return Shown("\n".join(lines), {i.id: i.label for i in shown}, shown)


def _line(item: ExperienceItem) -> str:
    facts = ", ".join(f"{k}={plain_text(str(v), 80)}" for k, v in sorted(item.facts.items()))
    return clip(f"[{item.id}] {item.kind} ({item.label}, {item.at}): {facts}", _LINE_LIMIT)


def normalise(raw: str | dict[str, Any]) -> tuple[str, float, list[str]]:
    """(description, intensity, cited ids) of one desire, string or object (seed 003 I1)."""
    if isinstance(raw, str):
        return plain_text(raw, _DESCRIPTION_LIMIT), 0.5, []
    text = raw.get("description") or raw.get("content") or raw.get("desire") or ""
    try:
        intensity = min(1.0, max(0.0, float(raw.get("intensity", 0.5))))
    except (TypeError, ValueError):
        intensity = 0.5
    cited = raw.get("sources") or raw.get("source_ids") or raw.get("source_experience_ids") or []
    ids = [str(c) for c in cited] if isinstance(cited, list) else []
    return plain_text(str(text), _DESCRIPTION_LIMIT), intensity, ids


def express(
    outcome: ReflectionOutcome,
    description: str,
    intensity: float,
    cited: list[str],
    labels: dict[str, str],
) -> Desire:
    """Add a desire of the reflection, keeping the cited ids that were shown, by label,
    and counting the rest as dropped (E2)."""
    reflection = outcome.reflection
    desire = Desire(
        agent_id=reflection.agent_id,
        description=description,
        intensity=intensity,
        origin="reflection",
        reflection_id=reflection.id,
    )
    by_label: dict[str, list[str]] = defaultdict(list)
    dropped = 0
    for cid in dict.fromkeys(cited):
        label = labels.get(cid)
        if label is None:
            dropped += 1
        else:
            by_label[label].append(cid)
    desire.cited = sum(len(v) for v in by_label.values())
    desire.dropped_citations = dropped
    outcome.dropped_citations += dropped
    outcome.sources[desire.id] = dict(by_label)
    outcome.desires.append(desire)
    return desire


class LLMReflector:
    """Reflection by the model, shown the experience and the system prompt."""

    def __init__(self, llm: LLMClient) -> None:
        self.llm = llm

    async def reflect(self, agent_id: str, shown: Shown, system: str) -> ReflectionOutcome:
        """Ask for desires; raises :class:`cognition.errors.LLMUnavailableError` when down."""
        reply = await self.llm.complete_json(
            system=system,
            user=reflect_prompt(shown.text),
            schema=ReflectionReply,
            step="rsi.reflect",
        )
        reflection = Reflection(
            agent_id=agent_id,
            raw=reply.raw,
            reflector="llm",
            items_shown=len(shown.items),
            error=reply.error,
        )
        outcome = ReflectionOutcome(reflection, [])
        value = reply.value
        if value is None:
            return outcome
        shared = list(value.source_ids)
        for raw in [*value.desires, *value.expressed_drives]:
            description, intensity, cited = normalise(raw)
            if not description:
                continue
            express(outcome, description, intensity, cited or shared, shown.labels)
        return outcome


class RulesReflector:
    """Reflection without a model: failure clusters and weak patterns become desires."""

    async def reflect(self, agent_id: str, shown: Shown) -> ReflectionOutcome:
        """Desires from clusters of at least :data:`CLUSTER_SIZE` failures, and weak patterns."""
        clusters: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        for item in shown.items:
            if item.kind == "failure":
                f = item.facts
                key = (
                    str(f.get("template") or "?"),
                    str(f.get("failure_type") or "unknown"),
                    str(f.get("path_pattern") or "*"),
                )
                clusters[key].append(item.id)
        found: list[tuple[str, float, list[str]]] = []
        for (template, failure_type, pattern), ids in sorted(clusters.items()):
            if len(ids) >= CLUSTER_SIZE:
                found.append(
                    (
                        f"Debug and fix the code behind {len(ids)} {failure_type} failures of "
                        f"template {template} on {pattern} files",
                        min(1.0, 0.4 + 0.1 * len(ids)),
                        ids,
                    )
                )
        for item in shown.items:
            if item.kind == "weak_pattern":
                f = item.facts
                found.append(
                    (
                        f"Improve the decisions of pattern {f.get('key')}: "
                        f"{f.get('successes')} of {f.get('total')} succeeded",
                        0.4,
                        [item.id],
                    )
                )
        summary = [{"description": d, "intensity": i, "sources": s} for d, i, s in found]
        reflection = Reflection(
            agent_id=agent_id,
            raw=json.dumps({"desires": summary}),
            reflector="rules",
            items_shown=len(shown.items),
        )
        outcome = ReflectionOutcome(reflection, [])
        for description, intensity, ids in found:
            express(outcome, description, intensity, ids, shown.labels)
        return outcome
