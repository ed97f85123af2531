"""Crystallize (seed 003 C3, C4, C6): successful practice becomes a heuristic, once.

After a cycle, a domain with at least ``rsi.crystallize_after`` successful
trajectories that no heuristic was distilled from is crystallized: a
stratified sample (4 oldest, 3 middle, 3 newest), each cut to 500 characters,
goes to the model at temperature 0.5 for one principle. The model then
judges whether it is actionable (YES/NO); a vague one is refused. A principle
that repeats an active or candidate heuristic of its domain (same text once
normalised; else embeddings at ``rsi.dedup_similarity``; else the model's
YES/NO) reinforces that heuristic instead of adding one (ExpeL's AGREE); one
that repeats a rejected heuristic's text is refused. A new heuristic is a
``candidate``: no prompt carries it until its trial (:mod:`rsi.trial`) makes
it active. Without a model nothing is crystallized, and the domain is
recorded as skipped.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from cognition.cases import CaseBank, case_text, shared_lesson
from cognition.embeddings import Embeddings
from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from cognition.text import clip, plain_text
from graph.models import Case, Heuristic, HeuristicStatus, Trajectory
from graph.settings import RSISettings
from graph.store.events import EventStore
from graph.store.heuristics import HeuristicStore
from rsi.heuristic_stage import HeuristicStage
from rsi.prompts import (
    actionable_prompt,
    case_principle_prompt,
    duplicate_prompt,
    principle_prompt,
)
from rsi.strategies import load_constitution

log = logging.getLogger(__name__)

TRAJECTORY_CHARS = 500  # seed 003 L4
CASES_SHOWN = 6  # at most this many cases of one shared lesson go to the model
PRINCIPLE_CHARS = 400
ERROR_CHARS = 300
PRINCIPLE_TEMPERATURE = 0.5  # seed 003 L5
JUDGE_TEMPERATURE = 0.0
_WORDS = re.compile(r"[^\w\s]")
_LEADING_WORD = re.compile(r"[A-Z]+")
# A small model may echo the reply shape's placeholder ("<the instruction>") as its principle.
_PLACEHOLDER = re.compile(r"^\W*<[^<>]*>\W*$")
MIN_PRINCIPLE_WORDS = 5

M = TypeVar("M", bound=BaseModel)
Outcome = Literal["crystallized", "reinforced", "refused", "skipped"]


def _answer(value: object) -> object:
    # "YES", "yes.", "No, it is vague", true -> "YES" / "NO"
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if not isinstance(value, str):
        return value
    match = _LEADING_WORD.match(value.strip().upper())
    return match.group(0) if match else value


class PrincipleReply(BaseModel):
    """The one principle the model distilled."""

    model_config = ConfigDict(extra="ignore")
    principle: Annotated[str, BeforeValidator(lambda v: plain_text(v) if isinstance(v, str) else v)]


class JudgementReply(BaseModel):
    """A YES/NO judgement; ``same_as`` numbers the heuristic a duplicate repeats."""

    model_config = ConfigDict(extra="ignore")
    answer: Annotated[Literal["YES", "NO"], BeforeValidator(_answer)]
    same_as: int | None = Field(default=None)


@dataclass(frozen=True)
class DomainResult:
    """What crystallization did for one domain."""

    domain: str
    outcome: Outcome
    reason: str = ""
    heuristic_id: str | None = None
    principle: str | None = None
    trajectory_ids: tuple[str, ...] = ()


@dataclass
class CrystallizeReport:
    """Every domain crystallization looked at in one run."""

    results: list[DomainResult] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        """How many domains ended with ``outcome``."""
        return sum(1 for r in self.results if r.outcome == outcome)

    @property
    def crystallized(self) -> int:
        """New candidate heuristics written (an ``RSICycle``'s ``crystallized`` count)."""
        return self.count("crystallized")


def stratified_sample(trajectories: Sequence[Trajectory]) -> list[Trajectory]:
    """Seed 003 C3: 4 oldest, 3 middle, 3 newest by time; all of them when fewer than ten."""
    ordered = sorted(trajectories, key=lambda t: (t.at, t.id))
    n = len(ordered)
    if n < 10:
        return ordered
    middle = n // 2 - 1
    return [*ordered[:4], *ordered[middle : middle + 3], *ordered[-3:]]


def trajectory_text(t: Trajectory) -> str:
    """One attempt as the model reads it, cut to 500 characters (seed 003 L4)."""
    parts = [f"problem: {t.problem.strip()}"]
    if t.approach.strip():
        parts.append(f"approach: {t.approach.strip()}")
    if t.solution.strip():
        parts.append(f"solution:\n{t.solution.strip()}")
    return clip("\n".join(parts), TRAJECTORY_CHARS)


def normalise(text: str) -> str:
    """Text compared for equality: lower case, no punctuation, single spaces."""
    return " ".join(_WORDS.sub(" ", text.lower()).split())


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


class Crystallizer(HeuristicStage):
    """Distils heuristics from one agent's trajectories; part 1's cycle calls :meth:`run`.

    ``system_prompt`` gives the text every request carries first (the
    constitution and strategies); ``on_change`` runs after the active set
    changed (the strategy book's refresh, which writes the strategies files);
    ``embeddings`` compares principles by similarity (without it, the model
    judges duplicates). With ``cases``, the principle is distilled from the
    largest group of the domain's verified cases that share what they teach
    (their errors alike), linked ``DISTILLED_FROM`` each; without such a group,
    from the sampled trajectories.
    """

    def __init__(
        self,
        store: HeuristicStore,
        events: EventStore,
        llm: LLMClient | None,
        settings: RSISettings,
        *,
        system_prompt: Callable[[], Awaitable[str]] | None = None,
        on_change: Callable[[], Awaitable[object]] | None = None,
        embeddings: Embeddings | None = None,
        cases: CaseBank | None = None,
    ) -> None:
        super().__init__(store, events, settings, on_change=on_change)
        self._cases = cases
        self.llm = llm
        self._embeddings = embeddings
        self._system_prompt = system_prompt

    async def run(
        self, domain: str | None = None, *, cycle_id: str | None = None
    ) -> CrystallizeReport:
        """Crystallize every domain over the threshold (or just ``domain``).

        A domain that fails is reported as skipped with the error (and logged);
        the other domains still get their turn, and what was crystallized
        still reaches the strategy book.
        """
        report = CrystallizeReport()
        domains = await self.store.crystallizable_domains(self.settings.crystallize_after, domain)
        for name in domains:
            try:
                result = await self._domain(name, cycle_id)
            except Exception as exc:  # one domain's failure must not cost the others their turn
                log.exception("crystallizing %s failed", name)
                why = clip(f"failed: {type(exc).__name__}: {exc}", ERROR_CHARS)
                result = DomainResult(name, "skipped", why)
            report.results.append(result)
            await self._record(result, cycle_id)
        if report.crystallized:
            await self._active_set_changed()
        return report

    async def _domain(self, domain: str, cycle_id: str | None) -> DomainResult:
        sample = stratified_sample(await self.store.undistilled_trajectories(domain))
        ids = tuple(t.id for t in sample)
        if self.llm is None:
            return DomainResult(domain, "skipped", "no model: crystallization needs an LLM", None)
        lesson = await self._shared_lesson(domain)
        try:
            return await self._distil(domain, sample, ids, cycle_id, lesson)
        except LLMUnavailableError as exc:
            return DomainResult(domain, "skipped", f"LLM unavailable: {exc}", trajectory_ids=ids)

    async def _shared_lesson(self, domain: str) -> list[Case]:
        """The largest group of the domain's undistilled cases that share what they teach."""
        if self._cases is None:
            return []
        pool = await self._cases.store.undistilled(domain)
        group = shared_lesson(pool, self._cases.settings.min_similarity)
        return group[:CASES_SHOWN]

    async def _distil(
        self,
        domain: str,
        sample: list[Trajectory],
        ids: tuple[str, ...],
        cycle_id: str | None,
        lesson: Sequence[Case] = (),
    ) -> DomainResult:
        if lesson:  # cases that share what they teach: the principle comes from them
            field = self._cases.settings.field_chars if self._cases else TRAJECTORY_CHARS
            shown = [case_text(c, n, field) for n, c in enumerate(lesson, 1)]
            prompt = case_principle_prompt(domain, shown)
        else:
            prompt = principle_prompt(domain, [trajectory_text(t) for t in sample])
        reply = await self._ask(prompt, PrincipleReply, "rsi_crystallize", PRINCIPLE_TEMPERATURE)
        principle = plain_text(reply.principle, PRINCIPLE_CHARS) if reply else ""
        if not principle:
            return DomainResult(domain, "skipped", "no usable principle in the reply",
                                trajectory_ids=ids)  # fmt: skip
        if _PLACEHOLDER.match(principle) or len(principle.split()) < MIN_PRINCIPLE_WORDS:
            why = f"not a principle: {principle!r} is a placeholder or under five words"
            return DomainResult(domain, "refused", why, principle=principle, trajectory_ids=ids)
        verdict = await self._ask(actionable_prompt(principle), JudgementReply, "rsi_actionable")
        if verdict is None or verdict.answer != "YES":
            why = "not actionable" if verdict else "no usable actionable verdict"
            return DomainResult(domain, "refused", why, principle=principle, trajectory_ids=ids)
        rejected = await self.store.with_status(HeuristicStatus.REJECTED, domain)
        if any(normalise(h.content) == normalise(principle) for h in rejected):
            why = "repeats a heuristic its trial rejected"
            return DomainResult(domain, "refused", why, principle=principle, trajectory_ids=ids)
        held = [
            *await self.store.active(domain),
            *await self.store.with_status(HeuristicStatus.CANDIDATE, domain),
        ]
        duplicate = await self._duplicate_of(principle, held)
        if duplicate is not None:
            await self.store.reinforce(duplicate.id, ids)
            return DomainResult(domain, "reinforced", f"repeats {duplicate.id}", duplicate.id,
                                principle, ids)  # fmt: skip
        heuristic = Heuristic(
            agent_id=self.store.agent_id,
            domain=domain,
            content=principle,
            status=HeuristicStatus.CANDIDATE,
        )
        await self.store.create(heuristic, ids, cycle_id=cycle_id)
        if lesson and self._cases is not None:
            await self._cases.store.link_distilled(heuristic.id, [c.id for c in lesson])
        return DomainResult(domain, "crystallized", "", heuristic.id, principle, ids)

    async def _duplicate_of(self, principle: str, active: list[Heuristic]) -> Heuristic | None:
        """The held heuristic the principle repeats, by text, embeddings or the model."""
        if not active:
            return None
        key = normalise(principle)
        for h in active:
            if normalise(h.content) == key:
                return h
        assert self.llm is not None
        texts = [principle, *(h.content for h in active)]
        vectors = await self._embeddings.embed(texts) if self._embeddings is not None else None
        if vectors is not None:
            scores = [cosine(vectors[0], v) for v in vectors[1:]]
            best = max(range(len(active)), key=lambda i: scores[i])
            return active[best] if scores[best] >= self.settings.dedup_similarity else None
        verdict = await self._ask(
            duplicate_prompt(principle, [h.content for h in active]), JudgementReply, "rsi_dedup"
        )
        if verdict is None or verdict.answer != "YES":
            return None
        if verdict.same_as is not None and 1 <= verdict.same_as <= len(active):
            return active[verdict.same_as - 1]
        # YES without a usable number: the one sharing the most words.
        words = set(key.split())
        return max(active, key=lambda h: len(words & set(normalise(h.content).split())))

    async def _ask(
        self, user: str, schema: type[M], step: str, temperature: float = JUDGE_TEMPERATURE
    ) -> M | None:
        assert self.llm is not None
        system = (
            await self._system_prompt()
            if self._system_prompt is not None
            else load_constitution().text
        )
        reply = await self.llm.complete_json(
            system=system, user=user, schema=schema, step=step, temperature=temperature
        )
        if reply.value is None:
            log.info("%s: no usable reply: %s", step, reply.error)
        return reply.value

    async def _record(self, result: DomainResult, cycle_id: str | None) -> None:
        data = {
            "domain": result.domain,
            "heuristic_id": result.heuristic_id,
            "principle": result.principle,
            "reason": result.reason,
            "trajectory_ids": list(result.trajectory_ids),
            "cycle_id": cycle_id,
        }
        kind = {
            "crystallized": "rsi_heuristic_crystallized",
            "reinforced": "rsi_heuristic_reinforced",
            "refused": "rsi_heuristic_refused",
            "skipped": "rsi_crystallize_skipped",
        }[result.outcome]
        await self.events.emit(kind, data)  # never raises: the audit stream logs its own failure
        log.info("crystallize %s: %s %s", result.domain, result.outcome, result.reason)
