"""Carry (seed 003 A1, C7): the system prompt is the constitution plus the active heuristics.

The constitution (``rsi/prompt/constitution.md``) ships with Nous and is
never written by the agent. The active heuristics are rendered by domain as
"Strategies", within ``rsi.max_strategy_tokens``, the cut marked. The text
changes only when the active set changes (usage counts are not shown), so it
is identical between requests and prefix caches keep working.

Each change of the active set writes ``.nous/strategies.json`` and
``.nous/strategies.md`` under the watched root, so a person can keep the
strategies under git; the graph stays the source of truth.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cognition.text import estimate_tokens, plain_text
from graph.models import Heuristic, utc_now
from graph.store.heuristics import HeuristicStore
from rsi.prune import keep_value

log = logging.getLogger(__name__)

# Package data (``[tool.setuptools.package-data]``), found wherever rsi is installed.
CONSTITUTION = resources.files("rsi").joinpath("prompt", "constitution.md")
STRATEGIES_JSON = "strategies.json"
STRATEGIES_MD = "strategies.md"
NO_STRATEGIES = "_No learned strategies yet._"
# A strategy is one principle; a longer one is clipped rather than crowding out the rest.
MAX_STRATEGY_CHARS = 400
_VERSION = re.compile(r"<!--\s*constitution-version:\s*(\d+)\s*-->")


@dataclass(frozen=True)
class Constitution:
    """The shipped constitution's text (its version comment removed) and version."""

    text: str
    version: int


def load_constitution(path: Path | None = None) -> Constitution:
    """Read the constitution (the shipped one when ``path`` is None); its first line carries
    ``<!-- constitution-version: N -->``."""
    raw = (CONSTITUTION if path is None else path).read_text(encoding="utf-8")
    match = _VERSION.search(raw)
    return Constitution(_VERSION.sub("", raw).strip(), int(match.group(1)) if match else 0)


@dataclass(frozen=True)
class RenderedStrategies:
    """The "Strategies" section, the ids it shows, and how many did not fit."""

    text: str
    shown_ids: tuple[str, ...]
    omitted: int


@dataclass(frozen=True)
class CarriedPrompt:
    """The system prompt every request carries first, and what it shows."""

    text: str
    strategy_ids: tuple[str, ...] = ()
    version: int = 0


def render_strategies(heuristics: Sequence[Heuristic], max_tokens: int) -> RenderedStrategies:
    """The active heuristics by domain, the most valuable kept when they do not all fit.

    Valuable as pruning's cap counts it (:func:`rsi.prune.keep_value`), so
    what the prompt leaves out first is what the cap would retire first.

    Every line names the heuristic's id, so a reply can say which it applied.
    A cut is marked with how many were left out and why.
    """
    if not heuristics:
        return RenderedStrategies(f"# Strategies\n\n{NO_STRATEGIES}", (), 0)
    now = utc_now()
    ranked = sorted(heuristics, key=lambda h: (keep_value(h, now), h.id), reverse=True)
    chosen: list[Heuristic] = []
    domains: set[str] = set()
    # Room for the title and a cut note is kept, so the whole never passes the budget.
    used = estimate_tokens("# Strategies\n\n") + estimate_tokens(_cut_note(len(heuristics)))
    for h in ranked:
        cost = estimate_tokens(_line(h) + "\n")
        if h.domain not in domains:
            cost += estimate_tokens(_heading(h.domain) + "\n\n")
        if used + cost > max_tokens:
            continue
        chosen.append(h)
        domains.add(h.domain)
        used += cost
    lines = ["# Strategies", ""]
    for domain in sorted({h.domain for h in chosen}):
        lines.append(_heading(domain))
        lines += [
            _line(h) for h in sorted(chosen, key=lambda h: (h.at, h.id)) if h.domain == domain
        ]
        lines.append("")
    omitted = len(heuristics) - len(chosen)
    if not chosen:
        lines.append(NO_STRATEGIES)
    if omitted:
        lines.append(_cut_note(omitted))
    return RenderedStrategies("\n".join(lines).strip(), tuple(h.id for h in chosen), omitted)


def _heading(domain: str) -> str:
    return f"## {plain_text(domain, 40).title() or 'General'}"


def _line(h: Heuristic) -> str:
    return f"- [{h.id}] {plain_text(h.content, MAX_STRATEGY_CHARS)}"


def _cut_note(omitted: int) -> str:
    return f"_({omitted} more strategies not shown: over the token budget for strategies.)_"


def set_signature(heuristics: Sequence[Heuristic], shaped_by: str = "") -> str:
    """A digest of the active set (ids, domains, contents) and of what ``shaped_by`` names:
    what "the set changed" compares."""
    items = sorted((h.id, h.domain, h.content) for h in heuristics)
    return hashlib.sha256(json.dumps([shaped_by, items]).encode()).hexdigest()


class StrategyBook:
    """The system prompt of one agent, kept in step with its active heuristics.

    ``state_dir`` (the watched root's ``.nous``) receives the strategies files
    on each change of the active set; None writes no files. ``constitution``
    left at None is the shipped one.
    """

    def __init__(
        self,
        store: HeuristicStore,
        max_tokens: int,
        state_dir: Path | None = None,
        *,
        constitution: Constitution | None = None,
    ) -> None:
        self.store = store
        self.max_tokens = max_tokens
        self.state_dir = state_dir
        self.constitution = constitution if constitution is not None else load_constitution()
        self._signature: str | None = None
        self._current: CarriedPrompt | None = None

    @property
    def current(self) -> CarriedPrompt:
        """The prompt as of the last refresh (the constitution alone before the first)."""
        if self._current is None:
            return CarriedPrompt(self._compose(render_strategies([], self.max_tokens)))
        return self._current

    async def prompt(self) -> CarriedPrompt:
        """The prompt for the next request, refreshed from the graph."""
        await self.refresh()
        return self.current

    async def text(self) -> str:
        """The prompt's text alone (what RSI's requests carry)."""
        return (await self.prompt()).text

    async def refresh(self) -> bool:
        """Read the active set; re-render and write the files if it changed. True if it did."""
        active = await self.store.active()
        # The constitution's version and the budget shape the text too: a restart with a new
        # one rewrites the files, which say "exactly as the prompts carry it".
        signature = set_signature(active, f"{self.constitution.version}:{self.max_tokens}")
        if signature == self._signature:
            return False
        rendered = render_strategies(active, self.max_tokens)
        version = self._next_version(signature)
        self._signature = signature
        self._current = CarriedPrompt(self._compose(rendered), rendered.shown_ids, version)
        if self.state_dir is not None:
            try:
                self._write_files(active, rendered, version, signature)
            except OSError as exc:  # the graph is the source of truth; the files follow it
                log.warning("strategies files not written to %s: %s", self.state_dir, exc)
        return True

    def _compose(self, rendered: RenderedStrategies) -> str:
        return f"{self.constitution.text}\n\n{rendered.text}\n"

    def _next_version(self, signature: str) -> int:
        # The file is read every time: another process (``rsi prune``, ``nous heuristics
        # retire``) may have written a newer version since this one last did.
        earlier = _read_json(self.state_dir / STRATEGIES_JSON) if self.state_dir else {}
        version = earlier.get("version")
        number = version if isinstance(version, int) and version >= 0 else 0
        if earlier.get("signature") == signature:
            return number
        return max(number, self._current.version if self._current is not None else 0) + 1

    def _write_files(
        self, active: Sequence[Heuristic], rendered: RenderedStrategies, version: int, sig: str
    ) -> None:
        assert self.state_dir is not None
        if (_read_json(self.state_dir / STRATEGIES_JSON)).get("signature") == sig:
            return  # another process wrote this very set already
        document = {
            "version": version,
            "updated_at": utc_now().isoformat(),
            "constitution_version": self.constitution.version,
            "signature": sig,
            "heuristics": [_entry(h) for h in active],
        }
        header = (
            f"<!-- generated by Nous from its graph (version {version}); "
            "edits here are overwritten -->\n\n"
        )
        self.state_dir.mkdir(parents=True, exist_ok=True)
        _write_atomic(self.state_dir / STRATEGIES_JSON, json.dumps(document, indent=2) + "\n")
        _write_atomic(self.state_dir / STRATEGIES_MD, header + rendered.text + "\n")


def _entry(h: Heuristic) -> dict[str, Any]:
    return {
        "id": h.id,
        "domain": h.domain,
        "content": h.content,
        "added_at": h.at.isoformat(),
        "usage_count": h.usage_count,
        "helpful": h.helpful,
        "harmful": h.harmful,
        "confirmations": h.confirmations,
    }


def _read_json(path: Path) -> dict[str, Any]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
