"""Versioned schema migrations: `data/migrations/NNNN_name.sql`, applied in order at start-up.

Each file is applied in its own transaction together with its `schema_version` row, so a
failing migration leaves the database exactly at the previous version. The statements are
run one by one on the store's connection (not with `executescript`, which would commit
whatever transaction is open and so break that guarantee).

Rules for migration files: never edit one that has been released (add a new file); no
BEGIN/COMMIT inside; PRAGMAs that cannot run in a transaction (`foreign_keys`) have no
effect, so a table rebuild should use `PRAGMA defer_foreign_keys = ON` instead.

One file serves both databases. It is written in SQLite's dialect and PostgreSQL gets it
through a short, fixed list of rewrites (`bot.store.drivers.postgres.postgres_ddl`: INTEGER
is BIGINT, INTEGER PRIMARY KEY an identity column, no WITHOUT ROWID, REAL is DOUBLE
PRECISION, BLOB is TEXT; `json_valid()` exists on both). So a migration keeps to what both
understand: no triggers (their bodies differ), no PRAGMAs, no ALTER TABLE beyond ADD COLUMN /
RENAME, no SQLite-only functions; a table rebuild is CREATE new / INSERT ... SELECT / DROP /
ALTER TABLE ... RENAME. The store tests run every migration on both (`./dev test`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.store.drivers import Connection, Database
from bot.store.errors import MigrationError, SchemaTooNewError

__all__ = [
    "MIGRATIONS_DIR",
    "Migration",
    "apply_migrations",
    "discover_migrations",
    "split_statements",
]

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "data" / "migrations"

_FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
_TRANSACTION_CONTROL = re.compile(
    r"^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b", re.IGNORECASE
)

@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def discover_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Read the migration files, refusing gaps, duplicates and misnamed files.

    A misnamed `.sql` file (say `002_x.sql`) would otherwise be skipped silently and its
    tables would be missing in production only.
    """
    found: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        match = _FILE.fullmatch(path.name)
        if not match:
            raise MigrationError(
                f"The migration file {path.name} is not named like 0001_initial.sql."
            )
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"Two migration files have the number {version:04d}.")
        found[version] = Migration(version, match.group(2), path.read_text(encoding="utf-8"))
    versions = sorted(found)
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(
            f"The migration files in {directory} must be numbered 0001, 0002, ... without gaps."
        )
    return [found[v] for v in versions]


def split_statements(sql: str) -> list[str]:
    """Cut a script into complete statements, using sqlite's own notion of "complete".

    That keeps semicolons inside strings, comments and trigger bodies where they belong.

    >>> split_statements("CREATE TABLE a (x); -- a; b\\nINSERT INTO a VALUES (';');")
    ['CREATE TABLE a (x);', "-- a; b\\nINSERT INTO a VALUES (';');"]
    """
    statements: list[str] = []
    start = 0
    for i, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start : i + 1]):
            statements.append(sql[start : i + 1].strip())
            start = i + 1
    rest = sql[start:].strip()
    if _has_code(rest):
        raise MigrationError(f"A migration ends with an incomplete statement: {rest[:60]!r}.")
    return statements


def _has_code(text: str) -> bool:
    """Whether anything but comments and whitespace is left (an unterminated statement)."""
    without_block = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    without_line = re.sub(r"--[^\n]*", "", without_block)
    return bool(without_line.strip())


async def current_version(conn: Connection) -> int:
    row = await conn.fetch_one("SELECT coalesce(max(version), 0) FROM schema_version")
    return int(row[0]) if row else 0


async def apply_migrations(
    db: Database,
    migrations: Sequence[Migration],
    *,
    applied_at: str,
    path: object,
) -> int:
    """Bring the database up to the newest migration; returns the schema version reached.

    Each step takes the database's migration lock (SQLite's write lock, a PostgreSQL
    advisory lock) and reads the version again under it, so two processes starting at once
    cannot both apply the same file.
    """
    async with db.writing() as conn:
        await conn.lock_migrations()
        for statement in db.bootstrap():
            await conn.execute(statement)
    known = migrations[-1].version if migrations else 0
    async with db.reading() as conn:
        found = await current_version(conn)
    if found > known:
        raise SchemaTooNewError(path, found, known)
    for migration in migrations:
        if migration.version <= found:
            continue
        statements = split_statements(migration.sql)
        for statement in statements:
            if _TRANSACTION_CONTROL.match(_strip_leading_comments(statement)):
                raise MigrationError(
                    f"Migration {migration.version:04d}_{migration.name} controls transactions "
                    "itself; the store does that."
                )
        try:
            async with db.writing() as conn:
                await conn.lock_migrations()
                found = await current_version(conn)
                if migration.version <= found:  # another process got there first
                    continue
                for statement in statements:
                    await conn.execute(db.ddl(statement))
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, applied_at),
                )
        except db.errors as exc:
            raise MigrationError(
                f"Migration {migration.version:04d}_{migration.name} failed ({exc}); the "
                f"database was left at schema version {found}."
            ) from exc
        found = migration.version
    return found


def _strip_leading_comments(statement: str) -> str:
    text = statement
    while True:
        text = text.lstrip()
        if text.startswith("--"):
            text = text.partition("\n")[2]
        elif text.startswith("/*"):
            text = text.partition("*/")[2]
        else:
            return text
