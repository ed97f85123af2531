"""The exact paired test the benchmarks print: the one heuristic trials decide with."""

from rsi.stats import McNemar, binomial_two_sided, mcnemar_exact

__all__ = ["McNemar", "binomial_two_sided", "mcnemar_exact"]
