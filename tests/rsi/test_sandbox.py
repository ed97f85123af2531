"""The practice sandbox: real pytest in a confined child, and escape attempts that must fail."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from rsi.confine import PROCESSES, confinement
from rsi.sandbox import SandboxResult, run_tests
from tests.support.eventually import eventually

SOLUTION = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return a - b\n"
TESTS = (
    "from solution import *\n"
    "def test_one():\n    assert add(1, 2) == 3\n"
    "def test_zero():\n    assert add(0, 0) == 0\n"
    "def test_neg():\n    assert add(-1, -1) == -2\n"
)


def processes_with(marker: str) -> list[int]:
    """Pids whose name (``/proc/<pid>/comm``, inherited by forks) is ``marker``."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/comm", "rb") as f:
                if f.read().strip() == marker.encode():
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


def new_marker() -> str:
    """A process name no other process has (15 characters, the kernel's limit)."""
    return "nous" + uuid.uuid4().hex[:11]


def name_me(marker: str) -> str:
    """Test code that names its process ``marker`` (PR_SET_NAME); forks inherit the name."""
    return f"import ctypes\nctypes.CDLL(None).prctl(15, {marker.encode()!r}, 0, 0, 0)\n"


async def assert_none_left(marker: str) -> None:
    async def gone() -> bool:
        return not processes_with(marker)

    await eventually(gone, f"no process named {marker} left", timeout_s=5.0)


def escape_test(body: str) -> str:
    """A tests file whose one test passes only if the escape worked."""
    return "import os, sys, socket, subprocess, time\n\ndef test_escape():\n" + "".join(
        f"    {line}\n" for line in body.splitlines()
    )


async def test_a_right_solution_passes_every_test() -> None:
    result = await run_tests(TESTS, SOLUTION, timeout_s=30)
    assert (result.tests_passed, result.tests_total) == (3, 3)
    assert result.success and result.partial_score == 1.0
    assert not result.timed_out and not result.killed and result.error is None


async def test_a_wrong_solution_gets_a_partial_score() -> None:
    result = await run_tests(TESTS, WRONG, timeout_s=30)
    assert (result.tests_passed, result.tests_total) == (1, 3)
    assert not result.success and result.partial_score == pytest.approx(1 / 3)


async def test_a_solution_that_does_not_parse_fails_every_test() -> None:
    result = await run_tests(TESTS, "def add(:\n", timeout_s=30)
    assert result.tests_passed == 0 and not result.success


async def test_the_folder_must_lie_outside_the_watched_root(tmp_path: Path) -> None:
    import tempfile

    from rsi.errors import RSIError

    with pytest.raises(RSIError, match="inside the watched root"):
        await run_tests(TESTS, SOLUTION, timeout_s=5, root=Path(tempfile.gettempdir()))


async def test_writing_outside_its_folder_fails(tmp_path: Path) -> None:
    target = tmp_path / "owned-by-the-daemon" / "written.txt"
    target.parent.mkdir()
    result = await run_tests(
        escape_test(f"open({str(target)!r}, 'w').write('x')"), SOLUTION, timeout_s=20
    )
    assert result.tests_total == 1 and result.tests_passed == 0
    assert not target.exists()


async def test_reading_the_neo4j_password_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_PASSWORD", "canary-secret")
    monkeypatch.setenv("NOUS_LLM__API_KEY", "canary-secret")
    body = (
        "seen = ' '.join(os.environ.values())\n"
        f"try:\n    seen += open('/proc/{os.getpid()}/environ').read()\n"
        "except OSError:\n    pass\n"
        "assert 'canary-secret' in seen"
    )
    result = await run_tests(escape_test(body), SOLUTION, timeout_s=20)
    assert result.tests_total == 1 and result.tests_passed == 0


@pytest.mark.skipif(not confinement().network_isolated, reason="no network namespace here")
async def test_opening_a_socket_fails() -> None:
    body = (
        "try:\n    socket.create_connection(('127.0.0.1', 7687), timeout=2).close()\n"
        "except OSError:\n"
        "    socket.create_connection(('1.1.1.1', 53), timeout=2).close()"
    )
    result = await run_tests(escape_test(body), SOLUTION, timeout_s=20)
    assert result.tests_total == 1 and result.tests_passed == 0


async def test_a_fork_bomb_is_held_and_cleaned_up() -> None:
    # Forks of the test process itself, named so that they can be found from here.
    marker = new_marker()
    body = (
        f"{name_me(marker)}"
        "started = 0\n"
        "for _ in range(500):\n"
        "    try:\n"
        "        pid = os.fork()\n"
        "    except OSError:\n"
        "        break\n"
        "    if pid == 0:\n"
        "        while True:\n"
        "            try:\n"
        "                os.fork()\n"
        "            except OSError:\n"
        "                time.sleep(0.01)\n"
        "    started += 1\n"
        "time.sleep(60)\n"
        "assert started >= 500"
    )
    conf = confinement()
    task = asyncio.create_task(run_tests(escape_test(body), SOLUTION, timeout_s=4))
    peak = 0
    while not task.done():
        if conf.drops_user:
            # The bomb's own processes (named by it): where runs share a user (nobody),
            # other sandboxes on the machine share the limit and only leave the bomb fewer.
            peak = max(peak, len(processes_with(marker)))
        await asyncio.sleep(0.1)
    result = task.result()
    assert result.tests_passed == 0 and result.killed and result.timed_out
    if conf.drops_user:
        assert 0 < peak <= PROCESSES
    await assert_none_left(marker)


async def test_sandboxes_at_once_do_not_share_a_process_limit() -> None:
    """Three runs at once, each holding 20 processes: 60 in all, over one run's limit of 32.
    A user per run keeps each run's count its own (nobody for all made forks fail)."""
    conf = confinement()
    if not (conf.drops_user and conf.own_user):
        pytest.skip(f"runs here do not get a user of their own: {conf.note}")
    body = (
        "import os, time\n"
        "kids = []\n"
        "for _ in range(19):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        time.sleep(3)\n"
        "        os._exit(0)\n"
        "    kids.append(pid)\n"
        "for pid in kids:\n"
        "    os.waitpid(pid, 0)\n"
        "assert len(kids) == 19"
    )
    results = await asyncio.gather(
        *(run_tests(escape_test(body), SOLUTION, timeout_s=30) for _ in range(3))
    )
    assert [r.error for r in results] == [None, None, None]
    assert [r.tests_passed for r in results] == [1, 1, 1]


async def test_allocating_four_gib_fails() -> None:
    result = await run_tests(
        escape_test("block = bytearray(4 * 2**30)\nassert len(block) == 4 * 2**30"),
        SOLUTION,
        timeout_s=20,
    )
    assert result.tests_total == 1 and result.tests_passed == 0


async def test_an_endless_loop_is_killed_at_the_timeout() -> None:
    started = time.monotonic()
    result = await run_tests(escape_test("while True:\n    pass"), SOLUTION, timeout_s=2)
    assert time.monotonic() - started < 10
    assert result.timed_out and result.killed and result.tests_passed == 0
    assert result.error is not None and "timed out" in result.error


async def test_a_child_that_outlives_the_test_is_ended() -> None:
    marker = new_marker()
    body = (
        f"{name_me(marker)}"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    time.sleep(300)\n"
        "    os._exit(0)\n"
        "assert False, 'the child lives on'"
    )
    result = await run_tests(escape_test(body), SOLUTION, timeout_s=20)
    assert result.tests_total == 1 and result.tests_passed == 0
    await assert_none_left(marker)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rsi.sandbox", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_command_prints_one_json_object(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text(TESTS)
    (tmp_path / "s.py").write_text(WRONG)
    done = run_cli("--tests", str(tmp_path / "t.py"), "--solution", str(tmp_path / "s.py"))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert set(printed) == {
        "tests_passed", "tests_total", "timed_out", "killed", "error", "duration_s"
    }  # fmt: skip
    assert (printed["tests_passed"], printed["tests_total"]) == (1, 3)


def test_the_command_refuses_bad_input(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text(TESTS)
    missing = run_cli("--tests", str(tmp_path / "t.py"), "--solution", str(tmp_path / "no.py"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    bad_timeout = run_cli(
        "--tests", str(tmp_path / "t.py"), "--solution", str(tmp_path / "t.py"), "--timeout", "0"
    )
    assert bad_timeout.returncode == 2


def test_a_result_without_tests_is_no_success() -> None:
    assert not SandboxResult(0, 0, False, False, "no test ran", 0.1).success
