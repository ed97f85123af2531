"""Retry strategies: how to ask again after a failure, per the Decision Maker seed (002)."""

from __future__ import annotations

from dataclasses import dataclass

from cognition.text import fence, plain_text
from graph.models.outcome import FailureAnalysis, FailureType

DEFAULT_MAX_RETRIES = 3
_EVIDENCE_CHARS = 500


@dataclass(frozen=True)
class RetryStrategy:
    """What to change on the next attempt, and why."""

    failure_type: FailureType
    retry_approach: str
    base_strategy: str
    prompt_refinements: tuple[str, ...]
    additional_context: str
    attempt: int
    max_retries: int
    evidence: str = ""
    escalation_warning: str = ""

    @property
    def refinements_text(self) -> str:
        """The refinements as the seed writes them: one "- " line each."""
        return "\n".join(f"- {line}" for line in self.prompt_refinements)


@dataclass(frozen=True)
class _Template:
    approach: str
    base: str
    refinements: tuple[str, ...]
    context: str


# The seed's table: approach, refinements and context per failure type. Its
# full wording is given only for file_not_found; the rest is written from the
# table's short entries. The seed has no row for validation_failure; that one
# is ours.
_TEMPLATES: dict[FailureType, _Template] = {
    FailureType.FILE_NOT_FOUND: _Template(
        "explicit_paths",
        "Add explicit file paths and verify they exist before modifying",
        (
            "Add absolute file paths",
            "Verify files exist before modifying",
            "Use 'find' or 'ls' to locate files",
        ),
        "Project structure overview",
    ),
    FailureType.PERMISSION_ERROR: _Template(
        "check_permissions",
        "Verify write permissions and work only on files inside the project",
        (
            "Verify write permissions before writing",
            "Use paths relative to the project root",
            "Do not touch files outside the project",
        ),
        "File system permissions",
    ),
    FailureType.SYNTAX_ERROR: _Template(
        "add_examples",
        "Show working syntax and check the code parses before finishing",
        (
            "Include syntax examples from the existing code",
            "Add type definitions where they are missing",
            "Check that every changed file parses before finishing",
        ),
        "Working code patterns",
    ),
    FailureType.DEPENDENCY_ERROR: _Template(
        "verify_dependencies",
        "Verify that every dependency is declared and every import resolves",
        (
            "Check the dependency manifest (package.json, pyproject.toml, requirements.txt)",
            "Verify each import names a module that is installed",
            "Do not add a dependency without declaring it",
        ),
        "Dependency list",
    ),
    FailureType.TIMEOUT: _Template(
        "break_down_task",
        "Break the task into smaller subtasks and implement them incrementally",
        (
            "Break the task into subtasks",
            "Implement one subtask at a time",
            "Stop after each subtask that works",
        ),
        "Task breakdown strategy",
    ),
    FailureType.CONSOLE_ERRORS: _Template(
        "fix_runtime_errors",
        "Fix the runtime errors reported in the console",
        (
            "Add error handling around the failing code",
            "Fix undefined references",
        ),
        "Console error details",
    ),
    FailureType.NETWORK_ERRORS: _Template(
        "fix_api_calls",
        "Fix the failing API calls",
        (
            "Verify endpoint URLs and methods",
            "Add error handling for failed requests",
        ),
        "API documentation",
    ),
    FailureType.UI_ISSUES: _Template(
        "improve_ui",
        "Make sure the required UI elements are present and styled",
        (
            "Ensure every required element is present",
            "Apply the required styling",
        ),
        "UI requirements",
    ),
    FailureType.VALIDATION_FAILURE: _Template(
        "address_validation",
        "Address the specific validation failures before finishing",
        (
            "Read the validation output and fix each reported failure",
            "Run the validation again before finishing",
        ),
        "Validation results",
    ),
}


def retry_strategy(
    failure: FailureAnalysis, attempt: int, max_retries: int = DEFAULT_MAX_RETRIES
) -> RetryStrategy:
    """Choose the strategy for retry number `attempt` (1 for the first retry).

    The last retry before escalation carries a warning saying so.
    """
    if attempt < 1 or max_retries < 1:
        raise ValueError(f"need attempt >= 1 and max_retries >= 1, got {attempt}, {max_retries}")
    template = _TEMPLATES[failure.failure_type]
    warning = ""
    if attempt >= max_retries:
        warning = f"Final retry ({attempt}/{max_retries}): a failure now escalates to a human."
    return RetryStrategy(
        failure_type=failure.failure_type,
        retry_approach=template.approach,
        base_strategy=template.base,
        prompt_refinements=template.refinements,
        additional_context=template.context,
        attempt=attempt,
        max_retries=max_retries,
        evidence=plain_text(failure.evidence, _EVIDENCE_CHARS, single_line=False),
        escalation_warning=warning,
    )


def refine_prompt(original_prompt: str, strategy: RetryStrategy) -> str:
    """Return the original prompt followed by the retry guidance.

    Pass the original prompt each time, not one already refined, or guidance
    piles up. The previous error is untrusted text: it goes in fenced and
    labelled as data.
    """
    lines = [
        original_prompt.rstrip(),
        "",
        f"## Retry {strategy.attempt} of {strategy.max_retries}",
        "",
        f"The previous attempt failed ({strategy.failure_type}). {strategy.base_strategy}.",
        "",
        strategy.refinements_text,
        "",
        f"Context to gather first: {strategy.additional_context}.",
    ]
    if strategy.escalation_warning:
        lines += ["", strategy.escalation_warning]
    if strategy.evidence:
        lines += ["", fence(strategy.evidence, "the previous error")]
    return "\n".join(lines) + "\n"
