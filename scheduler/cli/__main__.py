"""``python -m scheduler.cli``: the same as the ``nous`` console script."""

from __future__ import annotations

from scheduler.cli import entry_point

entry_point()
