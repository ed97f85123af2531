"""Nous's memory rebuilt for a kept learning run whose Neo4j does not hold it.

A kept run (``--state DIR``) leaves Nous's memory in Neo4j between sittings. A
sitting on another machine, or on a wiped store, finds the agent missing; then
the observations already tallied are decided again, in order, on a fresh
memory under the same agent: with the model, against the replies it gave
(:mod:`bench.learning_replies`); with the rules, as they are. Every observation
must come out as it was tallied, else the run stops with an error naming the
observation, and the partial memory is forgotten.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path

from bench import learning_replies
from bench.learning_runner import Item, Runner, Tally
from bench.learning_state import StateError
from graph.settings import Settings
from graph.store.driver import GraphDriver
from graph.store.memory import Memory


async def carry_over(
    stack: contextlib.AsyncExitStack,
    driver: GraphDriver,
    settings: Settings,
    root: Path,
    items: Sequence[Item],
    tallied: Sequence[Tally],
    agent: str,
    replies: Path,
) -> tuple[Settings, Callable[[int], None]]:
    """Nous's settings for a sitting of a kept run, and what to call before each observation.

    When this Neo4j does not hold ``agent``'s memory of the ``tallied``
    observations, it is rebuilt first (:func:`rebuild`). With the model, the
    settings returned send Nous's requests through a proxy (closed with
    ``stack``) that records each reply in ``replies`` under the observation the
    callable last named.
    """
    model = settings.reasoner == "llm"
    if tallied and not await remembers(driver, agent):
        print(
            f"Nous's memory is not in this Neo4j: rebuilding it from observations 1-{len(tallied)}"
        )
        await rebuild(settings, driver, root, items, tallied, agent, replies if model else None)
    if not model:
        return settings, lambda index: None
    learning_replies.trim(replies, len(tallied))
    proxy = learning_replies.RecordingProxy(settings.llm.base_url, replies)
    stack.callback(proxy.close)
    recorded = settings.model_copy(deep=True)
    recorded.llm.base_url = proxy.base_url
    return recorded, lambda index: setattr(proxy, "observation", index)


async def remembers(driver: GraphDriver, agent: str) -> bool:
    """Whether this Neo4j holds any observation of ``agent``."""
    total, _ = await Memory(driver, agent).observation_counts()
    return total > 0


async def rebuild(
    settings: Settings,
    driver: GraphDriver,
    root: Path,
    items: Sequence[Item],
    tallied: Sequence[Tally],
    agent: str,
    replies: Path | None,
) -> None:
    """Decide ``items[:len(tallied)]`` again as ``agent`` on a runner rooted at ``root``.

    With ``replies`` (the model reasoned), each request is answered with the
    reply recorded for it. Raises :class:`StateError` when an observation comes
    out otherwise than ``tallied`` says, or its replies do not match its requests.
    """
    settings = settings.model_copy(deep=True)
    with contextlib.ExitStack() as stack:
        server = None
        if replies is not None:
            try:
                recorded = learning_replies.load(replies, len(tallied))
            except ValueError as exc:
                raise StateError(str(exc)) from exc
            if not recorded:
                raise StateError(
                    f"{replies}: no recorded replies to rebuild Nous's memory of "
                    f"{len(tallied)} observations with; use another --state folder"
                )
            server = learning_replies.ReplayServer(recorded)
            stack.callback(server.close)
            settings.llm.base_url = server.base_url
        runner = Runner(settings, driver, root, items)
        memory, runtime = await runner.open(agent)
        rebuilt = False
        try:
            for index, wanted in enumerate(tallied):
                if server is not None:
                    server.observation = index
                got = await runner.decide(memory, runtime, items[index])
                problem = _mismatch(index, got, wanted, server)
                if problem:
                    raise StateError(f"rebuilding Nous's memory: {problem}")
                if (index + 1) % 10 == 0 or index + 1 == len(tallied):
                    print(f"  rebuilt {index + 1}/{len(tallied)}", flush=True)
            rebuilt = True
        finally:
            await runner.close(memory, runtime, forget=not rebuilt)


def _mismatch(
    index: int, got: Tally, wanted: Tally, server: learning_replies.ReplayServer | None
) -> str | None:
    if server is not None and server.unmatched:
        return f"{server.unmatched[0]} has no recorded reply"
    if server is not None and server.left_over(index):
        return f"observation {index + 1}: {server.left_over(index)} recorded replies not asked for"
    if got != wanted:
        return f"observation {index + 1} came out as {got}, tallied as {wanted}"
    return None
