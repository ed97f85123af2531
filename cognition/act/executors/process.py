"""Run one child process with a deadline, a cap on its output, and no leftovers.

The child starts in a session of its own, so it leads a process group that
holds everything it spawns. When the deadline passes, or the awaiting task is
cancelled, the whole group gets SIGTERM, a short grace, then SIGKILL; when the
child finishes on time, anything it left running in its group is ended the
same way. Output is read as it arrives into a buffer that stops growing at the
cap; the rest is read and dropped so the child never blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# Between SIGTERM and SIGKILL: enough for a CLI to flush and exit, short
# enough that a stuck action does not hold the loop for long.
KILL_GRACE_S = 2.0


@dataclass(frozen=True, slots=True)
class ProcessResult:
    """What a finished (or killed) child process left behind."""

    return_code: int
    """Exit status; negative when a signal ended it (``-9`` for SIGKILL)."""
    stdout: str
    """The first ``output_cap_bytes`` of standard output, decoded as UTF-8."""
    stderr: str
    """The first ``output_cap_bytes`` of standard error, decoded as UTF-8."""
    timed_out: bool
    duration_s: float
    truncated: bool
    """Whether either stream printed more than the cap (the rest was dropped)."""


class _CappedSink(asyncio.Protocol):
    """Keeps the first ``cap`` bytes read from a pipe, counts and drops the rest."""

    def __init__(self, cap: int, closed: asyncio.Future[None]) -> None:
        self._cap = cap
        self._data = bytearray()
        self._transport: asyncio.BaseTransport | None = None
        self.total = 0
        self.closed = closed

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        room = self._cap - len(self._data)
        if room > 0:
            self._data += data[:room]
        self.total += len(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    @property
    def truncated(self) -> bool:
        return self.total > self._cap

    def text(self) -> str:
        return self._data.decode("utf-8", errors="replace")


async def run_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    output_cap_bytes: int,
    kill_grace_s: float = KILL_GRACE_S,
) -> ProcessResult:
    """Run ``argv`` in ``cwd`` with exactly ``env`` and return what it printed.

    Nothing goes through a shell and standard input is ``/dev/null``. On
    timeout the process group is killed and ``timed_out`` is set; on
    cancellation the group is killed before ``CancelledError`` propagates.
    Raises ``OSError`` when the program cannot be started (not found, not
    executable, ``cwd`` missing, arguments too long) and ``ValueError`` for an
    empty ``argv``.
    """
    if not argv:
        raise ValueError("argv is empty: there is no program to run")
    started = time.monotonic()
    proc, sinks = await _start(argv, cwd, env, output_cap_bytes)
    timed_out = await _wait_and_end(proc, sinks, timeout_s, kill_grace_s)
    return ProcessResult(
        return_code=await proc.wait(),
        stdout=sinks[0].text(),
        stderr=sinks[1].text(),
        timed_out=timed_out,
        duration_s=time.monotonic() - started,
        truncated=any(sink.truncated for sink in sinks),
    )


async def _start(
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], cap: int
) -> tuple[asyncio.subprocess.Process, list[_CappedSink]]:
    """Start the child in a session of its own, its stdout and stderr read into capped sinks."""
    loop = asyncio.get_running_loop()
    sinks: list[_CappedSink] = []
    write_ends: list[int] = []
    try:
        # Our own pipes rather than asyncio's PIPE: we own the read transports,
        # so they can be closed even if an escaped grandchild keeps the write
        # ends open, and reading never pauses (the sink drops past the cap).
        for _ in range(2):
            read_end, write_end = os.pipe()
            write_ends.append(write_end)
            sinks.append(await _open_sink(loop, read_end, cap))
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=write_ends[0],
            stderr=write_ends[1],
            start_new_session=True,
        )
    except BaseException:
        for sink in sinks:
            sink.close()
        raise
    finally:
        # The child holds its own copies; ours would keep EOF from ever coming.
        for fd in write_ends:
            os.close(fd)
    return proc, sinks


async def _wait_and_end(
    proc: asyncio.subprocess.Process,
    sinks: Sequence[_CappedSink],
    timeout_s: float,
    kill_grace_s: float,
) -> bool:
    """Wait for the child until the deadline, then end its group; True if it timed out.

    The sinks are closed whatever happens, and the group is killed before a
    cancellation propagates.
    """
    # start_new_session: the child is the leader of a group with its own pid.
    group = proc.pid
    timed_out = False
    try:
        try:
            async with asyncio.timeout(timeout_s):
                await proc.wait()
        except TimeoutError:
            timed_out = True
            await _end_group(proc, group, kill_grace_s)
        else:
            await _end_orphans(group, sinks, kill_grace_s)
        await _all_closed(sinks, kill_grace_s)
    except BaseException:
        # Cancelled (or worse): the group must not outlive the caller. The
        # shield lets the kill-and-reap finish even if we are cancelled again.
        cleanup = asyncio.ensure_future(_end_group(proc, group, kill_grace_s))
        try:
            await asyncio.shield(cleanup)
        except BaseException:
            _signal_group(group, signal.SIGKILL)
        raise
    finally:
        for sink in sinks:
            sink.close()
    return timed_out


async def _open_sink(loop: asyncio.AbstractEventLoop, read_end: int, cap: int) -> _CappedSink:
    """Start reading ``read_end`` (whose ownership passes to the sink) as data arrives."""
    sink = _CappedSink(cap, loop.create_future())
    await loop.connect_read_pipe(lambda: sink, os.fdopen(read_end, "rb", buffering=0))
    return sink


async def _end_group(proc: asyncio.subprocess.Process, group: int, grace_s: float) -> None:
    """SIGTERM the group, wait up to ``grace_s`` for its leader, SIGKILL what is left."""
    _signal_group(group, signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(grace_s):
            await proc.wait()
    # Members other than the leader may ignore SIGTERM or take longer; none
    # of them may outlive the action.
    _signal_group(group, signal.SIGKILL)
    await proc.wait()


async def _end_orphans(group: int, sinks: Sequence[_CappedSink], grace_s: float) -> None:
    """End what a child that exited on time left running in its group."""
    if not _signal_group(group, signal.SIGTERM):
        return
    # Orphans that still hold our pipes close them as they exit: that is the
    # earliest sign they are gone (their exit status goes to init, not to us).
    await _all_closed(sinks, grace_s)
    _signal_group(group, signal.SIGKILL)


async def _all_closed(sinks: Sequence[_CappedSink], timeout_s: float) -> bool:
    """Wait until every pipe reached end-of-file; False if ``timeout_s`` passed first."""
    try:
        async with asyncio.timeout(timeout_s):
            await asyncio.gather(*(asyncio.shield(sink.closed) for sink in sinks))
    except TimeoutError:
        return False
    return True


def _signal_group(group: int, signum: int) -> bool:
    """Send ``signum`` to the process group; False if the group no longer exists."""
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        return False
    except PermissionError:
        # Only possible if the group id now belongs to someone else's
        # processes, i.e. ours are all gone.
        return False
    return True
