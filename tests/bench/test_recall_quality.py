"""bench.recall_quality's exit status: a missed target is a failed run for whoever scripts it."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from bench.recall_quality import main


def conversation(path: Path) -> Path:
    """Three turns in the LoCoMo layout; the question repeats its evidence's words, so plain
    BM25 finds it as surely as Nous does (a ratio of 1.0, under the 1.3 target)."""
    turns = [
        {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a grey cat named Pixel."},
        {"speaker": "Bob", "dia_id": "D1:2", "text": "My bicycle got a flat tyre today."},
        {"speaker": "Ann", "dia_id": "D1:3", "text": "The museum opens again in June."},
    ]
    qa = [{"question": "What is the grey cat named?", "evidence": ["D1:1"], "category": 1}]
    data = {"session_1": turns, "session_1_date_time": "1 May 2023", "qa": qa}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.usefixtures("neo4j_in_environ")
def test_a_missed_target_exits_1(tmp_path: Path) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["--conversation", str(conversation(tmp_path / "c.json")), "--threads", "1"])
    printed = out.getvalue()
    assert "MISS  recall 1.00x plain BM25 at equal size (>= 1.3)" in printed
    assert code == 1
