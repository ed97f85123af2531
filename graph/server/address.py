"""Where a local Neo4j is looked for: a pure function of the settings, for callers that must
not load the finder (a Claude Code hook goes straight to the configured address)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.settings import Neo4jSettings
    from graph.settings_lean import HookNeo4j


def local_uri(settings: Neo4jSettings | HookNeo4j) -> str:
    """``bolt://{host}:{bolt_port}``, the address a local server is looked for on."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"bolt://{host}:{settings.bolt_port}"
