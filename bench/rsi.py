"""RSI cycle cost and practice sandbox cost, each against a baseline of the same run.

    python -m bench.rsi [--cycles 5] [--runs 10]

1. **A cycle's own cost**: ``RSIEngine.run_cycle`` against the configured
   Neo4j with the test LLM stub answering at once (reflection, specificity,
   solution), a person's request to practice waiting each time, HumanEval
   problems solved by their canonical solutions. The sandbox's time inside
   the cycle is measured apart and subtracted. Target (issue 8): at most 1 s
   beside the sandbox runs.
2. **The sandbox's cost per run**: ``rsi.sandbox.run_problem`` on a HumanEval
   problem (HumanEval/53, its canonical solution, checked by the runner
   without pytest, as practice checks HumanEval), against a bare
   ``python -c pass``, in the same run; also ``rsi.sandbox.run_tests`` (pytest,
   for generated problems) and a bare unconfined ``python -I -m pytest`` of the
   same files. The sandbox's confinement is printed. Target (issues 8 and 17):
   the HumanEval sandbox run at most 3x ``python -c pass``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import bench_settings, connected, verdict
from cognition.llm import LLMClient
from graph.models import new_id
from graph.settings import LLMSettings
from graph.store.memory import Memory
from rsi import practice, problems, sandbox
from rsi.confine import confinement
from rsi.engine import RSIEngine
from tests.rsi.conftest import ModelScript
from tests.support.llm_stub import LLMStub

TESTS = (
    "from solution import *\n"
    "def test_one():\n    assert add(1, 2) == 3\n"
    "def test_two():\n    assert add(2, 2) == 4\n"
)
SOLUTION = "def add(a, b):\n    return a + b\n"


def request(n: int) -> str:
    """A request relevant to the n-th practice problem, so each cycle picks a fresh one."""
    spec = problems.practice_pool()[n].spec
    doc = spec.split('"""')[1] if '"""' in spec else spec
    return f"Improve python code: {' '.join(doc.split()[:25])}"


async def cycle_cost(cycles: int) -> list[tuple[float, float]]:
    """(cycle seconds, sandbox seconds within it) per cycle."""
    settings = bench_settings()
    spent: list[float] = []
    real_run = sandbox.run_problem  # what practice imported by that name

    async def timed(*args: object, **kwargs: object) -> sandbox.SandboxResult:
        started = time.perf_counter()
        try:
            return await real_run(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            spent.append(time.perf_counter() - started)

    setattr(practice, "run_problem", timed)  # noqa: B010 - a bench's probe, not product code
    out: list[tuple[float, float]] = []
    with LLMStub(default=ModelScript(desires=["be better"])) as stub:
        llm_settings = LLMSettings(base_url=stub.base_url, model="stub", timeout_s=10)
        async with connected(settings) as (endpoint, driver), LLMClient(llm_settings) as llm:
            print(f"neo4j: {endpoint.describe()}")
            memory = Memory(driver, f"bench-rsi-{new_id().lower()}")
            engine = RSIEngine(memory, llm, settings.rsi, root=Path.cwd())
            try:
                for n in range(cycles):
                    await engine.add_external_desire(request(n), "bench", domain="code")
                    spent.clear()
                    result = await engine.run_cycle(seed=n)
                    if result.error or result.succeeded != 1:
                        raise SystemExit(
                            f"cycle {n} did not practice: {result.model_dump(mode='json')}"
                        )
                    out.append((result.duration_s, sum(spent)))
            finally:
                await memory.forget()
    setattr(practice, "run_problem", real_run)  # noqa: B010
    return out


def bare(argv: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    # As the sandbox runs pytest: no plugins loaded from the environment.
    env = {"PATH": "/usr/bin:/bin", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    subprocess.run(argv, cwd=cwd, capture_output=True, check=True, env=env)
    return time.perf_counter() - started


async def sandbox_cost(runs: int) -> dict[str, list[float]]:
    """Seconds per run: the sandbox (HumanEval checks, pytest), bare python, bare pytest."""
    times: dict[str, list[float]] = {"checks": [], "python": [], "pytest": [], "bare pytest": []}
    problem = problems.by_id("HumanEval/53")
    with tempfile.TemporaryDirectory(prefix="nous-bench-rsi-") as tmp:
        folder = Path(tmp)
        (folder / "test_practice.py").write_text(TESTS)
        (folder / "solution.py").write_text(SOLUTION)
        pytest_argv = [sys.executable, "-I", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        await sandbox.run_tests(TESTS, SOLUTION, timeout_s=30)  # warm the probe and the caches
        for _ in range(runs):
            started = time.perf_counter()
            checked = await sandbox.run_problem(problem, problem.canonical_solution, timeout_s=30)
            times["checks"].append(time.perf_counter() - started)
            assert checked.success, checked
            times["python"].append(bare([sys.executable, "-c", "pass"], folder))
            started = time.perf_counter()
            tested = await sandbox.run_tests(TESTS, SOLUTION, timeout_s=30)
            times["pytest"].append(time.perf_counter() - started)
            assert tested.success, tested
            times["bare pytest"].append(bare([*pytest_argv, "test_practice.py"], folder))
    return times


async def run(cycles: int, runs: int) -> bool:
    print(f"sandbox: {confinement().note}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    per_cycle = await cycle_cost(cycles)
    own = [total - inside for total, inside in per_cycle]
    print(f"cycles: {cycles}, each practicing one HumanEval problem in the sandbox")
    print(
        f"  cycle total p50 {statistics.median(t for t, _ in per_cycle):.3f} s, "
        f"sandbox inside p50 {statistics.median(s for _, s in per_cycle):.3f} s"
    )
    cycle_ok = statistics.median(own) <= 1.0
    print(
        f"  cycle's own cost p50 {statistics.median(own):.3f} s, max {max(own):.3f} s "
        f"(target <= 1 s): {verdict(cycle_ok)}"
    )
    times = await sandbox_cost(runs)
    c, p, t, b = (
        statistics.median(times[k]) for k in ("checks", "python", "pytest", "bare pytest")
    )
    sandbox_ok = c / p <= 3.0
    print(f"sandbox runs: {runs}")
    print(
        f"  sandbox (HumanEval checks, no pytest) p50 {c * 1000:.0f} ms; "
        f"bare `python -c pass` p50 {p * 1000:.0f} ms"
    )
    print(f"  ratio {c / p:.1f}x (target <= 3x): {verdict(sandbox_ok)}")
    print(
        f"  sandbox with pytest (generated problems) p50 {t * 1000:.0f} ms ({t / p:.1f}x); "
        f"bare unconfined `python -I -m pytest` p50 {b * 1000:.0f} ms"
    )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return cycle_ok and sandbox_ok


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rsi", description=__doc__)
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    ok = asyncio.run(run(args.cycles, args.runs))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
