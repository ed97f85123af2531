"""The case bank (issue 25): the one module that writes cases and shows them as worked examples.

Practice, trials (:mod:`rsi`) and Claude Code sessions (:mod:`cognition.chat`)
write a case only for an attempt that was verified (tests passed, or a later
tool call did what a failed one meant to do). Before the next attempt,
:meth:`CaseBank.recall` finds the few most similar active cases by words
(the ``case_words`` full-text index), by the dotted names the task gives as
code (a case whose working code calls ``tally.find`` for a task that names
``tally.find``, whatever their other words) and by meaning (the case's
vector, when the vector job has written one, compared in memory: the bank
is capped), fuses the lists by reciprocal rank, and keeps by words only what
reaches ``cases.min_similarity`` (the share of the task's words found in the
case's task and error, not counting words most of a bank of four or more
cases shares, such as a library's name) and by meaning only what reaches
``cases.min_cosine``, so a task unlike anything seen gets no examples at all.
:func:`worked_examples` fences what it shows as data, within
``cases.max_tokens``; :meth:`credit` counts each use as helpful or harmful by
the attempt's outcome. A new case that repeats one already kept
(``cases.duplicate_similarity`` of words both ways) reinforces it instead of
adding another.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cognition.code_notes import prompt_names
from cognition.embeddings import Embeddings, Vector, cosine
from cognition.text import clip, estimate_tokens, fence
from graph.models import Case, CaseSource
from graph.store.cases import CaseStore

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.settings import CaseSettings
    from graph.settings_lean import HookCases

_WORD = re.compile(r"[a-z][a-z0-9]+")
# Words that say nothing about what a task is about.
_COMMON = frozenset(
    {
        "the", "and", "for", "that", "this", "with", "from", "are", "was", "not", "but", "you",
        "your", "return", "returns", "def", "function", "given", "write", "python", "int", "str",
        "list", "true", "false", "none", "import", "typing", "float", "each", "all", "its",
        "into", "one", "two", "should", "must", "will", "can", "which", "when", "what",
    }
)  # fmt: skip
_RRF_K = 60
# A word in more than this share of a bank of at least COMMON_BANK cases is not a similarity.
COMMON_SHARE = 0.5
COMMON_BANK = 4
EXAMPLES_LABEL = "worked examples from your memory: past tasks and what worked"


def terms(text: str) -> set[str]:
    """The content words of ``text`` (lower case; identifiers split at ``_``)."""
    return {w for w in _WORD.findall(text.lower().replace("_", " ")) if w not in _COMMON}


def word_similarity(query: str, text: str, common: frozenset[str] = frozenset()) -> float:
    """The share of ``query``'s content words found in ``text`` (0.0 when it has none);
    words in ``common`` (see :func:`common_words`) are not counted."""
    wanted = terms(query) - common
    return len(wanted & terms(text)) / len(wanted) if wanted else 0.0


def common_words(texts: Sequence[str]) -> frozenset[str]:
    """The words found in more than :data:`COMMON_SHARE` of ``texts`` (when there are at least
    :data:`COMMON_BANK`): in a bank where nearly every case names the same library or repeats
    the same task template ("write", "using"), those words say nothing about which case is
    close, and a task sharing only them is not similar to any."""
    if len(texts) < COMMON_BANK:
        return frozenset()
    counts: dict[str, int] = {}
    for text in texts:
        for word in terms(text):
            counts[word] = counts.get(word, 0) + 1
    return frozenset(w for w, n in counts.items() if n > COMMON_SHARE * len(texts))


@dataclass(frozen=True)
class Recalled:
    """Cases to show before one attempt, and how close each came."""

    cases: list[Case]
    scores: list[float]

    @property
    def ids(self) -> list[str]:
        """The ids of the cases shown (what the attempt's outcome credits)."""
        return [c.id for c in self.cases]


class CaseBank:
    """One agent's cases: written once verified, recalled by similarity, credited by outcome."""

    def __init__(
        self,
        store: CaseStore,
        settings: CaseSettings | HookCases,
        embeddings: Embeddings | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.embeddings = embeddings

    async def write(
        self,
        *,
        domain: str,
        source: CaseSource,
        task: str,
        worked: str,
        failed_attempt: str = "",
        error: str = "",
        from_id: str | None = None,
        episode_id: str | None = None,
    ) -> str | None:
        """Keep one verified attempt as a case; return its id (a repeat's: the kept case's).

        Call it only for an attempt that was verified; nothing here can check that.
        """
        if not self.settings.enabled or not task.strip() or not worked.strip():
            return None
        limit = self.settings.field_chars
        task, worked = clip(task.strip(), limit), clip(worked.strip(), limit)
        failed_attempt = clip(failed_attempt.strip(), limit)
        error = clip(error.strip(), limit, keep_tail=True)
        for hit in await self.store.search(task, domain, 3):
            if self._repeats(task, hit.case.task):
                await self.store.reinforce(
                    hit.case.id, task=task, worked=worked, failed_attempt=failed_attempt,
                    error=error,
                )  # fmt: skip
                return hit.case.id
        case = Case(
            agent_id=self.store.agent_id,
            domain=domain,
            source=source,
            task=task,
            worked=worked,
            failed_attempt=failed_attempt,
            error=error,
        )
        return await self.store.record(case, from_id=from_id, episode_id=episode_id)

    def _repeats(self, task: str, kept: str) -> bool:
        floor = self.settings.duplicate_similarity
        return word_similarity(task, kept) >= floor and word_similarity(kept, task) >= floor

    async def recall(self, task: str, domain: str | None, limit: int | None = None) -> Recalled:
        """The most similar active cases, best first: by words and by meaning above their
        floors, and those whose working code calls a dotted name the task gives."""
        most = self.settings.per_prompt if limit is None else limit
        if not self.settings.enabled or most <= 0 or not task.strip():
            return Recalled([], [])
        found: dict[str, Case] = {}
        hits = await self.store.search(task, domain, most * 4)
        named = qualified_names(task)
        # One read of the bank serves the common words, the names and the vectors.
        pool = await self.store.active(domain) if hits or named or self.embeddings else []
        common = common_words([_case_words(c) for c, _ in pool]) if hits else frozenset()
        words = [
            hit.case
            for hit in hits
            if word_similarity(task, _case_words(hit.case), common) >= self.settings.min_similarity
        ]
        meaning = await self._by_meaning(task, pool)
        fused: dict[str, float] = {}
        for ranked in (words, by_name(named, [c for c, _ in pool]), meaning):
            for rank, case in enumerate(ranked):
                found[case.id] = case
                fused[case.id] = fused.get(case.id, 0.0) + 1.0 / (_RRF_K + rank + 1)
        best = sorted(fused, key=lambda i: (-fused[i], i))[:most]
        return Recalled([found[i] for i in best], [fused[i] for i in best])

    async def _by_meaning(
        self, task: str, pool: Sequence[tuple[Case, Vector | None]]
    ) -> list[Case]:
        vectors = [(c, v) for c, v in pool if v is not None]
        if self.embeddings is None or not vectors:
            return []
        query = await self.embeddings.query(task)
        if query is None:
            return []
        scored = [(cosine(query, v), c) for c, v in vectors]
        close = [(s, c) for s, c in scored if s >= self.settings.min_cosine]
        return [c for _, c in sorted(close, key=lambda sc: (-sc[0], sc[1].id))]

    async def random(self, domain: str | None, count: int, rng: random.Random) -> Recalled:
        """``count`` active cases drawn at random (the control of recall by similarity)."""
        pool = [c for c, _ in await self.store.active(domain)]
        chosen = rng.sample(pool, min(count, len(pool)))
        return Recalled(chosen, [0.0] * len(chosen))

    async def credit(self, case_ids: Sequence[str], *, passed: bool) -> int:
        """Credit each case shown to an attempt: helpful when it passed, harmful when not."""
        return await self.store.credit(case_ids, helpful=passed)


def qualified_names(task: str) -> list[str]:
    """The dotted names ``task`` speaks of as code (``tally.span``, ``db.Table.transform``): a
    module's or an object's own function, the surest sign two tasks use the same thing."""
    return [name for name in prompt_names(task) if "." in name]


def by_name(names: Sequence[str], cases: Sequence[Case]) -> list[Case]:
    """The cases whose working code calls one of ``names``, most of them first (then the
    better credited, then the newer): a worked example of the very function a task names,
    however different the two tasks' words."""
    if not names:
        return []
    calls = [re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(") for name in names]
    scored = [(sum(1 for call in calls if call.search(c.worked)), c) for c in cases]
    ranked = sorted(
        ((n, c) for n, c in scored if n),
        key=lambda nc: (-nc[0], nc[1].harmful - nc[1].helpful, -nc[1].at.timestamp(), nc[1].id),
    )
    return [c for _, c in ranked]


def _case_words(case: Case) -> str:
    """What a task is compared with: the case's task and error."""
    return f"{case.task}\n{case.error}"


def shared_lesson(cases: Sequence[Case], floor: float, least: int = 2) -> list[Case]:
    """The largest group of cases whose errors share what they teach (at least ``least``).

    Each case's group holds the cases whose error has ``floor`` of its words in
    common with that case's error, both ways; the largest group wins (the older
    seed on a tie); ``[]`` when none reaches ``least``.
    """
    best: list[Case] = []
    for seed in cases:
        group = [
            c
            for c in cases
            if word_similarity(seed.error, c.error) >= floor
            and word_similarity(c.error, seed.error) >= floor
        ]
        if len(group) > len(best):
            best = group
    return best if len(best) >= least else []


def case_text(case: Case, number: int, limit: int, *, failed_code: bool = True) -> str:
    """One case as a worked example: the task, the failed try and its error, what worked.

    With ``failed_code=False`` (an example an attempt is about to follow) what worked comes
    first and the failure is told by its error alone: a small model copies the failed code of
    an example even with the working code right below it (stock's ``first_4`` took the
    failed ``cut(items, 0, n - 1)`` of ``first_5``'s attempt, where no example wrote
    ``cut(items, 0, n)``), while the error says what the failure taught.
    """
    parts = [f"Example {number} ({case.domain}). Task:\n{clip(case.task, limit)}"]
    if not failed_code:
        parts.append(f"What worked:\n{clip(case.worked, limit)}")
        if case.error:
            parts.append(
                f"An attempt before it failed with:\n{clip(case.error, limit, keep_tail=True)}"
            )
        return "\n".join(parts)
    if case.error:
        if case.failed_attempt:
            parts.append(f"A first attempt:\n{clip(case.failed_attempt, limit)}")
        parts.append(f"It failed with:\n{clip(case.error, limit, keep_tail=True)}")
    parts.append(f"What worked:\n{clip(case.worked, limit)}")
    return "\n".join(parts)


def worked_examples(
    cases: Sequence[Case], max_tokens: int, field_chars: int = 1500
) -> tuple[str, list[str]]:
    """The cases as one block fenced as data, as many as fit ``max_tokens``, and the ids of
    those shown (``("", [])`` for none): only a case shown is credited."""
    shown: list[str] = []
    ids: list[str] = []
    for case in cases:
        text = case_text(case, len(shown) + 1, field_chars, failed_code=False)
        if estimate_tokens("\n\n".join([*shown, text])) > max_tokens:
            break
        shown.append(text)
        ids.append(case.id)
    if not shown:
        return "", []
    return fence("\n\n".join(shown), EXAMPLES_LABEL), ids
