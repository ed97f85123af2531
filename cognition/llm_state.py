"""What the daemon knows about its LLM endpoint, for the banner and the status line.

:class:`LLMState` lives on the client (``LLMClient.state``): whether the
endpoint answers, the model it serves (from ``/v1/models``), the reply format
it accepted, and the share of reasoning steps that fell back to the rules in
the last hour (the reasoner reports each deliberation's steps).
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from cognition.llm_format import ReplyFormat

_WINDOW_S = 3600.0


@dataclass
class LLMState:
    """The endpoint as last seen. ``answers`` is ``None`` until it was asked."""

    base_url: str
    answers: bool | None = None
    served_model: str | None = None
    reply_format: ReplyFormat | None = None
    last_error: str | None = None
    # Every chat request sent, repairs and format negotiation included.
    requests_sent: int = 0
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    _steps: collections.deque[tuple[float, int, int]] = field(
        default_factory=collections.deque, repr=False
    )

    def record_steps(self, *, by_llm: int, fell_back: int) -> None:
        """Count one deliberation's steps: answered by the model, and given to the rules."""
        self._steps.append((self.clock(), by_llm, fell_back))
        self._forget_old()

    def steps_last_hour(self) -> tuple[int, int]:
        """Steps asked of the LLM in the last hour, and how many of them fell back."""
        self._forget_old()
        total = sum(llm + back for _, llm, back in self._steps)
        return total, sum(back for _, _, back in self._steps)

    def fallback_share(self) -> float | None:
        """The share (0-1) of last hour's steps that fell back; ``None`` without steps."""
        total, fell_back = self.steps_last_hour()
        return fell_back / total if total else None

    def describe(self) -> str:
        """One line: ``answers · model m · format json_schema · fell back 2% of 50 steps``."""
        if self.answers is None:
            health = "not asked yet"
        elif self.answers:
            health = "answers"
        else:
            health = f"does not answer ({self.last_error or 'unknown error'})"
        total, fell_back = self.steps_last_hour()
        share = f"fell back {fell_back / total:.0%} of {total} steps" if total else "no steps"
        return (
            f"{health} · model {self.served_model or 'unknown'}"
            f" · format {self.reply_format or 'not negotiated yet'} · {share} in the last hour"
        )

    def _forget_old(self) -> None:
        horizon = self.clock() - _WINDOW_S
        while self._steps and self._steps[0][0] < horizon:
            self._steps.popleft()
