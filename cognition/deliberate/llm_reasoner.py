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
from typing import Literal

import cognition.deliberate.prompts as prompts
from cognition.carried import CarriedPrompt, SystemPromptSource, applied_strategies
from cognition.deliberate.confidence import Conclusion
from cognition.deliberate.replies import (
    DecideReply,
    R,
    StepOutcome,
    build_deliberation,
    rules_outcome,
)
from cognition.deliberate.rule_table import investigation_questions, merge_questions
from cognition.deliberate.sequence import Step, StepRequest, deliberate_in_steps
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
        # StepOutcome's model, latency_ms, tokens, error and call_id, in its field order.
        measured = (reply.model, reply.latency_ms, tokens, None, reply.call_id)
        return StepOutcome(name, reply.value, ReasonerKind.LLM, summary, *measured)

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
        step: Step
        if self.deliberation == "single_call":
            started = time.perf_counter()
            user = single_prompt(context, rendered, self._thresholds, run.shown)
            step = _PartOfOneReply(run, await run.whole(user), started)
        else:
            step = _OneRequestEach(run, context, rendered, self._thresholds)
        trace, verdict = await deliberate_in_steps(context, self._thresholds, step)
        trace = dataclasses.replace(trace, decide=_with_questions(trace.decide, context, verdict))
        outcomes = trace.outcomes()
        by_llm = sum(o.reasoner is ReasonerKind.LLM for o in outcomes)
        self.client.state.record_steps(by_llm=by_llm, fell_back=len(outcomes) - by_llm)
        deliberation = build_deliberation(context, trace, verdict)
        applied = applied_strategies(trace.decide.reply.applied_strategies, run.shown)
        return deliberation.model_copy(update={"applied_strategies": applied})


class _OneRequestEach:
    """``stepwise``: each step its own request, seeing the earlier steps' conclusions."""

    def __init__(
        self,
        run: _Run,
        context: DecisionContext,
        rendered: RenderedContext,
        thresholds: ThresholdSettings,
    ) -> None:
        self.run, self.context, self.rendered, self.thresholds = run, context, rendered, thresholds

    async def take(self, request: StepRequest[R]) -> StepOutcome[R]:
        """Ask the model for this step; the rules answer when it cannot."""
        return await self.run.step(
            request.name,
            request.schema,
            lambda: self._prompt(request),
            request.rules,
            request.summary,
        )

    def _prompt(self, request: StepRequest[R]) -> str:
        context, rendered, earlier = self.context, self.rendered, dict(request.earlier)
        if request.name is StepName.OBSERVE:
            return prompts.observe_prompt(context, rendered)
        if request.name is StepName.CATEGORIZE:
            return prompts.categorize_prompt(context, rendered, earlier[StepName.OBSERVE])
        if request.name is StepName.MATCH_PATTERN:
            return prompts.match_prompt(context, rendered, earlier)
        if request.name is StepName.EVALUATE:
            return prompts.evaluate_prompt(context, rendered, earlier)
        assert request.verdict is not None  # the sequence concludes before DECIDE
        return prompts.decide_prompt(
            context, rendered, earlier, request.verdict, self.thresholds, self.run.shown
        )


class _PartOfOneReply:
    """``single_call``: every step is its part of the one reply, or the rules' answer."""

    def __init__(
        self,
        run: _Run,
        reply: tuple[dict[StepName, Part], str | None, str | None],
        started: float,
    ) -> None:
        self.run, self.started = run, started
        self.parts, self.model, self.call_id = reply

    async def take(self, request: StepRequest[R]) -> StepOutcome[R]:
        """This step's part of the reply; the rules' answer when the part is unusable."""
        name, summary = request.name, request.summary
        part = self.parts.get(name)
        if part is not None and part.reply is not None:
            # Model, latency, tokens, no error, call id; PARTS pairs the step with its model.
            measured = (self.model, part.latency_ms, part.tokens, None, self.call_id)
            return StepOutcome(name, part.reply, ReasonerKind.LLM, summary, *measured)  # type: ignore[arg-type]
        error = (
            f"LLM not asked: {self.run.unavailable}"
            if part is None
            else f"no usable part in the reply: {part.error}"
        )
        result = rules_outcome(name, request.rules(), summary, started=self.started, error=error)
        if part is not None:
            result = dataclasses.replace(
                result, latency_ms=part.latency_ms, tokens=part.tokens, call_id=self.call_id
            )
        return result


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
