"""``nous censors``: what the agent will not do again, and lifting a censor."""

from __future__ import annotations

import argparse
from typing import Any

from graph.models import utc_now
from graph.store.memory import Memory
from scheduler.cli.common import CommandError, common_options, show, table, with_memory

LIST_LIMIT = 100


def register(commands: Any) -> None:
    """Add ``nous censors [lift ID --note TEXT]``."""
    common = common_options()
    parser = commands.add_parser(
        "censors",
        parents=[common],
        help="list censors; lift one",
        description="Without an action: every censor, active ones first (block before warn).",
    )
    parser.set_defaults(handler=with_memory(_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    lift = actions.add_parser(
        "lift", parents=[common], help="stop a censor from blocking (it stays in the graph)"
    )
    lift.add_argument("id")
    lift.add_argument("--note", required=True, help="why it may be done again")
    lift.set_defaults(handler=with_memory(_lift))


async def _list(args: argparse.Namespace, memory: Memory) -> int:
    rows = await memory.audit.censors(LIST_LIMIT)
    columns = ["id", "status", "severity", "fire_count", "trigger_pattern", "reason"]
    return show(args, rows, table(rows, columns, empty="no censors"))


async def _lift(args: argparse.Namespace, memory: Memory) -> int:
    if not args.note.strip():
        raise CommandError("--note: say why the censor may be lifted", 2)
    row = await memory.admin.lift_censor(args.id, args.note, utc_now())
    if row is None:
        raise CommandError(f"no censor {args.id!r} for agent {memory.agent_id!r}")
    await memory.events.emit("censor_lifted", {"censor_id": args.id, "note": args.note})
    return show(args, row, f"censor {args.id} lifted: {row.trigger_pattern} no longer blocks")
