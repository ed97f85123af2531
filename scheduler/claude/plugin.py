"""Nous as a Claude Code plugin: the hooks file the plugin ships, made from the table of events.

The repository is a Claude Code marketplace (``.claude-plugin/marketplace.json``)
with one plugin, ``nous``, under ``plugin/``: its hooks (``hooks/hooks.json``),
its MCP server (``.mcp.json``), a skill (``skills/memory/SKILL.md``) and two
launchers in ``scripts/``. Each hook runs ``scripts/nous-hook EVENT``, which runs the
installed ``nous hook EVENT --root "$CLAUDE_PROJECT_DIR"``; the server runs
``scripts/nous-mcp``, which runs ``nous mcp``. A machine without ``nous`` costs the
session one line (the launcher of the session's first event says how to
install it) and nothing else.

The hooks file registers exactly the events ``nous init claude`` registers,
with the same matchers and timeout: :func:`plugin_hooks` makes it from
:data:`scheduler.claude.events.HOOK_EVENTS`, and ``python -m
scheduler.claude.plugin`` writes it (a test checks the file is what it makes).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from scheduler.claude.events import HOOK_EVENTS
from scheduler.claude.init import hook_timeout

HOOKS_FILE = Path("hooks") / "hooks.json"
HOOK_LAUNCHER = "${CLAUDE_PLUGIN_ROOT}/scripts/nous-hook"
FIRST_FLAG = "--first"
"""Tells the launcher this is the session's first event: the one that says ``nous`` is missing."""


def plugin_hooks() -> dict[str, Any]:
    """The plugin's ``hooks/hooks.json``: one launcher command per event of the table."""
    hooks: dict[str, Any] = {}
    for event in HOOK_EVENTS:
        command = f'"{HOOK_LAUNCHER}" {event.name}' + (f" {FIRST_FLAG}" if event.first else "")
        hook = {"type": "command", "command": command, "timeout": hook_timeout()}
        group: dict[str, Any] = {"hooks": [hook]}
        if event.matcher:
            group = {"matcher": event.matcher, **group}
        hooks[event.name] = [group]
    return {
        "description": "Nous's memory around every turn: each hook runs the installed "
        "`nous hook EVENT` (scheduler/claude/plugin.py writes this file from the table of events)",
        "hooks": hooks,
    }


def render_hooks() -> str:
    """The hooks file's text, as written."""
    return json.dumps(plugin_hooks(), indent=2) + "\n"


def main(argv: list[str]) -> int:
    """``python -m scheduler.claude.plugin PLUGIN_DIR``: write the plugin's hooks file (in a
    checkout: ``plugin``)."""
    if len(argv) != 1 or not (Path(argv[0]) / ".claude-plugin" / "plugin.json").is_file():
        print("usage: python -m scheduler.claude.plugin PLUGIN_DIR (holding .claude-plugin/)")
        return 2
    path = Path(argv[0]) / HOOKS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_hooks(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
