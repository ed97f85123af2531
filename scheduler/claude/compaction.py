"""``PreCompact``: before Claude Code compacts a session's context, Nous keeps what it holds.

The session's working memory (its task, frame and open threads), its open
decision and what its latest turn learned (the censors its failures filed) are
saved on the session's episode (``learn/save_compaction``). The answer is
plain text, which Claude Code hands to the compaction as instructions: it
says what Nous keeps and how to get it back (``recall``, ``why``), with the
kept text fenced as data (the task is the user's prompt, the lessons quote
tool errors).
"""

from __future__ import annotations

import asyncio

from cognition.chat.layer import CognitiveLayer
from cognition.text import fence, plain_text
from graph.store.turns import TurnStore, tool_results
from scheduler.claude.payload import NOTHING, HookAnswer

_LINE_CHARS = 500


async def keep_before_compaction(
    layer: CognitiveLayer, turns: TurnStore, session_id: str
) -> HookAnswer:
    """Save the session's state on its episode; the answer says what Nous keeps for the model."""
    episode = await layer.memory.episodes.open_episode(session_id)
    if episode is None:
        return NOTHING  # no prompt yet: nothing of this session to keep
    working, turn = await asyncio.gather(
        layer.memory.episodes.working_memory(session_id), turns.latest_turn_of(session_id)
    )
    # The decision is open while its turn is; a closed turn's is settled.
    decision_id = turn.decision_id if turn is not None and turn.status == "open" else None
    learned = [
        r.censor_trigger
        for r in (tool_results(turn) if turn is not None else [])
        if r.censor_trigger
    ]
    lessons = await layer.memory.episodes.save_compaction(
        episode.id, working, decision_id=decision_id, lessons=learned
    )
    if lessons is None:
        return NOTHING  # the episode ended meanwhile
    kept = ["Task: " + plain_text(working.current_task, _LINE_CHARS)] if working else []
    if working and working.current_frame:
        kept.append(f"Frame: {plain_text(working.current_frame, 100)}")
    kept += [
        f"Open thread: {plain_text(t, _LINE_CHARS)}"
        for t in (working.open_threads if working else [])
    ]
    kept += [f"Learned this turn: {plain_text(t, _LINE_CHARS)}" for t in learned]
    text = (
        f"Nous, this project's memory, kept this session's state in its episode {episode.id} "
        f"before the compaction: the working memory, {lessons} lesson(s) so far"
        + (f", and the open decision {decision_id}" if decision_id else "")
        + ". After the compaction, Nous's MCP tools bring it back: `recall` (what memory "
        "holds about a question or a file)"
        + (f" and `why` with {decision_id} (the open decision's story)" if decision_id else "")
        + ". Keep in the summary that this state is in Nous."
    )
    if kept:
        text += "\n" + fence("\n".join(kept), "what Nous kept from this session")
    return HookAnswer(context=text)
