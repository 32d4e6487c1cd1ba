"""The store's database drivers: one small interface (`base`), two backends.

`open_database(target)` gives a `Database` for a SQLite file (a path: `sqlite`, aiosqlite, the
default) or a PostgreSQL server (a ``postgresql://`` URL: `postgres`, asyncpg with a
connection pool). The store writes its SQL once, in the dialect both understand, and talks
only to `Database` and `Connection` (`bot.store.drivers.base` says what they promise and
which SQL is portable). `SharedDatabase` caps how much of a database one kind of background
work may hold at a time.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from bot.store.drivers.base import Connection, Database, Row
from bot.store.drivers.postgres import PostgresDatabase
from bot.store.drivers.shared import SharedDatabase
from bot.store.drivers.sqlite import SqliteDatabase

__all__ = [
    "POSTGRES_SCHEMES",
    "Connection",
    "Database",
    "Row",
    "SharedDatabase",
    "is_postgres_url",
    "open_database",
]

POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(target: object) -> bool:
    """Whether DATABASE names a PostgreSQL server rather than a SQLite file.

    >>> is_postgres_url("postgresql://bot@db/dealers"), is_postgres_url("data/bot.sqlite3")
    (True, False)
    """
    return isinstance(target, str) and urlsplit(target).scheme in POSTGRES_SCHEMES


async def open_database(target: Path | str) -> Database:
    """Connect to DATABASE: a ``postgresql://`` URL, or else the path of a SQLite file."""
    if is_postgres_url(target):
        return await PostgresDatabase.connect(str(target))
    return await SqliteDatabase.connect(Path(target))
