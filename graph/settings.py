"""Settings: one pydantic object built from ``nous.yaml`` and the environment.

This is the only module of Nous that reads the environment. Every default
lives in :mod:`graph.settings_model`; every other part receives the settings
(or a section of them) as an explicit argument.

Sources, lowest priority first (gathered by :mod:`graph.settings_source`, which a
hook's lean reader, :mod:`graph.settings_lean`, shares):

1. the defaults (:mod:`graph.settings_model`);
2. the YAML file (``nous.yaml`` in the working directory, or ``--config FILE``);
3. the environment: ``NEO4J_URI``, ``NEO4J_USER``, ``NEO4J_PASSWORD``,
   ``NOUS_<NAME>`` for a top-level setting (``NOUS_AGENT_ID``,
   ``NOUS_REASONER``, ``NOUS_LOG_LEVEL``, ``NOUS_TEMPLATES_FILE``) and
   ``NOUS_<SECTION>__<KEY>`` (values parsed as YAML
   scalars or flow collections, so ``NOUS_WATCH__DEBOUNCE_MS=250`` and
   ``NOUS_WATCH__IGNORE_PATTERNS='[".git", "tmp"]'`` both work);
4. explicit overrides from the command line (``--root``).

A bad file, key or value raises :class:`SettingsError`, whose message names
the file (or the environment variable) and the dotted key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graph.errors import SettingsError
from graph.settings_claude import (
    ClaudeSettings as ClaudeSettings,
)
from graph.settings_claude import (
    HistorySettings as HistorySettings,
)
from graph.settings_claude import (
    McpSettings as McpSettings,
)
from graph.settings_model import (
    DEFAULT_CATEGORY_PATTERNS as DEFAULT_CATEGORY_PATTERNS,
)
from graph.settings_model import (
    DEFAULT_CONFIG_FILE as DEFAULT_CONFIG_FILE,
)
from graph.settings_model import (
    DEFAULT_IGNORE_PATTERNS as DEFAULT_IGNORE_PATTERNS,
)
from graph.settings_model import (
    DEFAULT_NOISE_PATTERNS as DEFAULT_NOISE_PATTERNS,
)
from graph.settings_model import (
    STATE_DIR as STATE_DIR,
)
from graph.settings_model import (
    BudgetSettings as BudgetSettings,
)
from graph.settings_model import (
    EmbeddingSettings as EmbeddingSettings,
)
from graph.settings_model import (
    ExecutorSettings as ExecutorSettings,
)
from graph.settings_model import (
    GoalSettings as GoalSettings,
)
from graph.settings_model import (
    IntakeSettings as IntakeSettings,
)
from graph.settings_model import (
    LLMSettings as LLMSettings,
)
from graph.settings_model import (
    Neo4jSettings as Neo4jSettings,
)
from graph.settings_model import (
    ScheduleSettings as ScheduleSettings,
)
from graph.settings_model import (
    SenseSettings as SenseSettings,
)
from graph.settings_model import (
    Settings as Settings,
)
from graph.settings_model import (
    ThresholdSettings as ThresholdSettings,
)
from graph.settings_model import (
    WatchSettings as WatchSettings,
)
from graph.settings_model import (
    state_dir as state_dir,
)
from graph.settings_rsi import (
    CaseSettings as CaseSettings,
)
from graph.settings_rsi import (
    CodeNoteSettings as CodeNoteSettings,
)
from graph.settings_rsi import (
    RSISettings as RSISettings,
)
from graph.settings_source import SettingsData, gather_settings

_TOP_LEVEL = frozenset(
    n for n, f in Settings.model_fields.items() if not hasattr(f.default_factory, "model_fields")
)


def load_settings(
    config_file: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Settings:
    """Build the settings from the YAML file, the environment and overrides.

    ``config_file=None`` means ``nous.yaml`` in the working directory if it
    exists; a file named explicitly must exist. ``environ=None`` means
    ``os.environ``. ``overrides`` maps dotted keys (``"watch.root"``) to
    values and wins over everything else.
    """
    gathered = gather_settings(config_file, environ, overrides, _TOP_LEVEL)
    try:
        settings = Settings.model_validate(gathered.data)
    except ValidationError as exc:
        raise SettingsError(_describe(exc, gathered)) from None
    if settings.trust_dir is None:
        settings = settings.model_copy(update={"trust_dir": user_state_dir(environ)})
    return settings


def user_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Nous's folder in the user's state: ``$XDG_STATE_HOME/nous``, else
    ``~/.local/state/nous`` (the XDG default); a relative XDG_STATE_HOME is ignored,
    as the XDG specification says."""
    env = os.environ if environ is None else environ
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "nous"
    home = env.get("HOME")
    return (Path(home) if home else Path.home()) / ".local" / "state" / "nous"


def _describe(exc: ValidationError, gathered: SettingsData) -> str:
    lines = []
    for error in exc.errors():
        loc = tuple(str(p) for p in error["loc"])
        origin = gathered.origin(loc)
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        lines.append(f"{origin}: {'.'.join(loc)}: {message}")
    return "invalid settings:\n  " + "\n  ".join(lines)


def child_environment() -> dict[str, str]:
    """A copy of this process's environment, for the child processes Nous starts.

    Read here, with the settings, so that no other module touches the
    environment; the parts that start processes (the Neo4j runtime, the
    executors) receive this mapping as an argument.
    """
    return dict(os.environ)
