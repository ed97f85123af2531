"""The cost of a Claude Code hook: ``nous hook UserPromptSubmit`` wall time against 100k nodes.

    python -m bench.hooks [--size 100000] [--prompts 50] [--batch 1000]

One agent's memory is filled with synthetic history (:mod:`bench.recall_data`,
the same as ``bench.recall``). Then each of ``--prompts`` prompts, each
naming a file that has history, is handed to ``nous hook UserPromptSubmit``
as Claude Code does (a new process, the payload on stdin), and the wall time
from spawn to exit is measured, in two ways:

- **alone**: no daemon; the hook process loads the settings, connects to
  Neo4j and runs seed 004's ``pre_turn`` itself;
- **daemon**: a :class:`scheduler.claude.hook_server.HookServer` over the
  same memory listens on the root's socket, as the daemon's
  ``hooks`` part does, and the hook process only forwards the payload;
- **team**: a real team server (``nous mcp --http``, :mod:`bench.hooks_team`)
  over the same memory, on 127.0.0.1; the hook has its address and a token
  file and no database credentials, and posts the payload to it.

Beside them, in the same run, ``python -c pass`` with the same interpreter,
as many times: the baseline. Every hook's answer must carry the recalled
context (a hook that failed fast would be cheap and wrong).

Targets: via the daemon, hook p50 <= 3x ``python -c pass`` p50 (issue 18);
alone, <= 10x (issue 27); via the team server, the daemon's 3x (the hook
only forwards there too; issue 57). Every ratio is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.common import bench_settings, connected, hook_environment, percentile, verdict
from bench.hooks_team import team_server
from bench.recall import count_nodes, fill, observations
from bench.recall_data import History
from graph.models import new_id
from graph.store.memory import Memory
from scheduler.claude.hook_server import HookServer
from scheduler.claude.hook_socket import socket_path
from scheduler.compose.session import build_session

TARGET_RATIO = 3.0
"""Via the daemon (issue 18)."""
ALONE_TARGET_RATIO = 10.0
"""Alone, no daemon (issue 27)."""
NOUS = Path(sys.executable).parent / "nous"


async def wall_time(
    argv: list[str], stdin: bytes, env: dict[str, str], cwd: Path
) -> tuple[float, str]:
    """Seconds from spawn to exit of ``argv``, and what it printed."""
    start = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        cwd=cwd,
    )
    out, err = await proc.communicate(stdin)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}: {err.decode()[-500:]}")
    return elapsed, out.decode()


async def measure_hooks(
    root: Path, prompts: list[str], env: dict[str, str]
) -> tuple[list[float], int]:
    """Milliseconds per hook; how many answers carried recalled context."""
    timings: list[float] = []
    answered = 0
    session = new_id().lower()
    for prompt in prompts:
        payload = {"session_id": session, "hook_event_name": "UserPromptSubmit", "prompt": prompt}
        argv = [str(NOUS), "hook", "UserPromptSubmit", "--root", str(root)]
        seconds, out = await wall_time(argv, json.dumps(payload).encode(), env, root)
        timings.append(seconds * 1000)
        if out.strip() and "additionalContext" in out:
            answered += 1
    return timings, answered


async def measure_baseline(count: int, env: dict[str, str], cwd: Path) -> list[float]:
    """Milliseconds per ``python -c pass``."""
    timings = []
    for _ in range(count):
        seconds, _out = await wall_time([sys.executable, "-c", "pass"], b"", env, cwd)
        timings.append(seconds * 1000)
    return timings


def line(label: str, timings: list[float], base_p50: float) -> float:
    p50, p95 = percentile(timings, 50), percentile(timings, 95)
    print(f"{label:<40} p50 {p50:8.1f} ms  p95 {p95:8.1f} ms  ratio p50 {p50 / base_p50:5.2f}x")
    return p50 / base_p50


async def run(size: int, count: int, batch: int) -> bool:
    settings = bench_settings()
    async with connected(settings) as (endpoint, driver):
        memory = Memory(driver, f"bench-hooks-{new_id().lower()}")
        try:
            history = History(memory.agent_id, size)
            seconds = await fill(memory, history, batch)
            nodes = await count_nodes(driver, memory.agent_id)
            print(f"neo4j: {endpoint.describe()}; {nodes:,} nodes filled in {seconds:.1f} s")
            with tempfile.TemporaryDirectory(prefix="bh-", dir="/tmp") as tmp:
                root = Path(tmp)
                files = observations(memory.agent_id, history, root, count)
                prompts = [f"Please fix {o.path} and keep its index current" for o in files]
                env = hook_environment(endpoint, memory.agent_id)
                await measure_baseline(3, env, root)  # warm the page cache
                base = await measure_baseline(len(prompts), env, root)
                alone, alone_ok = await measure_hooks(root, prompts, env)
                server = HookServer(build_session(memory, settings, root), root, 10.0)
                stop = asyncio.Event()
                serving = asyncio.create_task(server.serve(stop))
                for _ in range(1000):  # the socket appears once the server listens
                    if socket_path(root).exists():
                        break
                    await asyncio.sleep(0.01)
                try:
                    daemon, daemon_ok = await measure_hooks(root, prompts, env)
                    work = list(server.work_ms)
                finally:
                    stop.set()
                    await serving
                async with team_server(endpoint, driver, memory.agent_id, root) as team_env:
                    await measure_hooks(root, prompts[:3], team_env)  # the server's first calls
                    team, team_ok = await measure_hooks(root, prompts, team_env)
        finally:
            deleted = await memory.forget(chunk=20_000)
            print(f"deleted {deleted:,} nodes of {memory.agent_id}")
    base_p50 = percentile(base, 50)
    print(f"{len(prompts)} prompts; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    line("python -c pass (baseline)", base, base_p50)
    ratio_alone = line(f"hook alone ({alone_ok} with context)", alone, base_p50)
    ratio_daemon = line(f"hook via daemon ({daemon_ok} with context)", daemon, base_p50)
    line("  of which the daemon's pre_turn", work, base_p50)
    ratio_team = line(f"hook via team server ({team_ok} with context)", team, base_p50)
    every = alone_ok == daemon_ok == team_ok == len(prompts)
    checks = [
        (every, "every answer recalled context"),
        (ratio_daemon <= TARGET_RATIO, f"daemon: p50 {ratio_daemon:.2f}x (target <= 3x)"),
        (ratio_alone <= ALONE_TARGET_RATIO, f"alone: p50 {ratio_alone:.2f}x (target <= 10x)"),
        (ratio_team <= TARGET_RATIO, f"team server: p50 {ratio_team:.2f}x (target <= 3x)"),
    ]
    for ok, text in checks:
        print(f"{verdict(ok)}  {text}")
    return all(ok for ok, _ in checks)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--prompts", type=int, default=50)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.size, args.prompts, args.batch))


if __name__ == "__main__":
    main()
