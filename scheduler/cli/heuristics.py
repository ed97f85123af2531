"""``nous heuristics``: what self-improvement distilled, shown and retired.

Heuristics, crystallized by RSI, are read and retired on the ``Heuristic``
nodes directly; retiring one rewrites the strategies files under the watched
root's ``.nous/``.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from typing import Any

from graph.models import utc_now
from graph.settings import state_dir
from graph.store.memory import Memory
from graph.store.rows.audit import TrialListed
from rsi.strategies import StrategyBook
from scheduler.cli.common import CommandError, common_options, show, table, with_memory

LIST_LIMIT = 100


def register(commands: Any) -> None:
    """Add ``nous heuristics``."""
    common = common_options()
    parser = commands.add_parser(
        "heuristics",
        parents=[common],
        help="list heuristics; show one with its trajectories; retire one",
        description="Without an action: the heuristics, active ones first.",
    )
    parser.set_defaults(handler=with_memory(_list_heuristics))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show_p = actions.add_parser("show", parents=[common], help="one heuristic and its trajectories")
    show_p.add_argument("id")
    show_p.set_defaults(handler=with_memory(_show_heuristic))
    retire = actions.add_parser(
        "retire", parents=[common], help="prune a heuristic (kept in the graph, no longer used)"
    )
    retire.add_argument("id")
    retire.add_argument("--note", required=True, help="why it should no longer be used")
    retire.set_defaults(handler=with_memory(_retire))


async def _list_heuristics(args: argparse.Namespace, memory: Memory) -> int:
    rows = await memory.audit.heuristics(LIST_LIMIT)
    columns = ["id", "status", "domain", "usage_count", "trajectories", "content"]
    empty = "no heuristics (distilled from successful practice by self-improvement)"
    return show(args, rows, table(rows, columns, empty=empty))


async def _show_heuristic(args: argparse.Namespace, memory: Memory) -> int:
    row = await memory.audit.heuristic(args.id)
    if row is None:
        raise CommandError(f"no heuristic {args.id!r} for agent {memory.agent_id!r}")
    h, trajectories = row.heuristic, row.trajectories
    lines = [
        f"heuristic {h.id} ({h.status}, domain {h.domain}, used {h.usage_count} times)",
        f"  {h.content}",
    ]
    if h.prune_reason:
        lines.append(f"  pruned {h.pruned_at}: {h.prune_reason}")
    if h.trial_summary:
        lines.append(f"  trial: {h.trial_summary}")
    lines += ["", f"distilled from {len(trajectories)} trajectories:"]
    columns = ["id", "success", "partial_score", "tests_passed", "tests_total", "problem"]
    lines.append(table(trajectories, columns, empty="  (none recorded)"))
    trials = [_trial_row(t) for t in row.trials]
    lines += ["", f"tried in {len(trials)} paired trials (with / without it, same problems):"]
    columns = ["id", "verdict", "with", "without", "with_only", "without_only", "p_value"]
    lines.append(table(trials, columns, empty="  (not tried yet: a candidate is not carried)"))
    return show(args, row, "\n".join(lines))


def _trial_row(trial: TrialListed) -> dict[str, object]:
    """A trial as its table row: with and without as passed/problems."""
    n = len(trial.problems)
    return {
        **asdict(trial),
        "with": f"{sum(trial.with_passed)}/{n}",
        "without": f"{sum(trial.without_passed)}/{n}",
    }


async def _retire(args: argparse.Namespace, memory: Memory) -> int:
    if not args.note.strip():
        raise CommandError("--note: say why the heuristic is retired", 2)
    row = await memory.admin.retire_heuristic(args.id, args.note, utc_now())
    if row is None:
        raise CommandError(f"no heuristic {args.id!r} for agent {memory.agent_id!r}")
    await memory.events.emit("heuristic_retired", {"heuristic_id": args.id})
    # The strategies files follow the active set now, not at the daemon's next request.
    settings = args.settings
    root = settings.watch.root.expanduser().resolve()
    await StrategyBook(
        memory.heuristics, settings.rsi.max_strategy_tokens, state_dir(root)
    ).refresh()
    return show(args, row, f"heuristic {args.id} retired (pruned; kept in the graph)")
