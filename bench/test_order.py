"""The learned test order against the whole suite: time to the first failing test (issue 55).

A real project (sqlite-utils from its cached sdist by default) is broken step
by step (:mod:`bench.test_order_history`: one function of one module at a
time, the same modules again in later rounds). At each step, in one run:

- **whole**: the project's test command, ``python3 -m pytest -q``, as Nous ran
  it for every code change before; the time from its start to the first
  failing test (pytest's progress line printing ``F`` or ``E``);
- **learned**: what Nous runs now (:class:`cognition.act.test_order.TestOrder`
  over a scratch agent's memory): the test files that earlier steps' failures
  after a change to this module broke, then those importing it, appended to the
  same command; the time to its first failing test. When they all pass, the
  whole suite follows: the time of the first part plus the whole's time to its
  first failure. When nothing is known, it is the whole suite, so the same time.

What the learned run (or, when it ran nothing first, the whole suite) named as
failing is remembered as the daemon remembers it, against the changed module.
A step whose break no test notices is left out (counted). Prints each step,
the ratio learned/whole over every step with a failure and over those where
something was known, and PASS or MISS against 0.5.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.common import bench_settings, connected, scratch_agent
from bench.replay_execute import runner_environment
from bench.replay_source import fetch_release
from bench.test_order_history import history
from cognition.act.templates import load_templates
from cognition.act.test_names import by_test_file, failing_tests
from cognition.act.test_order import TestOrder
from graph.models import ActionTarget, Decision, DecisionType, Execution
from graph.store.memory import Memory

TARGET = 0.5
WHOLE = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
_PROGRESS = re.compile(r"[.FEsxX]+")


@dataclass(frozen=True)
class Timed:
    """One test run: seconds to its first failing test (None: none failed), in all, its output."""

    first_failure: float | None
    total: float
    output: str


async def timed_run(argv: list[str], root: Path, env: dict[str, str], limit_s: float) -> Timed:
    """Run ``argv`` in ``root``, noting when its progress first shows a failing test."""
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        *argv,
        cwd=root,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    assert proc.stdout is not None
    chunks: list[str] = []
    line, first = "", None
    try:
        async with asyncio.timeout(limit_s):
            while data := await proc.stdout.read(4096):
                text = data.decode("utf-8", errors="replace")
                chunks.append(text)
                for char in text if first is None else "":
                    line = "" if char == "\n" else line + char
                    if char in "FE" and _PROGRESS.fullmatch(line):
                        first = time.monotonic() - started
                        break
            await proc.wait()
    finally:
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
    return Timed(first, time.monotonic() - started, "".join(chunks))


async def remember(memory: Memory, module: str, output: str) -> int:
    """Keep what a run named as failing against ``module``, as the daemon's settle does."""
    broken = by_test_file(failing_tests(output))
    if not broken:
        return 0
    decision = Decision(
        agent_id=memory.agent_id, type=DecisionType.ACT, confidence=0.9, template="tests"
    )
    await memory.decisions.record_decision(decision, [], observation_ids=[])
    execution = Execution(
        agent_id=memory.agent_id,
        decision_id=decision.id,
        target=ActionTarget.COMMAND,
        template="tests",
    )
    await memory.decisions.start_execution(execution)
    return await memory.test_runs.record_failures(execution.id, [module], broken)


@dataclass(frozen=True)
class Step:
    """One step's figures."""

    label: str
    known: int
    whole: float
    learned: float


async def one_step(
    order: TestOrder, memory: Memory, root: Path, env: dict[str, str], module: str, limit_s: float
) -> tuple[Step | None, str]:
    """Both runs on the broken tree; what was learned remembered. None: no test failed."""
    first = await order.select([module])
    whole = await timed_run(WHOLE, root, env, limit_s)
    if whole.first_failure is None:
        return None, "no test noticed it"
    learned_s, taught = whole.first_failure, whole.output
    if first:
        learned = await timed_run([*WHOLE, *first], root, env, limit_s)
        if learned.first_failure is not None:
            learned_s, taught = learned.first_failure, learned.output
        else:
            learned_s = learned.total + whole.first_failure
    kept = await remember(memory, module, taught)
    step = Step("", len(first), whole.first_failure, learned_s)
    return step, f"{len(failing_tests(taught))} failing test(s) in {kept} file(s) remembered"


async def run(args: argparse.Namespace) -> bool:
    cache = args.cache.expanduser()
    top = fetch_release(args.project, args.version, cache)
    env = runner_environment(args.project, top, cache, dict(os.environ))
    steps: list[Step] = []
    skipped = 0
    with tempfile.TemporaryDirectory(prefix="nous-test-order-") as scratch:
        root = Path(scratch) / "project"
        shutil.copytree(top, root, symlinks=True)
        plan = history(root, args.modules, args.rounds, args.seed)
        print(f"{args.project} {args.version}: {len(plan)} breaks over {args.modules} module(s)")
        async with (
            connected(bench_settings()) as (_, driver),
            scratch_agent(driver, "test-order") as memory,
        ):
            order = TestOrder(memory.test_runs, root, load_templates(None))
            for n, brk in enumerate(plan, 1):
                before = brk.apply(root)
                try:
                    step, note = await one_step(order, memory, root, env, brk.module, args.timeout)
                finally:
                    (root / brk.module).write_text(before, encoding="utf-8")
                label = f"{n:2d} {brk.module}:{brk.function}"
                if step is None:
                    skipped += 1
                    print(f"{label}: left out ({note})", flush=True)
                    continue
                steps.append(Step(label, step.known, step.whole, step.learned))
                print(
                    f"{label}: {step.known} file(s) first; first failure whole"
                    f" {step.whole:.2f} s, learned {step.learned:.2f} s"
                    f" ({step.learned / step.whole:.2f}); {note}",
                    flush=True,
                )
    return report(steps, skipped)


def report(steps: list[Step], skipped: int) -> bool:
    """The totals and the verdict; True when the learned order meets the target."""
    if not steps:
        print("no step had a failing test: nothing measured")
        return False
    whole, learned = sum(s.whole for s in steps), sum(s.learned for s in steps)
    known = [s for s in steps if s.known]
    ratio = learned / whole
    print(f"{len(steps)} steps with failures ({skipped} left out: no test failed)")
    print(f"time to the first failing test: whole {whole:.1f} s, learned {learned:.1f} s")
    if known:
        k_ratio = sum(s.learned for s in known) / sum(s.whole for s in known)
        print(f"  where something was known ({len(known)} steps): {k_ratio:.2f}")
    verdict = "PASS" if ratio <= TARGET else "MISS"
    print(f"learned / whole over every step: {ratio:.2f} (target <= {TARGET}): {verdict}")
    return ratio <= TARGET


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", default="sqlite-utils")
    parser.add_argument("--version", default="3.39")
    parser.add_argument("--cache", type=Path, default=Path("~/.cache/nous-bench/replay"))
    parser.add_argument("--modules", type=int, default=3, help="modules broken, each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per test run")
    ok = asyncio.run(run(parser.parse_args()))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
