"""A learning run kept in a folder, so a run longer than one sitting goes on where it stopped.

With the model as the reasoner, one observation costs both runs about three
minutes on two CPU cores, and the targets are read over 100 of them. With
``--state DIR`` the run lives in ``DIR``:

- ``DIR/run.json``: what the run is (observations, seed, block, endpoint, the
  baseline's window), Nous's agent id, the commit of each sitting, and both
  runs' tallies so far (``null`` where the baseline did not run), rewritten
  (whole, then renamed) after each run's decision;
- ``DIR/replies.jsonl``: with the model, every reply it gave Nous's run
  (:mod:`bench.learning_replies`);
- ``DIR/nous`` and ``DIR/base``: the two watched roots.

Nous's memory stays in Neo4j under its agent id between sittings, as a
daemon's does across a restart; a Neo4j that does not hold it (another
machine) gets it rebuilt from the replies (:mod:`bench.learning_rebuild`), so
``run.json`` and ``replies.jsonl`` are all a run needs to go on elsewhere. The
baseline's agents are forgotten after each observation as always. Creating
``DIR/stop`` ends the sitting after the current observation; the same command
started again goes on from there.
Started with another ``--observations``, ``--baseline-over`` or ``--block``,
it goes on as that run when what was decided fits it (a seeded stream of N
observations is the first N of any longer one). A
sitting stopped in the middle of an observation (Ctrl-C) keeps what was
decided before it: Nous may then see that observation's file a second time.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.learning_runner import Tally

if TYPE_CHECKING:
    from bench.learning import Arms

STATE_FILE = "run.json"
# What may change between sittings of one run, while what was decided fits (_fits).
RESIZABLE = ("observations", "baseline_over", "block")
STOP_FILE = "stop"


class StateError(ValueError):
    """A ``--state`` folder that holds something other than this run."""


@dataclass
class Kept:
    """A run's identity in its folder: the parameters, Nous's agent, each sitting's commit."""

    params: dict[str, Any]
    agent: str
    commits: list[str] = field(default_factory=list)


def commit() -> str:
    """The checked-out commit this sitting runs (``unknown`` outside a git work tree)."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except OSError:
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


def load(folder: Path, params: dict[str, Any], agent: str, arms: Arms) -> Kept:
    """The run kept in ``folder`` (its tallies into ``arms``), or a new one for ``agent``.

    Raises :class:`StateError` naming the file and key when ``folder`` holds a run
    with other parameters: its tallies would not be the same run's. The stream's
    length, the baseline's window and the block may change between sittings
    (:data:`RESIZABLE`) while what was decided fits them (:func:`_fits`): a
    seeded stream of N observations is the first N of any longer one.
    """
    path = folder / STATE_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        return Kept(params=dict(params), agent=agent)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        kept = Kept(params=data["params"], agent=data["agent"], commits=list(data["commits"]))
        for key, wanted in params.items():
            if key not in RESIZABLE and kept.params.get(key) != wanted:
                raise StateError(
                    f"{path}: params.{key} is {kept.params.get(key)!r}, this run's is "
                    f"{wanted!r}; use another --state folder"
                )
        arms.nous = [Tally(**t) for t in data["nous"]]
        arms.base = [Tally(**t) if t is not None else None for t in data["base"]]
        arms.nous_s, arms.base_s = float(data["nous_s"]), float(data["base_s"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise StateError(f"{path}: not a learning run's state ({exc!r})") from exc
    _fits(path, arms, int(params.get("observations", len(arms.nous))))
    kept.params.update({key: params[key] for key in RESIZABLE if key in params})
    return kept


def _fits(path: Path, arms: Arms, count: int) -> None:
    """Raise :class:`StateError` unless what ``arms`` decided fits ``count`` observations
    with the baseline from ``arms.base_from``: none beyond the stream, and the baseline
    decided exactly the observations of its window."""
    if len(arms.nous) > count:
        raise StateError(
            f"{path}: {len(arms.nous)} observations decided, more than --observations {count}"
        )
    for index, tally in enumerate(arms.base):
        if (tally is None) != (index < arms.base_from):
            done = "did not decide" if tally is None else "decided"
            raise StateError(
                f"{path}: the baseline {done} observation {index + 1}, which this "
                f"--observations and --baseline-over put {'in' if tally is None else 'before'} "
                "its window; use another --state folder"
            )


def save(folder: Path, kept: Kept, arms: Arms) -> None:
    """Write the run's state: to a new file first, then renamed over the old one."""
    data = {
        "params": kept.params,
        "agent": kept.agent,
        "commits": kept.commits,
        "nous": [asdict(t) for t in arms.nous],
        "base": [asdict(t) if t is not None else None for t in arms.base],
        "nous_s": arms.nous_s,
        "base_s": arms.base_s,
    }
    fresh = folder / (STATE_FILE + ".new")
    fresh.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(fresh, folder / STATE_FILE)


def stop_asked(folder: Path) -> bool:
    """Whether ``DIR/stop`` exists; it is removed, so the next sitting runs."""
    stop = folder / STOP_FILE
    if not stop.exists():
        return False
    stop.unlink(missing_ok=True)
    return True
