"""Decisions found in what was said and in commit messages, kept, and the old ones superseded.

:class:`DecisionKeeper` is called once per batch: the utterances one read of
a session's transcript kept (at ``Stop``, ``PreCompact``, ``SessionEnd``),
or the commits one read of the history found (``graph.intake.CommitEntry``). It finds the statements
(:func:`cognition.decisions.statements.statements`), leaves out repeats of
a decision already in force, keeps the rest with their provenance, and lets
each supersede the decisions in force on the same subject that it
post-dates (:mod:`cognition.decisions.supersede`); a decision older than
one in force on its subject (history read after the sessions that amended
it) is kept as superseded by it. By rules: no model is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from cognition.decisions.statements import (
    MAX_STATEMENT_CHARS,
    THRESHOLD,
    Statement,
    commit_rule,
    has_reason,
    reason_given,
    sentences,
    statements,
)
from cognition.decisions.subjects import subject_words
from cognition.decisions.supersede import is_repeat, same_subject
from cognition.sense.door import admit
from graph.intake import CommitEntry
from graph.store.team_decisions import NewDecision, StatedDecision, TeamDecisionStore

CANDIDATES = 10
"""Decisions in force looked at per new decision."""
RECENT_IN_SESSION = 3
"""A reason given after "why?" completes one of the session's latest this many decisions."""
CONTEXT_CHARS = 300
"""Of the prompt an answer replied to, what words may find the decision by."""


@dataclass(frozen=True)
class Said:
    """One utterance to read for decisions."""

    utterance_id: str
    speaker: str
    text: str
    time: str | None
    context: str | None = None
    """What the exchange was about: the person's prompt an answer replied to (words find the
    decision by it too)."""


class DecisionKeeper:
    """Finds, keeps and supersedes decisions in one project's memory."""

    def __init__(self, store: TeamDecisionStore) -> None:
        self.store = store

    async def from_session(self, session_id: str, said: Sequence[Said]) -> list[str]:
        """Keep the decisions stated in ``said`` (one session's); their ids. An answer to the
        person's "why?" that gives a reason and states no rule completes the session's latest
        decision without one (:meth:`_explained`)."""
        found: list[NewDecision] = []
        explained: list[str] = []
        for one in said:
            when = one.time or _now()
            if one.speaker == "assistant" and (reason := reason_given(one.text, one.context)):
                explained.extend(await self._explained(session_id, one, reason, when))
            for statement in statements(one.text):
                found.append(_said(statement, when, session_id, one))
        return explained + await self.keep(found)

    async def _explained(self, session_id: str, one: Said, reason: str, when: str) -> list[str]:
        """The session's latest decision in force that gives no reason, stated again with
        ``reason`` (said in ``one``), which supersedes it; the new id ([] when none lacks one)."""
        for decision in await self.store.of_session(session_id, limit=RECENT_IN_SESSION):
            if has_reason(decision.text):
                continue
            text = f"{decision.text} {reason}"[:MAX_STATEMENT_CHARS]
            statement = Statement(text, decision.subjects, decision.files, THRESHOLD)
            new = _said(statement, when, session_id, one)
            ids = await self.keep([new])
            for new_id in ids:
                await self.store.supersede(new_id, decision.id)
            return ids
        return []

    async def from_commits(self, commits: Sequence[CommitEntry]) -> list[str]:
        """Keep the decisions the messages of ``commits`` state (each through the door first:
        :func:`cognition.sense.door.admit`); their ids."""
        found: list[NewDecision] = []
        for entry in commits:
            commit = admit(entry).record
            message = f"{commit.subject}\n\n{commit.body}".strip()
            stated = statements(message)
            if not stated:
                # No sentence reads as a rule, but the commit sets a named value and says why.
                stated = [s for s in (commit_rule(message),) if s is not None]
            if not stated:
                continue
            # A commit that states a decision is that decision: its whole message, subject
            # line and body ("Never raise it past 500" is the rule, though it names nothing).
            text = " ".join(sentences(message))
            whole = Statement(
                text if len(text) <= MAX_STATEMENT_CHARS else " ".join(s.text for s in stated),
                tuple(dict.fromkeys(n for s in stated for n in s.subjects))[:12],
                tuple(dict.fromkeys((*(f for s in stated for f in s.files), *commit.files)))[:12],
                max(s.score for s in stated),
            )
            found.append(replace(_new(whole, commit.authored_at, "commit"), sha=commit.sha))
        return await self.keep(found)

    async def keep(self, found: Sequence[NewDecision]) -> list[str]:
        """Keep ``found`` (repeats of a decision in force left out), then supersede; the ids."""
        kept: list[tuple[NewDecision, list[StatedDecision]]] = []
        for decision in sorted(found, key=lambda d: _instant(d.valid_from)):
            in_force = await self.store.in_force_about(
                [decision.text, " ".join(decision.subjects), " ".join(decision.files)],
                limit=CANDIDATES,
            )
            seen = [d.text for d in in_force] + [d.text for d, _ in kept]
            if any(is_repeat(decision.text, text) for text in seen):
                continue
            kept.append((decision, in_force))
        ids = await self.store.record([d for d, _ in kept])
        for i, (decision, in_force) in enumerate(kept):
            await self._supersede(ids[i], decision, in_force)
            for j in range(i):  # the same batch: the index does not see them yet
                if _replaces(decision, kept[j][0]):
                    await self.store.supersede(ids[i], ids[j])
        return ids

    async def _supersede(
        self, new_id: str, decision: NewDecision, in_force: Sequence[StatedDecision]
    ) -> None:
        for old in in_force:
            if not _replaces(decision, old):
                continue
            if _instant(old.valid_from) <= _instant(decision.valid_from):
                await self.store.supersede(new_id, old.id)
            else:  # stated before the decision in force on its subject: history read late
                await self.store.supersede(old.id, new_id)


def _replaces(new: NewDecision, old: NewDecision | StatedDecision) -> bool:
    return same_subject((new.text, new.subjects, new.files), (old.text, old.subjects, old.files))


def _new(
    statement: Statement,
    when: str,
    source: str,
    *,
    session_id: str | None = None,
    speaker: str | None = None,
    utterance_id: str | None = None,
    context: str | None = None,
) -> NewDecision:
    words = subject_words([*statement.subjects, *statement.files])
    found_by = [statement.text, words, (context or "")[:CONTEXT_CHARS]]
    return NewDecision(
        text=statement.text,
        subjects=statement.subjects,
        files=statement.files,
        decision_text="\n".join(part for part in found_by if part),
        subject_text=words,
        valid_from=when,
        source=source,
        session_id=session_id,
        speaker=speaker,
        utterance_id=utterance_id,
    )


def _said(statement: Statement, when: str, session_id: str, one: Said) -> NewDecision:
    # A decision stated in a session: who said it, in which utterance, with its context.
    return _new(
        statement,
        when,
        "session",
        session_id=session_id,
        speaker=one.speaker,
        utterance_id=one.utterance_id,
        context=one.context,
    )


def _instant(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return datetime.now(UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _now() -> str:
    return datetime.now(UTC).isoformat()
