"""A database opened so that it cannot write: the web process's (issue 25), which shows a
server's games and never changes them. A SQLite file by a ``mode=ro`` URI with ``query_only``
on, several connections so that pages read side by side; a PostgreSQL pool whose every
transaction is read-only (``default_transaction_read_only``): the server itself refuses a
write (and keeps each statement's generic plan: `SESSION_SETTINGS`).

`quick_reading`: a short, indexed read (a person's page, a server's settings) run where it
is asked, without a hop to another thread (SQLite; see `InlineReads`).
"""

from __future__ import annotations

import asyncio
import importlib
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from bot.store.drivers.base import Connection, Database, Params, Row, closed
from bot.store.drivers.postgres import PostgresDatabase, _keep_session, redact_url
from bot.store.drivers.sqlite import BUSY_TIMEOUT_MS, SqliteDatabase
from bot.store.errors import StoreError

READ_POOL = 4  # connections of the web process (each database): pages read side by side
#: The page cache of `InlineReads`' connection, in KiB (SQLite's default: 2,000): the rows
#: a person's page reads (a server's games, results, ratings and their indexes) are 12 MB
#: for 20,000 games, and a page read from SQLite's cache rather than through the operating
#: system's costs a sixth less (0.48 ms against 0.58, 1,000 players and 20,000 games).
INLINE_CACHE_KIB = 32 * 1024


class SqliteReaders(Database):
    """Several read-only connections to one SQLite file, each on its own thread (aiosqlite),
    so that pages read side by side (SQLite lets readers share a WAL database) instead of
    queueing behind one connection's lock. It cannot write: every connection is ``mode=ro``."""

    dialect = "sqlite"
    errors = (sqlite3.Error,)

    def __init__(self, readers: list[SqliteDatabase], path: Path,
                 inline: sqlite3.Connection) -> None:
        self._all = readers
        self._free: asyncio.Queue[SqliteDatabase] = asyncio.Queue()
        for reader in readers:
            self._free.put_nowait(reader)
        self._inline: sqlite3.Connection | None = inline
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

    @asynccontextmanager
    async def reading_inline(self) -> AsyncIterator[Connection]:
        """A connection whose reads run here, on the event loop's thread (`InlineReads`)."""
        if self._inline is None:
            raise closed()
        yield InlineReads(self._inline, self)

    async def close(self) -> None:
        inline, self._inline = self._inline, None
        if inline is not None:
            inline.close()
        for reader in self._all:
            await reader.close()

    def bootstrap(self) -> list[str]:
        raise StoreError("the web's read-only store migrates nothing")

    def ddl(self, statement: str) -> str:
        raise StoreError("the web's read-only store migrates nothing")


class InlineReads(Connection):
    """Reads of a SQLite file run on the event loop's own thread, each to its end before
    anything else runs: for the short, indexed reads of the most asked-for pages
    (`quick_reading`). Through aiosqlite a read is a hop to its thread and back (a queue, a
    wake-up of the loop, a future): the three of a person's page cost the web process about
    as much CPU as the reads themselves, a sixth of the page's (1,000 players and 20,000
    games); a read of a fraction of a millisecond is cheaper done where it is asked.
    A long read (a whole board's totals) keeps its thread, so the loop serves other pages
    meanwhile.

    Nothing is held across an await (every statement is read to its end), so one
    connection serves every coroutine. It never waits for a lock on the loop: busy (a
    writer's crash being recovered), the read is done again on a connection of the pool,
    which waits in its own thread."""

    dialect = "sqlite"
    for_update = ""

    def __init__(self, conn: sqlite3.Connection, pool: SqliteReaders) -> None:
        self._conn = conn
        self._pool = pool

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            rows: list[Row] = self._conn.execute(sql, tuple(params)).fetchall()
        except sqlite3.OperationalError:  # busy, or a mistake the pool reports alike
            async with self._pool.reading() as conn:
                return await conn.fetch_all(sql, params)
        return rows

    async def execute(self, sql: str, params: Params = ()) -> int:
        raise StoreError("the web's read-only store writes nothing")

    async def _executemany(self, sql: str, batch: list[tuple[Any, ...]]) -> None:
        raise StoreError("the web's read-only store writes nothing")

    def transaction(self) -> AbstractAsyncContextManager[None]:
        raise StoreError("the web's read-only store writes nothing")

    async def lock_migrations(self) -> None:
        raise StoreError("the web's read-only store migrates nothing")


def quick_reading(db: Database) -> AbstractAsyncContextManager[Connection]:
    """A connection for a short, indexed read: SQLite's read on the loop's thread
    (`InlineReads`); any other database's as `Database.reading` gives it."""
    if isinstance(db, SqliteReaders):
        return db.reading_inline()
    return db.reading()


async def sqlite_read_only(path: Path) -> SqliteReaders:
    """The SQLite file opened read-only (``mode=ro``; ``query_only`` besides), `READ_POOL`
    times, and once more for `InlineReads` (which never waits for a lock: busy_timeout 0;
    its cache `INLINE_CACHE_KIB`)."""
    import aiosqlite

    if not path.is_file():
        raise StoreError(f"There is no database at {path}: start the bot first (it creates "
                         "it), or set DATABASE to the bot's.")
    readers: list[SqliteDatabase] = []
    inline: sqlite3.Connection | None = None
    try:
        for _ in range(READ_POOL):
            conn = await aiosqlite.connect(f"{path.as_uri()}?mode=ro", uri=True,
                                           isolation_level=None)
            readers.append(SqliteDatabase(conn, path))
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA query_only = ON")
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        inline = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None)
        inline.row_factory = sqlite3.Row
        inline.execute("PRAGMA query_only = ON")
        inline.execute("PRAGMA busy_timeout = 0")
        inline.execute(f"PRAGMA cache_size = -{INLINE_CACHE_KIB:d}")
    except sqlite3.Error as exc:
        if inline is not None:
            inline.close()
        for reader in readers:
            await reader.close()
        raise StoreError(f"Cannot open the database {path} ({exc}).") from None
    return SqliteReaders(readers, path, inline)


#: The web's sessions' settings on PostgreSQL: every transaction read-only (the server
#: refuses any write); and each statement planned once per connection, its generic plan
#: kept (`plan_cache_mode`). By default the server plans a prepared statement again at
#: each execution while its first five custom plans looked cheaper than the generic one,
#: and which it keeps depends on the first five values asked: a person's page's record
#: query was planned anew at every page on some connections (1.3 of its 2 ms of the
#: server's CPU) and not on others. Every web read starts from ids (a server, a person, a
#: table) through an index, whose plan does not depend on which.
SESSION_SETTINGS = {"default_transaction_read_only": "on",
                    "plan_cache_mode": "force_generic_plan"}


async def postgres_read_only(url: str) -> PostgresDatabase:
    """A pool whose every transaction is read-only (the server refuses any write), each
    statement's generic plan kept (`SESSION_SETTINGS`)."""
    asyncpg: Any = importlib.import_module("asyncpg")  # untyped: it ships no type information

    errors = (asyncpg.PostgresError, asyncpg.InterfaceError)
    try:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=READ_POOL, reset=_keep_session,
            server_settings=SESSION_SETTINGS)
    except (TimeoutError, OSError, ValueError, *errors) as exc:
        reason = str(exc) or type(exc).__name__
        raise StoreError(f"Cannot connect to the PostgreSQL database {redact_url(url)} "
                         f"({reason}).") from None
    return PostgresDatabase(pool, url, errors, session=SESSION_SETTINGS)
