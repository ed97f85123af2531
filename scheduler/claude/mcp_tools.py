"""The work behind ``nous mcp``'s tools: read or write memory, answer in text.

:class:`NousTools` holds the settings (read once, at start), the
:class:`~scheduler.claude.mcp_memory.MemoryGate` and the embedding client
it is given (all built by the composition root, :mod:`scheduler.compose.mcp`);
each method is one tool. What ``remember`` writes gets its vector in the background
(:class:`~cognition.recall.background_vectors.BackgroundVectors`), and
``recall`` waits a moment for it, so a fact just told is found by meaning.
Failures a client can act on (bad input, a path outside the root, Neo4j
down) raise :class:`ToolError` with a message that names the problem; the
MCP SDK hands it back as an error result and the server goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from mcp.server.fastmcp.exceptions import ToolError

from cognition.decisions.recall import DecisionRecall
from cognition.embeddings import Embeddings
from cognition.recall.background_vectors import BackgroundVectors
from cognition.recall.hybrid import HybridRecall
from cognition.recall.question import QuestionRecall
from cognition.text import estimate_tokens
from graph.errors import GraphError, PathOutsideRootError
from graph.models import Fact, new_id
from graph.settings import Settings
from graph.store.memory import Memory
from graph.watch.files import check_relative_path
from graph.watch.project import project_of
from rsi.strategies import render_strategies
from scheduler.claude.mcp_answers import (
    answer,
    censor_line,
    escalation_line,
    goal_line,
    line,
    listing,
    quoted,
)
from scheduler.claude.mcp_memory import MemoryGate, MemoryUnavailable
from scheduler.claude.mcp_remember import Kind, keep, told
from scheduler.story import path_candidates
from scheduler.story import render as render_story

log = logging.getLogger(__name__)
T = TypeVar("T")
MAX_PATH_CHARS = 1024  # what a client passes as an id or a path is echoed in errors: kept short
DECISION_SHARE = 0.5  # of the recall budget, the decisions in force at most (as the prompt's)
SETTLE_SHARE = 0.25  # of mcp.tool_timeout_s, what recall waits for the vectors of recent writes


class NousTools:
    """One agent's memory as MCP tools: recall, why, censors, strategies, escalations, goals,
    remember."""

    def __init__(
        self,
        settings: Settings,
        gate: MemoryGate,
        embeddings: Embeddings | None = None,
        vectors: BackgroundVectors | None = None,
    ) -> None:
        """``embeddings`` None: recall by words and the graph only; ``vectors``: what embeds
        the writes (None: they wait for another writer, e.g. the daemon's job)."""
        self.settings = settings
        self.gate = gate
        self.root = settings.watch.root.expanduser().resolve()
        # Whose shared decisions recall quotes: this project's (every agent's on this Neo4j).
        self.project = project_of(self.root, settings.project)
        self.limit = settings.mcp.max_answer_chars
        self.embeddings = embeddings
        self.vectors = vectors
        # One recall per connection: its HybridRecall keeps its vector counts and a small
        # agent's vectors.
        self._recall: QuestionRecall | None = None
        self._recall_connection = 0  # the gate's connection the recall was built over
        self._caught_up = False  # the first connection asks for what others left pending
        self._told = False  # a remember since the last recall: recall waits for its vector
        # The client's session, as the facts it tells are kept: one server, one session, so
        # a fact told here never takes another session's fact as its context.
        self.session_id = f"mcp-{new_id()}"

    async def recall(self, question: str, path: str | None = None) -> str:
        """What memory holds about a question (and a file), within the recall budget."""
        question = question.strip()
        if not question:
            raise ToolError("recall: the question is empty; ask about something")
        relative = self.relative_path(path) if path else None
        if self.vectors is not None and self._told:
            # Only after a remember: a backlog being caught up does not slow every recall.
            self._told = False
            await self.vectors.settle(self.settings.mcp.tool_timeout_s * SETTLE_SHARE)
        budget = self.settings.mcp.recall_tokens
        # The decisions in force first (the project's, and the agent's own), as the prompt
        # hook quotes them, within a share of the budget.
        decided = await self._with_memory(
            lambda memory: DecisionRecall(memory.team_decisions(self.project)).for_prompt(
                question, int(budget * DECISION_SHARE)
            )
        )
        found = await self._with_memory(
            lambda memory: self._recall_for(memory).answer(
                question,
                paths=[relative] if relative else [],
                budget_tokens=budget - estimate_tokens(decided.text),
            )
        )
        counted = ", ".join(f"{n} {name}" for name, n in found.items.items() if n)
        heading = f"Nous recalls ({counted or 'nothing'}; ~{found.token_estimate} tokens):"
        note = ""
        if found.decision_ids:
            # The rendered decisions carry no ids; a model needs them to ask `why`.
            note = "Ids of the past decisions recalled, in order (for `why`): " + ", ".join(
                found.decision_ids
            )
        body = "\n\n".join(t for t in (decided.text, found.text) if t)
        body = body or "Nothing in memory is relevant to it."
        if relative:  # the client's path: inside the fence with what was recalled
            body = f"About the file: {relative}\n\n{body}"
        return self._answer(heading, body, "recalled memory", note)

    def _recall_for(self, memory: Memory) -> QuestionRecall:
        if self._recall is None or self._recall_connection != self.gate.connections:
            # Vectors written here are read at the next recall (the agent's own
            # incrementally), not after HybridRecall's usual delay.
            vectors = self.vectors
            written = (lambda: vectors.written) if vectors is not None else None
            hybrid = HybridRecall(
                memory, self.embeddings, self.settings.embeddings, written=written
            )
            self._recall = QuestionRecall(hybrid)
            self._recall_connection = self.gate.connections
        return self._recall

    async def why(self, target: str) -> str:
        """The whole story of a decision, by id or as the latest about a path."""
        target = target.strip()
        if not target:
            raise ToolError("why: give a decision id or a path")
        if len(target) > MAX_PATH_CHARS:
            raise ToolError(f"why: a target of {len(target):,} characters is no id or path")
        # As `nous why` reads it, with the project root as the current folder: a client's
        # relative paths are the project's.
        tried = path_candidates(target, self.root, self.root)
        story = await self._with_memory(lambda memory: memory.audit.decision_story(target, tried))
        if story is None:
            where = f"tried {', '.join(tried)}" if tried else "a path outside the watched root"
            raise ToolError(
                f"why: no decision and no decision about a path by that name (root {self.root})"
                f" for agent {self.gate.agent_id!r}:\n"
                + quoted(f"{target} ({where})", "the target asked about")
            )
        body = f"Asked about: {target}\n\n{render_story(story)}"
        return self._answer("Why Nous decided as it did:", body, "a decision's story")

    async def censors(self) -> str:
        """The active censors, block first: what the agent will not do (again)."""
        found = await self._with_memory(
            lambda memory: memory.censors.active_censors(self.settings.mcp.list_limit)
        )
        rows = [censor_line(c) for c in found]
        title = f"Active censors of agent {self.gate.agent_id}, block first"
        return self._listing(title, rows, "No active censors.")

    async def strategies(self) -> str:
        """The learned strategies every prompt of the agent carries, by domain."""
        heuristics = await self._with_memory(lambda memory: memory.heuristics.active())
        rendered = render_strategies(heuristics, self.settings.rsi.max_strategy_tokens)
        shown = len(rendered.shown_ids)
        heading = f"Strategies agent {self.gate.agent_id} carries ({shown} shown):"
        return self._answer(heading, rendered.text, "learned strategies")

    async def escalations(self) -> str:
        """The escalations that wait for a person, newest first."""
        found = await self._with_memory(
            lambda memory: memory.audit.open_escalations(self.settings.mcp.list_limit)
        )
        note = "A person closes one with `nous escalations resolve ID --note TEXT`."
        title = f"Open escalations of agent {self.gate.agent_id}"
        return self._listing(title, [escalation_line(e) for e in found], "No open escalations.",
                             note)  # fmt: skip

    async def goals(self) -> str:
        """The agent's goals, open ones first, most important first."""
        found = await self._with_memory(
            lambda memory: memory.audit.goals(self.settings.mcp.list_limit)
        )
        title = f"Goals of agent {self.gate.agent_id}"
        return self._listing(title, [goal_line(g) for g in found], "No goals.")

    async def remember(
        self, kind: Kind, text: str, source: str, name: str | None = None, domain: str = ""
    ) -> str:
        """Keep a fact or a procedure (its steps, one a line) with where it came from."""
        cap = self.settings.mcp.max_remember_chars
        node, source = told(
            self.gate.agent_id, kind, text, source, name=name, domain=domain, max_chars=cap
        )
        node_id = await self._with_memory(
            lambda memory: keep(memory, node, source, session_id=self.session_id)
        )
        if self.vectors is not None:
            self.vectors.nudge()  # its vector, in the background
            self._told = True
        origin = f"Source: {line(source)}"  # the client's words: inside the fence
        if isinstance(node, Fact):
            body = f"{origin}\n\n{node.content}"
            return self._answer(f"Remembered fact {node_id}:", body, "fact")
        body = f"Name: {line(node.name)}\n{origin}\n\n" + "\n".join(node.core_patterns)
        return self._answer(f"Remembered procedure {node_id}:", body, "procedure")

    def relative_path(self, path: str) -> str:
        """``path`` relative to the watched root (an absolute one must lie inside it)."""
        raw = path.strip()
        if len(raw) > MAX_PATH_CHARS:
            raise ToolError(f"path: {len(raw):,} characters is longer than any path Nous keeps")
        root = self.root.resolve()
        if raw.startswith("/") or raw.startswith("~"):
            absolute = Path(raw).expanduser().resolve()
            if not absolute.is_relative_to(root):
                raise ToolError(
                    f"path: outside the watched root {root}:\n" + quoted(raw, "the path given")
                )
            raw = absolute.relative_to(root).as_posix()
        while raw.startswith("./"):
            raw = raw[2:]
        try:
            return check_relative_path(raw).as_posix()
        except PathOutsideRootError as exc:
            raise ToolError(
                "path: not a path inside the root:\n" + quoted(str(exc), "why")
            ) from None

    def _answer(self, heading: str, body: str, label: str, note: str = "") -> str:
        return answer(heading, body, label=label, limit=self.limit, note=note)

    def _listing(self, title: str, rows: list[str], empty: str, note: str = "") -> str:
        body = listing(rows, empty)
        return self._answer(f"{title} ({len(rows)}):", body, title.lower(), note if rows else "")

    async def _with_memory(self, work: Callable[[Memory], Awaitable[T]]) -> T:
        timeout = self.settings.mcp.tool_timeout_s
        try:
            async with asyncio.timeout(timeout):
                memory = await self.gate.memory()
                if not self._caught_up and self.vectors is not None:
                    self._caught_up = True
                    self.vectors.nudge()  # what hooks or an earlier server left pending
                return await work(memory)
        except MemoryUnavailable as exc:
            raise ToolError(str(exc)) from None
        except TimeoutError:
            # A connection that hangs is dropped: the next call starts afresh.
            await self.gate.close()
            raise ToolError(
                f"Nous's memory did not answer within mcp.tool_timeout_s ({timeout:g} s);"
                " the connection was dropped: call the tool again"
            ) from None
        except GraphError as exc:
            gone = await self.gate.failed(exc)
            log.warning("a tool's query failed: %s: %s", type(exc).__name__, exc)
            raise ToolError(str(gone) if gone else f"Nous's memory failed: {exc}") from None
