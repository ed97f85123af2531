"""A hook no daemon answers: the hook process does the event's work itself.

:mod:`scheduler.claude.hook_client` reads the arguments and the payload and
asks the daemon; when none takes the hook it calls :func:`answer_alone`,
which loads the settings, connects to the agent's Neo4j and lets
:class:`scheduler.claude.session.ClaudeSession` do the event's work, within
``claude.hook_timeout_s`` (the process's watchdog lengthened to it, and
asyncio's timeout inside it). It reads only the settings a hook uses
(:func:`graph.settings_lean.load_hook_settings`, without pydantic). This
module imports nothing of the client: the client calls it, never the other
way.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from graph.server.address import local_uri
from graph.settings_lean import HookSettings, load_hook_settings
from graph.store.lean import import_asyncio, plain_bolt
from scheduler.claude.events import BY_NAME
from scheduler.claude.payload import parse_payload

if TYPE_CHECKING:
    from graph.settings import Settings
    from scheduler.claude.hook_watchdog import Watchdog
    from scheduler.claude.payload import HookAnswer, HookInput

DAEMON_BANNER = (
    "Nous: no daemon runs on this project, so each hook works alone (slower, and nothing is "
    "learned in the background between sessions). Start one with `nous run` in the project's "
    "folder, or keep one running as a user service: `nous init claude --service`."
)
"""What the first answer of a session (SessionStart's) says when no daemon took the hook."""
ANSWER_SHARE = 0.8
"""What the work gets of the time left: the rest prints the answer and closes the driver."""


def answer_alone(
    event: str,
    raw: bytes,
    root: str,
    *,
    config: str | Path | None = None,
    agent_id: str | None = None,
    settings: Settings | HookSettings | None = None,
    watchdog: Watchdog | None = None,
    daemon_absent: bool = False,
) -> str:
    """The answer to print for one hook, worked out in this process ("" to add nothing).

    ``daemon_absent``: no daemon took the hook; the session's first answer
    (SessionStart's) then says so and how to start one. Raises on any failure
    (the caller says why on stderr and adds nothing).
    """
    payload = parse_payload(raw, event)
    if settings is None:
        overrides = {"agent_id": agent_id} if agent_id else {}
        settings = load_hook_settings(Path(config) if config else None, overrides=overrides)
    limit_s = settings.claude.hook_timeout_s
    left = watchdog.limit(limit_s) if watchdog is not None else limit_s
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="nous hook: %(message)s")
    neo4j = settings.neo4j
    import_asyncio(tls=not plain_bolt(neo4j.uri or local_uri(neo4j)))  # the hook's own client
    import asyncio

    try:
        answer = asyncio.run(_answer(event, payload, settings, Path(root), left * ANSWER_SHARE))
    except TimeoutError:
        raise TimeoutError("timed out") from None
    if daemon_absent and BY_NAME[event].first:
        context = "\n\n".join(p for p in (DAEMON_BANNER, answer.context) if p)
        answer = replace(answer, context=context)
    return answer.render(event)


async def _answer(
    event: str, payload: HookInput, settings: Settings | HookSettings, root: Path, limit_s: float
) -> HookAnswer:
    # Imported here: everything that needs Neo4j, loaded once the payload proved readable.
    import asyncio

    if BY_NAME[event].lean:  # no session, no cognitive layer, no pydantic
        async with asyncio.timeout(limit_s):
            return await _answer_lean(event, payload, settings, root)
    from scheduler.compose.session import open_session

    async with asyncio.timeout(limit_s), open_session(settings, root) as session:
        return await session.answer(event, payload)


async def _answer_lean(
    event: str, payload: HookInput, settings: Settings | HookSettings, root: Path
) -> HookAnswer:
    """An event the table marks ``lean`` (:class:`scheduler.claude.lean_hooks.LeanHooks`),
    over the agent's graph alone; a session's start also reads ``root``'s git history."""
    from graph.store.lean_memory import LeanMemory
    from graph.watch.project import project_of
    from scheduler.claude.lean_hooks import LeanHooks, answer_event
    from scheduler.compose.hook_driver import open_driver

    history = (root, settings.history) if settings.history.enabled else None
    async with open_driver(settings, lean=True) as driver:
        memory = LeanMemory(driver, settings.agent_id)
        project = project_of(root, settings.project) if history is not None else None
        hooks = LeanHooks(memory, settings.claude, history=history, project=project)
        return await answer_event(hooks, event, payload)
