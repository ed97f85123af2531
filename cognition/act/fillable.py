"""Whether a template can be filled for an observation, and the templates recall offers for one."""

from __future__ import annotations

from cognition.act.conditions import FileFacts
from cognition.act.fill import ValueProblem, fill
from cognition.act.render import EXTRA, Parameter
from cognition.act.templates import ActionTemplate, TemplateRegistry
from cognition.schemas import FileView, TemplateOption
from graph.models.observe import Observation


def can_fill(
    template: ActionTemplate,
    observation: Observation,
    content_preview: str | None,
    *,
    reasoner_supplies: bool,
) -> bool:
    """Whether every required parameter of ``template`` can get a value for ``observation``.

    Values come from the observation (sources, extraction rules, defaults);
    with ``reasoner_supplies`` (an LLM that may answer DECIDE with parameters)
    a parameter whose only source is ``extra`` counts as fillable. The summary
    and key facts come from deliberation, so they count as there.
    """
    extra: dict[str, str] = {}
    if reasoner_supplies:
        for name, spec in template.parameters.items():
            if spec.source_for(name) in (None, EXTRA):
                extra[name] = _sample(spec)
    try:
        fill(
            template.prompt_template,
            template.parameters,
            observation,
            summary="(summary)",
            key_facts=["(fact)"],
            content_preview=content_preview,
            extra=extra,
        )
    except ValueProblem:
        return False
    return True


def _sample(spec: Parameter) -> str:
    if spec.type == "enum":
        return (spec.values or ["x"])[0]
    return "1" if spec.type == "integer" else "x"


def template_options(
    templates: TemplateRegistry,
    observation: Observation,
    file: FileView | None,
    *,
    reasoner_supplies: bool = False,
) -> list[TemplateOption]:
    """The templates that match an observation and can be filled, as recall offers them.

    A template whose required parameters cannot get a value (from the
    observation, its extraction rules, or, with ``reasoner_supplies``, an
    LLM's DECIDE reply) is not offered: acting on it could only fail.
    """
    error_count = observation.metadata.get("error_count", 0)
    facts = FileFacts(
        size=file.size if file else None,
        content_head=file.content_head if file else None,
        error_count=error_count if isinstance(error_count, int) else 0,
    )
    content = file.content_head if file else None
    return [
        TemplateOption(
            name=t.name,
            description=t.description,
            target=t.target,
            parameters=[n for n, p in t.parameters.items() if p.source_for(n) in (None, "extra")],
        )
        for t in templates.match(observation, facts)
        if can_fill(t, observation, content, reasoner_supplies=reasoner_supplies)
    ]
