"""Process checks for tests: is a pid still a live process?"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie awaiting its reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rpartition(")")[2].split()[0] not in {"Z", "X"}


async def gone(pid: int, within_s: float = 3.0) -> bool:
    """Wait until ``pid`` is no longer a live process; False if it still is after ``within_s``."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not running(pid):
            return True
        await asyncio.sleep(0.02)
    return False
