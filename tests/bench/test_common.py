"""What the benchmarks share: waiting for a quiet machine before timing, the options given."""

from __future__ import annotations

import argparse

import pytest

import bench.common as common
from bench.common import given_options, machine_quiet, model_overrides


async def test_a_quiet_machine_is_waited_for_and_the_wait_is_said() -> None:
    said = await machine_quiet(below=1.01, window_s=0.05)
    assert said.startswith("waited 0 s for a quiet machine (CPU ")


async def test_a_busy_machine_is_given_up_on_after_the_limit() -> None:
    said = await machine_quiet(below=-1.0, window_s=0.05, limit_s=0.2)
    assert said.startswith("gave up on a quiet machine after 0 s")


async def test_no_cpu_times_no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "_cpu_times", lambda: None)
    said = await machine_quiet(window_s=0.01)
    assert said == "did not wait for a quiet machine (no CPU times to read)"


def test_only_the_options_given_become_overrides() -> None:
    args = argparse.Namespace(base_url="http://h:1/v1", model="", llm_timeout=0, agent_id="a")
    assert model_overrides(args) == {"llm.base_url": "http://h:1/v1"}
    assert given_options(args, {"agent_id": "agent_id"}) == {"agent_id": "a"}
