"""The LLM reasoner: each of the five steps is one JSON request to the model.

Every step is asked through :meth:`LLMClient.complete_json`, which validates
the reply against the step's model and gives a bad reply one repair. A step
whose reply is still unusable is produced by the rules instead, and records
``reasoner=rules``, the error, and the time and tokens the failed request
cost. An unreachable endpoint (``LLMUnavailableError``: refused, timed out,
5xx, or in backoff) hands that step and every later step of the
deliberation to the rules without another request. Nothing a model sends
can stop a deliberation from completing.

The confidence is not the model's to set: the steps' deltas (clamped to the
seed's ranges), the history adjuster and the thresholds decide, exactly as
for the rules reasoner; the DECIDE request only explains the decision and,
for an investigation, proposes the questions to ask, and names the
strategies it applied (only ids the system prompt showed are kept).

Given a ``system_prompt`` source (the constitution and strategies, which
``scheduler.compose`` builds from ``rsi``), every request of a deliberation
carries that one text first, unchanged between requests so prefix caches
work; the deliberation's own instructions then open each user message.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from cognition.deliberate import prompts
from cognition.deliberate.confidence import conclude
from cognition.deliberate.replies import (
    CategorizeReply,
    DecideReply,
    EvaluateReply,
    MatchPatternReply,
    ObserveReply,
    R,
    StepOutcome,
    StepReply,
    Trace,
    build_deliberation,
    input_summary,
)
from cognition.deliberate.rules_reasoner import (
    categorize_by_rules,
    decide_by_rules,
    evaluate_by_rules,
    investigation_questions,
    match_by_rules,
    merge_questions,
    observe_by_rules,
    rules_outcome,
)
from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from cognition.schemas import DecisionContext, Deliberation, RenderedContext
from graph.models import DecisionType, ReasonerKind, StepName
from graph.settings import ThresholdSettings

log = logging.getLogger(__name__)


class CarriedPrompt(Protocol):
    """The system prompt every request carries: its text and the strategy ids it shows."""

    @property
    def text(self) -> str: ...

    @property
    def strategy_ids(self) -> Sequence[str]: ...


SystemPromptSource = Callable[[], Awaitable[CarriedPrompt]]


class _Run:
    """One deliberation's requests, remembering whether the endpoint went away."""

    def __init__(self, client: LLMClient, system: str | None = None) -> None:
        self._client = client
        self._unavailable: str | None = None
        self._system = system

    async def step(
        self,
        name: StepName,
        schema: type[R],
        user: Callable[[], str],
        fallback: Callable[[], R],
        summary: str,
    ) -> StepOutcome[R]:
        """Ask the model for ``name``; on failure, the rules' ``fallback`` answers."""
        started = time.perf_counter()
        if self._unavailable is not None:
            error = f"LLM not asked: {self._unavailable}"
            return rules_outcome(name, fallback(), summary, started=started, error=error)
        if self._system is None:
            system, text = prompts.SYSTEM_PROMPT, user()
        else:
            system, text = self._system, f"{prompts.SYSTEM_PROMPT}\n\n{user()}"
        try:
            reply = await self._client.complete_json(
                system=system, user=text, schema=schema, step=name.value
            )
        except LLMUnavailableError as exc:
            self._unavailable = str(exc)
            log.info("%s: LLM unavailable; the rules deliberate the rest", name.value)
            return rules_outcome(name, fallback(), summary, started=started, error=str(exc))
        tokens = reply.prompt_tokens + reply.completion_tokens
        if reply.value is None:
            log.info("%s: no usable LLM reply; the rules take this step", name.value)
            error = f"no usable reply after {reply.attempts} attempt(s): {reply.error}"
            return rules_outcome(
                name, fallback(), summary, started=started, error=error, tokens=tokens
            )
        return StepOutcome(
            name=name,
            reply=reply.value,
            reasoner=ReasonerKind.LLM,
            input_summary=summary,
            model=reply.model,
            latency_ms=reply.latency_ms,
            tokens=tokens,
        )


class LLMReasoner:
    """Deliberates through an OpenAI-compatible model, step by step, falling back per step."""

    kind: ReasonerKind = ReasonerKind.LLM

    def __init__(
        self,
        client: LLMClient,
        thresholds: ThresholdSettings,
        *,
        system_prompt: SystemPromptSource | None = None,
    ) -> None:
        """Use ``client`` (started by its owner), ``thresholds`` and a ``system_prompt`` source."""
        self.client = client
        self._thresholds = thresholds
        self._system_prompt = system_prompt

    async def _carried(self) -> CarriedPrompt | None:
        if self._system_prompt is None:
            return None
        try:
            return await self._system_prompt()
        except Exception as exc:  # a missing strategies list must not stop a deliberation
            log.warning("system prompt unavailable, deliberating without strategies: %s", exc)
            return None

    async def deliberate(self, context: DecisionContext, rendered: RenderedContext) -> Deliberation:
        """Run the five steps; never raises for anything the endpoint or the model does."""
        carried = await self._carried()
        shown = tuple(carried.strategy_ids) if carried is not None else ()
        run = _Run(self.client, carried.text if carried is not None else None)
        earlier: dict[StepName, StepReply] = {}

        obs = await run.step(
            StepName.OBSERVE,
            ObserveReply,
            lambda: prompts.observe_prompt(context, rendered),
            lambda: observe_by_rules(context),
            input_summary(StepName.OBSERVE, context),
        )
        observe = earlier[StepName.OBSERVE] = obs.reply
        cat = await run.step(
            StepName.CATEGORIZE,
            CategorizeReply,
            lambda: prompts.categorize_prompt(context, rendered, observe),
            lambda: categorize_by_rules(context, observe),
            observe.brief_summary,
        )
        earlier[StepName.CATEGORIZE] = cat.reply
        mat = await run.step(
            StepName.MATCH_PATTERN,
            MatchPatternReply,
            lambda: prompts.match_prompt(context, rendered, dict(earlier)),
            lambda: match_by_rules(context),
            input_summary(StepName.MATCH_PATTERN, context),
        )
        match = earlier[StepName.MATCH_PATTERN] = mat.reply
        ev = await run.step(
            StepName.EVALUATE,
            EvaluateReply,
            lambda: prompts.evaluate_prompt(context, rendered, dict(earlier)),
            lambda: evaluate_by_rules(context, observe, match),
            input_summary(StepName.EVALUATE, context),
        )
        earlier[StepName.EVALUATE] = ev.reply

        verdict = conclude(
            context,
            significance=observe.significance,
            recommended_template=match.recommended_template,
            deltas=[(o.name, o.reply.delta()) for o in (obs, cat, mat, ev)],
            thresholds=self._thresholds,
        )
        dec = await run.step(
            StepName.DECIDE,
            DecideReply,
            lambda: prompts.decide_prompt(
                context, rendered, earlier, verdict, self._thresholds, shown
            ),
            lambda: decide_by_rules(context, verdict),
            f"Final decision with {verdict.confidence:.2f} confidence",
        )
        if verdict.decision_type is DecisionType.INVESTIGATE:
            # The model's questions first; the rules make up any shortfall below three.
            questions = merge_questions(list(dec.reply.investigation_questions))
            if len(questions) < 3:
                questions = merge_questions(
                    questions, investigation_questions(context, verdict.template)
                )
            reply = dec.reply.model_copy(update={"investigation_questions": questions})
            dec = dataclasses.replace(dec, reply=reply)
        deliberation = build_deliberation(context, Trace(obs, cat, mat, ev, dec), verdict)
        applied = applied_strategies(dec.reply.applied_strategies, shown)
        return deliberation.model_copy(update={"applied_strategies": applied})


def applied_strategies(named: Sequence[str], shown: Sequence[str]) -> list[str]:
    """The ids a DECIDE reply named that the prompt showed, once each, in the reply's order.

    Brackets and spaces around an id (``"[01J…]"``, as the prompt writes them)
    are forgiven; anything else not shown is dropped, never trusted.
    """
    allowed = set(shown)
    cleaned = (name.strip().strip("[]").strip() for name in named)
    return [i for i in dict.fromkeys(cleaned) if i in allowed]
