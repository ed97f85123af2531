"""``nous mcp``'s parts: the memory gate, the embeddings, the background vectors, the tools.

Part of the composition root, loaded only by the MCP server
(:mod:`scheduler.claude.mcp_server`), which runs them. What needs closing
puts its clean-up on the caller's exit stack, which the server leaves when
its client goes: the vectors being written get a moment, then the
connection to Neo4j closes.
"""

from __future__ import annotations

from contextlib import AsyncExitStack

from cognition.embeddings import Embeddings, build_embeddings
from cognition.recall.background_vectors import BackgroundVectors
from graph.settings import Settings
from scheduler.claude.mcp_memory import MemoryGate
from scheduler.claude.mcp_tools import NousTools

CLOSE_GRACE_S = 3.0  # what a closing server waits for the vectors being written


def build_mcp_tools(stack: AsyncExitStack, settings: Settings) -> NousTools:
    """The tools over the agent's memory (connected on first use); nothing runs yet.

    With embeddings on (the embedded model: an endpoint needs the daemon's
    LLM client), recall asks by meaning too, and what the tools write gets
    its vector in the background, from this process: no daemon needed.
    """
    gate = MemoryGate(settings)
    stack.push_async_callback(gate.close)
    return agent_tools(stack, settings, gate, build_embeddings(settings.embeddings, None))


def agent_tools(
    stack: AsyncExitStack, settings: Settings, gate: MemoryGate, embeddings: Embeddings | None
) -> NousTools:
    """The tools over ``gate``'s agent (``gate.agent_id``), with its own background vectors.

    ``nous mcp`` builds one; the team server (:mod:`scheduler.compose.mcp_http`) one per
    agent its tokens name, all on one connection and one embedding model.
    """
    vectors = None
    if embeddings is not None:
        root = settings.watch.root.expanduser().resolve()
        vectors = BackgroundVectors(embeddings, settings.embeddings, root, gate.memory)
        stack.push_async_callback(_settle_and_close, vectors)
    return NousTools(settings, gate, embeddings, vectors)


async def _settle_and_close(vectors: BackgroundVectors) -> None:
    # A moment to store what is being embedded; the rest stays pending for the next writer.
    await vectors.settle(CLOSE_GRACE_S)
    await vectors.close()
