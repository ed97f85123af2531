"""Recall on conversations: each turn remembered as a fact, questions with known evidence turns.

    python -m bench.recall_quality --conversation conv-26.json conv-30.json

Reads conversations in the LoCoMo layout (``session_N`` lists of turns with
``speaker``, ``dia_id`` and ``text``; ``session_N_date_time``; ``qa`` with
``question``, ``evidence`` and ``category``; category 5, the adversarial
questions, is left out). No data set ships with Nous: give the files. Every
turn is written as the MCP ``remember`` tool writes a fact ("Speaker (date):
text"), the vector job embeds them, and each question is asked twice:

* through every ranking stage (:mod:`bench.recall_stages`), recall@5 and MRR
  against the evidence turns;
* through the one door, :class:`cognition.recall.question.QuestionRecall` (what
  ``nous mcp``'s ``recall`` answers), counting a hit when a shown turn is
  evidence, against a plain BM25 (Okapi, k1 1.2, b 0.75, every word) returning
  as many turns as the answer showed. Target (issue 27): at least 1.3x.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.common import bench_settings, connected, report_checks, scratch_agent
from bench.recall_stages import rank_of, report_stages, stage_rankings
from cognition.embeddings import EmbeddedE5, Embeddings
from cognition.recall.hybrid import HybridRecall
from cognition.recall.question import QuestionRecall
from cognition.recall.vectors import VectorJob
from cognition.text import plain_text
from graph.models import Fact, new_id
from graph.settings import EmbeddingSettings
from graph.store.memory import Memory

_WORD = re.compile(r"[a-z0-9]+")


def turns_of(conversation: dict[str, Any]) -> list[tuple[str, str]]:
    """(dia_id, "Speaker (date): text") for every turn, in order; a shared photo described."""
    turns = []
    n = 1
    while f"session_{n}" in conversation:
        date = conversation.get(f"session_{n}_date_time", "")
        for turn in conversation[f"session_{n}"]:
            text = turn["text"]
            if turn.get("blip_caption"):
                text += f" [shares a photo of {turn['blip_caption']}]"
            turns.append((turn["dia_id"], plain_text(f"{turn['speaker']} ({date}): {text}")))
        n += 1
    return turns


class BM25:
    """Plain Okapi BM25 over lowercased words: the baseline a 40-line script would be."""

    def __init__(self, texts: list[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.docs = [Counter(_WORD.findall(t.lower())) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.average = sum(self.lengths) / max(len(self.docs), 1)
        self.df = Counter(w for d in self.docs for w in d)
        self.k1, self.b = k1, b

    def rank(self, query: str) -> list[int]:
        """Indexes of the texts, best first."""
        words = set(_WORD.findall(query.lower()))
        n = len(self.docs)
        scores = []
        for doc, length in zip(self.docs, self.lengths, strict=True):
            score = 0.0
            for w in words & doc.keys():
                idf = math.log(1 + (n - self.df[w] + 0.5) / (self.df[w] + 0.5))
                norm = self.k1 * (1 - self.b + self.b * length / self.average)
                score += idf * doc[w] * (self.k1 + 1) / (doc[w] + norm)
            scores.append(score)
        return sorted(range(n), key=lambda i: -scores[i])


async def remember(memory: Memory, turns: list[tuple[str, str]]) -> list[str]:
    """Write each turn as a fact, as one client session tells them; return the ids in order.

    The source is the conversation's session (``D3`` of the turn ``D3:7``): a client telling
    a conversation turn by turn names it the same way each time, so each turn is kept in
    its context (the turn before it in that session).
    """
    ids = []
    session_id = f"bench-{new_id()}"
    for dia_id, text in turns:
        fact = Fact(agent_id=memory.agent_id, content=text)
        source = f"conversation {dia_id.split(':')[0]}"
        ids.append(await memory.episodes.remember_fact(fact, source=source, session_id=session_id))
    await memory.await_text_indexes()
    return ids


async def run_conversations(files: list[Path], threads: int) -> bool:
    """Measure every conversation in ``files``; print stages and the door against BM25."""
    settings = bench_settings()
    # A small cache: the stages and the door embed each question once between them.
    embeddings = Embeddings(EmbeddedE5(threads=threads), cache_size=64)
    ranks: dict[str, list[int]] = defaultdict(list)
    door: Counter[str] = Counter()
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        for path in files:
            async with scratch_agent(driver, "conversation") as memory:
                await _measure(memory, path, embeddings, ranks, door)
    report_stages(ranks)
    return report_door(door, "the door (nous mcp recall)", files)


def report_door(door: Counter[str], what: str, files: list[Path]) -> bool:
    """Print how often ``what`` showed a question's evidence against plain BM25 showing as
    many turns; True when at 1.3x or more. No question with evidence: exit saying so."""
    hit, base, n = door["hit"], door["bm25"], door["questions"]
    if not n:
        names = ", ".join(path.name for path in files)
        raise SystemExit(f"bench.recall_quality: no question with evidence in {names}")
    shown = door["shown"] / n
    print(
        f"{what}: evidence shown for {hit / n:.3f} of {n} questions, {shown:.2f} turns on"
        f" average; plain BM25 as many turns: {base / n:.3f}"
    )
    ratio = hit / base if base else float("inf")
    return report_checks([(ratio >= 1.3, f"recall {ratio:.2f}x plain BM25 at equal size (>= 1.3)")])


async def read_conversation(path: Path) -> dict[str, Any]:
    """A LoCoMo conversation file: its sessions and its questions (``qa``) in one mapping."""
    raw: dict[str, Any] = json.loads(await asyncio.to_thread(path.read_text, encoding="utf-8"))
    sessions: dict[str, Any] = raw.get("conversation", raw)
    return sessions | {"qa": raw["qa"]}


async def _measure(
    memory: Memory,
    path: Path,
    embeddings: Embeddings,
    ranks: dict[str, list[int]],
    door: Counter[str],
) -> None:
    conversation = await read_conversation(path)
    turns = turns_of(conversation)
    ids = await remember(memory, turns)
    with tempfile.TemporaryDirectory() as root:
        job = VectorJob(memory, embeddings, EmbeddingSettings(max_per_run=100_000), Path(root))
        start = time.perf_counter()
        written = await job.backfill()
    print(f"{path.name}: {len(turns)} turns, {written} embedded in "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    hybrid = HybridRecall(memory, embeddings, EmbeddingSettings())
    answering = QuestionRecall(hybrid)
    bm25 = BM25([text for _, text in turns])
    where = {dia_id: n for n, (dia_id, _) in enumerate(turns)}
    for qa in conversation["qa"]:
        evidence = {where[e] for e in qa.get("evidence", []) if e in where}
        if qa.get("category") == 5 or not evidence:
            continue
        vector = await embeddings.query(qa["question"])
        assert vector is not None
        answers = {ids[n] for n in evidence}
        for stage, found in (await stage_rankings(hybrid, qa["question"], vector)).items():
            ranks[stage].append(rank_of(found, answers))
        answer = await answering.answer(qa["question"])
        # A turn counts as shown as an item, never as the context shown after another one.
        items = "\n".join(line.split(" (after: ")[0] for line in answer.text.splitlines())
        shown = [n for n, (_, text) in enumerate(turns) if plain_text(text, 400) in items]
        door["questions"] += 1
        door["shown"] += len(shown)
        door["hit"] += bool(evidence & set(shown))
        door["bm25"] += bool(evidence & set(bm25.rank(qa["question"])[: len(shown)]))
