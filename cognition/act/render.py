"""Prompt rendering for action templates: ``{{ name }}`` placeholders and nothing more.

There are no expressions, filters or attribute access, and each placeholder
of the template is replaced exactly once: a value is never scanned for
placeholders itself, so a file that contains ``{{ path }}`` stays literal.

Values whose type leaves no room for prose (``integer``, ``enum``, ``slug``)
are written in place. Every ``string`` and ``path`` value may come from a file,
a file name or a language model, so it is written as a fenced block, on lines
of its own, under a line that says it is data and not instructions; the fence
is longer than any run of backticks in the value, so the value cannot close it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from cognition.text import fence
from graph.watch.files import check_relative_path

ParameterType = Literal["string", "path", "enum", "integer", "slug"]

PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
# What is left of a template after its placeholders are removed must not look
# like template syntax: "{{ a.b }}" or "{% if %}" would silently stay literal.
_LEFTOVER = re.compile(r"\{\{|\{%")
_SLUG = re.compile(r"[a-z0-9][a-z0-9_-]*")
_INTEGER = re.compile(r"-?[0-9]+")
_METADATA_KEY = re.compile(r"[A-Za-z0-9_.-]+")
_SLUG_MAX = 64

EXTRA = "extra"
"""``source`` of a parameter whose value the caller passes in ``extra``."""
METADATA_PREFIX = "metadata."
"""``source: metadata.<key>`` takes the value from the observation's metadata."""
NONE_TEXT = "(none)"
"""Written for an optional parameter that has no value."""

FENCED_TYPES: frozenset[str] = frozenset({"string", "path"})

# The values every template may use without declaring them: name -> (type, label).
AUTOMATIC: Mapping[str, tuple[ParameterType, str]] = MappingProxyType(
    {
        "path": ("path", "the file's path"),
        "from_path": ("path", "the file's former path"),
        "file_name": ("string", "the file's name"),
        "change_type": ("enum", "the kind of change"),
        "observation_type": ("enum", "the observation's type"),
        "category": ("enum", "the observation's category"),
        "content_preview": ("string", "the file's content"),
        "summary": ("string", "a summary of the change"),
        "key_facts": ("string", "key facts about the change"),
    }
)


class Extract(BaseModel):
    """A declared rule that finds a parameter's value in the observation (one key set).

    ``line_after``: the rest of the first line of the file's content that starts
    with one of these prefixes (case-insensitive, after leading spaces and
    list marks), stripped; ``new thinker: Ada Lovelace`` gives ``Ada Lovelace``.
    ``slug_of``: the value of another parameter made into a slug
    (``Ada Lovelace`` gives ``ada_lovelace``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    line_after: list[str] | None = Field(None, min_length=1)
    slug_of: str | None = None

    @model_validator(mode="after")
    def _one_rule(self) -> Extract:
        if (self.line_after is None) == (self.slug_of is None):
            raise ValueError("an extraction rule has exactly one of 'line_after' and 'slug_of'")
        if self.line_after is not None and not all(p.strip() for p in self.line_after):
            raise ValueError("'line_after' prefixes must not be empty")
        return self


class Parameter(BaseModel):
    """One parameter of a template: its type, limits, and where its value comes from.

    ``source`` is an automatic value's name, ``metadata.<key>`` or ``extra``;
    left out, it is the automatic value of the parameter's own name, if any.
    ``extract`` is a rule that finds the value in the observation when the
    reasoner did not pass one.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: ParameterType = "string"
    required: bool = False
    default: str | int | None = None
    description: str = ""
    max_length: int | None = Field(None, ge=1)
    values: list[str] | None = None
    source: str | None = None
    extract: Extract | None = None

    @field_validator("source")
    @classmethod
    def _known_source(cls, value: str | None) -> str | None:
        if value is None or value == EXTRA or value in AUTOMATIC:
            return value
        if value.startswith(METADATA_PREFIX) and _METADATA_KEY.fullmatch(
            value[len(METADATA_PREFIX) :]
        ):
            return value
        known = ", ".join(AUTOMATIC)
        raise ValueError(
            f"unknown source {value!r}: use 'extra', 'metadata.<key>' or one of {known}"
        )

    @model_validator(mode="after")
    def _consistent(self) -> Parameter:
        if self.type == "enum" and not self.values:
            raise ValueError("an enum parameter needs a non-empty 'values' list")
        if self.type != "enum" and self.values is not None:
            raise ValueError("'values' is only for enum parameters")
        if self.max_length is not None and self.type not in {"string", "path", "slug"}:
            raise ValueError("'max_length' is only for string, path and slug parameters")
        if self.default is not None:
            try:
                coerce(self, self.default)
            except ValueError as exc:
                raise ValueError(f"default: {exc}") from None
        return self

    def source_for(self, name: str) -> str | None:
        """Where the value of the parameter called ``name`` comes from, or None."""
        if self.source is not None:
            return self.source
        return name if name in AUTOMATIC else None


@dataclass(frozen=True, slots=True)
class RenderValue:
    """A value ready for a prompt; ``text=None`` means it has none."""

    text: str | None
    fenced: bool
    label: str


def placeholders(template: str) -> list[str]:
    """The names of the placeholders in ``template``, in order, each once."""
    return list(dict.fromkeys(m.group(1) for m in PLACEHOLDER.finditer(template)))


def leftover_syntax(template: str) -> str | None:
    """The first bit of ``template`` that looks like template syntax but is no placeholder."""
    rest = PLACEHOLDER.sub("", template)
    found = _LEFTOVER.search(rest)
    return None if found is None else rest[found.start() : found.start() + 20].splitlines()[0]


def coerce(parameter: Parameter, raw: object) -> str:
    """``raw`` as the text of a ``parameter`` value; ValueError if it does not fit.

    A string longer than ``max_length`` is cut to it; a path or slug that
    long is refused, since a cut one would name something else.
    """
    kind = parameter.type
    if kind == "integer":
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise ValueError(f"{raw!r} is not an integer")
        text = str(raw).strip()
        if not _INTEGER.fullmatch(text):
            raise ValueError(f"{raw!r} is not an integer")
        return str(int(text))
    text = str(raw)
    limit = parameter.max_length
    if kind == "enum":
        if text not in (parameter.values or []):
            raise ValueError(f"{text!r} is not one of {parameter.values}")
        return text
    if kind == "slug":
        if not _SLUG.fullmatch(text) or len(text) > (limit or _SLUG_MAX):
            raise ValueError(
                f"{text!r} is not a slug (lower-case letters, digits, '_' and '-',"
                f" at most {limit or _SLUG_MAX} characters)"
            )
        return text
    if kind == "path":
        check_relative_path(text)
        if limit is not None and len(text) > limit:
            raise ValueError(f"the path is longer than {limit} characters")
        return text
    return text if limit is None else text[:limit]


_LIST_MARK = re.compile(r"^[\s>*#-]*")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def line_after(content: str | None, prefixes: Sequence[str]) -> str | None:
    """The rest of the first line of ``content`` that starts with a prefix, or None."""
    wanted = [p.strip().casefold() for p in prefixes]
    for line in (content or "").splitlines():
        text = _LIST_MARK.sub("", line).strip()
        for prefix in wanted:
            if text.casefold().startswith(prefix):
                rest = text[len(prefix) :].strip()
                if rest:
                    return rest
    return None


def slugify(text: str) -> str:
    """``Ada Lovelace`` -> ``ada_lovelace``: lower-case ASCII letters and digits joined by ``_``."""
    ascii_text = text.encode("ascii", "ignore").decode().casefold()
    return _NOT_SLUG.sub("_", ascii_text).strip("_")[:_SLUG_MAX].strip("_")


def render(template: str, values: Mapping[str, RenderValue]) -> str:
    """Replace each placeholder of ``template`` once, fencing the values marked so.

    A fenced value starts on a line of its own, and what follows it on the
    template's line moves to the next line. Every placeholder must have an
    entry in ``values`` (KeyError otherwise).
    """
    out = ""
    after_block = False

    def add(piece: str) -> None:
        nonlocal out, after_block
        if after_block:
            piece = piece.lstrip(" \t")
            if not piece:
                return
            if not piece.startswith("\n"):
                piece = "\n" + piece
            after_block = False
        out += piece

    position = 0
    for found in PLACEHOLDER.finditer(template):
        add(template[position : found.start()])
        position = found.end()
        value = values[found.group(1)]
        if value.text is None:
            add(NONE_TEXT)
        elif value.fenced:
            out = out.rstrip(" \t")
            if out and not out.endswith("\n"):
                out += "\n"
            out += fence(value.text, value.label)
            after_block = True
        else:
            add(value.text)
    add(template[position:])
    return out
