"""A database opened so that it cannot write: the web process's (issue 25), which shows a
server's games and never changes them. A SQLite file by a ``mode=ro`` URI with ``query_only``
on, several connections so that pages read side by side; a PostgreSQL pool whose every
transaction is read-only (``default_transaction_read_only``): the server itself refuses a
write.
"""

from __future__ import annotations

import asyncio
import importlib
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.store.drivers.base import Connection, Database
from bot.store.drivers.postgres import PostgresDatabase, _keep_session, redact_url
from bot.store.drivers.sqlite import BUSY_TIMEOUT_MS, SqliteDatabase
from bot.store.errors import StoreError

READ_POOL = 4  # connections of the web process (each database): pages read side by side


class SqliteReaders(Database):
    """Several read-only connections to one SQLite file, each on its own thread (aiosqlite),
    so that pages read side by side (SQLite lets readers share a WAL database) instead of
    queueing behind one connection's lock. It cannot write: every connection is ``mode=ro``."""

    dialect = "sqlite"
    errors = (sqlite3.Error,)

    def __init__(self, readers: list[SqliteDatabase], path: Path) -> None:
        self._all = readers
        self._free: asyncio.Queue[SqliteDatabase] = asyncio.Queue()
        for reader in readers:
            self._free.put_nowait(reader)
        self.path = path
        self.name = str(path)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        reader = await self._free.get()
        try:
            async with reader.reading() as conn:
                yield conn
        finally:
            self._free.put_nowait(reader)

    async def close(self) -> None:
        for reader in self._all:
            await reader.close()

    def bootstrap(self) -> list[str]:
        raise StoreError("the web's read-only store migrates nothing")

    def ddl(self, statement: str) -> str:
        raise StoreError("the web's read-only store migrates nothing")


async def sqlite_read_only(path: Path) -> SqliteReaders:
    """The SQLite file opened read-only (``mode=ro``; ``query_only`` besides), `READ_POOL`
    times."""
    import aiosqlite

    if not path.is_file():
        raise StoreError(f"There is no database at {path}: start the bot first (it creates "
                         "it), or set DATABASE to the bot's.")
    readers: list[SqliteDatabase] = []
    try:
        for _ in range(READ_POOL):
            conn = await aiosqlite.connect(f"{path.as_uri()}?mode=ro", uri=True,
                                           isolation_level=None)
            readers.append(SqliteDatabase(conn, path))
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA query_only = ON")
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
    except sqlite3.Error as exc:
        for reader in readers:
            await reader.close()
        raise StoreError(f"Cannot open the database {path} ({exc}).") from None
    return SqliteReaders(readers, path)


async def postgres_read_only(url: str) -> PostgresDatabase:
    """A pool whose every transaction is read-only (the server refuses any write)."""
    asyncpg: Any = importlib.import_module("asyncpg")  # untyped: it ships no type information

    errors = (asyncpg.PostgresError, asyncpg.InterfaceError)
    try:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=READ_POOL, reset=_keep_session,
            server_settings={"default_transaction_read_only": "on"})
    except (TimeoutError, OSError, ValueError, *errors) as exc:
        reason = str(exc) or type(exc).__name__
        raise StoreError(f"Cannot connect to the PostgreSQL database {redact_url(url)} "
                         f"({reason}).") from None
    return PostgresDatabase(pool, url, errors)
