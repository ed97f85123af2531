"""A cognitive frame (seed 004) as the graph stores it: what activates it, what it brings.

The frames themselves, and choosing one, are :mod:`cognition.frames`' part;
this is their data, so that the memory can store and read them.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_WORD = re.compile(r"\w+")


def frame_words(text: str) -> tuple[str, ...]:
    """The words of ``text``, lower case: punctuation ("Redis?") and hyphens ("trade-off")
    match the same way in patterns and in input."""
    return tuple(_WORD.findall(text.lower()))


class ContextBudget(BaseModel):
    """Tokens a frame allows the context, in total and per section (seed 004).

    The sections are listed in the order the context is assembled. Their sum
    never exceeds ``total``; in several of seed 004's budgets it is less, and
    what is left over is headroom, not an extra section.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    total: int = Field(default=8000, ge=0)
    identity: int = Field(default=500, ge=0)
    censors: int = Field(default=300, ge=0)
    frame: int = Field(default=500, ge=0)
    working_memory: int = Field(default=700, ge=0)
    decisions: int = Field(default=2000, ge=0)
    facts: int = Field(default=1500, ge=0)
    procedures: int = Field(default=1500, ge=0)
    episodes: int = Field(default=1000, ge=0)

    def sections(self) -> dict[str, int]:
        """Each section's budget, in assembly order (everything but ``total``)."""
        return {name: value for name, value in self if name != "total"}

    @model_validator(mode="after")
    def _sections_fit(self) -> ContextBudget:
        allotted = sum(self.sections().values())
        if allotted > self.total:
            raise ValueError(f"sections add up to {allotted} tokens, more than total {self.total}")
        return self


class FrameSpec(BaseModel):
    """One cognitive frame: what activates it and what it brings to the context.

    ``name`` is the frame's stable key (``"decision"``); a stored ``Frame``
    node keeps its own ``id``. ``priority`` breaks ties in
    :func:`select_frame`, higher first. ``default_category`` and
    ``default_stakes`` are the defaults for a decision recorded under this
    frame (decision categories such as ``"architecture"``, not observation
    categories).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str = Field(min_length=1)
    description: str = ""
    activation_patterns: tuple[str, ...] = ()
    default_category: str | None = None
    default_stakes: Literal["low", "medium", "high", "critical"] | None = None
    questions_to_ask: tuple[str, ...] = ()
    priority: int = 0
    budget: ContextBudget = Field(default_factory=ContextBudget)

    @field_validator("activation_patterns")
    @classmethod
    def _patterns_haveframe_words(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in patterns:
            if not frame_words(pattern):
                raise ValueError(f"activation pattern {pattern!r} has no words and never matches")
        return patterns
