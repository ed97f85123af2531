"""Fixtures of the scheduler tests: the real daemon in a subprocess."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.daemon import QUICK_AND_DRY, Daemon


@pytest.fixture
def start_daemon(
    tmp_path: Path, neo4j_env: dict[str, str], agent_id: str
) -> Iterator[Callable[..., Daemon]]:
    started: list[Daemon] = []

    def start(root: Path, prefix: list[str] | None = None, **extra: str) -> Daemon:
        env = {**neo4j_env, **QUICK_AND_DRY, **extra}
        log = tmp_path / f"daemon-{len(started)}.log"
        daemon = Daemon(root, agent_id, env, log, prefix or [])
        started.append(daemon)
        return daemon

    yield start
    for daemon in started:
        if daemon.process.poll() is None:
            daemon.process.kill()
            daemon.process.wait()
        daemon.close()
