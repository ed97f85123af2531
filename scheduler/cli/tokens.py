"""``nous tokens``: the team server's bearer tokens, one a person, each mapped to an agent.

``create NAME --agent-id ID`` prints the token once (only its hash is kept);
``list`` shows every token of every agent, never a token or its hash;
``revoke NAME-or-ID`` stops it at the server's next request.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from typing import Any

from graph.models import new_id, utc_now
from graph.store.memory import Memory
from graph.store.tokens import ApiToken
from scheduler.claude.tokens import check_name, new_token, token_hash
from scheduler.cli.common import EXIT_USAGE, CommandError, common_options, show, table, with_memory

LIST_LIMIT = 1000


def register(commands: Any) -> None:
    """Add ``nous tokens [create NAME --agent-id ID | list | revoke NAME-or-ID]``."""
    common = common_options()
    parser = commands.add_parser(
        "tokens",
        parents=[common],
        help="the team server's bearer tokens (nous mcp --http): create, list, revoke",
        description="Without an action: every token (list). Each token reads and writes the"
        " memory of one agent, the one given at creation with --agent-id.",
    )
    parser.set_defaults(handler=with_memory(_list))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    create = actions.add_parser(
        "create",
        parents=[common],
        help="make a token for a person (printed once); --agent-id is required",
    )
    create.add_argument("name", help="whose token: a person's handle, e.g. alice")
    create.set_defaults(handler=with_memory(_create))
    listing = actions.add_parser("list", parents=[common], help="every token, live ones first")
    listing.set_defaults(handler=with_memory(_list))
    revoke = actions.add_parser("revoke", parents=[common], help="revoke a token by name or id")
    revoke.add_argument("ref", metavar="NAME-or-ID")
    revoke.set_defaults(handler=with_memory(_revoke))


async def _create(args: argparse.Namespace, memory: Memory) -> int:
    if not args.agent_id:
        raise CommandError(
            "tokens create: --agent-id is required: the agent whose memory the token reads and"
            " writes",
            EXIT_USAGE,
        )
    problem = check_name(args.name)
    if problem is not None:
        raise CommandError(f"tokens create: {problem}", EXIT_USAGE)
    token = new_token()
    made = await memory.tokens.create(
        new_id(), args.name, memory.agent_id, token_hash(token), utc_now()
    )
    if made is None:
        raise CommandError(
            f"tokens create: a live token is already named {args.name!r}; revoke it first"
            " (`nous tokens revoke NAME`) or choose another name",
            EXIT_USAGE,
        )
    data = {**asdict(made), "token": token}
    text = (
        f"token {made.id} for {made.name} (agent {made.agent_id}):\n{token}\n"
        "Shown this once: only its hash is kept. Give it to the person; their client sends"
        " it as 'Authorization: Bearer <token>'."
    )
    return show(args, data, text)


async def _list(args: argparse.Namespace, memory: Memory) -> int:
    tokens = await memory.tokens.all(LIST_LIMIT)
    rows = [_row(t) for t in tokens]
    columns = ["name", "agent_id", "id", "at", "revoked_at"]
    return show(args, rows, table(rows, columns, empty="no tokens", wrap=True))


async def _revoke(args: argparse.Namespace, memory: Memory) -> int:
    revoked = await memory.tokens.revoke(args.ref, utc_now())
    if not revoked:
        raise CommandError(f"tokens revoke: no live token named {args.ref!r} or with that id")
    names = ", ".join(f"{t.name} ({t.id}, agent {t.agent_id})" for t in revoked)
    return show(args, [_row(t) for t in revoked], f"revoked: {names}")


def _row(token: ApiToken) -> dict[str, Any]:
    return asdict(token)
