"""``nous why DECISION_ID|PATH``: the whole story of one decision, as a tree.

What it considered, the frame it was made in, what recall showed it, the
five steps (reasoner, confidence delta, reasoning), the template and its
prompt, every execution and retry with its failure type, the outcome, the
lessons and censors it taught, the censor that stopped it, the escalations
it raised and the heuristics it applied. For a path, its latest decision.
"""

from __future__ import annotations

import argparse
from typing import Any

from graph.store.memory import Memory
from graph.store.turns import TurnStore, tool_results
from scheduler.cli.common import CommandError, cell, common_options, show, with_memory

BLOCKED = "blocked by censor:"
TEXT_WIDTH = 80
LINE_WIDTH = 100


def register(commands: Any) -> None:
    """Add ``nous why``."""
    parser = commands.add_parser(
        "why",
        parents=[common_options()],
        help="the whole story of a decision (by id, or the latest about a path)",
        description="Everything that explains one decision, as a tree. TARGET is a decision id "
        "or a path relative to the watched root (its latest decision).",
    )
    parser.add_argument("target", metavar="DECISION_ID|PATH")
    parser.set_defaults(handler=with_memory(_why))


async def story(memory: Memory, target: str) -> dict[str, Any] | None:
    """Everything about the decision ``target`` names, or None when there is none."""
    rows = await memory.read("audit/decision", decision_id=target)
    if not rows:
        latest = await memory.read("audit/latest_decision_for_path", path=target.lstrip("./"))
        if not latest:
            return None
        rows = await memory.read("audit/decision", decision_id=latest[0]["id"])
    decision_id = rows[0]["decision"]["id"]
    story = dict(rows[0])
    for key, name in (
        ("steps", "audit/decision_steps"),
        ("executions", "audit/executions_for_decision"),
        ("escalations", "audit/escalations_for_decision"),
        ("learned", "audit/lessons_for_decision"),
    ):
        story[key] = await memory.read(name, decision_id=decision_id)
    story["turns"] = [
        {**turn.model_dump(exclude={"tool_results"}), "tool_results": tool_results(turn)}
        for turn in await TurnStore(memory).turns_for_decision(decision_id)
    ]
    return story


async def _why(args: argparse.Namespace, memory: Memory) -> int:
    found = await story(memory, args.target)
    if found is None:
        raise CommandError(
            f"no decision {args.target!r} and no decision about a path {args.target!r}"
            f" for agent {memory.agent_id!r}"
        )
    return show(args, found, render(found))


def render(s: dict[str, Any]) -> str:
    """The story as an indented tree."""
    d = s["decision"]
    out = [
        f"decision {d['id']}: {str(d.get('type', '?')).upper()} at confidence"
        f" {cell(d.get('confidence'))} (raw {cell(d.get('raw_confidence'))}),"
        f" {d.get('reasoner')}{' ' + d['model'] if d.get('model') else ''}",
        f"  at {cell(d.get('at'))} · status {d.get('status')} · path {d.get('path') or '-'}",
    ]
    out.append(f"├─ considered {len(s['observations'])} observation(s)")
    out += [
        f"│    {cell(o.get('at'))} {o.get('type')} {o.get('path') or '-'}"
        f" ({o.get('urgency')}, {o.get('category')})"
        for o in s["observations"]
    ]
    out.append(f"├─ frame {d.get('frame') or '-'}")
    pattern = s.get("pattern")
    pattern_text = (
        f"{pattern['key']} ({pattern.get('successes', 0)}/{pattern.get('total', 0)} succeeded)"
        if pattern
        else "-"
    )
    out.append(f"├─ recall showed {len(s['recalled'])} past decision(s)")
    out.append(f"│    pattern {pattern_text}")
    out += [
        f"│    {cell(p.get('at'))} {p.get('type')} {p.get('path') or '-'}"
        f" → {_success(p.get('outcome_success'))}"
        for p in s["recalled"]
    ]
    out.append(f"├─ reasoning: {len(s['steps'])} steps")
    for step in s["steps"]:
        delta = step.get("confidence_delta") or 0.0
        out.append(
            f"│    {step.get('order')}. {step.get('name')} [{step.get('reasoner')}"
            f"{' ' + step['model'] if step.get('model') else ''}] Δ {delta:+.2f}"
        )
        out.append(f"│       {_short(step.get('reasoning'))}")
        if step.get("error"):
            out.append(f"│       error: {_short(step['error'])}")
    template = s.get("template")
    version = f" v{template['version']}" if template and template.get("version") else ""
    target = f" → {template['target']}" if template and template.get("target") else ""
    out.append(f"├─ template {d.get('template') or '-'}{version}{target}")
    if d.get("prompt"):
        out.append(f"│    parameters/prompt: {_short(d['prompt'])}")
    turns = s.get("turns", [])
    if turns:
        out.append(f"├─ Claude Code turns: {len(turns)}")
    for t in turns:
        out.append(
            f"│    session {t.get('session_id')} · {t.get('status')} · {t.get('outcome') or '-'}:"
            f" {_short(t.get('prompt'))}"
        )
        for r in t["tool_results"]:
            failed = f" → error: {_short(r['error'])}" if r.get("error") else " → ok"
            out.append(f"│       {r.get('tool_name')}{failed}")
            out.append(f"│         input {_short(r.get('arguments'))}")
    out.append(f"├─ executions: {len(s['executions'])}")
    for x in s["executions"]:
        retry = f" (retry of attempt {x['retry_of_attempt']})" if x.get("retry_of_attempt") else ""
        failure = f" · failure {x['failure_type']}" if x.get("failure_type") else ""
        out.append(
            f"│    attempt {x.get('attempt')}{retry}: {x.get('target')} → "
            f"{_success(x.get('success'))}{failure} · verdict {x.get('verdict') or '-'}"
            f" · {cell(x.get('duration_s'))} s"
        )
        if x.get("error"):
            out.append(f"│       error: {_short(x['error'])}")
    outcome = d.get("outcome") or "-"
    out.append(f"├─ outcome {_success(d.get('outcome_success'))}: {_short(outcome)}")
    lessons = [r for r in s["learned"] if r["kind"] == "lesson"]
    censors = [r for r in s["learned"] if r["kind"] == "censor"]
    out.append(f"├─ lessons: {len(lessons)}")
    out += [f"│    {r['type']}: {_short(r['text'])}" for r in lessons]
    out.append(f"├─ censors it filed or fired: {len(censors)}")
    out += [f"│    {r['id']} ({r['severity']}, {r['type']}): {_short(r['text'])}" for r in censors]
    out.append(f"├─ stopped by censor: {_stopped_by(d)}")
    out.append(f"├─ escalations: {len(s['escalations'])}")
    out += [
        f"│    {e['id']} ({e.get('status')}, {e.get('priority')}): {_short(e.get('reason'))}"
        for e in s["escalations"]
    ]
    out.append(f"└─ heuristics applied: {len(s['heuristics'])}")
    out += [
        f"     {h['id']} [{h.get('domain')}]: {_short(h.get('content'))}" for h in s["heuristics"]
    ]
    return "\n".join(_fit(line) for line in out)


def _fit(line: str) -> str:
    # The tree fits a 100-column terminal; the end of a long line is the least telling part.
    return line if len(line) <= LINE_WIDTH else line[: LINE_WIDTH - 1] + "…"


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
