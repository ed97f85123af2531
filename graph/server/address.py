"""Where a local Neo4j is looked for: a pure function of the settings, for callers that must
not load the finder (a Claude Code hook goes straight to the configured address)."""

from __future__ import annotations

from graph.settings import Neo4jSettings


def local_uri(settings: Neo4jSettings) -> str:
    """``bolt://{host}:{bolt_port}``, the address a local server is looked for on."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"bolt://{host}:{settings.bolt_port}"
