"""Cases on the chat path (issue 25): a tool call that failed, then one that did what it meant.

In a Claude Code turn, a failed tool call followed later in the turn by a
successful call of the same tool with the same intent (the same file, the
same program, or mostly the same arguments) is a verified fix: it becomes a
case, "``X`` failed with E; ``Y`` worked", written by the one case bank
(:mod:`cognition.cases`) with source ``session``, ``IN_EPISODE`` the
session's episode and ``FROM`` its open ``Turn`` when there is one. Before a
turn, the cases most similar to the prompt are added to its context as worked
examples, fenced as data; when the turn ends they are credited by its outcome.
:class:`cognition.chat.layer.CognitiveLayer` calls :meth:`SessionCases.before_turn`
and :meth:`SessionCases.after_turn`, one line each; neither raises into the
turn (the layer's ``_attempt`` guards).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cognition.cases import CaseBank, word_similarity, worked_examples
from cognition.chat.turns import ToolResult, TurnContext, TurnResult
from cognition.monitor import Assessment, EpisodeOutcome
from cognition.text import clip
from graph.models import Case, CaseSource
from graph.store.memory import Memory

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.settings import CaseSettings
    from graph.settings_lean import HookCases

SESSION_DOMAIN = "session"
_TARGET_KEYS = ("file_path", "notebook_path", "path", "url")
_BODY_KEYS = ("code", "content", "new_string")
_ARGUMENT_CHARS = 1500
# Arguments this much alike (share of words) mean the same intent when no target names it.
SAME_INTENT = 0.5
SAME_COMMAND = 0.3


def arguments_text(call: ToolResult) -> str:
    """A call's arguments as shown in a case: a shell command as is; code or content written
    to a file as the file's name and the text; else sorted JSON."""
    command = call.arguments.get("command")
    if isinstance(command, str):
        return clip(command, _ARGUMENT_CHARS)
    body = next(
        (call.arguments[k] for k in _BODY_KEYS if isinstance(call.arguments.get(k), str)), None
    )
    if body is not None:
        target = next((str(call.arguments[k]) for k in _TARGET_KEYS if call.arguments.get(k)), "")
        return clip(f"{target}\n{body}".strip("\n"), _ARGUMENT_CHARS)
    return clip(json.dumps(call.arguments, sort_keys=True, default=str), _ARGUMENT_CHARS)


def intent(call: ToolResult) -> str:
    """A call's intent in a few words: the tool and its target file, or the program it ran."""
    for key in _TARGET_KEYS:
        if call.arguments.get(key) is not None:
            return clip(f"{call.tool_name} {call.arguments[key]}", 200)
    command = call.arguments.get("command")
    if isinstance(command, str) and command.split():
        return clip(f"{call.tool_name} {command.split()[0]}", 200)
    return call.tool_name


def same_intent(failed: ToolResult, later: ToolResult) -> bool:
    """Whether ``later`` did what ``failed`` meant to do: the same tool on the same target, the
    same program with mostly the same words, or mostly the same arguments."""
    if failed.tool_name != later.tool_name:
        return False
    for key in _TARGET_KEYS:
        if failed.arguments.get(key) is not None:
            return bool(failed.arguments.get(key) == later.arguments.get(key))
    a, b = arguments_text(failed), arguments_text(later)
    if isinstance(failed.arguments.get("command"), str):
        same_program = a.split()[:1] == b.split()[:1]
        return same_program and word_similarity(a, b) >= SAME_COMMAND
    return word_similarity(a, b) >= SAME_INTENT


def fixes(calls: Sequence[ToolResult]) -> list[tuple[ToolResult, ToolResult]]:
    """Each failed call paired with the first later successful call of the same intent."""
    pairs: list[tuple[ToolResult, ToolResult]] = []
    used: set[int] = set()
    for i, failed in enumerate(calls):
        if not failed.error:
            continue
        for j in range(i + 1, len(calls)):
            later = calls[j]
            if j not in used and not later.error and same_intent(failed, later):
                pairs.append((failed, later))
                used.add(j)
                break
    return pairs


def verified(
    calls: Sequence[ToolResult], verifying: frozenset[str]
) -> list[tuple[ToolResult | None, ToolResult]]:
    """Each fix (a failed call, the later call that did its job), then each successful call of
    a ``verifying`` tool (one whose success is a check passed) that fixed nothing."""
    pairs: list[tuple[ToolResult | None, ToolResult]] = list(fixes(calls))
    fixed = {id(worked) for _, worked in pairs}
    for i, call in enumerate(calls):
        if call.tool_name not in verifying or call.error or id(call) in fixed:
            continue
        if not any(e.error and same_intent(e, call) for e in calls[:i]):
            pairs.append((None, call))
    return pairs


def first_outcome(
    calls: Sequence[ToolResult], verifying: frozenset[str], assessment: Assessment
) -> bool:
    """Whether the attempt what a turn was shown went to passed: a ``verifying`` tool's first
    call when the turn made one, else the turn's own outcome."""
    checks = [c for c in calls if c.tool_name in verifying]
    return checks[0].error is None if checks else assessment.outcome is EpisodeOutcome.SUCCESS


class SessionCases:
    """One agent's cases as its Claude Code sessions write, see and credit them."""

    def __init__(
        self,
        memory: Memory,
        settings: CaseSettings | HookCases | None = None,
        *,
        learn: bool = True,
        draw: random.Random | None = None,
        verifying: frozenset[str] = frozenset(),
    ) -> None:
        """``learn=False`` freezes the bank (nothing written, nothing credited), as a benchmark
        measuring held-out tasks needs; ``draw`` shows cases drawn at random instead of the
        most similar ones (the control of recall by similarity); a successful call of a
        ``verifying`` tool (its success is a check that passed, e.g. a test run) is a case
        even with no failure before it, and its first call decides the credit."""
        if settings is None:
            from graph.settings import CaseSettings

            settings = CaseSettings()
        self.bank = CaseBank(memory.cases, settings)
        self.episodes = memory.episodes
        self.turns = memory.turns
        self.learn = learn
        self.draw = draw
        self.verifying = verifying
        # The cases the last before_turn showed (what a benchmark's trace records).
        self.shown: list[Case] = []

    async def before_turn(self, session_id: str, user_input: str) -> str:
        """The worked examples for the turn's prompt ("" for none), marked for credit."""
        if self.draw is not None:
            recalled = await self.bank.random(None, self.bank.settings.per_prompt, self.draw)
        else:
            recalled = await self.bank.recall(user_input, None)
        settings = self.bank.settings
        text, ids = worked_examples(recalled.cases, settings.max_tokens, settings.field_chars)
        self.shown = [c for c in recalled.cases if c.id in ids]
        if self.learn:
            await self.bank.store.mark_shown(ids, session_id)
        return f"\n\n## Worked examples\n{text}" if text else ""

    async def after_turn(
        self, result: TurnResult, context: TurnContext, assessment: Assessment
    ) -> list[str]:
        """Credit the cases the turn was shown by its outcome; keep each verified fix (and each
        first-time pass of a verifying tool) as a case; return the ids of the cases written."""
        if not self.learn:
            return []
        calls = result.tool_results
        passed = first_outcome(calls, self.verifying, assessment)
        await self.bank.store.credit_session(context.session_id, helpful=passed)
        kept = verified(calls, self.verifying)
        if not kept:
            return []
        memory = await self.episodes.working_memory(context.session_id)
        goal = memory.current_task if memory is not None and memory.current_task else ""
        # Claude Code's Stop hook runs post_turn while the turn is still open: FROM it.
        turn = await self.turns.open_turn_of(context.session_id)
        written = []
        for failed, worked in kept:
            case_id = await self._write(
                goal, failed, worked, context.episode_id, turn.id if turn else None
            )
            if case_id is not None:
                written.append(case_id)
        return written

    async def _write(
        self,
        goal: str,
        failed: ToolResult | None,
        worked: ToolResult,
        episode_id: str | None,
        turn_id: str | None,
    ) -> str | None:
        tried = f"{failed.tool_name}: {arguments_text(failed)}" if failed is not None else ""
        did = f"{worked.tool_name}: {arguments_text(worked)}"
        return await self.bank.write(
            domain=SESSION_DOMAIN,
            source=CaseSource.SESSION,
            # What was asked and what the call was for; the calls alone when the goal is unknown.
            task=f"{goal}\n{intent(worked)}" if goal else tried or did,
            failed_attempt=tried,
            error=(failed.error or "") if failed is not None else "",
            worked=did,
            from_id=turn_id,
            episode_id=episode_id,
        )
