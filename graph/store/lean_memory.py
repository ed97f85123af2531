"""The stores a Claude Code hook working alone uses, each built once, without pydantic.

A hook working alone is a process per event (issue 27), so what it builds and
imports is paid every time. :class:`LeanMemory` is the agent's graph with the
stores that hook needs: the session's start
(:class:`~graph.store.session_start.SessionStartStore`), a tool call's
(:class:`~graph.store.calls.CallStore`), the views people look at
(:class:`~graph.store.audit.AuditStore`), the repository's commits
(:class:`~graph.store.commits.CommitStore`) and a project's stated decisions
(:meth:`LeanMemory.team_decisions`, one store per project), which a session's
start reads from the commits. :class:`graph.store.memory.Memory`
is one, so the daemon and a hook reach the same instances the same way, and
the stores that hand out models (episodes, censors, heuristics, turns, events)
run these statements through them instead of building their own.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from graph.store.agent_graph import AgentGraph

if TYPE_CHECKING:
    from graph.store.audit import AuditStore
    from graph.store.calls import CallStore
    from graph.store.commits import CommitStore
    from graph.store.session_start import SessionStartStore
    from graph.store.team_decisions import TeamDecisionStore


class LeanMemory(AgentGraph):
    """One agent's graph and the stores a hook uses, each built on first use and kept."""

    @cached_property
    def session_start(self) -> SessionStartStore:
        """A session's episode started; the censors and strategies it is shown."""
        from graph.store.session_start import SessionStartStore

        return SessionStartStore(self)

    @cached_property
    def calls(self) -> CallStore:
        """A tool call's gate, its result in the turn, its pattern, the audit event."""
        from graph.store.calls import CallStore

        return CallStore(self)

    @cached_property
    def audit(self) -> AuditStore:
        """The read-only views people look at (``nous audit``, ``why``, …)."""
        from graph.store.audit import AuditStore

        return AuditStore(self)

    @cached_property
    def commits(self) -> CommitStore:
        """The repository's commits (git history as memory) and the sha read last."""
        from graph.store.commits import CommitStore

        return CommitStore(self)

    @cached_property
    def _team_decisions(self) -> dict[str, TeamDecisionStore]:
        return {}

    def team_decisions(self, project: str) -> TeamDecisionStore:
        """The decisions of ``project`` as this agent sees them (its own are the project's):
        one store per project, built on first use and kept."""
        kept = self._team_decisions
        if project not in kept:
            from graph.store.team_decisions import TeamDecisionStore

            kept[project] = TeamDecisionStore(self, project)
        return kept[project]
