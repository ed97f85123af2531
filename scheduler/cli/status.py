"""``nous status``: is everything up, what is the agent doing, what did it decide last.

Neo4j is only looked for (never started); the LLM endpoint is asked for its
models; whether a daemon of this agent runs comes from its last
``daemon_started`` event (pid and host) and whether a ``daemon_stopped``
with the same session followed, checked against the process table when the
daemon ran on this host.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
from pathlib import Path
from typing import Any

from cognition.llm import LLMClient
from graph.errors import GraphError
from graph.settings import Settings, child_environment
from graph.store.memory import Memory
from graph.store.rows.audit import EventRow
from graph.watch.rescan import BASELINE_EVENT
from rsi.confine import describe as describe_sandbox
from scheduler.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    common_options,
    print_json,
    settings_from,
    table,
)
from scheduler.cli.runs import render_runs, runs_report
from scheduler.compose.connect import connected
from scheduler.operations import describe, read_operations

RECENT = 5
HELP = "Neo4j, the LLM, the daemon, the budget, escalations and the last decisions"
DESCRIPTION = (
    "What answers, whether a daemon of this agent runs and since when, and what it did lately. "
    "Starts nothing."
)


def register(commands: Any) -> None:
    """Add ``nous status``."""
    common = [common_options()]
    parser = commands.add_parser("status", parents=common, help=HELP, description=DESCRIPTION)
    parser.set_defaults(handler=_status)


def _status(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    report = asyncio.run(gather(settings))
    if args.json:
        print_json(report)
    else:
        print(render(report))
    return EXIT_OK if report["neo4j"]["up"] else EXIT_NOT_FOUND


async def gather(settings: Settings) -> dict[str, Any]:
    """Everything ``nous status`` reports, as data."""
    llm = asyncio.create_task(llm_state(settings))
    sandbox = asyncio.create_task(asyncio.to_thread(describe_sandbox))  # probes once: a run
    report: dict[str, Any] = {"agent_id": settings.agent_id}
    try:
        async with connected(settings, child_environment()) as parts:
            report["neo4j"] = {"up": True, "where": parts.endpoint.describe()}
            report.update(await _from_graph(parts.memory, settings))
    except GraphError as exc:
        if "neo4j" in report:  # found, then a query failed
            report["graph_error"] = str(exc)
        else:
            report["neo4j"] = {"up": False, "error": str(exc)}
    report["llm"] = await llm
    report["sandbox"] = await sandbox
    report["templates"] = templates_trust_state(settings)
    return report


def templates_trust_state(settings: Settings) -> dict[str, Any]:
    """The templates file in force and whether it may run commands (no Neo4j needed)."""
    from cognition.act.trust import templates_verdict

    root = settings.watch.root.expanduser()
    trust = templates_verdict(settings, root)
    path = trust.path
    return {
        "file": str(path) if path is not None else "shipped with Nous",
        "trusted": trust.trusted,
        "why": trust.why,
        "trust_command": None if trust.trusted else trust.trust_command(root),
    }


async def llm_state(settings: Settings) -> dict[str, Any]:
    """Whether the LLM endpoint answers, with the model asked for and the format it accepts."""
    if settings.reasoner == "rules":
        return {"used": False, "base_url": settings.llm.base_url, "model": settings.llm.model}
    async with LLMClient(settings.llm) as client:
        answers = await client.healthy()
        # The reply format the endpoint accepted, where the client records one.
        accepted = getattr(client, "accepted_format", None)
    return {
        "used": True,
        "base_url": settings.llm.base_url,
        "model": settings.llm.model,
        "answers": answers,
        "format": accepted if isinstance(accepted, str) else None,
    }


async def _from_graph(memory: Memory, settings: Settings) -> dict[str, Any]:
    audit = memory.audit
    ops = await read_operations(memory)
    counts = await audit.memory_counts()
    baseline = await memory.events.events(BASELINE_EVENT, 1)
    return {
        "daemon": await daemon_state(memory),
        "baseline": (
            {
                "files": baseline[0].data.get("files"),
                "root": baseline[0].data.get("root"),
                "at": baseline[0].at,
            }
            if baseline
            else None
        ),
        "operations": {
            "started_last_hour": ops.started_last_hour,
            "actions_per_hour": settings.budget.actions_per_hour,
            "running": ops.running,
            "open_escalations": ops.open_escalations,
            "summary": describe(ops, settings.budget.actions_per_hour),
        },
        "runs": await runs_report(memory),
        "recent_decisions": await audit.recent_decisions(RECENT),
        "rsi": {"desires": counts.get("Desire", 0), "heuristics": counts.get("Heuristic", 0)},
    }


async def daemon_state(memory: Memory) -> dict[str, Any]:
    """``{"running": bool | None, "since", "pid", "host", "how"}`` from the daemon's events."""
    audit = memory.audit
    started = await audit.latest_events("daemon_started", 1)
    if not started:
        return {"running": False, "how": "this agent's daemon has never run"}
    event = started[0]
    data = _data(event.data)
    state: dict[str, Any] = {
        "since": event.at,
        "pid": data.get("pid"),
        "host": data.get("host"),
        "root": data.get("root"),
    }
    stopped = await audit.latest_events("daemon_stopped", 20)
    if any(_stops(s, event) for s in stopped):
        return {**state, "running": False, "how": "stopped"}
    pid, host = data.get("pid"), data.get("host")
    if not isinstance(pid, int) or host != socket.gethostname():
        return {**state, "running": None, "how": "started, not stopped; on another host"}
    alive = process_is_daemon(pid)
    how = "running" if alive else "ended without stopping (killed or crashed)"
    return {**state, "running": alive, "how": how}


def _stops(stop: EventRow, start: EventRow) -> bool:
    # The same session; a stop recorded without one counts when it came after the start.
    if stop.session_id is not None:
        return stop.session_id == start.session_id
    return bool(stop.at and start.at and stop.at >= start.at)


def process_is_daemon(pid: int) -> bool:
    """Whether ``pid`` is alive here and (where /proc tells) a Nous daemon, not a reused pid."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not cmdline.exists():
        return True
    words = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
    return "graph.daemon" in words or "nous" in words


def render(report: dict[str, Any]) -> str:
    """The report as text that fits 100 columns."""
    neo4j = report["neo4j"]
    lines = [f"nous status: agent '{report['agent_id']}'"]
    lines.append(f"  neo4j      {neo4j.get('where') or 'not answering: ' + neo4j['error']}")
    lines.append(f"  llm        {_llm_text(report['llm'])}")
    lines.append(f"  sandbox    {report['sandbox']}")
    if "templates" in report:
        lines.append(f"  templates  {describe_templates(report['templates'])}")
    if "graph_error" in report:
        lines.append(f"  graph      {report['graph_error']}")
    if "daemon" in report:
        lines.append(f"  daemon     {_daemon_text(report['daemon'])}")
        lines.append(f"  baseline   {_baseline_text(report.get('baseline'))}")
        lines.append(f"  acting     {report['operations']['summary']}")
        if "runs" in report:
            lines.extend(render_runs(report["runs"]))
        rsi = report["rsi"]
        lines.append(f"  rsi        {rsi['desires']} desires, {rsi['heuristics']} heuristics")
        lines.append("")
        lines.append(f"last {RECENT} decisions:")
        columns = ["id", "at", "type", "confidence", "status", "template", "path"]
        # A path or a time cut mid-word is a wrong path or time: wrap instead.
        lines.append(table(report["recent_decisions"], columns, empty="  none yet", wrap=True))
    return "\n".join(lines)


def describe_templates(templates: dict[str, Any]) -> str:
    """The ``templates`` line: the file in force, and whether it may run commands."""
    if templates["trusted"]:
        return f"{templates['file']}: trusted ({templates['why']})"
    return (
        f"{templates['file']}: NOT trusted, runs no command ({templates['why']});"
        f" {templates['trust_command']}"
    )


def _baseline_text(baseline: dict[str, Any] | None) -> str:
    if baseline is None:
        return "none yet: the first look at the root records its files, not changes"
    at = baseline["at"]
    when = at.strftime("%Y-%m-%d %H:%M:%S %Z") if hasattr(at, "strftime") else at
    files = baseline["files"]
    count = f"{files:,}" if isinstance(files, int) else "?"
    return f"{count} files (the first look at {baseline['root']}, {when}; not acted on)"


def _llm_text(llm: dict[str, Any]) -> str:
    where = f"{llm['base_url']} model {llm['model']}"
    if not llm["used"]:
        return f"not used (reasoner: rules); {where}"
    answer = "answers" if llm["answers"] else "does not answer (the rules reasoner stands in)"
    fmt = f"; reply format {llm['format']}" if llm.get("format") else ""
    return f"{where}: {answer}{fmt}"


def _daemon_text(daemon: dict[str, Any]) -> str:
    if "since" not in daemon:
        return str(daemon["how"])
    since = daemon["since"]
    when = since.strftime("%Y-%m-%d %H:%M:%S %Z") if hasattr(since, "strftime") else since
    where = f"pid {daemon.get('pid')} on {daemon.get('host')}"
    if daemon["running"]:
        return f"running since {when} ({where}, watching {daemon.get('root')})"
    return f"not running: {daemon['how']} (last started {when}, {where})"


def _data(raw: Any) -> dict[str, Any]:
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}
    return {}
