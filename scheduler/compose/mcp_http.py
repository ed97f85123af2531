"""``nous mcp --http``'s parts: the shared connection, the embedding model, each agent's tools
and hooks session.

Part of the composition root, loaded only by the team server
(:mod:`scheduler.claude.mcp_http`). One connection to Neo4j and one
embedding model serve every agent; each agent its tokens name gets its own
tools and background vectors (:func:`scheduler.compose.mcp.agent_tools`),
built on its first call, their clean-ups on the server's exit stack.
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

from cognition.embeddings import build_embeddings
from graph.settings import Settings
from graph.store.memory import Memory
from scheduler.claude.mcp_memory import MemoryGate
from scheduler.claude.mcp_team import TeamGate, TeamTools
from scheduler.claude.mcp_tools import NousTools
from scheduler.claude.session import ClaudeSession
from scheduler.claude.team_hooks import SessionBuilder
from scheduler.compose.mcp import agent_tools
from scheduler.compose.session import build_session


def build_team_tools(stack: AsyncExitStack, settings: Settings) -> TeamTools:
    """Every agent's tools on one connection (opened on first use); nothing runs yet."""
    team = TeamGate(settings)
    stack.push_async_callback(team.close)  # pushed first: closed after every agent's vectors
    embeddings = build_embeddings(settings.embeddings, None)

    def build(stack: AsyncExitStack, settings: Settings, gate: MemoryGate) -> NousTools:
        return agent_tools(stack, settings, gate, embeddings)

    return TeamTools(settings, team, stack, build)


def team_sessions(settings: Settings) -> SessionBuilder:
    """How the team server builds an agent's hooks session: as a hook's own, for the server's
    root and project (:func:`scheduler.compose.session.build_session`); a session's start
    reads the new commits of the server's root, as a hook working alone reads its project's."""
    root = Path(settings.watch.root).expanduser().resolve()

    def build(memory: Memory) -> ClaudeSession:
        return build_session(memory, settings, root, history=True)

    return build
