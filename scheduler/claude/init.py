"""``nous init claude``: Nous's hooks into ``.claude/settings.json``, its server into ``.mcp.json``.

Both files are merged, never overwritten: a user's own hooks and servers
stay where they are. Nous's entries are recognised by their command (the
``nous`` program with ``hook EVENT``, the ``nous`` server running ``mcp``),
so running it again changes nothing and ``--remove`` takes out exactly
what it added. Each change is reported as a line of text.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scheduler.claude.events import BY_NAME, EVENTS
from scheduler.claude.hook_client import FALLBACK_TIMEOUT_S

SERVER_NAME = "nous"
MAX_FILE_BYTES = 1024 * 1024
HOOK_MARGIN_S = 2
"""Claude Code's timeout for a hook is the hook's own hard limit and this margin.

The hard limit is the longer of ``claude.hook_timeout_s`` (a hook working
alone) and the fixed limit of a hook the daemon answers
(:data:`~scheduler.claude.hook_client.FALLBACK_TIMEOUT_S`, which reads no
settings): Claude Code must not end a hook that is still waiting for the
daemon's answer or its refusal.
"""


class InitError(ValueError):
    """A settings file that cannot be merged (not JSON, not an object, too large)."""


def nous_command() -> str:
    """The ``nous`` program to write into the hooks: the one beside this Python, else ``nous``."""
    beside = Path(sys.executable).parent / "nous"
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else "nous"


def hook_command(nous: str, event: str) -> str:
    """The shell command of one hook; ``$CLAUDE_PROJECT_DIR`` is the project Claude Code runs in."""
    return f'{shlex.quote(nous)} hook {event} --root "$CLAUDE_PROJECT_DIR"'


def is_ours(command: object) -> bool:
    """True for a hook command Nous wrote: the ``nous`` program running ``hook``."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return len(words) >= 3 and Path(words[0]).name == "nous" and words[1] == "hook"


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from ``path`` ({} when absent); :class:`InitError` naming the file."""
    if not path.exists():
        return {}
    if not path.is_file():
        raise InitError(f"{path}: not a regular file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise InitError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InitError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InitError(f"{path}: expected a JSON object at the top")
    return data


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` atomically (a half-written settings file breaks Claude Code)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=2)
        out.write("\n")
    os.replace(tmp, path)


def merge_hooks(
    settings: dict[str, Any], nous: str, timeout_s: float, *, remove: bool
) -> list[str]:
    """Put Nous's hooks into (or take them out of) ``settings``; the changes, one line each."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InitError("'hooks' is not an object")
    changes: list[str] = []
    for event in EVENTS:
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise InitError(f"'hooks.{event}' is not a list")
        kept = [g for g in groups if not _our_group(g)]
        wanted = [] if remove else [_group(nous, event, timeout_s)]
        merged = kept + wanted
        if merged == groups:
            continue
        if remove:
            changes.append(f"removed hook {event}")
        else:
            changes.append(f"{'updated' if len(kept) < len(groups) else 'added'} hook {event}")
        if merged:
            hooks[event] = merged
        else:
            hooks.pop(event, None)
    if hooks:
        settings["hooks"] = hooks
    else:
        settings.pop("hooks", None)
    return changes


def merge_server(config: dict[str, Any], nous: str, *, remove: bool) -> list[str]:
    """Put Nous's MCP server into (or take it out of) ``.mcp.json``; the changes."""
    servers = config.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise InitError("'mcpServers' is not an object")
    current = servers.get(SERVER_NAME)
    if current is not None and not _our_server(current):
        raise InitError(f"'mcpServers.{SERVER_NAME}' is someone else's server; left alone")
    wanted = {"type": "stdio", "command": nous, "args": ["mcp"]}
    changes: list[str] = []
    if remove and current is not None:
        servers.pop(SERVER_NAME)
        changes.append(f"removed MCP server {SERVER_NAME}")
    elif not remove and current != wanted:
        servers[SERVER_NAME] = wanted
        changes.append(f"{'updated' if current else 'added'} MCP server {SERVER_NAME}")
    if servers:
        config["mcpServers"] = servers
    else:
        config.pop("mcpServers", None)
    return changes


def init_claude(root: Path, *, timeout_s: float, remove: bool = False) -> list[str]:
    """Merge Nous into ``root``'s Claude Code files; the changes made, each naming its file."""
    nous = nous_command()
    settings_path = root / ".claude" / "settings.json"
    mcp_path = root / ".mcp.json"
    merged: list[tuple[Path, dict[str, Any], list[str]]] = []
    merges: list[tuple[Path, Callable[[dict[str, Any]], list[str]]]] = [
        (settings_path, lambda d: merge_hooks(d, nous, timeout_s, remove=remove)),
        (mcp_path, lambda d: merge_server(d, nous, remove=remove)),
    ]
    for path, merge in merges:
        data = read_json(path)
        try:
            merged.append((path, data, merge(data)))
        except InitError as exc:
            raise InitError(f"{path}: {exc}") from None
    # Written only when both merged: a refusal leaves both files as they were.
    done: list[str] = []
    for path, data, changes in merged:
        if changes:
            write_json(path, data)
            done += [f"{path}: {change}" for change in changes]
    return done


def hook_timeout(timeout_s: float = FALLBACK_TIMEOUT_S) -> int:
    """Claude Code's timeout for a hook set to ``timeout_s`` (see :data:`HOOK_MARGIN_S`)."""
    return math.ceil(max(timeout_s, FALLBACK_TIMEOUT_S)) + HOOK_MARGIN_S


def _group(nous: str, event: str, timeout_s: float) -> dict[str, Any]:
    hook = {
        "type": "command",
        "command": hook_command(nous, event),
        "timeout": hook_timeout(timeout_s),
    }
    matcher = BY_NAME[event].matcher
    return {"matcher": matcher, "hooks": [hook]} if matcher else {"hooks": [hook]}


def _our_group(group: object) -> bool:
    if not isinstance(group, dict):
        return False
    hooks = group.get("hooks")
    return (
        isinstance(hooks, list)
        and bool(hooks)
        and all(isinstance(h, dict) and is_ours(h.get("command")) for h in hooks)
    )


def _our_server(server: object) -> bool:
    if not isinstance(server, dict):
        return False
    command = server.get("command")
    return (
        isinstance(command, str) and Path(command).name == "nous" and server.get("args") == ["mcp"]
    )
