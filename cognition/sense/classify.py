"""Sense: classify observations, tell noise apart, and group them (seed 000, 1.1 and 1.2).

The classifier sets an observation's urgency and category from fixed rules
and the path tables in :class:`~graph.settings.SenseSettings`; the batcher
groups observations that arrived together. The priority queue lives in
:mod:`cognition.sense.queue` and is re-exported here.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from cognition.sense.queue import PRIORITY, ObservationQueue, QueueFullError
from graph.models.observe import Category, Observation, ObservationType, Urgency
from graph.settings import SenseSettings

__all__ = [
    "PRIORITY",
    "ObservationBatcher",
    "ObservationClassifier",
    "ObservationQueue",
    "QueueFullError",
]

# Seed 000's urgency rules by type; they win over everything but file noise.
URGENCY_BY_TYPE: Mapping[ObservationType, Urgency] = MappingProxyType(
    {
        ObservationType.PROCESS_FAILED: Urgency.CRITICAL,
        ObservationType.TASK_FAILED: Urgency.CRITICAL,
        ObservationType.FILE_DELETED: Urgency.URGENT,
        ObservationType.PROCESS_COMPLETED: Urgency.ROUTINE,
        ObservationType.TASK_COMPLETED: Urgency.ROUTINE,
        ObservationType.TIME_ELAPSED: Urgency.LOW,
    }
)

# Seed 000 makes only these two intake folders urgent; "inbox/" is intake by
# category but not urgent.
URGENT_PATH_PATTERNS: tuple[str, ...] = ("_input/", "_intake/")

# Process and task observations are about the work, not a file, whatever path
# they carry, so their category comes from their type.
_CATEGORY_BY_TYPE: Mapping[ObservationType, Category] = MappingProxyType(
    {
        ObservationType.TASK_QUEUED: Category.TASK_LIFECYCLE,
        ObservationType.TASK_COMPLETED: Category.TASK_LIFECYCLE,
        ObservationType.TASK_FAILED: Category.TASK_LIFECYCLE,
        ObservationType.PROCESS_STARTED: Category.EXECUTION,
        ObservationType.PROCESS_COMPLETED: Category.EXECUTION,
        ObservationType.PROCESS_FAILED: Category.EXECUTION,
    }
)

_KNOWLEDGE_SUFFIXES: tuple[str, ...] = (".md", ".txt", ".yaml", ".yml")


class ObservationClassifier:
    """Sets urgency and category on observations by seed 000's rules.

    Urgency, first rule that applies:

    1. a file observation (created, modified, deleted, moved) whose path is
       noise: ``noise``;
    2. the type rules: process or task failed ``critical``, file deleted
       ``urgent``, process or task completed ``routine``, time elapsed ``low``;
    3. a path under ``_input/`` or ``_intake/`` (any case): ``urgent``;
    4. ``metadata["user_initiated"]`` truthy: ``urgent``;
    5. any other observation whose path is noise: ``noise``;
    6. otherwise ``routine``.

    Rule 1 deliberately departs from the seed, which applies the type rules
    first: there, deleting an editor swap file or a ``.lock`` is ``urgent``.
    Those come and go with every save, so here they are noise like their
    creation. Failures of processes and tasks stay critical whatever path
    they carry.

    Category: task observations are ``task_lifecycle`` and process
    observations ``execution``; any other observation without a path is
    ``system``. A path is lower-cased and tried against
    ``settings.category_patterns`` in the mapping's order; the first category
    with a pattern that matches wins (:func:`category_matches`: a substring of
    the path, or with ``*`` a glob on the file name, as in ``*.py``). Patterns are
    lower-cased too, so the seed's ``CLAUDE.md`` matches (in the seed, which
    lower-cases only the path, it never could). Matching is a plain
    substring, as in the seed: ``docs/`` also matches ``mydocs/a.md``, and
    ``.yaml`` matches anywhere in the path. Paths that match nothing are
    ``knowledge`` when they end in ``.md``, ``.txt``, ``.yaml`` or ``.yml``,
    else ``system``. The default table gives tests (``/tests/``, ``test_*.py``
    ...) the category ``test`` and source files (``*.py``, ``*.js`` ...)
    ``code``, and every ``.yaml``, ``.yml``, ``.json`` or ``.toml`` outside the
    folders above ``config``.

    Noise: a path one of ``settings.noise_patterns`` matches by
    :func:`noise_matches`: by file name or folder name, never a substring
    across the path (the seed's substring match made ``_intake/title~v2.md``
    noise). Case-sensitive. Only the path is looked at; for a move that is
    the destination.
    """

    def __init__(self, settings: SenseSettings) -> None:
        """Check and compile the pattern tables; raises ``ValueError`` on a bad one."""
        valid = {category.value for category in Category}
        compiled: list[tuple[Category, tuple[str, ...]]] = []
        for key, patterns in settings.category_patterns.items():
            if key not in valid:
                raise ValueError(
                    f"sense.category_patterns: {key!r} is not a category "
                    f"(expected one of {', '.join(sorted(valid))})"
                )
            lowered = tuple(pattern.lower() for pattern in patterns)
            if "" in lowered:
                # An empty pattern is a substring of every path.
                raise ValueError(f"sense.category_patterns.{key}: empty pattern matches every path")
            compiled.append((Category(key), lowered))
        self._category_patterns = tuple(compiled)

        for pattern in settings.noise_patterns:
            if not pattern.replace("*", ""):
                raise ValueError(
                    f"sense.noise_patterns: {pattern!r} is empty without '*' "
                    "and would make every path noise"
                )
        self._noise_patterns = tuple(settings.noise_patterns)

    def classify(self, observation: Observation) -> Observation:
        """Return a copy of ``observation`` with urgency and category set.

        The input is never changed; the copy is deep, so its metadata can be
        changed without touching the original.
        """
        return observation.model_copy(
            update={
                "urgency": self._urgency(observation),
                "category": self._category(observation),
            },
            deep=True,
        )

    def is_noise(self, observation: Observation) -> bool:
        """True when a noise pattern matches the observation's file name or a folder on its path."""
        path = observation.path
        if not path:
            return False
        return any(noise_matches(pattern, path) for pattern in self._noise_patterns)

    def _urgency(self, observation: Observation) -> Urgency:
        if observation.is_file_change and self.is_noise(observation):
            return Urgency.NOISE
        by_type = URGENCY_BY_TYPE.get(observation.type)
        if by_type is not None:
            return by_type
        if observation.path:
            lowered = observation.path.lower()
            if any(pattern in lowered for pattern in URGENT_PATH_PATTERNS):
                return Urgency.URGENT
        if observation.metadata.get("user_initiated"):
            return Urgency.URGENT
        if self.is_noise(observation):
            return Urgency.NOISE
        return Urgency.ROUTINE

    def _category(self, observation: Observation) -> Category:
        by_type = _CATEGORY_BY_TYPE.get(observation.type)
        if by_type is not None:
            return by_type
        if not observation.path:
            return Category.SYSTEM
        lowered = observation.path.lower()
        for category, patterns in self._category_patterns:
            if any(category_matches(pattern, lowered) for pattern in patterns):
                return category
        if lowered.endswith(_KNOWLEDGE_SUFFIXES):
            return Category.KNOWLEDGE
        return Category.SYSTEM


class ObservationBatcher:
    """Groups observations that belong together, by seed 000's rule.

    Observations are taken in time order (equal times keep their input
    order). Each one joins the current batch when the batch holds fewer than
    ``max_batch_size`` and, compared with the batch's *first* observation, it
    is at most ``time_window_s`` later, or about the same path, or of the same
    category; otherwise it starts a new batch. As in the seed, the category
    clause alone can grow a batch across any span of time, up to the size
    limit.
    """

    def __init__(self, time_window_s: float = 2.0, max_batch_size: int = 10) -> None:
        """Raises ``ValueError`` for a negative window or a size below one."""
        if time_window_s < 0:
            raise ValueError(f"time_window_s must not be negative, not {time_window_s}")
        if max_batch_size < 1:
            raise ValueError(f"max_batch_size must be at least 1, not {max_batch_size}")
        self.time_window_s = time_window_s
        self.max_batch_size = max_batch_size

    def batch(self, observations: Iterable[Observation]) -> list[list[Observation]]:
        """Split ``observations`` into batches; no observations give no batches."""
        ordered = sorted(observations, key=lambda observation: observation.at)
        batches: list[list[Observation]] = []
        current: list[Observation] = []
        for observation in ordered:
            if current and self._joins(current, observation):
                current.append(observation)
                continue
            if current:
                batches.append(current)
            current = [observation]
        if current:
            batches.append(current)
        return batches

    def _joins(self, current: list[Observation], observation: Observation) -> bool:
        if len(current) >= self.max_batch_size:
            return False
        first = current[0]
        within_window = (observation.at - first.at).total_seconds() <= self.time_window_s
        same_file = observation.path is not None and observation.path == first.path
        return within_window or same_file or observation.category == first.category


def category_matches(pattern: str, lowered: str) -> bool:
    """Whether a lower-cased category ``pattern`` matches the lower-cased relative path.

    With ``*``: a glob on the file name (``*.py`` is a suffix, ``test_*.py`` a
    name). Otherwise a substring of the path with a leading ``/``, as in the
    seed, so that ``/tests/`` names a folder at any depth, the top one too,
    and not ``contests/``.
    """
    if "*" in pattern:
        return fnmatch.fnmatchcase(lowered.rsplit("/", 1)[-1], pattern)
    return pattern in f"/{lowered}"


def noise_matches(pattern: str, path: str) -> bool:
    """Whether the noise ``pattern`` matches the relative ``path`` (case-sensitive).

    * ``name/`` (trailing slash): a folder on the path is ``name`` (a glob).
    * with ``*``, ``?`` or ``[``: the file name matches the glob (``*.pyc``);
      a pattern with a ``/`` inside is matched against the path's tail.
    * otherwise: the file name is the pattern or ends with it (``.DS_Store``,
      ``.swp``, ``~``, ``.lock``); with a ``/`` inside, the path ends with it.
    """
    parts = path.split("/")
    if pattern.endswith("/"):
        folder = pattern.rstrip("/")
        folders = parts[:-1]
        if "/" in folder:
            return f"/{'/'.join(folders)}/".find(f"/{folder}/") >= 0
        return any(fnmatch.fnmatchcase(part, folder) for part in folders)
    if any(c in pattern for c in "*?["):
        if "/" in pattern:
            return fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(path, f"*/{pattern}")
        return fnmatch.fnmatchcase(parts[-1], pattern)
    if "/" in pattern:
        return f"/{path}".endswith(f"/{pattern}")
    return parts[-1].endswith(pattern)
