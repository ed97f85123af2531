"""Migrations: every label constrained and indexed; a second run changes nothing."""

from __future__ import annotations

from graph.store.driver import GraphDriver
from graph.store.migrate import apply_migrations, migration_files, split_statements

MODEL_LABELS = {
    "File", "Observation", "Decision", "ReasoningStep", "ActionTemplate", "Execution",
    "Pattern", "Lesson", "Escalation", "Goal", "Frame", "Episode", "Censor", "Fact",
    "Procedure", "WorkingMemory", "Event", "Reflection", "Desire", "Trajectory", "Heuristic",
    "RSICycle",
}  # fmt: skip


async def test_second_run_applies_nothing_and_changes_nothing(driver: GraphDriver) -> None:
    before = await driver.read("admin/schema_objects")
    applied = await apply_migrations(driver)
    assert applied == []
    after = await driver.read("admin/schema_objects")
    assert after == before
    recorded = {r["name"] for r in await driver.read("admin/applied_migrations")}
    # Every file is recorded as applied. A database may also hold records of migrations
    # this checkout does not ship (a development branch's, or a newer release's): they are
    # not this test's business, and a shared developer database often has some.
    assert {p.stem for p in migration_files(driver.queries.root / "schema")} <= recorded


async def test_every_label_has_a_unique_id(driver: GraphDriver) -> None:
    constraints = await driver.read("admin/constraints")
    unique_id = {
        r["labels"][0]
        for r in constraints
        if r["type"] == "UNIQUENESS" and r["properties"] == ["id"]
    }
    assert unique_id >= MODEL_LABELS


async def test_recall_keys_are_indexed(driver: GraphDriver) -> None:
    objects = await driver.read("admin/schema_objects")
    indexed = {(r["labels"][0], tuple(r["properties"])) for r in objects if r["labels"]}
    # A File is read by its path or by the vector job's cursor, never by when it was first
    # seen (migration 020): test_a_file_write_keeps_only_the_indexes_its_reads_use.
    for label in MODEL_LABELS - {"File"}:
        assert (label, ("agent_id", "at")) in indexed, label
    assert ("File", ("agent_id", "path")) in indexed
    assert ("Pattern", ("agent_id", "key")) in indexed
    assert ("Observation", ("category",)) in indexed
    assert ("Observation", ("type",)) in indexed
    fulltext = {r["name"]: r["options"] for r in objects if r["type"] == "FULLTEXT"}
    assert {"fact_text", "procedure_text", "episode_text", "heuristic_text"} <= set(fulltext)
    # Updated in the background: a write does not wait for Lucene (migration 007).
    # case_words is the one exception: the case bank looks for a repeat right after a write.
    for name, options in fulltext.items():
        if name != "case_words":
            assert options["indexConfig"]["fulltext.eventually_consistent"] is True, name


def test_statements_split_on_line_end_semicolons() -> None:
    text = "// header\nCREATE INDEX a IF NOT EXISTS\nFOR (n:A) ON (n.x);\n\nCREATE INDEX b;\n"
    assert split_statements(text) == [
        "CREATE INDEX a IF NOT EXISTS\nFOR (n:A) ON (n.x)",
        "CREATE INDEX b;",
    ]


async def test_a_decision_write_keeps_no_index_another_one_covers(driver: GraphDriver) -> None:
    # Every index is updated on every Decision write (issue 28): a range index whose
    # properties begin another's is served by the longer one (a query adds
    # "IS NOT NULL" on the rest), and decision_text duplicated recall_words' reasoning.
    objects = await driver.read("admin/schema_objects")
    ranges = [
        tuple(r["properties"])
        for r in objects
        if r["labels"] == ["Decision"] and r["type"] == "RANGE" and r["kind"] == "index"
    ]
    covered = [
        (short, long)
        for short in ranges
        for long in ranges
        if short != long and long[: len(short)] == short
    ]
    assert covered == []
    names = {r["name"] for r in objects}
    assert "decision_text" not in names
    assert "recall_words" in names  # where past reasoning is found now (recall/investigate)
    # ... but only a decision that did something is a document of it (migration 021): a WAIT
    # kept in Lucene cost ~3 ms of the server's CPU per decision (test_consequential).
    [words] = [r for r in objects if r["name"] == "recall_words"]
    assert "Consequential" in words["labels"] and "Decision" not in words["labels"]


async def test_a_file_write_keeps_only_the_indexes_its_reads_use(driver: GraphDriver) -> None:
    # Every observation writes its File (issue 28, bench.ingest against the bare write): the
    # unique id, the unique (agent_id, path) every File read seeks, and the vector job's
    # cursor; nothing else (migration 020 dropped three that no query asked).
    objects = await driver.read("admin/schema_objects")
    on_file = {tuple(r["properties"]) for r in objects if r["labels"] == ["File"]}
    assert on_file == {("id",), ("agent_id", "path"), ("agent_id", "updated_at")}
