"""The sandbox probe and a practice run under a root that lacks capabilities.

A daemon started by root with capabilities dropped (``setpriv``, as the
resilience test starts it) must not die of the probe: a candidate it cannot
prepare (no CAP_CHOWN to hand its folder to ``nobody``, no CAP_DAC_OVERRIDE to
reach into it) simply does not work, its folder is removed all the same, and
a practice run that cannot be prepared ends with an error, not an exception.
Each case runs a small Python under ``setpriv`` and reads what it printed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
# What tests/scheduler/test_resilience.py drops, and with it the right to chown and switch user.
DROP_CAPS = ["--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]
NO_CHOWN = ["--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search,-chown,-setuid"]

_PROBE_ALL = """
import json
from rsi import confine
ways = {c.note: confine.works(c) for c in confine.candidates()}
print(json.dumps({"ways": ways, "describe": confine.describe()}))
"""

_RUN_AS_NOBODY = """
import asyncio, json
from rsi import confine, sandbox
dropping = [c for c in confine.candidates() if c.drops_user]
sandbox.confinement = lambda: dropping[-1]  # as if the probe had chosen it
tests = "from solution import *\\n\\ndef test_add():\\n    assert add(2, 3) == 5\\n"
result = asyncio.run(sandbox.run_tests(tests, "def add(x, y):\\n    return x + y\\n", timeout_s=20))
print(json.dumps({"error": result.error, "passed": result.tests_passed}))
"""


def _under_setpriv(caps: list[str], code: str, tmp: Path) -> dict[str, object]:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        if IN_CI:
            pytest.fail("CI=true: this test needs root and setpriv")
        pytest.skip("needs root and setpriv")
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        ["setpriv", *caps, "--", sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize("caps", [DROP_CAPS, NO_CHOWN], ids=["no-dac-override", "no-chown"])
def test_the_probe_without_capabilities_says_no_and_leaves_nothing(
    caps: list[str], tmp_path: Path
) -> None:
    found = _under_setpriv(caps, _PROBE_ALL, tmp_path)
    ways = found["ways"]
    assert isinstance(ways, dict)
    dropping = [note for note in ways if "user 65534" in note]
    assert dropping, "as root, some candidate should drop to nobody"
    assert not any(ways[note] for note in dropping)
    assert isinstance(found["describe"], str)
    assert "rlimits" in found["describe"]
    assert list(tmp_path.iterdir()) == []


def test_a_practice_run_that_cannot_drop_to_nobody_ends_with_an_error(tmp_path: Path) -> None:
    found = _under_setpriv(NO_CHOWN, _RUN_AS_NOBODY, tmp_path)
    assert isinstance(found["error"], str)
    assert "cannot hand the practice folder" in found["error"]
    assert found["passed"] == 0
    assert list(tmp_path.iterdir()) == []
