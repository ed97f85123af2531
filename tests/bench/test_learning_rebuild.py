"""A kept learning run on another Neo4j: Nous's memory rebuilt from the replies recorded."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest

from bench import learning_replies, learning_state
from bench.learning import Arms, Sitting, decide_on, learning_settings
from bench.learning_rebuild import rebuild, remembers
from bench.learning_runner import Runner, Tally, stream
from bench.learning_state import StateError
from graph.settings import load_settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory
from tests.support.llm_stub import LLMStub, Reply

EMPTY = Path(__file__).resolve().parents[1] / "support" / "empty.yaml"


async def recorded_run(
    driver: GraphDriver,
    stub: LLMStub,
    root: Path,
    replies: Path,
    agent: str,
    count: int,
    start: int = 0,
) -> list[Tally]:
    """Observations ``start`` to ``count`` decided by ``agent`` in one sitting through a
    recording proxy; their tallies."""
    stub.answer_from_schema = True  # each request answered as a constraining server would
    proxy = learning_replies.RecordingProxy(stub.base_url, replies)
    try:
        settings = learning_settings(load_settings(EMPTY), proxy.base_url)
        items = stream(count, seed=3)
        runner = Runner(settings, driver, root, items)
        memory, runtime = await runner.open(agent)
        tallies = []
        try:
            for index in range(start, count):
                proxy.observation = index
                tallies.append(await runner.decide(memory, runtime, items[index]))
        finally:
            await runner.close(memory, runtime, forget=False)
    finally:
        proxy.close()
    return tallies


async def test_a_missing_memory_is_rebuilt_from_the_recorded_replies_without_the_model(
    driver: GraphDriver, tmp_path: Path
) -> None:
    agent, replies = f"test-rebuild-{tmp_path.name}", tmp_path / "replies.jsonl"
    items = stream(3, seed=3)
    with LLMStub() as stub:
        tallies = await recorded_run(driver, stub, tmp_path / "first", replies, agent, 3)
        asked = len(stub.chat_requests)
        lines = [json.loads(line) for line in replies.read_text().splitlines()]
        posts = [line for line in lines if line["method"] == "POST"]
        assert asked >= 3 and len(posts) == asked and all(t.by_model for t in tallies)
        assert [p["observation"] for p in posts] == sorted(p["observation"] for p in posts)
        assert {p["observation"] for p in posts} == {0, 1, 2} and posts[0]["step"]
        memory = Memory(driver, agent)
        await memory.forget()  # another machine: its Neo4j has never seen the agent
        assert not await remembers(driver, agent)

        settings = learning_settings(load_settings(EMPTY), stub.base_url)
        await rebuild(settings, driver, tmp_path / "again", items, tallies, agent, replies)
        assert len(stub.chat_requests) == asked  # every answer was a recorded one
    assert await memory.observation_counts() == (3, 0)
    await memory.forget()


async def test_a_rebuild_that_comes_out_otherwise_stops_and_forgets_what_it_built(
    driver: GraphDriver, tmp_path: Path
) -> None:
    agent, replies = f"test-rebuild-odd-{tmp_path.name}", tmp_path / "replies.jsonl"
    items = stream(2, seed=3)
    with LLMStub() as stub:
        tallies = await recorded_run(driver, stub, tmp_path / "first", replies, agent, 2)
        memory = Memory(driver, agent)
        await memory.forget()
        settings = learning_settings(load_settings(EMPTY), stub.base_url)
        wrong = [tallies[0], replace(tallies[1], escalations=tallies[1].escalations + 1)]
        with pytest.raises(StateError, match="observation 2 came out as"):
            await rebuild(settings, driver, tmp_path / "again", items, wrong, agent, replies)
        assert await memory.observation_counts() == (0, 0)

        # Replies for one observation fewer than tallied: the request has none to answer it.
        recorded_lines = replies.read_text().splitlines()
        kept = [line for line in recorded_lines if json.loads(line)["observation"] == 0]
        replies.write_text("\n".join(kept) + "\n")
        with pytest.raises(StateError, match=r"observation 2: POST .* has no recorded reply"):
            await rebuild(settings, driver, tmp_path / "third", items, tallies, agent, replies)
        assert await memory.observation_counts() == (0, 0)


async def test_a_recording_of_two_sittings_rebuilds_though_each_agreed_a_format_anew(
    driver: GraphDriver, tmp_path: Path
) -> None:
    # Each sitting's client asks json_schema first and is refused, as llama-cpp-python's
    # server refuses it; the rebuild is one client, refused once.
    agent, replies = f"test-rebuild-sittings-{tmp_path.name}", tmp_path / "replies.jsonl"
    with LLMStub() as stub:
        stub.refused_formats = {"json_schema"}
        stub.refusal = Reply.error(500, {"error": {"message": "response_format: 'json_schema'"}})
        tallies = await recorded_run(driver, stub, tmp_path / "one", replies, agent, 2)
        tallies += await recorded_run(driver, stub, tmp_path / "two", replies, agent, 3, start=2)
        refusals = [r.observation for r in learning_replies.load(replies, 3) if r.status == 500]
        assert refusals == [0, 2]  # one at the start of each sitting
        memory = Memory(driver, agent)
        await memory.forget()
        settings = learning_settings(load_settings(EMPTY), stub.base_url)
        asked = len(stub.chat_requests)
        await rebuild(settings, driver, tmp_path / "again", stream(3, 3), tallies, agent, replies)
        assert len(stub.chat_requests) == asked
    assert await memory.observation_counts() == (3, 0)
    await memory.forget()


def test_replies_of_an_observation_not_tallied_are_left_out_and_a_bad_line_is_named(
    tmp_path: Path,
) -> None:
    replies = tmp_path / "replies.jsonl"
    line = {"method": "POST", "path": "/chat/completions", "step": "s", "status": 200, "body": "{}"}
    replies.write_text(
        "\n".join(json.dumps({**line, "observation": i}) for i in range(3)) + "\n", "utf-8"
    )
    assert [r.observation for r in learning_replies.load(replies, 2)] == [0, 1]
    learning_replies.trim(replies, 2)  # observation 3 was never tallied: its replies go
    assert [r.observation for r in learning_replies.load(replies, 10)] == [0, 1]
    with replies.open("a", encoding="utf-8") as out:
        out.write('{"observation": "x"\n')
    with pytest.raises(ValueError, match=r"replies\.jsonl:3: not a recorded reply"):
        learning_replies.load(replies, 2)
    replies.write_text(json.dumps({**line, "observation": "x"}) + "\n", "utf-8")
    with pytest.raises(ValueError, match=r"replies\.jsonl:1: .*observation must be a number"):
        learning_replies.load(replies, 2)


async def test_a_rebuild_without_replies_for_the_model_is_refused(
    driver: GraphDriver, tmp_path: Path
) -> None:
    settings = learning_settings(load_settings(EMPTY), "http://127.0.0.1:9/v1")
    with pytest.raises(StateError, match="no recorded replies"):
        await rebuild(
            settings, driver, tmp_path, stream(1, 3), [Tally()], "nobody", tmp_path / "none"
        )


async def test_a_kept_run_on_a_neo4j_without_its_memory_rebuilds_it_and_goes_on(
    driver: GraphDriver, tmp_path: Path
) -> None:
    # The whole sitting as the command runs it: recorded through the proxy, paused, the
    # memory gone (another machine), then rebuilt from the replies before the run goes on.
    items, state = stream(3, seed=3), tmp_path / "state"
    params = {"observations": 3, "seed": 3}
    replies = state / learning_replies.REPLIES_FILE

    def sitting_of(arms: Arms) -> Sitting:
        kept = learning_state.load(state, params, f"test-carried-{tmp_path.name}", arms)
        return Sitting(
            agent=kept.agent,
            keep=lambda done: learning_state.save(state, kept, done),
            pause=lambda: learning_state.stop_asked(state),
            kept=True,
        )

    with LLMStub() as stub:
        stub.answer_from_schema = True
        settings = learning_settings(load_settings(EMPTY), stub.base_url)
        first = Arms()
        sitting = sitting_of(first)
        (state / "stop").touch()
        await decide_on(driver, settings, state, items, first, sitting, 1, replies)
        assert len(first.nous) == 1 and first.nous[0].by_model == 1
        recorded = learning_replies.load(replies, 10)
        assert recorded and {r.observation for r in recorded} == {0}
        memory = Memory(driver, sitting.agent)
        await memory.forget()

        second = Arms()
        out = io.StringIO()
        with redirect_stdout(out):
            await decide_on(driver, settings, state, items, second, sitting_of(second), 1, replies)
    assert "rebuilding it from observations 1-1" in out.getvalue()
    assert len(second.nous) == len(second.base) == 3 and second.nous[0] == first.nous[0]
    again = learning_replies.load(replies, 10)
    assert again[: len(recorded)] == recorded  # the rebuild recorded nothing of its own
    assert {r.observation for r in again[len(recorded) :]} == {1, 2}
    assert await memory.observation_counts() == (0, 0)  # all decided: forgotten
