"""What every LLM request carries first: the constitution and the strategies (seed 003 A1).

``cognition`` may not import ``rsi``, so the reasoner receives the system
prompt as a source (``scheduler.compose`` passes ``rsi``'s strategy book):
an async callable returning a :class:`CarriedPrompt`, its text and the ids
of the strategies it shows. The DECIDE reply names the strategies it applied;
:func:`applied_strategies` keeps only ids the prompt showed, so a decision is
linked to what it used and never to an id a model made up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol


class CarriedPrompt(Protocol):
    """The system prompt every request carries: its text and the strategy ids it shows."""

    @property
    def text(self) -> str: ...

    @property
    def strategy_ids(self) -> Sequence[str]: ...


SystemPromptSource = Callable[[], Awaitable[CarriedPrompt]]


def applied_strategies(named: Sequence[str], shown: Sequence[str]) -> list[str]:
    """The ids a DECIDE reply named that the prompt showed, once each, in the reply's order.

    Brackets and spaces around an id (``"[01J…]"``, as the prompt writes them)
    are forgiven; anything else not shown is dropped, never trusted.
    """
    allowed = set(shown)
    cleaned = (name.strip().strip("[]").strip() for name in named)
    return [i for i in dict.fromkeys(cleaned) if i in allowed]
