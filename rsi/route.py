"""Step 5 of the cycle: route a desire to a practice domain (seed 003 D1-D5).

Seed 003's weighted keywords give a primary domain and, when it scores at
least half as much, a secondary one. ``code``, ``math`` and ``logic`` can be
practiced; ``creative`` and ``ambiguous`` cannot and wait for a person to name
the domain (``RSIEngine.clarify``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CODE, MATH, LOGIC, CREATIVE, AMBIGUOUS = "code", "math", "logic", "creative", "ambiguous"
PRACTICABLE = frozenset({CODE, MATH, LOGIC})
DOMAINS = frozenset({CODE, MATH, LOGIC, CREATIVE, AMBIGUOUS})

WEIGHTS: dict[str, dict[str, float]] = {
    CODE: {
        "code": 1.0, "programming": 1.0, "function": 0.8, "debug": 0.9, "implement": 0.7,
        "python": 1.0, "api": 0.6, "class": 0.7, "method": 0.7,
    },
    MATH: {
        "math": 1.0, "calculate": 0.9, "equation": 1.0, "proof": 0.8, "theorem": 0.9,
        "numerical": 0.7, "algebra": 0.9, "geometry": 0.9,
    },
    LOGIC: {
        "logic": 1.0, "reasoning": 0.8, "deduce": 0.9, "infer": 0.8, "argument": 0.7,
        "syllogism": 1.0, "prove": 0.6,
    },
    CREATIVE: {
        "creative": 1.0, "write": 0.7, "story": 0.9, "poem": 0.9, "design": 0.6,
        "aesthetic": 0.8,
    },
}  # fmt: skip
MAX_POSSIBLE = max(sum(w.values()) for w in WEIGHTS.values())
MIN_CONFIDENCE = 0.15
SECONDARY_SHARE = 0.5

_WORD = re.compile(r"[a-z]+")
# Inflections folded onto the keyword ("debugging" -> "debug", "equations" -> "equation"),
# matched whole so that "provenance" is not "prove" nor "classify" "class".
_SUFFIXES = ("ging", "ming", "ing", "ed", "es", "s", "al", "ally", "ly")


@dataclass(frozen=True)
class Routing:
    """Where a desire goes: primary domain, confidence 0-1, secondary domain or None."""

    domain: str
    confidence: float
    secondary: str | None

    @property
    def practicable(self) -> bool:
        """Whether the primary domain can be practiced without a person's word."""
        return self.domain in PRACTICABLE


def _stems(text: str) -> set[str]:
    words = set(_WORD.findall(text.lower()))
    stems = set(words)
    for word in words:
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                stems.add(word[: -len(suffix)])
    return stems


def classify(description: str) -> Routing:
    """Seed 003 D1 and D5: weighted keywords, primary and secondary domain."""
    stems = _stems(description)
    scores = {
        domain: sum(w for keyword, w in weights.items() if keyword in stems)
        for domain, weights in WEIGHTS.items()
    }
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, best_score), (second, second_score) = ranked[0], ranked[1]
    confidence = round(best_score / MAX_POSSIBLE, 4)
    if best_score == 0 or confidence < MIN_CONFIDENCE:
        return Routing(AMBIGUOUS, confidence, None)
    secondary = (
        second if second_score > 0 and second_score >= SECONDARY_SHARE * best_score else None
    )
    return Routing(best, confidence, secondary)
