"""The store's database adapter: one small interface, two backends.

`open_database(target)` gives a `Database` for a SQLite file (a path: aiosqlite, the default)
or a PostgreSQL server (a ``postgresql://`` URL: asyncpg with a connection pool). The store
writes its SQL once, in the dialect both understand, and talks only to this interface:

* `Database.reading()`: a connection for reads (autocommit);
  `Database.writing()`: a connection inside a transaction, committed when the block ends
  and rolled back if it raises or is cancelled; `Connection.transaction()` does the same on
  a connection already held (a read that turns out to need a write).
* `Database.write_one`: a write that is one statement, atomic by itself (on PostgreSQL without
  BEGIN and COMMIT: one round trip, not three).
* `Database.listen` and `Database.notify`: PostgreSQL's LISTEN/NOTIFY, by which processes
  sharing the database wake each other (`bot.routing`).
* `Connection.execute` (returns the rows affected), `executemany`, `fetch_all`, `fetch_one`.
  Rows are read by column name or position (`sqlite3.Row` and `asyncpg.Record` both are).
  New ids come back with ``INSERT ... RETURNING id``, never `lastrowid`.
* Parameters are written ``?`` everywhere; the PostgreSQL side numbers them ``$1, $2, ...``
  (`numbered`), in this one place.

Portable SQL, as the store and the migrations keep it: ``ON CONFLICT ... DO UPDATE/NOTHING``
and ``RETURNING`` (SQLite 3.35+), ``CASE`` rather than SQLite's two-argument ``max``,
``CAST(... AS BIGINT)`` around ``sum`` (PostgreSQL's sum of integers is numeric), every
selected column grouped, an alias on every subquery. `Connection.for_update` is the row lock a
read-then-write needs on PostgreSQL (`` FOR UPDATE``; SQLite's write transaction already holds
the whole database, so there it is empty).

How the two keep transactions atomic and safe to run side by side:

* SQLite: one connection and one `asyncio.Lock`. aiosqlite runs statements on one worker
  thread, so between two awaits another coroutine could slip its statements into our open
  transaction; every block (reads too) holds the lock throughout, and writes begin with
  ``BEGIN IMMEDIATE`` so that a second process waits for the write lock up front
  (busy_timeout) instead of failing half-way. WAL with synchronous=NORMAL.
* PostgreSQL: a pool; each block has a connection of its own, so transactions of different
  tables run at the same time, isolated by the server (READ COMMITTED). Code that reads a
  row and writes it back locks it first (`for_update`), always in the same order (chip
  accounts by user id), so two transactions wait for each other rather than deadlock.

Either way COMMIT and ROLLBACK run to the end even when the waiting task is cancelled.

Migrations (`bot.store.migrations`) are written in SQLite's dialect; `Database.ddl` turns one
statement into this database's. For PostgreSQL that is a short, fixed list of rewrites (see
`postgres_ddl`); anything it cannot express must be avoided in a migration.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from bot.store.rows import StoreError

__all__ = [
    "POSTGRES_SCHEMES",
    "Connection",
    "Database",
    "PostgresDatabase",
    "Row",
    "SharedDatabase",
    "SqliteDatabase",
    "is_postgres_url",
    "numbered",
    "open_database",
    "postgres_ddl",
    "redact_url",
]

log = logging.getLogger(__name__)

POSTGRES_SCHEMES = ("postgresql", "postgres")
BUSY_TIMEOUT_MS = 5000
POOL_SIZE = 10
# pg_advisory_xact_lock key that serialises migrations between processes ("DCMIGRAT").
_MIGRATION_LOCK = 0x44434D4947524154

T = TypeVar("T")
Params = Sequence[Any]


class Row(Protocol):
    """A result row: by column name or by position."""

    def __getitem__(self, key: int | str, /) -> Any: ...


def is_postgres_url(target: object) -> bool:
    """Whether DATABASE names a PostgreSQL server rather than a SQLite file.

    >>> is_postgres_url("postgresql://bot@db/dealers"), is_postgres_url("data/bot.sqlite3")
    (True, False)
    """
    return isinstance(target, str) and urlsplit(target).scheme in POSTGRES_SCHEMES


def redact_url(url: str) -> str:
    """The URL fit for a log or an error message: without its password.

    >>> redact_url("postgresql://bot:s3cret@db:5432/dealers")
    'postgresql://bot:***@db:5432/dealers'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")
    user = netloc[0].partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[2]}"))


# --- the interface --------------------------------------------------------------------------


class Connection(ABC):
    """One connection, held for one block of work (see `Database.reading`/`writing`)."""

    dialect: str
    for_update: str

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row the statement returns."""

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """All or nothing: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    async def lock_migrations(self) -> None:
        """Inside a transaction: wait until no other process is migrating this database."""



class Database(ABC):
    """A SQLite file or a PostgreSQL server behind the one interface the store uses."""

    dialect: str
    #: The driver's errors, for a caller that turns them into one sentence.
    errors: tuple[type[BaseException], ...]
    #: What to call the database in a message (a path, or a URL without its password).
    name: str

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads; it may start a transaction of its own."""

    @abstractmethod
    def writing(self) -> AbstractAsyncContextManager[Connection]:
        """A connection in a transaction that commits when the block ends."""

    @abstractmethod
    async def close(self) -> None:
        """Close once the running blocks have finished."""

    async def write_one(self, sql: str, params: Params = ()) -> int:
        """One statement that writes, on its own (atomic by itself); returns the rows changed.
        PostgreSQL runs it without BEGIN and COMMIT: one round trip instead of three."""
        async with self.writing() as conn:
            return await conn.execute(sql, params)

    async def write_one_returning(self, sql: str, params: Params = ()) -> list[Row]:
        """`write_one` for a statement with RETURNING: the rows it returns."""
        async with self.writing() as conn:
            return await conn.fetch_all(sql, params)

    @abstractmethod
    def bootstrap(self) -> list[str]:
        """What must exist before the first migration (the schema_version table)."""

    @abstractmethod
    def ddl(self, statement: str) -> str:
        """A migration statement (written for SQLite) in this database's dialect."""

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(payload)` for each `notify` on `channel`, from any process."""
        raise StoreError(f"{self.dialect} cannot pass notifications between processes")

    async def notify(self, channel: str, payload: str) -> None:
        """Wake the processes listening on `channel` with `payload` (PostgreSQL: at most
        8,000 bytes), storing nothing. Only PostgreSQL has other processes to wake."""
        raise StoreError(f"{self.dialect} cannot pass notifications between processes")


class SharedDatabase(Database):
    """A database for one kind of background work: at most `limit` of its blocks at a time.

    Work that comes in waves (the outbox sender, with a worker per table and destination)
    would otherwise fill the pool's queue, or SQLite's lock's, hundreds deep, and each click
    would wait behind all of it to save its step: seconds, under load. Capped, it leaves the
    rest of the pool to clicks. Closing it leaves the database open: its owner closes that.
    """

    def __init__(self, database: Database, limit: int) -> None:
        self._database = database
        self._gate = asyncio.Semaphore(limit)
        self.dialect = database.dialect
        self.errors = database.errors
        self.name = database.name

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._gate, self._database.reading() as conn:
            yield conn

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Connection]:
        async with self._gate, self._database.writing() as conn:
            yield conn

    async def write_one(self, sql: str, params: Params = ()) -> int:
        async with self._gate:
            return await self._database.write_one(sql, params)

    async def write_one_returning(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._gate:
            return await self._database.write_one_returning(sql, params)

    async def close(self) -> None:
        return None

    def bootstrap(self) -> list[str]:
        return self._database.bootstrap()

    def ddl(self, statement: str) -> str:
        return self._database.ddl(statement)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        await self._database.listen(channel, callback)

    async def notify(self, channel: str, payload: str) -> None:
        async with self._gate:
            await self._database.notify(channel, payload)


async def open_database(target: Path | str) -> Database:
    """Connect to DATABASE: a ``postgresql://`` URL, or else the path of a SQLite file."""
    if is_postgres_url(target):
        return await PostgresDatabase.connect(str(target))
    return await SqliteDatabase.connect(Path(target))


async def _to_the_end(work: Awaitable[T]) -> T:
    """Await `work` to its end even if this task is cancelled meanwhile; the cancellation
    is passed on afterwards. For COMMIT and ROLLBACK, which must not be cut off half-way."""
    task = asyncio.ensure_future(work)
    interrupted = False
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            interrupted = True
    if interrupted:
        if not task.cancelled():
            task.exception()  # retrieved: the cancellation is what the caller must see
        raise asyncio.CancelledError
    return task.result()


# --- SQLite ---------------------------------------------------------------------------------


class SqliteConnection(Connection):
    dialect = "sqlite"
    for_update = ""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, tuple(params))
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(row) for row in rows]
        if batch:
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

    def _connection(self) -> SqliteConnection:
        if self._conn is None:
            raise StoreError("The store is closed.")
        return SqliteConnection(self._conn)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield self._connection()

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Connection]:
        async with self._lock:
            conn = self._connection()
            async with conn.transaction():
                yield conn

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


# --- PostgreSQL -----------------------------------------------------------------------------

# `asyncpg` ships no type information; it is imported when a URL asks for it, so that a bot on
# SQLite never loads it.


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``, leaving quoted text and comments be.

    >>> numbered("SELECT '?', x FROM t WHERE a = ? AND \\"b?\\" = ? -- ?")
    'SELECT \\'?\\', x FROM t WHERE a = $1 AND "b?" = $2 -- ?'
    """
    out: list[str] = []
    count = 0
    i, n = 0, len(sql)
    while i < n:
        char = sql[i]
        if char in "'\"":
            end = sql.find(char, i + 1)
            while end != -1 and sql[end + 1 : end + 2] == char:  # a doubled quote
                end = sql.find(char, end + 2)
            end = n if end == -1 else end + 1
            out.append(sql[i:end])
            i = end
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end == -1 else end
            out.append(sql[i:end])
            i = end
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            end = n if end == -1 else end + 2
            out.append(sql[i:end])
            i = end
        elif char == "?":
            count += 1
            out.append(f"${count}")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


# The migrations' SQLite dialect in PostgreSQL's, one rule each (applied in this order):
_DDL_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # A SQLite storage option with no meaning elsewhere.
    (re.compile(r"\)\s*WITHOUT\s+ROWID", re.IGNORECASE), ")"),
    # SQLite's INTEGER PRIMARY KEY is the row id: given, or else the next number. That is an
    # identity column (AUTOINCREMENT's "never reused" is what a sequence does anyway).
    (re.compile(r"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b", re.IGNORECASE),
     "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    # SQLite's integers are 64-bit (Discord ids need that); PostgreSQL's INTEGER is 32-bit.
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    # SQLite's REAL is an 8-byte float; PostgreSQL's is 4 bytes.
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
    # The only BLOB column keeps a snapshot's text as it was found.
    (re.compile(r"\bBLOB\b", re.IGNORECASE), "TEXT"),
)


def postgres_ddl(statement: str) -> str:
    """A migration statement in PostgreSQL's dialect. ``json_valid`` needs no rewrite: the
    bootstrap defines it (the same test as SQLite's: is this text JSON?).

    >>> postgres_ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, b BLOB) WITHOUT ROWID")
    'CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT, b TEXT)'
    """
    for pattern, replacement in _DDL_RULES:
        statement = pattern.sub(replacement, statement)
    return statement


def _rowcount(status: str) -> int:
    """asyncpg's command tag ('INSERT 0 1', 'UPDATE 3', 'DELETE 0') as a row count."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class PostgresConnection(Connection):
    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        return _rowcount(await self._conn.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(row) for row in rows]
        if batch:
            await self._conn.executemany(numbered(sql), batch)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.fetch(numbered(sql), *params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._conn.fetchrow(numbered(sql), *params)
        return row

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        try:
            await self._conn.execute("BEGIN")
            yield
            await _to_the_end(self._conn.execute("COMMIT"))
        except BaseException:
            try:
                await _to_the_end(self._conn.execute("ROLLBACK"))
            except Exception:
                # The pool must not hand out a connection left inside a transaction.
                log.exception("rollback failed; dropping the connection")
                self._conn.terminate()
            raise

    async def lock_migrations(self) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)


async def _keep_session(_conn: Any) -> None:
    """A connection going back to the pool needs no reset query. asyncpg's default sends one
    (RESET ALL, UNLISTEN *, advisory unlocks, CLOSE ALL) at every release: a second round
    trip for every one-statement write, 9% of the bot's time under load. The store leaves
    no session state behind: no SET, no LISTEN on a pooled connection (`listen` has a
    connection of its own), only transaction-scoped advisory locks; and asyncpg itself
    still rolls back a transaction left open before calling this."""
    return None


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database (see the module's docstring)."""

    dialect = "postgresql"

    def __init__(self, pool: Any, url: str, errors: tuple[type[BaseException], ...]) -> None:
        self._pool: Any = pool
        self.url = url
        self.name = redact_url(url)
        self.errors = errors
        self._listener: Any = None  # a connection of its own, outside the pool
        self._listening: dict[str, Callable[[str], None]] = {}
        self._reconnect: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresDatabase:
        import asyncpg  # type: ignore[import-untyped]

        errors = (asyncpg.PostgresError, asyncpg.InterfaceError)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size,
                                             reset=_keep_session)
        except (TimeoutError, OSError, *errors) as exc:
            reason = str(exc) or type(exc).__name__
            raise StoreError(
                f"Cannot connect to the PostgreSQL database {redact_url(url)} ({reason})."
            ) from None
        except ValueError as exc:  # a URL asyncpg cannot parse
            raise StoreError(
                f"DATABASE {redact_url(url)} is not a PostgreSQL URL asyncpg understands "
                f"({exc})."
            ) from None
        return cls(pool, url, errors)

    def _pool_or_fail(self) -> Any:
        if self._pool is None:
            raise StoreError("The store is closed.")
        return self._pool

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._pool_or_fail().acquire() as conn:
            yield PostgresConnection(conn)

    async def write_one(self, sql: str, params: Params = ()) -> int:
        async with self._pool_or_fail().acquire() as raw:
            return await PostgresConnection(raw).execute(sql, params)

    async def write_one_returning(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._pool_or_fail().acquire() as raw:
            return await PostgresConnection(raw).fetch_all(sql, params)

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Connection]:
        async with self._pool_or_fail().acquire() as raw:
            conn = PostgresConnection(raw)
            async with conn.transaction():
                yield conn

    async def close(self) -> None:
        self._listening.clear()
        if self._reconnect is not None:
            self._reconnect.cancel()
        listener, self._listener = self._listener, None
        if listener is not None:
            await listener.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()  # waits for the connections in use to be released

    async def notify(self, channel: str, payload: str) -> None:
        async with self._pool_or_fail().acquire() as raw:
            await raw.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        self._listening[channel] = callback
        if self._listener is None:
            await self._connect_listener()
        else:
            await self._add_listener(self._listener, channel, callback)

    @staticmethod
    async def _add_listener(conn: Any, channel: str, callback: Callable[[str], None]) -> None:
        await conn.add_listener(channel, lambda _conn, _pid, _channel, payload: callback(payload))

    async def _connect_listener(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        for channel, callback in self._listening.items():
            await self._add_listener(conn, channel, callback)
        conn.add_termination_listener(self._listener_lost)
        self._listener = conn

    def _listener_lost(self, _conn: Any) -> None:
        """The server dropped the listening connection (a restart): listen again as soon as it
        can be reached; notifications sent meanwhile are lost (a click then goes unanswered)."""
        if self._listening and (self._reconnect is None or self._reconnect.done()):
            log.warning("lost the connection that listens for notifications; reconnecting")
            self._reconnect = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        while self._listening:
            try:
                await self._connect_listener()
                log.info("listening for notifications again")
                return
            except Exception as exc:
                log.warning("cannot listen for notifications yet (%s)", exc)
                await asyncio.sleep(1.0)

    def bootstrap(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version BIGINT PRIMARY KEY CHECK (version >= 1),"
            " name TEXT NOT NULL, applied_at TEXT NOT NULL)",
            # SQLite's json_valid(), which the migrations' CHECK constraints use.
            "CREATE OR REPLACE FUNCTION json_valid(value TEXT) RETURNS BOOLEAN"
            " LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$"
            " BEGIN PERFORM value::json; RETURN TRUE;"
            " EXCEPTION WHEN others THEN RETURN FALSE; END $$",
        ]

    def ddl(self, statement: str) -> str:
        return postgres_ddl(statement)
