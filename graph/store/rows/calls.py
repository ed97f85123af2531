"""A tool call as a Claude Code turn keeps it: written by the tool hooks, read by the others.

The hooks write it without pydantic (issue 27), so it is a frozen dataclass,
field for field seed 004's :class:`cognition.chat.turns.ToolResult` (a test
compares them). A turn stores each as one JSON object (``Turn.tool_results``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields


@dataclass(frozen=True)
class ToolResultRow:
    """One tool call of a turn and what came of it (an ``error``: the call failed)."""

    tool_name: str
    arguments: Mapping[str, object] = field(default_factory=dict)
    """The tool's input, each value clipped (``claude.tool_input_chars``)."""
    result: str | None = None
    error: str | None = None
    duration_ms: int | None = None
    censor_id: str | None = None
    """The censor this failure filed or fired when it happened (it is not counted again)."""
    censor_trigger: str | None = None

    @property
    def failed(self) -> bool:
        """Whether the call failed (a turn keeps its errors over its successes)."""
        return self.error is not None

    def to_json(self) -> str:
        """The JSON object a turn keeps (keys sorted; a value JSON cannot hold, as text)."""
        return json.dumps(asdict(self), sort_keys=True, default=str)

    @classmethod
    def from_json(cls, raw: str) -> ToolResultRow | None:
        """The result a turn kept as ``raw``; None when it is not one (not JSON, not an
        object, no tool name): a result that does not decode is skipped, not fatal."""
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(value, dict) or not isinstance(value.get("tool_name"), str):
            return None
        kept = {f.name: value[f.name] for f in fields(cls) if value.get(f.name) is not None}
        if not isinstance(kept.get("arguments", {}), dict):
            kept.pop("arguments")
        return cls(**kept)
