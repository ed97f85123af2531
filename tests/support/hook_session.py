"""A Claude Code session's hooks in a test, run as ``nous hook`` runs them (working alone)."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

from graph.server.finder import Neo4jEndpoint
from graph.settings import Settings, load_settings
from scheduler.claude.events import BY_NAME, TEXT
from scheduler.claude.hook_client import run_hook

EMPTY = Path(__file__).resolve().parent / "empty.yaml"


def hook_settings(endpoint: Neo4jEndpoint, agent_id: str) -> Settings:
    """Settings for ``agent_id`` on the test's Neo4j, from an empty settings file."""
    environ = {
        "NOUS_AGENT_ID": agent_id,
        "NEO4J_URI": endpoint.uri,
        "NEO4J_USER": endpoint.user,
        "NEO4J_PASSWORD": endpoint.password,
    }
    return load_settings(EMPTY, environ=environ)


class Session:
    """One Claude Code session's hooks, run as ``nous hook`` runs them (working alone)."""

    def __init__(
        self, settings: Settings, root: Path, session_id: str, *, ask: bool = False
    ) -> None:
        """``ask``: ask the project's daemon first, as a hook does (none answers in tests)."""
        self.settings, self.root, self.session_id = settings, root, session_id
        self.ask = ask
        self.fields: list[tuple[str, str]] = []
        """Every field of every answer so far: (event and field name, its text)."""

    async def hook(self, event: str, **fields: object) -> str:
        """Run one hook with ``fields`` in its payload; what it printed (asserted to be 0)."""
        raw = json.dumps({"session_id": self.session_id, "hook_event_name": event, **fields})
        out, err = io.StringIO(), io.StringIO()

        def call() -> int:
            return run_hook(
                event, io.BytesIO(raw.encode()), out, err, root=self.root, ask=self.ask,
                settings=self.settings,
            )  # fmt: skip

        assert await asyncio.to_thread(call) == 0
        assert "nothing added" not in err.getvalue(), err.getvalue()
        text = out.getvalue().strip()
        if text and BY_NAME[event].answer == TEXT:
            self.fields.append((f"{event} text", text))
        elif text:
            for name, value in json.loads(text)["hookSpecificOutput"].items():
                if name != "hookEventName":
                    self.fields.append((f"{event} {name}", str(value)))
        return text
