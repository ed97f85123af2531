"""The LLM reasoner: the five steps in one request, or one request per step.

``deliberation="single_call"`` (the default, see ``bench/README.md``) asks
for all five steps in one request (:mod:`cognition.deliberate.single_call`);
``"stepwise"`` asks for each step in its own request, each seeing the earlier
steps' conclusions. Either way every request goes through
:meth:`LLMClient.complete_json` with the step's reply model as the schema and
``priority="decision"``, and the system prompt comes from the provider given
at construction: the constitution and strategies, which ``scheduler.compose``
builds from ``rsi`` (:mod:`cognition.carried`), the same text for
every request, first in the messages, so servers with prefix caching reuse
it; the deliberation's own instructions then open each user message. Without
a source the deliberation's instructions are the system message.

A step whose reply is unusable is produced by the rules instead, and records
``reasoner=rules``, the error, and the time and tokens the failed request
cost. An unreachable endpoint (``LLMUnavailableError``: refused, timed out,
5xx, or in backoff) hands that step and every later step of the
deliberation to the rules without another request. Nothing a model sends
can stop a deliberation from completing. Each deliberation's count of LLM
and fallen-back steps goes to ``client.state`` for the banner and status.

The confidence is not the model's to set: the steps' deltas (clamped to the
seed's ranges), the history adjuster and the thresholds decide, exactly as
for the rules reasoner; the DECIDE reply only explains the decision, for an
investigation proposes the questions to ask, and names the strategies it
applied (only ids the carried prompt showed are kept).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Any, Literal

from cognition.carried import CarriedPrompt, SystemPromptSource, applied_strategies
from cognition.deliberate import prompts
from cognition.deliberate.confidence import Conclusion, conclude
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
from cognition.deliberate.single_call import Part, WholeReply, single_prompt, split_reply
from cognition.errors import LLMUnavailableError
from cognition.llm import LLMClient
from cognition.schemas import DecisionContext, Deliberation, RenderedContext
from graph.models import DecisionType, ReasonerKind, StepName
from graph.settings import ThresholdSettings

log = logging.getLogger(__name__)

DeliberationMode = Literal["single_call", "stepwise"]


class _Run:
    """One deliberation's requests, remembering whether the endpoint went away."""

    def __init__(self, client: LLMClient, carried: CarriedPrompt | None) -> None:
        self._client = client
        # With a carried prompt it is the system message and the deliberation's
        # instructions open the user message; without, they are the system message.
        self._system = carried.text if carried is not None else prompts.SYSTEM_PROMPT
        self._opening = f"{prompts.SYSTEM_PROMPT}\n\n" if carried is not None else ""
        self.shown: tuple[str, ...] = tuple(carried.strategy_ids) if carried is not None else ()
        self._unavailable: str | None = None

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
        try:
            reply = await self._client.complete_json(
                system=self._system,
                user=self._opening + user(),
                schema=schema,
                step=name.value,
                priority="decision",
            )
        except LLMUnavailableError as exc:
            self._unavailable = str(exc)
            log.info("%s: LLM unavailable; the rules deliberate the rest", name.value)
            return rules_outcome(name, fallback(), summary, started=started, error=str(exc))
        tokens = reply.prompt_tokens + reply.completion_tokens
        if reply.value is None:
            log.info("%s: no usable LLM reply; the rules take this step", name.value)
            error = f"no usable reply after {reply.attempts} attempt(s): {reply.error}"
            outcome = rules_outcome(
                name, fallback(), summary, started=started, error=error, tokens=tokens
            )
            return dataclasses.replace(outcome, call_id=reply.call_id)
        return StepOutcome(
            name=name,
            reply=reply.value,
            reasoner=ReasonerKind.LLM,
            input_summary=summary,
            model=reply.model,
            latency_ms=reply.latency_ms,
            tokens=tokens,
            call_id=reply.call_id,
        )

    async def whole(self, user: str) -> tuple[dict[StepName, Part], str | None, str | None]:
        """The single request: each step's part, the model and call id (``None`` if unasked)."""
        try:
            reply = await self._client.complete_json(
                system=self._system,
                user=self._opening + user,
                schema=WholeReply,
                step="DELIBERATE",
                priority="decision",
            )
        except LLMUnavailableError as exc:
            self._unavailable = str(exc)
            log.info("LLM unavailable; the rules deliberate")
            return {}, None, None
        return split_reply(reply), reply.model, reply.call_id

    @property
    def unavailable(self) -> str | None:
        """Why the endpoint is not asked any more in this deliberation, if it is not."""
        return self._unavailable


class LLMReasoner:
    """Deliberates through an OpenAI-compatible model, falling back to the rules per step."""

    kind: ReasonerKind = ReasonerKind.LLM

    def __init__(
        self,
        client: LLMClient,
        thresholds: ThresholdSettings,
        *,
        deliberation: DeliberationMode = "single_call",
        system_prompt: SystemPromptSource | None = None,
    ) -> None:
        """Use ``client`` (started by its owner), ``thresholds`` and the mode.

        ``system_prompt`` is awaited once per deliberation for the carried
        prompt; without it the system message is :data:`prompts.SYSTEM_PROMPT`.
        """
        if deliberation not in ("single_call", "stepwise"):
            raise ValueError(f"deliberation must be single_call or stepwise, not {deliberation!r}")
        self.client = client
        self.deliberation: DeliberationMode = deliberation
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
        run = _Run(self.client, await self._carried())
        if self.deliberation == "single_call":
            trace, verdict = await self._single(run, context, rendered)
        else:
            trace, verdict = await self._stepwise(run, context, rendered)
        outcomes: list[StepOutcome[Any]] = [
            trace.observe,
            trace.categorize,
            trace.match,
            trace.evaluate,
            trace.decide,
        ]
        by_llm = sum(o.reasoner is ReasonerKind.LLM for o in outcomes)
        self.client.state.record_steps(by_llm=by_llm, fell_back=len(outcomes) - by_llm)
        deliberation = build_deliberation(context, trace, verdict)
        applied = applied_strategies(trace.decide.reply.applied_strategies, run.shown)
        return deliberation.model_copy(update={"applied_strategies": applied})

    async def _stepwise(
        self, run: _Run, context: DecisionContext, rendered: RenderedContext
    ) -> tuple[Trace, Conclusion]:
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
        verdict = self._verdict(context, obs, cat, mat, ev)
        dec = await run.step(
            StepName.DECIDE,
            DecideReply,
            lambda: prompts.decide_prompt(
                context, rendered, earlier, verdict, self._thresholds, run.shown
            ),
            lambda: decide_by_rules(context, verdict),
            f"Final decision with {verdict.confidence:.2f} confidence",
        )
        return Trace(obs, cat, mat, ev, _with_questions(dec, context, verdict)), verdict

    async def _single(
        self, run: _Run, context: DecisionContext, rendered: RenderedContext
    ) -> tuple[Trace, Conclusion]:
        started = time.perf_counter()
        user = single_prompt(context, rendered, self._thresholds, run.shown)
        parts, model, call_id = await run.whole(user)

        def outcome(name: StepName, fallback: Callable[[], R], summary: str) -> StepOutcome[R]:
            part = parts.get(name)
            if part is not None and part.reply is not None:
                return StepOutcome(
                    name=name,
                    reply=part.reply,  # type: ignore[arg-type]  # PARTS pairs name and model
                    reasoner=ReasonerKind.LLM,
                    input_summary=summary,
                    model=model,
                    latency_ms=part.latency_ms,
                    tokens=part.tokens,
                    call_id=call_id,
                )
            error = (
                f"LLM not asked: {run.unavailable}"
                if part is None
                else f"no usable part in the reply: {part.error}"
            )
            result = rules_outcome(name, fallback(), summary, started=started, error=error)
            if part is not None:
                result = dataclasses.replace(
                    result, latency_ms=part.latency_ms, tokens=part.tokens, call_id=call_id
                )
            return result

        obs = outcome(
            StepName.OBSERVE,
            lambda: observe_by_rules(context),
            input_summary(StepName.OBSERVE, context),
        )
        observe = obs.reply
        cat = outcome(
            StepName.CATEGORIZE,
            lambda: categorize_by_rules(context, observe),
            observe.brief_summary,
        )
        mat = outcome(
            StepName.MATCH_PATTERN,
            lambda: match_by_rules(context),
            input_summary(StepName.MATCH_PATTERN, context),
        )
        ev = outcome(
            StepName.EVALUATE,
            lambda: evaluate_by_rules(context, observe, mat.reply),
            input_summary(StepName.EVALUATE, context),
        )
        verdict = self._verdict(context, obs, cat, mat, ev)
        dec = outcome(
            StepName.DECIDE,
            lambda: decide_by_rules(context, verdict),
            f"Final decision with {verdict.confidence:.2f} confidence",
        )
        return Trace(obs, cat, mat, ev, _with_questions(dec, context, verdict)), verdict

    def _verdict(
        self,
        context: DecisionContext,
        obs: StepOutcome[ObserveReply],
        cat: StepOutcome[CategorizeReply],
        mat: StepOutcome[MatchPatternReply],
        ev: StepOutcome[EvaluateReply],
    ) -> Conclusion:
        return conclude(
            context,
            significance=obs.reply.significance,
            recommended_template=mat.reply.recommended_template,
            deltas=[(o.name, o.reply.delta()) for o in (obs, cat, mat, ev)],
            thresholds=self._thresholds,
        )


def _with_questions(
    dec: StepOutcome[DecideReply], context: DecisionContext, verdict: Conclusion
) -> StepOutcome[DecideReply]:
    """For an investigation: the model's questions first, the rules' up to three."""
    if verdict.decision_type is not DecisionType.INVESTIGATE:
        return dec
    questions = merge_questions(list(dec.reply.investigation_questions))
    if len(questions) < 3:
        questions = merge_questions(questions, investigation_questions(context, verdict.template))
    reply = dec.reply.model_copy(update={"investigation_questions": questions})
    return dataclasses.replace(dec, reply=reply)
