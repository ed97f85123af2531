"""The daemon's banner: where the memory is, how to look at it, what is watched and what runs.

Printed once at start, each thing once: the LLM endpoint on one line (where,
which model, whether it answers, the format it accepts), the reasoning mode
on another.
"""

from __future__ import annotations

from typing import TextIO

from graph.settings import Settings, state_dir
from rsi.confine import describe as describe_sandbox
from scheduler.compose.daemon import Nous
from scheduler.guide.serve import GuideServer


def print_banner(
    nous: Nous,
    jobs: list[str],
    *,
    out: TextIO,
    guide: GuideServer | None = None,
    llm: bool | None = None,
) -> None:
    """Print the banner; ``llm`` is whether the endpoint answered (None: not used)."""
    browser = nous.endpoint.browser_url or "not served by this Neo4j (use any Neo4j Browser)"
    settings = nous.settings
    lines = [
        f"nous: agent '{settings.agent_id}'",
        f"  memory   {nous.endpoint.describe()}",
        f"  browser  {browser}",
        f"  guide    {f':play {guide.url}' if guide else 'not served'}; `nous why PATH` explains",
        f"  llm      {_llm(nous, llm)}",
        f"  watching {nous.root} ({len(settings.watch.ignore_patterns)} ignore patterns)",
        f"  thinking {reasoning(settings)}",
        f"  actions  {len(nous.runtime.templates)} templates ({nous.runtime.templates.file});"
        f" {_acting(settings)}{_untrusted(nous)}",
        f"  strategy {_strategies(nous)}",
        f"  sandbox  {describe_sandbox()}",
        f"  jobs     {', '.join(jobs)}",
        "  stop     Ctrl-C (Neo4j keeps running; `nous neo4j stop` stops it)",
    ]
    print("\n".join(lines), file=out)
    out.flush()


def reasoning(settings: Settings) -> str:
    """How the loop deliberates: rules, or the LLM (and in which mode)."""
    if settings.reasoner == "rules":
        return "rules reasoner (no LLM)"
    mode = "LLM only" if settings.reasoner == "llm" else "LLM when it answers, else rules"
    return f"{mode} ({settings.llm.deliberation})"


def _llm(nous: Nous, answered: bool | None) -> str:
    if answered is None:
        return "not used (rules reasoner)"
    settings = nous.settings
    where = f"{settings.llm.base_url} model {settings.llm.model}"
    if not answered and settings.reasoner != "llm":
        return f"{where}: does not answer (the rules reasoner stands in)"
    # The state says whether it answers, the model it serves and the format it took.
    return f"{where}: {nous.runtime.llm.state.describe()}"


def _strategies(nous: Nous) -> str:
    carried = nous.runtime.rsi.strategies.current
    where = state_dir(nous.root) / "strategies.md"
    return f"{len(carried.strategy_ids)} learned strategies carried in every prompt ({where})"


def _untrusted(nous: Nous) -> str:
    trust = nous.trust
    if trust is None or trust.trusted:
        return ""
    return f" (templates not trusted: {trust.why}; {trust.trust_command(nous.root)})"


def _acting(settings: Settings) -> str:
    budget = settings.budget
    how = "dry run (nothing executed)" if settings.executors.dry_run else "executors live"
    return f"{how}; at most {budget.actions_per_hour}/hour, {budget.max_concurrent} at once"
