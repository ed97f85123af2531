"""What ``alwaysLoad`` on ``recall`` costs every request, against what tool search saves.

    python -m bench.always_load

The real Claude Code CLI (``NOUS_TEST_CLAUDE``, else ``claude`` on PATH) runs one ``claude -p``
turn against the scripted Anthropic server of the tests, with ``nous mcp`` as its MCP server
``nous``, in four arms; the request the CLI sends the model is recorded and its ``tools``
measured (the JSON bytes of each tool's schema, as sent):

- **all loaded**: tool search off, every tool's schema in every request (the baseline);
- **deferred**: tool search on, the server set ``alwaysLoad: false`` (every Nous tool deferred,
  as without the ``_meta`` on ``recall``);
- **recall always**: tool search on, Nous as shipped (``recall`` listed with
  ``_meta: {"anthropic/alwaysLoad": true}``, the others deferred);
- **all Nous always**: tool search on, the server set ``alwaysLoad: true``.

It prints each arm's tool count, tool bytes and whole request bytes, what ``recall`` adds to
every request (recall always less deferred) and what tool search saves on Nous's tools (the Nous
tools' bytes when all are loaded, less what recall always keeps), with tokens estimated at 4
bytes a token (no tokenizer here: the bytes are what is measured).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.anthropic_stub import AnthropicStub, ModelTurn
from tests.support.claude_cli import claude_env, find_claude, nous_program, run_claude

BYTES_PER_TOKEN = 4
ARMS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("all loaded", "false", {}),
    ("deferred", "true", {"alwaysLoad": False}),
    ("recall always", "true", {}),
    ("all Nous always", "true", {"alwaysLoad": True}),
)


@dataclass(frozen=True)
class Arm:
    """One arm's first request: its tools and its size."""

    name: str
    tools: list[dict[str, Any]]
    request_bytes: int

    @property
    def tool_bytes(self) -> int:
        """The JSON bytes of every tool schema sent."""
        return sum(len(json.dumps(t)) for t in self.tools)

    @property
    def nous(self) -> dict[str, int]:
        """Nous's tools sent, and each one's bytes."""
        return {
            str(t["name"]): len(json.dumps(t)) for t in self.tools if "nous" in str(t.get("name"))
        }


def run_arm(claude: Path, name: str, search: str, server: dict[str, Any]) -> Arm:
    """One ``claude -p`` turn in a fresh project and HOME; the model's first request measured."""
    with tempfile.TemporaryDirectory(prefix="nous-always-load-") as folder:
        root = Path(folder)
        home, project = root / "home", root / "project"
        home.mkdir()
        project.mkdir()
        config = project / "mcp.json"
        stdio = {"type": "stdio", "command": str(nous_program()), "args": ["mcp"], **server}
        config.write_text(json.dumps({"mcpServers": {"nous": stdio}}))
        with AnthropicStub() as model:
            env = claude_env(dict(os.environ), home, model.base_url)
            env["ENABLE_TOOL_SEARCH"] = search
            model.script(ModelTurn.text("ok"))
            extra = ("--mcp-config", str(config), "--strict-mcp-config")
            run = run_claude(claude, project, env, "hello", tools="Bash", extra=extra)
            if run.code != 0:
                raise SystemExit(f"{name}: the CLI failed: {run.stderr[-500:]}")
            asked = next(r for r in model.requests if isinstance(r.body, dict) and r.body["tools"])
            body = asked.body
            assert isinstance(body, dict)
            return Arm(name, list(body["tools"]), len(json.dumps(body)))


def main() -> int:
    """Run the four arms and print the figures."""
    claude = find_claude()
    if claude is None:
        print("no Claude Code CLI (NOUS_TEST_CLAUDE, or claude on PATH)", file=sys.stderr)
        return 2
    arms = {name: run_arm(claude, name, search, server) for name, search, server in ARMS}
    for arm in arms.values():
        print(
            f"{arm.name:16} tools {len(arm.tools):3}  tool bytes {arm.tool_bytes:7,}  "
            f"request bytes {arm.request_bytes:7,}  nous: {sorted(arm.nous)}"
        )
    added = arms["recall always"].tool_bytes - arms["deferred"].tool_bytes
    nous_all = sum(arms["all loaded"].nous.values())
    saved = nous_all - sum(arms["recall always"].nous.values())
    base = arms["all loaded"].tool_bytes
    print(
        f"recall always loaded adds {added:,} bytes (~{added // BYTES_PER_TOKEN} tokens) to every "
        f"request; {added / base:.3f}x of all tool bytes with tool search off ({base:,})"
    )
    print(
        f"tool search defers {saved:,} bytes (~{saved // BYTES_PER_TOKEN} tokens) of Nous's "
        f"{nous_all:,} bytes of tools a request; tools as a whole: "
        f"{arms['recall always'].tool_bytes / base:.2f}x of all loaded"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
