"""Soak: the daemon under a bounded mix of faults for a while (issue 7).

The real daemon (``python -m graph.daemon``) runs against its OWN Neo4j,
started here from the Maven jars on free loopback ports with a home under a
temporary folder (never the shared server on 7687), and an LLM stub on
loopback that fails every third request. For ``--duration`` seconds
(default 600):

* file churn at ``--rate`` changes/s (default 50) over a pool of files, each
  file changed at most once per ``pool / rate`` seconds (created, modified,
  modified, deleted, in turn), plus a note dropped in ``_intake/`` every 30 s,
  which the stand-in Claude Code CLI "processes" for 3 s;
* Neo4j stopped (for 20 s) and started again, twice;
* one SIGKILL of the daemon, and a restart.

Then the churn stops, the daemon drains and is stopped with SIGTERM, started
once more (so it reconciles what the kill left) and stopped again. It prints
the changes made against the file observations written, each change matched
to its observations (once, twice or more, never; by when it was made: see
:mod:`bench.soak_count`), decisions stuck, processes left, and the daemon's
RSS at start and end.

    .venv/bin/python -m bench.soak                 # 10 minutes
    .venv/bin/python -m bench.soak --duration 120  # a shorter try
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.common import verdict
from bench.soak_count import ChangeLog, report, tally
from bench.soak_process import Daemon, processes_under
from cognition.sense.spool import read_pending
from graph.server.finder import find_or_start
from graph.server.finder import stop as stop_neo4j
from graph.settings import Neo4jSettings, child_environment
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from tests.support.llm_stub import LLMStub, RecordedRequest, Reply

REPO = Path(__file__).resolve().parent.parent
CLAUDE = REPO / "tests" / "bin" / "claude"
AGENT = "soak"
POOL = 600
OUTAGE_S = 20.0
INTAKE_EVERY_S = 30.0
SETTLE_S = 120.0

# Valid answers for the five LLM steps; every third request fails instead.
STEP_REPLIES: dict[str, dict[str, Any]] = {
    "OBSERVE": {"brief_summary": "A file changed.", "key_facts": ["file"], "significance": "low"},
    "CATEGORIZE": {"primary_intent": "edit", "domain": "content", "requires_action": "no"},
    "MATCH_PATTERN": {"matched_pattern": "churn", "pattern_confidence": 0.5},
    "EVALUATE": {"options": [], "recommended_option": "WAIT", "reasoning": "Nothing to do."},
    "DECIDE": {"rationale": "Wait and see.", "investigation_questions": []},
}


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class FlakyLLM:
    """Answers the stub's chat requests; every third one is a 500."""

    def __init__(self) -> None:
        self.requests = 0
        self.failed = 0

    def __call__(self, request: RecordedRequest) -> Reply:
        self.requests += 1
        if self.requests % 3 == 0:
            self.failed += 1
            return Reply.error(500)
        return Reply.json(STEP_REPLIES.get(request.step or "", STEP_REPLIES["DECIDE"]))


class Churn:
    """File changes at a steady rate over a pool, each file changed at most once per round."""

    def __init__(self, root: Path, rate: float) -> None:
        self.root, self.rate = root, rate
        self.changes = 0
        self.intake = 0
        self.log = ChangeLog()
        self._step = [0] * POOL
        self._content = [""] * POOL

    def _one(self, index: int) -> None:
        rel = f"notes/n{index:04}.md"
        path = self.root / rel
        step = self._step[index] % 4
        self._step[index] += 1
        # The time before the change: an observation of it is never older (taken after, a
        # descheduled churn could stamp a deletion later than the watcher saw it).
        at = time.time()
        # Each round's first line names the round, so every content (and its hash) is unique.
        if step == 0:
            self._content[index] = f"note {index} round {self._step[index] // 4}\n"
            path.write_text(self._content[index])
        elif step in (1, 2):
            line = f"line {self._step[index]}\n"
            self._content[index] += line
            with path.open("a") as handle:
                handle.write(line)
        else:
            path.unlink()
            self.log.delete(at, rel)
        if step != 3:
            self.log.write(at, rel, self._content[index])
        self.changes += 1

    async def run(self, until: float) -> None:
        started = time.monotonic()
        next_intake = started + INTAKE_EVERY_S / 2
        while time.monotonic() < until:
            due = int((time.monotonic() - started) * self.rate)
            while self.changes < due:
                self._one(self.changes % POOL)
            if time.monotonic() >= next_intake:
                self.intake += 1
                rel = f"_intake/drop{self.intake:03}.md"
                at = time.time()
                (self.root / rel).write_text("# a note\n")
                self.log.write(at, rel, "# a note\n")
                self.changes += 1
                next_intake += INTAKE_EVERY_S
            await asyncio.sleep(0.02)


@contextlib.contextmanager
def workspace(keep: bool) -> Iterator[Path]:
    """A temporary folder for everything the soak creates; removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="nous-soak-"))
    try:
        yield folder
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


async def counts(settings: Neo4jSettings, uri: str) -> tuple[dict[str, int], list[Any]]:
    """The soak agent's final counts and its file observations, read from its Neo4j."""
    driver = GraphDriver(uri, settings.user, settings.password.get_secret_value())
    await driver.start()
    try:
        memory = Memory(driver, AGENT)
        rows = await memory.read("bench/soak_counts")
        observations = await memory.read("bench/soak_file_observations")
        return {k: int(v) for k, v in rows[0].items()}, observations
    finally:
        await driver.close()


async def soak(duration_s: float, rate: float, keep: bool, kill_in_outage: bool = False) -> int:
    with workspace(keep) as folder:
        root = folder / "root"
        (root / "notes").mkdir(parents=True)
        (root / "_intake").mkdir()
        neo4j = Neo4jSettings(
            home=folder / "neo4j",
            bolt_port=free_port(),
            http_port=free_port(),
            heap_size="512m",
            pagecache_size="128m",
            browser_version=None,
        )
        print(f"soak: {duration_s:.0f} s, {rate:g} changes/s, workspace {folder}", flush=True)
        print(f"soak: starting its own Neo4j on bolt port {neo4j.bolt_port} …", flush=True)
        environ = child_environment()
        endpoint = await asyncio.to_thread(find_or_start, neo4j, environ=environ)
        script = folder / "claude.json"
        script.write_text(json.dumps({"sleep_s": 3}))
        llm = FlakyLLM()
        with LLMStub(default=llm) as stub:
            env = {k: v for k, v in environ.items() if not k.startswith(("NOUS_", "NEO4J_"))}
            env.update(
                PYTHONPATH=str(REPO),
                NEO4J_URI=endpoint.uri,
                NEO4J_USER=neo4j.user,
                NEO4J_PASSWORD=neo4j.password.get_secret_value(),
                NOUS_AGENT_ID=AGENT,
                NOUS_REASONER="auto",
                NOUS_LLM__BASE_URL=stub.base_url,
                NOUS_LLM__TIMEOUT_S="10",
                NOUS_EXECUTORS__CLAUDE_BINARY=str(CLAUDE),
                NOUS_SCHEDULE__STATUS_INTERVAL_S="10",
                FAKE_CLAUDE_SCRIPT=str(script),
            )
            daemon = Daemon(root, env, folder / "daemon.log")
            try:
                return await _run(
                    daemon,
                    root,
                    neo4j,
                    environ,
                    endpoint.uri,
                    duration_s,
                    rate,
                    llm,
                    kill_in_outage,
                )
            finally:
                if daemon.process is not None and daemon.process.poll() is None:
                    daemon.signal(signal.SIGTERM)
                await asyncio.to_thread(stop_neo4j, neo4j)
                left = processes_under(folder)
                print(f"processes left: {len(left)} {verdict(not left)} (target 0)")
                for line in left:
                    print(f"  {line}")


async def _run(
    daemon: Daemon,
    root: Path,
    neo4j: Neo4jSettings,
    environ: dict[str, str],
    uri: str,
    duration_s: float,
    rate: float,
    llm: FlakyLLM,
    kill_in_outage: bool,
) -> int:
    daemon.start()
    if not await daemon.wait_for("index sync:", 180):
        print(f"soak: the daemon did not start:\n{daemon.output()[-3000:]}")
        return 1
    rss: dict[str, int | None] = {}
    churn = Churn(root, rate)
    until = time.monotonic() + duration_s
    churning = asyncio.create_task(churn.run(until))
    began = time.monotonic()

    async def at(fraction: float) -> None:
        await asyncio.sleep(max(0.0, began + fraction * duration_s - time.monotonic()))

    async def outage(n: int, *, kill: bool = False) -> None:
        print(f"[{time.monotonic() - began:5.0f} s] Neo4j stop {n}", flush=True)
        await asyncio.to_thread(stop_neo4j, neo4j)
        if kill:  # the SIGKILL halfway through the outage, with the spool full of waiting work
            await asyncio.sleep(OUTAGE_S / 2)
            sigkill()
            await asyncio.sleep(OUTAGE_S / 2)
        else:
            await asyncio.sleep(OUTAGE_S)
        await asyncio.to_thread(find_or_start, neo4j, environ=environ)
        print(f"[{time.monotonic() - began:5.0f} s] Neo4j back {n}", flush=True)

    def sigkill() -> None:
        print(f"[{time.monotonic() - began:5.0f} s] SIGKILL the daemon", flush=True)
        churn.log.kill_at = time.time()
        daemon.signal(signal.SIGKILL)
        spooled = len(read_pending(root / ".nous" / "intake.spool"))
        print(
            f"[{time.monotonic() - began:5.0f} s] the spool held {spooled} at the kill", flush=True
        )

    await at(min(0.1, 60 / duration_s))
    rss["first start"] = daemon.rss_kb()
    await at(0.2)
    await outage(1, kill=kill_in_outage)
    if not kill_in_outage:
        await at(0.45)
        sigkill()
    print(f"[{time.monotonic() - began:5.0f} s] start the daemon again", flush=True)
    mark = len(daemon.output())
    daemon.start()
    # Back once its watcher is armed (the log says "watching … (N files)"); changes made
    # before that are the start-up rescan's to find.
    if not await daemon.wait_for("graph.watch.watcher: watching", 180, after=mark, poll_s=0.05):
        print(f"soak: the daemon did not start again:\n{daemon.output()[mark:][-3000:]}")
        churning.cancel()
        return 1
    churn.log.back_at = time.time()
    print(f"[{time.monotonic() - began:5.0f} s] the daemon is back", flush=True)
    await daemon.wait_for("index sync:", 180, after=mark)
    await at(0.55)
    rss["after restart"] = daemon.rss_kb()
    await at(0.65)
    await outage(2)
    await churning
    rss["end of churn"] = daemon.rss_kb()
    print(f"[{time.monotonic() - began:5.0f} s] churn done: {churn.changes} changes", flush=True)

    # Let the writer drain (the status line's queue reaches 0), then stop and reconcile.
    mark = len(daemon.output())
    await daemon.wait_for("queue 0 ", SETTLE_S, after=mark)
    rss["drained"] = daemon.rss_kb()
    stopped = daemon.signal(signal.SIGTERM)
    daemon.start()
    mark = len(daemon.output())
    await daemon.wait_for("recovered", 180, after=mark)
    restarted = daemon.signal(signal.SIGTERM)
    final, observations = await counts(neo4j, uri)
    _report(churn, final, rss, llm, stopped, restarted, daemon.output())
    for line in report(tally(churn.log, observations)):
        print(line)
    return 0


def _report(
    churn: Churn,
    final: dict[str, int],
    rss: dict[str, int | None],
    llm: FlakyLLM,
    stopped: int,
    restarted: int,
    output: str,
) -> None:
    observed = final["file_observations"]
    print(f"changes made:              {churn.changes} ({churn.intake} intake notes)")
    print(
        f"file observations written: {observed} ({observed - churn.changes:+d})"
        f" {verdict(observed == churn.changes)} (target: equal)"
    )
    stuck = final["acting_decisions"] + final["unfinished_executions"]
    print(
        f"decisions stuck:           {final['acting_decisions']} acting,"
        f" {final['unfinished_executions']} unfinished executions {verdict(stuck == 0)} (target 0)"
    )
    print(f"LLM requests:              {llm.requests}, {llm.failed} failed on purpose")
    print(f"exit codes:                SIGTERM {stopped}, after reconciling {restarted}")
    print(f"tracebacks in the log:     {output.count('Traceback')}")
    replays = [line for line in output.splitlines() if "replayed " in line and "spool" in line]
    print(f"spool replays:             {len(replays)}")
    for line in replays:
        print(f"  {line.partition(' INFO ')[2] or line}")
    for name, value in rss.items():
        print(f"daemon RSS {name + ':':<16}{value} KB")
    start, end = rss.get("after restart"), rss.get("drained")
    if start and end:
        growth = (end - start) / start * 100
        print(
            f"RSS growth (same process, after restart → drained): {growth:+.1f} %"
            f" {verdict(growth <= 10)} (target ≤ 10 %)"
        )


def main() -> int:
    """Run the soak; the figures go to stdout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of churn")
    parser.add_argument("--rate", type=float, default=50.0, help="file changes per second")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--kill-in-outage",
        action="store_true",
        help="SIGKILL the daemon halfway through the first Neo4j outage instead of at 0.45",
    )
    args = parser.parse_args()
    return asyncio.run(soak(args.duration, args.rate, args.keep, args.kill_in_outage))


if __name__ == "__main__":
    sys.exit(main())
