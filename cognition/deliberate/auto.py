"""The reasoner the loop holds: LLM, rules, or whichever answers (``Settings.reasoner``).

``"rules"`` always deliberates by the rules. ``"llm"`` always tries the LLM;
its steps fall back to the rules one by one. ``"auto"`` asks the client
whether the endpoint is healthy before each deliberation and, if it is not,
lets the rules deliberate from start to finish. The client's own backoff
keeps that check from knocking on a dead endpoint more than its schedule
allows: while it backs off, :meth:`LLMClient.healthy` answers at once.
"""

from __future__ import annotations

from typing import Literal

from cognition.deliberate.llm_reasoner import LLMReasoner
from cognition.deliberate.rules_reasoner import RulesReasoner
from cognition.llm import LLMClient
from cognition.schemas import DecisionContext, Deliberation, RenderedContext
from graph.models import ReasonerKind

ReasonerMode = Literal["auto", "llm", "rules"]


class AutoReasoner:
    """Chooses between the LLM and the rules reasoner by ``mode``.

    ``kind`` is the reasoner it prefers (LLM unless the mode is ``"rules"``
    or there is no LLM reasoner); each deliberation's ``reasoner`` says which
    one actually produced it.
    """

    def __init__(
        self,
        llm: LLMReasoner | None,
        rules: RulesReasoner,
        mode: ReasonerMode = "auto",
        client: LLMClient | None = None,
    ) -> None:
        """``client`` answers the health check in ``"auto"`` mode; the LLM reasoner's by default.

        Raises ``ValueError`` for ``mode="llm"`` without an LLM reasoner.
        """
        if mode not in ("auto", "llm", "rules"):
            raise ValueError(f"reasoner mode must be auto, llm or rules, not {mode!r}")
        if mode == "llm" and llm is None:
            raise ValueError("reasoner mode 'llm' needs an LLM reasoner")
        self._llm = llm if mode != "rules" else None
        self._rules = rules
        self._mode = mode
        self._client = client if client is not None else (llm.client if llm else None)
        self.kind: ReasonerKind = ReasonerKind.LLM if self._llm else ReasonerKind.RULES

    @property
    def mode(self) -> ReasonerMode:
        """The mode this reasoner was built with."""
        return self._mode

    async def deliberate(self, context: DecisionContext, rendered: RenderedContext) -> Deliberation:
        """Deliberate with the reasoner the mode and, in ``"auto"``, the endpoint's health pick."""
        if self._llm is None:
            return await self._rules.deliberate(context, rendered)
        if self._mode == "llm":
            return await self._llm.deliberate(context, rendered)
        if self._client is not None and await self._client.healthy():
            return await self._llm.deliberate(context, rendered)
        return await self._rules.deliberate(context, rendered)
