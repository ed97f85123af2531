"""What came of an attempt: its failure type, and the verdict on it (seed 002's monitor).

Data only, shared by the stage that acts (:mod:`cognition.act`, which records
them on the ``Execution``) and the stage that judges (:mod:`cognition.monitor`,
which makes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class FailureType(StrEnum):
    """The seed's nine failure types, declared in the order they are checked."""

    FILE_NOT_FOUND = "file_not_found"
    PERMISSION_ERROR = "permission_error"
    SYNTAX_ERROR = "syntax_error"
    DEPENDENCY_ERROR = "dependency_error"
    TIMEOUT = "timeout"
    CONSOLE_ERRORS = "console_errors"
    NETWORK_ERRORS = "network_errors"
    UI_ISSUES = "ui_issues"
    VALIDATION_FAILURE = "validation_failure"


@dataclass(frozen=True)
class FailureAnalysis:
    """What kind of failure an execution had, and the text that showed it."""

    failure_type: FailureType
    matched_pattern: str
    evidence: str
    transient: bool


class Verdict(StrEnum):
    """What to do after an execution."""

    COMPLETE = "complete"
    RETRY = "retry"
    ESCALATE = "escalate"


@dataclass(frozen=True)
class VerdictDetail:
    """A verdict with its reason, its details and the state it was made from."""

    verdict: Verdict
    reason: str
    details: str
    success: bool
    validation_passed: bool
    retry_count: int
    max_retries: int
    failure: FailureAnalysis | None = None

    def as_properties(self) -> dict[str, str | int | bool | None]:
        """Flat primitive values, ready to be stored as node properties."""
        return {
            "verdict": str(self.verdict),
            "reason": self.reason,
            "details": self.details,
            "success": self.success,
            "validation_passed": self.validation_passed,
            "retry_count": self.retry_count,
            "max_retries": self.max_retries,
            "failure_type": str(self.failure.failure_type) if self.failure else None,
            "transient": self.failure.transient if self.failure else None,
        }
