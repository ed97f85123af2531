"""What the benchmarks share: a Neo4j found the daemon's way, with the schema applied."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

from graph.ids import new_id
from graph.server.finder import Neo4jEndpoint, find_or_start
from graph.settings import Settings, load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from graph.store.migrate import apply_migrations


def bench_settings() -> Settings:
    """Settings from the environment and nous.yaml, as the daemon would read them."""
    return load_settings()


@asynccontextmanager
async def connected(settings: Settings) -> AsyncIterator[tuple[Neo4jEndpoint, GraphDriver]]:
    """A started driver on a migrated database."""
    endpoint = find_or_start(settings.neo4j, environ=dict(os.environ))
    driver = GraphDriver(endpoint.uri, endpoint.user, endpoint.password, database=endpoint.database)
    await driver.start()
    try:
        await apply_migrations(driver)
        yield endpoint, driver
    finally:
        await driver.close()


@asynccontextmanager
async def scratch_agent(driver: GraphDriver, name: str) -> AsyncIterator[Memory]:
    """A new agent ``bench-<name>-…`` on ``driver``, forgotten afterwards (whole, even when
    the bench failed half-way)."""
    memory = Memory(driver, f"bench-{name}-{new_id().lower()}")
    try:
        yield memory
    finally:
        await memory.forget()


def hook_environment(endpoint: Neo4jEndpoint, agent_id: str) -> dict[str, str]:
    """The environment a ``nous hook`` process is started with by a bench: ``PATH``, the
    agent and the Neo4j it finds (nothing else of the caller's)."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "NOUS_AGENT_ID": agent_id,
        "NEO4J_URI": endpoint.uri,
        "NEO4J_USER": endpoint.user,
        "NEO4J_PASSWORD": endpoint.password,
    }


MODEL_OPTIONS = {"base_url": "llm.base_url", "model": "llm.model", "llm_timeout": "llm.timeout_s"}
"""A model bench's ``--base-url``, ``--model`` and ``--llm-timeout``, and the settings each sets."""


def given_options(args: argparse.Namespace, options: Mapping[str, str]) -> dict[str, Any]:
    """Settings overrides from those of ``options`` (``args``' attribute: the setting's
    dotted key) that were given (a value that is not empty or zero)."""
    return {key: getattr(args, name) for name, key in options.items() if getattr(args, name)}


def model_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """Settings overrides from a model bench's ``--base-url``, ``--model`` and
    ``--llm-timeout`` (each only when given)."""
    return given_options(args, MODEL_OPTIONS)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) of values, by linear interpolation."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def verdict(ok: bool) -> str:
    """PASS or MISS, for the lines that compare a figure with its target."""
    return "PASS" if ok else "MISS"


def report_checks(checks: list[tuple[bool, str]]) -> bool:
    """Print each check as PASS or MISS with its text; True when all pass."""
    for ok, text in checks:
        print(f"{verdict(ok)}  {text}")
    return all(ok for ok, _ in checks)


def chosen_arms(text: str, arms: Sequence[str], always: str) -> tuple[str, ...]:
    """``--arms`` read: names from ``arms``, comma-separated, in ``arms``' order; ``always``
    is always in. Raises ValueError naming an unknown arm."""
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = sorted(names - set(arms))
    if unknown:
        raise ValueError(f"unknown arm(s) {', '.join(unknown)}; the arms are {', '.join(arms)}")
    return tuple(arm for arm in arms if arm in names or arm == always)


def arms_argument(arms: Sequence[str], always: str) -> Callable[[str], tuple[str, ...]]:
    """An argparse ``type`` for ``--arms``: :func:`chosen_arms`, an unknown arm a usage error."""

    def read(text: str) -> tuple[str, ...]:
        try:
            return chosen_arms(text, arms, always)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from exc

    return read


def _cpu_times() -> tuple[int, int] | None:
    """(busy, total) jiffies of every CPU since boot, or None where /proc/stat is not."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


async def machine_quiet(
    *, below: float = 0.1, window_s: float = 5.0, windows: int = 3, limit_s: float = 600.0
) -> str:
    """Wait until the machine's CPUs are busy less than ``below`` over ``windows``
    consecutive ``window_s`` (Lucene merges come in bursts with quiet gaps between them:
    after one quiet window of 5 s a million-node hybrid recall still measured p95 43 ms, and
    21 ms once the server had been left alone for minutes).

    After a large write, Neo4j goes on merging its Lucene index segments in the
    background (a vector index's merge rebuilds its graph: minutes of CPU for
    hundreds of thousands of vectors); latency measured meanwhile measures the
    merge. Returns what was waited, for the report. Gives up after ``limit_s``
    (another load on the machine), and at once where CPU times cannot be read.
    """
    start = time.monotonic()
    busy, quiet = 1.0, 0
    before = _cpu_times()
    while time.monotonic() - start < limit_s:
        await asyncio.sleep(window_s)
        after = _cpu_times()
        if before is None or after is None:
            return "did not wait for a quiet machine (no CPU times to read)"
        busy = (after[0] - before[0]) / max(after[1] - before[1], 1)
        quiet = quiet + 1 if busy < below else 0
        before = after
        if quiet >= windows:
            return f"waited {time.monotonic() - start:.0f} s for a quiet machine (CPU {busy:.0%})"
    return f"gave up on a quiet machine after {time.monotonic() - start:.0f} s (CPU {busy:.0%})"
