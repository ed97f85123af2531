"""Monitor: what came of an action, and what to do next.

Pure logic, no I/O. `analyze_failure` names the failure, `decide` chooses
complete, retry or escalate, `retry_strategy` and `refine_prompt` shape the
next attempt, `escalation_message` and `summary` explain it to a person, and
`assess` measures a turn's surprise and its censor candidates. :class:`Monitor`
is all of it as the actor asks after every attempt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cognition.lazy import lazy_attribute
from cognition.monitor.assess import (
    AssessedError,
    Assessment,
    EpisodeOutcome,
    ToolError,
    assess,
    error_to_censor_text,
    is_transient,
    tool_call_prefix,
)

if TYPE_CHECKING:
    from cognition.monitor.failures import analyze_failure
    from cognition.monitor.judge import Monitor
    from cognition.monitor.retry import (
        DEFAULT_MAX_RETRIES,
        RetryStrategy,
        refine_prompt,
        retry_strategy,
    )
    from cognition.monitor.verdict import decide, escalation_message, undecided_message
    from graph.models.outcome import FailureAnalysis, FailureType, Verdict, VerdictDetail

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "AssessedError",
    "Assessment",
    "EpisodeOutcome",
    "FailureAnalysis",
    "FailureType",
    "Monitor",
    "RetryStrategy",
    "ToolError",
    "Verdict",
    "VerdictDetail",
    "analyze_failure",
    "assess",
    "decide",
    "error_to_censor_text",
    "escalation_message",
    "is_transient",
    "refine_prompt",
    "retry_strategy",
    "tool_call_prefix",
    "undecided_message",
]

# Loaded when first asked for (PEP 562): the judge brings in the executors, which a process
# that only assesses a turn (a Claude Code hook) must not load; the failure analysis and its
# models bring in pydantic, which a hook answering a tool call (cognition.monitor.calls) must not.
_HOMES = {
    "analyze_failure": "cognition.monitor.failures",
    "FailureAnalysis": "graph.models.outcome",
    "FailureType": "graph.models.outcome",
    "Verdict": "graph.models.outcome",
    "VerdictDetail": "graph.models.outcome",
    "Monitor": "cognition.monitor.judge",
    "DEFAULT_MAX_RETRIES": "cognition.monitor.retry",
    "RetryStrategy": "cognition.monitor.retry",
    "refine_prompt": "cognition.monitor.retry",
    "retry_strategy": "cognition.monitor.retry",
    "decide": "cognition.monitor.verdict",
    "escalation_message": "cognition.monitor.verdict",
    "undecided_message": "cognition.monitor.verdict",
}


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, _HOMES, name)
