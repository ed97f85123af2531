"""A real project's history replayed into the real daemon, in dry run (issue 28).

    python -m bench.replay [--project sqlite-utils] [--versions 3.33,3.34,...,3.39]
                           [--cache ~/.cache/nous-bench/replay] [--templates FILE]
                           [--settle-s 900] [--quiet-s 60] [--keep] [--execute]

Takes successive released versions of ``--project`` from PyPI source
distributions (downloaded once into ``--cache``, outside the repository),
writes the first into an empty watched root, picks the templates as a new
user would (``nous templates init --root ROOT``; ``--templates FILE`` sets
``templates_file`` instead; without either, the shipped templates), starts
``nous run --dry-run`` on it with the rules reasoner (its first look takes the
first version as the baseline: nothing observed, nothing run), and writes
each later version over the root as an upgrade would (files added,
rewritten, deleted), waiting after each until the daemon has observed and
decided everything; the actions each release started are counted by template.
Then nothing changes for ``--quiet-s`` seconds, and the daemon
is stopped with SIGTERM.

It prints the changes made, the file observations (each change matched to
them: once, never, more than once), decisions per observation by type and
template, CONSIDERED edges per observation, re-decisions and decisions made
while nothing changed, decision lag p50/p95, the daemon's RSS, and its log
lines by level; per release, the runs of each command against the one run per
changed file it would have taken without bursts (with ``--execute``, the runs'
total time against one run per changed file: :mod:`bench.replay_execute`); then
the issues' checks, PASS or MISS. The agent it creates is deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench.common import bench_settings, connected
from bench.replay_execute import RunTimes, runner_environment, runs_settled
from bench.replay_report import Release, Replay, report
from bench.replay_source import Change, Tree, fetch_release, upgrade, version_tree
from bench.soak_process import Daemon
from graph.models import new_id
from graph.settings import WatchSettings
from graph.store.memory import Memory
from graph.watch.files import PathFilter

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = Path("~/.cache/nous-bench/replay")
# Nine consecutive releases of simonw/sqlite-utils (code, tests, Sphinx docs, packaging).
DEFAULT_VERSIONS = "3.33,3.34,3.35,3.35.1,3.35.2,3.36,3.37,3.38,3.39"


class DryRunDaemon(Daemon):
    """``nous run --dry-run`` on the root, as a child process (``execute``: without it)."""

    def __init__(
        self, root: Path, env: dict[str, str], log: Path, agent_id: str, *, execute: bool = False
    ) -> None:
        super().__init__(root, env, log)
        self.agent_id = agent_id
        self.execute = execute

    def start(self) -> None:
        """Start ``python -m scheduler.cli run [--dry-run]`` (the ``nous`` command)."""
        argv = [sys.executable, "-m", "scheduler.cli", "run"]
        argv += [] if self.execute else ["--dry-run"]
        argv += ["--root", str(self.root), "--agent-id", self.agent_id]
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                argv, cwd=self.log.parent, env=self.env, stdout=sink, stderr=subprocess.STDOUT
            )
        self.started_at = time.monotonic()


def choose_templates(root: Path, given: Path | None, env: dict[str, str]) -> dict[str, str]:
    """Say which templates the daemon will load; the environment that makes it so.

    ``--templates FILE`` wins; otherwise ``nous templates init`` writes the
    root's ``.nous/templates.yaml`` from the pack that fits, which the daemon
    finds without a setting. A build without that command keeps the shipped
    templates.
    """
    if given is not None:
        print(f"templates: {given} (--templates)")
        return {"NOUS_TEMPLATES_FILE": str(given.resolve())}
    command = [sys.executable, "-m", "scheduler.cli", "templates", "init", "--root", str(root)]
    done = subprocess.run(
        command, cwd=root.parent, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode == 0:
        print(f"templates: nous templates init: {done.stdout.strip()}")
    elif "invalid choice" in done.stderr:
        print("templates: shipped (this build has no `nous templates init`)")
    else:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"templates: shipped (nous templates init exited {done.returncode}: {last})")
    return {}


async def replay(
    versions: Sequence[tuple[str, Tree]],
    workdir: Path,
    memory: Memory,
    env: dict[str, str],
    *,
    templates: Path | None = None,
    settle_s: float = 900.0,
    quiet_s: float = 60.0,
    execute: bool = False,
) -> Replay:
    """Replay ``versions`` (name, tree) into a dry-run daemon for ``memory``'s agent.

    The first version is there before the daemon starts: its first look records it as the
    baseline (no observation, no decision). Each later version is one release written; the
    actions each starts are counted by template. With ``execute`` the commands run for
    real (``env`` must be able to run them) and each release waits for its runs to end.
    """
    root = workdir / "root"
    root.mkdir()
    first, tree = versions[0]
    baseline = upgrade(root, {}, tree, first)
    env = {**env, **choose_templates(root, templates, env)}
    daemon = DryRunDaemon(root, env, workdir / "daemon.log", memory.agent_id, execute=execute)
    daemon.start()
    rss: dict[str, int | None] = {}
    changes: list[Change] = []
    runs: list[Release] = []
    try:
        await _baseline_taken(daemon, settle_s)
        print(f"version {first}: {len(baseline)} files written before the start (the baseline)")
        rss["after the first version"] = daemon.rss_kb()
        for (name, new), (_, old) in zip(versions[1:], versions, strict=False):
            written = upgrade(root, old, new, name)
            changes += written
            runs_before, files_before = await _acts(memory)
            await _caught_up(memory, daemon, len(changes), settle_s, name)
            if execute:
                await runs_settled(memory, settle_s, name)
            runs_after, files_after = await _acts(memory)
            runs.append(
                Release(name, written, runs_after - runs_before, files_after - files_before)
            )
        before_quiet = len(await memory.read("bench/replay_decisions"))
        await asyncio.sleep(quiet_s)
        quiet = len(await memory.read("bench/replay_decisions")) - before_quiet
        rss["end"] = daemon.rss_kb()
    finally:
        daemon.signal(signal.SIGTERM)
    return Replay(
        changes=changes,
        observations=await memory.read("bench/replay_observations"),
        decisions=await memory.read("bench/replay_decisions"),
        log=daemon.output(),
        rss_kb=rss,
        quiet_decisions=quiet,
        baseline=len(baseline),
        releases=runs,
        run_times=RunTimes.of(await memory.read("bench/replay_runs")) if execute else None,
    )


async def _acts(memory: Memory) -> tuple[Counter[str], Counter[str]]:
    """The ACT decisions so far by template (each one run: a burst is one), and the changes
    they considered (one run each, were each change its own run)."""
    rows = [r for r in await memory.read("bench/replay_decisions") if r["type"] == "act"]
    runs = Counter(str(r["template"]) for r in rows)
    files: Counter[str] = Counter()
    for r in rows:
        files[str(r["template"])] += int(r["considered"])
    return runs, files


async def _baseline_taken(daemon: Daemon, timeout_s: float) -> None:
    """Wait until the daemon's first look has recorded the baseline."""
    started = time.monotonic()
    while "baseline: " not in daemon.output():
        if daemon.process is not None and daemon.process.poll() is not None:
            raise RuntimeError(f"the daemon exited {daemon.process.returncode}; see {daemon.log}")
        if time.monotonic() - started > timeout_s:
            raise RuntimeError(f"no baseline within {timeout_s:g} s; see {daemon.log}")
        await asyncio.sleep(0.5)


async def _caught_up(
    memory: Memory, daemon: Daemon, changes: int, timeout_s: float, version: str
) -> None:
    """Wait until the daemon has observed ``changes`` files and decided on all of them."""
    started = time.monotonic()
    total = unprocessed = 0
    while time.monotonic() - started < timeout_s:
        if daemon.process is not None and daemon.process.poll() is not None:
            raise RuntimeError(f"the daemon exited {daemon.process.returncode}; see {daemon.log}")
        total, unprocessed = await memory.observation_counts()
        if total >= changes and unprocessed == 0:
            break
        await asyncio.sleep(1.0)
    waited = time.monotonic() - started
    print(f"version {version}: {total} observations for {changes} changes so far,"
          f" {unprocessed} undecided, after {waited:.0f} s", flush=True)  # fmt: skip


def trees_of(project: str, versions: Sequence[str], cache: Path) -> list[tuple[str, Tree]]:
    """Each version's files (downloaded and unpacked into ``cache`` once), less ignored paths."""
    ignored = PathFilter(WatchSettings().ignore_patterns).is_ignored
    return [(v, version_tree(fetch_release(project, v, cache), ignored)) for v in versions]


def daemon_environment(uri: str, user: str, password: str) -> dict[str, str]:
    """The daemon's environment: this one less NOUS_ and NEO4J_ keys, the Neo4j found, rules."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOUS_", "NEO4J_"))}
    env.update(PYTHONPATH=str(REPO), NEO4J_URI=uri, NEO4J_USER=user, NEO4J_PASSWORD=password)
    env.update(NOUS_REASONER="rules")
    return env


async def run(args: argparse.Namespace) -> bool:
    versions = [v.strip() for v in args.versions.split(",") if v.strip()]
    trees = trees_of(args.project, versions, args.cache.expanduser())
    async with connected(bench_settings()) as (endpoint, driver):
        print(f"neo4j: {endpoint.describe()}")
        print(f"replaying {args.project} {', '.join(versions)}", flush=True)
        memory = Memory(driver, f"bench-replay-{new_id().lower()}")
        env = daemon_environment(endpoint.uri, endpoint.user, endpoint.password)
        if args.execute:
            # The baseline (one run per changed file) has no hourly budget either.
            top = fetch_release(args.project, versions[-1], args.cache.expanduser())
            env = runner_environment(args.project, top, args.cache.expanduser(), env)
            env["NOUS_BUDGET__ACTIONS_PER_HOUR"] = "100000"
        with tempfile.TemporaryDirectory(prefix="nous-replay-") as tmp:
            try:
                result = await replay(
                    trees,
                    Path(tmp),
                    memory,
                    env,
                    templates=args.templates,
                    settle_s=args.settle_s,
                    quiet_s=args.quiet_s,
                    execute=args.execute,
                )
            finally:
                if not args.keep:
                    await memory.forget()
    return report(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", default="sqlite-utils")
    parser.add_argument("--versions", default=DEFAULT_VERSIONS, help="comma-separated, in order")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--templates", type=Path, help="a templates file instead of `init`'s")
    parser.add_argument("--settle-s", type=float, default=900.0)
    parser.add_argument("--quiet-s", type=float, default=60.0)
    parser.add_argument("--keep", action="store_true", help="keep the agent's nodes")
    parser.add_argument(
        "--execute", action="store_true", help="run the commands for real and time them"
    )
    args = parser.parse_args()
    sys.exit(0 if asyncio.run(run(args)) else 1)


if __name__ == "__main__":
    main()
