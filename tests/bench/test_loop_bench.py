"""bench.loop decides through ``DecisionLoop.tick`` (the daemon's path), several files at once."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from bench.loop import run


@pytest.mark.usefixtures("neo4j_in_environ")  # the bench finds the tests' server
async def test_bench_loop_decides_every_observation_through_ticks() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        await run(20 + 12, concurrency=3, warmup=20)  # 20 warm-up decisions, 12 timed
    printed = out.getvalue()
    assert "12 decisions (rules reasoner, dry-run executors)" in printed
    assert "warm-up: 20 decisions untimed" in printed
    assert "up to 3 files at once" in printed
    assert "decisions: 8 act, 4 wait" in printed
    # recall and the decision (a dry-run ACT's execution in the same write), and the ticks'
    # own two reads per tick, shared by the tick's decisions.
    [line] = [x for x in printed.splitlines() if x.startswith("statements to Neo4j")]
    assert 2.0 < float(line.rsplit(" ", 1)[1]) <= 2.5
