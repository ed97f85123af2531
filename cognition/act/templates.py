"""Action templates: what Nous may do, when, and the prompt it hands over (seed 000, part III).

Templates live in a YAML file (``Settings.templates_file``, or the shipped
``templates.yaml`` beside this module), checked whole when it is loaded: a
broken file, an unknown key, a placeholder nothing fills, a bad glob or target
raises :class:`TemplateError` naming the file, the template and the key.
When a template applies is declarative (:mod:`cognition.act.conditions`);
prompts are rendered by :mod:`cognition.act.render`. Nothing read from the
file is ever evaluated as code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from cognition.act.command import ARGV_PARAM, command_problems, render_command
from cognition.act.conditions import Conditions, FileFacts, Trigger, specificity
from cognition.act.criteria import Criterion, criterion_problems, resolve_glob
from cognition.act.executors import FUNCTION_PARAM
from cognition.act.fill import ValueProblem, fill
from cognition.act.render import AUTOMATIC, Parameter, leftover_syntax, placeholders
from cognition.act.template_yaml import problem_lines, pydantic_problems, template_at
from cognition.errors import TemplateError
from graph.models.observe import Observation
from graph.yamlfile import YamlFileError, parse_yaml, read_text, yaml_problem

__all__ = [
    "SHIPPED_TEMPLATES",
    "ActionTemplate",
    "AgentSpec",
    "FileFacts",
    "RenderedAction",
    "TemplateError",
    "TemplateRegistry",
    "instantiate",
    "load_templates",
    "parse_templates",
]

SHIPPED_TEMPLATES = "templates.yaml"
Target = Literal["claude_code", "claude_flow", "internal", "dry_run", "command"]

_STRICT = ConfigDict(extra="forbid", frozen=True)
_NAME = r"^[a-z][a-z0-9_]{0,63}$"
# The same shape the claude-flow executor accepts for a topology argument.
_WORD = r"^[a-z][a-z0-9_-]{0,39}$"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NO_EXTRA: Mapping[str, str] = MappingProxyType({})
_SOURCES = "extra, metadata.<key> or an automatic value"


class AgentSpec(BaseModel):
    """One agent of a claude-flow swarm and its share of the task."""

    model_config = _STRICT

    type: str = Field(min_length=1)
    task: str = Field(min_length=1)


class ActionTemplate(BaseModel):
    """One template; ``name`` is its key under ``templates:`` in the file."""

    model_config = _STRICT

    name: str = Field(pattern=_NAME)
    title: str = Field(min_length=1)
    description: str = ""
    version: int = Field(ge=1)
    trigger: Trigger
    conditions: Conditions = Field(default_factory=Conditions)
    target: Target
    function: str | None = Field(None, pattern=_NAME)
    """The registered internal function to run (target ``internal`` only)."""
    command: list[str] = Field(default_factory=list)
    """The argv a ``command`` target runs (:mod:`cognition.act.command`); only it has one."""
    enabled: bool = True
    """False: loaded and checked, but never matched (a template the user turns on)."""
    agent: str | None = None
    prompt_template: str = Field(min_length=1)
    parameters: dict[str, Parameter] = Field(default_factory=dict)
    success_criteria: list[Criterion] = Field(default_factory=list)
    """Checks over the root after a run (:mod:`cognition.act.criteria`): validation_passed."""
    working_set: list[str] = Field(default_factory=list)
    """Globs of the files the action may change: its edits there are its own, not news."""
    timeout_seconds: float = Field(300.0, gt=0)
    max_retries: int = Field(2, ge=0)
    repeatable: bool = True
    """False: an attempt interrupted by a crash is escalated, never run again at start."""
    on_busy: Literal["queue", "restart", "ignore"] = "queue"
    tests_first: bool = False
    """A test command (pytest's kind, taking test files as arguments): run first the test files
    a change broke before and those importing it, then the whole command if they pass
    (:mod:`cognition.act.test_order`)."""
    """Changes while a run of it is in flight: one more run after it, run again now, or none."""
    topology: str | None = Field(None, pattern=_WORD)
    strategy: str | None = Field(None, pattern=_WORD)
    agents: list[AgentSpec] = Field(default_factory=list)
    _file: str = PrivateAttr("<templates>")

    @property
    def file(self) -> str:
        """The file the template was loaded from."""
        return self._file


@dataclass(frozen=True, slots=True)
class RenderedAction:
    """A template instantiated for one observation: ready to become an execution."""

    template: str
    version: int
    target: Target
    function: str | None
    agent: str | None
    prompt: str
    command: tuple[str, ...]
    """A command target's argv, placeholders filled; empty for the other targets."""
    params: dict[str, str]
    """Declared parameters with a value, and the automatic values the prompt used."""
    timeout_s: float
    max_retries: int
    topology: str | None
    strategy: str | None
    agents: tuple[AgentSpec, ...]
    success_criteria: tuple[Criterion, ...]
    working_set: tuple[str, ...]
    """The template's working set with its placeholders filled, and the observed path."""

    @property
    def request_params(self) -> dict[str, Any]:
        """``params`` plus, for an internal target, ``"function"``: what an executor reads."""
        params: dict[str, Any] = dict(self.params)
        if self.function is not None:
            params[FUNCTION_PARAM] = self.function
        if self.command:
            params[ARGV_PARAM] = list(self.command)
        return params


class TemplateRegistry:
    """The loaded templates, in file order, matched against observations."""

    def __init__(self, templates: Iterable[ActionTemplate], *, file: str) -> None:
        """Hold ``templates``; raises :class:`TemplateError` if one is inconsistent."""
        self.file = file
        self._templates: dict[str, ActionTemplate] = {}
        for template in templates:
            # Templates built in code get the checks a loaded file gets.
            problems = [(template.name, *p) for p in _cross_check(template)]
            if template.name in self._templates:
                problems.append((template.name, "", "defined twice"))
            if problems:
                raise TemplateError(problem_lines(file, problems))
            self._templates[template.name] = template

    def __iter__(self) -> Iterator[ActionTemplate]:
        return iter(self._templates.values())

    def __len__(self) -> int:
        return len(self._templates)

    def __contains__(self, name: object) -> bool:
        return name in self._templates

    def names(self) -> list[str]:
        """The template names, in file order."""
        return list(self._templates)

    def get(self, name: str) -> ActionTemplate:
        """The template called ``name``; KeyError if there is none (``name in registry`` asks)."""
        try:
            return self._templates[name]
        except KeyError:
            known = ", ".join(self._templates) or "none"
            raise KeyError(f"no action template named {name!r} (known: {known})") from None

    def match(self, observation: Observation, facts: FileFacts) -> list[ActionTemplate]:
        """The templates that apply to ``observation``, most specific first.

        A template applies when its trigger and every declared condition hold.
        Order, most specific first: templates that matched on the file's
        content (``content_patterns`` or ``content_contains_any``) before
        those that did not; then more declared checks (category, types, paths,
        content, each condition) before fewer; then the matching glob with
        more literal characters; then file order. A change the agent made
        itself (``caused_by`` set) matches nothing: it never starts an action.
        """
        if observation.caused_by is not None and observation.is_file_change:
            return []
        ranked: list[tuple[tuple[int, ...], ActionTemplate]] = []
        for position, template in enumerate(self._templates.values()):
            if not template.enabled:
                continue
            trigger, conditions = template.trigger, template.conditions
            if trigger.matches(observation, facts) and conditions.hold(observation, facts):
                rank = specificity(trigger, conditions, observation.path)
                ranked.append(((*(-r for r in rank), position), template))
        ranked.sort(key=lambda pair: pair[0])
        return [template for _, template in ranked]


def load_templates(path: Path | None = None) -> TemplateRegistry:
    """Load and check a templates file; ``None`` means the shipped ``templates.yaml``.

    Raises :class:`TemplateError` naming the file, template and key on any problem.
    """
    if path is None:
        shipped = resources.files(__package__ or "cognition.act").joinpath(SHIPPED_TEMPLATES)
        return _parse(shipped.read_text(encoding="utf-8"), str(shipped))
    try:
        text = read_text(path, what="templates file")
    except YamlFileError as exc:
        raise TemplateError(str(exc)) from None
    return _parse(text, str(path))


def parse_templates(text: str, file: str) -> TemplateRegistry:
    """Check the text of a templates file (``file`` names it in errors) as load_templates does."""
    return _parse(text, file)


def instantiate(
    template: ActionTemplate,
    observation: Observation,
    *,
    summary: str,
    key_facts: Sequence[str],
    content_preview: str | None,
    extra: Mapping[str, str] = _NO_EXTRA,
) -> RenderedAction:
    """Fill ``template`` for ``observation`` and render its prompt.

    A parameter's value is ``extra[name]`` if given, else its source (an
    automatic value, ``metadata.<key>`` of the observation, or nothing for
    ``extra``), else its default. ``extra`` may only name declared parameters.
    Raises :class:`TemplateError` for a required parameter without a value, a
    value its type refuses, or a path that is absolute or climbs out with ``..``.
    """
    where = f"{template.file}: template {template.name!r}"
    try:
        prompt, params = fill(
            template.prompt_template,
            template.parameters,
            observation,
            summary=summary,
            key_facts=key_facts,
            content_preview=content_preview,
            extra=extra,
        )
    except ValueProblem as problem:
        if problem.about_path:
            # The observation's path is at fault, not the template file: say so, not the file.
            blame = f"the file's path cannot be used: template {template.name!r}"
            raise TemplateError(f"{blame}: {problem.key}: {problem}") from None
        raise TemplateError(f"{where}: {problem.key}: {problem}") from None
    working_set, argv = _paths_filled(template, observation, params, where)
    return RenderedAction(
        template=template.name,
        version=template.version,
        target=template.target,
        function=template.function,
        agent=template.agent,
        prompt=prompt,
        command=tuple(argv),
        params=params,
        timeout_s=template.timeout_seconds,
        max_retries=template.max_retries,
        topology=template.topology,
        strategy=template.strategy,
        agents=tuple(template.agents),
        success_criteria=tuple(template.success_criteria),
        working_set=tuple(dict.fromkeys(working_set)),
    )


def _paths_filled(
    template: ActionTemplate, observation: Observation, params: Mapping[str, str], where: str
) -> tuple[list[str], list[str]]:
    """The working set (with the observed path) and the command, placeholders filled."""
    values = {**params, "path": observation.path or ""}
    try:
        working_set = [resolve_glob(glob, values) for glob in template.working_set]
    except ValueError as exc:
        raise TemplateError(f"{where}: working_set: {exc}") from None
    if observation.path:
        working_set.append(observation.path)
    from_path = observation.metadata.get("from_path")
    paths = {**values, "from_path": from_path if isinstance(from_path, str) else ""}
    try:
        argv = render_command(template.command, paths)
    except ValueError as exc:
        raise TemplateError(f"{where}: {exc}") from None
    return working_set, argv


def _parse(text: str, file: str) -> TemplateRegistry:
    try:
        data = parse_yaml(text)
    except yaml.YAMLError as exc:
        culprit = template_at(text, exc)
        where = f"{file}: template {culprit!r}" if culprit else file
        raise TemplateError(f"{where}: not valid YAML: {yaml_problem(exc)}") from None
    if not isinstance(data, dict) or set(data) != {"templates"}:
        raise TemplateError(f"{file}: the top level must be a mapping with the one key 'templates'")
    entries = data["templates"]
    if not isinstance(entries, dict) or not entries:
        raise TemplateError(f"{file}: 'templates' must map template names to templates")

    problems: list[tuple[str, str, str]] = []
    templates: list[ActionTemplate] = []
    for key_name, entry in entries.items():
        name = str(key_name)
        if not isinstance(entry, dict):
            problems.append((name, "", "must be a mapping of keys"))
            continue
        if "name" in entry:
            problems.append(
                (name, "name", "a template's name is its key under 'templates'; use 'title'")
            )
            continue
        try:
            template = ActionTemplate.model_validate({**entry, "name": name})
        except ValidationError as exc:
            problems.extend((name, key, message) for key, message in pydantic_problems(exc))
            continue
        template._file = file
        problems.extend((name, key, message) for key, message in _cross_check(template))
        templates.append(template)
    if problems:
        raise TemplateError(problem_lines(file, problems, text))
    return TemplateRegistry(templates, file=file)


def _cross_check(t: ActionTemplate) -> Iterator[tuple[str, str]]:
    """Problems no single field shows: each as (dotted key, message)."""
    if t.trigger.is_empty:
        yield "trigger", "matches every observation; give a category, types, paths or content"
    for name, spec in t.parameters.items():
        key = f"parameters.{name}"
        if not _IDENTIFIER.fullmatch(name) or name in (FUNCTION_PARAM, ARGV_PARAM):
            yield key, f"{name!r} cannot be a parameter name"
        elif spec.required and spec.default is None and spec.source_for(name) is None:
            yield key, f"required, but has no source: give 'source' ({_SOURCES}) or a 'default'"
    for name, spec in t.parameters.items():
        rule = spec.extract
        if rule is not None and rule.slug_of is not None:
            other = t.parameters.get(rule.slug_of)
            if other is None or (other.extract is not None and other.extract.slug_of is not None):
                yield (
                    f"parameters.{name}.extract.slug_of",
                    f"{rule.slug_of!r} is not a parameter it can read",
                )
    names = [*t.parameters, "path"]
    for index, criterion in enumerate(t.success_criteria):
        for problem in criterion_problems(criterion, names):
            yield f"success_criteria.{index}", problem
    for index, glob in enumerate(t.working_set):
        for problem in criterion_problems(Criterion(exists=glob), names):
            yield f"working_set.{index}", problem
    leftover = leftover_syntax(t.prompt_template)
    if leftover is not None:
        yield "prompt_template", f"only '{{{{ name }}}}' placeholders are allowed, not {leftover!r}"
    for name in placeholders(t.prompt_template):
        if name not in t.parameters and name not in AUTOMATIC:
            message = f"placeholder '{{{{ {name} }}}}' is not a declared parameter"
            yield "prompt_template", f"{message} nor an automatic value ({', '.join(AUTOMATIC)})"
    if (t.target == "command") != bool(t.command):
        yield "command", "a command target needs a 'command' (a list of words), and only it"
    for index, problem in command_problems(t.command, t.parameters):
        yield f"command.{index}", problem
    if (t.target == "internal") != (t.function is not None):
        yield "function", "an internal target needs a 'function', and only it may have one"
    if t.target != "claude_flow":
        for key in ("topology", "strategy", "agents"):
            if getattr(t, key):
                yield key, "only a claude_flow target has a swarm topology, strategy or agents"
