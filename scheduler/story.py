"""The whole story of one decision as a tree of text: what ``nous why`` and the MCP ``why`` show.

What it considered, the frame it was made in, what recall showed it, the
five steps (reasoner, confidence delta, reasoning), the template and its
prompt, every execution and retry with its failure type, the outcome, the
lessons and censors it taught, the censor that stopped it, the escalations
it raised and the heuristics it applied. It reads
:class:`graph.store.rows.audit.DecisionStory` (and the Claude Code turns the
decision was opened for); :func:`path_candidates` says which paths a target
may name.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from graph.store.turns import tool_results
from scheduler.cells import cell

if TYPE_CHECKING:
    from graph.models import Turn
    from graph.store.rows.audit import AttemptRow, DecisionStory

BLOCKED = "blocked by censor:"
TEXT_WIDTH = 80
LINE_WIDTH = 100


def path_candidates(target: str, root: Path, cwd: Path) -> list[str]:
    """The root-relative paths ``target`` may mean, in the order they are tried.

    First the path relative to ``cwd`` (or absolute), when it lies inside ``root``;
    then ``target`` read as relative to the root. ``..`` is resolved without
    following links, so a link inside the root keeps its own path.
    """
    base = root.expanduser().resolve()
    candidates = []
    here = Path(os.path.normpath(cwd / Path(target).expanduser()))
    if here.is_relative_to(base) and here != base:
        candidates.append(here.relative_to(base).as_posix())
    if not Path(target).is_absolute():
        in_root = os.path.normpath(target).replace(os.sep, "/")
        if in_root not in (".", "..") and not in_root.startswith("../"):
            candidates.append(in_root)
    return list(dict.fromkeys(candidates))


def render(s: DecisionStory, turns: Sequence[Turn] = ()) -> str:
    """The story (and the turns the decision was opened for) as an indented tree."""
    out = [
        *_heading(s),
        *_recall(s),
        *_reasoning(s),
        *_action(s),
        *_turns(turns),
        *_executions(s),
        *_learned(s),
    ]
    return "\n".join(_fit(line) for line in out)


def _heading(s: DecisionStory) -> list[str]:
    d = s.decision
    out = [
        f"decision {d.id}: {d.type.value.upper()} at confidence"
        f" {cell(d.confidence)} (raw {cell(d.raw_confidence)}),"
        f" {d.reasoner.value}{' ' + d.model if d.model else ''}",
        f"  at {cell(d.at)} · status {d.status.value} · path {d.path or '-'}",
    ]
    out.append(f"├─ considered {len(s.observations)} observation(s)")
    out += [
        f"│    {cell(o.at)} {o.type} {o.path or '-'} ({o.urgency}, {o.category})"
        for o in s.observations
    ]
    out.append(f"├─ frame {d.frame or '-'}")
    return out


def _recall(s: DecisionStory) -> list[str]:
    p = s.pattern
    pattern_text = f"{p.key} ({p.successes}/{p.total} succeeded)" if p else "-"
    out = [f"├─ recall showed {len(s.recalled)} past decision(s)"]
    out.append(f"│    pattern {pattern_text}")
    out += [
        f"│    {cell(r.at)} {r.type} {r.path or '-'} → {_success(r.outcome_success)}"
        for r in s.recalled
    ]
    return out


def _reasoning(s: DecisionStory) -> list[str]:
    out = [f"├─ reasoning: {len(s.steps)} steps"]
    for step in s.steps:
        delta = step.confidence_delta or 0.0
        out.append(
            f"│    {step.order}. {step.name} [{step.reasoner}"
            f"{' ' + step.model if step.model else ''}] Δ {delta:+.2f}"
        )
        out.append(f"│       {_short(step.reasoning)}")
        if step.error:
            out.append(f"│       error: {_short(step.error)}")
    return out


def _action(s: DecisionStory) -> list[str]:
    d, template = s.decision, s.template
    version = f" v{template.version}" if template and template.version else ""
    target = f" → {template.target}" if template and template.target else ""
    out = [f"├─ template {d.template or '-'}{version}{target}"]
    if d.prompt:
        out.append(f"│    parameters/prompt: {_short(d.prompt)}")
    return out


def _turns(turns: Sequence[Turn]) -> list[str]:
    out = [f"├─ Claude Code turns: {len(turns)}"] if turns else []
    for t in turns:
        out.append(
            f"│    session {t.session_id} · {t.status} · {t.outcome or '-'}: {_short(t.prompt)}"
        )
        if t.tool_results_dropped:
            out.append(
                f"│       {t.tool_calls} tool calls, {t.tool_results_dropped} not kept"
                " (errors kept first)"
            )
        for r in tool_results(t):
            failed = f" → error: {_short(r.error)}" if r.error else " → ok"
            out.append(f"│       {r.tool_name}{failed}")
            out.append(f"│         input {_short(r.arguments)}")
    return out


def _executions(s: DecisionStory) -> list[str]:
    out = [f"├─ executions: {len(s.executions)}"]
    for x in s.executions:
        retry = f" (retry of attempt {x.retry_of_attempt})" if x.retry_of_attempt else ""
        failure = f" · failure {x.failure_type}" if x.failure_type else ""
        out.append(f"│    attempt {x.attempt}{retry}: {_ran(x, failure)}")
        if x.error:
            out.append(f"│       error: {_short(x.error)}")
    d = s.decision
    out.append(f"├─ outcome {_success(d.outcome_success)}: {_short(d.outcome or '-')}")
    return out


def _learned(s: DecisionStory) -> list[str]:
    lessons = [r for r in s.learned if r.kind == "lesson"]
    censors = [r for r in s.learned if r.kind == "censor"]
    out = [f"├─ lessons: {len(lessons)}"]
    out += [f"│    {r.type}: {_short(r.text)}" for r in lessons]
    out.append(f"├─ censors it filed or fired: {len(censors)}")
    out += [f"│    {r.id} ({r.severity}, {r.type}): {_short(r.text)}" for r in censors]
    out.append(f"├─ stopped by censor: {_stopped_by(s)}")
    out.append(f"├─ escalations: {len(s.escalations)}")
    out += [f"│    {e.id} ({e.status}, {e.priority}): {_short(e.reason)}" for e in s.escalations]
    out.append(f"└─ heuristics applied: {len(s.heuristics)}")
    out += [f"     {h.id} [{h.domain}]: {_short(h.content)}" for h in s.heuristics]
    return out


def _fit(line: str) -> str:
    # The tree fits a 100-column terminal; the end of a long line is the least telling part.
    return line if len(line) <= LINE_WIDTH else line[: LINE_WIDTH - 1] + "…"


def _ran(x: AttemptRow, failure: str) -> str:
    """What an attempt came to; a dry run's attempt says that nothing was run."""
    if x.dry_run:
        # The dry-run executor "succeeds" at recording what it would have run: not a success.
        return f"{x.target} → dry run: not executed{failure}"
    return (
        f"{x.target} → {_success(x.success)}{failure}"
        f" · verdict {x.verdict or '-'} · {cell(x.duration_s)} s"
    )


def _stopped_by(s: DecisionStory) -> str:
    for text in (s.decision.escalation_reason, s.decision.reasoning):
        if isinstance(text, str) and BLOCKED in text:
            return _short(text[text.index(BLOCKED) + len(BLOCKED) :].strip())
    return "none"


def _success(value: bool | None) -> str:
    return {True: "succeeded", False: "failed"}.get(value, "pending") if value is not None else "-"


def _short(text: object) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= TEXT_WIDTH else flat[: TEXT_WIDTH - 1] + "…"
