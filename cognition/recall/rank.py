"""How a question's recall ranks: the fusion by scores, relevance floor, diversity, recency.

Hybrid recall (:mod:`cognition.recall.hybrid`) finds candidates by words,
meaning and the graph. A question's are merged by :func:`combine` (a weighted
sum of each method's normalised scores, not of ranks), and what comes after
works on the merged candidates only. Each stage is measured by
``bench.recall_quality`` (recall@5 and MRR, printed per stage) and switched on
only where it helped:

* :func:`above_floor` drops what no method found relevant enough: an item
  found by meaning alone below :data:`MEANING_FLOOR`, or by words alone
  sharing too few of the question's words (half of them, two at most; stop
  words never count). It is what lets recall answer nothing when nothing in
  memory is about the question.
* :func:`diversify` is maximal marginal relevance (Carbonell and Goldstein):
  each next item is the one with the best fused score less ``weight`` times
  its word overlap (Jaccard) with the items already taken, so five near
  copies of one memory do not fill the answer.
* :func:`prefer_recent` adds ``weight`` times a recency share (the newest
  candidate 1, the oldest 0) to each fused score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from cognition.recall.hybrid import RecalledItem, merge
from graph.store.lucene import query_words
from graph.store.recall import Hit

# Hybrid scores of meaning are cosine mapped to [0, 1]: (1 + cos) / 2. The embedded model
# (multilingual-e5-small) puts unrelated English sentences at about cos 0.70-0.78.
MEANING_FLOOR = 0.89
MIN_SHARED_WORDS = 2
_WORD = re.compile(r"[^\W_]{3,}")
# The word indexes stem (Lucene's English analyzer): "failed" matched "fail". The floor
# compares words the same way, near enough: the common English endings are cut.
_ENDINGS = ("ingly", "edly", "ing", "ies", "ied", "es", "ed", "ly", "s")


def stem(word: str) -> str:
    """``word`` without its English ending (at least three letters are kept)."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def words_of(text: str) -> set[str]:
    """The stems of the lowercased words of three letters or more in ``text``."""
    return {stem(word) for word in _WORD.findall(text.lower())}


def combine(rankings: dict[str, Sequence[Hit]], weights: dict[str, float]) -> list[RecalledItem]:
    """Each item scored the weighted sum of its methods' normalised scores; best first.

    Convex combination (Bruch, Gai and Ingber, "An Analysis of Fusion Functions for
    Hybrid Retrieval", 2023), not reciprocal ranks: a words hit far ahead of the rest
    keeps its lead, where rank fusion gives every method's first hit the same weight.
    Words (BM25, 0 at worst) are divided by the best words score; meaning and the graph
    are rescaled to [0, 1] over their own candidates (one model's cosines sit in a narrow
    band; the graph's scores are minus a rank). A method that did not find an item adds 0.
    """
    return merge(
        {
            method: [
                (hit, weights.get(method, 0.0) * share) for hit, share in _normalised(method, hits)
            ]
            for method, hits in rankings.items()
        }
    )


def _normalised(method: str, hits: Sequence[Hit]) -> list[tuple[Hit, float]]:
    """``hits`` best first, each with its score rescaled to [0, 1] (see :func:`combine`)."""
    if not hits:
        return []
    ordered = sorted(hits, key=lambda h: -h.score)
    top, bottom = ordered[0].score, ordered[-1].score
    if method == "words" and top > 0:
        return [(h, max(h.score, 0.0) / top) for h in ordered]
    span = top - bottom
    return [(h, (h.score - bottom) / span if span > 0 else 1.0) for h in ordered]


def above_floor(
    items: Sequence[RecalledItem], question: str, meaning: dict[str, float]
) -> list[RecalledItem]:
    """The items some method found relevant enough (``meaning``: id -> its meaning score).

    Found by the graph (the same file or session): kept. By meaning: kept at
    :data:`MEANING_FLOOR` or above. By words: kept when the item shares half the
    question's words (rounded up), or :data:`MIN_SHARED_WORDS` of them if that is fewer;
    a fact's context (what was remembered just before it) counts, as the words index
    searched it too.
    """
    asked = {stem(word) for word in query_words([question])}
    needed = min(MIN_SHARED_WORDS, math.ceil(len(asked) / 2))
    kept = []
    for item in items:
        by_words = "words" in item.found_by and needed > 0
        if (
            "graph" in item.found_by
            or meaning.get(item.id, 0.0) >= MEANING_FLOOR
            or (by_words and len(asked & words_of(f"{item.context} {item.text}")) >= needed)
        ):
            kept.append(item)
    return kept


def diversify(items: Sequence[RecalledItem], weight: float, limit: int) -> list[RecalledItem]:
    """Maximal marginal relevance over the fused order: at most ``limit`` items.

    Scores are rescaled to [0, 1] first, so ``weight`` means the same whatever
    the fusion's scale.
    """
    if weight <= 0 or len(items) < 2:
        return list(items[:limit])
    top, bottom = items[0].score, items[-1].score
    span = (top - bottom) or 1.0
    left = [(item, (item.score - bottom) / span, words_of(item.text)) for item in items]
    taken: list[tuple[RecalledItem, set[str]]] = []
    while left and len(taken) < limit:

        def marginal(i: int) -> float:
            overlap = max((_jaccard(left[i][2], words) for _, words in taken), default=0.0)
            return left[i][1] - weight * overlap

        item, _, words = left.pop(max(range(len(left)), key=marginal))
        taken.append((item, words))
    return [item for item, _ in taken]


def prefer_recent(items: Sequence[RecalledItem], weight: float) -> list[RecalledItem]:
    """The items re-sorted by fused score plus ``weight`` times their recency share."""
    if weight <= 0 or len(items) < 2:
        return list(items)
    times = sorted({item.at for item in items if item.at})
    if len(times) < 2:
        return list(items)
    share = {at: n / (len(times) - 1) for n, at in enumerate(times)}
    top = max(item.score for item in items) or 1.0
    rescored = [
        replace(item, score=item.score + weight * top * share.get(item.at or "", 0.0))
        for item in items
    ]
    return sorted(rescored, key=lambda item: -item.score)


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
