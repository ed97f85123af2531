"""The Claude Code CLI as an executor: ``claude -p <prompt> --output-format json``.

The child runs in the request's root with the environment handed to the
constructor, minus the variables that make the CLI refuse to start nested
(see :mod:`cognition.act.executors.command_line`); it never reads the
process environment itself.
"""

from __future__ import annotations

import json
from typing import Any

from cognition.act.executors.base import (
    EXCERPT_CHARS,
    ExecutionRequest,
    ExecutionResult,
    failure,
    from_process,
)
from cognition.act.executors.command_line import CommandLineExecutor
from cognition.act.executors.process import ProcessResult
from cognition.text import clip


class ClaudeCodeExecutor(CommandLineExecutor):
    """Runs ``claude -p <prompt> --output-format json`` in the request's root.

    Success is read from the CLI's JSON result (``is_error`` false, subtype
    ``success``) together with a zero exit code; the session id, cost and
    number of turns come from the same result.
    """

    name = "claude_code"

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run the CLI for ``request`` and read its JSON result."""
        command = self.command_for(request)
        if not request.prompt.strip():
            return failure(command, "the prompt is empty: there is nothing to ask Claude Code")
        proc = await self._run(request, command, "the Claude Code CLI")
        if isinstance(proc, ExecutionResult):
            return proc
        return _read_claude_result(proc, command)

    def _argv(self, request: ExecutionRequest, prompt: str) -> list[str]:
        settings = self._settings
        argv = [settings.claude_binary, "-p", prompt, "--output-format", "json"]
        argv += ["--permission-mode", settings.permission_mode]
        if settings.allowed_tools:
            # One argument, comma-separated: the option takes a variadic list,
            # and a single argument cannot swallow anything that follows it.
            argv += ["--allowedTools", ",".join(settings.allowed_tools)]
        argv += ["--max-turns", str(settings.max_turns), "--session-id", request.execution_id]
        return argv


def _read_claude_result(proc: ProcessResult, command: list[str]) -> ExecutionResult:
    payload = read_result_json(proc.stdout)
    if payload is None:
        detail = clip(proc.stderr.strip() or proc.stdout.strip(), EXCERPT_CHARS, keep_tail=True)
        detail = detail or "no output"
        cut = " (its output passed the cap and was cut)" if proc.truncated else ""
        reason = f"Claude Code exited with code {proc.return_code} without a JSON result{cut}"
        return from_process(
            proc, command, success=False, output=proc.stdout, error=f"{reason}: {detail}"
        )

    text = payload.get("result")
    subtype = payload.get("subtype")
    reported_ok = payload.get("is_error") is False and subtype == "success"
    success = reported_ok and proc.return_code == 0
    error: str | None = None
    if not reported_ok:
        what = text if isinstance(text, str) and text.strip() else proc.stderr.strip()
        said = clip(what, EXCERPT_CHARS, keep_tail=True) or "no message"
        error = f"Claude Code reported {subtype or 'an error'}: {said}"
    elif not success:
        error = f"Claude Code exited with code {proc.return_code} although its result says success"
    session_id = payload.get("session_id")
    return from_process(
        proc,
        command,
        success=success,
        output=text if isinstance(text, str) else "",
        error=error,
        session_id=session_id if isinstance(session_id, str) else None,
        cost_usd=_number(payload.get("total_cost_usd")),
        num_turns=_whole(payload.get("num_turns")),
    )


def read_result_json(stdout: str) -> dict[str, Any] | None:
    """The CLI's ``{"type": "result", ...}`` object from its output, or None.

    ``--output-format json`` prints one object; with ``--verbose`` it prints a
    list of messages ending in the result; a warning line may precede either.
    """
    candidates = [stdout.strip()]
    candidates += [line.strip() for line in reversed(stdout.splitlines()) if line.strip()]
    for candidate in candidates:
        if not candidate.startswith(("{", "[")):
            continue
        try:
            parsed = json.loads(candidate)
        except ValueError:
            continue
        items = parsed if isinstance(parsed, list) else [parsed]
        for item in reversed(items):
            if isinstance(item, dict) and item.get("type") == "result":
                return item
    return None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _whole(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value
