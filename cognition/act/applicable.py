"""Whether any loaded template could ever act on an observation.

The decision loop asks this before it opens a WAIT chain: an observation no
template could act on, now or after its file changes again, is settled in
one step. The answer looks only at what an observation cannot change about
itself (its type, category and path, and its metadata); what depends on the
file's content, size or past failures counts as "could hold", so the answer
errs towards keeping a chain open, never towards dropping one that could act.
"""

from __future__ import annotations

from cognition.act.conditions import FileFacts, glob_match
from cognition.act.templates import ActionTemplate, TemplateRegistry
from graph.models.observe import Observation

__all__ = ["applicable_templates", "could_apply", "static_misfit", "why_not"]


def applicable_templates(
    observation: Observation, templates: TemplateRegistry
) -> list[ActionTemplate]:
    """The templates that could act on ``observation``, in file order; empty if none could.

    A template counts when its trigger's category, observation types and path
    globs match, and its conditions that need only the observation hold
    (``extensions``, ``not_path_suffixes``, ``not_path_patterns``, ``metadata_equals``,
    ``metadata_in``). Content
    (``content_patterns``, ``content_contains_any``), size and error count are
    not looked at: they may hold later. A change the agent made itself
    (``caused_by`` set) can start nothing, so it gets no template; nor does a
    template the user has not turned on (``enabled: false``).
    """
    if observation.caused_by is not None and observation.is_file_change:
        return []
    return [t for t in templates if t.enabled and could_apply(t, observation)]


def could_apply(template: ActionTemplate, observation: Observation) -> bool:
    """Whether ``template`` could act on ``observation`` (see :func:`applicable_templates`)."""
    return not static_misfit(template, observation)


def static_misfit(template: ActionTemplate, observation: Observation) -> str | None:
    """Why ``template`` can never act on ``observation``, or None if it could."""
    trigger, conditions = template.trigger, template.conditions
    category = trigger.observation_category
    if category is not None and observation.category != category:
        return f"wants category {category.value}, the change is {observation.category.value}"
    if trigger.observation_types and observation.type not in trigger.observation_types:
        kinds = ", ".join(kind.value for kind in trigger.observation_types)
        return f"wants {kinds}, the change is {observation.type.value}"
    path = observation.path
    if trigger.path_patterns and trigger.best_pattern(path) is None:
        return f"no path pattern matches ({', '.join(trigger.path_patterns)})"
    extensions = tuple(ext.lower() for ext in conditions.extensions)
    if extensions and (path is None or not path.lower().endswith(extensions)):
        return f"the path does not end in {', '.join(conditions.extensions)}"
    if path is not None and path.endswith(tuple(conditions.not_path_suffixes)):
        return f"the path ends in one of {', '.join(conditions.not_path_suffixes)}"
    excluded = [p for p in conditions.not_path_patterns if path is not None and glob_match(p, path)]
    if excluded:
        return f"the path matches {excluded[0]}, which the template leaves out"
    return conditions.metadata_misfit(observation)


def why_not(template: ActionTemplate, observation: Observation, facts: FileFacts) -> str | None:
    """Why ``template`` would not act on ``observation`` now (``facts`` of its file), or None.

    For ``nous templates explain``: the first reason, in the order a person
    checks them (turned off, the change itself, the file's content and size).
    """
    if not template.enabled:
        return "turned off (enabled: false)"
    if observation.caused_by is not None and observation.is_file_change:
        return "the agent's own edit starts nothing"
    static = static_misfit(template, observation)
    if static is not None:
        return static
    trigger, conditions = template.trigger, template.conditions
    for needles in (trigger.content_patterns, conditions.content_contains_any):
        if needles and not _has_any(facts.content_head, needles):
            return "the file's first bytes have none of " + ", ".join(map(repr, needles))
    limit = conditions.max_size_bytes
    if limit is not None and (facts.size is None or facts.size > limit):
        return f"the file is not known to be at most {limit} bytes"
    errors = conditions.max_error_count
    if errors is not None and facts.error_count > errors:
        return f"it failed {facts.error_count} times already (max_error_count {errors})"
    return None


def _has_any(content: str | None, needles: list[str]) -> bool:
    folded = (content or "").casefold()
    return content is not None and any(needle.casefold() in folded for needle in needles)
