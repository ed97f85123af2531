"""The Neo4j Browser guide: slides generated from the files of ``cypher/audit/``.

The guide is the HTML that Browser's ``:play URL`` renders: an
``<article class="guide">`` holding a ``<carousel>`` of ``<slide>`` elements;
a ``<pre class="code runnable">`` block is put into the editor with one
click. Every slide carries its audits' text as it is in the files (header
comments included), so the guide and ``nous audit`` never drift; an audit
file no slide names lands on a last slide of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape

from graph.store.queries import QueryLibrary
from scheduler.guide.style import grass


@dataclass(frozen=True)
class Slide:
    """One slide: a title, a lead paragraph and the audits it runs, by name."""

    title: str
    lead: str
    audits: tuple[str, ...]


SLIDES = (
    Slide(
        "What the memory holds",
        "How many nodes of each kind this agent keeps, what it is busy with, its goals. "
        "Run the style block first: every label gets a colour and a caption.",
        ("memory_counts", "operations", "goals", "latest_events"),
    ),
    Slide(
        "The latest decisions, and why",
        "Each decision with what it was about, its confidence and what came of it; "
        "the latest one as a graph.",
        ("recent_decisions", "decision_graph", "latest_decision_for_path"),
    ),
    Slide(
        "One decision's full story",
        "Set decision_id to an id from the slide before (or run `nous why ID`), then "
        "follow it: its steps, executions and retries, links, lessons and own edits.",
        (
            "decision",
            "decision_steps",
            "executions_for_decision",
            "decision_links",
            "lessons_for_decision",
            "own_edits",
        ),
    ),
    Slide(
        "Escalations",
        "Decisions handed to a person. Close one with `nous escalations resolve ID --note …`.",
        ("open_escalations", "escalation", "escalations_for_decision"),
    ),
    Slide(
        "Censors",
        "What the agent will not do again: warn, then block. `nous censors lift ID` lifts one.",
        ("censors",),
    ),
    Slide(
        "Patterns and calibration",
        "How each kind of decision fared, and whether confidence predicts success.",
        ("patterns", "calibration"),
    ),
    Slide("Episodes", "One episode per daemon run or chat session.", ("episodes",)),
    Slide(
        "Claude Code sessions",
        "With `nous init claude`, every prompt in Claude Code is a Turn: its frame, its "
        "tool calls and errors, the decision it was for. `nous why DECISION_ID` tells one.",
        ("claude_turns",),
    ),
    Slide(
        "Desires, trajectories and heuristics",
        "Self-improvement: what the agent wants to get better at, and the strategies it "
        "distilled from practice (with the trajectories they came from).",
        ("desires", "trajectories", "heuristics", "heuristic"),
    ),
)


def guide_html(agent_id: str, library: QueryLibrary | None = None) -> str:
    """The guide for one agent, every audit query of ``cypher/audit/`` on a slide."""
    library = library or QueryLibrary()
    names = [n.split("/", 1)[1] for n in library.names("audit")]
    slides = list(SLIDES)
    named = {a for s in slides for a in s.audits}
    missing = tuple(n for n in names if n not in named)
    if missing:
        slides.append(Slide("More audits", "The other queries of cypher/audit/.", missing))
    body = [_first_slide_extras(agent_id)]
    parts = []
    for index, slide in enumerate(slides):
        extra = body[0] if index == 0 else ""
        parts.append(_slide(slide, library, extra))
    return (
        '<article class="guide">\n<carousel class="deck container-fluid">\n'
        + "\n".join(parts)
        + "\n</carousel>\n</article>\n"
    )


def params_command(agent_id: str) -> str:
    """The ``:params`` command that sets what the audits need."""
    params = {"agent_id": agent_id, "limit": 25, "decision_id": "", "escalation_id": ""}
    params |= {"execution_id": "", "heuristic_id": "", "path": "", "type": "daemon_started"}
    params["window_s"] = 3600
    text = ", ".join(f"{k}: {json.dumps(v)}" for k, v in params.items())
    return f":params {{{text}}}"


def _first_slide_extras(agent_id: str) -> str:
    return (
        "<p>1. Set the parameters (agent <code>"
        + escape(agent_id)
        + "</code>):</p>\n"
        + _runnable(params_command(agent_id))
        + "<p>2. Apply the Nous style (one click, then run):</p>\n"
        + _runnable(":style\n" + grass())
    )


def _slide(slide: Slide, library: QueryLibrary, extra: str) -> str:
    blocks = []
    for name in slide.audits:
        query = library.get(f"audit/{name}")
        purpose = " ".join(query.headers.get("purpose", "").split())
        blocks.append(
            f"<h4>{escape(name)}</h4>\n<p>{escape(purpose)}</p>\n{_runnable(query.text.strip())}"
        )
    return (
        '<slide class="row-fluid">\n<div class="col-sm-3">\n'
        f'<h3>{escape(slide.title)}</h3>\n<p class="lead">{escape(slide.lead)}</p>\n</div>\n'
        f'<div class="col-sm-9">\n{extra}{"".join(blocks)}</div>\n</slide>'
    )


def _runnable(text: str) -> str:
    return f'<pre class="pre-scrollable code runnable">{escape(text)}</pre>\n'
