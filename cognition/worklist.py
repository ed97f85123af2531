"""What one tick of the decision loop decides on: one group of observations per file.

The unprocessed observations, in seed 000's batches, become one group per
file (:func:`per_file`); the open WAIT and INVESTIGATE decisions become one
chain per file (:func:`chains`); a file's new group takes up its chain
(:class:`Work`). So a file has at most one open chain, also while a backlog
is caught up, and a decision considers only what changed since the file's
last decision. Changes that would run one command template are joined into
one piece of work once their burst settles (:func:`join_bursts`, see
:mod:`cognition.act.burst`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from cognition.act.burst import command_template
from cognition.act.templates import TemplateRegistry
from cognition.sense.queue import PRIORITY
from graph.models import Observation, OpenDecision, utc_now


@dataclass(frozen=True)
class Work:
    """One decision to make: its observations, and the file's open chain it takes up."""

    batch: list[Observation]
    chain: Sequence[OpenDecision] = ()


def per_file(batches: list[list[Observation]]) -> dict[str, list[Observation]]:
    """Seed 000's batches split so each decision is about one file, one group per file.

    The batcher also joins different files that changed together; but an
    action template acts on one path, the decision's primary, so a batch of
    several files would decide for one and mark the others processed with no
    decision of their own. A file whose changes fell into several batches
    (a backlog) is one group: two decisions on one file in one tick would
    open two chains. Observations without a path group by their type.
    """
    groups: dict[str, list[Observation]] = {}
    for batch in batches:
        for observation in batch:
            key = observation.path if observation.path is not None else f"\0{observation.type}"
            groups.setdefault(key, []).append(observation)
    return groups


def chains(open_decisions: Sequence[OpenDecision]) -> list[list[OpenDecision]]:
    """The open decisions grouped by file, oldest first in each: one chain per file.

    A decision about no file (a failure) is a chain of its own.
    """
    by_file: dict[str, list[OpenDecision]] = {}
    for open_ in open_decisions:
        path = open_.decision.path
        by_file.setdefault(path if path is not None else f"\0{open_.decision.id}", []).append(open_)
    return [sorted(chain, key=lambda o: o.decision.at) for chain in by_file.values()]


def most_urgent_first(batch: list[Observation]) -> list[Observation]:
    """``batch`` in the queue's priority order, the latest change first within a level."""
    # The queue's own priority order (seed 000); within a level the latest change comes
    # first, so the decision's primary (and its intent) is what the file is now.
    latest_first = sorted(batch, key=lambda o: o.at, reverse=True)
    return sorted(latest_first, key=lambda o: PRIORITY[o.urgency])


def urgency(batch: list[Observation]) -> tuple[int, datetime]:
    """The most urgent level in ``batch`` and its oldest time: the order groups are decided in."""
    return min((PRIORITY[o.urgency], o.at) for o in batch)


@dataclass(frozen=True)
class Bursts:
    """A tick's work with its bursts joined, and what is held back until it settles."""

    work: list[Work]
    """What runs no command template: decided as it is."""
    runs: dict[str, Work]
    """By command template: each settled burst, joined into one piece of work."""
    held: dict[str, list[Work]]
    """By template: work whose burst had a change less than ``settle_s`` ago."""


def join_bursts(
    work: list[Work],
    templates: TemplateRegistry,
    settle_s: float,
    *,
    now: datetime | None = None,
) -> Bursts:
    """``work`` with the changes that would run one command template joined into one item.

    A template's burst is held (left out, its observations stay unprocessed for
    a later tick) while its latest change is younger than ``settle_s``.
    """
    now = now if now is not None else utc_now()
    out: list[Work] = []
    groups: dict[str, list[Work]] = {}
    for item in work:
        name = None if item.chain else command_template(item.batch, templates)
        if name is None:
            out.append(item)
        else:
            groups.setdefault(name, []).append(item)
    held: dict[str, list[Work]] = {}
    runs: dict[str, Work] = {}
    window = timedelta(seconds=settle_s)
    for name, items in groups.items():
        if settle_s > 0 and now - max(o.at for i in items for o in i.batch) < window:
            held[name] = items
        else:
            runs[name] = joined(items)
    return Bursts(out, runs, held)


def joined(items: Sequence[Work]) -> Work:
    """One piece of work from several files' changes: the most urgent file's first."""
    if len(items) == 1:
        return items[0]
    ordered = sorted(items, key=lambda item: (urgency(item.batch), item.batch[0].path or ""))
    return Work([o for item in ordered for o in item.batch])
