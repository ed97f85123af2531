"""Fragments: one expression written once, included by the loader into each statement using it."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.errors import QueryNotFoundError
from graph.store.queries import QueryLibrary

HEADER = "// purpose: p\n// params: none\n// returns: r\n// mode: read\n"


def _library(tmp_path: Path, statement: str, fragment: str | None = "1 + 1") -> QueryLibrary:
    (tmp_path / "area").mkdir()
    (tmp_path / "area" / "q.cypher").write_text(HEADER + statement)
    if fragment is not None:
        (tmp_path / "fragments").mkdir()
        (tmp_path / "fragments" / "two.cypher").write_text("// purpose: two\n" + fragment)
    return QueryLibrary(tmp_path)


def test_a_fragment_is_included_without_its_comments(tmp_path: Path) -> None:
    library = _library(tmp_path, "RETURN {{ fragments/two }} AS a, {{fragments/two}} AS b")
    assert library.get("area/q").text == HEADER + "RETURN 1 + 1 AS a, 1 + 1 AS b"
    assert library.names() == ["area/q"]  # a fragment is no statement to run or EXPLAIN


@pytest.mark.parametrize(
    "statement, said",
    [
        ("RETURN {{ fragments/missing }}", "no fragment 'fragments/missing'"),
        ("RETURN {{ area/q }}", "'area/q' is not a fragment"),
        ("RETURN {{ fragments/../area/q }}", "is not a fragment"),
    ],
)
def test_a_bad_include_names_the_file_and_the_fragment(
    tmp_path: Path, statement: str, said: str
) -> None:
    library = _library(tmp_path, statement)
    with pytest.raises(QueryNotFoundError, match=said) as raised:
        library.get("area/q")
    assert "q.cypher" in str(raised.value)


def test_a_fragment_cannot_be_run_by_name(tmp_path: Path) -> None:
    with pytest.raises(QueryNotFoundError, match="is a fragment"):
        _library(tmp_path, "RETURN 1").get("fragments/two")


def test_the_recall_text_is_written_once_and_used_by_recall_and_the_vector_job() -> None:
    library = QueryLibrary()
    shipped = library.root
    # How a Lesson becomes text, for instance, is spelt in the fragment and nowhere else.
    spelt = [p for p in shipped.rglob("*.cypher") if "' (adjustment: '" in p.read_text()]
    assert spelt == [shipped / "fragments" / "recall_text.cypher"]
    for name in ("recall/hybrid", "embeddings/pending"):
        raw = (shipped / f"{name}.cypher").read_text()
        assert "{{ fragments/recall_text }}" in raw
        loaded = library.get(name).text
        assert "{{" not in loaded and "' (adjustment: '" in loaded
