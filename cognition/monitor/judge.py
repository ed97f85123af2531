"""Seed 002's monitor as the actor asks it after every attempt (the actor's ``AttemptJudge``)."""

from __future__ import annotations

from cognition.act.executors import ExecutionResult
from cognition.monitor.failures import analyze_failure
from cognition.monitor.retry import refine_prompt, retry_strategy
from cognition.monitor.verdict import decide, escalation_message
from graph.models.outcome import FailureAnalysis, VerdictDetail


class Monitor:
    """Names an attempt's failure, gives the verdict, refines the retry, explains an escalation."""

    def failure(self, result: ExecutionResult) -> FailureAnalysis:
        """The failure of a failed attempt, from its output, error, exit code and timeout."""
        return analyze_failure(result.output, result.error, result.return_code, result.timed_out)

    def verdict(
        self,
        success: bool,
        validated: bool,
        retries: int,
        max_retries: int,
        failure: FailureAnalysis | None,
    ) -> VerdictDetail:
        """Complete, retry or escalate (:func:`~cognition.monitor.verdict.decide`)."""
        return decide(success, validated, retries, max_retries, failure)

    def retry_prompt(
        self, prompt: str, failure: FailureAnalysis, attempt: int, max_retries: int
    ) -> str:
        """The original prompt refined by the retry strategy for this failure."""
        return refine_prompt(prompt, retry_strategy(failure, attempt, max_retries))

    def escalation_message(
        self,
        task: str,
        attempts: int,
        error: str | None,
        failure: FailureAnalysis | None,
        decision_id: str,
    ) -> str:
        """The boxed message a person reads (:func:`.verdict.escalation_message`)."""
        return escalation_message(task, attempts, error, failure, decision_id=decision_id)
