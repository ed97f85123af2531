"""Whether a template can be filled for an observation: a template that cannot is not offered."""

from __future__ import annotations

from cognition.act.render import EXTRA, Parameter, ValueProblem, fill
from cognition.act.templates import ActionTemplate
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
