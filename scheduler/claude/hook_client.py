"""``nous hook EVENT``: one short process per Claude Code hook, which never breaks the turn.

Claude Code starts a process per hook and waits for it, so what this process
imports is paid at every prompt and tool call. This module and
:mod:`scheduler.claude.hook_socket` use only what a bare interpreter has
loaded or nearly (no ``argparse``, ``threading``, ``typing`` at run time,
``pathlib``, ``tempfile`` or ``socket.py``): the arguments are read by one
small parser (:func:`parse_hook_arguments`), the one watchdog is a
``SIGALRM`` timer (:mod:`scheduler.claude.hook_watchdog`), and stdin is
read up to :data:`~scheduler.claude.events.MAX_PAYLOAD_BYTES` and no
further.

When a daemon runs on the project, it answers (:func:`ask_daemon`). A hook
the daemon took is never redone here: the client waits for its answer until
its own hard limit (:data:`FALLBACK_TIMEOUT_S`, less :data:`EXIT_MARGIN_S`
to print and exit), and without one it adds nothing and says so. The daemon
answers within a shorter limit of its own
(:func:`scheduler.claude.hook_server.answer_limit`), so its refusal arrives
before this process gives up. With no daemon to take it, or when asked for
another settings file or agent (the daemon answers for its own agent only),
the hook works alone: :func:`scheduler.claude.hooks.answer_alone`; or, when
``claude.team_url`` names a team server, the server answers it
(:mod:`scheduler.claude.hook_team`) and this process never opens Neo4j.

Seed 004's rule holds for every hook: whatever goes wrong (bad arguments, a
bad payload, bad settings, Neo4j down, a timeout) the process exits 0 having
printed nothing, and says why on stderr. Once it has answered, the console
script ends the process without the interpreter's teardown (:func:`leave`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

from scheduler.claude.events import BY_NAME, EVENTS, MAX_PAYLOAD_BYTES
from scheduler.claude.hook_socket import DaemonUnavailable, ask_daemon
from scheduler.claude.hook_team import TeamUnavailable, ask_team, team_server
from scheduler.claude.hook_watchdog import Watchdog

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the hook's path)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import BinaryIO, NoReturn, TextIO

    from graph.settings import Settings
    from graph.settings_lean import HookSettings

FALLBACK_TIMEOUT_S = 15.0
"""The hard limit until the settings are read (they may be what hangs).

A hook the daemon answers reads no settings, so this is its whole limit,
whatever ``claude.hook_timeout_s`` says: a shorter setting shortens the
daemon's own limit (its refusal comes sooner), a longer one (up to 60 s)
applies only to a hook working alone, which reads it.
"""
EXIT_MARGIN_S = 0.5
"""What the client keeps of its hard limit, after waiting for the daemon, to print and exit."""
_OPTIONS = ("--root", "--config", "--agent-id")


class HookUsageError(ValueError):
    """``nous hook``'s arguments are wrong (said on stderr; the hook exits 0)."""


class HookArguments:
    """What ``nous hook EVENT [--root DIR] [--config FILE] [--agent-id ID]`` asks for."""

    __slots__ = ("agent_id", "config", "event", "root")

    def __init__(
        self,
        event: str,
        root: str | None = None,
        config: str | None = None,
        agent_id: str | None = None,
    ) -> None:
        self.event = event
        self.root = root if root is not None else os.getcwd()
        self.config = config
        self.agent_id = agent_id

    @property
    def alone(self) -> bool:
        """Asked for another settings file or agent: the daemon answers for its own only."""
        return self.config is not None or self.agent_id is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HookArguments):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def __repr__(self) -> str:
        shown = (self.event, self.root, self.config, self.agent_id)
        return f"HookArguments({', '.join(repr(v) for v in shown)})"


def parse_hook_arguments(argv: Sequence[str]) -> HookArguments:
    """The hook's arguments (``--opt VALUE`` or ``--opt=VALUE``; the last of a repeat wins).

    :class:`HookUsageError` says what is wrong in argparse's words.
    """
    words = list(argv)
    events: list[str] = []
    values: dict[str, str] = {}
    while words:
        word = words.pop(0)
        name, equals, value = word.partition("=")
        if name in _OPTIONS:
            if not equals:
                if not words or words[0].startswith("-"):
                    raise HookUsageError(f"argument {name}: expected one argument")
                value = words.pop(0)
            if not value:
                raise HookUsageError(f"argument {name}: expected a non-empty value")
            values[name] = value
        elif word.startswith("-") or events:
            raise HookUsageError(f"unrecognized arguments: {word}")
        else:
            events.append(word)
    if not events:
        raise HookUsageError("the following arguments are required: event")
    if events[0] not in EVENTS:
        choices = ", ".join(EVENTS)
        raise HookUsageError(
            f"argument event: invalid choice: {events[0]!r} (choose from {choices})"
        )
    return HookArguments(
        events[0], values.get("--root"), values.get("--config"), values.get("--agent-id")
    )


def main(argv: Sequence[str]) -> int:
    """``nous hook EVENT [--root DIR] [--config FILE] [--agent-id ID]``; always 0."""
    started = time.monotonic()
    try:
        arguments = parse_hook_arguments(argv)
    except HookUsageError as exc:
        # Exit 2 would block a PreToolUse call, so 0.
        sys.stderr.write(f"nous hook: error: {exc}\n")
        return 0
    return run(arguments, started=started)


def run(arguments: HookArguments, *, started: float | None = None) -> int:
    """Answer one hook as a process does (stdin, stdout, stderr; the watchdog armed); 0."""
    watchdog = Watchdog(arguments.event, started)
    watchdog.limit(FALLBACK_TIMEOUT_S)
    try:
        return run_hook(
            arguments.event,
            sys.stdin.buffer,
            sys.stdout,
            sys.stderr,
            root=arguments.root,
            ask=not arguments.alone,
            config=arguments.config,
            agent_id=arguments.agent_id,
            watchdog=watchdog,
        )
    finally:
        watchdog.cancel()


def run_hook(
    event: str,
    stdin: BinaryIO,
    stdout: TextIO,
    stderr: TextIO,
    *,
    root: str | Path,
    ask: bool = True,
    config: str | Path | None = None,
    agent_id: str | None = None,
    settings: Settings | None = None,
    watchdog: Watchdog | None = None,
) -> int:
    """Answer one hook, through the daemon, the team server or alone; always returns 0.

    It works alone only when no daemon took the hook; one the daemon took
    and did not answer is not redone (it adds nothing, and says so).
    ``watchdog`` (a process's, see :func:`run`) is lengthened to
    ``claude.hook_timeout_s`` once a hook working alone has read its settings.
    """
    started = watchdog.started if watchdog is not None else time.monotonic()
    alone = False
    spec = BY_NAME.get(event)
    try:
        raw = read_payload(stdin)
        text = None
        absent = False
        if ask and (spec is None or spec.daemon):  # an unknown event: the daemon says so
            try:
                text = ask_daemon(root, event, raw, daemon_wait(started))
            except DaemonUnavailable:  # AnswerLost is not: what the daemon took is not redone
                absent = True
        if text is None:
            text, alone = _answer_here(
                event, raw, root, absent, config, agent_id, settings, watchdog
            )
        if text:
            stdout.write(text + "\n")
            stdout.flush()
    except Exception as exc:  # seed 004: a hook never breaks the turn
        stderr.write(f"nous hook {event}: {exc}; nothing added\n")
        if spec is not None and spec.first:
            say_memory_off(event, exc, stdout)
    if alone:  # the answer is out: the vectors of what the hook wrote, in a detached child
        _hand_off(event, stdout, root, started, config, agent_id, settings, watchdog)
    return 0


def _answer_here(
    event: str,
    raw: bytes,
    root: str | Path,
    absent: bool,
    config: str | Path | None,
    agent_id: str | None,
    settings: Settings | HookSettings | None,
    watchdog: Watchdog | None,
) -> tuple[str, bool]:
    """No daemon took the hook: the team server answers it when ``claude.team_url`` names one
    (:mod:`scheduler.claude.hook_team`), else the hook works alone; the answer, and whether it
    worked alone."""
    if settings is None:
        from pathlib import Path  # the daemon's path never needs it

        from graph.settings_lean import load_hook_settings

        overrides = {"agent_id": agent_id} if agent_id else {}
        settings = load_hook_settings(Path(config) if config else None, overrides=overrides)
    team = team_server(settings.claude)
    if team is None:
        return _answer_alone(event, raw, root, absent, settings, watchdog), True
    limit_s = settings.claude.hook_timeout_s
    left = watchdog.limit(limit_s) if watchdog is not None else limit_s
    spec = BY_NAME.get(event)
    transcript = spec is not None and "transcript_path" in spec.fields
    return ask_team(team, event, raw, left - EXIT_MARGIN_S, transcript=transcript), False


def _answer_alone(
    event: str,
    raw: bytes,
    root: str | Path,
    absent: bool,
    settings: Settings | HookSettings,
    watchdog: Watchdog | None,
) -> str:
    """The hook answered over the agent's graph alone (no daemon took it)."""
    from graph.store.lean import lean_process

    lean_process()  # before the driver and pydantic load
    from scheduler.claude.hooks import answer_alone

    return answer_alone(
        event,
        raw,
        os.fspath(root),
        settings=settings,
        watchdog=watchdog,
        daemon_absent=absent,
    )


def _hand_off(
    event: str,
    stdout: TextIO,
    root: str | Path,
    started: float,
    config: str | Path | None,
    agent_id: str | None,
    settings: Settings | None,
    watchdog: Watchdog | None,
) -> None:
    """The vectors of what a hook working alone wrote, embedded by a detached child."""
    if watchdog is not None:
        watchdog.cancel()  # the child sets its own limit; the parent exits at once
    from scheduler.claude.hook_vectors import hand_off_vectors

    hand_off_vectors(
        event,
        stdout,
        root=root,
        started=started,
        settings=settings,
        config=config,
        agent_id=agent_id,
    )


MEMORY_OFF = (
    "Nous's memory is off for this session ({why}). `nous status` in the project says what "
    "to fix (Neo4j not running: `nous neo4j start`)."
)
"""The one line a session's first hook adds when it failed (Neo4j down, bad settings)."""
TEAM_OFF = "Nous's memory is off for this session: {why}."
"""The same line when the team server gave no answer (its reason says what to fix)."""


def say_memory_off(event: str, exc: Exception, stdout: TextIO) -> None:
    """The session's first answer, when its hook failed: one line saying how to fix it."""
    from scheduler.claude.payload import HookAnswer  # only on failure: off the hook's path

    line = TEAM_OFF if isinstance(exc, TeamUnavailable) else MEMORY_OFF
    why = " ".join(str(exc).split())[:400] or type(exc).__name__
    try:
        stdout.write(HookAnswer(context=line.format(why=why)).render(event) + "\n")
        stdout.flush()
    except (OSError, ValueError):
        pass  # no one reads the answer any more


def leave(code: int) -> NoReturn:
    """End the hook's process now: its exit handlers run and its output flushed, then out.

    What a normal exit adds after that is the interpreter's teardown (some
    300 modules and their objects freed one by one, a hook working alone
    having loaded the memory's stores and the cognitive layer), which costs
    about as much CPU as a bare interpreter's start and serves nothing: the
    hook's connection is closed and its answer written by then. Only the
    console script calls this, once :func:`main` has returned.
    """
    import atexit
    import contextlib

    atexit._run_exitfuncs()  # what an exit runs first (logging's flush, a caller's handlers)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader gone: nothing more to say
            stream.flush()
    os._exit(code)


def read_payload(stdin: BinaryIO, limit: int = MAX_PAYLOAD_BYTES) -> bytes:
    """Stdin's bytes, read up to ``limit`` and no further (an endless stdin is refused at once)."""
    raw = stdin.read(limit + 1)
    if len(raw) > limit:
        raise ValueError(f"payload over {limit} bytes (refused unread past that)")
    return raw


def daemon_wait(started: float) -> float:
    """How long a hook begun at ``started`` (``time.monotonic()``) may wait for the daemon."""
    return FALLBACK_TIMEOUT_S - EXIT_MARGIN_S - (time.monotonic() - started)
