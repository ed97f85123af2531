"""A decision context rendered as prompt text, section by section, within the frame's budget.

Order (seed 004's assembly order, with seed 000's decision sections placed
where they belong): identity, censors, frame, working memory, observations
with the file's content, goals, past decisions, pattern statistics,
available actions, facts, procedures, episodes, lessons. The learned
strategies are not a section: the system prompt carries them, with the ids
a DECIDE reply names (:mod:`cognition.carried`).

Budgets: :func:`cognition.frames.budget.section_budgets` (tokens,
estimated as characters / 4).

A section whose budget is 0 is skipped: not in the text, listed in
:attr:`RenderedContext.sections` with an empty content and the number of
items it had. A section over its budget is cut, never silently: list
sections drop whole items from the end and say how many
("[… 3 more past decisions not shown (budget 500 tokens)]"), a long first
item or free text is cut with "[… truncated 1,234 characters]". The marker
itself is never dropped, so a tiny budget may be exceeded by it.
"""

from __future__ import annotations

from cognition.context.fit import (
    Part,
    count_items,
    fit_items,
    fit_text,
    format_censor,
    format_file,
    format_frame,
    format_pattern,
    format_working_memory,
    group_decisions,
)
from cognition.frames.budget import SECTION_ORDER, section_budgets
from cognition.schemas import ContextSection, DecisionContext, RenderedContext
from cognition.text import CHARS_PER_TOKEN, estimate_tokens, plain_text

__all__ = ["CHARS_PER_TOKEN", "SECTION_ORDER", "render_context", "section_budgets"]

_HEADINGS = {
    "identity": "Identity",
    "censors": "Censors (always apply)",
    "frame": "Frame",
    "working_memory": "Working memory",
    "observations": "Observations",
    "goals": "Goals",
    "decisions": "Past decisions",
    "patterns": "Pattern statistics",
    "templates": "Available actions",
    "facts": "Facts",
    "procedures": "Procedures",
    "episodes": "Episodes",
    "lessons": "Lessons",
    "similar": "Similar by meaning",
}
_NOUNS = {
    "censors": "censors",
    "working_memory": "open threads",
    "observations": "observations",
    "goals": "goals",
    "decisions": "past decisions",
    "patterns": "patterns",
    "templates": "actions",
    "facts": "facts",
    "procedures": "procedures",
    "episodes": "episodes",
    "lessons": "lessons",
    "similar": "similar memories",
}


def render_context(context: DecisionContext, *, identity: str) -> RenderedContext:
    """Render ``context`` as prompt text under its frame's budget, section by section."""
    budgets = section_budgets(context.frame.budget)
    sections = [
        _section(name, _parts(name, context, identity), budgets[name]) for name in SECTION_ORDER
    ]
    text = "\n\n".join(s.content for s in sections if s.content)
    return RenderedContext(text=text, sections=sections, token_estimate=estimate_tokens(text))


def _parts(name: str, ctx: DecisionContext, identity: str) -> list[Part]:
    """The section's content before budgeting: free text or items, in order."""
    if name == "identity":
        return [Part(identity.strip(), text=True)] if identity.strip() else []
    if name == "censors":
        ordered = sorted(ctx.censors, key=lambda c: (c.severity != "block", -c.fire_count))
        return [Part(format_censor(c)) for c in ordered]
    if name == "frame":
        return [Part(format_frame(ctx.frame, ctx.investigation_round), text=True)]
    if name == "working_memory":
        return format_working_memory(ctx.working_memory)
    if name == "observations":
        # The file belongs to the primary observation, and matters more than the tail of a batch.
        lines = [Part("- " + plain_text(o.to_context_string())) for o in ctx.observations]
        found = [Part("- investigation found: " + plain_text(f)) for f in ctx.findings]
        return lines[:1] + format_file(ctx.file) + found + lines[1:]
    if name == "goals":
        return [Part(f"- {plain_text(g.description)} (priority {g.priority})") for g in ctx.goals]
    if name == "decisions":
        return group_decisions(ctx.past_decisions)
    if name == "patterns":
        return [Part(format_pattern(p)) for p in ctx.patterns]
    if name == "templates":
        return [
            Part(f"- {plain_text(t.name)} → {plain_text(t.target)}: {plain_text(t.description)}")
            for t in ctx.templates
        ]
    recalled = {
        "facts": ctx.facts,
        "procedures": ctx.procedures,
        "episodes": ctx.episodes,
        "lessons": ctx.lessons,
        "similar": ctx.similar,
    }[name]
    return [Part(f"- {plain_text(r.text)}") for r in recalled]


def _section(name: str, parts: list[Part], budget: int) -> ContextSection:
    items = count_items(parts)
    if budget <= 0:
        return ContextSection(
            label=name, content="", token_estimate=0, budget=0, omitted_items=items
        )
    if not parts:
        return ContextSection(label=name, content="", token_estimate=0, budget=budget)
    heading = f"## {_HEADINGS[name]}"
    room = budget * CHARS_PER_TOKEN - len(heading) - 1
    if len(parts) == 1 and parts[0].text:
        body, omitted = fit_text(parts[0].body, room), 0
        truncated = body != parts[0].body
    else:
        body, truncated, omitted = fit_items(parts, room, _NOUNS.get(name, "items"), budget)
    content = f"{heading}\n{body}"
    return ContextSection(
        label=name,
        content=content,
        token_estimate=estimate_tokens(content),
        budget=budget,
        truncated=truncated,
        omitted_items=omitted,
    )
