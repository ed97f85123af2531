"""``nous escalations``: what waits for a person, and closing it (resolve, dismiss, retry)."""

from __future__ import annotations

import argparse
from typing import Any

from graph.models import utc_now
from graph.store.memory import Memory
from scheduler.cli.common import (
    CommandError,
    common_options,
    show,
    table,
    with_memory,
)

LIST_LIMIT = 50


def register(commands: Any) -> None:
    """Add ``nous escalations [show|resolve|dismiss]``."""
    common = common_options()
    parser = commands.add_parser(
        "escalations",
        parents=[common],
        help="list open escalations; show, resolve or dismiss one",
        description="Without an action: the open escalations, newest first.",
    )
    parser.set_defaults(handler=with_memory(_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show_p = actions.add_parser("show", parents=[common], help="one escalation in full")
    show_p.add_argument("id")
    show_p.set_defaults(handler=with_memory(_show))
    resolve = actions.add_parser(
        "resolve", parents=[common], help="mark it resolved, with a note (and --retry)"
    )
    resolve.add_argument("id")
    resolve.add_argument("--note", required=True, help="what was done about it")
    resolve.add_argument(
        "--retry", action="store_true", help="hand the decision's observations back to the loop"
    )
    resolve.set_defaults(handler=with_memory(_resolve), status="resolved")
    dismiss = actions.add_parser("dismiss", parents=[common], help="dismiss it, with a note")
    dismiss.add_argument("id")
    dismiss.add_argument("--note", required=True, help="why it needs nothing")
    dismiss.set_defaults(handler=with_memory(_resolve), status="dismissed", retry=False)


async def _list(args: argparse.Namespace, memory: Memory) -> int:
    rows = await memory.audit.open_escalations(LIST_LIMIT)
    text = table(
        rows,
        ["id", "at", "priority", "path", "reason"],
        empty="no open escalations",
    )
    return show(args, rows, text)


async def _show(args: argparse.Namespace, memory: Memory) -> int:
    row = await memory.audit.escalation(args.id)
    if row is None:
        raise CommandError(f"no escalation {args.id!r} for agent {memory.agent_id!r}")
    e = row.escalation
    lines = [
        f"escalation {e.id} ({e.status}, {e.priority} priority)",
        f"  at        {e.at}",
        f"  decision  {row.decision_id} ({row.decision_type}, confidence {row.confidence})",
        f"  path      {row.path or '-'}",
        f"  template  {row.template or '-'}",
        f"  reason    {e.reason}",
    ]
    if e.note:
        lines.append(f"  note      {e.note} ({e.resolved_at})")
    lines += ["", str(e.message or "").rstrip(), ""]
    if e.status == "open":
        lines.append(
            f"close it: nous escalations resolve {e.id} --note TEXT [--retry]"
            f" | nous escalations dismiss {e.id} --note TEXT"
        )
    return show(args, row, "\n".join(lines))


async def _resolve(args: argparse.Namespace, memory: Memory) -> int:
    if not args.note.strip():
        raise CommandError("--note: say what was done (it is kept with the escalation)", 2)
    row = await memory.admin.close_escalation(
        args.id, args.status, args.note, utc_now(), retry=bool(args.retry)
    )
    if row is None:
        raise CommandError(f"no escalation {args.id!r} for agent {memory.agent_id!r}")
    event = f"escalation_{args.status}"
    data = {"escalation_id": args.id, "decision_id": row.decision_id, "note": args.note}
    await memory.events.emit(event, data)
    if args.retry:
        await memory.events.emit("decision_retry_requested", data)
    text = f"escalation {args.id} {args.status}"
    if args.retry:
        text += (
            f"; decision {row.decision_id} will be decided again"
            f" ({row.reopened} observations handed back)"
        )
    return show(args, row, text)
