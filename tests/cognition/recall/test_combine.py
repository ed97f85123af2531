"""A question's candidates are merged by their scores (convex combination), not their ranks."""

from __future__ import annotations

from cognition.recall.hybrid import fuse
from cognition.recall.question import QUESTION_WEIGHTS
from cognition.recall.rank import combine
from graph.store.recall import Hit


def _hits(*scored: tuple[str, float]) -> list[Hit]:
    return [Hit("Fact", name, f"text {name}", score) for name, score in scored]


WORDS = _hits(("clear", 9.0), ("weak", 2.0), ("other", 1.8))  # BM25: one clear winner
MEANING = _hits(("weak", 0.95), ("near", 0.93), ("far", 0.90))  # cosines in a narrow band


def test_a_clear_words_winner_outranks_a_weak_agreement() -> None:
    merged = combine({"words": WORDS, "meaning": MEANING}, QUESTION_WEIGHTS)
    assert [m.id for m in merged][:2] == ["clear", "weak"]
    # Rank fusion put the weak agreement first: every method's first hit weighs the same.
    by_ranks = fuse({"words": WORDS, "meaning": MEANING}, k=5, weights={"words": 1, "meaning": 1})
    assert by_ranks[0].id == "weak"
    clear, weak = merged[0], merged[1]
    assert clear.found_by == ("words",) and weak.found_by == ("words", "meaning")
    assert abs(clear.score - 0.7) < 1e-9  # words 0.7 x 9/9, meaning 0
    assert abs(weak.score - (0.7 * 2 / 9 + 0.3 * 1.0)) < 1e-9


def test_meaning_decides_among_close_words_hits() -> None:
    words = _hits(("a", 5.0), ("b", 4.9))
    meaning = _hits(("b", 0.93), ("c", 0.91), ("d", 0.88))
    merged = combine({"words": words, "meaning": meaning}, QUESTION_WEIGHTS)
    assert [m.id for m in merged] == ["b", "a", "c", "d"]
    assert merged[-1].score == 0.0  # the last of meaning's band adds nothing


def test_scores_of_any_sign_and_a_lone_hit_are_rescaled() -> None:
    graph = _hits(("g1", -1.0), ("g2", -2.0), ("g3", -3.0))  # minus a rank
    lone = _hits(("m", 0.8))
    merged = combine({"words": [], "meaning": lone, "graph": graph}, QUESTION_WEIGHTS)
    scores = {m.id: m.score for m in merged}
    assert scores == {"m": 0.3, "g1": 0.3, "g2": 0.15, "g3": 0.0}
    assert combine({"words": [], "meaning": []}, QUESTION_WEIGHTS) == []


def test_an_item_listed_twice_by_one_method_counts_once() -> None:
    twice = _hits(("a", 3.0), ("a", 3.0), ("b", 1.5))
    merged = combine({"words": twice}, {"words": 0.7})
    assert [(m.id, m.score, m.found_by) for m in merged] == [
        ("a", 0.7, ("words",)),
        ("b", 0.35, ("words",)),
    ]
