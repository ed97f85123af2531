"""The decision loop's learning curve: does Nous act better for what it has learned?

    python -m bench.learning [--observations 300] [--block 50] [--seed 20] [--base-url URL]
                             [--llm-timeout S]

A stream of intake notes in two folders, alternating at random (seeded):
``_intake/reports/`` and ``_intake/notes/``. The same template
(``process_intake``) fails non-transiently on a report 90 % of the time and
succeeds on a note 90 % of the time; the stand-in Claude Code CLI
(``tests/bin/claude``) is scripted per path (``by_prompt``), so every
observation's outcome is drawn once and is the same for both runs.

The stream is run twice in the same process, observation by observation in
turn (a run stopped early still compares the two on the same observations),
on the daemon's own ``build_loop`` (live executors; the rules reasoner, or
with ``--base-url`` the model at that OpenAI-compatible endpoint, for both
runs):

- **Nous**: one agent for the whole stream, so its pattern statistics,
  lessons and censors carry from one observation to the next;
- **baseline**: a fresh agent for every observation (nothing remembered).

Per block of ``--block`` observations it prints, for each: actions taken,
actions failed, escalations, waits (and investigations), and actions on
each folder. Targets (issue 20), over the last 100 observations: failed
actions at most 20 % of the baseline's, and actions on the good folder
(notes) at least 90 % of the baseline's (learning must not just stop acting).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import tempfile
import time
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import bench_settings, connected, verdict
from cognition.act.attribution import ActiveExecutions
from cognition.sense.classify import ObservationClassifier
from cognition.sense.ingest import Ingestor
from graph.models import DecisionType, Observation, ObservationType, ReasonerKind, new_id
from graph.settings import Settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.watch.files import PathFilter
from scheduler.compose.loop import LoopRuntime, build_loop, load_action_templates
from scheduler.index_sync import IndexSync

STAND_IN = Path(__file__).resolve().parents[1] / "tests" / "bin" / "claude"
BAD, GOOD = "_intake/reports", "_intake/notes"
FAIL_RATE = {BAD: 0.9, GOOD: 0.1}
# Not transient by cognition.monitor's reading: a retry would fail the same way.
FAILURE = "Error: this report's layout is not one the intake procedure can file (schema mismatch)"
FAILED_TARGET = 0.20
GOOD_ACTIONS_TARGET = 0.90
TAIL = 100


@dataclass(frozen=True, slots=True)
class Item:
    """One observation of the stream: its file and whether acting on it fails."""

    path: str
    folder: str
    fails: bool


@dataclass
class Tally:
    """What one run did with one observation, or with a block of them."""

    actions: int = 0
    failed: int = 0
    escalations: int = 0
    waits: int = 0
    investigations: int = 0
    by_model: int = 0  # decisions the model made (the rest: the rules, as its fallback)
    actions_by_folder: dict[str, int] = field(default_factory=lambda: {BAD: 0, GOOD: 0})

    def add(self, other: Tally) -> None:
        """Count ``other`` into this tally."""
        self.actions += other.actions
        self.failed += other.failed
        self.escalations += other.escalations
        self.waits += other.waits
        self.investigations += other.investigations
        self.by_model += other.by_model
        for folder, count in other.actions_by_folder.items():
            self.actions_by_folder[folder] += count


def stream(count: int, seed: int) -> list[Item]:
    """``count`` observations, each folder chosen at random, each outcome drawn once."""
    rng = random.Random(seed)
    items = []
    for i in range(count):
        folder = rng.choice([BAD, GOOD])
        items.append(Item(f"{folder}/n{i:04d}.md", folder, rng.random() < FAIL_RATE[folder]))
    return items


def stand_in_script(items: Sequence[Item]) -> dict[str, object]:
    """The stand-in's script, by path: a drawn failure, or the knowledge note the template
    asks for (``process_intake`` checks that something under ``knowledge/`` changed)."""
    return {
        "by_prompt": {
            item.path: (
                {"is_error": True, "result": FAILURE, "exit_code": 1}
                if item.fails
                else {"edits": [{"path": f"knowledge/{Path(item.path).stem}.md", "content": "x\n"}]}
            )
            for item in items
        }
    }


class Runner:
    """Builds a loop on a memory and decides one observation at a time with it.

    Each runner has a watched root of its own (the notes and the stand-in's
    script), so what one run's actions wrote is new to the other's.
    """

    def __init__(self, settings: Settings, driver: GraphDriver, tmp: Path, items: Sequence[Item]):
        self.settings, self.driver = settings, driver
        self.root = tmp / "root"
        for item in items:
            (self.root / item.folder).mkdir(parents=True, exist_ok=True)
            (self.root / item.path).write_text(f"# {item.path}\n\nA note to file.\n")
        script = tmp / "claude.json"
        script.write_text(json.dumps(stand_in_script(items)))
        self.env = {"PATH": os.environ.get("PATH", ""), "FAKE_CLAUDE_SCRIPT": str(script)}
        self.classifier = ObservationClassifier(settings.sense)
        # The runner's own root before the templates are looked up (a templates file under
        # the folder the bench was started from must not change what it measures).
        settings.watch.root = self.root
        self.templates = load_action_templates(settings)
        self.stacks: dict[str, AsyncExitStack] = {}  # each open loop's clean-ups, by agent

    async def open(self, agent_id: str) -> tuple[Memory, LoopRuntime]:
        """A fresh memory under ``agent_id`` and the daemon's loop over it."""
        memory = Memory(self.driver, agent_id)
        attribution = ActiveExecutions()
        ingestor = Ingestor(memory, self.classifier, attribute=attribution.attribute)
        index_sync = IndexSync(self.root, memory, ingestor, PathFilter([]), max_hash_bytes=1 << 20)
        stack = AsyncExitStack()
        self.stacks[agent_id] = stack
        runtime = await build_loop(
            stack,
            self.settings,
            memory,
            self.root,
            index_sync,
            self.env,
            session_id=new_id(),
            templates=self.templates,
            attribution=attribution,
        )
        return memory, runtime

    async def decide(self, memory: Memory, runtime: LoopRuntime, item: Item) -> Tally:
        """Decide on one new note and wait for its action, if any; what came of it."""
        observation = self.classifier.classify(
            Observation(agent_id=memory.agent_id, type=ObservationType.FILE_CREATED, path=item.path)
        )
        await memory.record_observations([observation])
        decision = await runtime.loop.decide([observation])
        await runtime.loop.idle()
        tally = Tally(by_model=int(decision.reasoner is ReasonerKind.LLM))
        if decision.type is DecisionType.ACT:
            tally.actions = 1
            tally.actions_by_folder[item.folder] = 1
            tally.failed = int(decision.outcome_success is False)
        elif decision.type is DecisionType.ESCALATE:
            tally.escalations = 1
        elif decision.type is DecisionType.WAIT:
            tally.waits = 1
        else:
            tally.investigations = 1
        return tally

    async def close(self, memory: Memory, runtime: LoopRuntime) -> None:
        """Stop the loop, end its episode and forget the agent's memory."""
        await runtime.loop.stop(0.0)
        await self.stacks.pop(memory.agent_id).aclose()
        await memory.forget()


@dataclass
class Arms:
    """Both runs' tallies, one per observation so far, and the time each took."""

    nous: list[Tally] = field(default_factory=list)
    base: list[Tally] = field(default_factory=list)
    nous_s: float = 0.0
    base_s: float = 0.0


async def run_both(nous: Runner, baseline: Runner, items: Sequence[Item], arms: Arms) -> None:
    """The stream through one agent that remembers (Nous) and, observation by observation,
    through a fresh agent each time (the baseline), into ``arms``: a run stopped early has
    both on the same observations."""
    memory, runtime = await nous.open(f"bench-learning-{new_id().lower()}")
    try:
        for item in items:
            started = time.perf_counter()
            arms.nous.append(await nous.decide(memory, runtime, item))
            arms.nous_s += time.perf_counter() - started
            started = time.perf_counter()
            fresh, fresh_runtime = await baseline.open(f"bench-learning-base-{new_id().lower()}")
            try:
                arms.base.append(await baseline.decide(fresh, fresh_runtime, item))
            finally:
                await baseline.close(fresh, fresh_runtime)
            arms.base_s += time.perf_counter() - started
            progress(arms, len(items))
    finally:
        await nous.close(memory, runtime)


def progress(arms: Arms, total: int, every: int = 10) -> None:
    """A line every ``every`` observations, so a run with a slow model can be followed."""
    done = len(arms.nous)
    if done % every and done != total:
        return
    for run, tallies in (("Nous", arms.nous), ("baseline", arms.base)):
        summed = blocks(tallies, len(tallies))[0]
        print(
            f"  {done}/{total} {run}: {summed.actions} actions ({summed.failed} failed), "
            f"{summed.escalations} escalations, {summed.by_model} decided by the model",
            flush=True,
        )


def blocks(tallies: Sequence[Tally], size: int) -> list[Tally]:
    """The tallies summed per block of ``size`` observations."""
    summed = []
    for start in range(0, len(tallies), size):
        block = Tally()
        for tally in tallies[start : start + size]:
            block.add(tally)
        summed.append(block)
    return summed


def table(items: Sequence[Item], nous: list[Tally], base: list[Tally], size: int) -> None:
    """Print the per-block table of both runs and how many decisions the model made."""
    print(
        "| block | run | actions | failed | escalations | waits | investigations "
        "| actions on notes (good) | actions on reports (bad) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for i, (ours, theirs) in enumerate(zip(blocks(nous, size), blocks(base, size), strict=True)):
        span = f"{i * size + 1}-{min((i + 1) * size, len(items))}"
        for label, t in (("Nous", ours), ("baseline", theirs)):
            print(
                f"| {span} | {label} | {t.actions} | {t.failed} | {t.escalations} | {t.waits} "
                f"| {t.investigations} | {t.actions_by_folder[GOOD]} | {t.actions_by_folder[BAD]} |"
            )
    print(
        f"decided by the model (else the rules, its fallback): Nous "
        f"{sum(t.by_model for t in nous)} of {len(nous)}, baseline "
        f"{sum(t.by_model for t in base)} of {len(base)}"
    )


def report(items: Sequence[Item], nous: list[Tally], base: list[Tally], size: int) -> bool:
    """Print the per-block table and the two ratios; whether both targets are met."""
    table(items, nous, base, size)
    tail_nous, tail_base = blocks(nous[-TAIL:], TAIL)[0], blocks(base[-TAIL:], TAIL)[0]
    good_in_tail = sum(1 for item in items[-TAIL:] if item.folder == GOOD)
    failed_ratio = tail_nous.failed / tail_base.failed if tail_base.failed else float("inf")
    good_ratio = (
        tail_nous.actions_by_folder[GOOD] / tail_base.actions_by_folder[GOOD]
        if tail_base.actions_by_folder[GOOD]
        else float("inf")
    )
    print(
        f"last {TAIL}: {good_in_tail} notes, {TAIL - good_in_tail} reports; failed actions "
        f"Nous {tail_nous.failed}, baseline {tail_base.failed}; actions on notes "
        f"Nous {tail_nous.actions_by_folder[GOOD]}, baseline {tail_base.actions_by_folder[GOOD]}"
    )
    checks = [
        (
            failed_ratio <= FAILED_TARGET,
            f"failed actions, last {TAIL}: {failed_ratio:.2f}x the baseline "
            f"(target <= {FAILED_TARGET:.2f})",
        ),
        (
            good_ratio >= GOOD_ACTIONS_TARGET,
            f"actions on the good folder, last {TAIL}: {good_ratio:.2f}x the baseline "
            f"(target >= {GOOD_ACTIONS_TARGET:.2f})",
        ),
    ]
    for ok, text in checks:
        print(f"{verdict(ok)}  {text}")
    return all(ok for ok, _ in checks)


def learning_settings(settings: Settings, base_url: str | None = None) -> Settings:
    """``settings`` made the bench's: live executors (the stand-in CLI), no action budget,
    and the rules reasoner, or with ``base_url`` the model there (``reasoner: llm``)."""
    settings.reasoner = "llm" if base_url else "rules"
    if base_url:
        settings.llm.base_url = base_url
    settings.executors.dry_run = False
    settings.executors.claude_binary = str(STAND_IN)
    settings.budget.actions_per_hour = 1_000_000
    return settings


async def run(
    count: int,
    size: int,
    seed: int,
    base_url: str | None = None,
    llm_timeout: float | None = None,
) -> bool:
    """Both runs over the same stream; the report. With ``base_url``, the model there
    reasons for both runs (``llm_timeout``: its least request timeout); else the rules."""
    settings = learning_settings(bench_settings(), base_url)
    if llm_timeout is not None:
        settings.llm.timeout_s = llm_timeout
    items = stream(count, seed)
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        reasoner = f"the model at {settings.llm.base_url}" if base_url else "the rules"
        print(f"reasoner: {reasoner}", flush=True)
        with tempfile.TemporaryDirectory(prefix="nous-learning-") as tmp:
            # Each run its own settings: a runner points its settings' watch root at its folder.
            nous = Runner(settings.model_copy(deep=True), driver, Path(tmp) / "nous", items)
            baseline = Runner(settings.model_copy(deep=True), driver, Path(tmp) / "base", items)
            arms = Arms()
            try:
                await run_both(nous, baseline, items, arms)
            except BaseException:  # Ctrl-C included: what was decided is still shown
                done = len(arms.base)
                print(f"stopped after {done} of {len(items)} observations: no verdict")
                if done:
                    table(items[:done], arms.nous[:done], arms.base, size)
                raise
    print(f"Nous: {len(items)} observations in {arms.nous_s:.0f} s of deciding")
    print(
        f"baseline: {len(items)} observations in {arms.base_s:.0f} s "
        "(a loop built and closed for each)"
    )
    print(f"stream: {count} observations, seed {seed}; load average {os.getloadavg()[0]:.1f}")
    return report(items, arms.nous, arms.base, size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--observations", type=int, default=300)
    parser.add_argument("--block", type=int, default=50)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument(
        "--base-url",
        help="an OpenAI-compatible endpoint whose model reasons (default: the rules reasoner)",
    )
    parser.add_argument("--llm-timeout", type=float, help="llm.timeout_s for this run")
    args = parser.parse_args()
    # Every escalation is logged at WARNING; the table is what this bench shows.
    logging.basicConfig(level=logging.ERROR)
    if args.observations < TAIL:
        parser.error(f"--observations must be at least {TAIL}")
    try:
        asyncio.run(run(args.observations, args.block, args.seed, args.base_url, args.llm_timeout))
    except KeyboardInterrupt:
        raise SystemExit(130) from None  # the partial table is printed; no traceback


if __name__ == "__main__":
    main()
