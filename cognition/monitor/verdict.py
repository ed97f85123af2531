"""The verdict after an execution: complete, retry or escalate (Decision Maker seed 002)."""

from __future__ import annotations

from cognition.text import plain_text
from graph.models.outcome import FailureAnalysis, Verdict, VerdictDetail

_BOX_WIDTH = 60
_TASK_CHARS = 300
_ERROR_CHARS = 1000


def decide(
    success: bool,
    validation_passed: bool,
    retry_count: int,
    max_retries: int,
    failure: FailureAnalysis | None = None,
) -> VerdictDetail:
    """Decide complete, retry or escalate, with the reason.

    Complete when the execution succeeded and validation passed (even on the
    last retry); otherwise retry while `retry_count < max_retries`, and
    escalate once the retries are used up. `retry_count` is the number of
    retries already made.
    """
    if retry_count < 0 or max_retries < 0:
        raise ValueError(f"counts cannot be negative: {retry_count=}, {max_retries=}")
    state = (success, validation_passed, retry_count, max_retries, failure)
    kind = f" ({failure.failure_type})" if failure else ""
    if success and validation_passed:
        return VerdictDetail(
            Verdict.COMPLETE,
            "Agent completed the task and validation passed",
            "No further action needed",
            *state,
        )
    reason = "Agent failed to complete task" if not success else "Validation failed"
    if retry_count < max_retries:
        details = f"Will refine prompt and retry (retry {retry_count + 1}/{max_retries})"
        return VerdictDetail(Verdict.RETRY, reason + kind, details, *state)
    details = f"Maximum retries reached ({retry_count}/{max_retries}); a human must decide"
    return VerdictDetail(Verdict.ESCALATE, reason + kind, details, *state)


def _opened(title: str, task: str, decision_id: str | None) -> list[str]:
    """The box's title, the decision (when there is one) and the task."""
    lines = [*_boxed(title), ""]
    if decision_id:
        lines.append(f"Decision: {plain_text(decision_id, 100)}")
    return [*lines, f"Task: {plain_text(task, _TASK_CHARS) or '(no description)'}", ""]


def _closed(lines: list[str]) -> str:
    """The message with the box's bottom edge."""
    return "\n".join([*lines, "", "╚" + "═" * _BOX_WIDTH + "╝"]) + "\n"


def _boxed(title: str) -> list[str]:
    return [
        "╔" + "═" * _BOX_WIDTH + "╗",
        "║  " + title.ljust(_BOX_WIDTH - 2) + "║",
        "╚" + "═" * _BOX_WIDTH + "╝",
    ]


def escalation_message(
    task: str,
    attempts: int,
    last_error: str | None,
    failure: FailureAnalysis | None = None,
    *,
    decision_id: str | None = None,
) -> str:
    """The message for the human who has to take over, in the seed's layout.

    `attempts` counts every execution, the first one included. All values are
    reduced to plain text; the suggested Cypher takes the decision id as a
    parameter, never spliced into the query.
    """
    lines = _opened("HUMAN ESCALATION REQUIRED", task, decision_id)
    lines += [
        f"Nous has attempted this task {attempts} times without success.",
        "",
    ]
    if failure:
        lines += [f"Failure type: {failure.failure_type}", ""]
    error = plain_text(last_error or "", _ERROR_CHARS, single_line=False)
    lines += ["Last Agent Error:", error or "(no error text)", ""]
    lines += [
        "What happened:",
        "- Multiple autonomous attempts failed",
        "- Automatic recovery strategies exhausted",
        "- Task complexity may exceed autonomous capability",
        "",
        "Next Steps:",
    ]
    if decision_id:
        lines += [
            "1. Review the decision's executions: run the audit query",
            "   cypher/audit/executions_for_decision.cypher with decision_id set to",
            "   the decision id above (in Neo4j Browser: :param decision_id => '…')",
        ]
    else:
        lines.append("1. Review the executions of this task and their output")
    lines += [
        "2. Decide whether to:",
        "   - Modify the task and retry manually",
        "   - Complete the task manually",
        "   - Break the task into smaller subtasks",
        "   - Abandon this approach",
    ]
    return _closed(lines)


def undecided_message(
    task: str,
    reason: str,
    *,
    confidence: float,
    thresholds: str,
    decision_id: str | None = None,
) -> str:
    """The message for a person when Nous escalates without having acted at all.

    Said plainly: nothing was attempted; the decision's confidence and the
    thresholds it was measured against (``thresholds``, already formatted)
    are named, so the reader sees why the agent did not act on its own.
    """
    lines = _opened("HUMAN DECISION REQUIRED", task, decision_id)
    lines += [
        "Nous did not act on this: nothing was attempted.",
        f"Why: {plain_text(reason, _ERROR_CHARS) or '(no reason given)'}",
        f"Its confidence was {confidence:.2f}; thresholds: {thresholds}.",
        "",
        "Next Steps:",
        "1. Look at the decision's reasoning steps (cypher/audit/decision_steps.cypher)",
        "2. Act on it yourself, or tell Nous more (a note, a goal) and let it decide again",
    ]
    return _closed(lines)
