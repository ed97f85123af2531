"""The repository's history, read from ``git log``: commits as :class:`graph.intake.CommitEntry`.

Read incrementally: the first time, the newest ``limit`` commits no older
than ``max_age_days``; after that, what is new since the last sha seen
(``seen..HEAD``, the same bounds), or the first read again when that sha is
gone (a rebase, a forced push). ``git`` runs as a child with a timeout
and a byte cap on what it prints, with only ``PATH``, ``HOME`` and the locale
from the environment (no credential reaches it), and with the repository's
configuration kept from running anything (no signature checks, no external
diff, no fsmonitor). A folder that is not a repository, one without
commits, a missing ``git`` or a ``git`` that hangs gives no commits and says
why; a hostile history (huge messages, undecodable paths, thousands of
files in one commit) gives commits within the limits: the door
(:func:`cognition.sense.door.admit`) cuts the messages, this module the file
lists and drops the paths that are not UTF-8.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from graph.intake import CommitEntry, Provenance

MAX_OUTPUT_BYTES = 16 * 1024 * 1024
"""What one ``git log`` may print before it is stopped (the commits read so far are kept)."""
MAX_FILES = 200
"""Files kept of one commit (a vendoring commit touches thousands)."""
_SAFE_CONFIG = tuple(
    part
    for setting in (
        "log.showSignature=false",
        "core.fsmonitor=false",
        "diff.external=",
        "core.quotePath=false",
    )
    for part in ("-c", setting)
)
_FORMAT = "--format=%x1e%H%x00%an%x00%aI%x00%B%x00"
_RECORD = re.compile(rb"\x1e(?=[0-9a-f]{40,64}\x00)")
_SHA = re.compile(r"[0-9a-f]{40,64}")


@dataclass(frozen=True)
class GitLog:
    """What one read of the history found: the commits (newest first) and HEAD's sha.

    ``head`` is None without commits (or without a repository); ``problem``
    says why nothing could be read; ``skipped_paths`` counts paths dropped as
    not UTF-8; ``truncated`` is true when the output was cut at its byte cap.
    """

    commits: tuple[CommitEntry, ...] = ()
    head: str | None = None
    problem: str | None = None
    skipped_paths: int = 0
    truncated: bool = False


class _GitFailed(Exception):
    """``git`` could not answer (its message, clipped)."""


async def read_history(
    root: Path,
    environ: Mapping[str, str],
    *,
    seen: str | None,
    limit: int,
    max_age_days: float,
    timeout_s: float,
) -> GitLog:
    """The commits of ``root``'s repository not seen yet (all of them at most ``limit``).

    ``environ``: the environment ``git`` may see (:func:`graph.settings_lean.git_environment`).
    Never raises for what the repository or ``git`` does; the problem is in the answer.
    """
    env = dict(environ)
    try:
        async with asyncio.timeout(timeout_s):
            head = await _head(root, env)
            if head is None:
                return GitLog(problem="the repository has no commits yet")
            if head == seen:
                return GitLog(head=head)
            bounds = [
                "-n",
                str(max(1, limit)),
                f"--since={max(0.0, max_age_days) * 86400:.0f} seconds ago",
            ]
            ranges = [f"{seen}..{head}"] if seen and _SHA.fullmatch(seen) else [head]
            try:
                out, truncated = await _git(root, env, ["log", *bounds, *_LOG, *ranges, "--"])
            except _GitFailed:
                if not ranges[0].startswith(f"{seen}.."):
                    raise
                # The sha last seen is gone (history rewritten): read it all again.
                out, truncated = await _git(root, env, ["log", *bounds, *_LOG, head, "--"])
    except TimeoutError:
        return GitLog(problem=f"git took longer than {timeout_s:g} s")
    except FileNotFoundError:
        return GitLog(problem="git is not installed (or not on PATH)")
    except _GitFailed as exc:
        return GitLog(problem=str(exc))
    commits, skipped = parse_log(out)
    if truncated:  # the last record may be cut short: read again next time
        commits = commits[:-1]
    return GitLog(tuple(commits), head, skipped_paths=skipped, truncated=truncated)


_LOG = ("--no-color", "--no-renames", "--no-merges", _FORMAT, "--name-only", "-z")


async def _head(root: Path, env: dict[str, str]) -> str | None:
    """HEAD's sha, or None in a repository without commits."""
    try:
        out, _ = await _git(root, env, ["rev-parse", "--verify", "-q", "HEAD^{commit}"])
    except _GitFailed as exc:
        if "not a git repository" in str(exc).lower():
            raise
        return None
    sha = out.decode("ascii", "replace").strip()
    return sha if _SHA.fullmatch(sha) else None


async def _git(root: Path, env: dict[str, str], args: list[str]) -> tuple[bytes, bool]:
    """What ``git -C root args`` printed, and whether it was cut at the byte cap."""
    process = await asyncio.create_subprocess_exec(
        "git",
        "-C",
        str(root),
        *_SAFE_CONFIG,
        *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        errors = asyncio.create_task(_capped(process.stderr, 4096))  # read beside: never full
        out, truncated = await _capped(process.stdout, MAX_OUTPUT_BYTES)
        if truncated:
            process.kill()
        err, _ = await errors
        code = await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    if code != 0 and not truncated:
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise _GitFailed(f"git {args[0]}: {message[0][:200] if message else f'exit {code}'}")
    return out, truncated


async def _capped(stream: asyncio.StreamReader, cap: int) -> tuple[bytes, bool]:
    """What ``stream`` gives until its end or past ``cap`` bytes (cut to ``cap``), and whether
    it went past."""
    kept = bytearray()
    while len(kept) <= cap and (chunk := await stream.read(65536)):
        kept += chunk
    return bytes(kept[:cap]), len(kept) > cap


def parse_log(out: bytes) -> tuple[list[CommitEntry], int]:
    """The commits in ``git log`` output in :data:`_FORMAT` with ``--name-only -z``.

    Returns the commits and how many paths were dropped as not UTF-8.
    """
    commits: list[CommitEntry] = []
    skipped = 0
    for record in _RECORD.split(out)[1:]:
        parts = record.split(b"\x00")
        if len(parts) < 5:
            continue
        sha, author, date, message = (p.decode("utf-8", "replace") for p in parts[:4])
        files: list[str] = []
        for raw in parts[4:]:
            raw = raw.strip(b"\n")
            if not raw:
                continue
            try:
                files.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                skipped += 1
        subject, _, body = message.strip().partition("\n")
        commits.append(
            CommitEntry(
                sha=sha,
                subject=subject.strip(),
                body=body.strip(),
                author=author.strip(),
                authored_at=date.strip(),
                files=tuple(dict.fromkeys(files))[:MAX_FILES],
                provenance=Provenance("commit", commit=sha, who=author.strip()),
            )
        )
    return commits, skipped
