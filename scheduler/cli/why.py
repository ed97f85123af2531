"""``nous why DECISION_ID|PATH``: the whole story of one decision, as a tree.

A team's decision (stated in a session or a commit) is told by its chain of
supersession instead (:mod:`scheduler.cli.why_chain`).

What it considered, the frame it was made in, what recall showed it, the
five steps (reasoner, confidence delta, reasoning), the template and its
prompt, every execution and retry with its failure type, the outcome, the
lessons and censors it taught, the censor that stopped it, the escalations
it raised and the heuristics it applied. For a path, its latest decision:
the path may be relative to the current folder (the way a shell completes
it) or to the watched root. The tree itself is drawn by :mod:`scheduler.story`.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import Any

from graph.store.memory import Memory
from graph.store.turns import tool_results
from graph.watch.project import project_of
from scheduler.cli.common import CommandError, common_options, show, with_memory
from scheduler.cli.why_chain import chain_data, render_chain
from scheduler.story import path_candidates, render


def register(commands: Any) -> None:
    """Add ``nous why``."""
    parser = commands.add_parser(
        "why",
        parents=[common_options(root=True)],
        help="the whole story of a decision (by id, or the latest about a path)",
        description="Everything that explains one decision, as a tree. TARGET is a decision id "
        "or a path (its latest decision), relative to the current folder or to the watched root.",
    )
    parser.add_argument("target", metavar="DECISION_ID|PATH")
    parser.set_defaults(handler=with_memory(_why))


async def _why(args: argparse.Namespace, memory: Memory) -> int:
    root = args.settings.watch.root.expanduser().resolve()  # --root, when given
    stated = memory.team_decisions(project_of(root, args.settings.project))
    chain = await stated.chain(args.target)
    if chain:  # a team's decision, stated in a session or a commit (issue 58)
        return show(args, chain_data(chain), render_chain(chain, args.target))
    tried = path_candidates(args.target, root, Path.cwd())
    found = await memory.audit.decision_story(args.target, tried)
    if found is None:
        where = f" (tried {', '.join(tried)} under {root})" if tried else f" inside {root}"
        if not tried:
            where += " (the path lies outside the watched root)"
        raise CommandError(
            f"no decision {args.target!r} and no decision about a path {args.target!r}"
            f"{where} for agent {memory.agent_id!r}"
        )
    # The Claude Code turns the decision was opened for (nous init claude).
    turns = await memory.turns.turns_for_decision(found.decision.id)
    shown = [
        {
            **turn.model_dump(exclude={"tool_results", "tool_failed"}),
            "tool_results": [asdict(r) for r in tool_results(turn)],
        }
        for turn in turns
    ]
    data = {**asdict(found), "decision": found.decision.model_dump(), "turns": shown}
    return show(args, data, render(found, turns))
