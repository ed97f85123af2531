"""Python functions that action templates may name as ``internal`` targets.

``handle_failure`` is seed 000's failure template done without an agent: it
reads the failed task's error with seed 002's failure analysis and says
whether to retry (and how) or hand it to a person. The index sync's rescan
is registered by the scheduler, which owns it.
"""

from __future__ import annotations

from cognition.act.executors import ExecutionRequest
from cognition.monitor.failures import analyze_failure
from cognition.monitor.retry import retry_strategy


async def handle_failure(request: ExecutionRequest) -> str:
    """Recommend recovery for a failed task from its error text (template parameters)."""
    error = str(request.params.get("error_message", ""))
    attempt = _whole(request.params.get("attempt_number"), 1)
    max_attempts = _whole(request.params.get("max_attempts"), 3)
    failure = analyze_failure("", error, None)
    if attempt >= max_attempts:
        advice = "escalate to human review: no attempts left"
    elif failure.transient:
        advice = "retry with the same parameters: the error looks transient"
    else:
        strategy = retry_strategy(failure, attempt, max_attempts - 1)
        advice = f"retry with modified parameters ({strategy.retry_approach})"
    return (
        f"failure type: {failure.failure_type.value}; transient: {failure.transient}; "
        f"attempt {attempt} of {max_attempts}; recovery: {advice}"
    )


def _whole(value: object, default: int) -> int:
    try:
        return int(str(value))
    except ValueError:
        return default
