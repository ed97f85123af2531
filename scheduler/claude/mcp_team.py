"""The team server's memory: one connection to Neo4j, each caller's agent on it.

``nous mcp --http`` serves many people, each with a token that names one
agent (:mod:`scheduler.claude.mcp_auth` checks it on every request). One
:class:`TeamGate` holds the one connection (opened on first use, again after
Neo4j went away, as :class:`~scheduler.claude.mcp_memory.MemoryGate` does);
an :class:`AgentGate` is one agent's door through it, and :class:`TeamTools`
keeps one set of tools per agent. Which agent a tool call is for is read
from the request that carried it (:func:`caller_agent`), never from the
call's arguments: the tools take none that name an agent, and an argument
a client adds that the tool does not declare is dropped by the SDK before
the tool runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AsyncExitStack

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.lowlevel.server import request_ctx

from graph.errors import GraphError
from graph.settings import Settings
from graph.store.memory import Memory
from graph.store.tokens import TokenStore
from scheduler.claude.mcp_memory import MemoryGate, MemoryUnavailable
from scheduler.claude.mcp_tools import NousTools

log = logging.getLogger(__name__)

AgentTools = Callable[[AsyncExitStack, Settings, MemoryGate], NousTools]
"""Builds one agent's tools on its gate (their clean-ups on the stack)."""


class TeamGate(MemoryGate):
    """The one connection every caller's agent shares, and the tokens on it."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self._agents: dict[str, Memory] = {}
        self._base: Memory | None = None

    async def memory_for(self, agent_id: str) -> Memory:
        """``agent_id``'s memory on the shared connection; :class:`MemoryUnavailable` when down."""
        base = await self.memory()
        if base is not self._base:  # a new connection: the old agents' memories are gone with it
            self._base, self._agents = base, {}
        found = self._agents.get(agent_id)
        if found is None:
            found = self._agents[agent_id] = Memory(base.driver, agent_id)
        return found

    async def tokens(self) -> TokenStore:
        """The token store on the shared connection."""
        return (await self.memory()).tokens


class AgentGate(MemoryGate):
    """One agent's door through the :class:`TeamGate`: what its tools ask for."""

    def __init__(self, team: TeamGate, agent_id: str) -> None:
        super().__init__(team.settings)
        self.agent_id = agent_id
        self.team = team

    @property
    def connections(self) -> int:
        """The shared connection's count: what an agent's tools built over an older one (its
        recall) is built again over the new one."""
        return self.team.connections

    @connections.setter
    def connections(self, _: int) -> None:
        # MemoryGate counts its own connections; this gate makes none (the team's count).
        pass

    async def memory(self) -> Memory:
        """This agent's memory on the shared connection."""
        return await self.team.memory_for(self.agent_id)

    async def failed(self, exc: GraphError) -> MemoryUnavailable | None:
        """Neo4j gone: drop the shared connection, so that the next call, anyone's, reconnects."""
        return await self.team.failed(exc)

    async def close(self) -> None:
        """Nothing: one agent's slow query does not close the connection the others are using.

        (The stdio server drops its own connection after a tool timed out; here the driver's
        pool replaces a connection that broke, and :meth:`failed` drops a lost one.)
        """


class TeamTools:
    """One :class:`NousTools` per agent the tokens name, built on first call, kept after."""

    def __init__(
        self, settings: Settings, team: TeamGate, stack: AsyncExitStack, build: AgentTools
    ) -> None:
        self.settings = settings
        self.team = team
        self.stack = stack
        self.build = build
        self._tools: dict[str, NousTools] = {}

    def for_agent(self, agent_id: str) -> NousTools:
        """The tools over ``agent_id``'s memory."""
        tools = self._tools.get(agent_id)
        if tools is None:
            gate = AgentGate(self.team, agent_id)
            tools = self._tools[agent_id] = self.build(self.stack, self.settings, gate)
            log.info("serving agent %s", agent_id)
        return tools

    def for_caller(self) -> NousTools:
        """The tools of the agent whose token carried the call being served."""
        return self.for_agent(caller_agent())


def caller_agent() -> str:
    """The agent id of the token that carried the tool call in hand (set by the bearer gate)."""
    try:
        request = request_ctx.get().request
    except LookupError:
        raise ToolError("no request is being served: no agent to answer for") from None
    user = getattr(request, "scope", {}).get("user")
    if not isinstance(user, AuthenticatedUser) or not user.access_token.subject:
        raise ToolError("this call came without a valid token: no agent to answer for")
    return user.access_token.subject
