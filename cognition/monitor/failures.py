"""Failure analysis: name what went wrong in an execution, from its output and error.

The nine failure types and their detection patterns come from the Decision
Maker seed (002). Checks run in the seed's order, so an output that matches two
types is given the earlier one: a "no such file" next to a "timed out" is a
missing file. Only the executor's own timeout flag comes before them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cognition.monitor.assess import is_transient
from cognition.text import plain_text
from graph.models.outcome import FailureAnalysis, FailureType

EVIDENCE_CHARS = 200
_EVIDENCE_CONTEXT = 80


def _rx(*patterns: str) -> tuple[re.Pattern[str], ...]:
    # MULTILINE so that `^` means the start of any line of output (pytest's
    # "FAILED tests/..." summary lines).
    return tuple(re.compile(p, re.IGNORECASE | re.MULTILINE) for p in patterns)


# The seed's substrings, written as regexes with `\s*` where Python and Node
# spell them without spaces (FileNotFoundError, ModuleNotFoundError,
# SyntaxError). Additions beyond the seed are marked.
DETECTION_PATTERNS: dict[FailureType, tuple[re.Pattern[str], ...]] = {
    FailureType.FILE_NOT_FOUND: _rx(
        r"file\s*not\s*found",
        r"no such file",
        # "Cannot find module 'x'" is a dependency error; without the lookahead
        # the earlier file_not_found check would always take it.
        r"cannot find(?!\s+module\b)",
    ),
    FailureType.PERMISSION_ERROR: _rx(
        r"permission\s*denied",
        r"access\s*denied",
        r"operation not permitted",  # addition: EPERM's message
        r"\beacces\b",  # addition: Node's permission error code
    ),
    FailureType.SYNTAX_ERROR: _rx(r"syntax\s*error", r"unexpected token"),
    FailureType.DEPENDENCY_ERROR: _rx(
        r"module\s*not\s*found",
        r"cannot import",
        r"no module named",  # addition: the seed's own example says this
        r"cannot find module",  # addition: Node's wording
    ),
    FailureType.TIMEOUT: _rx(r"time\s*out", r"timed\s*out"),
    # The seed detects the next three from validation counts; these are the
    # same failures as they read in browser and test output.
    FailureType.CONSOLE_ERRORS: _rx(
        r"\buncaught\b",
        r"unhandled (?:promise )?rejection",
        r"console\s*\.?\s*error",
        r"\[console\]\s*error",
    ),
    FailureType.NETWORK_ERRORS: _rx(
        r"net::err_",
        r"failed to (?:fetch|load resource)",
        r"\b(?:status(?: code)?|http(?:/\d(?:\.\d)?)?)[\s:=]*[45]\d\d\b",
        r"\b[45]\d\d \(?(?:bad request|unauthorized|forbidden|not found|internal server error"
        r"|bad gateway|service unavailable|gateway timeout)",
        r"network\s*error",
        r"\beconn(?:refused|reset)\b|connection (?:refused|reset)",  # addition: a failed call
    ),
    FailureType.UI_ISSUES: _rx(
        r"\bui issues?\b",
        r"element (?:is )?(?:not visible|not found|missing)",
        r"missing (?:ui )?element",
        r"visual (?:regression|diff|mismatch)",
    ),
    FailureType.VALIDATION_FAILURE: _rx(
        r"validation (?:failed|error)",
        r"assertion\s*error",
        r"\btests? failed\b",
        r"^FAILED\b",
    ),
}


def _excerpt(text: str, match: re.Match[str]) -> str:
    start = max(0, match.start() - _EVIDENCE_CONTEXT)
    end = match.end() + _EVIDENCE_CONTEXT
    return plain_text(text[start:end], EVIDENCE_CHARS)


def _search(text: str, types: Sequence[FailureType]) -> FailureAnalysis | None:
    for failure_type in types:
        for pattern in DETECTION_PATTERNS[failure_type]:
            match = pattern.search(text)
            if match:
                # Transience is judged on the matched words only: the excerpt
                # around them may mention a timeout that did not cause this.
                transient = failure_type is FailureType.TIMEOUT or is_transient(match.group(0))
                return FailureAnalysis(
                    failure_type, pattern.pattern, _excerpt(text, match), transient
                )
    return None


# Every type but the catch-all, in the seed's order.
_SPECIFIC = tuple(t for t in FailureType if t is not FailureType.VALIDATION_FAILURE)


def analyze_failure(
    output: str,
    error: str | None,
    return_code: int | None,
    timed_out: bool = False,
    *,
    console_errors: int = 0,
    network_errors: int = 0,
    ui_issues: Sequence[str] = (),
) -> FailureAnalysis:
    """Classify a failed execution into one of the nine failure types.

    Order: the executor's own timeout flag (a killed process's partial output
    is not the cause); then, as in the seed, the error text for the specific
    types followed by the validation counts (`console_errors`,
    `network_errors`, `ui_issues`); then the same patterns over the output;
    last `validation_failure`, the seed's catch-all, which always answers.
    """
    if timed_out:
        return FailureAnalysis(FailureType.TIMEOUT, "timed_out", "execution timed out", True)
    found = _search(error, _SPECIFIC) if error else None
    if found:
        return found
    if console_errors > 0:
        evidence = f"{console_errors} console error(s)"
        return FailureAnalysis(FailureType.CONSOLE_ERRORS, "console_errors > 0", evidence, False)
    if network_errors > 0:
        evidence = f"{network_errors} network error(s)"
        return FailureAnalysis(FailureType.NETWORK_ERRORS, "network_errors > 0", evidence, False)
    if ui_issues:
        evidence = plain_text("; ".join(ui_issues), EVIDENCE_CHARS)
        return FailureAnalysis(FailureType.UI_ISSUES, "ui_issues != []", evidence, False)
    catch_all = (FailureType.VALIDATION_FAILURE,)
    found = (
        _search(output, _SPECIFIC) or _search(error or "", catch_all) or _search(output, catch_all)
    )
    if found:
        return found
    text = error or output
    evidence = plain_text(text, EVIDENCE_CHARS) or f"no error text; return code {return_code}"
    return FailureAnalysis(FailureType.VALIDATION_FAILURE, "", evidence, is_transient(text))
