"""Lessons (issue 25): a task family where experience must matter.

A library made for the bench (``bench/lessons_lib/tally``, or any folder in the
format of :mod:`bench.lessons_library` with ``--library DIR``) has conventions a
model cannot guess from its signatures but that a failed test or a clear error
reveals. The agent solves each task through Nous's chat API exactly as Claude
Code's hooks drive it: ``pre_turn`` (whose context carries the recalled cases),
up to three attempts, each attempt's test output a tool result, ``post_turn``
(which keeps a failed attempt and the later one that passed as a case) and
``end_session``. Arms, in one run:

- ``memoryless``: a fresh agent per task (feedback within a task, nothing across);
- ``nous``: one agent that first practices on the practice tasks, then solves the
  held-out ones with its memory frozen (nothing written, nothing credited, no
  censor filed); ``--online`` adds a second figure with learning left on.
  Practice runs in rounds (``--practice-rounds``, 2): a later round tries
  again, with the cases earlier rounds kept, the tasks no earlier round passed;
- ``random``: the same case bank, cases drawn at random instead of by similarity.

It prints, per arm, the first-attempt pass rate and the pass rate within three,
attempts per task and prompt tokens per attempt, and the exact McNemar test on
first attempts of nous against memoryless and against random::

    python -m bench.lessons --base-url http://127.0.0.1:8080/v1
    python -m bench.lessons --library path/to/library --online --json
    python -m bench.lessons --arms nous --practice-rounds 3   # nous alone, while trying a change
    python -m bench.lessons --trace /tmp/lessons.jsonl   # one JSON line per attempt (lessons_trace)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.common import arms_argument, connected, model_overrides
from bench.common import chosen_arms as common_arms
from bench.lessons_agent import ArmOutcomes, LessonAgent, fresh_memory
from bench.lessons_library import (
    LessonTask,
    Library,
    LibraryError,
    library_warnings,
    load_library,
)
from bench.lessons_trace import Trace
from bench.model_wait import PATIENCE_S, ModelStalled
from bench.stats import mcnemar_exact
from cognition.llm import LLMClient
from graph.models import new_id
from graph.settings import Settings, load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory

DEFAULT_LIBRARY = Path(__file__).resolve().parent / "lessons_lib" / "tally"
# The arms in the order they run; nous, the arm measured, always runs.
ARMS = ("memoryless", "nous", "random")


@dataclass
class LessonsResult:
    """Every arm's outcomes on the held-out tasks, and the paired tests on first attempts."""

    model: str
    library: str
    practice_tasks: int
    held_out: list[str]
    arms: dict[str, ArmOutcomes] = field(default_factory=dict)
    mcnemar: dict[str, dict[str, float]] = field(default_factory=dict)
    cases_after_practice: int = 0
    # Per practice round: tasks tried and tasks passed within three attempts.
    practice_rounds: list[tuple[int, int]] = field(default_factory=list)


async def run_lessons(
    llm: LLMClient,
    settings: Settings,
    driver: GraphDriver,
    library: Library,
    *,
    online: bool = False,
    limit: int | None = None,
    seed: int = 3,
    practice_rounds: int = 2,
    arms: Sequence[str] = ARMS,
    trace: Trace | None = None,
    patience_s: float = PATIENCE_S,
) -> LessonsResult:
    """The arms (of ``arms``) on ``library``'s held-out tasks (the first ``limit``), nous after
    practice; the paired tests compare nous with each other arm that ran; ``trace``: each
    attempt (practice's too) written as a line; ``patience_s``: how long a model that stopped
    answering is waited for before :class:`~bench.model_wait.ModelStalled` stops the run."""
    held = library.split("held_out")[:limit] if limit else library.split("held_out")
    practice = library.split("practice")
    result = LessonsResult(settings.llm.model, library.name, len(practice), [t.id for t in held])
    agent = LessonAgent(llm, library, settings, trace, patience_s=patience_s)
    if "memoryless" in arms:
        result.arms["memoryless"] = _done("memoryless", await agent.memoryless(driver, held))
    async with fresh_memory(driver, f"bench-lessons-{new_id().lower()}") as memory:
        result.practice_rounds = await _practice(agent, memory, practice, practice_rounds)
        result.cases_after_practice = await agent.case_count(memory)
        result.arms["nous"] = _done("nous", await agent.run(memory, held, learn=False))
        if "random" in arms:
            rng = random.Random(seed)
            result.arms["random"] = _done(
                "random", await agent.run(memory, held, learn=False, draw=rng, arm="random")
            )
        if online:
            result.arms["nous online"] = _done(
                "nous online", await agent.run(memory, held, learn=True, arm="nous online")
            )
    result.model = agent.model or result.model
    for other in ("memoryless", "random"):
        if other not in result.arms:
            continue
        test = mcnemar_exact(result.arms["nous"].first, result.arms[other].first)
        result.mcnemar[f"nous vs {other}"] = {
            "nous only": test.only_a,
            f"{other} only": test.only_b,
            "p_value": test.p_value,
        }
    return result


async def _practice(
    agent: LessonAgent, memory: Memory, tasks: Sequence[LessonTask], rounds: int
) -> list[tuple[int, int]]:
    """Practice in rounds: each round tries again, with what earlier rounds kept as cases,
    the tasks no earlier round passed. Returns (tried, passed) per round."""
    done: list[tuple[int, int]] = []
    todo = list(tasks)
    for number in range(1, rounds + 1):
        if not todo:
            break
        name = f"practice round {number}"
        arm = _done(name, await agent.run(memory, todo, learn=True, arm=name))
        done.append((len(todo), sum(arm.within)))
        todo = [task for task, passed in zip(todo, arm.within, strict=True) if not passed]
    return done


def _done(name: str, arm: ArmOutcomes) -> ArmOutcomes:
    """Say on stderr that an arm finished (a run with a small local model takes hours)."""
    print(
        f"bench.lessons: {name}: first attempt {sum(arm.first)}/{len(arm.first)}, "
        f"within 3 {sum(arm.within)}/{len(arm.within)}",
        file=sys.stderr,
        flush=True,
    )
    return arm


def format_lessons(result: LessonsResult) -> str:
    """The figures as text."""
    n = len(result.held_out)
    lines = [
        f"lessons on library {result.library}: {result.practice_tasks} practice tasks, "
        f"{n} held-out; model {result.model}; {result.cases_after_practice} cases after practice"
    ]
    rounds = ", ".join(f"{passed}/{tried}" for tried, passed in result.practice_rounds)
    lines.append(f"  practice rounds (passed within 3 / tried): {rounds or 'none'}")
    for name, arm in result.arms.items():
        lines.append(
            f"  {name:<12} first attempt {arm.first_rate:.3f} ({sum(arm.first)}/{n}), "
            f"within 3 {arm.within_rate:.3f} ({sum(arm.within)}/{n}), "
            f"{arm.attempts_per_task:.2f} attempts per task, "
            f"{arm.tokens_per_attempt:.0f} prompt tokens per attempt"
            + (f"; {arm.resamples} repeats of failed code asked again" if arm.resamples else "")
            + (f"; {arm.errors} requests the endpoint failed, asked again" if arm.errors else "")
        )
    for name, test in result.mcnemar.items():
        counts = ", ".join(f"{k} {int(v)}" for k, v in test.items() if k != "p_value")
        lines.append(
            f"  McNemar (first attempts) {name}: {counts}, exact p = {test['p_value']:.4g}"
        )
    nous = result.arms["nous"]
    gains = [
        f"nous - {other}: {100 * (nous.first_rate - result.arms[other].first_rate):+.1f} points "
        f"({target})"
        for other, target in (("memoryless", "target >= 15, p < 0.05"), ("random", "target >= 5"))
        if other in result.arms
    ]
    lines.append("  " + ("; ".join(gains) or "nous alone: no arm to compare it with"))
    return "\n".join(lines)


async def _main(args: argparse.Namespace) -> int:
    try:
        library = load_library(args.library)
    except LibraryError as exc:
        print(f"bench.lessons: {exc}", file=sys.stderr)
        return 2
    for warning in library_warnings(library):
        print(f"bench.lessons: {args.library}: {warning}", file=sys.stderr)
    settings = load_settings(args.config, overrides=model_overrides(args))
    try:
        trace = Trace.open(args.trace) if args.trace else None
    except OSError as exc:
        print(f"bench.lessons: --trace {args.trace}: {exc}", file=sys.stderr)
        return 2
    try:
        async with LLMClient(settings.llm) as llm, connected(settings) as (_, driver):
            result = await run_lessons(
                llm,
                settings,
                driver,
                library,
                online=args.online,
                limit=args.limit,
                seed=args.seed,
                practice_rounds=args.practice_rounds,
                arms=args.arms,
                trace=trace,
                patience_s=args.model_patience,
            )
    except ModelStalled as exc:
        print(f"bench.lessons: {exc}", file=sys.stderr)
        return 3
    finally:
        if trace is not None:
            trace.close()
    if args.json:
        print(json.dumps(asdict(result), indent=2))
    else:
        print(format_lessons(result))
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def chosen_arms(text: str) -> tuple[str, ...]:
    """``--arms`` read: names from :data:`ARMS`, comma-separated; ``nous`` always runs.
    Raises ValueError naming an unknown arm."""
    return common_arms(text, ARMS, "nous")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the lessons benchmark from the command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.lessons", description=__doc__)
    parser.add_argument("--config", type=Path, help="settings file (default: nous.yaml, if any)")
    parser.add_argument("--library", type=Path, default=DEFAULT_LIBRARY, help="library folder")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (default: llm.base_url)")
    parser.add_argument("--model", help="model name (default: llm.model)")
    parser.add_argument("--llm-timeout", type=float, help="llm.timeout_s for this run")
    parser.add_argument("--limit", type=int, help="only the first N held-out tasks")
    parser.add_argument("--online", action="store_true", help="also measure nous learning online")
    parser.add_argument(
        "--practice-rounds",
        type=_positive,
        default=2,
        help="practice rounds; each retries the tasks no earlier round passed (2)",
    )
    parser.add_argument(
        "--arms",
        type=arms_argument(ARMS, "nous"),
        default=ARMS,
        help=f"comma-separated arms (default: all; nous always runs): {', '.join(ARMS)}",
    )
    parser.add_argument(
        "--model-patience",
        type=float,
        default=PATIENCE_S,
        help="seconds to wait for a model that stopped answering before stopping the run "
        f"(default {PATIENCE_S:.0f}); a task is never counted failed without being asked",
    )
    parser.add_argument("--seed", type=int, default=3, help="seed of the random arm's draws (3)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--trace", type=Path, help="write one JSON line per attempt (practice too) to this file"
    )
    return asyncio.run(_main(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
