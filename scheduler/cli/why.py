"""``nous why DECISION_ID|PATH``: the whole story of one decision, as a tree.

What it considered, the frame it was made in, what recall showed it, the
five steps (reasoner, confidence delta, reasoning), the template and its
prompt, every execution and retry with its failure type, the outcome, the
lessons and censors it taught, the censor that stopped it, the escalations
it raised and the heuristics it applied. For a path, its latest decision:
the path may be relative to the current folder (the way a shell completes
it) or to the watched root.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from graph.store.memory import Memory
from graph.store.turns import tool_results
from scheduler.cli.common import CommandError, cell, common_options, show, with_memory

BLOCKED = "blocked by censor:"
TEXT_WIDTH = 80
LINE_WIDTH = 100


def register(commands: Any) -> None:
    """Add ``nous why``."""
    parser = commands.add_parser(
        "why",
        parents=[common_options(root=True)],
        help="the whole story of a decision (by id, or the latest about a path)",
        description="Everything that explains one decision, as a tree. TARGET is a decision id "
        "or a path (its latest decision), relative to the current folder or to the watched root.",
    )
    parser.add_argument("target", metavar="DECISION_ID|PATH")
    parser.set_defaults(handler=with_memory(_why))


def path_candidates(target: str, root: Path, cwd: Path) -> list[str]:
    """The root-relative paths ``target`` may mean, in the order they are tried.

    First the path relative to ``cwd`` (or absolute), when it lies inside ``root``;
    then ``target`` read as relative to the root. ``..`` is resolved without
    following links, so a link inside the root keeps its own path.
    """
    base = root.expanduser().resolve()
    candidates: list[str] = []
    here = Path(os.path.normpath(cwd / Path(target).expanduser()))
    if here.is_relative_to(base) and here != base:
        candidates.append(here.relative_to(base).as_posix())
    if not Path(target).is_absolute():
        in_root = os.path.normpath(target).replace(os.sep, "/")
        if in_root not in (".", "..") and not in_root.startswith("../"):
            candidates.append(in_root)
    return list(dict.fromkeys(candidates))


async def _why(args: argparse.Namespace, memory: Memory) -> int:
    root = args.settings.watch.root.expanduser().resolve()  # --root, when given
    tried = path_candidates(args.target, root, Path.cwd())
    found = await memory.audit.decision_story(args.target, tried)
    if found is None:
        where = f" (tried {', '.join(tried)} under {root})" if tried else f" inside {root}"
        if not tried:
            where += " (the path lies outside the watched root)"
        raise CommandError(
            f"no decision {args.target!r} and no decision about a path {args.target!r}"
            f"{where} for agent {memory.agent_id!r}"
        )
    # The Claude Code turns the decision was opened for (nous init claude).
    found["turns"] = [
        {
            **turn.model_dump(exclude={"tool_results", "tool_failed"}),
            "tool_results": tool_results(turn),
        }
        for turn in await memory.turns.turns_for_decision(found["decision"]["id"])
    ]
    return show(args, found, render(found))


def _when(row: dict[str, Any], tail: str) -> str:
    """One observation or past decision under its heading: time, type, path, then ``tail``."""
    return f"│    {cell(row.get('at'))} {row.get('type')} {row.get('path') or '-'}{tail}"


def render(s: dict[str, Any]) -> str:
    """The story as an indented tree."""
    out = [
        *_heading(s),
        *_recall(s),
        *_reasoning(s),
        *_action(s),
        *_turns(s),
        *_executions(s),
        *_learned(s),
    ]
    return "\n".join(_fit(line) for line in out)


def _heading(s: dict[str, Any]) -> list[str]:
    d = s["decision"]
    out = [
        f"decision {d['id']}: {str(d.get('type', '?')).upper()} at confidence"
        f" {cell(d.get('confidence'))} (raw {cell(d.get('raw_confidence'))}),"
        f" {d.get('reasoner')}{' ' + d['model'] if d.get('model') else ''}",
        f"  at {cell(d.get('at'))} · status {d.get('status')} · path {d.get('path') or '-'}",
    ]
    out.append(f"├─ considered {len(s['observations'])} observation(s)")
    out += [_when(o, f" ({o.get('urgency')}, {o.get('category')})") for o in s["observations"]]
    out.append(f"├─ frame {d.get('frame') or '-'}")
    return out


def _recall(s: dict[str, Any]) -> list[str]:
    pattern = s.get("pattern")
    pattern_text = (
        f"{pattern['key']} ({pattern.get('successes', 0)}/{pattern.get('total', 0)} succeeded)"
        if pattern
        else "-"
    )
    out = [f"├─ recall showed {len(s['recalled'])} past decision(s)"]
    out.append(f"│    pattern {pattern_text}")
    out += [_when(p, f" → {_success(p.get('outcome_success'))}") for p in s["recalled"]]
    return out


def _reasoning(s: dict[str, Any]) -> list[str]:
    out = [f"├─ reasoning: {len(s['steps'])} steps"]
    for step in s["steps"]:
        delta = step.get("confidence_delta") or 0.0
        out.append(
            f"│    {step.get('order')}. {step.get('name')} [{step.get('reasoner')}"
            f"{' ' + step['model'] if step.get('model') else ''}] Δ {delta:+.2f}"
        )
        out.append(f"│       {_short(step.get('reasoning'))}")
        if step.get("error"):
            out.append(f"│       error: {_short(step['error'])}")
    return out


def _action(s: dict[str, Any]) -> list[str]:
    d, template = s["decision"], s.get("template")
    version = f" v{template['version']}" if template and template.get("version") else ""
    target = f" → {template['target']}" if template and template.get("target") else ""
    out = [f"├─ template {d.get('template') or '-'}{version}{target}"]
    if d.get("prompt"):
        out.append(f"│    parameters/prompt: {_short(d['prompt'])}")
    return out


def _turns(s: dict[str, Any]) -> list[str]:
    turns = s.get("turns", [])
    out = [f"├─ Claude Code turns: {len(turns)}"] if turns else []
    for t in turns:
        out.append(
            f"│    session {t.get('session_id')} · {t.get('status')} · {t.get('outcome') or '-'}:"
            f" {_short(t.get('prompt'))}"
        )
        if t.get("tool_results_dropped"):
            out.append(
                f"│       {t.get('tool_calls')} tool calls, {t['tool_results_dropped']} not kept"
                " (errors kept first)"
            )
        for r in t["tool_results"]:
            failed = f" → error: {_short(r['error'])}" if r.get("error") else " → ok"
            out.append(f"│       {r.get('tool_name')}{failed}")
            out.append(f"│         input {_short(r.get('arguments'))}")
    return out


def _executions(s: dict[str, Any]) -> list[str]:
    out = [f"├─ executions: {len(s['executions'])}"]
    for x in s["executions"]:
        retry = f" (retry of attempt {x['retry_of_attempt']})" if x.get("retry_of_attempt") else ""
        failure = f" · failure {x['failure_type']}" if x.get("failure_type") else ""
        out.append(f"│    attempt {x.get('attempt')}{retry}: {_ran(x, failure)}")
        if x.get("error"):
            out.append(f"│       error: {_short(x['error'])}")
    d = s["decision"]
    outcome = d.get("outcome") or "-"
    out.append(f"├─ outcome {_success(d.get('outcome_success'))}: {_short(outcome)}")
    return out


def _learned(s: dict[str, Any]) -> list[str]:
    lessons = [r for r in s["learned"] if r["kind"] == "lesson"]
    censors = [r for r in s["learned"] if r["kind"] == "censor"]
    out = [f"├─ lessons: {len(lessons)}"]
    out += [f"│    {r['type']}: {_short(r['text'])}" for r in lessons]
    out.append(f"├─ censors it filed or fired: {len(censors)}")
    out += [f"│    {r['id']} ({r['severity']}, {r['type']}): {_short(r['text'])}" for r in censors]
    out.append(f"├─ stopped by censor: {_stopped_by(s['decision'])}")
    out.append(f"├─ escalations: {len(s['escalations'])}")
    out += [
        f"│    {e['id']} ({e.get('status')}, {e.get('priority')}): {_short(e.get('reason'))}"
        for e in s["escalations"]
    ]
    out.append(f"└─ heuristics applied: {len(s['heuristics'])}")
    out += [
        f"     {h['id']} [{h.get('domain')}]: {_short(h.get('content'))}" for h in s["heuristics"]
    ]
    return out


def _fit(line: str) -> str:
    # The tree fits a 100-column terminal; the end of a long line is the least telling part.
    return line if len(line) <= LINE_WIDTH else line[: LINE_WIDTH - 1] + "…"


def _ran(x: dict[str, Any], failure: str) -> str:
    """What an attempt came to; a dry run's attempt says that nothing was run."""
    if x.get("dry_run"):
        # The dry-run executor "succeeds" at recording what it would have run: not a success.
        return f"{x.get('target')} → dry run: not executed{failure}"
    return (
        f"{x.get('target')} → {_success(x.get('success'))}{failure}"
        f" · verdict {x.get('verdict') or '-'} · {cell(x.get('duration_s'))} s"
    )


def _stopped_by(d: dict[str, Any]) -> str:
    for text in (d.get("escalation_reason"), d.get("reasoning")):
        if isinstance(text, str) and BLOCKED in text:
            return _short(text[text.index(BLOCKED) + len(BLOCKED) :].strip())
    return "none"


def _success(value: Any) -> str:
    return {True: "succeeded", False: "failed"}.get(value, "pending") if value is not None else "-"


def _short(text: Any) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= TEXT_WIDTH else flat[: TEXT_WIDTH - 1] + "…"
