"""``nous goals``: the standing goals every decision sees; adding and completing them."""

from __future__ import annotations

import argparse
from typing import Any

from graph.models import Goal, utc_now
from graph.store.memory import Memory
from scheduler.cli.common import CommandError, common_options, show, table, with_memory

LIST_LIMIT = 100
PRIORITIES = ("low", "medium", "high", "critical")


def register(commands: Any) -> None:
    """Add ``nous goals [add TEXT [--priority P] | done ID]``."""
    common = common_options()
    parser = commands.add_parser(
        "goals",
        parents=[common],
        help="list goals; add one; mark one done",
        description="Without an action: every goal, open ones first.",
    )
    parser.set_defaults(handler=with_memory(_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    add = actions.add_parser("add", parents=[common], help="add a standing goal")
    add.add_argument("text")
    add.add_argument("--priority", choices=PRIORITIES, default="medium")
    add.set_defaults(handler=with_memory(_add))
    done = actions.add_parser("done", parents=[common], help="complete a goal (recall drops it)")
    done.add_argument("id")
    done.set_defaults(handler=with_memory(_done))


async def _list(args: argparse.Namespace, memory: Memory) -> int:
    rows = await memory.audit.goals(LIST_LIMIT)
    columns = ["id", "priority", "completed_at", "description"]
    return show(args, rows, table(rows, columns, empty="no goals"))


async def _add(args: argparse.Namespace, memory: Memory) -> int:
    text = args.text.strip()
    if not text:
        raise CommandError("goals add: the goal's text is empty", 2)
    goal = Goal(agent_id=memory.agent_id, description=text, priority=args.priority)
    await memory.admin.add_goal(goal)
    await memory.events.emit("goal_added", {"goal_id": goal.id, "description": text})
    return show(args, {"id": goal.id}, f"goal {goal.id} added ({args.priority}): {text}")


async def _done(args: argparse.Namespace, memory: Memory) -> int:
    row = await memory.admin.complete_goal(args.id, utc_now())
    if row is None:
        raise CommandError(f"no goal {args.id!r} for agent {memory.agent_id!r}")
    await memory.events.emit("goal_completed", {"goal_id": args.id})
    return show(args, row, f"goal {args.id} done: {row.description}")
