"""A hook's settings: the keys a Claude Code hook uses, read and checked without pydantic.

A hook working alone is a process per prompt and tool call, and building
the daemon's settings (:mod:`graph.settings`: pydantic, and some twenty
models built and validated) cost it more than the work it does (issue 27).
:func:`load_hook_settings` reads the same sources the same way
(:mod:`graph.settings_source`: the settings file, ``NOUS_*`` and ``NEO4J_*``
values, overrides) and keeps only the keys in :data:`SPECS`, each checked
against the same type, default and bounds as the daemon's model; a bad value
is a :class:`~graph.errors.SettingsError` naming the key and where it was
set. A key the hook does not use is not looked at (the daemon validates the
whole file). A test compares :data:`SPECS` with the pydantic models, so a
default or bound changed in one place only fails it.

Values are taken as pydantic's lax mode takes them (``"15"`` is 15 for a
number, ``"yes"`` true for a flag, ``2.0`` is 2 for a whole number); a test
compares the two on the same inputs.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from pathlib import Path

from graph.errors import SettingsError
from graph.settings_source import Key, SettingsData, gather_settings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a hook's path)
if TYPE_CHECKING:
    from typing import Any, ClassVar, Self

_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})


class Spec:
    """One key: its kind (``int``, ``float``, ``bool``, ``str``, ``secret``), default, bounds."""

    __slots__ = ("bounds", "default", "kind", "nullable")

    def __init__(self, kind: str, default: Any, *, nullable: bool = False, **bounds: Any) -> None:
        self.kind = kind
        self.default = default
        self.nullable = nullable
        self.bounds = bounds  # gt, ge, lt, le; min_length, max_length, pattern for str

    def check(self, value: Any) -> Any:
        """``value`` as the key holds it; ``ValueError`` saying why not (pydantic's words)."""
        if value is None and self.nullable:
            return None
        taken = _TAKE[self.kind](value)
        for name, limit in self.bounds.items():
            if not _BOUNDS[name][0](taken, limit):
                raise ValueError(_BOUNDS[name][1].format(limit))
        return Secret(str(taken)) if self.kind == "secret" else taken


def _take_int(value: Any) -> int:
    if isinstance(value, bool | int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("Input should be a finite number")
        if value != int(value):
            raise ValueError("Input should be a valid integer, got a number with a fractional part")
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
        try:
            return _take_int(float(value))
        except ValueError:
            raise ValueError(
                "Input should be a valid integer, unable to parse string as an integer"
            ) from None
    raise ValueError("Input should be a valid integer")


def _take_float(value: Any) -> float:
    if isinstance(value, bool | int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            raise ValueError(
                "Input should be a valid number, unable to parse string as a number"
            ) from None
    raise ValueError("Input should be a valid number")


def _take_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    if value is None:
        raise ValueError("Input should be a valid boolean")
    raise ValueError("Input should be a valid boolean, unable to interpret input")


def _take_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise ValueError("Input should be a valid string")


_TAKE = {
    "int": _take_int,
    "float": _take_float,
    "bool": _take_bool,
    "str": _take_str,
    "secret": _take_str,
}
_BOUNDS: dict[str, tuple[Any, str]] = {
    "gt": (lambda v, n: v > n, "Input should be greater than {}"),
    "ge": (lambda v, n: v >= n, "Input should be greater than or equal to {}"),
    "lt": (lambda v, n: v < n, "Input should be less than {}"),
    "le": (lambda v, n: v <= n, "Input should be less than or equal to {}"),
    "min_length": (lambda v, n: len(v) >= n, "String should have at least {} character(s)"),
    "max_length": (lambda v, n: len(v) <= n, "String should have at most {} character(s)"),
    "pattern": (lambda v, p: _matches(p, v), "String should match pattern '{}'"),
}


def _matches(pattern: str, value: str) -> bool:
    # pydantic's regex engine (Rust's) ends "$" at the very end; Python's also before a
    # final newline, which would let "nous\n" through.
    found = re.search(pattern, value)
    return found is not None and (not pattern.endswith("$") or found.end() == len(value))


class Secret:
    """A password: never shown by ``repr`` or ``str`` (as pydantic's ``SecretStr``)."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        """The password itself."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__


# The keys a hook uses, as graph/settings_model.py, settings_claude.py, settings_rsi.py define
# them (tests/graph/test_settings_lean.py compares both).
SPECS: dict[str, dict[str, Spec]] = {
    "": {
        "agent_id": Spec("str", "nous", min_length=1, pattern=r"^[A-Za-z0-9_.:-]+$"),
        "project": Spec("str", None, nullable=True, min_length=1, max_length=200),
    },
    "neo4j": {
        "uri": Spec("str", None, nullable=True),
        "user": Spec("str", "neo4j"),
        "password": Spec("secret", "nous-local-password"),
        "database": Spec("str", "neo4j"),
        "host": Spec("str", "127.0.0.1"),
        "bolt_port": Spec("int", 7687, ge=1, le=65535),
    },
    "claude": {
        "hook_timeout_s": Spec("float", 15.0, gt=0, le=60),
        "session_start_tokens": Spec("int", 1500, ge=0),
        "tool_output_chars": Spec("int", 2000, ge=100),
        "tool_input_chars": Spec("int", 500, ge=40),
        "turn_tool_results": Spec("int", 200, ge=1),
        "team_url": Spec(
            "str",
            None,
            nullable=True,
            max_length=2000,
            pattern=r"^https?://[^\s/?#@]+(/[^\s?#]*)?$",
        ),
        "team_token": Spec("secret", None, nullable=True),
        "team_token_file": Spec("str", None, nullable=True, min_length=1),
        "team_ca_file": Spec("str", None, nullable=True, min_length=1),
    },
    "cases": {
        "enabled": Spec("bool", True),
        "per_prompt": Spec("int", 3, ge=0, le=20),
        "max_tokens": Spec("int", 1200, ge=0),
        "min_similarity": Spec("float", 0.35, ge=0, le=1),
        "min_cosine": Spec("float", 0.85, ge=0, le=1),
        "duplicate_similarity": Spec("float", 0.9, ge=0, le=1),
        "max_cases": Spec("int", 500, ge=1),
        "prune_harm_margin": Spec("int", 1, ge=1),
        "prune_min_age_days": Spec("float", 14.0, ge=0),
        "field_chars": Spec("int", 1500, ge=100, le=20_000),
    },
    "code_notes": {
        "enabled": Spec("bool", True),
        "per_prompt": Spec("int", 6, ge=0, le=30),
        "per_name": Spec("int", 3, ge=1, le=10),
        "max_tokens": Spec("int", 600, ge=0),
        "max_notes": Spec("int", 500, ge=1),
        "prune_harm_margin": Spec("int", 2, ge=1),
        "prune_min_age_days": Spec("float", 30.0, ge=0),
        "field_chars": Spec("int", 300, ge=40, le=5000),
    },
    "history": {
        "enabled": Spec("bool", True),
        "first_commits": Spec("int", 200, ge=1, le=100_000),
        "max_age_days": Spec("float", 365.0, gt=0),
        "session_start_budget_s": Spec("float", 0.3, gt=0, le=10),
        "interval_s": Spec("float", 30.0, ge=1),
    },
    "embeddings": {
        "exact_max": Spec("int", 20_000, ge=0),
        "max_k": Spec("int", 2000, ge=10, le=10_000),
    },
}


class Section:
    """The checked keys of one section, as attributes (see :data:`SPECS`)."""

    NAME: ClassVar[str] = ""

    def __init__(self, values: Mapping[str, Any]) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    @classmethod
    def defaults(cls) -> Self:
        """The section with every key at its default."""
        return cls({name: spec.check(spec.default) for name, spec in SPECS[cls.NAME].items()})

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in SPECS[self.NAME])
        return f"{type(self).__name__}({shown})"


class HookNeo4j(Section):
    """``neo4j``: where the memory is (the keys a hook connects with)."""

    NAME = "neo4j"
    uri: str | None
    user: str
    password: Secret
    database: str
    host: str
    bolt_port: int


class HookClaude(Section):
    """``claude``: the hooks' own settings."""

    NAME = "claude"
    hook_timeout_s: float
    session_start_tokens: int
    tool_output_chars: int
    tool_input_chars: int
    turn_tool_results: int
    team_url: str | None
    team_token: Secret | None
    team_token_file: str | None
    team_ca_file: str | None


class HookCases(Section):
    """``cases``: worked examples recalled before a prompt, kept after a turn."""

    NAME = "cases"
    enabled: bool
    per_prompt: int
    max_tokens: int
    min_similarity: float
    min_cosine: float
    duplicate_similarity: float
    max_cases: int
    prune_harm_margin: int
    prune_min_age_days: float
    field_chars: int


class HookCodeNotes(Section):
    """``code_notes``: what runs said about the names code called."""

    NAME = "code_notes"
    enabled: bool
    per_prompt: int
    per_name: int
    max_tokens: int
    max_notes: int
    prune_harm_margin: int
    prune_min_age_days: float
    field_chars: int


class HookHistory(Section):
    """``history``: the repository's git history, read at a session's start without a daemon."""

    NAME = "history"
    enabled: bool
    first_commits: int
    max_age_days: float
    session_start_budget_s: float
    interval_s: float


class HookEmbeddings(Section):
    """``embeddings``: the vector search's limits (a hook itself embeds nothing)."""

    NAME = "embeddings"
    exact_max: int
    max_k: int


class HookSettings:
    """What a hook reads of the settings (:func:`load_hook_settings`)."""

    __slots__ = (
        "agent_id",
        "cases",
        "claude",
        "code_notes",
        "embeddings",
        "history",
        "neo4j",
        "project",
    )

    def __init__(self, sections: Mapping[str, Mapping[str, Any]]) -> None:
        self.agent_id: str = sections[""]["agent_id"]
        self.project: str | None = sections[""]["project"]
        self.neo4j = HookNeo4j(sections["neo4j"])
        self.claude = HookClaude(sections["claude"])
        self.cases = HookCases(sections["cases"])
        self.code_notes = HookCodeNotes(sections["code_notes"])
        self.embeddings = HookEmbeddings(sections["embeddings"])
        self.history = HookHistory(sections["history"])


_GIT_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR")


def git_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """What ``git`` may see of the environment (:mod:`graph.watch.git`): where programs and
    the user's own git configuration are, and the locale; no credential."""
    env = os.environ if environ is None else environ
    kept = {name: env[name] for name in _GIT_ENVIRONMENT if name in env}
    kept.update(GIT_TERMINAL_PROMPT="0", GIT_CONFIG_NOSYSTEM="1")
    return kept


def load_hook_settings(
    config_file: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> HookSettings:
    """The hook's keys from the sources :func:`graph.settings.load_settings` reads, checked.

    :class:`SettingsError` names every bad key and where it was set, as the daemon's does.
    """
    gathered = gather_settings(config_file, environ, overrides, SPECS[""])
    problems: list[str] = []
    sections = {name: _section(gathered, name, specs, problems) for name, specs in SPECS.items()}
    if problems:
        raise SettingsError("invalid settings:\n  " + "\n  ".join(problems))
    return HookSettings(sections)


def _section(
    gathered: SettingsData, name: str, specs: Mapping[str, Spec], problems: list[str]
) -> dict[str, Any]:
    key: Key = (name,) if name else ()
    raw = gathered.data.get(name, {}) if name else gathered.data
    if not isinstance(raw, Mapping):
        problems.append(f"{gathered.origin(key)}: {name}: Input should be a valid dictionary")
        raw = {}
    values: dict[str, Any] = {}
    for field, spec in specs.items():
        if field not in raw:
            values[field] = spec.check(spec.default)
            continue
        try:
            values[field] = spec.check(raw[field])
        except ValueError as exc:
            where = (*key, field)
            problems.append(f"{gathered.origin(where)}: {'.'.join(where)}: {exc}")
    return values
