"""Names a package hands out but loads only when first asked for (PEP 562's ``__getattr__``).

A Claude Code hook that needs one constant of a package must not pay for the
rest of it (the LLM client, the executors, pydantic): the package lists where
each name lives, and its ``__getattr__`` asks :func:`lazy_attribute`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any


def lazy_attribute(package: str, homes: Mapping[str, str], name: str) -> Any:
    """``name`` from the module ``homes`` names for it, imported now; AttributeError if none."""
    home = homes.get(name)
    if home is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
