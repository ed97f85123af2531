"""The learning-curve bench's parts: the stream, the stand-in's script per path, the tally."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stdout
from dataclasses import asdict
from pathlib import Path

import pytest

from bench import learning_state
from bench.learning import Arms, Sitting, learning_settings, run_both
from bench.learning_report import blocks, report, table
from bench.learning_runner import (
    BAD,
    FAILURE,
    GOOD,
    STAND_IN,
    Runner,
    Tally,
    stand_in_script,
    stream,
)
from graph.settings import load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from tests.support.llm_stub import LLMStub


def test_the_stream_is_seeded_and_fails_by_folder() -> None:
    items = stream(2000, seed=7)
    assert items == stream(2000, seed=7)
    assert items != stream(2000, seed=8)
    for folder, rate in ((BAD, 0.9), (GOOD, 0.1)):
        mine = [i for i in items if i.folder == folder]
        assert 800 < len(mine) < 1200
        assert abs(sum(i.fails for i in mine) / len(mine) - rate) < 0.04
    assert len({i.path for i in items}) == len(items)  # each path names one observation


def _stand_in(script: Path, prompt: str, cwd: Path) -> tuple[int, dict[str, object]]:
    env = {"PATH": os.environ.get("PATH", ""), "FAKE_CLAUDE_SCRIPT": str(script)}
    done = subprocess.run(
        [str(STAND_IN), "-p", prompt, "--output-format", "json"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def test_the_stand_in_fails_or_files_by_the_path_in_its_prompt(tmp_path: Path) -> None:
    items = stream(6, seed=3)
    failing = next(i for i in items if i.fails)
    working = next(i for i in items if not i.fails)
    script = tmp_path / "claude.json"
    script.write_text(json.dumps(stand_in_script(items)))

    code, result = _stand_in(script, f"Process the file {failing.path} now.", tmp_path)
    assert code == 1 and result["is_error"] is True and result["result"] == FAILURE

    code, result = _stand_in(script, f"Process the file {working.path} now.", tmp_path)
    assert code == 0 and result["is_error"] is False
    assert (tmp_path / "knowledge" / f"{Path(working.path).stem}.md").is_file()

    code, result = _stand_in(script, "A prompt naming no path of the stream.", tmp_path)
    assert code == 0 and result["is_error"] is False


def _tally(actions: int, failed: int, folder: str) -> Tally:
    tally = Tally(actions=actions, failed=failed)
    tally.actions_by_folder[folder] = actions
    return tally


def test_the_report_compares_the_last_hundred_with_the_baseline() -> None:
    items = stream(200, seed=1)
    baseline = [_tally(1, int(i.fails), i.folder) for i in items]
    # Learned: stops acting on reports after the first 20, keeps acting on notes.
    learned = [
        _tally(1, int(i.fails), i.folder) if i.folder == GOOD or n < 20 else Tally(escalations=1)
        for n, i in enumerate(items)
    ]
    assert [b.actions for b in blocks(baseline, 50) if b is not None] == [50, 50, 50, 50]

    out = io.StringIO()
    with redirect_stdout(out):
        ok = report(items, learned, baseline, 50)
    assert ok, out.getvalue()
    assert "PASS  failed actions" in out.getvalue()

    # Not acting at all has no failures, and misses the second target.
    idle = [Tally(waits=1) for _ in items]
    with redirect_stdout(io.StringIO()):
        assert report(items, idle, baseline, 50) is False


def test_a_baseline_run_over_the_last_hundred_only_is_read_there() -> None:
    # --baseline-over 100: the first blocks have no baseline; the targets read the same tail.
    items = stream(200, seed=1)
    learned = [
        _tally(1, int(i.fails), i.folder) if i.folder == GOOD else Tally(escalations=1)
        for i in items
    ]
    full = [_tally(1, int(i.fails), i.folder) for i in items]
    windowed: list[Tally | None] = [None] * 100 + list(full[100:])
    out = io.StringIO()
    with redirect_stdout(out):
        assert report(items, learned, windowed, 50) is True
    rows = out.getvalue()
    assert "| 1-50 | baseline | not run |" in rows and "| 51-100 | baseline | not run |" in rows
    assert "| 101-150 | baseline | 50 |" in rows
    assert "baseline 100 of 100" not in rows and "baseline 0 of 100" in rows  # rules here
    # A window that starts inside a block: that block's baseline row says what it ran.
    out = io.StringIO()
    with redirect_stdout(out):
        assert report(items, learned, [None] * 90 + list(full[90:]), 50) is True
    assert "| 51-100 | baseline (91-100) | 10 |" in out.getvalue()
    assert "| 101-150 | baseline | 50 |" in out.getvalue()
    # A tail the baseline did not decide whole is no figure.
    short: list[Tally | None] = [None] * 101 + list(full[101:])
    with redirect_stdout(io.StringIO()), pytest.raises(ValueError, match="last 100"):
        report(items, learned, short, 50)


def test_the_command_refuses_a_baseline_window_shorter_than_the_tail() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.learning", "--baseline-over", "99"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 2 and "--baseline-over must be from 100" in done.stderr


async def test_with_an_endpoint_the_model_reasons_the_decisions(
    driver: GraphDriver, tmp_path: Path
) -> None:
    # --base-url: the loop's deliberation asks the model there, not only the rules.
    empty = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
    items = stream(2, seed=3)
    with LLMStub() as stub:
        settings = learning_settings(load_settings(empty), stub.base_url)
        runner = Runner(settings, driver, tmp_path, items)
        memory, runtime = await runner.open(f"test-learning-{tmp_path.name}")
        try:
            await runner.decide(memory, runtime, items[0])
        finally:
            await runner.close(memory, runtime)
        asked = len(stub.chat_requests)
    assert settings.reasoner == "llm" and asked >= 1


async def test_a_kept_run_pauses_and_goes_on_with_the_same_memory(
    driver: GraphDriver, tmp_path: Path
) -> None:
    # --state: a run too long for one sitting pauses when DIR/stop appears and, started
    # again, decides the rest with the same Nous (its memory kept in the graph meanwhile).
    empty = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
    items = stream(4, seed=3)
    params = {"observations": 4, "seed": 3}
    state = tmp_path / "state"

    async def sitting_of(arms: Arms) -> Sitting:
        kept = learning_state.load(state, params, f"test-kept-{tmp_path.name}", arms)
        return Sitting(
            agent=kept.agent,
            keep=lambda done: learning_state.save(state, kept, done),
            pause=lambda: learning_state.stop_asked(state),
            kept=True,
        )

    def runners() -> tuple[Runner, Runner]:
        settings = learning_settings(load_settings(empty))
        return (
            Runner(settings.model_copy(deep=True), driver, state / "nous", items),
            Runner(settings.model_copy(deep=True), driver, state / "base", items),
        )

    first = Arms()
    sitting = await sitting_of(first)
    (state / "stop").touch()  # asked before the first observation: it pauses after it
    await run_both(*runners(), items, first, sitting)
    assert len(first.nous) == len(first.base) == 1 and not (state / "stop").exists()
    memory = Memory(driver, sitting.agent)
    assert (await memory.observation_counts())[0] >= 1  # kept for the next sitting

    second = Arms()
    resumed = await sitting_of(second)
    assert resumed.agent == sitting.agent and len(second.base) == 1
    assert second.nous[0] == first.nous[0]
    await run_both(*runners(), items, second, resumed)
    assert len(second.nous) == len(second.base) == 4
    last = second.base[3]
    assert last is not None
    assert json.loads((state / "run.json").read_text())["base"][3] == asdict(last)
    assert await memory.observation_counts() == (0, 0)  # all decided: forgotten

    with pytest.raises(learning_state.StateError, match=r"run\.json: params\.seed"):
        learning_state.load(state, {"observations": 4, "seed": 4}, "other", Arms())


async def test_the_baseline_decides_only_its_window_and_the_state_keeps_the_gap(
    driver: GraphDriver, tmp_path: Path
) -> None:
    empty = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"
    items = stream(3, seed=3)
    params = {"observations": 3, "seed": 3, "baseline_over": 1}
    state = tmp_path / "state"
    arms = Arms(base_from=2)
    kept = learning_state.load(state, params, f"test-window-{tmp_path.name}", arms)
    sitting = Sitting(
        agent=kept.agent, keep=lambda done: learning_state.save(state, kept, done), kept=True
    )
    settings = learning_settings(load_settings(empty))
    await run_both(
        Runner(settings.model_copy(deep=True), driver, state / "nous", items),
        Runner(settings.model_copy(deep=True), driver, state / "base", items),
        items,
        arms,
        sitting,
    )
    assert len(arms.nous) == 3 and arms.base[:2] == [None, None]
    assert isinstance(arms.base[2], Tally) and arms.base[2].by_model == 0
    again = Arms(base_from=2)
    learning_state.load(state, params, "other", again)
    assert again.base == arms.base and again.nous == arms.nous
    out = io.StringIO()
    with redirect_stdout(out):
        table(items, arms.nous, arms.base, 1)
    assert "| 1-1 | baseline | not run |" in out.getvalue()
    assert "| 3-3 | baseline | not run |" not in out.getvalue()


def test_a_kept_run_may_change_its_length_while_what_it_decided_fits(tmp_path: Path) -> None:
    # A seeded stream of N is the first N of a longer one: a run kept as 300 observations
    # with the baseline over the last 100 may go on as 200 with the baseline over 101-200,
    # as long as no decided observation changes sides of the baseline's window.
    params = {"observations": 300, "seed": 20, "block": 50, "baseline_over": 100}
    kept = learning_state.Kept(params=dict(params), agent="a")
    decided = Arms(nous=[Tally(waits=1)] * 17, base=[None] * 17, base_from=200)
    learning_state.save(tmp_path, kept, decided)

    shorter = Arms(base_from=100)
    again = learning_state.load(tmp_path, {**params, "observations": 200}, "b", shorter)
    assert again.agent == "a" and again.params["observations"] == 200
    assert len(shorter.nous) == 17 and shorter.base == [None] * 17

    with pytest.raises(learning_state.StateError, match="more than --observations 10"):
        learning_state.load(tmp_path, {**params, "observations": 10}, "b", Arms(base_from=0))
    # With the baseline over every observation, the first 17 should have had one.
    with pytest.raises(learning_state.StateError, match="did not decide observation 1,"):
        learning_state.load(tmp_path, {**params, "baseline_over": None}, "b", Arms(base_from=0))
    with pytest.raises(learning_state.StateError, match=r"params\.seed"):
        learning_state.load(tmp_path, {**params, "seed": 21}, "b", Arms(base_from=200))
