"""When an action template applies: its trigger, its declarative conditions, and path globs.

Nothing here is evaluated as code. A trigger names an observation category,
observation types, path globs and content substrings; conditions are a fixed
set of named checks (:class:`Conditions`). What is known of the file comes
from the caller as :class:`FileFacts`, so matching does no I/O.

Globs are matched against the whole path relative to the watched root, one
``/``-separated segment at a time: ``*``, ``?`` and ``[...]`` stay within a
segment (as :func:`fnmatch.fnmatchcase`, case-sensitive, and ``*`` also
matches names that start with a dot); ``**`` as a whole segment matches zero
or more segments, except at the end of a pattern, where it matches one or
more (``inbox/**`` is everything inside ``inbox``, not ``inbox`` itself).
"""

from __future__ import annotations

import fnmatch
import functools
import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, field_validator

from graph.models.observe import Category, Observation, ObservationType

_STRICT = ConfigDict(extra="forbid", frozen=True)

# One compiled segment, or None for "**".
_Segment = re.Pattern[str] | None


@dataclass(frozen=True, slots=True)
class FileFacts:
    """What the caller knows of the observed file; ``None`` means unknown (or no file)."""

    size: int | None
    content_head: str | None
    error_count: int = 0
    """How many times acting on this has already failed (for ``max_error_count``)."""


@functools.lru_cache(maxsize=1024)
def compile_glob(pattern: str) -> tuple[_Segment, ...]:
    """Compile ``pattern`` into one matcher per segment; ValueError says what is wrong."""
    if not pattern:
        raise ValueError("an empty glob matches nothing")
    if pattern.startswith("/"):
        raise ValueError(f"glob {pattern!r} is absolute; globs are relative to the watched root")
    if "\\" in pattern:
        raise ValueError(f"glob {pattern!r} contains a backslash; separate segments with '/'")
    segments: list[_Segment] = []
    for part in pattern.split("/"):
        if part in {"", ".", ".."}:
            raise ValueError(
                f"glob {pattern!r} has an empty, '.' or '..' segment"
                " (use 'folder/**' for everything inside a folder)"
            )
        if part == "**":
            if not segments or segments[-1] is not None:  # "**/**" is one "**"
                segments.append(None)
            continue
        if "**" in part:
            raise ValueError(f"glob {pattern!r}: '**' must be a whole segment, as in 'a/**/b'")
        if _unbalanced_brackets(part):
            raise ValueError(f"glob {pattern!r}: '[' without a closing ']'")
        try:
            segments.append(re.compile(fnmatch.translate(part)))
        except re.error as exc:
            raise ValueError(f"glob {pattern!r}: {exc}") from None
    return tuple(segments)


def glob_match(pattern: str, path: str) -> bool:
    """True if the relative ``path`` matches ``pattern`` (see the module docstring)."""
    segments = compile_glob(pattern)
    parts = tuple(p for p in path.split("/") if p not in {"", "."})
    last = len(segments) - 1

    @functools.cache
    def match(i: int, j: int) -> bool:
        # Memoised on (segment, part) so that several "**" stay polynomial.
        if i == len(segments):
            return j == len(parts)
        segment = segments[i]
        if segment is None:
            first = j + 1 if i == last else j
            return any(match(i + 1, k) for k in range(first, len(parts) + 1))
        return j < len(parts) and segment.match(parts[j]) is not None and match(i + 1, j + 1)

    return match(0, 0)


def literal_length(pattern: str) -> int:
    """How many characters of ``pattern`` are not wildcards: longer means more specific."""
    return sum(1 for ch in pattern if ch not in "*?[]")


def _unbalanced_brackets(part: str) -> bool:
    opened = part.find("[")
    return opened != -1 and part.find("]", opened + 2) == -1


def _non_empty(values: list[str], what: str) -> list[str]:
    # An empty substring or suffix would match everything, which is never meant.
    if any(not v for v in values):
        raise ValueError(f"{what} must not contain an empty string")
    return values


class Trigger(BaseModel):
    """Which observations a template answers; every field given must match."""

    model_config = _STRICT

    observation_category: Category | None = None
    observation_types: list[ObservationType] = Field(default_factory=list)
    path_patterns: list[str] = Field(default_factory=list)
    """Globs; at least one must match the observation's path (which must then exist)."""
    content_patterns: list[str] = Field(default_factory=list)
    """Substrings, case-insensitive; at least one must occur in the file's first bytes."""

    @field_validator("path_patterns")
    @classmethod
    def _globs_compile(cls, value: list[str]) -> list[str]:
        for pattern in value:
            compile_glob(pattern)
        return value

    @field_validator("content_patterns")
    @classmethod
    def _patterns_not_empty(cls, value: list[str]) -> list[str]:
        return _non_empty(value, "content_patterns")

    @property
    def is_empty(self) -> bool:
        """True if the trigger would match every observation."""
        return not (
            self.observation_category
            or self.observation_types
            or self.path_patterns
            or self.content_patterns
        )

    def matches(self, observation: Observation, facts: FileFacts) -> bool:
        """True if ``observation`` (with ``facts`` about its file) fires this trigger."""
        category = self.observation_category
        if category is not None and observation.category != category:
            return False
        if self.observation_types and observation.type not in self.observation_types:
            return False
        if self.path_patterns and self.best_pattern(observation.path) is None:
            return False
        return not self.content_patterns or _contains_any(facts.content_head, self.content_patterns)

    def describe(self) -> str:
        """The trigger in words, for a prompt."""
        when = []
        if self.observation_category is not None:
            when.append(f"category {self.observation_category.value}")
        if self.observation_types:
            when.append(" or ".join(kind.value for kind in self.observation_types))
        if self.path_patterns:
            when.append("path " + " or ".join(self.path_patterns))
        if self.content_patterns:
            when.append("content has " + " or ".join(repr(p) for p in self.content_patterns))
        return "; ".join(when)

    def best_pattern(self, path: str | None) -> str | None:
        """The most literal of the path patterns that match ``path``, or None."""
        if path is None:
            return None
        hits = [p for p in self.path_patterns if glob_match(p, path)]
        return max(hits, key=literal_length, default=None)


class Conditions(BaseModel):
    """Further checks after the trigger; each one given must hold.

    ``max_*`` bounds are inclusive. A size or content that is unknown fails
    the check that needs it; ``not_path_suffixes`` and ``not_path_patterns`` pass
    when there is no path.
    """

    model_config = _STRICT

    extensions: list[str] = Field(default_factory=list)
    """The path must end in one of these (case-insensitive), each starting with '.'."""
    max_size_bytes: int | None = Field(None, ge=0)
    not_path_suffixes: list[str] = Field(default_factory=list)
    not_path_patterns: list[str] = Field(default_factory=list)
    """Globs; the path must match none of them (a build folder inside a watched one)."""
    content_contains_any: list[str] = Field(default_factory=list)
    """Substrings, case-insensitive, like ``Trigger.content_patterns``."""
    max_error_count: int | None = Field(None, ge=0)
    metadata_equals: dict[str, str] = Field(default_factory=dict)
    """Each key of the observation's metadata must be present, its ``str()`` equal to the value."""
    metadata_in: dict[str, list[str]] = Field(default_factory=dict)
    """Each key of the observation's metadata must be present, its ``str()`` one of the values."""

    @field_validator("extensions")
    @classmethod
    def _dotted(cls, value: list[str]) -> list[str]:
        for ext in value:
            if not ext.startswith(".") or len(ext) < 2 or "/" in ext:
                raise ValueError(f"extension {ext!r} must look like '.md'")
        return value

    @field_validator("not_path_patterns")
    @classmethod
    def _globs_compile(cls, value: list[str]) -> list[str]:
        for pattern in value:
            compile_glob(pattern)
        return value

    @field_validator("not_path_suffixes", "content_contains_any")
    @classmethod
    def _not_empty(cls, value: list[str]) -> list[str]:
        return _non_empty(value, "the list")

    @property
    def count(self) -> int:
        """How many checks are declared (for ordering by specificity)."""
        return sum(
            1 for name in type(self).model_fields if getattr(self, name) not in (None, [], {})
        )

    def hold(self, observation: Observation, facts: FileFacts) -> bool:
        """True if every declared condition holds for ``observation`` and ``facts``."""
        path = observation.path
        extensions = tuple(ext.lower() for ext in self.extensions)
        if extensions and (path is None or not path.lower().endswith(extensions)):
            return False
        limit = self.max_size_bytes
        if limit is not None and (facts.size is None or facts.size > limit):
            return False
        if path is not None and path.endswith(tuple(self.not_path_suffixes)):
            return False
        if path is not None and any(glob_match(p, path) for p in self.not_path_patterns):
            return False
        if self.content_contains_any and not _contains_any(
            facts.content_head, self.content_contains_any
        ):
            return False
        if self.max_error_count is not None and facts.error_count > self.max_error_count:
            return False
        return self.metadata_misfit(observation) is None

    def metadata_misfit(self, observation: Observation) -> str | None:
        """Which metadata condition ``observation`` fails, in words, or None if all hold."""
        metadata = observation.metadata
        for key, value in self.metadata_equals.items():
            if key not in metadata or str(metadata[key]) != value:
                return f"wants metadata {key} = {value}"
        for key, values in self.metadata_in.items():
            if key not in metadata or str(metadata[key]) not in values:
                return f"wants metadata {key} one of {', '.join(values)}"
        return None


def specificity(trigger: Trigger, conditions: Conditions, path: str | None) -> tuple[int, int, int]:
    """How specific a match is; a larger tuple is more specific.

    First whether the match looked at the file's content (``content_patterns``
    or ``content_contains_any``): what a file says shows intent better than
    where it is. Then how many checks are declared (category, types, paths,
    content patterns, each condition). Then how many literal characters the
    best matching glob has.
    """
    on_content = bool(trigger.content_patterns or conditions.content_contains_any)
    given = (
        trigger.observation_category,
        trigger.observation_types,
        trigger.path_patterns,
        trigger.content_patterns,
    )
    checks = conditions.count + sum(1 for value in given if value)
    best = trigger.best_pattern(path)
    return int(on_content), checks, literal_length(best) if best is not None else 0


def _contains_any(content: str | None, needles: list[str]) -> bool:
    if content is None:
        return False
    folded = content.casefold()
    return any(needle.casefold() in folded for needle in needles)
