"""Schema migrations: the files under ``cypher/schema/``, applied in order, once each.

Migrations are the one place where a file may hold several statements: a
migration is a unit of schema change, so its statements are separated by a
``;`` at the end of a line. Every schema statement uses ``IF NOT EXISTS``
and every data statement (a migration that rewrites stored values, such
as ``016_american_spelling``) matches only what it still has to change, so
a migration interrupted half way is simply run again; once all its
statements succeed it is recorded as ``(:Migration {name, applied_at})``
and skipped from then on.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from graph.errors import MemoryQueryError, MigrationError
from graph.store.driver import GraphDriver

log = logging.getLogger(__name__)


def migration_files(schema_dir: Path) -> list[Path]:
    """The migration files in the order they are applied (by file name)."""
    return sorted(schema_dir.glob("*.cypher"))


def split_statements(text: str) -> list[str]:
    """The statements of a migration file, comments and blank lines dropped."""
    body = "\n".join(
        line for line in text.splitlines() if line.strip() and not line.strip().startswith("//")
    )
    return [s.strip() for s in body.split(";\n") if s.strip().rstrip(";").strip()]


async def apply_migrations(driver: GraphDriver, schema_dir: Path | None = None) -> list[str]:
    """Apply every migration not yet recorded; return the names applied now."""
    directory = schema_dir if schema_dir is not None else driver.queries.root / "schema"
    done = {row["name"] for row in await driver.read("admin/applied_migrations")}
    applied: list[str] = []
    for path in migration_files(directory):
        name = path.stem
        if name in done:
            continue
        text = path.read_text(encoding="utf-8")
        await run_migration(driver, path, text)
        checksum = hashlib.sha256(text.encode()).hexdigest()
        await driver.write("admin/record_migration", name=name, checksum=checksum)
        log.info("applied migration %s", name)
        applied.append(name)
    return applied


async def run_migration(driver: GraphDriver, path: Path, text: str) -> None:
    """Run every statement of one migration (``path`` holding ``text``), recorded or not.

    :func:`apply_migrations` runs each file once; run again, a migration
    changes nothing (its statements are idempotent), which is what its tests
    show.
    """
    for number, statement in enumerate(split_statements(text), start=1):
        try:
            await driver.run_schema(statement.rstrip(";"), source=f"{path} statement {number}")
        except MemoryQueryError as exc:
            raise MigrationError(f"migration {path} failed: {exc}") from None
