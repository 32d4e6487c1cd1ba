"""Plain access to a test's database, SQLite file or PostgreSQL URL alike, through a connection
of its own: like a restarted bot, it sees only what was committed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.store.drivers import is_postgres_url, open_database

Target = Path | str


def is_postgres(target: Target) -> bool:
    return is_postgres_url(target)


async def fetch(target: Target, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every row of a query (``?`` placeholders), as tuples."""
    db = await open_database(target)
    try:
        async with db.reading() as conn:
            return [tuple(row) for row in await conn.fetch_all(sql, params)]
    finally:
        await db.close()


async def fetch_one(target: Target, sql: str, params: tuple[Any, ...] = ()) -> tuple[Any, ...]:
    rows = await fetch(target, sql, params)
    assert rows, f"no row from {sql}"
    return rows[0]


async def execute(target: Target, *statements: str | tuple[str, tuple[Any, ...]]) -> None:
    """Statements in one transaction."""
    db = await open_database(target)
    try:
        async with db.writing() as conn:
            for statement in statements:
                sql, params = (statement, ()) if isinstance(statement, str) else statement
                await conn.execute(sql, params)
    finally:
        await db.close()


async def table_names(target: Target) -> list[str]:
    if is_postgres(target):
        sql = ("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
               " ORDER BY tablename")
    else:
        sql = ("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
               " ORDER BY name")
    return [row[0] for row in await fetch(target, sql)]


async def dump(target: Target) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as a committed reader sees them."""
    db = await open_database(target)
    try:
        async with db.reading() as conn:
            names = await table_names(target)
            return {
                name: sorted((tuple(r) for r in await conn.fetch_all(f"SELECT * FROM {name}")),
                             key=repr)
                for name in names
            }
    finally:
        await db.close()
