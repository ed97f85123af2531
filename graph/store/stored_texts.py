"""Every text one agent's memory holds, property by property (``cypher/admin/agent_texts``).

A whole scan of the agent's nodes, for a person auditing what was kept and
for the tests that prove a secret never was; nothing on a hot path reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.store.agent_graph import AgentGraph


@dataclass(frozen=True)
class StoredText:
    """One text property of one node: a list of strings joined by newlines."""

    label: str
    id: str | None
    key: str
    text: str


async def stored_texts(graph: AgentGraph) -> list[StoredText]:
    """Every string and list-of-strings property of ``graph``'s agent's nodes."""
    rows = await graph.read("admin/agent_texts")
    out: list[StoredText] = []
    for row in rows:
        value = row["value"]
        text = "\n".join(value) if isinstance(value, list) else str(value)
        node_id = row["id"]
        out.append(
            StoredText(
                str(row["label"]), None if node_id is None else str(node_id), row["key"], text
            )
        )
    return out
