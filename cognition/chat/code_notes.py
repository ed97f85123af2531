"""Code notes on the chat path (issue 25): kept from every tool result, recalled by name.

After a turn (:meth:`SessionNotes.after_turn`), each failed tool call's output
is read for what it says about the names its code called
(:func:`cognition.code_notes.observations`) and each verified call (a
passing check, or a later call that did what a failed one meant to do) for
the library calls that worked. Each becomes a ``CodeNote`` about that name,
``FROM`` the turn and ``IN_EPISODE`` the session's episode, kept at once:
a library's own error text is true whatever the attempt's outcome. A repeat
is counted on the note already kept; a verified pass whose code makes the
very call a failure note blamed retires that note. Before a turn
(:meth:`SessionNotes.before_turn`), the notes about the names the prompt
speaks of as code go into its context, fenced as data, within
``code_notes.max_tokens``; they are credited by the outcome of the first
attempt that saw them. :class:`cognition.chat.layer.CognitiveLayer` calls
both, one line each, guarded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from cognition.chat.cases import first_outcome, same_intent, verified
from cognition.chat.turns import ToolResult, TurnContext, TurnResult
from cognition.code_notes import (
    Observed,
    calls_in,
    observations,
    passed_calls,
    prompt_names,
    prose_names,
)
from cognition.monitor import Assessment
from cognition.text import clip, estimate_tokens, fence
from graph.models import CodeNote, NoteKind
from graph.store.memory import Memory

if TYPE_CHECKING:  # types only: a hook reads its settings without pydantic
    from graph.settings import CodeNoteSettings
    from graph.settings_lean import HookCodeNotes

NOTES_LABEL = "notes from your memory: what earlier runs showed about names this task uses"
NOTES_HEADING = "## Notes on the code this task names"
CONTRADICTED = "contradicted by a verified pass"
# Shown before an attempt: what a call returned, the library's own error (with the fix that
# followed it) and calls that worked. Never code that failed on its own: a small model copies
# the code it is shown, so a failed call in the prompt is repeated (Qwen2.5-Coder-1.5B on
# bench.lessons' held-out tasks with no worked case: 5 of 22 first attempts passed without
# memory, 1 of 22 with notes showing failed code). Failed asserts stay in the graph.
SHOWN_KINDS = frozenset({NoteKind.RETURNED, NoteKind.RAISED, NoteKind.WORKED})
# What a call returned is the most direct thing learned about it, then the library's own
# error, then a call that worked (a failed assert ranks between them, for audits only).
_KIND_ORDER = {
    NoteKind.RETURNED: 0,
    NoteKind.RAISED: 1,
    NoteKind.FAILED_ASSERT: 2,
    NoteKind.WORKED: 3,
}
_TASK_CHARS = 160
# At most this many notes written from one turn (a long turn's output says many things).
PER_TURN = 12


def _rank(note: CodeNote) -> tuple[int, int, int, float]:
    # Times seen first: a statement many runs made is the surest; of what calls returned, the
    # plainest call (`span('abc', 1, 2)` before one spelled with len() and arithmetic); credit,
    # which a true note shown to many attempts that failed anyway also collects, only then
    # (the pruner uses it).
    plain = len(note.call) if note.kind is NoteKind.RETURNED else 0
    return (-note.seen, plain, note.harmful - note.helpful, -note.at.timestamp())


def _varied(notes: Sequence[CodeNote]) -> list[CodeNote]:
    """One name's notes, the best of each kind first (returned, raised, failed assert, worked),
    then the second best of each, and so on: a rule the library stated is not crowded out by
    calls that worked, nor those by it."""
    place: dict[str, tuple[int, int]] = {}
    for kind in _KIND_ORDER:
        same = sorted((n for n in notes if n.kind is kind), key=_rank)
        place.update({n.id: (i, _KIND_ORDER[kind]) for i, n in enumerate(same)})
    return sorted(notes, key=lambda n: place[n.id])


def choose_notes(
    notes: Sequence[CodeNote], names: Sequence[str], per_prompt: int, per_name: int
) -> list[CodeNote]:
    """The notes to show (of :data:`SHOWN_KINDS`): the names in the order the prompt gives
    them, one note of each name per round (of a name, the best returned value, raised error and
    worked call, then the second best of each; the more often seen, the better credited, the
    newer first), at most ``per_name`` of a name, ``per_prompt`` in all; a statement already
    chosen under another name is not repeated."""
    place = {name: i for i, name in enumerate(names)}
    groups: dict[str, list[CodeNote]] = {}
    for note in notes:
        if note.kind in SHOWN_KINDS:
            groups.setdefault(note.name, []).append(note)
    unnamed = len(place)
    order = sorted(
        groups,
        key=lambda n: min(place.get(n, unnamed), place.get(groups[n][0].qualified, unnamed)),
    )
    ranked = {name: _varied(groups[name])[:per_name] for name in order}
    chosen: list[CodeNote] = []
    said: set[tuple[NoteKind, str]] = set()
    for round_ in range(per_name):
        for name in order:
            if round_ >= len(ranked[name]) or len(chosen) >= per_prompt:
                continue
            note = ranked[name][round_]
            # An error several names share is said once, under the first.
            if (note.kind, note.text) not in said or note.kind is NoteKind.WORKED:
                chosen.append(note)
                said.add((note.kind, note.text))
    return chosen


def note_line(note: CodeNote, chars: int) -> str:
    """One note as a line: the call, what the run said of it, the task it was for. A raised
    error is said of the name, not the call that failed (the fix it carries is the code)."""
    call = f"`{clip(note.call, chars)}`" if note.call else "a call"
    text = clip(note.text, chars)
    if note.kind is NoteKind.RETURNED:  # a fact that reads on its own: no task, no count
        return f"- {call} returned {text}"
    if note.kind is NoteKind.RAISED:
        call = f"`{note.qualified}`"
    said = {
        NoteKind.RAISED: f"raised {text}",
        NoteKind.FAILED_ASSERT: f"failed the test: {text}",
        NoteKind.WORKED: f"worked: {text}",
    }[note.kind]
    task = f" (task: {clip(' '.join(note.task.split()), _TASK_CHARS)})" if note.task else ""
    seen = f" [seen {note.seen} times]" if note.seen > 1 else ""
    return f"- {call} {said}{task if note.kind is not NoteKind.RAISED else ''}{seen}"


def render_notes(notes: Sequence[CodeNote], max_tokens: int, chars: int) -> tuple[str, list[str]]:
    """The notes under their names, fenced as data, as many as fit ``max_tokens``; and the ids
    of those shown (only a note shown is credited). ``("", [])`` for none."""
    by_name: dict[str, list[str]] = {}
    ids: list[str] = []
    for note in notes:
        lines = by_name.setdefault(f"`{note.qualified}`:", [])
        lines.append(note_line(note, chars))
        text = "\n".join(f"{head}\n" + "\n".join(body) for head, body in by_name.items() if body)
        if estimate_tokens(text) > max_tokens:
            lines.pop()
            break
        ids.append(note.id)
    if not ids:
        return "", []
    body = "\n".join(f"{head}\n" + "\n".join(lines) for head, lines in by_name.items() if lines)
    return fence(body, NOTES_LABEL), ids


def call_code(call: ToolResult) -> str:
    """The code a tool call ran or wrote (its ``code``, ``content``, ``new_string`` or shell
    ``command``), "" when it has none."""
    for key in ("code", "content", "new_string", "command"):
        value = call.arguments.get(key)
        if isinstance(value, str):
            return value
    return ""


def failure_notes(error: str, code: str, fixed: str | None) -> list[Observed]:
    """What a failed run's ``error`` says about the names ``code`` called, ``fixed`` the code
    that later did its job (None when nothing did): what each direct call returned first; a
    library's error, with the line of the fix that then worked; a failed assert only against
    the names the evidence implicates (:func:`cognition.call_facts.implicated`), and not
    against a name a returned value already speaks for."""
    # Loaded here: a turn's end reads tool output; a prompt's hook only recalls notes.
    from cognition.call_facts import fix_line, implicated, returned_facts

    facts = returned_facts(code, error, passed=False)
    stated = {f.name for f in facts}
    blamed = implicated(code, fixed) or set()
    notes = list(facts)
    for observed in observations(error, code):
        if observed.kind is NoteKind.FAILED_ASSERT and (
            observed.name in stated or observed.name not in blamed
        ):
            continue
        if observed.kind is NoteKind.RAISED and fixed is not None:
            line = fix_line(observed.name, observed.text, code, fixed)
            if line:
                observed = replace(observed, text=f"{observed.text} (then `{line}` worked)")
        notes.append(observed)
    return notes


def read_turn(calls: Sequence[ToolResult], worked: set[int]) -> list[Observed]:
    """What a turn's tool results say about the names their code called, in order: each failed
    call's :func:`failure_notes` (its fix: the first later call in ``worked``, by ``id``, of the
    same intent); for each call in ``worked``, what its direct calls returned and the library
    calls that worked."""
    from cognition.call_facts import returned_facts

    said: list[Observed] = []
    for i, call in enumerate(calls):
        code = call_code(call)
        if call.error:
            fix = next(
                (c for c in calls[i + 1 :] if id(c) in worked and same_intent(call, c)), None
            )
            said.extend(failure_notes(call.error, code, call_code(fix) if fix else None))
        elif id(call) in worked:
            said.extend(returned_facts(code, call.result or "", passed=True))
            said.extend(passed_calls(code, call.result or ""))
    return said


class SessionNotes:
    """One agent's code notes as its chat sessions write, see and credit them."""

    def __init__(
        self,
        memory: Memory,
        settings: CodeNoteSettings | HookCodeNotes | None = None,
        *,
        learn: bool = True,
        draw: random.Random | None = None,
        verifying: frozenset[str] = frozenset(),
    ) -> None:
        """``learn=False`` freezes the notes (nothing written, nothing credited); ``draw`` shows
        notes drawn at random (the control of recall by name); a successful call of a
        ``verifying`` tool is a verified pass, and its first call decides the credit."""
        self.store = memory.code_notes
        self.episodes = memory.episodes
        self.turns = memory.turns
        if settings is None:
            from graph.settings import CodeNoteSettings

            settings = CodeNoteSettings()
        self.settings = settings
        self.learn = learn
        self.draw = draw
        self.verifying = verifying
        # The notes the last before_turn showed (what a benchmark's trace records).
        self.shown: list[CodeNote] = []

    async def before_turn(self, session_id: str, user_input: str) -> str:
        """The notes about the names the prompt speaks of as code, else about its plain words
        ("" for none), marked for credit."""
        s = self.settings
        if not s.enabled or s.per_prompt == 0:
            return ""
        if self.draw is not None:
            pool = [n for n in await self.store.active(s.max_notes) if n.kind in SHOWN_KINDS]
            chosen = self.draw.sample(pool, min(s.per_prompt, len(pool)))
        else:
            names = prompt_names(user_input)
            held = await self.store.about(names)
            if not held:  # no name of code the prompt gives has a note: try its plain words
                names = prose_names(user_input)
                held = await self.store.about(names)
            chosen = choose_notes(held, names, s.per_prompt, s.per_name)
        text, ids = render_notes(chosen, s.max_tokens, s.field_chars)
        self.shown = [n for n in chosen if n.id in ids]
        if self.learn:
            await self.store.mark_shown(ids, session_id)
        return f"\n\n{NOTES_HEADING}\n{text}" if text else ""

    async def after_turn(
        self, result: TurnResult, context: TurnContext, assessment: Assessment
    ) -> list[str]:
        """Credit the notes the turn was shown; keep what each tool result said about the names
        its code called; retire notes a verified pass contradicts. Returns the ids kept."""
        if not self.learn or not self.settings.enabled:
            return []
        calls = result.tool_results
        passed = first_outcome(calls, self.verifying, assessment)
        await self.store.credit_session(context.session_id, helpful=passed)
        worked = {id(call) for _, call in verified(calls, self.verifying)}
        said = read_turn(calls, worked)
        passing = [call_code(call) for call in calls if not call.error and id(call) in worked]
        kept = await self._keep(said[:PER_TURN], context)
        for code in passing:  # after the writes: this turn's own failure notes count too
            await self._contradicted(code)
        return kept

    async def _keep(self, said: Sequence[Observed], context: TurnContext) -> list[str]:
        """Write each observation as a note (a repeat counted on the one kept); their ids."""
        if not said:
            return []
        memory = await self.episodes.working_memory(context.session_id)
        task = memory.current_task if memory is not None and memory.current_task else ""
        turn = await self.turns.open_turn_of(context.session_id)
        kept = []
        for observed in said:
            note = CodeNote(
                agent_id=self.store.agent_id,
                name=observed.name,
                qualified=observed.qualified,
                kind=observed.kind,
                call=observed.call,
                text=observed.text,
                task=clip(task, self.settings.field_chars),
                key=observed.key,
            )
            kept.append(
                await self.store.repeat(note)
                or await self.store.record(
                    note, turn_id=turn.id if turn else None, episode_id=context.episode_id
                )
            )
        return kept

    async def _contradicted(self, code: str) -> list[str]:
        """Retire the failed-assert notes whose very call this passing ``code`` makes (a
        library's raised error stays: the call it names may have needed something before it,
        as a call that must come first)."""
        passed = passed_calls(code, "")
        if not passed:
            return []
        lines = set(calls_in(code))
        held = await self.store.about([o.name for o in passed])
        wrong = [
            (n.id, CONTRADICTED)
            for n in held
            if n.kind is NoteKind.FAILED_ASSERT and n.call and "".join(n.call.split()) in lines
        ]
        return await self.store.retire(wrong)
