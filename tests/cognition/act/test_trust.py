"""Trust before commands (issue 56, case 4): a folder's templates file is trusted by its hash.

Real files in a temporary folder; the trust record in a state folder apart
from the watched one, as ``nous templates trust`` writes it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cognition.act.trust import TRUST_FILE, TrustError, TrustStore, needs_trust


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "clone"
    (folder / ".nous").mkdir(parents=True)
    (folder / ".nous" / "templates.yaml").write_text("templates: {}\n")
    return folder


def test_the_shipped_templates_and_a_file_named_outside_the_folder_need_no_trust(
    tmp_path: Path, root: Path
) -> None:
    store = TrustStore(tmp_path / "state", root)
    assert store.verdict(None).trusted
    outside = tmp_path / "mine.yaml"
    outside.write_text("templates: {}\n")
    assert store.verdict(outside).trusted and not needs_trust(outside, root)
    assert not (tmp_path / "state").exists()  # nothing written to say so


def test_the_folders_own_file_is_untrusted_until_trusted_and_again_once_changed(
    tmp_path: Path, root: Path
) -> None:
    own = root / ".nous" / "templates.yaml"
    store = TrustStore(tmp_path / "state", root)
    first = store.verdict(own)
    assert (first.trusted, first.why) == (False, "never trusted")
    assert store.trust(own).trusted
    assert store.verdict(own).trusted
    record = json.loads((tmp_path / "state" / TRUST_FILE).read_text())
    assert record["files"][str(own.resolve())]["sha256"] == first.digest
    own.write_text("templates: {x: 1}\n")
    changed = store.verdict(own)
    assert not changed.trusted and changed.why.startswith("changed since it was trusted")
    assert TrustStore(tmp_path / "state", root).trust(own).trusted  # trusting again
    assert store.verdict(own).trusted


def test_a_link_to_a_trusted_file_elsewhere_in_the_folder_is_not_trusted(
    tmp_path: Path, root: Path
) -> None:
    own = root / ".nous" / "templates.yaml"
    store = TrustStore(tmp_path / "state", root)
    store.trust(own)
    other = root / "other.yaml"
    other.write_text("templates: {}\n")  # the same bytes, another file
    own.unlink()
    own.symlink_to(other)
    assert not store.verdict(own).trusted


def test_a_trust_record_inside_the_watched_folder_is_refused(root: Path) -> None:
    store = TrustStore(root / ".nous" / "state", root)
    own = root / ".nous" / "templates.yaml"
    with pytest.raises(TrustError, match="inside the watched folder"):
        store.trust(own)
    # A record the folder carries would be a trust it gave itself: never read.
    planted = root / ".nous" / "state" / TRUST_FILE
    planted.parent.mkdir()
    planted.write_text(json.dumps({"files": {str(own.resolve()): {"sha256": "x"}}}))
    verdict = store.verdict(own)
    assert not verdict.trusted and "inside the watched folder" in verdict.why


def test_a_damaged_record_trusts_nothing_and_names_its_file(tmp_path: Path, root: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / TRUST_FILE).write_text("{not json")
    verdict = TrustStore(state, root).verdict(root / ".nous" / "templates.yaml")
    assert not verdict.trusted and str(state / TRUST_FILE) in verdict.why
    with pytest.raises(TrustError, match=TRUST_FILE):
        TrustStore(state, root).trust(root / ".nous" / "templates.yaml")


def test_a_fifo_as_the_templates_file_is_refused_not_waited_for(tmp_path: Path, root: Path) -> None:
    own = root / ".nous" / "templates.yaml"
    own.unlink()
    os.mkfifo(own)
    verdict = TrustStore(tmp_path / "state", root).verdict(own)
    assert not verdict.trusted and "regular file" in verdict.why
