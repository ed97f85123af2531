"""The daemon and an untrusted templates file: its decisions recorded as a dry run, one escalation.

:func:`load_trusted_templates` is checked once, at start, where the executors
are chosen: a templates file the watched folder carries that the user has not
trusted (or that changed since) turns every executor into a dry run for this
run (:func:`held_settings`), so its decisions are made and recorded but no
command, Claude Code or claude-flow runs. :func:`escalate_untrusted` hands it
to a person once per start, saying what to run.
"""

from __future__ import annotations

import logging
from pathlib import Path

from cognition.act.escalate import escalate
from cognition.act.locate import templates_source
from cognition.act.templates import TemplateRegistry, parse_templates
from cognition.act.trust import TemplatesTrust, needs_trust, trust_store
from cognition.errors import TemplateError
from graph.errors import SettingsError
from graph.models import Decision, DecisionType
from graph.settings import Settings
from graph.store.memory import Memory
from graph.yamlfile import YamlFileError, read_text
from scheduler.compose.loop import load_action_templates

log = logging.getLogger(__name__)

UNTRUSTED = "untrusted templates file"


def load_trusted_templates(
    settings: Settings, root: Path
) -> tuple[TemplateRegistry, TemplatesTrust]:
    """The templates in force for ``root`` and whether they may run commands.

    A file the folder carries is read once: the text hashed is the text parsed, so a
    file swapped between the two is never run. A bad file is a settings error (exit 2).
    """
    source = templates_source(settings.templates_file, root)
    store = trust_store(settings, root)
    if source.path is None or not needs_trust(source.path, root):
        return load_action_templates(settings), store.verdict(source.path)
    try:
        text = read_text(source.path, what="templates file")
        registry = parse_templates(text, str(source.path))
    except (YamlFileError, TemplateError) as exc:
        raise SettingsError(str(exc)) from None
    return registry, store.verdict_of(source.path, text)


def held_settings(settings: Settings, trust: TemplatesTrust, root: Path) -> Settings:
    """``settings`` as they stand when ``trust`` allows commands, else with every executor
    a dry run (said in a WARNING)."""
    if trust.trusted or settings.executors.dry_run:
        return settings
    log.warning(
        "templates file %s is not trusted (%s): its decisions are recorded as a dry run,"
        " nothing is executed; to let it run commands: %s",
        trust.path,
        trust.why,
        trust.trust_command(root),
    )
    executors = settings.executors.model_copy(update={"dry_run": True})
    return settings.model_copy(update={"executors": executors})


async def escalate_untrusted(memory: Memory, trust: TemplatesTrust, root: Path) -> None:
    """One escalation that says the templates file runs nothing until trusted, and how."""
    path = trust.path
    shown = str(path.relative_to(root)) if path and path.is_relative_to(root) else str(path)
    message = (
        f"The templates file {path} is not trusted ({trust.why}): Nous records its decisions"
        " as a dry run and runs none of its commands. Read it; if you want its commands to"
        f" run, trust it with: {trust.trust_command(root)} (then restart nous run)."
    )
    decision = Decision(
        agent_id=memory.agent_id,
        type=DecisionType.ESCALATE,
        confidence=1.0,
        reasoning=message,
        path=shown,
        escalation_reason=UNTRUSTED,
    )
    await memory.decisions.record_decision(decision, [], observation_ids=[])
    await escalate(memory.decisions, decision, reason=UNTRUSTED, message=message, priority="high")
