"""``nous why DECISION_ID`` for a team's decision (issue 58): its chain of supersession.

A decision stated in a session or a commit (a ``Fact`` of kind
``decision``) is explained by where it was stated and by what replaced
what: each decision of the chain, newest first, with its source, when it
took effect and, for the old ones, when it stopped holding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from graph.store.team_decisions import StatedDecision


def chain_data(chain: Sequence[StatedDecision]) -> dict[str, Any]:
    """The chain as ``--json`` prints it."""
    return {"decisions": [asdict(d) for d in chain]}


def render_chain(chain: Sequence[StatedDecision], asked: str) -> str:
    """The chain as text: the current decision first, each one it superseded under it."""
    current = [d for d in chain if d.invalid_at is None]
    lines = [
        f"decision {asked}: a rule as stated, {len(chain)} in its chain"
        f" ({len(current)} in force, {len(chain) - len(current)} superseded)"
    ]
    for i, d in enumerate(chain):
        last = i == len(chain) - 1
        state = "in force" if d.invalid_at is None else f"superseded {d.invalid_at[:10]}"
        source = (
            f"commit {d.sha[:7]}" if d.source == "commit" and d.sha else (f"session {d.session_id}")
        )
        mark = " (asked)" if d.id == asked else ""
        lines.append(f"{'└─' if last else '├─'} {d.id}{mark}: {state}, since {d.valid_from[:10]}")
        lines.append(f"{'   ' if last else '│  '}   stated in {source} (scope {d.scope})")
        lines.append(f'{"   " if last else "│  "}   "{d.text}"')
        if d.subjects or d.files:
            about = ", ".join((*d.subjects, *d.files))
            lines.append(f"{'   ' if last else '│  '}   concerns {about}")
    return "\n".join(lines)
