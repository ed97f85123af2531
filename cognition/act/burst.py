"""A burst is one run: what a burst of changes to one command template runs.

A branch switch or a formatter saves many files at once; each would run the
project's test suite. As watchexec does, the changes that would run one
command template are held until none has come for ``settle_s`` (the burst
has settled), then become one piece of work: one decision that considers
every change, one execution. A command that takes a path (``{{ path }}``, a
changed test file) gets every changed path in that one run; the action's
prompt lists the files, so its record names every file that caused it.

The loop's work list joins the bursts (:func:`cognition.worklist.join_bursts`);
a template is known to run a command from the change alone
(:func:`command_template`: the first that could act); what the reasoner then
picks is checked again in :func:`widen`, which joins the paths only when it
picked that template.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from cognition.act.action import PlannedAction
from cognition.act.applicable import applicable_templates
from cognition.act.command import ARGV_PARAM
from cognition.act.render import PLACEHOLDER
from cognition.act.templates import TemplateRegistry
from graph.models import Observation, ObservationType

MAX_LISTED = 50
"""Paths the prompt names; past this many it says how many more there were."""


def command_template(batch: Sequence[Observation], templates: TemplateRegistry) -> str | None:
    """The command template the batch's change would run, or None (not a command, or none)."""
    for template in applicable_templates(batch[0], templates):
        return template.name if template.target == "command" else None
    return None


def burst_paths(batch: Sequence[Observation]) -> list[str]:
    """The distinct files a batch is about, in its order."""
    return list(dict.fromkeys(o.path for o in batch if o.path is not None))


def widen(
    planned: PlannedAction | None, batch: Sequence[Observation], templates: TemplateRegistry
) -> PlannedAction | None:
    """The action for a burst of several files: every file in its prompt and its command.

    Each ``{{ path }}`` word of the template's command becomes every changed
    file that still exists (the primary's first), so a test command runs them
    all at once. One file: unchanged.
    """
    paths = burst_paths(batch)
    if planned is None or len(paths) < 2:
        return planned
    gone = {o.path for o in batch if o.type is ObservationType.FILE_DELETED}
    present = [p for p in paths if p not in gone]
    params = dict(planned.params)
    argv = params.get(ARGV_PARAM)
    name = planned.template
    if isinstance(argv, list) and present and name is not None and name in templates.names():
        params[ARGV_PARAM] = _with_paths(templates.get(name).command, argv, present)
    listed = ", ".join(paths[:MAX_LISTED])
    more = f" and {len(paths) - MAX_LISTED} more" if len(paths) > MAX_LISTED else ""
    together = f"One run for {len(paths)} files changed together: {listed}{more}"
    prompt = f"{planned.prompt.rstrip()}\n\n{together}\n"
    # The working set stays the template's: a file a person saves again while the run goes on
    # is news (on_busy), not the run's own edit.
    return dataclasses.replace(planned, prompt=prompt, params=params)


def _with_paths(words: Sequence[str], argv: Sequence[str], paths: Sequence[str]) -> list[str]:
    """``argv`` (``words`` rendered, one for one) with each ``{{ path }}`` word made ``paths``."""
    if len(words) != len(argv):
        return list(argv)  # not this template's rendering: leave it as planned
    out: list[str] = []
    for word, rendered in zip(words, argv, strict=True):
        found = PLACEHOLDER.fullmatch(word.strip())
        if found is not None and found.group(1) == "path":
            out.extend(f"./{p}" if p.startswith("-") else p for p in paths)
        else:
            out.append(rendered)
    return out
