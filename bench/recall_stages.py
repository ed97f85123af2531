"""Each ranking stage of a question's recall, measured alone: what ``bench.recall_quality`` prints.

The stages, in the order the product runs them (:mod:`cognition.recall.question`):
each method's own list (words, meaning); the former fusion (words 0.7, k 60, before issue 27);
reciprocal rank fusion at equal weights and k 5 (the question's until issue 27's second
round); the question's fusion by scores (words 0.7, meaning 0.3); the relevance floor; then the
candidates of the second stage, each on the floored list: MMR (diversity) and
recency at a weight, whether or not the product keeps them. A stage's gain or
loss is its recall@5 and MRR less the stage it follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from cognition.embeddings import Vector
from cognition.recall.hybrid import HybridRecall, fuse
from cognition.recall.question import CANDIDATES, DIVERSITY, QUESTION_WEIGHTS, RECENCY
from cognition.recall.rank import above_floor, combine, diversify, prefer_recent
from graph.store.recall import Hit

TOP = 10
TRIED_DIVERSITY = 0.3
TRIED_RECENCY = 0.1
RANK_FUSED = "fused by ranks (equal, k 5)"
SCORE_FUSED = "fused by scores (words 0.7)"
# The product's ranking: the floor, then MMR and recency only where kept (weights above 0).
PRODUCT = "+ relevance floor"
assert DIVERSITY == 0 and RECENCY == 0, "a kept stage must be measured as the product's ranking"
# stage -> the stage it is measured against ("" for none)
STAGES = {
    "words": "",
    "meaning": "",
    "fused, former (words 0.7, k 60)": "",
    RANK_FUSED: "fused, former (words 0.7, k 60)",
    SCORE_FUSED: RANK_FUSED,
    "+ relevance floor": SCORE_FUSED,
    f"+ MMR {TRIED_DIVERSITY}": "+ relevance floor",
    f"+ recency {TRIED_RECENCY}": "+ relevance floor",
}


async def stage_rankings(
    hybrid: HybridRecall, question: str, vector: Vector
) -> dict[str, list[str]]:
    """The ids each stage ranks for ``question``, best first (the top ``TOP``)."""
    found = await hybrid.search(question, vector=vector, limit=CANDIDATES, useful_only=True)
    lists: dict[str, Sequence[Hit]] = {"words": found.words, "meaning": found.meaning}
    former = fuse(lists)
    by_ranks = fuse(lists, k=5, weights={"words": 1.0, "meaning": 1.0})
    asked = combine(lists, QUESTION_WEIGHTS)
    floored = above_floor(asked, question, {h.id: h.score for h in found.meaning})
    ranked = {
        "words": [h.id for h in found.words],
        "meaning": [h.id for h in found.meaning],
        "fused, former (words 0.7, k 60)": [i.id for i in former],
        RANK_FUSED: [i.id for i in by_ranks],
        SCORE_FUSED: [i.id for i in asked],
        "+ relevance floor": [i.id for i in floored],
        f"+ MMR {TRIED_DIVERSITY}": [i.id for i in diversify(floored, TRIED_DIVERSITY, TOP)],
        f"+ recency {TRIED_RECENCY}": [i.id for i in prefer_recent(floored, TRIED_RECENCY)],
    }
    return {stage: ids[:TOP] for stage, ids in ranked.items()}


def rank_of(ids: Sequence[str], answers: set[str]) -> int:
    """The 1-based rank of the first answer in ``ids``, 0 when none is there."""
    return next((n + 1 for n, i in enumerate(ids) if i in answers), 0)


def scores(ranks: Sequence[int]) -> tuple[float, float]:
    """recall@5 and MRR (over the top ``TOP``) of a list of first-answer ranks."""
    at5 = sum(1 for r in ranks if 0 < r <= 5) / len(ranks)
    mrr = sum(1 / r for r in ranks if r > 0) / len(ranks)
    return at5, mrr


def report_stages(ranks: dict[str, list[int]]) -> dict[str, tuple[float, float]]:
    """Print each stage's recall@5 and MRR and its gain or loss; return the scores."""
    print(f"{'stage':<34} {'R@5':>6} {'MRR':>6}   gain against")
    measured = {stage: scores(ranks[stage]) for stage in STAGES}
    for stage, base in STAGES.items():
        at5, mrr = measured[stage]
        gain = ""
        if base:
            b5, bm = measured[base]
            gain = f"{at5 - b5:+.3f} / {mrr - bm:+.3f}  {base}"
        print(f"{stage:<34} {at5:>6.3f} {mrr:>6.3f}   {gain}")
    print(f"kept in the product: MMR weight {DIVERSITY}, recency weight {RECENCY} "
          "(0: measured and not kept)")  # fmt: skip
    return measured
