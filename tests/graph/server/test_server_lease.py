"""Test sessions sharing one Maven-run Neo4j: the last one to end stops it (tests/conftest)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import server_lease


@pytest.fixture
def other_session() -> Iterator[int]:
    """The pid of a live process standing for a second test session."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process.pid
    process.kill()
    process.wait()


@pytest.fixture
def gone_session() -> int:
    """The pid of a process that has ended (a test session killed)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_the_starter_alone_stops_its_server(tmp_path: Path) -> None:
    leases = server_lease.lease_dir(7687, tmp_path)
    server_lease.take(leases, 101)
    assert server_lease.leave(leases, 101, tmp_path / "home") == tmp_path / "home"


def test_a_second_session_keeps_the_server_until_it_ends(
    tmp_path: Path, other_session: int, gone_session: int
) -> None:
    leases = server_lease.lease_dir(7687, tmp_path)
    starter = gone_session  # whether the session leaving is still alive does not matter
    server_lease.take(leases, starter)
    server_lease.take(leases, other_session)
    # The starter ends first: the other session still uses the server, so nothing is stopped.
    assert server_lease.leave(leases, starter, tmp_path / "home") is None
    # The last one to end stops the server the starter handed over, once.
    assert server_lease.leave(leases, other_session, None) == tmp_path / "home"
    assert not (leases / server_lease.HANDED_OFF).exists()


def test_a_session_that_found_a_server_never_stops_it_alone(tmp_path: Path) -> None:
    # A server the developer started (`nous neo4j start`): no session started it.
    leases = server_lease.lease_dir(7687, tmp_path)
    server_lease.take(leases, 202)
    assert server_lease.leave(leases, 202, None) is None


def test_a_killed_session_does_not_hold_the_server(tmp_path: Path, gone_session: int) -> None:
    leases = server_lease.lease_dir(7687, tmp_path)
    server_lease.take(leases, gone_session)  # its process is gone; its lease file stayed
    server_lease.take(leases, 303)
    assert server_lease.leave(leases, 303, tmp_path / "home") == tmp_path / "home"
