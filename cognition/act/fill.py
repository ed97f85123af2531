"""Filling a template: each parameter's value found, checked, and the prompt rendered.

A value is looked for in order (what the reasoner passed, the parameter's
source, its extraction rule, its default) and checked against its type by
:func:`cognition.act.render.coerce`; the prompt is then written by
:func:`cognition.act.render.render`, which fences every value that may hold prose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from cognition.act.render import (
    AUTOMATIC,
    EXTRA,
    FENCED_TYPES,
    METADATA_PREFIX,
    Extract,
    Parameter,
    RenderValue,
    coerce,
    line_after,
    placeholders,
    render,
    slugify,
)
from cognition.errors import CognitionError
from graph.models.observe import Observation
from graph.watch.files import check_relative_path


class ValueProblem(CognitionError, ValueError):
    """A value that cannot go into the prompt; ``key`` names the parameter.

    ``about_path`` is true when the value is a path that cannot be used: the
    observation's fault, not the template file's.
    """

    def __init__(self, key: str, message: str, *, about_path: bool = False) -> None:
        super().__init__(message)
        self.key = key
        self.about_path = about_path


def fill(
    prompt_template: str,
    parameters: Mapping[str, Parameter],
    observation: Observation,
    *,
    summary: str,
    key_facts: Sequence[str],
    content_preview: str | None,
    extra: Mapping[str, str],
) -> tuple[str, dict[str, str]]:
    """Find every value ``prompt_template`` and ``parameters`` need; render the prompt.

    A parameter's value is ``extra[name]`` if given, else its source (an
    automatic value, the observation's ``metadata.<key>``, nothing for
    ``extra``), else its default; an empty string counts as no value. Returns
    the prompt and the values as text (declared parameters that have one, and
    the automatic values the prompt uses). Raises :class:`ValueProblem`.
    """
    undeclared = sorted(set(extra) - set(parameters))
    if undeclared:
        raise ValueProblem("extra", f"not declared parameters: {', '.join(undeclared)}")
    automatic = _automatic_values(observation, summary, key_facts, content_preview)
    values: dict[str, RenderValue] = {}
    params: dict[str, str] = {}
    # A slug_of rule reads another parameter's value: those come last.
    ordered = sorted(
        parameters.items(),
        key=lambda item: item[1].extract is not None and item[1].extract.slug_of is not None,
    )
    for name, spec in ordered:
        raw = _raw_value(
            name, spec, extra.get(name), observation, automatic, content_preview, params
        )
        value = values[name] = _declared_value(name, spec, raw)
        if value.text is not None:
            params[name] = value.text
    for name in placeholders(prompt_template):
        if name not in values:
            value = values[name] = _automatic_value(name, automatic[name] or None)
            if value.text is not None:
                params[name] = value.text
    return render(prompt_template, values), params


def _raw_value(
    name: str,
    spec: Parameter,
    given: object,
    observation: Observation,
    automatic: Mapping[str, str | None],
    content_preview: str | None,
    found: Mapping[str, str],
) -> object:
    """The first value of: ``given`` (from extra), the source, the extraction rule, the default."""
    source = spec.source_for(name)
    raw = given
    if raw is None and source is not None and source != EXTRA:
        if source.startswith(METADATA_PREFIX):
            raw = observation.metadata.get(source[len(METADATA_PREFIX) :])
        else:
            raw = automatic[source]
    # An empty string counts as no value, so the next way of finding one is tried.
    if (raw is None or raw == "") and spec.extract is not None:
        raw = _extracted(spec.extract, content_preview, found)
    if raw is None or raw == "":
        raw = spec.default
    return raw


def _declared_value(name: str, spec: Parameter, raw: object) -> RenderValue:
    """``raw`` checked against the parameter's type; a required one without a value fails."""
    source = spec.source_for(name)
    auto = AUTOMATIC.get(source) if source is not None else None
    label = auto[1] if auto is not None else f"parameter {name!r}"
    if raw is None:
        if spec.required:
            origin = "extra" if source in (None, EXTRA) else f"its source {source!r}"
            raise ValueProblem(f"parameters.{name}", f"required, but {origin} gave no value")
        return RenderValue(None, False, label)
    try:
        text = coerce(spec, raw)
    except ValueError as exc:
        raise ValueProblem(f"parameters.{name}", str(exc), about_path=spec.type == "path") from None
    return RenderValue(text, spec.type in FENCED_TYPES, label)


def _automatic_value(name: str, value: str | None) -> RenderValue:
    """An automatic value the prompt uses without declaring it; a path must stay relative."""
    kind, label = AUTOMATIC[name]
    if value is not None and kind == "path":
        try:
            check_relative_path(value)
        except ValueError as exc:
            raise ValueProblem(name, str(exc), about_path=True) from None
    return RenderValue(value, kind in FENCED_TYPES, label)


def _extracted(rule: Extract, content: str | None, found: Mapping[str, str]) -> str | None:
    if rule.line_after is not None:
        return line_after(content, rule.line_after)
    source = found.get(rule.slug_of or "")
    return slugify(source) or None if source else None


def _automatic_values(
    observation: Observation,
    summary: str,
    key_facts: Sequence[str],
    content_preview: str | None,
) -> dict[str, str | None]:
    path = observation.path
    kind = observation.type.value
    from_path = observation.metadata.get("from_path")
    return {
        "path": path,
        "from_path": str(from_path) if from_path is not None else None,
        "file_name": PurePosixPath(path).name if path else None,
        # "file_created" -> "created", as the seed's change_type; other types as they are.
        "change_type": kind.removeprefix("file_") if observation.is_file_change else kind,
        "observation_type": kind,
        "category": observation.category.value,
        "content_preview": content_preview,
        "summary": summary,
        "key_facts": "\n".join(f"- {fact}" for fact in key_facts) or None,
    }
