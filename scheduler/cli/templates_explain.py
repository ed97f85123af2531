"""``nous templates explain PATH``: which template would handle a change to PATH, and why.

The change is classified as the daemon would (the settings' category
tables), the file's first bytes read as recall reads them, and every loaded
template tried in the order the planner ranks them: the first that matches
and can be filled would handle it; each other says why it would not.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scheduler.cli.common import EXIT_USAGE, CommandError, settings_from, show

if TYPE_CHECKING:
    from cognition.act.conditions import FileFacts
    from cognition.act.templates import TemplateRegistry
    from cognition.schemas import FileView
    from graph.models.observe import Observation

_KINDS = ("created", "modified", "deleted", "moved")
_CONTENT_BYTES = 8192  # what recall reads of a file (cognition.recall.gather)


def register_explain(actions: Any, common: argparse.ArgumentParser) -> None:
    """Add ``nous templates explain PATH [--change KIND]``."""
    explain = actions.add_parser(
        "explain",
        parents=[common],
        help="which template would handle a change to PATH, and why the others would not",
    )
    explain.add_argument("path", help="a path inside the watched folder (relative to it)")
    explain.add_argument(
        "--change",
        choices=_KINDS,
        help="the kind of change (default: modified if the file exists, else deleted)",
    )
    explain.set_defaults(handler=_explain)


def loaded(args: argparse.Namespace) -> tuple[TemplateRegistry, str, Path]:
    """The templates in force, a line saying where from, and the watched root; exit 2 if bad."""
    from cognition.act.locate import templates_source
    from cognition.act.templates import load_templates
    from cognition.errors import TemplateError

    settings = settings_from(args)
    args.settings = settings
    source = templates_source(settings.templates_file, settings.watch.root)
    try:
        registry = load_templates(source.path)
    except TemplateError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    return registry, f"{registry.file} ({source.how})", settings.watch.root.expanduser()


def _explain(args: argparse.Namespace) -> int:
    from cognition.act.applicable import why_not
    from cognition.act.fillable import template_options

    registry, where, root = loaded(args)
    observation, view = _observed(args, root)
    facts = _facts(view)
    ready = {option.name for option in template_options(registry, observation, view)}
    ranked = [t.name for t in registry.match(observation, facts) if t.name in ready]
    rows = []
    for template in registry:
        reason = why_not(template, observation, facts)
        if reason is None and template.name not in ready:
            reason = "its required parameters cannot be filled for this change"
        if reason is None and ranked and template.name != ranked[0]:
            reason = f"matches, but {ranked[0]} is more specific"
        rows.append({"template": template.name, "handles": reason is None, "why_not": reason})
    head = f"{observation.type.value} {observation.path} (category {observation.category.value})"
    verdict = f"{ranked[0]} would handle it" if ranked else "no template would act on it"
    lines = [f"templates from {where}", f"{head}: {verdict}"]
    lines += [f"  {r['template']}: {r['why_not'] or 'handles it'}" for r in rows]
    data = {
        "path": observation.path,
        "change": observation.type.value,
        "category": observation.category.value,
        "handled_by": ranked[0] if ranked else None,
        "templates": rows,
    }
    return show(args, data, "\n".join(lines))


def _observed(args: argparse.Namespace, root: Path) -> tuple[Observation, FileView]:
    """The classified observation of a change to ``args.path``, and what recall would read."""
    from cognition.recall.file_head import read_file_view
    from cognition.sense.classify import ObservationClassifier
    from graph.models.observe import Observation, ObservationType
    from graph.watch.files import check_relative_path

    given = Path(args.path)
    if given.is_absolute():
        try:
            given = given.resolve().relative_to(root.resolve())
        except ValueError:
            message = f"{args.path}: not inside the watched folder {root}"
            raise CommandError(message, EXIT_USAGE) from None
    rel = given.as_posix()
    try:
        check_relative_path(rel)
    except ValueError as exc:
        raise CommandError(f"{args.path}: {exc}", EXIT_USAGE) from None
    view = read_file_view(root, rel, _CONTENT_BYTES)
    change = args.change or ("modified" if view.exists else "deleted")
    kind = ObservationType(f"file_{change}")
    settings = args.settings
    observation = Observation(agent_id=settings.agent_id, type=kind, path=rel)
    return ObservationClassifier(settings.sense).classify(observation), view


def _facts(view: FileView) -> FileFacts:
    from cognition.act.conditions import FileFacts

    return FileFacts(size=view.size, content_head=view.content_head)
