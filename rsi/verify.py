"""Step 3 of the cycle: verify that a desire emerged (seed 003 E3-E5).

Score = provenance x 0.5 + specificity x 0.5. Provenance says how well the
desire is grounded in what the agent was shown; specificity comes from the
model (a bad reply counts 0.5) or, without one, from keywords. A desire at or
above the threshold is ``verified``; below it, ``rejected`` with its score and
reason, and never retried automatically.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from graph.models import Desire
from rsi.prompts import SpecificityReply, specificity_prompt

BAD_REPLY_SPECIFICITY = 0.5

_WORD = re.compile(r"[a-z_]+")
# Words that name something concrete enough to practice.
_SPECIFIC = frozenset(
    {
        "python", "code", "coding", "pytest", "test", "tests", "async", "regex", "parse",
        "parsing", "sort", "sorting", "recursion", "string", "strings", "list", "lists", "dict",
        "json", "yaml",
        "sql", "cypher", "debug", "debugging", "function", "functions", "algorithm", "template",
        "timeout", "failures", "error", "errors", "exception", "file", "files", "path", "numbers",
        "integer", "prime", "fibonacci", "equation", "algebra", "proof", "syllogism", "logic",
        "fixtures", "mocking", "threshold", "decisions", "pattern", "api", "class", "method",
    }
)  # fmt: skip
_VAGUE = frozenset({"better", "improve", "more", "things", "stuff", "generally", "good", "smarter"})


@dataclass(frozen=True)
class Verdict:
    """Whether a desire passed, its score, and the two halves."""

    verified: bool
    score: float
    provenance: float
    specificity: float
    reason: str | None


_SYSTEM = "You rate improvement desires. Reply with one JSON object."


def provenance_score(desire: Desire) -> float:
    """How well grounded a desire is (E1, E2).

    A reflection citing only shown nodes scores 1.0; each dropped citation
    lowers it; a reflection citing nothing scores 0.2; a bootstrap desire 0.5
    and an external request 0.0 (it did not emerge, a person asked).
    """
    if desire.origin == "external":
        return 0.0
    if desire.origin == "bootstrap":
        return 0.5
    cited, dropped = desire.cited, desire.dropped_citations
    if cited == 0:
        return 0.2
    return 0.5 + 0.5 * cited / (cited + dropped)


def keyword_specificity(description: str) -> float:
    """The fallback specificity: concrete words and length raise it, vague words lower it."""
    words = _WORD.findall(description.lower())
    specific = len({w for w in words if w in _SPECIFIC})
    vague = sum(1 for w in words if w in _VAGUE)
    score = 0.3 + min(0.5, 0.1 * specific) + (0.2 if len(words) >= 6 else 0.0) - 0.1 * vague
    return round(min(1.0, max(0.0, score)), 3)


class EmergenceVerifier:
    """Scores desires against ``rsi.emergence_threshold``.

    ``system`` is the system message of the model's requests: the cycle's
    constitution and strategies (seed 003 A1).
    """

    def __init__(
        self, threshold: float, llm: LLMClient | None = None, *, system: str = _SYSTEM
    ) -> None:
        self.threshold = threshold
        self.llm = llm
        self.system = system

    async def specificity(self, description: str) -> float:
        """From the model when there is one and it answers, else from keywords."""
        if self.llm is None:
            return keyword_specificity(description)
        try:
            reply = await self.llm.complete_json(
                system=self.system,
                user=specificity_prompt(description),
                schema=SpecificityReply,
                step="rsi.specificity",
            )
        except LLMUnavailableError:
            return keyword_specificity(description)
        return reply.value.specificity if reply.value is not None else BAD_REPLY_SPECIFICITY

    async def verify(self, desire: Desire) -> Verdict:
        """Score one desire and say whether it passes."""
        provenance = provenance_score(desire)
        specificity = await self.specificity(desire.description)
        score = round(provenance * 0.5 + specificity * 0.5, 4)
        if score >= self.threshold:
            return Verdict(True, score, provenance, specificity, None)
        weak = []
        if provenance < 0.5:
            weak.append(f"weak provenance ({provenance:.2f})")
        if specificity < 0.5:
            weak.append(f"vague ({specificity:.2f})")
        reason = f"score {score:.2f} below {self.threshold:.2f}" + (
            f": {', '.join(weak)}" if weak else ""
        )
        return Verdict(False, score, provenance, specificity, reason)
