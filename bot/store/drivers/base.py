"""What every driver is: one small interface the store writes its SQL against.

* `Database.reading()`: a connection for reads (autocommit);
  `Database.writing()`: a connection inside a transaction, committed when the block ends
  and rolled back if it raises or is cancelled; `Connection.transaction()` does the same on
  a connection already held (a read that turns out to need a write).
* `Database.write_one`: a write that is one statement, atomic by itself (on PostgreSQL without
  BEGIN and COMMIT: one round trip, not three).
* `Database.listen` and `Database.notify`: PostgreSQL's LISTEN/NOTIFY, by which processes
  sharing the database wake each other (`bot.discord.routing`).
* `Connection.execute` (returns the rows affected), `executemany`, `fetch_all`, `fetch_one`.
  Rows are read by column name or position (`sqlite3.Row` and `asyncpg.Record` both are).
  New ids come back with ``INSERT ... RETURNING id``, never `lastrowid`.
* Parameters are written ``?`` everywhere; the PostgreSQL driver numbers them ``$1, $2, ...``
  (`bot.store.drivers.postgres.numbered`), in that one place.

Portable SQL, as the store and the migrations keep it: ``ON CONFLICT ... DO UPDATE/NOTHING``
and ``RETURNING`` (SQLite 3.35+), ``CASE`` rather than SQLite's two-argument ``max``,
``CAST(... AS BIGINT)`` around ``sum`` (PostgreSQL's sum of integers is numeric), every
selected column grouped, an alias on every subquery. `Connection.for_update` is the row lock a
read-then-write needs on PostgreSQL (`` FOR UPDATE``; SQLite's write transaction already holds
the whole database, so there it is empty).

Either way COMMIT and ROLLBACK run to the end even when the waiting task is cancelled.

Migrations (`bot.store.migrations`) are written in SQLite's dialect; `Database.ddl` turns one
statement into this database's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol

from bot.store.errors import StoreError

__all__ = ["Connection", "Database", "Params", "Row", "closed"]

Params = Sequence[Any]


class Row(Protocol):
    """A result row: by column name or by position."""

    def __getitem__(self, key: int | str, /) -> Any: ...


def closed() -> StoreError:
    """What a driver raises when asked for a connection after `Database.close`."""
    return StoreError("The store is closed.")


class Connection(ABC):
    """One connection, held for one block of work (see `Database.reading`/`writing`)."""

    dialect: str
    for_update: str

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row (nothing at all for no rows)."""
        batch = [tuple(row) for row in rows]
        if batch:
            await self._executemany(sql, batch)

    @abstractmethod
    async def _executemany(self, sql: str, batch: list[tuple[Any, ...]]) -> None:
        """`executemany` on the driver's connection, for at least one row."""

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

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Connection]:
        """A connection in a transaction that commits when the block ends: the reading
        connection (SQLite's lock, or a connection of the pool) inside `transaction`."""
        async with self.reading() as conn, conn.transaction():
            yield conn

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

    @property
    def listening_since(self) -> int | None:
        """Which connection has been listening (`listen`) without a break: a number that
        changes each time listening starts again after the connection was lost (whatever
        was notified meanwhile is lost), None while nothing listens. What is kept in memory
        because notifications tell of its changes holds only while this stays the same."""
        return None
