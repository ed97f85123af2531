"""Waiting for a condition instead of sleeping a fixed time: the test fails, naming what it
waited for, when the condition does not hold in time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest


async def eventually(
    check: Callable[[], Awaitable[bool]], what: str = "condition", timeout_s: float = 20.0
) -> None:
    """Poll ``check`` until it returns True; fail the test after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not await check():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not met within {timeout_s:g} s")
        await asyncio.sleep(0.05)
