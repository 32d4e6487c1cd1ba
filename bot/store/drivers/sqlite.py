"""The SQLite driver (the default): a file, through aiosqlite.

One connection and one `asyncio.Lock`. aiosqlite runs statements on one worker thread, so
between two awaits another coroutine could slip its statements into our open transaction;
every block (reads too) holds the lock throughout, and writes begin with ``BEGIN IMMEDIATE``
so that a second process waits for the write lock up front (busy_timeout) instead of failing
half-way. WAL with synchronous=NORMAL. Migrations are written in SQLite's dialect, so `ddl`
leaves them as they are.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.drivers.base import Connection, Database, Params, Row, closed
from bot.store.errors import StoreError

__all__ = ["BUSY_TIMEOUT_MS", "SqliteConnection", "SqliteDatabase"]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000


class SqliteConnection(Connection):
    dialect = "sqlite"
    for_update = ""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, tuple(params))
        return cursor.rowcount

    async def _executemany(self, sql: str, batch: list[tuple[Any, ...]]) -> None:
        await self._conn.executemany(sql, batch)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        # The commit and rollback are queued on aiosqlite's one worker thread, so once queued
        # they finish even if we are cancelled, and anything queued later runs after them.
        try:
            # Inside the try: a task cancelled while BEGIN is queued must still roll back, or
            # the connection would be left in a transaction that every later BEGIN trips on.
            await self._conn.execute("BEGIN IMMEDIATE")
            yield
            await asyncio.shield(self._conn.commit())
        except BaseException:
            try:
                await asyncio.shield(self._conn.rollback())
            except Exception:
                log.exception("rollback failed")
            raise

    async def lock_migrations(self) -> None:
        pass  # BEGIN IMMEDIATE already holds the database's write lock


class SqliteDatabase(Database):
    """One file, one connection, one lock (see the module's docstring)."""

    dialect = "sqlite"
    errors = (sqlite3.Error,)

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self.path = path
        self.name = str(path)
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: Path) -> SqliteDatabase:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"Cannot create the folder {path.parent} for the database ({exc.strerror})."
            ) from None
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the database {path} ({exc}).") from None
        conn.row_factory = sqlite3.Row
        try:
            await cls._configure(conn, path)
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StoreError(f"Cannot use {path} as the bot's database ({exc}).") from None
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path)

    @staticmethod
    async def _configure(conn: aiosqlite.Connection, path: Path) -> None:
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        if row is None or str(row[0]).lower() != "wal":
            log.warning("%s: WAL journal not available (got %r); continuing", path, row)
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._lock:
            if self._conn is None:
                raise closed()
            yield SqliteConnection(self._conn)

    async def close(self) -> None:
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    def bootstrap(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY CHECK (version >= 1),"
            " name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        ]

    def ddl(self, statement: str) -> str:
        return statement
