"""``nous templates``: write a templates file that fits the folder, list, check and explain it.

``init`` looks at the watched folder and writes ``.nous/templates.yaml`` from
the starter pack that fits (:mod:`cognition.act.starter`); ``list`` shows
the templates in force and where they come from; ``check [FILE]`` validates
a file and names file, template, key and line for each problem (exit 2);
``explain PATH`` (:mod:`scheduler.cli.templates_explain`) says which template
would handle a change to PATH and why the others would not; ``trust``
records the hash of the folder's templates file in the user's state, so its
commands may run (:mod:`cognition.act.trust`; ``init`` trusts what it
writes, ``list`` says whether the file in force is trusted). None of them
needs Neo4j.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scheduler.cli.common import EXIT_USAGE, CommandError, common_options, settings_from, show
from scheduler.cli.templates_explain import loaded, register_explain

if TYPE_CHECKING:
    from graph.settings import Settings

PACK_NAMES = ("knowledge_base", "notes_vault", "code_repository")


def register(commands: Any) -> None:
    """Add ``nous templates init|list|check|explain|trust``."""

    common = common_options(root=True)
    parser = commands.add_parser(
        "templates",
        help="write, list, check and explain the action templates",
        description="The action templates: which are in force, and a file that fits the folder.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    init = actions.add_parser(
        "init",
        parents=[common],
        help="write .nous/templates.yaml from the starter pack that fits the folder",
    )
    init.add_argument(
        "--pack", choices=PACK_NAMES, help="this pack, whatever the folder looks like"
    )
    init.add_argument("--force", action="store_true", help="replace the file (kept as .bak)")
    init.set_defaults(handler=_init)
    listing = actions.add_parser(
        "list", parents=[common], help="the templates in force, and from where"
    )
    listing.set_defaults(handler=_list)
    check = actions.add_parser(
        "check", parents=[common], help="validate a templates file (exit 2 naming each problem)"
    )
    check.add_argument("file", nargs="?", type=Path, help="default: the file in force")
    check.set_defaults(handler=_check)
    trust = actions.add_parser(
        "trust",
        parents=[common],
        help="let the folder's templates file run commands (records its hash outside the folder)",
    )
    trust.set_defaults(handler=_trust)
    register_explain(actions, common)


def _init(args: argparse.Namespace) -> int:
    from cognition.act.locate import USER_TEMPLATES
    from cognition.act.starter import StarterError, choose_pack, render_pack, write_templates
    from cognition.act.templates import parse_templates

    settings = settings_from(args)
    root = settings.watch.root.expanduser()
    target = root / USER_TEMPLATES
    try:
        choice = choose_pack(root, args.pack)
        text = render_pack(choice)
        registry = parse_templates(text, str(target))  # a pack that does not check is a bug
        backup = write_templates(target, text, force=args.force)
    except StarterError as exc:
        raise CommandError(str(exc), EXIT_USAGE if "exists" in str(exc) else 1) from None
    off = [t.name for t in registry if not t.enabled]
    lines = [f"wrote {target} from the {choice.pack} pack: {choice.reason}"]
    lines.append(f"templates: {', '.join(t.name for t in registry if t.enabled)}")
    if off:
        lines.append(f"off until you set enabled: true: {', '.join(off)}")
    if backup is not None:
        lines.append(f"the file it replaced is kept as {backup}")
    if settings.templates_file is not None:
        lines.append(f"note: templates_file in the settings ({settings.templates_file}) still wins")
    lines.append(_trusted_line(settings, root, target))
    data = {"file": str(target), "pack": choice.pack, "reason": choice.reason, "off": off}
    return show(args, data, "\n".join(lines))


def _list(args: argparse.Namespace) -> int:
    from scheduler.cli.common import table

    registry, where, _ = loaded(args)
    rows = [
        {
            "name": t.name,
            "on": t.enabled,
            "target": t.target,
            "when": t.trigger.describe(),
        }
        for t in registry
    ]
    trust = _verdict(args)
    said = "trusted" if trust.trusted else "NOT trusted, runs no command"
    head = f"from {where}\ntrust: {said} ({trust.why})"
    if not trust.trusted:
        head += f"; to trust it: {trust.trust_command(args.settings.watch.root.expanduser())}"
    text = head + "\n" + table(rows, ["name", "on", "target", "when"], empty="no templates")
    data = {"file": registry.file, "source": where, "templates": rows}
    data["trusted"], data["trust"] = trust.trusted, trust.why
    return show(args, data, text)


def _verdict(args: argparse.Namespace) -> Any:
    from cognition.act.trust import templates_verdict

    settings = args.settings
    return templates_verdict(settings, settings.watch.root.expanduser())


def _trusted_line(settings: Settings, root: Path, target: Path) -> str:
    """``init`` trusts the file it wrote: the line that says so (or why it could not)."""
    from cognition.act.trust import TrustError, trust_store

    try:
        trust_store(settings, root).trust(target)
    except TrustError as exc:
        return f"not trusted ({exc}): its commands will not run until `nous templates trust`"
    return f"trusted: its commands may run (recorded in {settings.trust_dir})"


def _trust(args: argparse.Namespace) -> int:
    from cognition.act.locate import templates_source
    from cognition.act.trust import TrustError, needs_trust, trust_store

    _, where, root = loaded(args)  # a file that does not load is not trusted
    settings = args.settings
    path = templates_source(settings.templates_file, root).path
    store = trust_store(settings, root)
    if path is None or not needs_trust(path, root):
        why = store.verdict(path).why
        return show(args, {"file": where, "trusted": True}, f"{where}: nothing to trust ({why})")
    try:
        verdict = store.trust(path)
    except TrustError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from None
    text = (
        f"trusted {path} (sha256 {verdict.digest}); its commands may run from the next"
        f" `nous run`. Recorded in {store.file}; a change to the file needs trusting again."
    )
    data = {"file": str(path), "trusted": True, "sha256": verdict.digest, "record": str(store.file)}
    return show(args, data, text)


def _check(args: argparse.Namespace) -> int:
    from cognition.act.templates import load_templates
    from cognition.errors import TemplateError

    if args.file is None:
        registry, where, _ = loaded(args)
    else:
        try:
            registry = load_templates(args.file)
        except TemplateError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from None
        where = str(args.file)
    names = ", ".join(registry.names())
    data = {"file": registry.file, "valid": True, "templates": registry.names()}
    return show(args, data, f"{where}: {len(registry)} templates, all valid ({names})")
