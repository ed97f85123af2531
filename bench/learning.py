"""The decision loop's learning curve: does Nous act better for what it has learned?

    python -m bench.learning [--observations 300] [--block 50] [--seed 20] [--base-url URL]
                             [--llm-timeout S] [--state DIR] [--baseline-over N]

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
  Being memoryless, what it does with one observation owes nothing to the ones
  before, so ``--baseline-over N`` runs it on the last N only (at least the
  100 the targets read). With the model the baseline's decisions were 35 %
  of a run's time (4,817 of 13,759 s over 100 observations, bench/HISTORY.md,
  2026-11-29), and in a 300-observation run two thirds of them fall in blocks
  no target reads. Its rows are then ``not run`` before its window, and a
  block the window starts inside names the observations it ran.

With the model, a run takes hours; ``--state DIR`` keeps it in a folder so
it can pause (``touch DIR/stop``) and go on later with the same Nous, on this
machine or, from the model's recorded replies, another
(:mod:`bench.learning_state`); a paused run exits 75 with its table so far.

Per block of ``--block`` observations it prints, for each: actions taken,
actions failed, escalations, waits (and investigations), and actions on
each folder. Targets (issue 20), over the last 100 observations: failed
actions at most 20 % of the baseline's, and actions on the good folder
(notes) at least 90 % of the baseline's (learning must not just stop acting).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench import learning_replies, learning_state
from bench.common import bench_settings, connected
from bench.learning_rebuild import carry_over
from bench.learning_report import TAIL, progress, report, table
from bench.learning_runner import STAND_IN, Item, Runner, Tally, stream
from graph.models import new_id
from graph.settings import Settings
from graph.store.driver import GraphDriver


@dataclass
class Arms:
    """Both runs' tallies, one per observation so far, and the time each took."""

    nous: list[Tally] = field(default_factory=list)
    base: list[Tally | None] = field(default_factory=list)  # None: before the baseline's window
    base_from: int = 0  # the first observation (0-based) the baseline decides
    nous_s: float = 0.0
    base_s: float = 0.0


@dataclass
class Sitting:
    """How a run is driven: Nous's agent, what to do after each decision, when to pause.

    The default is a run in one sitting: a new agent, nothing kept, never paused.
    """

    agent: str = field(default_factory=lambda: f"bench-learning-{new_id().lower()}")
    keep: Callable[[Arms], None] = lambda arms: None
    pause: Callable[[], bool] = lambda: False
    kept: bool = False  # a kept run's Nous remembers between sittings
    deciding: Callable[[int], None] = lambda index: None  # told before Nous decides one


async def run_both(
    nous: Runner, baseline: Runner, items: Sequence[Item], arms: Arms, sitting: Sitting
) -> None:
    """The stream through one agent that remembers (Nous) and, observation by observation,
    through a fresh agent each time (the baseline), into ``arms``: a run stopped early has
    both on the same observations. ``arms`` may hold a kept run's first observations; the
    stream goes on after them, and Nous's memory is forgotten only once all are decided."""
    memory, runtime = await nous.open(sitting.agent)
    try:
        for index in range(len(arms.base), len(items)):
            item = items[index]
            if len(arms.nous) == index:  # else Nous decided it before the last pause
                sitting.deciding(index)
                started = time.perf_counter()
                arms.nous.append(await nous.decide(memory, runtime, item))
                arms.nous_s += time.perf_counter() - started
                sitting.keep(arms)
            if index < arms.base_from:
                arms.base.append(None)
            else:
                started = time.perf_counter()
                fresh, fresh_runtime = await baseline.open(
                    f"bench-learning-base-{new_id().lower()}"
                )
                try:
                    arms.base.append(await baseline.decide(fresh, fresh_runtime, item))
                finally:
                    await baseline.close(fresh, fresh_runtime)
                arms.base_s += time.perf_counter() - started
            sitting.keep(arms)
            progress(arms, len(items))
            if index + 1 < len(items) and sitting.pause():
                break
    finally:
        await nous.close(memory, runtime, forget=not sitting.kept or len(arms.base) == len(items))


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
    state: Path | None = None,
    baseline_over: int | None = None,
) -> bool | None:
    """Both runs over the same stream; the report. With ``base_url``, the model there
    reasons for both runs (``llm_timeout``: its least request timeout); else the rules.
    With ``state``, the run is kept in that folder (:mod:`bench.learning_state`) and goes
    on from what it holds; ``None`` when it paused before the end (no verdict yet).
    ``baseline_over``: the baseline decides only the stream's last that many."""
    settings = learning_settings(bench_settings(), base_url)
    if llm_timeout is not None:
        settings.llm.timeout_s = llm_timeout
    if baseline_over == count:
        baseline_over = None  # the same run as without the option (and the same kept state)
    items = stream(count, seed)
    arms = Arms(base_from=count - baseline_over if baseline_over is not None else 0)
    sitting = Sitting()
    with contextlib.ExitStack() as folders:
        work = state or Path(
            folders.enter_context(tempfile.TemporaryDirectory(prefix="nous-learning-"))
        )
        if state is not None:
            params = {
                "observations": count,
                "seed": seed,
                "block": size,
                "base_url": base_url,
                "baseline_over": baseline_over,
            }
            kept = learning_state.load(state, params, sitting.agent, arms)
            kept.commits.append(learning_state.commit())
            sitting = Sitting(
                agent=kept.agent,
                keep=lambda done: learning_state.save(state, kept, done),
                pause=lambda: learning_state.stop_asked(state),
                kept=True,
            )
            print(
                f"state: {state}, {len(arms.base)} of {count} decided before; commits "
                f"{', '.join(kept.commits)}",
                flush=True,
            )
        if len(arms.base) < count:
            replies = state / learning_replies.REPLIES_FILE if state is not None else None
            await decide_stream(settings, work, items, arms, sitting, size, replies)
    if len(arms.base) < count:
        print(f"paused after {len(arms.base)} of {count} observations: the same command goes on")
        table(items[: len(arms.base)], arms.nous[: len(arms.base)], arms.base, size)
        return None
    print(f"Nous: {len(items)} observations in {arms.nous_s:.0f} s of deciding")
    print(
        f"baseline: {len(items) - arms.base_from} observations in {arms.base_s:.0f} s "
        f"(a loop built and closed for each; from observation {arms.base_from + 1})"
    )
    print(f"stream: {count} observations, seed {seed}; load average {os.getloadavg()[0]:.1f}")
    return report(items, arms.nous, arms.base, size)


async def decide_stream(
    settings: Settings,
    work: Path,
    items: Sequence[Item],
    arms: Arms,
    sitting: Sitting,
    size: int,
    replies: Path | None = None,
) -> None:
    """Both runs, on roots under ``work``, over what ``arms`` has not decided yet."""
    async with connected(settings) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        await decide_on(driver, settings, work, items, arms, sitting, size, replies)


async def decide_on(
    driver: GraphDriver,
    settings: Settings,
    work: Path,
    items: Sequence[Item],
    arms: Arms,
    sitting: Sitting,
    size: int,
    replies: Path | None = None,
) -> None:
    """:func:`decide_stream` on a connected ``driver``.

    With ``replies`` (a kept run), Nous's requests to the model are recorded
    there, and a Neo4j that does not hold Nous's memory gets it rebuilt first
    (:mod:`bench.learning_rebuild`)."""
    model = settings.reasoner == "llm"
    print(f"reasoner: {f'the model at {settings.llm.base_url}' if model else 'the rules'}")
    async with contextlib.AsyncExitStack() as stack:
        # Each run its own settings: a runner points its settings' watch root at its folder.
        ours = settings.model_copy(deep=True)
        if replies is not None:
            ours, sitting.deciding = await carry_over(
                stack, driver, ours, work / "nous", items, arms.nous, sitting.agent, replies
            )
        nous = Runner(ours, driver, work / "nous", items)
        baseline = Runner(settings.model_copy(deep=True), driver, work / "base", items)
        try:
            await run_both(nous, baseline, items, arms, sitting)
        except BaseException:  # Ctrl-C included: what was decided is still shown
            done = len(arms.base)
            print(f"stopped after {done} of {len(items)} observations: no verdict")
            if done:
                table(items[:done], arms.nous[:done], arms.base, size)
            raise


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
    parser.add_argument(
        "--state",
        type=Path,
        help="keep the run in this folder and go on from what it holds; "
        "creating STATE/stop pauses it after the current observation",
    )
    parser.add_argument(
        "--baseline-over",
        type=int,
        metavar="N",
        help=f"the baseline decides only the last N observations (at least {TAIL}; "
        "default: all of them)",
    )
    args = parser.parse_args()
    # Every escalation is logged at WARNING; the table is what this bench shows.
    logging.basicConfig(level=logging.ERROR)
    if args.observations < TAIL:
        parser.error(f"--observations must be at least {TAIL}")
    if args.baseline_over is not None and not TAIL <= args.baseline_over <= args.observations:
        parser.error(f"--baseline-over must be from {TAIL} to --observations")
    try:
        met = asyncio.run(
            run(
                args.observations,
                args.block,
                args.seed,
                args.base_url,
                args.llm_timeout,
                args.state,
                args.baseline_over,
            )
        )
    except learning_state.StateError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        raise SystemExit(130) from None  # the partial table is printed; no traceback
    if met is None:
        raise SystemExit(75)  # paused (EX_TEMPFAIL): started again, it goes on


if __name__ == "__main__":
    main()
