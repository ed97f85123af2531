"""The daemon's loop with recall by meaning: a "similar by meaning" section, and embeddings off.

Built with the scheduler's own ``build_loop`` (see ``test_loop``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cognition.context.render import render_context
from cognition.embeddings import EMBEDDED_MODEL
from cognition.frames.spec import SEED_FRAMES
from graph.errors import SettingsError
from graph.store.embeddings import EmbeddingStore
from graph.store.memory import Memory
from tests.scheduler.test_loop import _rig

TASK = next(f for f in SEED_FRAMES if f.name == "task")


async def test_a_file_recalls_another_file_of_the_same_meaning(
    tmp_path: Path, memory: Memory
) -> None:
    async for rig in _rig(tmp_path, memory):
        assert rig.runtime.vectors is not None
        knowledge = rig.root / "knowledge"
        knowledge.mkdir()
        (knowledge / "release.md").write_text("npm publish failed: one-time password required\n")
        (knowledge / "garden.md").write_text("The tomatoes need water twice a week.\n")
        await rig.observe()
        (knowledge / "shipping.md").write_text(
            "Why did shipping the package to the registry break? The 2FA code was missing.\n"
        )
        await rig.observe()
        assert await rig.runtime.vectors.run() >= 3  # written after the nodes, by the job
        [latest] = await memory.observations_for_path("knowledge/shipping.md")
        context = await rig.runtime.loop.recall.build([latest], TASK)
        assert context.similar, "no similar memories recalled"
        assert "knowledge/release.md" in context.similar[0].text
        assert all("shipping.md" not in s.text for s in context.similar)  # not itself
        assert "Similar by meaning" in render_context(context, identity="Nous").text


async def test_with_embeddings_off_everything_else_works(tmp_path: Path, memory: Memory) -> None:
    async for rig in _rig(tmp_path, memory, **{"embeddings.provider": "off"}):
        assert rig.runtime.vectors is None
        assert rig.runtime.rsi.crystallizer._embeddings is None
        (rig.root / "_intake" / "idea.md").write_text("# An idea\nworth keeping\n")
        rig.claude_does(
            edits=[{"path": "knowledge/idea.md", "content": "# Idea, filed\n"}],
            result="created knowledge/idea.md",
        )
        await rig.observe()
        report = await rig.tick_and_act()
        [decision] = report.decisions
        assert decision.template == "process_intake"
        assert report.outcomes[0].success
        [obs] = await memory.observations_for_path("_intake/idea.md")
        context = await rig.runtime.loop.recall.build([obs], TASK)
        assert context.similar == [] and context.past_decisions


async def test_the_daemon_refuses_to_start_on_another_models_vectors(
    tmp_path: Path, memory: Memory
) -> None:
    await EmbeddingStore(memory).reset_space("old-embedder-v1", 384)
    with pytest.raises(SettingsError) as refused:
        async for _ in _rig(tmp_path, memory):
            pass
    assert "old-embedder-v1" in str(refused.value) and EMBEDDED_MODEL in str(refused.value)
