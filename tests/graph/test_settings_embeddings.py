"""``embeddings.dimensions`` could not vary (the vector index holds 384): retired, and an old
file that still sets it loads, with a warning that names the key."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from graph.settings import EmbeddingSettings, load_settings


def test_an_old_file_with_embeddings_dimensions_loads_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = tmp_path / "nous.yaml"
    config.write_text("embeddings:\n  dimensions: 768\n  batch_size: 16\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        settings = load_settings(config, environ={})
    assert settings.embeddings.batch_size == 16
    assert "dimensions" not in EmbeddingSettings.model_fields
    said = [r.getMessage() for r in caplog.records]
    [warning] = [message for message in said if "embeddings.dimensions" in message]
    assert "ignored" in warning and "384" in warning


def test_the_environment_may_still_set_it_too(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        settings = load_settings(None, environ={"NOUS_EMBEDDINGS__DIMENSIONS": "384"})
    assert settings.embeddings.provider == "embedded"
    assert any("embeddings.dimensions" in r.getMessage() for r in caplog.records)
